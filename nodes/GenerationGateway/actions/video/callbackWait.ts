import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { VIDEO_CALLBACK_URL } from './wireNames';
import { mapWithConcurrency } from '../../../shared/concurrency';
import { waitDeadlineMs } from '../../../shared/polling';
import { systemClock } from '../../../shared/time';
import { isTerminalStatus, readCallbackBody } from '../../../shared/videoTask';
import { readRequestSettings } from '../descriptions';
import type { CallbackState, TaskSlot } from './callbackState';
import { callbackMemory, claimHolds, isWholeFinalRecord, sharedRead, tryClaim } from './callbackRace';
import {
	decideWaitMode,
	decodeState,
	encodeState,
	judgeCallback,
	slotsFit,
	stateKeyPrefix,
} from './callbackState';
import { readVideoBody } from './request';
import type { WaitInfo } from './task';
import { createTask, finishedItem, getTask, waitForTask } from './task';

/**
 * Create and Wait, callback mode. `execute()` creates every item's task with
 * the execution's resume URL as its callback address, keeps the task list in
 * the execution's custom data (callbackState.ts says why) and puts the
 * execution to wait: no worker is held and nothing polls. Each callback runs
 * `webhook()` on this node (n8n's waiting-webhook route, `restartWebhook`);
 * it answers 200 and leaves the execution waiting until every task is final,
 * then reads the records and resumes the execution with one item per input.
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

function waitOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
}

/** The mode item `itemIndex` runs in (one resume URL per execution, so the same for all items). */
export function waitModeFor(ctx: IExecuteFunctions, itemIndex: number) {
	const resumeUrl = ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex);
	return { ...decideWaitMode(waitOptions(ctx, itemIndex).mode, resumeUrl), resumeUrl: String(resumeUrl) };
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** The router's whole-node hook: undefined = wait by polling, item by item. */
export async function startCallbackWait(ctx: IExecuteFunctions): Promise<INodeExecutionData[][] | undefined> {
	const decision = waitModeFor(ctx, 0);
	if (decision.mode !== 'callback') return undefined;
	const items = ctx.getInputData();
	const continueOnFail = ctx.continueOnFail();
	const startedAt = systemClock.now();
	const created = await mapWithConcurrency(
		items.length,
		readRequestSettings(ctx, 0).maxConcurrency,
		async (itemIndex): Promise<{ slot: TaskSlot; json: IDataObject }> => {
			try {
				const body = { ...(await readVideoBody(ctx, itemIndex)), [VIDEO_CALLBACK_URL]: decision.resumeUrl };
				const timeoutMs = readRequestSettings(ctx, itemIndex).timeoutMs;
				const task = await createTask(ctx, itemIndex, body, timeoutMs);
				return { slot: task.id, json: task };
			} catch (error) {
				const wrapped = asNodeError(ctx, error, itemIndex);
				if (!continueOnFail) throw wrapped;
				return { slot: { error: wrapped.message }, json: { error: wrapped.message } };
			}
		},
	);
	const state: CallbackState = {
		startedAt,
		download: waitOptions(ctx, 0).download === true,
		slots: created.map((c) => c.slot),
	};
	const prefix = stateKeyPrefix(ctx.getNode().id);
	const entries = encodeState(prefix, state);
	if (slotsFit(entries, ctx.customData.getAll())) ctx.customData.setAll(entries);
	const stored = decodeState(prefix, ctx.customData.getAll());
	if (!stored || JSON.stringify(stored) !== JSON.stringify(decodeState(prefix, entries))) {
		// The tasks exist already (their callbacks will find no waiting execution): poll them.
		const reason = `the task list of ${state.slots.length} items does not fit in the execution's custom data (n8n keeps at most 10 entries of 512 characters)`;
		return [await pollCreated(ctx, state, reason)];
	}
	const deadline = new Date(startedAt + waitDeadlineMs(waitOptions(ctx, 0).timeoutMinutes as number));
	await ctx.putExecutionToWait(deadline);
	return [
		created.map((c, item) => ({
			json: { ...c.json, waitInfo: { mode: 'callback', state: 'waiting', waitTill: deadline.toISOString() } },
			pairedItem: { item },
		})),
	];
}

async function pollCreated(ctx: IExecuteFunctions, state: CallbackState, fallback: string) {
	const { maxConcurrency } = readRequestSettings(ctx, 0);
	return await mapWithConcurrency(state.slots.length, maxConcurrency, async (item) => {
		const slot = state.slots[item];
		if (typeof slot !== 'string') return { json: { error: slot.error }, pairedItem: { item } };
		try {
			const deadlineMs = waitDeadlineMs(waitOptions(ctx, item).timeoutMinutes as number);
			const { record, info } = await waitForTask(ctx, item, slot, { deadlineMs, pollFirst: false });
			const result = await finishedItem(ctx, item, record, {
				download: state.download,
				info: { ...info, fallback },
			});
			return { ...result, pairedItem: { item } };
		} catch (error) {
			const wrapped = asNodeError(ctx, error, item);
			if (!ctx.continueOnFail()) throw wrapped;
			return {
				json: { error: wrapped.message, errorDescription: wrapped.description },
				pairedItem: { item },
			};
		}
	});
}

/**
 * `webhook()`: one callback of the gateway on the resume URL. The node
 * answers every request itself (so a callback is never left to n8n's 500 for
 * a lost resume) and only the callback that claims the resume returns items:
 * racing callbacks read each task at most once between them, and the videos
 * are downloaded once, by the claimant (callbackRace.ts says why here).
 */
export async function handleVideoCallback(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	const answer = (status: number, body: IDataObject): IWebhookResponseData => {
		if (status === 503) res.setHeader('Retry-After', '30');
		res.status(status).json(body);
		return { noWebhookResponse: true };
	};
	const claim = readCallbackBody(ctx.getBodyData());
	if ('problem' in claim) return answer(400, { error: claim.problem });
	const state = decodeState(stateKeyPrefix(ctx.getNode().id), ctx.customData.getAll());
	if (!state)
		return answer(200, { received: true, ignored: 'this execution is not waiting for video tasks' });
	const verdict = judgeCallback(state.slots, claim.id, claim.status);
	if (verdict.action === 'ignore') return answer(200, { received: true, ignored: verdict.reason });
	if (verdict.action === 'wait') return answer(200, { received: true, waiting: verdict.reason });

	// The wait's identity: a task id is unique even where n8n gives no execution id.
	const firstTask = state.slots.find((slot) => typeof slot === 'string');
	const memory = callbackMemory.of(
		`${ctx.getExecutionId()}|${ctx.getNode().id}|${state.startedAt}|${String(firstTask)}`,
		systemClock.now(),
	);
	if (isWholeFinalRecord(claim.record)) memory.finals.set(claim.id, claim.record);
	const resuming = { received: true, resuming: 'another callback of this execution is resuming it' };
	if (claimHolds(memory, systemClock.now())) return answer(200, resuming);

	// Every task's final record, in item order, stopping at the first one still running.
	const records: Array<IDataObject | undefined> = [];
	for (const [item, slot] of state.slots.entries()) {
		if (typeof slot !== 'string') {
			records.push(undefined);
			continue;
		}
		let record: IDataObject;
		try {
			record = await sharedRead(memory, slot, async () => (await getTask(ctx, item, slot)).record);
		} catch (error) {
			// The gateway could not be read: ask for the callback again rather than lose it.
			return answer(503, { error: `Could not read video task ${slot}: ${(error as Error).message}` });
		}
		if (!isTerminalStatus(record.status))
			return answer(200, { received: true, waiting: `task ${slot} is ${String(record.status)}` });
		records.push(record);
	}
	if (!tryClaim(memory, systemClock.now())) return answer(200, resuming);
	try {
		const waitInfo: WaitInfo = {
			mode: 'callback',
			polls: 0,
			waitedSeconds: Math.round((systemClock.now() - state.startedAt) / 100) / 10,
		};
		const output = await Promise.all(
			state.slots.map(async (slot, item): Promise<INodeExecutionData> => {
				if (typeof slot !== 'string') return { json: { error: slot.error, waitInfo }, pairedItem: { item } };
				return {
					...(await resumedItem(ctx, item, records[item]!, state.download, waitInfo)),
					pairedItem: { item },
				};
			}),
		);
		memory.claim = { since: memory.claim!.since, handedOver: systemClock.now() };
		return { ...answer(200, { received: true, resumed: true }), workflowData: [output] };
	} catch (error) {
		memory.claim = undefined;
		return answer(503, { error: `Could not resume: ${(error as Error).message}` });
	}
}

/** A final record as the resumed node's item; failures become error items (see README: no node error after a wait). */
async function resumedItem(
	ctx: IWebhookFunctions,
	item: number,
	record: IDataObject,
	download: boolean,
	waitInfo: WaitInfo,
): Promise<INodeExecutionData> {
	try {
		return await finishedItem(ctx, item, record, { download, info: waitInfo });
	} catch (error) {
		const { message, description } = error as NodeOperationError;
		return { json: { error: message, errorDescription: description ?? undefined, waitInfo } };
	}
}
