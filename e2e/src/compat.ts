/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The compatibility part: the packed package in the older n8n releases a user
 * may run (every folder of e2e/n8n/ but the suite's main one: today n8n
 * 1.123.81, the maintained 1.x line, and 2.0.3, the oldest 2.x), each under
 * the Node it declares (22). Single instance over https, the package installed
 * as a community package, then as in the single part: the node types listed,
 * every example, Create and Wait by callback with 3 tasks, the trigger from its
 * production URL (the trigger example), a chat workflow streaming, and one
 * form in the editor with a screenshot.
 */
import { join } from 'node:path';

import { videoTasks } from '../../test/simulator/video/tasks';
import { formScreenshot } from './browser';
import { runDoubleResume } from './doubleResume';
import { checkToolVariant } from './examples';
import { runLaterWait } from './laterWait';
import { runChat } from './chat';
import { olderVersions } from './n8n';
import { runSingle } from './single';
import { startN8n, type PartInput, type PackagedN8n } from './start';
import { examplesDir } from './workflows';

export async function runCompat(input: PartInput): Promise<void> {
	for (const version of olderVersions()) await runOn(version, input);
}

async function runOn(version: string, input: PartInput): Promise<void> {
	const { checks } = input;
	const label = `compat-${version}`;
	const title = `n8n ${version}`;
	checks.begin(`${title}: start`);
	let ctx: PackagedN8n | undefined;
	try {
		ctx = await startN8n(input, { name: label, version });
		await checkToolVariant(ctx);
		await runSingle(ctx, title);
		checks.begin(`${title}: streaming into n8n's chat (Chat Trigger → Message Create)`);
		await checks.timed(`${label}: chat`, async () => {
			try {
				await runChat(ctx!);
			} catch (error) {
				checks.broke(`${label}: chat streaming`, error);
			}
		});
		checks.begin(`${title}: the form in the editor`);
		try {
			await formScreenshot(ctx, join(examplesDir, 'video-create-and-wait.json'), 'Create Video and Wait', [
				'Resource',
				'Operation',
				'Model',
				'Prompt',
			]);
		} catch (error) {
			checks.broke(`${label}: form`, error);
		}
	} catch (error) {
		checks.broke(title, error);
	} finally {
		await ctx?.stop();
	}
	await runQueueOn(version, input);
}

/**
 * Queue mode on the older release, two webhook processes: a Wait node after a callback wait, its
 * callbacks taking turns between the processes (the worker's own post must resume nothing), then
 * each final callback sent to both at once: n8n 2.x refuses a second resume, 1.123 cannot (no
 * claim), and the second resumes are counted.
 */
async function runQueueOn(version: string, input: PartInput): Promise<void> {
	const { checks, sim } = input;
	const label = `compat-${version}-queue`;
	const claims = Number(version.split('.')[0]) >= 2;
	checks.begin(`n8n ${version} in queue mode: a Wait node after Create and Wait, two webhook processes`);
	let ctx: PackagedN8n | undefined;
	try {
		ctx = await startN8n(input, { name: label, version, queue: { webhooks: 2 } });
		const started = ctx;
		const tasks = videoTasks(sim);
		tasks.routeCallback = started.balancer();
		await checks.timed(`${label}: later wait`, async () => {
			try {
				await runLaterWait(started, () => started.worker!.proc!.log());
			} catch (error) {
				checks.broke(`${label}: later wait`, error);
			} finally {
				tasks.routeCallback = undefined;
			}
		});
		checks.begin(`n8n ${version} in queue mode: each final callback to two webhook processes at once`);
		await checks.timed(`${label}: double callbacks`, async () => await runDoubleResume(started, { claims }));
	} catch (error) {
		checks.broke(`${label}: queue mode`, error);
	} finally {
		await ctx?.stop();
	}
}
