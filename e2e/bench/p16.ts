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
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from '../src/http';
import type { N8n } from '../src/n8n';
import { sleep } from '../src/proc';
import { startAll, stopAll } from '../src/recovery';
import { startN8n, type PackagedN8n, type PartInput } from '../src/start';
import {
	PACKAGE,
	createAndWaitNode,
	createVideoNode,
	examplesDir,
	holdTaskEnds,
	loadWorkflow,
	type Workflow,
} from '../src/workflows';
import { drainCallbacks, ms, probeApi, quantile, report } from './measure';

type Way =
	| 'wait'
	| 'wait-restart'
	| 'wait-down'
	| 'wait-node'
	| 'wait-node-restart'
	| 'wait-node-down'
	| 'trigger'
	| 'trigger-create'
	| 'webhook'
	| 'webhook-get';
const WAYS: Way[] = [
	'wait',
	'wait-restart',
	'wait-down',
	'wait-node',
	'wait-node-restart',
	'wait-node-down',
	'trigger',
	'trigger-create',
	'webhook',
	'webhook-get',
];
const CALLER_TIMEOUT_MS = 10_000;
const TRIGGER_KEY = randomBytes(16).toString('hex');
const DEFAULT_ROWS = 'wait-node:300 wait:300 webhook:300 trigger:300 trigger-create:300';

interface Row {
	way: Way;
	count: number;
}

function parseRows(text = process.env.GG_P16_ROWS || DEFAULT_ROWS): Row[] {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((spec) => {
			const [way, count] = spec.split(':');
			if (!WAYS.includes(way as Way) || !(Number(count) > 0)) {
				throw new Error(`P16 row "${spec}": way:count, way one of ${WAYS.join(' ')}`);
			}
			return { way: way as Way, count: Number(count) };
		});
}

/** What the workflows tell the bench: resume URLs of waiting Wait nodes, task ids that reached the end. */
async function startCollector() {
	const resumeUrls: string[] = [];
	const seen = new Map<string, number>();
	const firstSeenAt = new Map<string, number>();
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
			if (req.url === '/resume') resumeUrls.push(body.url);
			else {
				seen.set(body.id, (seen.get(body.id) ?? 0) + 1);
				if (!firstSeenAt.has(body.id)) firstSeenAt.set(body.id, Date.now());
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		resumeUrls,
		seen,
		firstSeenAt,
		reset: () => {
			resumeUrls.length = 0;
			seen.clear();
			firstSeenAt.clear();
		},
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

type Collector = Awaited<ReturnType<typeof startCollector>>;

function post(
	name: string,
	url: string,
	fields: Record<string, string>,
	x: number,
): Workflow['nodes'][number] {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [x, 0],
		parameters: {
			method: 'POST',
			url,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ ${Object.entries(fields)
				.map(([key, value]) => `${key}: ${value}`)
				.join(', ')} }) }}`,
		},
	};
}

function webhookNode(path: string, webhookId: string): Workflow['nodes'][number] {
	return {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

const chain = (...names: string[]): Workflow['connections'] =>
	Object.fromEntries(
		names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** The row's workflow, and the URL that starts one execution (wait rows) or takes the calls. */
/** The workflow with the package's nodes at GG_P16_TYPE_VERSION when set. */
function atTypeVersion(workflow: Workflow): Workflow {
	const version = Number(process.env.GG_P16_TYPE_VERSION);
	if (!version) return workflow;
	const nodes = workflow.nodes.map((node) =>
		String(node.type).startsWith('n8n-nodes-generation-gateway.') ? { ...node, typeVersion: version } : node,
	);
	return { ...workflow, nodes };
}

function workflowOf(way: Way, collector: Collector, hookId: string, path: string): Workflow {
	const report = (id: string) => post('Report', `${collector.url}/seen`, { id }, 600);
	switch (way) {
		case 'wait':
		case 'wait-restart':
		case 'wait-down': {
			const wait = createAndWaitNode({ mode: 'auto', download: false }, [300, 0]);
			(wait.parameters as Record<string, unknown>).prompt = '={{ $json.body.prompt }}';
			return {
				name: `P16 ${path}`,
				nodes: [webhookNode(path, hookId), wait, report("$('Start').item.json.body.id")],
				connections: chain('Start', String(wait.name), 'Report'),
			};
		}
		case 'wait-node':
		case 'wait-node-restart':
		case 'wait-node-down':
			return {
				name: `P16 ${path}`,
				nodes: [
					webhookNode(path, hookId),
					post('Tell', `${collector.url}/resume`, { url: '$execution.resumeUrl' }, 200),
					{
						name: 'Wait',
						type: 'n8n-nodes-base.wait',
						typeVersion: 1.1,
						position: [400, 0],
						webhookId: randomUUID(),
						parameters: {
							resume: 'webhook',
							httpMethod: 'POST',
							limitWaitTime: true,
							resumeAmount: 20,
							resumeUnit: 'minutes',
						},
					},
					report("$('Start').item.json.body.id"),
				],
				connections: chain('Start', 'Tell', 'Wait', 'Report'),
			};
		case 'trigger':
		case 'trigger-create':
			return {
				name: `P16 ${path}`,
				nodes: [
					{
						name: 'Video Finished',
						type: `${PACKAGE}.generationGatewayTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: hookId,
						parameters: { secret: TRIGGER_KEY },
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
					report('$json.id'),
				],
				connections: chain('Video Finished', 'Report'),
			};
		case 'webhook':
			return {
				name: `P16 ${path}`,
				nodes: [webhookNode(path, hookId), report('$json.body.id')],
				connections: chain('Start', 'Report'),
			};
		case 'webhook-get':
			return {
				name: `P16 ${path}`,
				nodes: [
					webhookNode(path, hookId),
					{
						name: 'Get Video',
						type: `${PACKAGE}.generationGateway`,
						typeVersion: 1,
						position: [300, 0],
						parameters: { resource: 'video', operation: 'get', taskId: '={{ $json.body.id }}' },
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
					// The running statuses' callbacks start it too: only a final record counts.
					report("$json.status === 'completed' ? $json.id : 'not final'"),
				],
				connections: chain('Start', 'Get Video', 'Report'),
			};
	}
}

/** Webhook → Video → Create with the trigger's address as its callback: one task per execution. */
function creatorOf(path: string, hookId: string, triggerUrl: string): Workflow {
	return {
		name: `P16 ${path} creator`,
		nodes: [webhookNode(path, hookId), createVideoNode('={{ $json.body.prompt }}', triggerUrl, [300, 0])],
		connections: chain('Start', 'Create Video'),
	};
}

/** `count` calls of `url` at once, each given up after the caller's timeout: status (0: none) and time. */
async function callAll(urls: string[], body: (i: number) => unknown) {
	return await Promise.all(
		urls.map(async (url, i) => {
			const started = Date.now();
			const status = await http(url, { method: 'POST', body: body(i), timeoutMs: CALLER_TIMEOUT_MS }).then(
				(answer) => answer.status,
				() => 0,
			);
			return { status, ms: Math.min(Date.now() - started, CALLER_TIMEOUT_MS) };
		}),
	);
}

async function waitUntil(
	what: string,
	done: () => Promise<boolean> | boolean,
	timeoutMs: number,
): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await done()) return true;
		await sleep(500);
	}
	process.stderr.write(`P16: gave up waiting for ${what}\n`);
	return false;
}

async function waitingCount(n8n: N8n, workflowId: string): Promise<number> {
	return await countOf(n8n, workflowId, 'waiting');
}

async function countOf(n8n: N8n, workflowId: string, status: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: [status] }));
	const answer = await http(`${n8n.url}/rest/executions?filter=${filter}&limit=1`, {
		headers: { cookie: n8n.cookie },
	});
	return answer.status === 200 ? Number(answer.json<{ data: { count: number } }>().data.count) : 0;
}

/**
 * The row's executions that did not end in success, by status, with what n8n keeps of each: its Wait
 * Timeout and the node it stopped at (where a lost video went, and whether a post could still resume it).
 * The first 100 (n8n's most per page).
 */
async function notSucceeded(n8n: N8n, workflowId: string): Promise<string[]> {
	// A run that reached Report is saved a moment later: the list waits for the running ones to end.
	await waitUntil(
		"the row's executions saved",
		async () => (await countOf(n8n, workflowId, 'running')) === 0,
		60_000,
	);
	const filter = encodeURIComponent(
		JSON.stringify({ workflowId, status: ['error', 'crashed', 'waiting', 'running', 'new', 'canceled'] }),
	);
	const answer = await http(`${n8n.url}/rest/executions?filter=${filter}&limit=100`, {
		headers: { cookie: n8n.cookie },
	}).catch(() => undefined);
	if (answer?.status !== 200) return [`the list answered ${answer?.status ?? 'nothing'}`];
	const rows = answer.json<{
		data: { results: Array<{ id: string; status: string; waitTill?: string | null }> };
	}>().data.results;
	return await Promise.all(
		rows.map(async (row) => {
			const record = await n8n.execution(row.id).catch(() => undefined);
			const last = record?.data.resultData.lastNodeExecuted ?? '?';
			return `${row.id} ${row.status} waitTill=${row.waitTill ?? 'none'} last=${last}`;
		}),
	);
}

interface Figures {
	row: string;
	answered2xx: number;
	calls: number;
	p50: number;
	p99: number;
	answers: string;
	reached: number;
	twice: number;
	/** After the burst: when the workflows reached Report, and when the node's reads of the tasks arrived at the gateway. */
	reachedP50: number;
	reachedP99: number;
	/** When the last video reached its workflow, after the burst. */
	reachedLast: number;
	/** Gateway reads of the row's tasks from their create on, and after the burst. */
	reads: number;
	readsAfterBurst: number;
	readsP50: number;
	readsP99: number;
	api: Awaited<ReturnType<ReturnType<typeof probeApi>['stop']>>;
	/** The row's executions that did not end in success (see notSucceeded). */
	notSucceeded: string[];
}

async function runRow(started: PackagedN8n, sim: Simulator, collector: Collector, row: Row, tag: string) {
	const { n8n } = started;
	const route = started.webhooks.length ? started.balancer() : (url: string) => url;
	const tasks = videoTasks(sim);
	tasks.callbackTimeoutMs = CALLER_TIMEOUT_MS;
	tasks.secondCallbacks = { kind: 'off' };
	tasks.routeCallback = started.webhooks.length ? route : undefined;
	collector.reset();
	const held = holdTaskEnds(sim);
	const hookId = randomUUID();
	const path = `p16-${row.way}-${tag}`;
	const created = await started.importWorkflow(atTypeVersion(workflowOf(row.way, collector, hookId, path)), {
		activate: true,
	});
	const hook = (to: string) => route(`${n8n.url}/webhook/${to}`);
	const triggerUrl = `${n8n.url}/webhook/${hookId}/video-task?secret=${TRIGGER_KEY}`;
	// The address Video → Create sends, as a user gives it: the public one, behind which the balancer
	// sends it to a webhook process (the package's own posts go there too; the simulator's go round).
	const creator =
		row.way === 'trigger-create'
			? await started.importWorkflow(
					atTypeVersion(creatorOf(`${path}-create`, randomUUID(), route(triggerUrl))),
					{
						activate: true,
					},
				)
			: undefined;
	const startPath = row.way === 'trigger-create' ? `${path}-create` : path;
	const deliveriesBefore = tasks.deliveries.length;
	let requestsBefore = sim.requests.length;
	let answers: Array<{ status: number; ms: number }> = [];
	// The bench's ids; a trigger row's become the gateway's task ids once its tasks are created.
	const ids = Array.from({ length: row.count }, (_, i) => `p16_${tag}_${i}`);

	// n8n registers an activated workflow's webhooks a moment after the activation answers: a start
	// answered 404 is sent again, and the trigger is probed without its secret (401, nothing starts).
	const start = async (id: string) => {
		const body = { id, prompt: `p16 ${id} [at:${held.endsAt}]` };
		await waitUntil(
			`the start of ${id}`,
			async () =>
				(await http(hook(startPath), { method: 'POST', body }).catch(() => undefined))?.status !== 404,
			60_000,
		);
	};
	const calledBack = row.way === 'trigger' || row.way === 'webhook-get';
	if (calledBack || row.way === 'trigger-create' || row.way === 'webhook') {
		const probe = row.way === 'trigger' ? `${n8n.url}/webhook/${hookId}/video-task` : hook(path);
		await waitUntil(
			'the webhook registered',
			async () => (await http(probe, { method: 'POST', body: {} }).catch(() => undefined))?.status !== 404,
			60_000,
		);
	}
	// The executions that wait, started a few at a time (their start is not what is measured).
	const waits = row.way === 'wait' || row.way === 'wait-restart' || row.way === 'wait-down';
	const nodeWaits = row.way.startsWith('wait-node');
	if (waits || nodeWaits) {
		await start(ids[0]);
		for (let i = 1; i < row.count; i += 10) await Promise.all(ids.slice(i, i + 10).map(start));
		await waitUntil(
			'every execution waiting',
			async () => (await waitingCount(n8n, created.id)) >= row.count,
			10 * 60_000,
		);
	}
	if (row.way === 'trigger-create') {
		for (let i = 0; i < row.count; i += 10) await Promise.all(ids.slice(i, i + 10).map(start));
		const byPrompt = () => [...tasks.tasks.values()].filter((task) => task.prompt.includes(`_${tag}_`));
		await waitUntil('every task created', () => byPrompt().length >= row.count, 10 * 60_000);
		for (const task of byPrompt()) {
			const at = ids.indexOf(/p16 (\S+) /.exec(task.prompt)?.[1] ?? '');
			if (at >= 0) ids[at] = task.id;
		}
	}
	if (calledBack) {
		const url = row.way === 'trigger' ? triggerUrl : `${n8n.url}/webhook/${path}`;
		for (const [i, id] of ids.entries()) {
			const answer = await http(`${sim.url}/v1/videos`, {
				method: 'POST',
				headers: { authorization: `Bearer ${sim.keys.bearer}` },
				body: { model: 'vidA-2.5', prompt: `p16 ${id} [at:${held.endsAt}]`, duration: 5, callback_url: url },
			});
			if (answer.status >= 300) throw new Error(`P16: the simulator refused a create: ${answer.text()}`);
			ids[i] = answer.json<{ id: string }>().id;
		}
	}
	// The statuses a gateway sends while its tasks run (answered and ignored, or refused while an
	// execution still runs) are delivered before the burst: only the final callbacks are measured.
	if (waits || calledBack || row.way === 'trigger-create') {
		const rowTasks = [...tasks.tasks.values()].filter((task) => task.prompt.includes(`_${tag}_`));
		await waitUntil(
			'the running statuses delivered',
			() => rowTasks.every((task) => !task.delivering && task.notified === tasks.status(task)),
			10 * 60_000,
		);
	}

	if (row.way === 'wait-restart' || row.way === 'wait-node-restart') {
		const starter = started.worker ?? n8n;
		if (process.env.GG_P16_KILL === '1') await starter.kill();
		else await starter.stop();
		await starter.start();
		if (starter === n8n) await n8n.login();
		await waitUntil(
			'the executions waiting after the restart',
			async () => (await waitingCount(n8n, created.id)) >= row.count,
			5 * 60_000,
		);
	}
	let upAt: number | undefined;
	if (row.way === 'wait-down' || row.way === 'wait-node-down') {
		await stopAll(started);
		if (row.way === 'wait-node-down')
			answers = await callAll(collector.resumeUrls.map(route), (i) => ({ id: ids[i] }));
		held.release();
		await waitUntil(
			'the final callbacks tried while n8n is down',
			() =>
				row.way === 'wait-node-down' ||
				tasks.deliveries.slice(deliveriesBefore).filter((d) => d.status === 'completed').length >= row.count,
			5 * 60_000,
		);
		await startAll(started);
		upAt = Date.now();
	}
	const probe = probeApi(n8n, created.id);
	requestsBefore = sim.requests.length;
	const burst = upAt ?? Date.now();
	if (row.way !== 'wait-down') held.release();
	if (row.way === 'wait-node' || row.way === 'wait-node-restart')
		answers = await callAll(collector.resumeUrls.map(route), (i) => ({ id: ids[i] }));
	if (row.way === 'webhook')
		answers = await callAll(
			ids.map(() => hook(path)),
			(i) => ({ id: ids[i], status: 'completed' }),
		);
	const reachedCount = () => ids.filter((id) => collector.seen.has(id)).length;
	const reachedAll = () => reachedCount() >= row.count;
	// Nothing but its one call resumes a Wait node left behind by n8n down: it is given as long as the
	// package's wait-down rows take with Recover Waits.
	await waitUntil(
		`${row.way}: every video in a workflow`,
		reachedAll,
		row.way === 'wait-node-down' ? 3 * 60_000 : 8 * 60_000,
	);
	if (waits || calledBack || row.way === 'trigger-create') {
		await waitUntil(
			'the final callbacks answered',
			() =>
				tasks.deliveries.slice(deliveriesBefore).filter((d) => d.status === 'completed').length >= row.count,
			CALLER_TIMEOUT_MS + 5_000,
		);
		answers = tasks.deliveries
			.slice(deliveriesBefore)
			.filter((d) => d.status === 'completed' && d.attempt === 1)
			.map((d) => ({
				status: d.httpStatus ?? 0,
				ms: Math.min(d.tookMs ?? CALLER_TIMEOUT_MS, CALLER_TIMEOUT_MS),
			}));
	}
	const api = await probe.stop(burst, Date.now());
	const reachedAfter = [...collector.firstSeenAt.values()].map((at) => at - burst);
	const readsAfter = sim.requests
		.slice(requestsBefore)
		.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/'))
		.map((r) => r.at - burst);
	const rowTaskIds = new Set(
		[...tasks.tasks.values()].filter((task) => task.prompt.includes(`_${tag}_`)).map((task) => task.id),
	);
	const rowReads = sim.requests.filter(
		(r) => r.method === 'GET' && rowTaskIds.has(decodeURIComponent(r.path.slice('/v1/videos/'.length))),
	);
	const times = answers.map((a) => a.ms);
	const byStatus = new Map<string, number>();
	for (const a of answers)
		byStatus.set(String(a.status || 'timed out'), (byStatus.get(String(a.status || 'timed out')) ?? 0) + 1);
	const figures: Figures = {
		row: `${row.way} ${row.count}`,
		answered2xx: answers.filter((a) => a.status >= 200 && a.status < 300).length,
		calls: answers.length,
		p50: quantile(times, 0.5),
		p99: quantile(times, 0.99),
		answers: [...byStatus].map(([status, n]) => `${n} × ${status}`).join(', '),
		reached: reachedCount(),
		twice: ids.filter((id) => (collector.seen.get(id) ?? 0) > 1).length,
		reachedP50: quantile(reachedAfter, 0.5),
		reachedP99: quantile(reachedAfter, 0.99),
		reachedLast: Math.max(0, ...reachedAfter),
		reads: rowReads.length,
		readsAfterBurst: rowReads.filter((r) => r.at >= burst).length,
		readsP50: quantile(readsAfter, 0.5),
		readsP99: quantile(readsAfter, 0.99),
		api,
		notSucceeded: await notSucceeded(n8n, created.id),
	};
	if (figures.notSucceeded.length)
		process.stderr.write(`P16 ${figures.row}: not succeeded:\n  ${figures.notSucceeded.join('\n  ')}\n`);
	await drainCallbacks(sim, CALLER_TIMEOUT_MS);
	await n8n.rest('POST', `/workflows/${created.id}/deactivate`).catch(() => undefined);
	if (creator) await n8n.rest('POST', `/workflows/${creator.id}/deactivate`).catch(() => undefined);
	return figures;
}

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
