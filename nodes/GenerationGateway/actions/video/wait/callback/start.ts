import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../../../shared/concurrency';
import { gatewayFailureOf } from '../../../../../shared/errors';
import { executionCustomDataOf } from '../../../../../shared/n8nFeatures';
import type { Clock } from '../../../../../shared/time';
import { systemClock } from '../../../../../shared/time';
import type { DeliveryVerdict } from '../../../../../shared/watch';
import { deliveryVerdict, postToN8n, startWatch, watchLog } from '../../../../../shared/watch';
import { MAX_WAITS } from '../../../../../shared/waitClocks';
import { isTerminalStatus, readTask } from '../../../../../shared/videoTask';
import type { PostAnswer } from '../../../../../shared/ownAddress';
import { ownAddressUnreachable } from '../../../../../shared/ownAddress';
import { printableUrl } from '../../../../../shared/urls';
import { readRequestSettings } from '../../../descriptions';
import { LEFT_BEHIND, addHints, noRecoveryHint, ownNewsOffHint } from '../../../hints';
import { errorJson } from '../../../itemErrors';
import type { ItemResult } from '../../../types';
import { readWaitDeadlineMs } from '../../options';
import { limitText, pickUpAdvice } from '../../task';
import { finishAll } from './finish';
import { calledBackInfo, waitingInfo } from '../../waitInfo';
import type { WaitMemory } from './memory';
import { claimHolds, memoryOf, rememberFinals } from './memory';
import type { CallbackState, TaskSlot } from './taskList';
import { recoverySeen } from './recover';
import { encodeState, encodeStoredState, slotsFit, stateKeyPrefix, stateText } from './taskList';

/**
 * The execute side of a callback wait: once every item's task was created
 * with the wait's own address (answer.ts) as its callback address, keep the task list with the
 * execution, read every task once, and put the execution to wait (no worker
 * held, nothing polls). It may write the execution's custom data and n8n's
 * binary store; the callbacks are answered by answer.ts.
 */

/**
 * Keeps the task list where the plan found room for it before the creates:
 * in the execution's custom data, or as a file in n8n's binary data store
 * with the file's id in custom data (also when the ids came out longer than
 * planned). False when neither holds it after all.
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

/** An item's slot in the task list: its task id, or its error (and whether its create may have charged). */
function slotOf(result: ItemResult): TaskSlot {
	if (!('error' in result)) return String(result.output[0]?.json.id ?? '');
	const charged = gatewayFailureOf(result.error)?.mayHaveCharged ? { charged: 1 as const } : {};
	return { error: result.error.message, ...charged };
}

/**
 * The router's second step in callback mode. Items whose create was refused
 * or failed (continue-on-fail) get no task and keep their error.
 */
export async function settleByCallback(
	ctx: IExecuteFunctions,
	results: ItemResult[],
	{ reason, callbackUrl, clock = systemClock }: { reason: string; callbackUrl: string; clock?: Clock },
): Promise<ItemResult[]> {
	const startedAt = clock.now();
	const { maxConcurrency } = readRequestSettings(ctx, 0);
	const waitOptions = ctx.getNodeParameter('waitOptions', 0, {}) as IDataObject;
	const state: CallbackState = {
		startedAt,
		reason,
		download: waitOptions.download === true,
		slots: results.map(slotOf),
	};
	const prefix = stateKeyPrefix(ctx.getNode().id);
	if (!(await keepState(ctx, prefix, state))) {
		// Room was found before the creates; should it be gone now, every task is named, not lost.
		return results.map((result, item) =>
			'error' in result ? result : { error: unkeptError(ctx, item, String(result.output[0].json.id ?? '')) },
		);
	}

	// A task may finish before n8n has saved the execution as waiting (its callback then gets
	// n8n's 409): every task is read once now, so a batch already over does not wait at all.
	const records = await mapWithConcurrency(state.slots.length, maxConcurrency, async (item) => {
		const slot = state.slots[item];
		if (typeof slot !== 'string') return undefined;
		// A read that fails now is no error: the callbacks read the task again.
		return await readTask(ctx, slot, { itemIndex: item, clock }).then(
			({ record }) => record,
			() => undefined,
		);
	});
	if (
		state.slots.every((slot, item) => typeof slot !== 'string' || isTerminalStatus(records[item]?.status))
	) {
		const output = await finishAll(
			ctx,
			state,
			records,
			calledBackInfo(state.startedAt, reason, clock),
			maxConcurrency,
		);
		return output.map((item) => ({ output: [item] }));
	}

	const timeoutMs = readWaitDeadlineMs(ctx, 0);
	const deadline = new Date(startedAt + timeoutMs);
	const unreachable = ownAddressUnreachable(ctx, callbackUrl, clock);
	// Taken just before its watch keeps it: nothing comes between that could let it go.
	const memory = memoryOf(ctx.getExecutionId(), ctx.getNode().id, state, clock.now());
	rememberFinals(
		memory,
		records.filter((record): record is IDataObject => record !== undefined),
	);
	const watched = watchWait(ctx, { state, memory, callbackUrl, deadline, clock });
	const ownNewsOff = unreachable
		? `${unreachable.said}; ${unreachable.fix}`
		: watched
			? undefined
			: `this n8n process watches ${MAX_WAITS} waits already, its most`;
	if (unreachable)
		addHints(ctx, ownNewsOffHint(printableUrl(callbackUrl), unreachable.said, unreachable.fix));
	const leftBehind = recoverySeen(clock.now()) ? undefined : LEFT_BEHIND;
	if (leftBehind) addHints(ctx, noRecoveryHint());
	leaveForTimeout(ctx, results, { deadline, timeoutMs, reason, ownNewsOff });
	await ctx.putExecutionToWait(deadline);
	const waitInfo = waitingInfo('waiting', deadline, reason, {
		ownNewsOff,
		callbackAddress: callbackUrl,
		leftBehind,
	});
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
 * When the Wait Timeout passes first, n8n resumes the execution without
 * running the node: the node's input items, saved with the waiting execution,
 * pass through. They are this run's own copies, so each gets what a timed-out
 * wait must hand on: the task's id and record, an error naming the task, and
 * what to run next. A resume by callback replaces them with the node's output.
 */
function leaveForTimeout(
	ctx: IExecuteFunctions,
	results: ItemResult[],
	{
		deadline,
		timeoutMs,
		reason,
		ownNewsOff,
	}: { deadline: Date; timeoutMs: number; reason: string; ownNewsOff?: string },
): void {
	const input = ctx.getInputData();
	const waitInfo = waitingInfo('timed out', deadline, reason, { ownNewsOff });
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

/** The node's own answers that leave the wait undecided: a task still checked, a resume built or handed to n8n. */
const UNDECIDED = ['waiting', 'resuming', 'resumed'];

/**
 * n8n's answer to the package's own post to the wait's address: a wait still checking a task, or a resume
 * under way (built, handed to n8n, started: each may still fail), is posted again later; else deliveryVerdict.
 */
export function resumeVerdict(answer: PostAnswer): DeliveryVerdict {
	const body = (answer.body ?? {}) as IDataObject;
	if (answer.status === 200 && UNDECIDED.some((key) => body[key] !== undefined)) return 'again';
	return deliveryVerdict(answer);
}

/**
 * Keeps watching the tasks from this process (shared/watch.ts): when they are
 * final and no resume is under way here, the news is posted to the wait's
 * address, where answer.ts answers it as any callback. False when
 * the process keeps its most watches already (startWatch).
 */
function watchWait(
	ctx: IExecuteFunctions,
	{
		state,
		memory,
		callbackUrl,
		deadline,
		clock,
	}: { state: CallbackState; memory: WaitMemory; callbackUrl: string; deadline: Date; clock: Clock },
): boolean {
	const taskIds = state.slots.filter((slot): slot is string => typeof slot === 'string');
	const started = startWatch(
		{
			taskIds,
			until: deadline.getTime(),
			known: (taskId) => memory.finals.get(taskId),
			paused: () => claimHolds(memory, clock.now()),
			read: async (taskId) =>
				(await readTask(ctx, taskId, { itemIndex: state.slots.indexOf(taskId), attempts: 1, clock })).record,
			onFinal: (record) => rememberFinals(memory, [record]),
			deliver: async (records) =>
				await postToN8n(ctx, callbackUrl, records[records.length - 1], {
					judge: resumeVerdict,
					now: clock.now(),
				}),
			log: watchLog(ctx),
			ended: () => (memory.watched = false),
		},
		clock,
	);
	if (started) memory.watched = true;
	return started;
}

function unkeptError(ctx: IExecuteFunctions, itemIndex: number, taskId: string): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Video task ${taskId} was created, but n8n did not keep the wait's task list, so the execution cannot wait for its callback`,
		{ itemIndex, description: `The task runs at the gateway: ${pickUpAdvice(taskId)}` },
	);
}
