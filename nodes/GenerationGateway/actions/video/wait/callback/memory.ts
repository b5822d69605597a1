import type { IDataObject } from 'n8n-workflow';

import { BoundedMap } from '../../../../../shared/boundedMap';
import type { Limiter } from '../../../../../shared/concurrency';
import { isTerminalStatus } from '../../../../../shared/videoTask';
import { CLAIM_HOLD_MS, MAX_WAITS, WAIT_MEMORY_LIFETIME_MS } from '../../../../../shared/waitClocks';
import type { CallbackState } from './taskList';

/**
 * What one n8n process remembers of a waiting execution between its
 * callbacks (race.ts says what for), and the claim of its resume.
 */

export interface PendingRead {
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
	 * id: how many, and when the last; cleared when the task's own final callback is answered 503.
	 */
	readonly othersReads: Map<string, { count: number; at: number }>;
	/** The callback resuming the execution: since when, and when it handed its items to n8n. */
	claim?: { since: number; handedOver?: number };
	/** This process watches the wait (shared/watch.ts): its memory stays while the watch runs. */
	watched?: boolean;
	readonly createdAt: number;
	/** The counter that orders arrivals and reads. */
	ticks: number;
}

/** Past its bound the oldest memory goes first, never one whose watch runs or whose claim holds. */
export class CallbackMemory {
	private readonly entries: BoundedMap<string, WaitMemory>;
	private now = 0;

	constructor(maxEntries = MAX_WAITS) {
		this.entries = new BoundedMap(
			maxEntries,
			(entry) => entry.watched === true || claimHolds(entry, this.now),
		);
	}

	get size(): number {
		return this.entries.size;
	}

	/** The memory of one wait (execution, node, start of the wait), created on first use. */
	of(key: string, now: number): WaitMemory {
		const known = this.entries.get(key);
		if (known) return known;
		this.now = now;
		this.entries.dropWhere((entry) => now - entry.createdAt > WAIT_MEMORY_LIFETIME_MS);
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

/** The memory of one wait in this process: the same key here and in every callback. */
export function memoryOf(executionId: string, nodeId: string, state: CallbackState, now: number): WaitMemory {
	// A task id is unique even where n8n gives no execution id.
	const firstTask = state.slots.find((slot) => typeof slot === 'string');
	return callbackMemory.of(`${executionId}|${nodeId}|${state.startedAt}|${String(firstTask)}`, now);
}

/** A point in the order of arrivals and reads: a read begun later has a greater tick. */
export function tick(memory: WaitMemory): number {
	return ++memory.ticks;
}

/** Whether a claim is in force: someone is resuming, or handed items to n8n moments ago. */
export function claimHolds(memory: WaitMemory, now: number): boolean {
	const { claim } = memory;
	if (!claim) return false;
	// Building ends in handOver or releaseClaim: its reads and downloads each have a deadline.
	if (claim.handedOver === undefined) return true;
	// Past the hold, a request that reaches webhook() found the execution still waiting: n8n did not resume.
	return now - claim.handedOver < CLAIM_HOLD_MS;
}

/** Claims the resume if nobody holds it; synchronous, so one of racing callbacks wins. */
export function tryClaim(memory: WaitMemory, now: number): boolean {
	if (claimHolds(memory, now)) return false;
	memory.claim = { since: now };
	return true;
}

/** Remembers final records read outside a callback (the reads made as the wait begins). */
export function rememberFinals(memory: WaitMemory, records: IDataObject[]): void {
	for (const record of records) {
		if (typeof record.id === 'string' && isTerminalStatus(record.status))
			memory.finals.set(record.id, record);
	}
}

/** The resume's items went to n8n: the claim holds a little longer, for the callbacks still coming. */
export function handOver(memory: WaitMemory, now: number): void {
	if (memory.claim) memory.claim = { since: memory.claim.since, handedOver: now };
}

/** The resume could not be built: the next final callback may claim it. */
export function releaseClaim(memory: WaitMemory): void {
	memory.claim = undefined;
}
