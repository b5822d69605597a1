/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Bench P16 (p16.ts): one row run in the started n8n, and its figures. */
import { randomUUID } from 'node:crypto';

import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from '../src/http';
import { startAll, stopAll } from '../src/recovery';
import type { PackagedN8n } from '../src/start';
import { holdTaskEnds } from '../src/workflows';
import { callAtOnce, drainCallbacks, probeApi, quantile } from './measure';
import type { Collector } from './p16Collector';
import { notSucceeded, waitingCount, waitUntil } from './p16Executions';
import { TRIGGER_KEY, atTypeVersion, creatorOf, workflowOf, type Row } from './p16Workflows';

const CALLER_TIMEOUT_MS = 10_000;

/** `count` calls of `url` at once, each given up after the caller's timeout: status (0: none) and time. */
async function callAll(urls: string[], body: (i: number) => unknown) {
	const answers = await callAtOnce(urls, body, CALLER_TIMEOUT_MS);
	return answers.map((answer) => ({ status: answer.status, ms: Math.min(answer.ms, CALLER_TIMEOUT_MS) }));
}

export interface Figures {
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

export async function runRow(
	started: PackagedN8n,
	sim: Simulator,
	collector: Collector,
	row: Row,
	tag: string,
) {
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
