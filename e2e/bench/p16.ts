/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Bench P16 (`./scripts/run e2e p16`, only when named): many executions of one video each, and
 * callbacks into the Generation Gateway Trigger, finishing in the same instant, in a real n8n on
 * its embedded default (one instance, SQLite, https), beside n8n's own nodes under the same burst.
 *
 * Rows (GG_P16_ROWS, way:count, default "wait-node:300 wait:300 webhook:300 trigger:300"):
 * - `wait`: Webhook → Create and Wait (Auto, one task: it waits by callback) → Report; `count`
 *   executions wait, then every task ends at once and the simulator calls each resume URL once.
 * - `wait-node`: Webhook → Tell (its resume URL to the bench) → n8n's Wait node (On Webhook Call)
 *   → Report; the bench calls every resume URL once, all at once.
 * - `trigger`: Generation Gateway Trigger (Confirm on) → Report, active; `count` tasks end at once
 *   and the simulator calls the trigger's URL once for each.
 * - `trigger-create`: the same trigger, its `count` tasks created by the package: Webhook → Video →
 *   Create with the trigger's address as Callback URL, one execution per task.
 * - `webhook`: n8n's Webhook node → Report, active; the bench calls it `count` times at once.
 * - `webhook-get`: for tasks created elsewhere, beside `trigger`: n8n's Webhook node as the tasks'
 *   callback address → Video → Get (the task read, as the trigger confirms) → Report when final.
 * - `wait-restart`: as `wait`, but the process that started the waits (the instance, or queue
 *   mode's worker) is restarted once they all wait, before the tasks end: its watch of the tasks
 *   is gone; the gateway's callbacks that get through, and Recover Waits, resume the executions.
 * - `wait-down`: as `wait`, but every n8n process is stopped once they all wait, the tasks end while
 *   n8n is down (every final callback refused), and n8n starts again: Recover Waits alone resumes.
 * - `wait-node-restart`, `wait-node-down`: n8n's Wait node in the same two shapes: its resume URLs
 *   called once each after the restart, or while n8n is down (every call refused).
 * GG_P16_KILL=1: the restart rows kill the starting process (`kill -9`) instead of stopping it.
 * With `wait-restart` or `wait-down` among the rows, the example video-recover-waits.json (every
 * minute) is active; GG_P16_RECOVER=0 leaves it off (what the rows do without it).
 * Every caller hangs up at 10 s and never calls again, like a gateway that sends each callback once.
 * Report posts the row's id (the bench's, or the task's in trigger rows) to the bench, which counts
 * the videos that reached a workflow, the ones that reached it twice, when they arrived, and the
 * gateway reads of the row's tasks (from their create on). A probe calls n8n's REST API meanwhile.
 * GG_P16_TYPE_VERSION (e.g. 1.1): the package's nodes in the rows' workflows at that type version
 * (n8n runs them at any: their description is one for every version; n8n reads a request's body
 * differently for a start node above version 1).
 * Results: e2e-output/p16.md and p16.json. GG_P16_QUEUE=1 or 2 runs the rows in queue mode with
 * that many webhook processes (behind a balancer) instead; GG_P16_N8N_ENV ("NAME=value ...") gives
 * n8n's processes more settings; GG_P16_N8N_VERSION (a folder of e2e/n8n/) another n8n.
 */
import { join } from 'node:path';

import { startN8n, type PartInput } from '../src/start';
import { examplesDir, loadWorkflow } from '../src/workflows';
import { ms, report } from './measure';
import { startCollector } from './p16Collector';
import { runRow, type Figures } from './p16Row';
import { parseRows } from './p16Workflows';

function tableOf(title: string, rows: Figures[]): string {
	return [
		`### ${title}`,
		'',
		'| row | videos in a workflow (twice) | the last one after | gateway reads (after the burst) | answered 2xx within 10 s | answers p50 / p99 | answers | reached p50 / p99 | gateway reads p50 / p99 | REST API p99 / max (errors) |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...rows.map(
			(f) =>
				`| ${f.row} | ${f.reached} (${f.twice}) | ${ms(f.reachedLast)} | ${f.reads} (${f.readsAfterBurst}) | ${f.answered2xx} of ${f.calls} | ${ms(f.p50)} / ${ms(f.p99)} | ${f.answers} | ${ms(f.reachedP50)} / ${ms(f.reachedP99)} | ${ms(f.readsP50)} / ${ms(f.readsP99)} | ${ms(f.api.p99)} / ${ms(f.api.max)} (${f.api.errors}) |`,
		),
	].join('\n');
}

export async function runP16(input: PartInput): Promise<void> {
	const webhooks = Number(process.env.GG_P16_QUEUE ?? 0);
	// More settings for n8n's processes, as NAME=value pairs (an n8n setting's effect on a row).
	const env = Object.fromEntries(
		(process.env.GG_P16_N8N_ENV ?? '')
			.split(/\s+/)
			.filter(Boolean)
			.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
	);
	const version = process.env.GG_P16_N8N_VERSION; // a folder of e2e/n8n/; the suite's n8n when unset
	const started = await startN8n(input, {
		name: 'p16',
		env,
		version,
		...(webhooks > 0 ? { queue: { webhooks } } : {}),
	});
	const collector = await startCollector();
	const rows: Figures[] = [];
	const recover =
		process.env.GG_P16_RECOVER !== '0' && parseRows().some((row) => /^wait-(restart|down)$/.test(row.way));
	try {
		if (recover)
			await started.importWorkflow(loadWorkflow(join(examplesDir, 'video-recover-waits.json')), {
				activate: true,
			});
		for (const [i, row] of parseRows().entries()) {
			const figures = await runRow(started, input.sim, collector, row, `${Date.now().toString(36)}${i}`);
			input.checks.note(`p16 ${JSON.stringify(figures)}`);
			rows.push(figures);
		}
	} finally {
		await collector.stop();
		await started.stop();
	}
	const where = [
		`n8n ${started.n8n.install.version}`,
		recover ? 'Recover Waits every minute' : 'no Recover Waits',
		webhooks > 0 ? `queue mode, ${webhooks} webhook process(es)` : 'one instance, SQLite',
		...Object.entries(env).map(([name, value]) => `${name}=${value}`),
	].join(', ');
	report(webhooks > 0 ? `p16-queue-${webhooks}` : 'p16', [tableOf(`P16, ${where}`, rows)], rows);
}
