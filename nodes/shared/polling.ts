import type { Clock } from './time';
import { systemClock } from './time';

/**
 * Get-until-terminal for long-running tasks (video tasks): back-off from 5 s by x1.5 up to 30 s, a server's Retry-After hint
 * honoured, one deadline for the whole wait, a stop within a second of the
 * execution being cancelled, and no sleep once the task is terminal.
 *
 * Pure apart from the injected clock and fetch, so the schedule and the
 * cancellation are unit-tested with a fake clock. It never throws errors of
 * its own making: the caller turns a timeout or a cancel into the node error
 * (with the task id) through `onTimeout`/`onCancel`.
 */

export interface PollSchedule {
	firstDelayMs: number;
	factor: number;
	maxDelayMs: number;
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = { firstDelayMs: 5_000, factor: 1.5, maxDelayMs: 30_000 };
export const DEFAULT_WAIT_DEADLINE_MS = 15 * 60_000;
export const MAX_WAIT_DEADLINE_MS = 2 * 60 * 60_000;

/** The pause before poll number `index` (0-based) by the schedule alone. */
export function scheduledDelay(index: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
	return Math.min(schedule.maxDelayMs, Math.round(schedule.firstDelayMs * schedule.factor ** index));
}

export interface PollAnswer<T> {
	value: T;
	/** The server's hint for the next poll (Retry-After), in ms. */
	retryAfterMs?: number;
}

export interface PollOptions<T> {
	/** One read of the task. A rejection is final unless `isTransient` accepts it. */
	fetch: () => Promise<PollAnswer<T>>;
	isDone: (value: T) => boolean;
	/** Total wait allowed, from the call. */
	deadlineMs: number;
	onTimeout: (last: T | undefined, polls: number, lastError: unknown) => Error;
	onCancel: (last: T | undefined, polls: number) => Error;
	/** Errors worth polling through (a poll that failed after the transport's own retries). */
	isTransient?: (error: unknown) => boolean;
	/** The error to end the wait with for a poll failure that is not transient. */
	onError: (error: unknown) => Error;
	/** Read once before the first pause (Wait for Completion: the task may be done already). */
	pollFirst?: boolean;
	signal?: AbortSignal;
	clock?: Clock;
	schedule?: PollSchedule;
}

export interface PollResult<T> {
	value: T;
	polls: number;
	/** Time from the call to the poll that saw the terminal state. */
	waitedMs: number;
}

/** Polls until `isDone`; rejects with the caller's error on deadline or cancel. */
export async function pollUntilDone<T>(options: PollOptions<T>): Promise<PollResult<T>> {
	const clock = options.clock ?? systemClock;
	const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
	const started = clock.now();
	const deadline = started + Math.max(0, options.deadlineMs);
	let last: T | undefined;
	let lastError: unknown;
	let polls = 0;
	let hintMs: number | undefined;

	for (let index = 0; ; index++) {
		if (index > 0 || !options.pollFirst) {
			const remaining = deadline - clock.now();
			if (remaining <= 0) throw options.onTimeout(last, polls, lastError);
			// The server's hint wins when it asks for more patience; never sleep past the deadline.
			const wanted = Math.max(scheduledDelay(options.pollFirst ? index - 1 : index, schedule), hintMs ?? 0);
			await clock.sleep(Math.min(wanted, remaining), options.signal);
		}
		if (options.signal?.aborted) throw options.onCancel(last, polls);
		try {
			polls++;
			const answer = await options.fetch();
			last = answer.value;
			hintMs = answer.retryAfterMs;
			lastError = undefined;
		} catch (error) {
			if (options.signal?.aborted) throw options.onCancel(last, polls);
			if (!options.isTransient?.(error)) throw options.onError(error);
			lastError = error;
			hintMs = undefined;
		}
		if (last !== undefined && lastError === undefined && options.isDone(last)) {
			return { value: last, polls, waitedMs: clock.now() - started };
		}
		if (options.signal?.aborted) throw options.onCancel(last, polls);
	}
}

/** The deadline the user asked for, clamped to what the node allows (15 min default, 2 h max). */
export function waitDeadlineMs(minutes: number | undefined): number {
	if (minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return DEFAULT_WAIT_DEADLINE_MS;
	return Math.min(MAX_WAIT_DEADLINE_MS, Math.round(minutes * 60_000));
}
