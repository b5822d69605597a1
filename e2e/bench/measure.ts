/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * What the benches measure with and how they report: quantiles, a probe on n8n's REST API, calls sent
 * all at once, the tables.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from '../src/http';
import type { N8n } from '../src/n8n';
import { outputDir, sleep, waitFor } from '../src/proc';

export function quantile(values: number[], q: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Calls n8n's REST API one request at a time until stopped: how long each answer took. */
export function probeApi(n8n: N8n, workflowId: string) {
	const samples: Array<{ at: number; ms: number; ok: boolean }> = [];
	let running = true;
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const loop = (async () => {
		while (running) {
			const at = Date.now();
			const ok = await http(`${n8n.url}/rest/executions?filter=${filter}&limit=1`, {
				headers: { cookie: n8n.cookie },
				timeoutMs: 120_000,
			}).then(
				(answer) => answer.status === 200,
				() => false,
			);
			samples.push({ at, ms: Date.now() - at, ok });
			await sleep(250);
		}
	})();
	return {
		async stop(from: number, to: number) {
			running = false;
			await loop;
			const during = samples.filter((s) => s.at + s.ms >= from && s.at <= to);
			const ms = during.map((s) => s.ms);
			return {
				p99: quantile(ms, 0.99),
				max: Math.max(0, ...ms),
				errors: during.filter((s) => !s.ok).length,
				samples: during.length,
			};
		},
	};
}

/**
 * Posts to every URL at once, each call given up after `timeoutMs` (a caller that hangs up): the
 * answer's status (0: none) and how long the call took.
 */
export async function callAtOnce(urls: string[], body: (i: number) => unknown, timeoutMs: number) {
	return await Promise.all(
		urls.map(async (url, i) => {
			const started = Date.now();
			const status = await http(url, { method: 'POST', body: body(i), timeoutMs }).then(
				(answer) => answer.status,
				() => 0,
			);
			return { status, ms: Date.now() - started };
		}),
	);
}

/** The status of the workflow's newest execution, from the list (no execution data loaded). */
export async function listedStatus(n8n: N8n, workflowId: string): Promise<string | undefined> {
	const [newest] = await n8n.executions(workflowId);
	return newest?.status;
}

/**
 * Ends the simulator's callbacks: no task posts another status, and the posts under way are
 * answered or time out, so that a row's backlog does not weigh on the next row's n8n.
 */
export async function drainCallbacks(sim: Simulator, callbackTimeoutMs: number): Promise<void> {
	const tasks = videoTasks(sim);
	for (const task of tasks.tasks.values()) task.notified = tasks.status(task);
	await waitFor(
		'the callbacks under way to be answered',
		() => ([...tasks.tasks.values()].some((task) => task.delivering) ? undefined : true),
		2 * callbackTimeoutMs + 5_000,
		200,
	).catch(() => undefined);
}

/** Milliseconds as seconds for a table (– when there is no figure). */
export const ms = (value: number | undefined) =>
	value === undefined || Number.isNaN(value) ? '–' : `${(value / 1000).toFixed(2)} s`;

/** Writes the tables to e2e-output/<name>.md (and the figures to <name>.json) and prints them. */
export function report(name: string, tables: string[], data: unknown): void {
	const text = tables.join('\n\n');
	mkdirSync(outputDir, { recursive: true });
	writeFileSync(join(outputDir, `${name}.md`), `${text}\n`);
	writeFileSync(join(outputDir, `${name}.json`), JSON.stringify(data, null, 2));
	process.stdout.write(`\n${text}\n`);
}
