import type { Clock } from './time';
import { systemClock } from './time';

/**
 * The confirmation window: what a final callback does when the gateway's
 * read does not show the final status yet. The interface does not say that
 * the gateway calls back again after a 503, and its reads may trail its
 * callbacks by a moment (a replica catching up), so the callback's own
 * request reads the task again a few times, short and growing pauses apart,
 * before it gives up and asks to be called again. The whole window stays
 * well inside a webhook sender's usual timeout (10 s and more): the sender
 * would otherwise drop the connection and count the callback as failed.
 *
 * Pure apart from the injected clock and read, so the schedule, the window's
 * end and the cancellation are unit-tested with a fake clock.
 */

export interface ConfirmSchedule {
	/** The pauses before each read again, in order (the read that did not confirm is not counted). */
	pausesMs: number[];
	/** The window, from the answer that did not confirm: no read starts or runs past it. */
	windowMs: number;
	/** A read is not started with less than this left: it could not answer in time. */
	minReadMs: number;
}

/**
 * Reads again 1 s, 3.5 s and 7.5 s after the read that did not confirm: a
 * lag of up to about 3 s costs two reads more (four reads of the task in
 * the whole wait), and the answer comes within 8 s.
 */
export const DEFAULT_CONFIRM_SCHEDULE: ConfirmSchedule = {
	pausesMs: [1_000, 2_500, 4_000],
	windowMs: 8_000,
	minReadMs: 250,
};

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
