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

import { formScreenshot } from './browser';
import { runChat } from './chat';
import { olderVersions } from './n8n';
import { runSingle } from './single';
import { startN8n, type PartInput, type PackagedN8n } from './start';
import { checkToolVariant, examplesDir } from './workflows';

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
}
