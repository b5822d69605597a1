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
import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from '../src/http';
import type { ExecutionRecord } from '../src/executions';
import { outputOf, type N8n } from '../src/n8n';
import { waitFor } from '../src/proc';
import { QUEUE_DB_POOL_SIZE, startN8n, type PackagedN8n, type PartInput } from '../src/start';
import { drainCallbacks, listedStatus, ms, probeApi, quantile, report } from './measure';
import { AUTO_CALLBACK_MAX_TASKS } from '../../nodes/GenerationGateway/actions/video/options';
import {
	PACKAGE,
	countEach,
	createAndWaitNode,
	holdTaskEnds,
	manualItems,
	withCredentials,
	type Workflow,
} from '../src/workflows';

type Way = 'auto' | 'callback' | 'polling' | 'wait-node' | 'restart';

export interface BurstRow {
	way: Way;
	items: number;
	/** How the gateway treats a failed callback: never again, or twice more. */
	gateway: 'once' | 'retries';
}

export interface BurstFigures {
	row: string;
	/** How the node waited (waitInfo.mode of the first item), or the Wait node. */
	ran: string;
	firstAnswerMs: { p50: number; p99: number; max: number } | undefined;
	/** Every callback request (all statuses, all attempts) and those answered 5xx or timed out. */
	callbacks: number;
	failedCallbacks: number;
	/** Tasks whose final callback was answered 200 (some attempt); for the Wait node, its 2xx answers. */
	confirmed: number;
	readsPerTask: { mean: number; max: number };
	/** From the instant the tasks end to the execution's end, in s. */
	secondsToEnd: number | undefined;
	/** Items that came out with their video. */
	videos: number;
	status: string;
	api: { p99: number; max: number; errors: number; samples: number };
	/** Every callback by the task status it carried and the answer it got ("completed->200×28"). */
	answers: string;
}

const DEFAULT_ROWS =
	'auto:30 auto:100 auto:300 auto:1000 callback:30 callback:100 callback:300 callback:300:retries wait-node:30 wait-node:100 wait-node:300 polling:30 restart:300 restart:30';

export function parseRows(text = process.env.GG_P15_ROWS || DEFAULT_ROWS): BurstRow[] {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((spec) => {
			const [way, items, gateway] = spec.split(':');
			if (!['auto', 'callback', 'polling', 'wait-node', 'restart'].includes(way) || !(Number(items) > 0))
				throw new Error(
					`P15 row "${spec}": way:items[:once|retries], way one of auto callback polling wait-node restart`,
				);
			return { way: way as Way, items: Number(items), gateway: gateway === 'retries' ? 'retries' : 'once' };
		});
}

const NODE = 'Create Videos and Wait';
/** Download Video (on unless GG_P15_DOWNLOAD=0, the node's default: the record with its video's URL). */
const DOWNLOAD = process.env.GG_P15_DOWNLOAD !== '0';
const WAIT = 'Wait';
const CALLBACK_TIMEOUT_MS = 10_000;

function prompts(count: number, endsAt: number): string[] {
	return Array.from({ length: count }, (_, i) => `burst ${i} [at:${endsAt}]`);
}

function batchWorkflow(ids: Record<string, string>, row: BurstRow, endsAt: number): Workflow {
	const wait: Workflow['nodes'][number] =
		row.way === 'wait-node'
			? {
					name: WAIT,
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					position: [800, 0],
					webhookId: '5f0f7d4e-8a52-4f4e-9d61-0c6f3b7e2a11',
					parameters: {
						resume: 'webhook',
						httpMethod: 'POST',
						limitWaitTime: true,
						resumeAmount: 10,
						resumeUnit: 'minutes',
					},
				}
			: createAndWaitNode({ mode: row.way === 'restart' ? 'auto' : row.way, download: DOWNLOAD }, [800, 0]);
	const last = String(wait.name);
	return withCredentials(
		{
			name: `P15 ${row.way} ${row.items} ${row.gateway}`,
			nodes: [
				...manualItems('prompts', prompts(row.items, endsAt)),
				{
					name: 'Resume URL',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [600, 0],
					parameters: {
						includeOtherFields: true,
						assignments: {
							assignments: [
								{ id: 'u', name: 'resumeUrl', value: '={{ $execution.resumeUrl }}', type: 'string' },
							],
						},
					},
				},
				wait,
			],
			connections: {
				Start: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
				Prompts: { main: [[{ node: 'One Item per Prompt', type: 'main', index: 0 }]] },
				'One Item per Prompt': { main: [[{ node: 'Resume URL', type: 'main', index: 0 }]] },
				'Resume URL': { main: [[{ node: last, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

/** The Wait node's floor: its resume URL called `count` times at once, each with the gateway's timeout. */
async function callWaitNode(url: string, count: number, route = (to: string) => to) {
	return await Promise.all(
		Array.from({ length: count }, async (_, i) => {
			const started = Date.now();
			const answer = await http(route(url), {
				method: 'POST',
				body: { id: `burst_${i}`, status: 'completed' },
				timeoutMs: CALLBACK_TIMEOUT_MS,
			}).then(
				(a) => a.status,
				() => 0,
			);
			return { status: answer, ms: Date.now() - started };
		}),
	);
}

/**
 * `route`: where a callback (or a call of the Wait node's resume URL) is sent instead of the resume
 * URL's own process: the webhook processes of a queue-mode n8n, behind a balancer.
 */
async function runRow(
	n8n: N8n,
	sim: Simulator,
	credentials: Record<string, string>,
	row: BurstRow,
	route?: (url: string) => string,
) {
	const tasks = videoTasks(sim);
	tasks.routeCallback = route;
	tasks.callbackTimeoutMs = CALLBACK_TIMEOUT_MS;
	tasks.secondCallbacks = row.gateway === 'once' ? { kind: 'off' } : { kind: 'default' };
	tasks.callbackAttempts = 3;
	// The tasks run while the node creates them (one at a time, the default Max Concurrent Requests)
	// and n8n saves the execution as waiting; then every one of them ends in the same instant.
	const clock = holdTaskEnds(sim);
	const endsAt = clock.endsAt;
	const polls = row.way === 'polling' || (row.way === 'auto' && row.items > AUTO_CALLBACK_MAX_TASKS);
	const workflow = batchWorkflow(credentials, row, endsAt);
	const created = await n8n.createWorkflow(workflow);
	const requestsBefore = sim.requests.length;
	const deliveriesBefore = tasks.deliveries.length;
	const probe = probeApi(n8n, created.id);
	let burst = Date.now();
	let waitAnswers: Array<{ status: number; ms: number }> = [];
	let executionId: string;
	try {
		executionId = await n8n.runManually(created.id, 'Start');
		if (row.way === 'wait-node') {
			const waiting = await n8n.waitExecution(executionId, 300_000, [
				'waiting',
				'success',
				'error',
				'crashed',
			]);
			const url = String(outputOf(waiting, 'Resume URL')[0]?.json.resumeUrl ?? '');
			burst = clock.release();
			waitAnswers = await callWaitNode(url, row.items, route);
		} else {
			await waitFor(
				`P15 ${row.way} ${row.items}: ${polls ? 'every task created' : 'the execution waiting'}`,
				async () => {
					if (polls) {
						const creates = sim.requests
							.slice(requestsBefore)
							.filter((r) => r.method === 'POST' && r.path === '/v1/videos').length;
						return creates >= row.items || undefined;
					}
					const status = await listedStatus(n8n, created.id).catch(() => undefined);
					return status !== undefined && !['running', 'new'].includes(status) ? true : undefined;
				},
				10 * 60_000,
				200,
			);
		}
	} finally {
		if (row.way !== 'wait-node') burst = clock.release();
		else clock.release();
	}
	await waitFor(
		`P15 ${row.way} ${row.items}: the execution's end`,
		async () => {
			const status = await listedStatus(n8n, created.id).catch(() => undefined);
			return status && !['running', 'waiting', 'new'].includes(status) ? status : undefined;
		},
		15 * 60_000,
		500,
	);
	const record: ExecutionRecord = await n8n.execution(executionId);
	const endedAt = record.stoppedAt ? Date.parse(record.stoppedAt) : Date.now();
	const api = await probe.stop(burst, endedAt);
	const seen = sim.requests.slice(requestsBefore);
	const deliveries = tasks.deliveries.slice(deliveriesBefore);
	const isFinal = (status: string) => ['completed', 'failed', 'cancelled', 'expired'].includes(status);
	const failed = (d: { httpStatus?: number }) => d.httpStatus === undefined || d.httpStatus >= 500;
	const output = row.way === 'wait-node' ? outputOf(record, WAIT) : outputOf(record, NODE);
	const reads = new Map<string, number>();
	for (const r of seen) {
		const id = /^\/v1\/videos\/([^/]+)$/.exec(r.path)?.[1];
		if (r.method === 'GET' && id) reads.set(id, (reads.get(id) ?? 0) + 1);
	}
	const readCounts = [...reads.values()];
	const firstFinal =
		row.way === 'wait-node'
			? waitAnswers.map((a) => a.ms)
			: deliveries
					.filter((d) => isFinal(d.status) && d.attempt === 1)
					.map((d) => d.tookMs ?? CALLBACK_TIMEOUT_MS);
	const figures: BurstFigures = {
		row: `${row.way} ${row.items}${row.way === 'wait-node' ? '' : `, gateway ${row.gateway}`}`,
		ran: ranAs(row, output[0]?.json.waitInfo as { mode?: string } | undefined),
		firstAnswerMs: firstFinal.length
			? { p50: quantile(firstFinal, 0.5), p99: quantile(firstFinal, 0.99), max: Math.max(...firstFinal) }
			: undefined,
		callbacks: row.way === 'wait-node' ? waitAnswers.length : deliveries.length,
		failedCallbacks:
			row.way === 'wait-node'
				? waitAnswers.filter((a) => a.status === 0 || a.status >= 500).length
				: deliveries.filter(failed).length,
		confirmed:
			row.way === 'wait-node'
				? waitAnswers.filter((a) => a.status >= 200 && a.status < 300).length
				: new Set(deliveries.filter((d) => isFinal(d.status) && d.httpStatus === 200).map((d) => d.id)).size,
		readsPerTask: {
			mean: readCounts.length
				? Math.round((readCounts.reduce((a, b) => a + b, 0) / readCounts.length) * 100) / 100
				: 0,
			max: Math.max(0, ...readCounts),
		},
		secondsToEnd: Math.round((endedAt - burst) / 100) / 10,
		videos:
			row.way === 'wait-node'
				? output.length
				: output.filter((item) => item.json.status === 'completed' && (!DOWNLOAD || item.binary?.data))
						.length,
		status: record.status,
		api,
		answers:
			row.way === 'wait-node'
				? countEach(waitAnswers.map((a) => `resume->${a.status || 'no answer'}`))
				: countEach(deliveries.map((d) => `${d.status}->${d.httpStatus ?? d.error}`)),
	};
	return figures;
}

/** How the row waited. */
function ranAs(row: BurstRow, waitInfo: { mode?: string } | undefined): string {
	return row.way === 'wait-node' ? 'Wait node' : String(waitInfo?.mode ?? 'none');
}

export interface RestartFigures {
	row: string;
	/** How the batch waited (Auto: by its size). */
	ran: string;
	/** The execution's status once n8n was back. */
	statusAfterRestart: string;
	/** Tasks the gateway created, and how many of their ids the user could find after the restart, where. */
	created: number;
	found: number;
	where: string;
	/** Items that came out with their video in the end, and what it took. */
	videos: number;
	recovery: string;
}

/** The polling wait's log line: the ids of the tasks it waits for. */
const POLLING_LOG = /waits by polling for (\d+) video tasks; .*?task ids: ((?:video_\S+ ?)+)/;

/** A Wait for Completion run over task ids found after a restart (what a user would run). */
function waitForCompletionWorkflow(ids: Record<string, string>, taskIds: string[]): Workflow {
	return withCredentials(
		{
			name: 'P15 restart: Wait for Completion',
			nodes: [
				...manualItems('ids', taskIds, { list: 'Task IDs', split: 'One Item per Task' }),
				{
					name: NODE,
					type: `${PACKAGE}.generationGateway`,
					typeVersion: 1,
					position: [600, 0],
					parameters: {
						resource: 'video',
						operation: 'waitForCompletion',
						taskId: '={{ $json.ids }}',
						waitOptions: { download: true },
					},
					credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
				},
			],
			connections: {
				Start: { main: [[{ node: 'Task IDs', type: 'main', index: 0 }]] },
				'Task IDs': { main: [[{ node: 'One Item per Task', type: 'main', index: 0 }]] },
				'One Item per Task': { main: [[{ node: NODE, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

/**
 * A restart of n8n in the middle of a batch's wait (Auto, so polling beyond AUTO_CALLBACK_MAX_TASKS
 * tasks, callback up to it): what the user is left with, and what brings every video back.
 */
async function runRestartRow(
	n8n: N8n,
	sim: Simulator,
	credentials: Record<string, string>,
	row: BurstRow,
): Promise<RestartFigures> {
	const tasks = videoTasks(sim);
	tasks.callbackTimeoutMs = CALLBACK_TIMEOUT_MS;
	tasks.secondCallbacks = { kind: 'off' };
	// The tasks go on running through the restart; they end once n8n is back.
	const clock = holdTaskEnds(sim);
	const endsAt = clock.endsAt;
	const workflow = batchWorkflow(credentials, row, endsAt);
	const created = await n8n.createWorkflow(workflow);
	const logBefore = n8n.proc!.log().length;
	const executionId = await n8n.runManually(created.id, 'Start');
	const began = await waitFor(
		`P15 restart ${row.items}: the wait under way`,
		async () => {
			const match = POLLING_LOG.exec(n8n.proc!.log().slice(logBefore));
			if (match) return { ran: 'polling', ids: match[2].trim().split(' ') };
			const status = await listedStatus(n8n, created.id).catch(() => undefined);
			return status === 'waiting' ? { ran: 'callback', ids: [] as string[] } : undefined;
		},
		5 * 60_000,
		500,
	);
	// The tasks this row created (their prompts name its instant), as the gateway knows them.
	const createdIds = [...tasks.tasks.values()]
		.filter((task) => task.prompt.includes(`[at:${endsAt}]`))
		.map((task) => task.id);
	try {
		await n8n.stop();
		await n8n.start();
		await n8n.login();
	} finally {
		clock.release();
	}
	const after = await n8n.execution(executionId);
	let videos = 0;
	let recovery: string;
	let found: number;
	let where: string;
	if (began.ran === 'polling') {
		found = began.ids.filter((id) => createdIds.includes(id)).length;
		where = "n8n's log (one line naming every task id)";
		const rerun = waitForCompletionWorkflow(credentials, began.ids);
		const made = await n8n.createWorkflow(rerun);
		const rerunId = await n8n.runManually(made.id, 'Start');
		const done = await n8n.waitExecution(rerunId, 10 * 60_000);
		videos = outputOf(done, NODE).filter(
			(item) => item.json.status === 'completed' && item.binary?.data,
		).length;
		recovery = `Video → Wait for Completion with the ids from the log: ${done.status}`;
	} else {
		where = "the waiting execution (custom data), kept in n8n's database";
		const done = await n8n.waitExecution(executionId, 10 * 60_000);
		const out = outputOf(done, NODE);
		// The ids the resumed node read back from the waiting execution after the restart.
		found = out.filter((item) => createdIds.includes(String(item.json.id))).length;
		videos = out.filter(
			(item) => item.json.status === 'completed' && (!DOWNLOAD || item.binary?.data),
		).length;
		recovery = `none: the callbacks resumed the waiting execution after the restart (${done.status})`;
	}
	return {
		row: `restart ${row.items}`,
		ran: began.ran,
		statusAfterRestart: after.status,
		created: createdIds.length,
		found,
		where,
		videos,
		recovery,
	};
}

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
