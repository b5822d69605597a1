import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { createLimiter, mapWithConcurrency } from '../../../../shared/concurrency';
import { gatewayFailureOf } from '../../../../shared/errors';
import { executionCustomDataOf } from '../../../../shared/n8nFeatures';
import { systemClock } from '../../../../shared/time';
import { isTerminalStatus, readCallbackBody } from '../../../../shared/videoTask';
import { readRequestSettings } from '../../descriptions';
import { errorItem, errorJson, itemError } from '../../itemErrors';
import { runsAsTool } from '../../tool';
import type { ItemResult } from '../../types';
import { limitText, pickUpAdvice, settleByPolling } from './pollingWait';
import { addHints, customDataFullHint, noCustomDataHint, pollingFallbackHint } from '../../hints';
import type { CallbackState, TaskSlot, WaitModeDecision } from './callbackState';
import type { WaitMemory } from './callbackRace';
import {
	callbackMemory,
	claimHolds,
	confirmOwnTask,
	othersMayRead,
	ownCallbackFailed,
	readAfter,
	rememberFinals,
	tick,
	tryClaim,
} from './callbackRace';
import {
	callbackReason,
	decideWaitMode,
	decodeState,
	encodeState,
	encodeStoredState,
	fittingItems,
	judgeCallback,
	parseStateText,
	shownResumeUrl,
	slotsFit,
	stateKeyPrefix,
	stateText,
	storedStateId,
} from './callbackState';
import { readWaitDeadlineMs } from '../options';
import type { WaitInfo } from '../task';
import { VIDEO_MAYBE_CREATED, finishedItem, getTask } from '../task';

/**
 * Create and Wait, callback mode. Each item's create sends the execution's
 * resume URL as the task's callback address; then `settleByCallback` keeps
 * the task list in the execution's custom data (callbackState.ts says why), reads every task
 * once and, unless all are final already, puts the execution to wait: no
 * worker is held and nothing polls. Each callback runs `webhook()` on this
 * node (n8n's waiting-webhook route, `restartWebhook`).
 *
 * A callback is the gateway's news, never its record: its method and body
 * are not published, and anyone holding the resume URL can post to it. So
 * every record the node outputs and every URL it downloads come from
 * `GET /v1/videos/{id}`; a final callback is answered 200 only once a read
 * that began after it arrived shows the task final. When the gateway's read
 * trails its callback, the task is read again within a window of a few
 * seconds (callbackRace.ts, `confirmOwnTask`), so no second callback is
 * needed; only when the window passes is the callback answered 503 with
 * Retry-After, so that the gateway tries again instead of dropping news
 * nobody acted on.
 */

/**
 * The resume webhook. `path: ''` matches `$execution.resumeUrl`, which has no
 * suffix; `restartWebhook` webhooks are never registered with anyone (n8n
 * skips them when activating), so no webhookMethods lifecycle applies.
 */
export const videoCallbackWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
		isFullPath: true,
	},
];

/** Seconds a callback answered 503 is asked to wait before it is sent again. */
export const CALLBACK_RETRY_AFTER_SECONDS = 30;

const RESUMING = { received: true, resuming: 'another callback of this execution is resuming it' };

/** Reads of their own tasks that a wait's callbacks make at once in one process, at least. */
export const CONFIRMATIONS_AT_ONCE = 16;

/** The least time a read of the confirmation window is given once it has its request slot. */
const MIN_WINDOW_READ_MS = 250;

function waitOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
}

const modeByRun = new WeakMap<object, WaitModeDecision & { resumeUrl: string }>();

/**
 * How this run waits, decided once (one resume URL per execution): every
 * item's create and the batch's settle read the same answer. A tool call
 * cannot put the execution to wait: it polls.
 */
export function runWaitMode(ctx: IExecuteFunctions): WaitModeDecision & { resumeUrl: string } {
	let decision = modeByRun.get(ctx);
	if (!decision) {
		const resumeUrl = ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0);
		const keepsCustomData = executionCustomDataOf(ctx) !== undefined;
		// Every input item makes a task unless it is refused: the batch's size as Auto weighs it.
		const tasks = ctx.getInputData().length;
		const wanted = decideWaitMode(waitOptions(ctx, 0).mode, resumeUrl, keepsCustomData, tasks);
		const asTool = runsAsTool(ctx);
		decision = {
			...wanted,
			...(asTool
				? { mode: 'polling', reason: 'a tool call of an AI agent cannot put the execution to wait' }
				: {}),
			resumeUrl: String(resumeUrl),
		};
		if (!asTool && decision.fallback) {
			addHints(ctx, keepsCustomData ? pollingFallbackHint(shownResumeUrl(resumeUrl)) : noCustomDataHint());
		}
		modeByRun.set(ctx, decision);
	}
	return decision;
}

/** The memory of one wait in this process: the same key in `execute()` and in every callback. */
function memoryOf(executionId: string, nodeId: string, state: CallbackState): WaitMemory {
	// A task id is unique even where n8n gives no execution id.
	const firstTask = state.slots.find((slot) => typeof slot === 'string');
	return callbackMemory.of(
		`${executionId}|${nodeId}|${state.startedAt}|${String(firstTask)}`,
		systemClock.now(),
	);
}

/**
 * Keeps the task list where the waiting execution finds it again: in its
 * custom data when it fits there, else as a file in n8n's binary data store
 * with the file's id in custom data. False when neither holds it.
 */
async function keepState(ctx: IExecuteFunctions, prefix: string, state: CallbackState): Promise<boolean> {
	const customData = executionCustomDataOf(ctx);
	if (!customData) return false;
	const existing = customData.getAll();
	let entries = encodeState(prefix, state);
	if (!slotsFit(entries, existing)) {
		const file = await ctx.helpers
			.prepareBinaryData(Buffer.from(stateText(state)), 'video-tasks.json', 'application/json')
			.catch(() => undefined);
		if (!file?.id) return false;
		entries = encodeStoredState(prefix, file.id);
		if (!slotsFit(entries, existing)) return false;
	}
	customData.setAll(entries);
	// Read back: n8n may refuse or cut an entry, and a list it cut would lose tasks.
	const kept = customData.getAll();
	return Object.entries(entries).every(([key, value]) => kept[key] === value);
}

/**
 * Stored task lists this process has read or is reading, by file id: a file
 * is written once and never changed, and a batch of hundreds of tasks sends
 * its callbacks together, so each is read from the store once, not per
 * callback: callbacks that arrive while it is being read share that read
 * (in queue mode each read takes one of n8n's few database connections). A
 * read that fails is forgotten, so the next callback tries again.
 */
const storedStates = new Map<string, Promise<CallbackState>>();
const STORED_STATES_KEPT = 16;

async function readStoredState(ctx: IWebhookFunctions, fileId: string): Promise<CallbackState> {
	const text = await ctx.helpers.binaryToString(await ctx.helpers.getBinaryStream(fileId));
	const state = parseStateText(text);
	if (!state) throw new Error(`the stored task list (${fileId}) is damaged`);
	return state;
}

/** The task list a waiting execution kept (undefined: it waits for none); rejects when its file cannot be read. */
async function loadState(ctx: IWebhookFunctions, prefix: string): Promise<CallbackState | undefined> {
	const data = executionCustomDataOf(ctx)?.getAll() ?? {};
	const fileId = storedStateId(prefix, data);
	if (fileId === undefined) return decodeState(prefix, data);
	let reading = storedStates.get(fileId);
	if (!reading) {
		reading = readStoredState(ctx, fileId);
		storedStates.set(fileId, reading);
		reading.catch(() => {
			if (storedStates.get(fileId) === reading) storedStates.delete(fileId);
		});
		// The oldest goes first: a map keeps the order its keys were added in.
		if (storedStates.size > STORED_STATES_KEPT) storedStates.delete(storedStates.keys().next().value!);
	}
	return await reading;
}

/** An item's slot in the task list: its task id, or its error (and whether its create may have charged). */
function slotOf(result: ItemResult): TaskSlot {
	if (!('error' in result)) return String(result.output[0]?.json.id ?? '');
	const charged = gatewayFailureOf(result.error)?.mayHaveCharged ? { charged: 1 as const } : {};
	return { error: result.error.message, ...charged };
}

/**
 * The router's second step in callback mode, once every item's task was
 * created with the resume URL as its callback address. Items whose create
 * was refused or failed (continue-on-fail) get no task and keep their error.
 */
export async function settleByCallback(
	ctx: IExecuteFunctions,
	results: ItemResult[],
	reason: string,
): Promise<ItemResult[]> {
	const startedAt = systemClock.now();
	const { maxConcurrency } = readRequestSettings(ctx, 0);
	const state: CallbackState = {
		startedAt,
		download: waitOptions(ctx, 0).download === true,
		slots: results.map(slotOf),
	};
	const prefix = stateKeyPrefix(ctx.getNode().id);
	if (!(await keepState(ctx, prefix, state))) {
		// The tasks exist already (their callbacks will find no waiting execution): poll them.
		const unkept = `the task list of ${state.slots.length} items fits neither in the execution's custom data (n8n keeps at most 10 entries of 512 characters) nor in n8n's binary data store`;
		const fitting = fittingItems(prefix, state, executionCustomDataOf(ctx)?.getAll() ?? {});
		addHints(ctx, customDataFullHint(state.slots.length, Math.min(fitting, state.slots.length - 1)));
		return await settleByPolling(ctx, results, { readFirst: false, reason: unkept, fallback: unkept });
	}

	// A task may finish before n8n has saved the execution as waiting; its callback then gets
	// n8n's 409 and is not sent again. Reading every task once now means a batch that is
	// already over does not wait at all, and the finals read here spare a read later.
	const memory = memoryOf(ctx.getExecutionId(), ctx.getNode().id, state);
	const records = await mapWithConcurrency(state.slots.length, maxConcurrency, async (item) => {
		const slot = state.slots[item];
		if (typeof slot !== 'string') return undefined;
		// A read that fails now is not an error: the callbacks will read the task again.
		return await getTask(ctx, item, slot).then(
			({ record }) => record,
			() => undefined,
		);
	});
	rememberFinals(
		memory,
		records.filter((record): record is IDataObject => record !== undefined),
	);
	const allFinal = state.slots.every(
		(slot, item) => typeof slot !== 'string' || isTerminalStatus(records[item]?.status),
	);
	if (allFinal) {
		const output = await finishAll(ctx, state, records, callbackWaitInfo(state, reason), maxConcurrency);
		return output.map((item) => ({ output: [item] }));
	}

	const timeoutMs = readWaitDeadlineMs(ctx, 0);
	const deadline = new Date(startedAt + timeoutMs);
	leaveForTimeout(ctx, results, deadline, timeoutMs, reason);
	await ctx.putExecutionToWait(deadline);
	const waitInfo = { mode: 'callback', state: 'waiting', waitTill: deadline.toISOString(), reason };
	return results.map((result, item) => ({
		output: [
			{
				json: { ...('error' in result ? errorJson(result.error) : result.output[0].json), waitInfo },
				pairedItem: { item },
			},
		],
	}));
}

/**
 * When the Wait Timeout passes before the callbacks resume the execution, n8n
 * resumes it without running the node: the node's input items pass through
 * as they were saved with the waiting execution. Those item objects are this
 * run's own (n8n gives each run of a node fresh items around the previous
 * node's data), so each gets, in place of its json, what a timed-out wait
 * must still hand on: the task's id and create record, an error naming the
 * task, and what to run next. A resume by callback replaces them with the
 * node's output; where n8n hands a node items it does not keep, nothing
 * changes.
 */
function leaveForTimeout(
	ctx: IExecuteFunctions,
	results: ItemResult[],
	deadline: Date,
	timeoutMs: number,
	reason: string,
): void {
	const input = ctx.getInputData();
	const waitInfo = { mode: 'callback', state: 'timed out', waitTill: deadline.toISOString(), reason };
	for (const [item, result] of results.entries()) {
		const kept = input[item];
		if (!kept) continue;
		if ('error' in result) {
			kept.json = { ...errorJson(result.error), waitInfo };
			continue;
		}
		const record = result.output[0].json;
		const taskId = String(record.id ?? '');
		kept.json = {
			...record,
			error: `Video task ${taskId}: the batch's wait reached its Wait Timeout (${limitText(timeoutMs)}) before every task was confirmed final, so n8n went on without the videos`,
			errorDescription: `The task may have finished (a callback can be lost on its way, or refused while n8n is busy) or may still be running at the gateway: ${pickUpAdvice(taskId)}`,
			waitInfo,
		};
	}
}

function callbackWaitInfo(state: CallbackState, reason: string): WaitInfo {
	return {
		mode: 'callback',
		polls: 0,
		waitedSeconds: Math.round((systemClock.now() - state.startedAt) / 100) / 10,
		reason,
	};
}

/**
 * One item per input item, in order: each task's final record (and video),
 * downloads at most Max Concurrent Requests at once.
 */
async function finishAll(
	ctx: IExecuteFunctions | IWebhookFunctions,
	state: CallbackState,
	records: Array<IDataObject | undefined>,
	waitInfo: WaitInfo,
	maxConcurrency: number,
): Promise<INodeExecutionData[]> {
	return await mapWithConcurrency(state.slots.length, maxConcurrency, async (item) => {
		const slot = state.slots[item];
		if (typeof slot !== 'string') {
			// The create's own advice is too long to keep in custom data; its gist is kept.
			const advice = slot.charged ? { errorDescription: VIDEO_MAYBE_CREATED } : {};
			return { json: { error: slot.error, ...advice, waitInfo }, pairedItem: { item } };
		}
		return {
			...(await resumedItem(ctx, item, records[item]!, state.download, waitInfo)),
			pairedItem: { item },
		};
	});
}

/** Max Concurrent Requests as the webhook reads it (a webhook has no items). */
function webhookConcurrency(ctx: IWebhookFunctions): number {
	const options = ctx.getNodeParameter('requestOptions', {}) as IDataObject;
	const value = Math.floor(Number(options.maxConcurrency ?? 1));
	return Number.isFinite(value) && value >= 1 ? value : 1;
}

/**
 * `webhook()`: one callback of the gateway on the resume URL. The node
 * answers every request itself, so a callback is never left to n8n's 500:
 * - not this execution's task, or a status that is not final: 200, no read;
 * - a final status: the task is read by a read that began after this
 *   callback arrived (or its final record is known from an earlier read).
 *   Not final there yet: read again within the confirmation window (shared
 *   with the task's other callbacks). Still not final when it passes, or no
 *   answer: 503 + Retry-After, so the gateway calls again. Every read goes
 *   through the wait's Max Concurrent Requests slots, shared by all its
 *   callbacks in this process. Final: the other tasks are checked in item order, each
 *   from a final record already read or a read that began after this task
 *   was confirmed; one still running, or in its own confirmation window:
 *   200 waiting (its own final callback is still to come or under way, and
 *   will find this task final);
 * - every task final: the first such callback claims the resume, downloads
 *   the videos and returns the items (callbackRace.ts says why the claim).
 */
export async function handleVideoCallback(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	// This callback while it is under way (memory.underWay); it leaves the set when its answer is decided.
	const me = {};
	const joined: Array<Set<object>> = [];
	const answer = (status: number, body: IDataObject): IWebhookResponseData => {
		for (const underWay of joined) underWay.delete(me);
		if (status === 503) res.setHeader('Retry-After', String(CALLBACK_RETRY_AFTER_SECONDS));
		res.status(status).json(body);
		return { noWebhookResponse: true };
	};
	const claim = readCallbackBody(ctx.getBodyData());
	if ('problem' in claim) return answer(400, { error: claim.problem });
	let state: CallbackState | undefined;
	try {
		state = await loadState(ctx, stateKeyPrefix(ctx.getNode().id));
	} catch (error) {
		// Answering 200 would drop news nobody acted on: the gateway is asked to send it again.
		return answer(503, { error: `Could not read this execution's task list: ${(error as Error).message}` });
	}
	if (!state)
		return answer(200, { received: true, ignored: 'this execution is not waiting for video tasks' });
	const verdict = judgeCallback(state.slots, claim.id, claim.status);
	if (verdict.action === 'ignore') return answer(200, { received: true, ignored: verdict.reason });
	if (verdict.action === 'wait') return answer(200, { received: true, waiting: verdict.reason });

	const memory = memoryOf(ctx.getExecutionId() ?? '', ctx.getNode().id, state);
	// The claimant found every task final, this one included.
	if (claimHolds(memory, systemClock.now())) return answer(200, RESUMING);
	const arrived = tick(memory);
	memory.underWay.add(me);
	joined.push(memory.underWay);
	try {
		return await confirmAndCheck(ctx, memory, state, claim, arrived, answer);
	} finally {
		// Answered already (answer() leaves the set); this covers a throw.
		memory.underWay.delete(me);
	}
}

/** handleVideoCallback, from the callback's own read on: its task confirmed, the others checked, the resume. */
async function confirmAndCheck(
	ctx: IWebhookFunctions,
	memory: WaitMemory,
	state: CallbackState,
	claim: { id: string; status: string },
	arrived: number,
	answer: (status: number, body: IDataObject) => IWebhookResponseData,
): Promise<IWebhookResponseData> {
	// Hundreds of callbacks at once (a batch of same-length videos) share the run's request slots for
	// the reads of other tasks. A callback's reads of its own task have slots of their own, at least
	// CONFIRMATIONS_AT_ONCE: the gateway paces them by calling back, and queued behind one slot
	// (the default) a burst's answers would wait for every read before theirs (300 reads of 200 ms:
	// a minute, far past a sender's timeout).
	const limit = (memory.limit ??= createLimiter(webhookConcurrency(ctx)));
	const ownLimit = (memory.ownLimit ??= createLimiter(
		Math.max(webhookConcurrency(ctx), CONFIRMATIONS_AT_ONCE),
	));
	const readTask =
		(item: number, taskId: string, slots = limit) =>
		async (timeoutMs?: number): Promise<IDataObject> => {
			// A read of the confirmation window has one attempt and what is left of the window.
			const until = timeoutMs === undefined ? undefined : systemClock.now() + timeoutMs;
			return await slots(async () => {
				if (until === undefined) return (await getTask(ctx, item, taskId)).record;
				const left = until - systemClock.now();
				if (left < MIN_WINDOW_READ_MS) throw new Error('the confirmation window passed');
				return (await getTask(ctx, item, taskId, systemClock, 1, left)).record;
			});
		};
	const read = (item: number, taskId: string) => async () => await readTask(item, taskId)();
	const unreadable = (taskId: string, error: unknown) =>
		answer(503, { error: `Could not read video task ${taskId}: ${(error as Error).message}` });

	let own: IDataObject;
	try {
		own = await confirmOwnTask(
			memory,
			claim.id,
			arrived,
			readTask(state.slots.indexOf(claim.id), claim.id, ownLimit),
		);
	} catch (error) {
		ownCallbackFailed(memory, claim.id);
		return unreadable(claim.id, error);
	}
	if (!isTerminalStatus(own.status)) {
		ownCallbackFailed(memory, claim.id);
		return answer(503, {
			error: `The gateway does not confirm yet that task ${claim.id} is ${claim.status}: it still reads "${String(own.status)}" after a few seconds. Send the callback again later.`,
		});
	}
	const confirmed = tick(memory);

	const records: Array<IDataObject | undefined> = [];
	for (const [item, slot] of state.slots.entries()) {
		if (typeof slot !== 'string') {
			records.push(undefined);
			continue;
		}
		// Another final callback under way here checks every task after its own, and will find this
		// one final (callbackRace.ts): reading the task here too would only add reads while a batch's
		// callbacks are answered together (a task whose reads trail would be read by each in turn).
		if (slot !== claim.id && !memory.finals.has(slot) && memory.underWay.size > 1)
			return answer(200, {
				received: true,
				waiting: `task ${slot} is not known final yet; another callback of this execution checks it`,
			});
		if (slot !== claim.id && !memory.finals.has(slot) && !othersMayRead(memory, slot, state.slots))
			return answer(200, {
				received: true,
				waiting: `task ${slot} is not known final yet; its own final callback finishes the wait`,
			});
		let record: IDataObject;
		try {
			record = slot === claim.id ? own : await readAfter(memory, slot, confirmed, read(item, slot));
		} catch (error) {
			// This callback may be the last: answering 200 now could leave the execution waiting.
			return unreadable(slot, error);
		}
		if (!isTerminalStatus(record.status))
			return answer(200, { received: true, waiting: `task ${slot} is ${String(record.status)}` });
		records.push(record);
	}
	if (!tryClaim(memory, systemClock.now())) return answer(200, RESUMING);
	try {
		// The reason the wait gave, from the same setting and batch (the webhook has no items to count).
		const reason = callbackReason(
			(ctx.getNodeParameter('waitOptions', {}) as IDataObject).mode,
			state.slots.length,
		);
		const output = await finishAll(
			ctx,
			state,
			records,
			callbackWaitInfo(state, reason),
			webhookConcurrency(ctx),
		);
		memory.claim = { since: memory.claim!.since, handedOver: systemClock.now() };
		return { ...answer(200, { received: true, resumed: true }), workflowData: [output] };
	} catch (error) {
		memory.claim = undefined;
		return answer(503, { error: `Could not resume: ${(error as Error).message}` });
	}
}

/**
 * A final record as the resumed node's item. n8n resumes a waiting node with
 * items only, so a task that failed, or whose video could not be downloaded,
 * becomes an item that keeps the gateway's record (task id, status, `data`
 * with the video's address) beside the error and what to do about it.
 */
async function resumedItem(
	ctx: IExecuteFunctions | IWebhookFunctions,
	item: number,
	record: IDataObject,
	download: boolean,
	waitInfo: WaitInfo,
): Promise<INodeExecutionData> {
	try {
		return await finishedItem(ctx, item, record, { download, info: waitInfo });
	} catch (error) {
		const { json } = errorItem(itemError(ctx.getNode(), error, item), item, record);
		return { json: { ...json, waitInfo } };
	}
}
