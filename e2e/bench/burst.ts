/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Bench P15 (`./scripts/run e2e p15`, not part of a plain run: it takes about 15 minutes): a
 * batch whose video tasks all end in the same instant, in a real n8n on its embedded default (one
 * instance, SQLite, over https), and what it costs n8n.
 *
 * Each row runs Manual Trigger → Prompts → Split Out → Create and Wait (default settings but the
 * row's Wait Mode; Download Video on, or off with GG_P15_DOWNLOAD=0) with N items whose tasks end together (the simulator's
 * `[at:<ms>]`), or, as the floor, n8n's own Wait node ("On Webhook Call") whose resume URL the bench
 * calls N times at once. The simulator calls back as a gateway that sends each callback once with a
 * 10 s timeout (`once`), or that tries a failed one twice more (`retries`). Meanwhile a probe calls
 * n8n's REST API (the executions list, as the editor does) one request at a time.
 *
 * Per row: the first answers to the final callbacks (p50/p99/max), answers that were 5xx or timed
 * out, tasks whose final callback got a 2xx, reads per task, seconds from the burst to the
 * execution's end (every video in the workflow), and the REST API's p99/max during that time.
 * Results: e2e-output/p15.md and p15.json.
 *
 * Restart rows (`restart:N`): Auto with N items, n8n stopped and started again in the middle of
 * the wait; what the user is left with (the execution's status, where the task ids are) and what
 * brings every video back.
 *
 * Rows: GG_P15_ROWS="auto:300 callback:300:retries wait-node:300 restart:300" (way:items[:gateway]).
 */
import { videoTasks } from '../../test/simulator/video/tasks';
import { QUEUE_DB_POOL_SIZE, startN8n, type PackagedN8n, type PartInput } from '../src/start';
import { drainCallbacks, ms, report } from './measure';
import { runRestartRow, type RestartFigures } from './burstRestart';
import { runRow, type BurstFigures } from './burstRow';
import { CALLBACK_TIMEOUT_MS, DOWNLOAD, parseRows, type BurstRow } from './burstWorkflows';

function tableOf(rows: BurstFigures[], title: string): string {
	const lines = [
		`### ${title}`,
		'',
		'| row | ran | first answers p50 / p99 / max | callbacks 5xx or timed out | tasks confirmed | reads per task mean / max | burst → every item | items out | REST API p99 / max (errors) |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const f of rows) {
		const answers = f.firstAnswerMs
			? `${ms(f.firstAnswerMs.p50)} / ${ms(f.firstAnswerMs.p99)} / ${ms(f.firstAnswerMs.max)}`
			: '–';
		lines.push(
			`| ${f.row} | ${f.ran} | ${answers} | ${f.failedCallbacks} of ${f.callbacks} | ${f.confirmed} | ${f.readsPerTask.mean} / ${f.readsPerTask.max} | ${f.secondsToEnd} s (${f.status}) | ${f.videos} | ${ms(f.api.p99)} / ${ms(f.api.max)} (${f.api.errors}) |`,
		);
	}
	return lines.join('\n');
}

/** Runs `rows` one after another on `ctx` (the probe calls its main process's REST API). */
async function runRows(
	ctx: PackagedN8n,
	rows: BurstRow[],
	route?: (url: string) => string,
): Promise<{ figures: BurstFigures[]; restarts: RestartFigures[] }> {
	const { n8n, sim, checks, credentials } = ctx;
	const tasks = videoTasks(sim);
	const saved = { timeout: tasks.callbackTimeoutMs, second: tasks.secondCallbacks };
	const figures: BurstFigures[] = [];
	const restarts: RestartFigures[] = [];
	try {
		for (const row of rows) {
			await drainCallbacks(sim, CALLBACK_TIMEOUT_MS);
			if (row.way === 'restart') {
				try {
					const f = await checks.timed(`p15: restart ${row.items}`, () =>
						runRestartRow(n8n, sim, credentials, row),
					);
					restarts.push(f);
					checks.note(`P15 ${JSON.stringify(f)}`);
					checks.equal(
						`P15 ${f.row}: every created task could be found after the restart`,
						f.found,
						f.created,
					);
					checks.equal(`P15 ${f.row}: every video reached a workflow in the end`, f.videos, row.items);
				} catch (error) {
					checks.broke(`P15 restart ${row.items}`, error);
				}
				continue;
			}
			try {
				const f = await checks.timed(`p15: ${row.way} ${row.items} ${row.gateway}`, () =>
					runRow(n8n, sim, credentials, row, route),
				);
				figures.push(f);
				checks.note(`P15 ${JSON.stringify(f)}`);
				if (row.way !== 'wait-node') {
					checks.equal(`P15 ${f.row}: every item came out with its video`, f.videos, row.items);
				}
			} catch (error) {
				checks.broke(`P15 ${row.way} ${row.items}`, error);
			}
		}
	} finally {
		await drainCallbacks(sim, CALLBACK_TIMEOUT_MS);
		tasks.routeCallback = undefined;
		tasks.callbackTimeoutMs = saved.timeout;
		tasks.secondCallbacks = saved.second;
	}
	return { figures, restarts };
}

function restartTableOf(restarts: RestartFigures[]): string {
	return [
		'',
		'| restart in the middle of | waited by | execution after the restart | tasks created / ids found | where | videos in the end | what it took |',
		'|---|---|---|---|---|---|---|',
		...restarts.map(
			(f) =>
				`| ${f.row} | ${f.ran} | ${f.statusAfterRestart} | ${f.created} / ${f.found} | ${f.where} | ${f.videos} | ${f.recovery} |`,
		),
	].join('\n');
}

const downloadText = () => `Download Video ${DOWNLOAD ? 'on' : 'off'} (${new Date().toISOString()})`;

export async function runBurst(input: PartInput): Promise<void> {
	const rows = parseRows();
	input.checks.begin(`P15: ${rows.length} batches ending in one instant, n8n single instance (SQLite)`);
	const ctx = await startN8n(input, { name: 'p15' });
	let result: { figures: BurstFigures[]; restarts: RestartFigures[] };
	try {
		result = await runRows(ctx, rows);
	} finally {
		await ctx.stop();
	}
	const { figures, restarts } = result;
	const table =
		tableOf(figures, `P15, n8n ${ctx.n8n.install.version}, one instance, SQLite, ${downloadText()}`) +
		(restarts.length ? `\n${restartTableOf(restarts)}` : '');
	report('p15', [table], { figures, restarts });
}

const QUEUE_ROWS = 'callback:30 callback:100 callback:300 wait-node:30 wait-node:300 auto:300 auto:1000';

/**
 * Bench P15 in queue mode (`./scripts/run e2e p15-queue`, only when named): the same rows as
 * `runBurst` (GG_P15_QUEUE_ROWS; restart rows are the single instance's) on a queue-mode n8n with
 * PostgreSQL (a pool of 10 connections per process, GG_P15_POOL=2 for n8n's default), a worker and
 * one, then two, webhook processes (GG_P15_WEBHOOKS="1 2"). Every callback, and every call of the Wait node's resume URL, goes to the
 * webhook processes in turn, as a balancer in front of them sends it; the REST probe calls main.
 */
export async function runBurstQueue(input: PartInput): Promise<void> {
	const { checks } = input;
	const rows = parseRows(process.env.GG_P15_QUEUE_ROWS || QUEUE_ROWS);
	if (rows.some((row) => row.way === 'restart'))
		throw new Error('GG_P15_QUEUE_ROWS: restart rows run on the single instance only (GG_P15_ROWS)');
	const counts = (process.env.GG_P15_WEBHOOKS || '1 2').split(/\s+/).filter(Boolean).map(Number);
	const poolSize = Number(process.env.GG_P15_POOL || QUEUE_DB_POOL_SIZE);
	const tables: string[] = [];
	const data: Array<{ webhooks: number; figures: BurstFigures[] }> = [];
	for (const webhooks of counts) {
		checks.begin(
			`P15 queue mode: ${rows.length} batches ending in one instant, PostgreSQL, a worker, ${webhooks} webhook process(es)`,
		);
		const ctx = await startN8n(input, { name: `p15-queue-${webhooks}`, queue: { webhooks, poolSize } });
		try {
			const { figures } = await runRows(ctx, rows, ctx.balancer());
			data.push({ webhooks, figures });
			tables.push(
				tableOf(
					figures,
					`P15, n8n ${ctx.n8n.install.version}, queue mode (PostgreSQL, a pool of ${poolSize} per process, a worker), ${webhooks} webhook process${webhooks > 1 ? 'es' : ''}, ${downloadText()}`,
				),
			);
		} finally {
			await ctx.stop();
		}
	}
	report('p15-queue', tables, data);
}
