import type { Clock } from './time';
import { systemClock } from './time';
import type { ConfirmSchedule } from './waitClocks';
import { DEFAULT_CONFIRM_SCHEDULE } from './waitClocks';

/**
 * The confirmation window, shared by the trigger and the callback wait: what
 * a final callback does when the gateway's read does not show the final
 * status yet. The interface does not say that the gateway calls back again
 * after a 503, and its reads may trail its callbacks, so the callback's own
 * request reads the task again a few times, short and growing pauses apart,
 * before it asks to be called again. The window ends well inside a webhook
 * sender's usual timeout (10 s and more).
 */

/** The 503 text for a final status the gateway's reads do not show after the window. */
export function notConfirmedYet(taskId: string, claimed: string, read: unknown): string {
	return `The gateway does not confirm yet that task ${taskId} is ${claimed}: it still reads "${String(read)}" after a few seconds. Send the callback again later.`;
}

/**
 * One window per key: a caller that finds one open joins it (`joined`), else
 * opens it with `open`. Joining is safe whenever the window's reads began: a
 * final record is true whenever it was read, and a window that ends without
 * one fails every caller it served alike.
 */
export async function joinOrOpen<T>(
	windows: Map<string, Promise<T>>,
	key: string,
	open: () => Promise<T>,
): Promise<{ value: T; joined: boolean }> {
	const known = windows.get(key);
	if (known) return { value: await known, joined: true };
	const window = open();
	windows.set(key, window);
	try {
		return { value: await window, joined: false };
	} finally {
		if (windows.get(key) === window) windows.delete(key);
	}
}

/** When each read of the window starts, in ms after the window opened (those that fit in it). */
export function confirmReadTimes(schedule: ConfirmSchedule = DEFAULT_CONFIRM_SCHEDULE): number[] {
	const times: number[] = [];
	let at = 0;
	for (const pause of schedule.pausesMs) {
		at += Math.max(0, pause);
		if (at + schedule.minReadMs > schedule.windowMs) break;
		times.push(at);
	}
	return times;
}

export type ConfirmOutcome<T> =
	| { kind: 'confirmed'; value: T; reads: number; waitedMs: number }
	/** The window passed: `last` is the last answer read, `lastError` the last read's failure. */
	| { kind: 'unconfirmed'; last?: T; lastError?: unknown; reads: number; waitedMs: number }
	| { kind: 'cancelled'; last?: T; reads: number; waitedMs: number };

export interface ConfirmOptions<T> {
	/** One read, given the time it may take at most (the rest of the window). */
	read: (timeoutMs: number) => Promise<T>;
	isConfirmed: (value: T) => boolean;
	/** Ends the window at once (the execution was stopped). */
	signal?: AbortSignal;
	clock?: Clock;
	schedule?: ConfirmSchedule;
}

/**
 * Reads until a read confirms or the window passes; never throws (a failed
 * read is no answer: the next one is tried). Called once the first read did
 * not confirm; the window opens at the call.
 */
export async function confirmWithin<T>(options: ConfirmOptions<T>): Promise<ConfirmOutcome<T>> {
	const clock = options.clock ?? systemClock;
	const schedule = options.schedule ?? DEFAULT_CONFIRM_SCHEDULE;
	const { signal } = options;
	const openedAt = clock.now();
	const closesAt = openedAt + schedule.windowMs;
	let reads = 0;
	let last: T | undefined;
	let lastError: unknown;
	const waited = () => clock.now() - openedAt;
	for (const at of confirmReadTimes(schedule)) {
		if (signal?.aborted) break;
		const pause = openedAt + at - clock.now();
		if (pause > 0) await clock.sleep(pause, signal);
		if (signal?.aborted) break;
		const left = closesAt - clock.now();
		// A read that waited for its turn (Max Concurrent Requests) may find the window nearly over.
		if (left < schedule.minReadMs) break;
		reads++;
		try {
			last = await options.read(left);
			lastError = undefined;
		} catch (error) {
			lastError = error;
			continue;
		}
		if (options.isConfirmed(last)) return { kind: 'confirmed', value: last, reads, waitedMs: waited() };
	}
	if (signal?.aborted) return { kind: 'cancelled', last, reads, waitedMs: waited() };
	return { kind: 'unconfirmed', last, lastError, reads, waitedMs: waited() };
}
