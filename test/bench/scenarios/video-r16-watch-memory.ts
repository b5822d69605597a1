/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * R16: the memory one n8n process keeps per waiting execution. 1,000
 * executions of Create and Wait by callback, one video each, left waiting
 * (their tasks run for an hour): each keeps a watch in the process (the
 * package's own news, shared/watch.ts) and an entry of the wait's memory.
 * The executions' own saved data is dropped (n8n keeps it in its database),
 * so what stays in the heap after a full collection is what the package
 * keeps. Reported: that heap above the baseline, per waiting execution, and
 * the watches under way (each ends at its 10-minute Wait Timeout: the bench
 * process ends 10 minutes after the last start).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { join } from 'node:path';

import { runWorkflow } from '../../harness';
import { WaitingWebhookServer } from '../../harness/resume';
import { PACKAGE_ROOT } from '../../harness/node-types';
import { startSimulator } from '../../simulator';
import { videoCallbackWorkflow } from '../../workflow/video-callback-workflow';

export const title = 'memory per waiting execution, 1,000 callback waits of one video each';

const WAITS = 1_000;
/** GG_R16_ITEM_KB: each execution's input item carries that many KiB more (its data, as the node sees it). */
const ITEM_KB = Number(process.env.GG_R16_ITEM_KB ?? 0);
/** A flat string of its own per execution (a concatenation would share one buffer among them all). */
const filler = (n: number) => Buffer.alloc(ITEM_KB * 1024, String(n % 10)).toString();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heap(): number {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	// The package as the harness loads it (dist/): its watch count is that module's.
	const watch = require(join(PACKAGE_ROOT, 'dist/nodes/shared/watch.js')) as { watchCount(): number };
	const workflow = videoCallbackWorkflow({
		waitOptions: { mode: 'callback', timeoutMinutes: 10 },
	});
	const one = async (n: number) => {
		const result = await runWorkflow(workflow, {
			credentials: sim.credentials(),
			input: [
				{ json: { prompt: `memory ${n} [after:3600000]`, ...(ITEM_KB ? { context: filler(n) } : {}) } },
			],
			instanceBaseUrl: n8n.url,
		});
		if (result.status !== 'waiting') throw new Error(`execution ${n} did not wait: ${result.status}`);
	};
	try {
		// Warm: every module loaded, the first probe of n8n's address made.
		for (let n = 0; n < 5; n++) await one(n);
		const watchesBefore = watch.watchCount();
		const before = heap();
		const startedAt = Date.now();
		for (let n = 0; n < WAITS; n++) await one(1000 + n);
		const loopSeconds = (Date.now() - startedAt) / 1000;
		const after = heap();
		const watches = watch.watchCount() - watchesBefore;
		return {
			'waiting executions': WAITS,
			'input item': ITEM_KB ? `${ITEM_KB} KiB more` : 'a prompt',
			'time to start them': `${loopSeconds.toFixed(1)} s`,
			'watches under way (this process)': watches,
			'heap kept above the baseline': `${((after - before) / 1024 / 1024).toFixed(1)} MiB`,
			'per waiting execution': `${((after - before) / WAITS / 1024).toFixed(1)} KiB`,
			'watches at most per process': 2_000,
		};
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}
