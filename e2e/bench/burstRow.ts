/** Bench P15 (burst.ts): one batch ending in one instant, run in an n8n, and its figures. */
import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import type { ExecutionRecord } from '../src/executions';
import { outputOf, type N8n } from '../src/n8n';
import { waitFor } from '../src/proc';
import { callAtOnce, listedStatus, probeApi, quantile } from './measure';
import { AUTO_CALLBACK_MAX_TASKS } from '../../nodes/GenerationGateway/actions/video/options';
import { countEach, holdTaskEnds } from '../src/workflows';
import { CALLBACK_TIMEOUT_MS, DOWNLOAD, NODE, WAIT, batchWorkflow, type BurstRow } from './burstWorkflows';

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

/** The Wait node's floor: its resume URL called `count` times at once, each with the gateway's timeout. */
async function callWaitNode(url: string, count: number, route = (to: string) => to) {
	return await callAtOnce(
		Array.from({ length: count }, () => route(url)),
		(i) => ({ id: `burst_${i}`, status: 'completed' }),
		CALLBACK_TIMEOUT_MS,
	);
}

/**
 * `route`: where a callback (or a call of the Wait node's resume URL) is sent instead of the resume
 * URL's own process: the webhook processes of a queue-mode n8n, behind a balancer.
 */
export async function runRow(
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
