import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createLimiter } from '../../../../shared/concurrency';
import { gatewayFailureOf } from '../../../../shared/errors';
import { cancelSignalOf } from '../../../../shared/n8nFeatures';
import type { WaitOutcome } from '../../../../shared/polling';
import { waitForAll } from '../../../../shared/polling';
import { MAX_ATTEMPTS, backoffDelay, isRetryableStatus } from '../../../../shared/retry';
import type { Clock } from '../../../../shared/time';
import { systemClock } from '../../../../shared/time';
import { isTerminalStatus, readTask } from '../../../../shared/videoTask';
import { readRequestSettings } from '../../descriptions';
import { itemError } from '../../itemErrors';
import { createdTasks, noteCompletedTask } from '../../paidWork';
import type { ItemResult } from '../../types';
import { readWaitDeadlineMs } from '../options';
import { polledInfo } from '../waitInfo';
import { finishedItem, limitText, pickUpAdvice } from '../task';

/**
 * The polling wait of Create and Wait and Wait for Completion: every task of
 * the run waits at once (shared/polling.ts's batch wait), so a batch takes
 * about as long as its slowest task, not the sum of them. Each task keeps
 * its own schedule and deadline from its own create and its own outcome;
 * reads and downloads share the run's Max Concurrent Requests, and a task
 * between two reads holds no slot.
 */

/** Reads live through rate limits, gateway hiccups and network errors; other errors end the wait. */
function isTransient(error: unknown): boolean {
	const failure = gatewayFailureOf(error);
	if (!failure) return false;
	return failure.status === undefined || isRetryableStatus(failure.status);
}

/** A 429 pauses every read of the batch: for its Retry-After, or this long when it gives none. */
const RATE_LIMIT_PAUSE_MS = 2_000;

/** One task of a batch wait, for item `itemIndex`. */
export interface TaskToWait {
	itemIndex: number;
	taskId: string;
	/** When the wait of this task starts counting (its create, or the start of Wait for Completion). */
	startedAt: number;
	deadlineMs: number;
	/** Read at once (Wait for Completion) rather than 5 s after `startedAt`. */
	readFirst: boolean;
	download: boolean;
}

/** The error of a task whose wait ended without a final status, naming it and what to run next. */
function unfinishedError(
	ctx: IExecuteFunctions,
	task: TaskToWait,
	outcome: Exclude<WaitOutcome<IDataObject>, { kind: 'done' }>,
): Error {
	const { itemIndex, taskId } = task;
	const node = ctx.getNode();
	const resume = `The task keeps running at the gateway: ${pickUpAdvice(taskId)}`;
	const lastStatus = String(outcome.last?.status ?? 'unknown');
	switch (outcome.kind) {
		case 'timeout':
			return new NodeOperationError(
				node,
				`Video task ${taskId} did not finish within ${limitText(task.deadlineMs)} (last status: ${lastStatus})`,
				{
					itemIndex,
					description: `${resume} ${outcome.polls} polls made.${outcome.lastError ? ` Last poll error: ${(outcome.lastError as Error).message}` : ''}`,
				},
			);
		case 'cancelled':
			return new NodeOperationError(node, `Waiting for video task ${taskId} was cancelled`, {
				itemIndex,
				description: `Last status: ${lastStatus}. ${resume}`,
			});
		default:
			return itemError(node, outcome.error, itemIndex);
	}
}

/**
 * Waits for every task at once (polling.ts's batch wait) and gives each
 * item's result in the order of `tasks`: the completed record (and its
 * video), or the error that names the task and what to run next. Reads and
 * downloads share Max Concurrent Requests; a task's download starts as soon
 * as it completes, while the others still wait. One task's failure never
 * ends the others' waits.
 */
export async function waitForTasks(
	ctx: IExecuteFunctions,
	tasks: TaskToWait[],
	options: { reason?: string; fallback?: string; clock?: Clock } = {},
): Promise<ItemResult[]> {
	const clock = options.clock ?? systemClock;
	const limit = createLimiter(readRequestSettings(ctx, 0).maxConcurrency);
	const results = new Array<Promise<ItemResult>>(tasks.length);
	const finish = async (task: TaskToWait, outcome: WaitOutcome<IDataObject>): Promise<ItemResult> => {
		if (outcome.kind !== 'done') return { error: unfinishedError(ctx, task, outcome) };
		const record = outcome.value;
		// Named in the run's error if the run fails later, so the paid result is not lost with it.
		if (record.status === 'completed') noteCompletedTask(ctx, task.itemIndex, record);
		const info = polledInfo(outcome.polls, outcome.waitedMs, options);
		try {
			const item = await limit(
				async () => await finishedItem(ctx, task.itemIndex, record, { download: task.download, info }),
			);
			return { output: [item] };
		} catch (error) {
			return { error: itemError(ctx.getNode(), error, task.itemIndex) };
		}
	};
	await waitForAll<IDataObject>({
		tasks,
		read: async (index) => {
			const { itemIndex, taskId } = tasks[index];
			// One attempt: the batch wait schedules the next read itself, holding no slot meanwhile.
			const { record, retryAfterMs } = await readTask(ctx, taskId, { itemIndex, clock, attempts: 1 });
			return { value: record, retryAfterMs };
		},
		isDone: (record) => isTerminalStatus(record.status),
		isTransient,
		pauseAfter: (error) => {
			const failure = gatewayFailureOf(error);
			return failure?.status === 429 ? (failure.retryAfterMs ?? RATE_LIMIT_PAUSE_MS) : undefined;
		},
		// As the transport retries a read, but from here, so that no slot is held while it waits.
		retryDelay: (_error, failures) => (failures < MAX_ATTEMPTS ? backoffDelay(failures) : undefined),
		limit,
		onSettled: (index, outcome) => {
			results[index] = finish(tasks[index], outcome);
		},
		signal: cancelSignalOf(ctx),
		clock,
	});
	return await Promise.all(results);
}

/**
 * The router's second step for the polling wait: every item whose first
 * step gave a task (its output's `id`) waits for it; items that failed keep
 * their error. `readFirst`: Wait for Completion reads at once and counts the
 * deadline from now; Create and Wait reads 5 s after each task's create and
 * counts from there.
 */
export async function settleByPolling(
	ctx: IExecuteFunctions,
	results: ItemResult[],
	options: { readFirst: boolean; reason?: string; fallback?: string; clock?: Clock },
): Promise<ItemResult[]> {
	const clock = options.clock ?? systemClock;
	const now = clock.now();
	const createdAt = new Map(createdTasks(ctx).map((task) => [task.itemIndex, task.createdAt]));
	const waiting: TaskToWait[] = [];
	for (const [itemIndex, result] of results.entries()) {
		if ('error' in result) continue;
		const waitOptions = ctx.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
		waiting.push({
			itemIndex,
			taskId: String(result.output[0]?.json.id ?? ''),
			startedAt: options.readFirst ? now : Math.min(now, createdAt.get(itemIndex) ?? now),
			deadlineMs: readWaitDeadlineMs(ctx, itemIndex),
			readFirst: options.readFirst,
			download: waitOptions.download === true,
		});
	}
	if (!options.readFirst && waiting.length) logPollingWait(ctx, waiting);
	const settled = await waitForTasks(ctx, waiting, options);
	const merged = [...results];
	for (const [index, task] of waiting.entries()) merged[task.itemIndex] = settled[index];
	return merged;
}

/**
 * A polling wait lives in the n8n process that runs it: should n8n stop or
 * crash meanwhile, the execution ends without output while the tasks go on
 * (and are charged) at the gateway. So their ids go to n8n's log as the wait
 * begins, one line per batch, where an operator finds them after a restart.
 */
function logPollingWait(ctx: IExecuteFunctions, tasks: TaskToWait[]): void {
	ctx.logger.info(
		`Generation Gateway: execution ${ctx.getExecutionId()}, node "${ctx.getNode().name}" waits by polling for ${tasks.length} video tasks; if n8n stops before they finish, run Video → Wait for Completion with these task ids: ${tasks.map((task) => task.taskId).join(' ')}`,
	);
}
