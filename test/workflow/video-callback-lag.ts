/**
 * Create and Wait, callback mode, when the gateway's reads trail its
 * callbacks (the simulator's `readLagMs`) and it calls back again after a
 * 503 in one of several ways (`secondCallbacks`): off, at fixed pauses that
 * ignore Retry-After, or after the Retry-After it was given. Real
 * executions: the simulator creates the tasks, ends them together and posts
 * every status change over https to the harness's waiting-webhook route,
 * which resumes the execution as n8n's does. Used by
 * video-callback-lag.test.ts (assertions) and the P8 bench (figures).
 */
import type { RunResult } from '../harness';
import { runWorkflow, until } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { Fault } from '../simulator/types';
import type { SecondCallbacks } from '../simulator/video/tasks';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

export interface LagRow {
	name: string;
	/** Tasks in the batch (one item each), all ending at the same time after their create. */
	tasks: number;
	/** How long the gateway's reads trail its final callbacks. */
	lagMs: number;
	second: SecondCallbacks;
	/** Max Concurrent Requests of the node (default 3; 50 for hundreds of items). */
	maxConcurrency?: number;
	/** When the tasks end, after their create (default: 1.5 s; 15 s from 100 items on). */
	endAfterMs?: number;
	/**
	 * A fault that the first task's read number `atRead` meets (1 is the read as the wait
	 * began, 2 its final callback's first read, 3 on the confirmation window's reads).
	 */
	readFault?: { atRead: number; fault: Fault };
}

export const NO_SECOND: SecondCallbacks = { kind: 'off' };
/** A gateway that calls again 0.5 s, then 1 s after a 503, whatever its Retry-After says. */
export const FAST_SECOND: SecondCallbacks = { kind: 'fixed', pausesMs: [500, 1000] };
/** A gateway that calls again after the Retry-After it was given (30 s), up to 3 attempts. */
export const HONOURING_SECOND: SecondCallbacks = { kind: 'retry-after', attempts: 3 };

export interface LagFigures {
	/** Callbacks whose webhook() resumed the execution. */
	resumed: number;
	/** The execution at the end: `success` once resumed, `waiting` when no callback resumed it. */
	status: RunResult['status'];
	/** Items that came out with their video. */
	videos: number;
	/** GET /v1/videos/{id} per task, the read as the wait began included. */
	readsPerTask: number[];
	/** The HTTP statuses answering the final callbacks (every attempt), counted by status. */
	finalAnswers: Record<string, number>;
	/** Attempts of final callbacks beyond the first of each task. */
	secondCallbacks: number;
	/** Downloads of each task's video. */
	downloads: number[];
	/** The longest answer to a final callback, in ms. */
	longestAnswerMs: number;
	/** From the tasks' end to the execution's end (or to the last final answer when it never resumed), in s. */
	seconds: number;
}

const isFinal = (status: string) => ['completed', 'failed', 'cancelled', 'expired'].includes(status);

/** Arms `fault` for the read of `path` numbered `atRead`, once the reads before it were made. */
async function injectAtRead(
	sim: Simulator,
	path: string,
	{ atRead, fault }: NonNullable<LagRow['readFault']>,
) {
	await until(() => sim.requestsTo(path, 'GET').length >= atRead - 1, `read ${atRead - 1} of ${path}`, {
		timeoutMs: 20_000,
		everyMs: 5,
	});
	sim.inject({ method: 'GET', path, times: 1, fault });
}

/**
 * Runs one row on its own simulator and waiting-webhook route. `keepConnections`: the gateway's
 * callbacks reuse their connections (the tests' thousands of callbacks; the bench keeps one each).
 */
export async function runLagRow(row: LagRow, { keepConnections = false } = {}): Promise<LagFigures> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	const tasks = videoTasks(sim);
	tasks.keepConnections = keepConnections;
	tasks.readLagMs = row.lagMs;
	tasks.secondCallbacks = row.second;
	try {
		// Hundreds of creates take seconds on a loaded machine: no task may end before the
		// execution is saved as waiting (its callback would meet n8n's refusal, not the node).
		const endAfter = row.endAfterMs ?? (row.tasks >= 100 ? 15_000 : 1_500);
		const waiting = await runWorkflow(
			videoCallbackWorkflow(
				{
					// Callback explicitly: Auto polls batches beyond AUTO_CALLBACK_MAX_TASKS.
					waitOptions: { mode: 'callback', download: true },
					requestOptions: { maxConcurrency: row.maxConcurrency ?? (row.tasks >= 100 ? 50 : 3) },
				},
				{},
				`lag-${sim.url}`,
			),
			{
				credentials: sim.credentials(),
				input: promptItems(Array.from({ length: row.tasks }, (_, n) => `clip ${n} [after:${endAfter}]`)),
				instanceBaseUrl: n8n.url,
			},
		);
		if (waiting.status !== 'waiting') throw new Error(`The execution did not wait: ${waiting.status}`);
		n8n.track(waiting);
		const ids = waiting.output(VIDEO_NODE).map((item) => String(item.json.id));
		const mine = ids.map((id) => tasks.tasks.get(id)!);
		const faulted = row.readFault ? injectAtRead(sim, `/v1/videos/${ids[0]}`, row.readFault) : undefined;
		const endedAt = Math.max(...mine.map((task) => task.createdAt + task.doneAfterMs));
		// Over when every task's final callback was answered (the one that resumed included: its
		// answer comes once the run is over) and the gateway is not going to call again.
		const settled = () => mine.every((task) => isFinal(task.notified ?? '') && !task.delivering);
		// A bound for a hang, not a measure: a loaded machine answers hundreds of callbacks slowly, and
		// each task's statuses are posted one after another, each waiting up to 15 s for its answer.
		const patience = endAfter + 25_000 + row.tasks * 500 + (row.second.kind === 'retry-after' ? 70_000 : 0);
		// Looked at every 250 ms: the figures come from the records, not from when the end is seen, and on
		// virtual time each look is a step that checks every open socket (hundreds in the 300-task row).
		await until(settled, `the end of row "${row.name}"`, { timeoutMs: patience, everyMs: 250 });
		await faulted;
		const done = n8n.finishedNow(waiting.executionId);
		const finals = tasks.deliveries.filter((d) => ids.includes(d.id) && isFinal(d.status));
		const finalAnswers: Record<string, number> = {};
		for (const delivery of finals) {
			const key = String(delivery.httpStatus ?? delivery.error ?? 'none');
			finalAnswers[key] = (finalAnswers[key] ?? 0) + 1;
		}
		const answers = n8n.deliveries.filter(
			(d) =>
				d.executionId === waiting.executionId &&
				isFinal(String((d.request as { status?: string } | null)?.status)),
		);
		const lastAnswerAt = Math.max(endedAt, ...answers.map((d) => d.endedAt));
		return {
			resumed: answers.filter((d) => d.resumed).length,
			status: done?.status ?? 'waiting',
			videos: done ? done.output(VIDEO_NODE).filter((item) => item.binary?.data).length : 0,
			readsPerTask: ids.map((id) => sim.requestsTo(`/v1/videos/${id}`, 'GET').length),
			finalAnswers,
			secondCallbacks: finals.filter((d) => d.attempt > 1).length,
			downloads: ids.map((id) => sim.requestsTo(`/files/videos/${id}.mp4`, 'GET').length),
			longestAnswerMs: Math.max(0, ...answers.map((d) => d.ms)),
			seconds:
				Math.round(((done ? Math.max(...answers.map((d) => d.endedAt)) : lastAnswerAt) - endedAt) / 100) / 10,
		};
	} finally {
		tasks.stop();
		await n8n.stop();
		await sim.stop();
	}
}

/** A row's figures on one line (the bench's and the report's form). */
export function describeLag(f: LagFigures): string {
	const reads = f.readsPerTask;
	const mean = reads.reduce((a, b) => a + b, 0) / Math.max(1, reads.length);
	const downloads = f.downloads.reduce((a, b) => a + b, 0);
	return [
		`resumed ${f.resumed} (${f.status}), ${f.videos} videos`,
		`reads per task max ${Math.max(0, ...reads)} mean ${mean.toFixed(2)}`,
		`final answers ${Object.entries(f.finalAnswers)
			.map(([status, count]) => `${status} x${count}`)
			.join(', ')}`,
		`second callbacks ${f.secondCallbacks}`,
		`downloads ${downloads} (max per task ${Math.max(0, ...f.downloads)})`,
		`longest answer ${(f.longestAnswerMs / 1000).toFixed(1)} s`,
		`done ${f.seconds} s after the tasks ended`,
	].join('; ');
}
