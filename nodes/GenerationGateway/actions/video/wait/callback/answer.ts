import type { IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BoundedMap } from '../../../../../shared/boundedMap';
import { createLimiter } from '../../../../../shared/concurrency';
import { executionCustomDataOf } from '../../../../../shared/n8nFeatures';
import type { Clock } from '../../../../../shared/time';
import { systemClock } from '../../../../../shared/time';
import { answerCallback, readCallbackBody, readTask } from '../../../../../shared/videoTask';
import {
	CONFIRMATIONS_AT_ONCE,
	DEFAULT_CONFIRM_SCHEDULE,
	FIRST_READ_BOUND_MS,
	RECHECK_READ_MS,
} from '../../../../../shared/waitClocks';
import { finishAll } from './finish';
import { calledBackInfo } from '../../waitInfo';
import type { WaitMemory } from './memory';
import { handOver, memoryOf, releaseClaim } from './memory';
import type { CallbackReads, FinalAnswer } from './race';
import { answerFinal, answerRecheck } from './race';
import { isRecheck } from './recover';
import type { CallbackState, TaskSlot } from './taskList';
import { judgeCallback, parseStateText, stateKeyPrefix, storedStateId, decodeState } from './taskList';

/**
 * The webhook side of a callback wait: one request to the wait's own address (the gateway's callback
 * or the package's own post) while the execution waits. It may read the task list the wait kept and the
 * gateway's records of its tasks, and touch this process's memory of the wait (race.ts); it resumes the
 * execution by returning items. Every request is answered by the node itself.
 */

/** The path a callback wait adds to the execution's resume URL: only this node's webhook answers it. */
export const WAIT_PATH = 'video-wait';

/**
 * The address a callback wait hands out: n8n's resume URL with the wait's own path. n8n resumes whatever
 * node an execution waits at through its bare resume URL, so a late or repeated call would resume a later
 * Wait node; at this path only a video wait answers, judging the call against its own tasks. At another
 * node n8n answers 404, or holds the request open unanswered when that node is followed by a Wait or Form node.
 */
export function waitAddress(resumeUrl: string): string {
	const address = new URL(resumeUrl);
	address.pathname = `${address.pathname.replace(/\/+$/, '')}/${WAIT_PATH}`;
	return address.toString();
}

/**
 * The wait's own path, and the bare resume URL, which waits begun before the
 * own path existed handed out (they still resume). Restart webhooks are never
 * registered with anyone.
 */
export const videoCallbackWebhooks: IWebhookDescription[] = [WAIT_PATH, ''].map((path) => ({
	name: 'default',
	httpMethod: 'POST',
	responseMode: 'onReceived',
	path,
	restartWebhook: true,
	isFullPath: true,
}));

/**
 * Stored task lists this process has read or is reading, by file id: a file
 * is written once, and a batch's callbacks arrive together, so callbacks that
 * come while it is read share that read. A read that fails is forgotten.
 */
const storedStates = new BoundedMap<string, Promise<CallbackState>>(16);

async function readStoredState(ctx: IWebhookFunctions, fileId: string): Promise<CallbackState> {
	const text = await ctx.helpers.binaryToString(await ctx.helpers.getBinaryStream(fileId));
	const state = parseStateText(text);
	if (!state) throw new NodeOperationError(ctx.getNode(), `the stored task list (${fileId}) is damaged`);
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
	}
	return await reading;
}

/** A read that got its request slot too late to be answered in time. */
class NoTimeLeft extends Error {}

/** Max Concurrent Requests as the webhook reads it (a webhook has no items). */
function webhookConcurrency(ctx: IWebhookFunctions): number {
	const options = ctx.getNodeParameter('requestOptions', {}) as IDataObject;
	const value = Math.floor(Number(options.maxConcurrency ?? 1));
	return Number.isFinite(value) && value >= 1 ? value : 1;
}

/**
 * The wait's reads through its request slots: other tasks share Max
 * Concurrent Requests with the downloads; a callback's read of its own task
 * has slots of its own (at least CONFIRMATIONS_AT_ONCE), since a burst of
 * callbacks queued behind one slot would be answered past the sender's timeout.
 */
function readsOf(
	ctx: IWebhookFunctions,
	memory: WaitMemory,
	{
		slots,
		taskId,
		concurrency,
		clock,
	}: { slots: TaskSlot[]; taskId: string; concurrency: number; clock: Clock },
): CallbackReads {
	const limit = (memory.limit ??= createLimiter(concurrency));
	const ownLimit = (memory.ownLimit ??= createLimiter(Math.max(concurrency, CONFIRMATIONS_AT_ONCE)));
	const ownItem = slots.indexOf(taskId);
	return {
		own: async (timeoutMs?: number) => {
			// One attempt, with what is left once it got its slot: of the window, or of the first read's bound.
			const until = clock.now() + (timeoutMs ?? FIRST_READ_BOUND_MS);
			return await ownLimit(async () => {
				const left = until - clock.now();
				if (left < DEFAULT_CONFIRM_SCHEDULE.minReadMs)
					throw new NoTimeLeft(
						timeoutMs === undefined ? 'no read slot in time' : 'the confirmation window passed',
					);
				const options = { itemIndex: ownItem, attempts: 1, timeoutMs: left, clock };
				return (await readTask(ctx, taskId, options)).record;
			});
		},
		other: async (item: number, id: string) =>
			await limit(async () => (await readTask(ctx, id, { itemIndex: item, clock })).record),
	};
}

/**
 * `webhook()`: a callback that is not about this execution's tasks, or
 * claims a status that is not final, is answered 200 without a read; a final
 * one is judged by `answerFinal`, a recheck of Video Wait → Recover Waits by
 * `answerRecheck` (race.ts), and the one that wins the resume downloads the
 * videos and hands the items to n8n.
 */
export async function handleVideoCallback(
	ctx: IWebhookFunctions,
	clock: Clock = systemClock,
): Promise<IWebhookResponseData> {
	const body = ctx.getBodyData();
	const recheck = isRecheck(body);
	const claim = recheck ? undefined : readCallbackBody(body);
	if (claim && 'problem' in claim) return answerCallback(ctx, 400, { error: claim.problem });
	let state: CallbackState | undefined;
	try {
		state = await loadState(ctx, stateKeyPrefix(ctx.getNode().id));
	} catch (error) {
		// Answering 200 would drop news nobody acted on: the gateway is asked to send it again.
		return answerCallback(ctx, 503, {
			error: `Could not read this execution's task list: ${(error as Error).message}`,
		});
	}
	if (!state)
		return answerCallback(ctx, 200, {
			received: true,
			ignored: 'this execution is not waiting for video tasks',
		});
	const memory = memoryOf(ctx.getExecutionId() ?? '', ctx.getNode().id, state, clock.now());
	const concurrency = webhookConcurrency(ctx);
	let answer: FinalAnswer;
	if (claim) {
		const verdict = judgeCallback(state.slots, claim.id, claim.status);
		if (verdict.action === 'ignore')
			return answerCallback(ctx, 200, { received: true, ignored: verdict.reason });
		if (verdict.action === 'wait')
			return answerCallback(ctx, 200, { received: true, waiting: verdict.reason });
		const reads = readsOf(ctx, memory, { slots: state.slots, taskId: claim.id, concurrency, clock });
		answer = await answerFinal(
			memory,
			{ taskId: claim.id, claimed: claim.status, slots: state.slots },
			reads,
			clock,
		);
	} else {
		answer = await answerRecheck(memory, state.slots, recheckRead(ctx, memory, concurrency, clock), clock);
	}
	if (!('resume' in answer)) return answerCallback(ctx, answer.status, answer.body);
	try {
		const waitInfo = calledBackInfo(state.startedAt, state.reason, clock);
		const output = await finishAll(ctx, state, answer.resume, waitInfo, concurrency);
		handOver(memory, clock.now());
		return { ...answerCallback(ctx, 200, { received: true, resumed: true }), workflowData: [output] };
	} catch (error) {
		releaseClaim(memory);
		return answerCallback(ctx, 503, { error: `Could not resume: ${(error as Error).message}` });
	}
}

/** A recheck's read of one task: one attempt, bounded, through the wait's request slots. */
function recheckRead(
	ctx: IWebhookFunctions,
	memory: WaitMemory,
	concurrency: number,
	clock: Clock,
): (item: number, taskId: string) => Promise<IDataObject> {
	const limit = (memory.limit ??= createLimiter(concurrency));
	return async (item, taskId) =>
		await limit(
			async () =>
				(await readTask(ctx, taskId, { itemIndex: item, attempts: 1, timeoutMs: RECHECK_READ_MS, clock }))
					.record,
		);
}
