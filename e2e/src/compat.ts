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
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import type { Checks } from './checks';
import { installPacked } from './install';
import { e2eDir, N8n, N8N_VERSION, type Certificate } from './n8n';
import {
	checkToolVariant,
	createCredentials,
	examplesDir,
	exampleFiles,
	runCallbackTimeout,
	runCallbackWait,
	runExample,
	type Context,
} from './workflows';

/** The older n8n releases the suite proves, oldest first. */
export function olderVersions(): string[] {
	const byVersion = (a: string, b: string) => {
		const [x, y] = [a, b].map((v) => v.split('.').map(Number));
		return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
	};
	return readdirSync(join(e2eDir, 'n8n'), { withFileTypes: true })
		.filter(
			(entry) => entry.isDirectory() && entry.name !== N8N_VERSION && /^\d+\.\d+\.\d+$/.test(entry.name),
		)
		.map((entry) => entry.name)
		.sort(byVersion);
}

interface CompatOptions {
	work: string;
	cert: Certificate;
	packed: { tarball: string; version: string };
	sim: Simulator;
	checks: Checks;
}

export async function runCompat(options: CompatOptions): Promise<void> {
	for (const version of olderVersions()) await runOn(version, options);
}

async function runOn(version: string, { work, cert, packed, sim, checks }: CompatOptions): Promise<void> {
	const label = `compat-${version}`;
	checks.begin(`n8n ${version}: start`);
	const home = join(work, label);
	mkdirSync(join(home, '.n8n'), { recursive: true });
	installPacked(join(home, '.n8n'), packed.tarball, packed.version);
	const n8n = new N8n({ name: `n8n-${label}`, home, cert, version });
	try {
		await checks.timed(`${label}: n8n start`, () => n8n.start());
		await n8n.login();
		checks.note(`n8n ${version} (Node ${n8n.install.node.match(/node-([\d.]+)/)?.[1] ?? '?'}) on ${n8n.url}`);
		const ctx: Context = { n8n, sim, checks, credentials: await createCredentials(n8n, sim), label };
		await checkToolVariant(ctx);
		await checks.timed(`${label}: examples`, async () => {
			for (const file of exampleFiles()) {
				checks.begin(`n8n ${version}: examples/${file.split('/').pop()}`);
				try {
					await runExample(ctx, file);
				} catch (error) {
					checks.broke(`${label}: ${file}`, error);
				}
			}
		});
		checks.begin(`n8n ${version}: Create and Wait by callback, 3 items finishing together`);
		await checks.timed(`${label}: callback wait`, async () => {
			try {
				await runCallbackWait(ctx, 3);
			} catch (error) {
				checks.broke(`${label}: callback wait`, error);
			}
		});
		checks.begin(`n8n ${version}: Create and Wait by callback whose Wait Timeout passes first`);
		await checks.timed(`${label}: callback wait timeout`, async () => {
			try {
				await runCallbackTimeout(ctx);
			} catch (error) {
				checks.broke(`${label}: callback wait timeout`, error);
			}
		});
		checks.begin(`n8n ${version}: streaming into n8n's chat (Chat Trigger → Message Create)`);
		const { runChat } = await import('./chat');
		await checks.timed(`${label}: chat`, async () => {
			try {
				await runChat(ctx);
			} catch (error) {
				checks.broke(`${label}: chat streaming`, error);
			}
		});
		checks.begin(`n8n ${version}: the form in the editor`);
		const { formScreenshot } = await import('./browser');
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
		checks.broke(`n8n ${version}`, error);
	} finally {
		await n8n.stop();
	}
}
