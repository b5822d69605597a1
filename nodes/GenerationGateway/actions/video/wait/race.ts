import type { IDataObject } from 'n8n-workflow';

import type { Limiter } from '../../../../shared/concurrency';
import type { ConfirmSchedule } from '../../../../shared/confirmWindow';
import { confirmWithin } from '../../../../shared/confirmWindow';
import { MAX_WAIT_DEADLINE_MS } from '../../../../shared/polling';
import type { Clock } from '../../../../shared/time';
import { isTerminalStatus } from '../../../../shared/videoTask';

/**
 * What one n8n process remembers between the callbacks of a waiting
 * execution, so that racing callbacks do the work once and none of them is
 * answered on the strength of a stale read.
 *
 * n8n gives a waiting node no lock: every request to the resume URL loads
 * the execution, and all those that load it while it is `waiting` run
 * `webhook()` concurrently. The only election is n8n's own resume (the
 * execution's status goes from waiting to running once, for the first
 * `webhook()` to return items), and it comes after `webhook()` has returned,
 * too late to spare the losers their downloads. Nothing saved with the
 * execution helps either: custom data set by a callback that does not resume
 * is never saved. So the election happens here, in memory, before any
 * download: the first callback that finds every task final claims the
 * resume; the others answer 200 and leave the execution to it.
 *
 * Reads are ordered by a counter (`tick`), not by the clock: a callback may
 * rely only on a read that began after a point of its own (its arrival, for
 * its own task). A read of task B that began before B's final callback
 * arrived may still answer `in_progress`; had that callback shared it, it
 * would have been answered "waiting" and nobody would have resumed.
 *
 * A final callback that the gateway's read does not confirm yet (its reads
 * may trail its callbacks) reads the task again within a short window
 * (confirmWindow.ts) before it is answered 503. One window per task: the
 * callbacks of that task that arrive while it is open join it instead of
 * reading on their own, so a batch whose callbacks come twice or more at
 * once still reads each task a few times at most.
 *
 * A final callback that finds another task not known final while another
 * final callback of the wait is under way in this process leaves the check
 * to that one (200 waiting, no read): it is answered later, after its own
 * task, and will find this callback's task final here. Of callbacks under
 * way together the last to decide reads. So the tasks still lagging while
 * a batch's callbacks arrive are not read by every callback in turn. The
 * set changes only when a callback's answer is decided (synchronously), so
 * no two callbacks can each leave the check to the other.
 *
 * Memory is per process. Callbacks reaching the same n8n process (a single
 * instance; queue mode where the main process serves webhooks) share one
 * table; with several webhook processes each has its own, so a task may be
 * read and a video downloaded once per process.
 */

/** How long a claim holds while its callback reads and downloads, and after it handed items to n8n. */
export const CLAIM_HOLD_MS = { building: 10 * 60_000, handedOver: 60_000 };

/** Entries kept at most (the oldest go first); an entry also goes once its wait is surely over. */
const MAX_ENTRIES = 1000;
const ENTRY_LIFETIME_MS = MAX_WAIT_DEADLINE_MS + 60 * 60_000;

interface PendingRead {
	/** The tick at which the read was sent. */
	startedAt: number;
	/** Sent by a callback to confirm its own task. */
	confirming: boolean;
	promise: Promise<IDataObject>;
}

export interface WaitMemory {
	/** Final records by task id, each from a gateway read (a final status never changes). */
	readonly finals: Map<string, IDataObject>;
	/** The latest read of each task under way, shared by callbacks that may rely on it. */
	readonly reads: Map<string, PendingRead>;
	/** The confirmation window open for a task, by task id: its last record read (final or not). */
	readonly windows: Map<string, Promise<IDataObject>>;
	/** The wait's request slots (Max Concurrent Requests), shared by the reads of other tasks and the downloads. */
	limit?: Limiter;
	/** The slots of the callbacks' reads of their own tasks (Max Concurrent Requests, at least 16). */
	ownLimit?: Limiter;
	/**
	 * The final callbacks being answered now, from their first read to their answer: each of them
	 * checks every task once it has confirmed its own.
	 */
	readonly underWay: Set<object>;
	/**
	 * Reads of a task not known final made by the other tasks' callbacks (`othersMayRead`), by task
	 * id; cleared when the task's own final callback is answered 503.
	 */
	readonly othersReads: Map<string, number>;
	/** The callback resuming the execution: since when, and when it handed its items to n8n. */
	claim?: { since: number; handedOver?: number };
	readonly createdAt: number;
	/** The counter that orders arrivals and reads. */
	ticks: number;
}

export class CallbackMemory {
	private readonly entries = new Map<string, WaitMemory>();

	constructor(private readonly maxEntries = MAX_ENTRIES) {}

	get size(): number {
		return this.entries.size;
	}

	/** The memory of one wait (execution, node, start of the wait), created on first use. */
	of(key: string, now: number): WaitMemory {
		const known = this.entries.get(key);
		if (known) return known;
		for (const [old, entry] of this.entries) {
			if (now - entry.createdAt > ENTRY_LIFETIME_MS || this.entries.size >= this.maxEntries) {
				this.entries.delete(old);
			}
		}
		const created: WaitMemory = {
			finals: new Map(),
			reads: new Map(),
			windows: new Map(),
			underWay: new Set(),
			othersReads: new Map(),
			createdAt: now,
			ticks: 0,
		};
		this.entries.set(key, created);
		return created;
	}
}

/** The table of this process (module state: one per loaded package). */
export const callbackMemory = new CallbackMemory();

/** A point in the order of arrivals and reads: a read begun later has a greater tick. */
export function tick(memory: WaitMemory): number {
	return ++memory.ticks;
}

/** Whether a claim is in force: someone is resuming, or handed items to n8n moments ago. */
export function claimHolds(memory: WaitMemory, now: number): boolean {
	const { claim } = memory;
	if (!claim) return false;
	if (claim.handedOver === undefined) return now - claim.since < CLAIM_HOLD_MS.building;
	// A request that reaches webhook() found the execution still waiting: a minute after
	// the items were handed over, n8n evidently did not resume with them.
	return now - claim.handedOver < CLAIM_HOLD_MS.handedOver;
}

/** Claims the resume if nobody holds it; synchronous, so one of racing callbacks wins. */
export function tryClaim(memory: WaitMemory, now: number): boolean {
	if (claimHolds(memory, now)) return false;
	memory.claim = { since: now };
	return true;
}

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

/** Reads of one task by the other tasks' callbacks, per process, before only the last unknown one reads it. */
export const OTHERS_READS_PER_TASK = 2;

/**
 * Whether a final callback that confirmed its own task may read `taskId`,
 * another task not known final, and counts the read if so. A task's reads
 * by the others are bounded by design, whatever the timing: at most
 * `OTHERS_READS_PER_TASK`, then only by a callback that finds every other
 * task of the wait known final (it may be the last callback to come: if
 * this task's own final callback was lost on the way, it alone can find it
 * final). Otherwise the task's own final callback finishes the wait: it
 * checks every task once it has confirmed its own, and a gateway sends it
 * again when it is answered 5xx (`ownCallbackFailed` lifts the bound then).
 * Without the bound, a task whose reads trail its callback was read by
 * every other callback of a batch meanwhile: 17 times in a batch of 300 on
 * a busy machine.
 */
export function othersMayRead(memory: WaitMemory, taskId: string, slots: readonly unknown[]): boolean {
	const reads = memory.othersReads.get(taskId) ?? 0;
	const lastUnknown = slots.every(
		(slot) => typeof slot !== 'string' || slot === taskId || memory.finals.has(slot),
	);
	if (reads >= OTHERS_READS_PER_TASK && !lastUnknown) return false;
	memory.othersReads.set(taskId, reads + 1);
	return true;
}

/** A task's own final callback was answered 503: the others may read it again (its callback may not come back). */
export function ownCallbackFailed(memory: WaitMemory, taskId: string): void {
	memory.othersReads.delete(taskId);
}

/** Remembers final records read outside a callback (the reads made as the wait begins). */
export function rememberFinals(memory: WaitMemory, records: IDataObject[]): void {
	for (const record of records) {
		if (typeof record.id === 'string' && isTerminalStatus(record.status))
			memory.finals.set(record.id, record);
	}
}

export interface WindowOptions {
	clock?: Clock;
	signal?: AbortSignal;
	schedule?: ConfirmSchedule;
}

/**
 * A callback's confirmation of its own task: its record as a read that
 * began after tick `arrived` answers it, and when that read does not show
 * the task final, the records of the task's confirmation window (the first
 * final one, or the last one read when the window passed). `read` is given
 * the time a read of the window may take at most; without it, it is the
 * callback's first read (the transport's usual attempts). Rejects only when
 * the first read fails.
 *
 * Joining an open window is safe although its reads may have begun before
 * this callback arrived: a final record is true whenever it was read, and a
 * window that ends without one gets every callback it served answered 503,
 * so none of them is answered 200 on the strength of a stale read.
 */
export async function confirmOwnTask(
	memory: WaitMemory,
	taskId: string,
	arrived: number,
	read: (timeoutMs?: number) => Promise<IDataObject>,
	options: WindowOptions = {},
): Promise<IDataObject> {
	const open = memory.windows.get(taskId);
	if (open && !memory.finals.has(taskId)) return await open;
	const first = await readAfter(memory, taskId, arrived, async () => await read(), true);
	if (isTerminalStatus(first.status)) return first;
	// Another callback of this task may have opened the window while this one read.
	const opened = memory.windows.get(taskId);
	if (opened) return await opened;
	const window = confirmWithin<IDataObject>({
		// Each read of the window begins after the previous answer: a fresh read, or one under way that began later.
		read: async (timeoutMs) =>
			await readAfter(memory, taskId, tick(memory), async () => await read(timeoutMs), true),
		isConfirmed: (record) => isTerminalStatus(record.status),
		...options,
	}).then((outcome) => (outcome.kind === 'confirmed' ? outcome.value : (outcome.last ?? first)));
	memory.windows.set(taskId, window);
	try {
		return await window;
	} finally {
		if (memory.windows.get(taskId) === window) memory.windows.delete(taskId);
	}
}
