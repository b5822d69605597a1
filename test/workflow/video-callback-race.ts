/**
 * Callback races of Create and Wait (issue 10 item 4, PERFORMANCE.md P8):
 * three tasks, their callbacks delivered in a chosen order and concurrency
 * straight to n8n's waiting-webhook route (test/harness/resume.ts, in
 * process: concurrent `webhook()` calls on fresh loads of the execution).
 * The simulator sends no callbacks of its own here; a task is made final at
 * the gateway by ending its timer, and its callback body is the record the
 * gateway would post. Used by video-callback-race.test.ts (assertions) and
 * the P8 bench scenario (figures).
 */
import type { RunResult } from '../harness';
import { runWorkflow } from '../harness';
import type { WaitingAnswer, WaitingWebhookServer } from '../harness/resume';
import type { Simulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

export interface RaceStep {
	/** Items whose tasks become final at the gateway before this step's callbacks. */
	finish?: number[];
	/** Callbacks sent together (concurrently), by item: its current record as the body. */
	deliver: number[];
	/** Send `{id, status}` only, as a gateway that posts no full record would. */
	bare?: boolean;
	/** The n8n process serving each callback of `deliver` (default all 0: one process). */
	on?: number[];
}

export interface RaceScenario {
	name: string;
	steps: RaceStep[];
	/** How many n8n processes serve the resume URL (webhook processes behind a load balancer). */
	processes?: number;
}

const ALL = [0, 1, 2];

/** The orders measured; every scenario ends with a late round of all three callbacks. */
export const RACE_SCENARIOS: RaceScenario[] = [
	{ name: '3 finals at the same moment', steps: [{ finish: ALL, deliver: ALL }] },
	{
		name: '3 finals at the same moment, each delivered twice (gateway retries)',
		steps: [{ finish: ALL, deliver: [0, 1, 2, 2, 1, 0] }],
	},
	{
		name: 'progress callbacks, then 3 finals at the same moment',
		steps: [{ deliver: ALL }, { finish: ALL, deliver: ALL }],
	},
	{
		name: 'finals one after another, in item order',
		steps: [
			{ finish: [0], deliver: [0] },
			{ finish: [1], deliver: [1] },
			{ finish: [2], deliver: [2] },
		],
	},
	{
		name: 'finals one after another, reverse order',
		steps: [
			{ finish: [2], deliver: [2] },
			{ finish: [1], deliver: [1] },
			{ finish: [0], deliver: [0] },
		],
	},
	{
		name: 'one final, then two at the same moment',
		steps: [
			{ finish: [1], deliver: [1] },
			{ finish: [0, 2], deliver: [2, 0] },
		],
	},
	{
		name: 'all final, one callback lost, the other two at the same moment',
		steps: [{ finish: ALL, deliver: [0, 2] }],
	},
	{
		name: '3 finals at the same moment, bodies without the record ({id, status})',
		steps: [{ finish: ALL, deliver: ALL, bare: true }],
	},
	{
		name: '3 finals at the same moment on two n8n webhook processes',
		processes: 2,
		steps: [{ finish: ALL, deliver: ALL, on: [0, 1, 0] }],
	},
];

export interface RaceFigures {
	/** Gateway reads of each task made once it was final, per item. */
	readsAfterFinal: number[];
	/** Reads of tasks still running (a callback checking the others). */
	readsBeforeFinal: number;
	/** Downloads of each task's video, per item. */
	downloads: number[];
	/** HTTP statuses of the callbacks before the late round, in sending order. */
	statuses: number[];
	/** HTTP statuses of the late round (all three again, after the execution ended). */
	lateStatuses: number[];
	/** Callbacks whose webhook() returned items and won n8n's resume / lost it. */
	resumed: number;
	lostResume: number;
	/** The execution at the end. */
	execution: RunResult;
}

/** A waiting execution of 3 items (Download Video on) whose callbacks the test sends itself. */
export async function startRace(sim: Simulator, n8n: WaitingWebhookServer) {
	const tasks = videoTasks(sim);
	tasks.callbacksEnabled = false;
	const waiting = await runWorkflow(videoCallbackWorkflow({ waitOptions: { download: true } }), {
		credentials: sim.credentials(),
		input: promptItems(ALL.map((n) => `race ${n} [after:3600000]`)),
		instanceBaseUrl: n8n.url,
	});
	if (waiting.status !== 'waiting') throw new Error(`The execution did not wait: ${waiting.status}`);
	n8n.track(waiting);
	const ids = waiting.output(VIDEO_NODE).map((item) => String(item.json.id));
	const query = { signature: String(waiting.runExecutionData.resumeToken) };
	// Where each task became final in the simulator's request log (an index, not a time:
	// a whole step can take less than a millisecond).
	const finalAt: number[] = ALL.map(() => Infinity);
	return {
		waiting,
		ids,
		finalAt,
		/** Ends the item's task at the gateway now (its record turns final). */
		finish(item: number) {
			const task = tasks.tasks.get(ids[item])!;
			finalAt[item] = sim.requests.length;
			task.doneAfterMs = Date.now() - task.createdAt;
		},
		/** Sends the items' callbacks together: the current records as bodies, on the given processes. */
		async send(items: number[], bare = false, on: number[] = []): Promise<WaitingAnswer[]> {
			return await Promise.all(
				items.map(async (item, n): Promise<WaitingAnswer> => {
					const record = tasks.record(tasks.tasks.get(ids[item])!);
					const body = bare ? { id: record.id, status: record.status } : record;
					return await n8n.deliver(waiting.executionId, { query, body, process: on[n] });
				}),
			);
		},
	};
}

/** Runs one scenario: callbacks sent as the steps say, then a late round of all three. */
export async function runRace(
	sim: Simulator,
	n8n: WaitingWebhookServer,
	scenario: RaceScenario,
): Promise<RaceFigures> {
	const { waiting, ids, finalAt, finish, send } = await startRace(sim, n8n);
	const answers: WaitingAnswer[] = [];
	for (const step of scenario.steps) {
		for (const item of step.finish ?? []) finish(item);
		answers.push(...(await send(step.deliver, step.bare, step.on)));
	}
	for (const item of ALL) if (finalAt[item] === Infinity) finish(item);
	const late = await send(ALL);
	const reads = ids.map((id) =>
		sim.requests.flatMap((r, at) => (r.method === 'GET' && r.path === `/v1/videos/${id}` ? [at] : [])),
	);
	return {
		readsAfterFinal: reads.map((list, item) => list.filter((at) => at >= finalAt[item]).length),
		readsBeforeFinal: reads.reduce(
			(sum, list, item) => sum + list.filter((at) => at < finalAt[item]).length,
			0,
		),
		downloads: ids.map((id) => sim.requestsTo(`/files/videos/${id}.mp4`, 'GET').length),
		statuses: answers.map((a) => a.status),
		lateStatuses: late.map((a) => a.status),
		resumed: answers.filter((a) => a.resumed).length,
		lostResume: answers.filter((a) => a.lostResume).length,
		execution: [...answers, ...late].find((a) => a.resumed)?.execution ?? waiting,
	};
}
