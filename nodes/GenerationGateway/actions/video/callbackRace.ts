import type { IDataObject } from 'n8n-workflow';

import { MAX_WAIT_DEADLINE_MS } from '../../../shared/polling';
import { isTerminalStatus } from '../../../shared/videoTask';

/**
 * What one n8n process remembers between the callbacks of a waiting
 * execution, so that racing callbacks do the work once (issue 10, item 4).
 *
 * n8n gives a waiting node no lock: every request to the resume URL loads
 * the execution, and all those that load it while it is `waiting` run
 * `webhook()` concurrently. The only election is n8n's own resume (the
 * execution's status goes from waiting to running once, for the first
 * `webhook()` to return items), and it comes after `webhook()` has returned,
 * too late to spare the losers their downloads. Nothing saved with the
 * execution helps either: custom data set by a callback that does not resume
 * is never saved. So the election has to happen here, in memory, before any
 * download: the first callback that finds every task final claims the
 * resume; the others answer 200 and leave the execution to it.
 *
 * Memory is per process. Callbacks reaching the same n8n process (a single
 * instance; queue mode where the main process serves webhooks) share one
 * table; with several webhook processes, simultaneous final callbacks on
 * different processes can each claim (README: "Callback races").
 */

/** How long a claim holds while its callback reads and downloads, and after it handed items to n8n. */
export const CLAIM_HOLD_MS = { building: 10 * 60_000, handedOver: 60_000 };

/** Entries kept at most (the oldest go first); an entry also goes once its wait is surely over. */
const MAX_ENTRIES = 1000;
const ENTRY_LIFETIME_MS = MAX_WAIT_DEADLINE_MS + 60 * 60_000;

export interface WaitMemory {
	/** Final records by task id: from callback bodies or reads. */
	readonly finals: Map<string, IDataObject>;
	/** Reads of a task under way, shared by concurrent callbacks. */
	readonly reads: Map<string, Promise<IDataObject>>;
	/** The callback resuming the execution: since when, and when it handed its items to n8n. */
	claim?: { since: number; handedOver?: number };
	readonly createdAt: number;
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
		const created: WaitMemory = { finals: new Map(), reads: new Map(), createdAt: now };
		this.entries.set(key, created);
		return created;
	}
}

/** The table of this process (module state: one per loaded package). */
export const callbackMemory = new CallbackMemory();

/**
 * Whether `record` can stand for the task without a read: the callback came
 * through the resume URL, whose token n8n checks before the node runs, so its
 * body is the gateway's; it must still be a whole final record (a completed
 * one carries its `data`).
 */
export function isWholeFinalRecord(record: IDataObject): boolean {
	if (typeof record.id !== 'string' || !isTerminalStatus(record.status)) return false;
	if (record.status !== 'completed') return true;
	return record.data !== undefined && record.data !== null;
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
 * The task's final record if known, else one read shared by every callback
 * asking at the same time; a final answer is remembered, a running one not.
 */
export async function sharedRead(
	memory: WaitMemory,
	taskId: string,
	read: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const known = memory.finals.get(taskId);
	if (known) return known;
	let pending = memory.reads.get(taskId);
	if (!pending) {
		pending = read().then(
			(record) => {
				memory.reads.delete(taskId);
				if (isTerminalStatus(record.status)) memory.finals.set(taskId, record);
				return record;
			},
			(error: unknown) => {
				memory.reads.delete(taskId);
				throw error;
			},
		);
		memory.reads.set(taskId, pending);
	}
	return await pending;
}
