/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Callback races of Create and Wait (the callback-race benchmark, P8): three tasks, their
 * callbacks delivered in a chosen order and concurrency straight to n8n's
 * waiting-webhook route (test/harness/resume.ts, in process: concurrent
 * `webhook()` calls on fresh loads of the execution). The simulator sends
 * no callbacks of its own here; a task is made final at the gateway by
 * ending its timer, and its callback body is the record the gateway would
 * post. A callback answered 5xx is sent again, as the gateway does, up to
 * three times in all. Used by video-callback-race.test.ts (assertions) and
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
	/** Before this step: the next reads of these items' tasks answer `in_progress` although ended (lag). */
	stale?: Array<[item: number, reads: number]>;
	/**
	 * Callback `first` is sent while item `readOf` still runs, and its read of that task is held
	 * in flight; the task then ends and its own callback `then` arrives while that read is still
	 * under way (the read answers as it began: `in_progress`); then the read is let go.
	 */
	interleave?: { readOf: number; first: number; then: number; on?: [number, number] };
	/** Forged "completed" callbacks for these items (their tasks still running), with a foreign `data.url`. */
	forge?: number[];
}

export interface RaceScenario {
	name: string;
	steps: RaceStep[];
	/** How many n8n processes serve the resume URL (webhook processes behind a load balancer). */
	processes?: number;
	/** Items whose tasks end at once, before the execution waits (their callbacks meet n8n's 409: lost). */
	finalBeforeWait?: number[];
	/** Never made final by the scenario (forged-callback rows): no late round, no resume expected. */
	keepRunning?: boolean;
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
	{
		name: "a final callback arrives while another callback's read of its task is in flight ({id, status})",
		steps: [
			{ finish: [2], deliver: [2], bare: true },
			{ finish: [0], deliver: [], bare: true, interleave: { readOf: 1, first: 0, then: 1 } },
		],
	},
	{
		name: 'the same interleaving on two webhook processes (whole records)',
		processes: 2,
		steps: [
			{ finish: [2], deliver: [2], on: [1] },
			{ finish: [0], deliver: [], interleave: { readOf: 1, first: 0, then: 1, on: [0, 1] } },
		],
	},
	{
		name: "the gateway's read lags behind the last final callback ({id, status})",
		steps: [
			{ finish: [0, 1], deliver: [0, 1], bare: true },
			{ finish: [2], stale: [[2, 1]], deliver: [2], bare: true },
		],
	},
	{
		name: 'every read lags once, 3 finals at the same moment on two processes',
		processes: 2,
		steps: [{ finish: ALL, stale: ALL.map((item) => [item, 1]), deliver: ALL, on: [0, 1, 0] }],
	},
	{
		name: 'every task final before the execution waits (all callbacks meet 409)',
		finalBeforeWait: ALL,
		steps: [],
	},
	{
		name: 'two tasks final before the execution waits, the third calls back later',
		finalBeforeWait: [0, 1],
		steps: [{ finish: [2], deliver: [2] }],
	},
];

/** Forged final callbacks, rows of their own: nothing may resume and nothing forged is fetched. */
export const FORGED_SCENARIO: RaceScenario = {
	name: 'forged "completed" callbacks for 3 running tasks (foreign data.url)',
	keepRunning: true,
	steps: [{ deliver: [], forge: ALL }],
};

/** Where the forged callbacks point their video: the simulator logs a request to it, should one come. */
export const FORGED_VIDEO_PATH = '/files/forged/video.mp4';

export interface RaceFigures {
	/** Gateway reads of each task that answered its final status, per item. */
	readsAfterFinal: number[];
	/** Reads of ended tasks that still answered `in_progress` (a lagging gateway). */
	staleReads: number;
	/** Reads of tasks still running (a callback checking the others). */
	readsBeforeFinal: number;
	/** Downloads of each task's video, per item. */
	downloads: number[];
	/** HTTP statuses of the callbacks before the late round, in sending order. */
	statuses: number[];
	/** HTTP statuses of the late round (all three again, after the execution ended). */
	lateStatuses: number[];
	/** Callbacks whose webhook() returned items and won n8n's resume / whose items n8n refused (another had resumed). */
	resumed: number;
	refusedResume: number;
	/** 1 when the execution was still waiting after every final callback (and the gateway's retries): a lost resume. */
	lostResumes: number;
	/** Requests to the forged callbacks' video address. */
	forgedFetches: number;
	/** The execution at the end. */
	execution: RunResult;
}

const GATEWAY_ATTEMPTS = 3;
const isFinal = (status: string) => ['completed', 'failed', 'cancelled', 'expired'].includes(status);
const settle = async () => {
	// webhook() does no I/O before its first gateway read: a few turns of the event loop take
	// every delivered callback there.
	for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * An execution of 3 items (Download Video on) whose callbacks the test sends
 * itself; `finalBeforeWait` items end at once, so they are final before it waits.
 */
export async function startRace(sim: Simulator, n8n: WaitingWebhookServer, finalBeforeWait: number[] = []) {
	const tasks = videoTasks(sim);
	tasks.callbacksEnabled = false;
	const started = await runWorkflow(videoCallbackWorkflow({ waitOptions: { download: true } }), {
		credentials: sim.credentials(),
		input: promptItems(ALL.map((n) => `race ${n} [after:${finalBeforeWait.includes(n) ? 0 : 3600000}]`)),
		instanceBaseUrl: n8n.url,
	});
	const waits = started.status === 'waiting';
	if (waits) n8n.track(started);
	else if (finalBeforeWait.length < ALL.length)
		throw new Error(`The execution did not wait: ${started.status}`);
	const ids = started.output(VIDEO_NODE).map((item) => String(item.json.id));
	const query = { signature: String(started.runExecutionData.resumeToken) };
	// Where each task became final in the simulator's request log (an index, not a time:
	// a whole step can take less than a millisecond).
	const finalAt: number[] = ALL.map((item) => (finalBeforeWait.includes(item) ? 0 : Infinity));
	const recordOf = (item: number) => tasks.record(tasks.tasks.get(ids[item])!);
	const deliver = async (body: unknown, on = 0): Promise<WaitingAnswer[]> => {
		const answers: WaitingAnswer[] = [];
		for (let attempt = 1; attempt <= GATEWAY_ATTEMPTS; attempt++) {
			const answer = await n8n.deliver(started.executionId, { query, body, process: on });
			answers.push(answer);
			if (answer.status < 500) break;
		}
		return answers;
	};
	return {
		waiting: started,
		waits,
		ids,
		finalAt,
		/** Ends the item's task at the gateway now (its record turns final). */
		finish(item: number) {
			finalAt[item] = sim.requests.length;
			tasks.endNow(tasks.tasks.get(ids[item])!);
		},
		/**
		 * Sends the items' callbacks together, the current records as bodies, on the given
		 * processes; a callback answered 5xx is sent again at once (up to 3 attempts). Every
		 * answer, retries included, in sending order.
		 */
		async send(items: number[], bare = false, on: number[] = []): Promise<WaitingAnswer[]> {
			const answers = await Promise.all(
				items.map(async (item, n) => {
					const record = recordOf(item);
					return await deliver(bare ? { id: record.id, status: record.status } : record, on[n]);
				}),
			);
			return answers.flat();
		},
		/** A callback claiming the running task is completed, its video somewhere else. */
		async forge(item: number): Promise<WaitingAnswer[]> {
			const forged = {
				...recordOf(item),
				status: 'completed',
				data: { url: `${sim.url}${FORGED_VIDEO_PATH}` },
			};
			return await deliver(forged);
		},
		/** RaceStep.interleave */
		async interleave(step: NonNullable<RaceStep['interleave']>, bare = false): Promise<WaitingAnswer[]> {
			const gate = sim.hold(`/v1/videos/${ids[step.readOf]}`);
			try {
				const send = this.send.bind(this);
				const first = send([step.first], bare, [step.on?.[0] ?? 0]);
				await untilHeld(gate);
				this.finish(step.readOf);
				// The held read answers as it began: before the task ended.
				tasks.staleReads.set(ids[step.readOf], 1);
				const then = send([step.then], bare, [step.on?.[1] ?? 0]);
				await settle();
				gate.open();
				return [...(await first), ...(await then)];
			} finally {
				gate.open();
			}
		},
	};
}

async function untilHeld(gate: { waiting: number }): Promise<void> {
	for (let turn = 0; turn < 1000 && gate.waiting === 0; turn++) {
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	if (gate.waiting === 0) throw new Error('No read of the task was held');
}

/** Runs one scenario: callbacks sent as the steps say, then (unless kept running) a late round of all three. */
export async function runRace(
	sim: Simulator,
	n8n: WaitingWebhookServer,
	scenario: RaceScenario,
): Promise<RaceFigures> {
	const tasks = videoTasks(sim);
	const readsBefore = tasks.reads.length;
	const race = await startRace(sim, n8n, scenario.finalBeforeWait);
	const { waiting, ids, finalAt, finish } = race;
	const answers: WaitingAnswer[] = [];
	const forgedBefore = sim.requestsTo(FORGED_VIDEO_PATH).length;
	try {
		for (const step of scenario.steps) {
			for (const item of step.finish ?? []) finish(item);
			for (const [item, reads] of step.stale ?? []) tasks.staleReads.set(ids[item], reads);
			// Sent together: each forged callback is now read for the whole confirmation window (8 s).
			const forged = await Promise.all((step.forge ?? []).map(async (item) => await race.forge(item)));
			answers.push(...forged.flat());
			if (step.interleave) answers.push(...(await race.interleave(step.interleave, step.bare)));
			answers.push(...(await race.send(step.deliver, step.bare, step.on)));
		}
	} finally {
		for (const id of ids) tasks.staleReads.delete(id);
	}
	const resumedNow = answers.find((a) => a.resumed)?.execution;
	const lostResumes =
		!scenario.keepRunning && race.waits && !resumedNow && n8n.finishedNow(waiting.executionId) === undefined
			? 1
			: 0;
	let late: WaitingAnswer[] = [];
	if (!scenario.keepRunning) {
		for (const item of ALL) if (finalAt[item] === Infinity) finish(item);
		if (race.waits) late = await race.send(ALL);
	}
	const reads = ids.map((id) =>
		sim.requests.flatMap((r, at) => (r.method === 'GET' && r.path === `/v1/videos/${id}` ? [at] : [])),
	);
	const answered = tasks.reads.slice(readsBefore);
	return {
		readsAfterFinal: ids.map(
			(id) => answered.filter((read) => read.id === id && isFinal(read.status)).length,
		),
		staleReads: answered.filter((read) => read.stale).length,
		readsBeforeFinal: reads.reduce(
			(sum, list, item) => sum + list.filter((at) => at < finalAt[item]).length,
			0,
		),
		downloads: ids.map((id) => sim.requestsTo(`/files/videos/${id}.mp4`, 'GET').length),
		statuses: answers.map((a) => a.status),
		lateStatuses: late.map((a) => a.status),
		resumed: answers.filter((a) => a.resumed).length,
		refusedResume: answers.filter((a) => a.lostResume).length,
		lostResumes,
		forgedFetches: sim.requestsTo(FORGED_VIDEO_PATH).length - forgedBefore,
		execution: race.waits
			? ([...answers, ...late].find((a) => a.resumed)?.execution ??
				n8n.finishedNow(waiting.executionId) ??
				waiting)
			: waiting,
	};
}
