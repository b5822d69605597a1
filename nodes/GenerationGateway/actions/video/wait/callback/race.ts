import type { IDataObject } from 'n8n-workflow';

import { joinOrOpen, notConfirmedYet } from '../../../../../shared/confirmWindow';
import type { Clock } from '../../../../../shared/time';
import type { ConfirmFinalOptions } from '../../../../../shared/videoTask';
import { confirmFinal, isTerminalStatus } from '../../../../../shared/videoTask';
import { OTHERS_READ_AGAIN_MS, OTHERS_READS_PER_TASK } from '../../../../../shared/waitClocks';
import type { PendingRead, WaitMemory } from './memory';
import { claimHolds, tick, tryClaim } from './memory';
import type { TaskSlot } from './taskList';

/**
 * What one n8n process remembers between the callbacks of a waiting
 * execution, and the rules that let racing callbacks do the work once and
 * answer none of them on the strength of a stale read. `answerFinal` applies
 * them to one final callback; the rest are its parts, tested one by one.
 * The memory itself is memory.ts.
 *
 * - n8n gives a waiting node no lock: every request to the wait's address that
 *   finds the execution waiting runs `webhook()`, concurrently. The first
 *   callback that finds every task final claims the resume (in memory, before
 *   any download); the others answer 200 and leave it to that one.
 * - Reads are ordered by a counter (`tick`), not the clock: a callback relies
 *   only on a read that began after a point of its own, since a read begun
 *   before a task's final callback arrived may still say `in_progress`.
 * - A final callback whose own task does not read final yet reads it again
 *   within the task's confirmation window, which later callbacks of the task
 *   join; a window that passes unconfirmed gets them all answered 503.
 * - A callback that confirmed its task and finds another task not known final
 *   while another final callback is under way leaves the check to that one
 *   (200 waiting): the last of them to decide reads. `underWay` changes only
 *   when an answer is decided, synchronously, so no two callbacks can each
 *   leave the check to the other. Reads of a task by other tasks' callbacks
 *   are bounded (`othersMayRead`).
 *
 * Memory is per process: with several webhook processes each has its own, so
 * a task may be read and a video downloaded once per process.
 */

/**
 * The task's record as the gateway answers it in a read that began after
 * tick `after`, or a final record from any read (a final status never
 * changes, so it may come from a read begun at any time):
 * - a final record already read is used without reading;
 * - a read under way that began after `after` is shared; so is another
 *   callback's confirmation of its own task (`confirming`) when this is not
 *   a confirmation: should it answer "still running", that callback is
 *   answered 503 and sent again, so nobody is left relying on it;
 * - an earlier read under way is awaited and used only if it answers final;
 * - otherwise a new read is sent.
 * Final answers are remembered; a running one is not, and a failed read is
 * nobody's answer.
 */
export async function readAfter(
	memory: WaitMemory,
	taskId: string,
	after: number,
	read: () => Promise<IDataObject>,
	confirming = false,
): Promise<IDataObject> {
	const known = memory.finals.get(taskId);
	if (known) return known;
	const pending = memory.reads.get(taskId);
	if (pending) {
		if (pending.startedAt > after || (pending.confirming && !confirming)) return await pending.promise;
		const early = await pending.promise.catch(() => undefined);
		if (early && isTerminalStatus(early.status)) return early;
		// The earlier read is settled and forgotten now: share a later one or send one.
		return await readAfter(memory, taskId, after, read, confirming);
	}
	const started: PendingRead = { startedAt: tick(memory), confirming, promise: Promise.resolve({}) };
	const forget = () => {
		if (memory.reads.get(taskId) === started) memory.reads.delete(taskId);
	};
	started.promise = read().then(
		(record) => {
			forget();
			if (isTerminalStatus(record.status)) memory.finals.set(taskId, record);
			return record;
		},
		(error: unknown) => {
			forget();
			throw error;
		},
	);
	memory.reads.set(taskId, started);
	return await started.promise;
}

/**
 * Whether a final callback that confirmed its own task may read `taskId`,
 * another task not known final, and counts the read if so: at most
 * `OTHERS_READS_PER_TASK` reads, then only by a callback that finds every
 * other task known final (it may be the last to come, if this task's own
 * final callback was lost) or comes `OTHERS_READ_AGAIN_MS` after the last
 * one (a burst is bounded; a process whose share is spent never stays
 * unable to confirm). Otherwise the task's own final callback finishes the
 * wait; `ownCallbackFailed` lifts the bound when that one is answered 5xx.
 */
export function othersMayRead(
	memory: WaitMemory,
	taskId: string,
	slots: readonly unknown[],
	now: number,
): boolean {
	const last = memory.othersReads.get(taskId);
	const reads = last && now - last.at < OTHERS_READ_AGAIN_MS ? last.count : 0;
	const lastUnknown = slots.every(
		(slot) => typeof slot !== 'string' || slot === taskId || memory.finals.has(slot),
	);
	if (reads >= OTHERS_READS_PER_TASK && !lastUnknown) return false;
	memory.othersReads.set(taskId, { count: reads + 1, at: now });
	return true;
}

/** A task's own final callback was answered 503: the others may read it again (its callback may not come back). */
export function ownCallbackFailed(memory: WaitMemory, taskId: string): void {
	memory.othersReads.delete(taskId);
}

/**
 * A callback's confirmation of its own task: a final record already known,
 * or the task's confirmation (`confirmFinal`, opened by this callback or
 * joined), whose first read began after tick `arrived` and each read of the
 * window after the previous answer. `read` is given the time a read of the
 * window may take at most (none for the first read: its own bound). Rejects
 * only when the first read fails.
 */
export async function confirmOwnTask(
	memory: WaitMemory,
	taskId: string,
	arrived: number,
	read: (timeoutMs?: number) => Promise<IDataObject>,
	options: ConfirmFinalOptions = {},
): Promise<IDataObject> {
	const known = memory.finals.get(taskId);
	if (known) return known;
	const readOwn = async (timeoutMs?: number) => {
		const after = timeoutMs === undefined ? arrived : tick(memory);
		return await readAfter(memory, taskId, after, async () => await read(timeoutMs), true);
	};
	const { value } = await joinOrOpen(
		memory.windows,
		taskId,
		async () => await confirmFinal(readOwn, options),
	);
	return value;
}

/** The gateway reads one callback of a wait makes: its own task, and another task by item. */
export interface CallbackReads {
	own(timeoutMs?: number): Promise<IDataObject>;
	other(item: number, taskId: string): Promise<IDataObject>;
}

/** A callback's answer, or the records of every slot (in item order) when it won the resume. */
export type FinalAnswer =
	| { status: 200 | 503; body: IDataObject }
	| { resume: Array<IDataObject | undefined> };

const RESUMING = { received: true, resuming: 'another callback of this execution is resuming it' };

/**
 * One final callback of task `taskId` (claimed `claimed`), by the rules
 * above: its own task confirmed (or 503), every other task checked in item
 * order, and the resume claimed by the first that finds all final. The
 * winner must call `handOver` or `releaseClaim` once it has built its items.
 */
export async function answerFinal(
	memory: WaitMemory,
	callback: { taskId: string; claimed: string; slots: readonly TaskSlot[] },
	reads: CallbackReads,
	clock: Clock,
): Promise<FinalAnswer> {
	if (claimHolds(memory, clock.now())) return { status: 200, body: RESUMING };
	const { taskId, slots } = callback;
	const me = {};
	memory.underWay.add(me);
	// The answer is decided here, leaving the set in the same synchronous step.
	const decided = (answer: FinalAnswer): FinalAnswer => {
		memory.underWay.delete(me);
		return answer;
	};
	const waiting = (reason: string) => decided({ status: 200, body: { received: true, waiting: reason } });
	const unreadable = (id: string, error: unknown) =>
		decided({ status: 503, body: { error: `Could not read video task ${id}: ${(error as Error).message}` } });
	try {
		let own: IDataObject;
		try {
			own = await confirmOwnTask(memory, taskId, tick(memory), reads.own, { clock });
		} catch (error) {
			ownCallbackFailed(memory, taskId);
			return unreadable(taskId, error);
		}
		if (!isTerminalStatus(own.status)) {
			ownCallbackFailed(memory, taskId);
			return decided({ status: 503, body: { error: notConfirmedYet(taskId, callback.claimed, own.status) } });
		}
		const confirmed = tick(memory);
		const records: Array<IDataObject | undefined> = [];
		for (const [item, slot] of slots.entries()) {
			if (typeof slot !== 'string') {
				records.push(undefined);
				continue;
			}
			const unknown = slot !== taskId && !memory.finals.has(slot);
			if (unknown && memory.underWay.size > 1)
				return waiting(`task ${slot} is not known final yet; another callback of this execution checks it`);
			if (unknown && !othersMayRead(memory, slot, slots, clock.now()))
				return waiting(`task ${slot} is not known final yet; its own final callback finishes the wait`);
			let record: IDataObject;
			try {
				record =
					slot === taskId
						? own
						: await readAfter(memory, slot, confirmed, async () => await reads.other(item, slot));
			} catch (error) {
				// This callback may be the last: answering 200 now could leave the execution waiting.
				return unreadable(slot, error);
			}
			if (!isTerminalStatus(record.status)) return waiting(`task ${slot} is ${String(record.status)}`);
			records.push(record);
		}
		if (!tryClaim(memory, clock.now())) return decided({ status: 200, body: RESUMING });
		return decided({ resume: records });
	} finally {
		memory.underWay.delete(me);
	}
}

/**
 * A recheck (Recover Waits asks a wait left behind to look at its tasks): each
 * task read once, in item order, up to the first not final; the resume claimed
 * as a final callback claims it.
 */
export async function answerRecheck(
	memory: WaitMemory,
	slots: readonly TaskSlot[],
	read: (item: number, taskId: string) => Promise<IDataObject>,
	clock: Clock,
): Promise<FinalAnswer> {
	if (claimHolds(memory, clock.now())) return { status: 200, body: RESUMING };
	const records: Array<IDataObject | undefined> = [];
	for (const [item, slot] of slots.entries()) {
		if (typeof slot !== 'string') {
			records.push(undefined);
			continue;
		}
		let record: IDataObject;
		try {
			record = await readAfter(memory, slot, tick(memory), async () => await read(item, slot));
		} catch (error) {
			return {
				status: 503,
				body: { error: `Could not read video task ${slot}: ${(error as Error).message}` },
			};
		}
		if (!isTerminalStatus(record.status))
			return { status: 200, body: { received: true, waiting: `task ${slot} is ${String(record.status)}` } };
		records.push(record);
	}
	if (!tryClaim(memory, clock.now())) return { status: 200, body: RESUMING };
	return { resume: records };
}
