import type { Limiter } from './concurrency';
import { createLimiter } from './concurrency';
import type { Clock } from './time';
import { systemClock } from './time';

/**
 * Waiting for long-running tasks (video tasks) by reading them: one task or a
 * whole batch at once. Each task keeps its own schedule from its own start:
 * a first read 5 s after it (or at once, `readFirst`), then back-off by x1.5
 * up to 30 s, a Retry-After hint honoured; its own deadline; its own outcome.
 * The tasks wait together: the reads due at one moment go out as a round,
 * each through the caller's limiter (Max Concurrent Requests), and a task
 * that sleeps holds no slot, so a batch waits about as long as its slowest
 * task. A failed read is tried again soon (`retryDelay`), its schedule
 * unmoved; a 429 pauses every read until its Retry-After (the round slows,
 * no task fails of it); a cancel ends every wait within a second.
 *
 * Pure apart from the injected clock and read, so the schedule, the
 * deadlines and the cancellation are unit-tested with a fake clock. It
 * never throws: each task settles with an outcome the caller turns into its
 * item or its error.
 */

interface PollSchedule {
	firstDelayMs: number;
	factor: number;
	maxDelayMs: number;
}

const DEFAULT_POLL_SCHEDULE: PollSchedule = { firstDelayMs: 5_000, factor: 1.5, maxDelayMs: 30_000 };
export const DEFAULT_WAIT_DEADLINE_MS = 15 * 60_000;
export const MAX_WAIT_DEADLINE_MS = 2 * 60 * 60_000;

/** The pause before poll number `index` (0-based) by the schedule alone. */
export function scheduledDelay(index: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
	return Math.min(schedule.maxDelayMs, Math.round(schedule.firstDelayMs * schedule.factor ** index));
}

interface PollAnswer<T> {
	value: T;
	/** The server's hint for the next poll (Retry-After), in ms. */
	retryAfterMs?: number;
}

/** One task of a batch wait. */
export interface WaitingTask {
	/** When the task was started (its create); the first read and the deadline count from here. */
	startedAt: number;
	/** Total wait allowed, from `startedAt`. */
	deadlineMs: number;
	/** Read once at once (Wait for Completion: the task may be done already). */
	readFirst?: boolean;
}

/** How one task's wait ended. `polls` counts the reads made; `last` is the last value read. */
export type WaitOutcome<T> =
	| { kind: 'done'; value: T; polls: number; waitedMs: number }
	| { kind: 'timeout'; last?: T; polls: number; lastError?: unknown }
	| { kind: 'failed'; error: unknown; last?: T; polls: number }
	| { kind: 'cancelled'; last?: T; polls: number };

export interface BatchWaitOptions<T> {
	tasks: WaitingTask[];
	/** One read of task `index`. A rejection ends its wait unless `isTransient` accepts it. */
	read: (index: number) => Promise<PollAnswer<T>>;
	isDone: (value: T) => boolean;
	/** Errors worth reading through (rate limits, gateway hiccups, network errors). */
	isTransient?: (error: unknown) => boolean;
	/** A failed read that asks every read to pause (a 429): for how long, in ms (its Retry-After). */
	pauseAfter?: (error: unknown) => number | undefined;
	/**
	 * After a transient failure (the `failures`-th in a row for this task): how
	 * soon to read it again, or undefined to wait for its next scheduled read.
	 */
	retryDelay?: (error: unknown, failures: number) => number | undefined;
	/** Every read runs through it (the run's request slots); default: one at a time. */
	limit?: Limiter;
	/** Told of each task as soon as it settles, while the others still wait (to start its download). */
	onSettled?: (index: number, outcome: WaitOutcome<T>) => void;
	signal?: AbortSignal;
	clock?: Clock;
	schedule?: PollSchedule;
}

interface TaskState<T> {
	index: number;
	startedAt: number;
	deadlineAt: number;
	/** When its next read is due. */
	nextAt: number;
	/** Pauses taken so far, which picks the next one from the schedule. */
	pauses: number;
	polls: number;
	/** Reads failed in a row since the last scheduled one. */
	failures: number;
	last?: T;
	lastError?: unknown;
	hintMs?: number;
}

/** Waits for every task; the outcomes come back in task order. */
export async function waitForAll<T>(options: BatchWaitOptions<T>): Promise<Array<WaitOutcome<T>>> {
	const clock = options.clock ?? systemClock;
	const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
	const limit = options.limit ?? createLimiter(1);
	const { signal } = options;
	const outcomes = new Array<WaitOutcome<T>>(options.tasks.length);
	const pending = new Set<TaskState<T>>();
	/** No read starts before this time: a 429 asked for a pause. */
	let pausedUntil = 0;

	const settle = (task: TaskState<T>, outcome: WaitOutcome<T>) => {
		pending.delete(task);
		outcomes[task.index] = outcome;
		options.onSettled?.(task.index, outcome);
	};
	// After a read that did not finish the task (or before the first one): when to read next.
	const plan = (task: TaskState<T>, from: number) => {
		const remaining = task.deadlineAt - from;
		if (remaining <= 0) {
			settle(task, { kind: 'timeout', last: task.last, polls: task.polls, lastError: task.lastError });
			return;
		}
		// The server's hint wins when it asks for more patience; never wait past the deadline.
		const wanted = Math.max(scheduledDelay(task.pauses, schedule), task.hintMs ?? 0);
		task.pauses++;
		task.nextAt = from + Math.min(wanted, remaining);
	};
	const readOnce = async (task: TaskState<T>) => {
		if (signal?.aborted) return;
		if (clock.now() < pausedUntil) {
			// A 429 came while this read waited for a slot: it goes with the next round.
			task.nextAt = Math.min(task.deadlineAt, pausedUntil);
			return;
		}
		task.polls++;
		try {
			const answer = await options.read(task.index);
			task.last = answer.value;
			task.hintMs = answer.retryAfterMs;
			task.lastError = undefined;
			task.failures = 0;
		} catch (error) {
			if (signal?.aborted) return;
			if (!options.isTransient?.(error)) {
				settle(task, { kind: 'failed', error, last: task.last, polls: task.polls });
				return;
			}
			task.lastError = error;
			task.hintMs = undefined;
			task.failures++;
			// A failed read is no news of the task: it is read again soon, its schedule unmoved.
			const pause = options.pauseAfter?.(error);
			if (pause !== undefined) pausedUntil = Math.max(pausedUntil, clock.now() + pause);
			const again = pause ?? options.retryDelay?.(error, task.failures);
			const now = clock.now();
			if (again !== undefined && now < task.deadlineAt) {
				task.nextAt = Math.min(task.deadlineAt, Math.max(pausedUntil, now + again));
				return;
			}
			// Out of quick tries: the next scheduled read starts a new series.
			task.failures = 0;
		}
		const now = clock.now();
		if (task.lastError === undefined && task.last !== undefined && options.isDone(task.last)) {
			settle(task, { kind: 'done', value: task.last, polls: task.polls, waitedMs: now - task.startedAt });
			return;
		}
		if (signal?.aborted) return;
		plan(task, now);
	};
	for (const [index, spec] of options.tasks.entries()) {
		const task: TaskState<T> = {
			index,
			startedAt: spec.startedAt,
			deadlineAt: spec.startedAt + Math.max(0, spec.deadlineMs),
			nextAt: spec.startedAt,
			pauses: 0,
			polls: 0,
			failures: 0,
		};
		pending.add(task);
		if (!spec.readFirst) plan(task, spec.startedAt);
	}

	while (pending.size > 0) {
		if (signal?.aborted) break;
		const now = clock.now();
		const due = [...pending].filter((task) => task.nextAt <= now && pausedUntil <= now);
		if (due.length === 0) {
			let wake = Number.POSITIVE_INFINITY;
			for (const task of pending) wake = Math.min(wake, task.nextAt);
			await clock.sleep(Math.max(wake, pausedUntil) - now, signal);
			continue;
		}
		await Promise.all(due.map(async (task) => await limit(async () => await readOnce(task))));
	}
	for (const task of pending) {
		outcomes[task.index] = { kind: 'cancelled', last: task.last, polls: task.polls };
		options.onSettled?.(task.index, outcomes[task.index]);
	}
	pending.clear();
	return outcomes;
}

/** The deadline the user asked for, clamped to what the node allows (15 min default, 2 h max). */
export function waitDeadlineMs(minutes: number | undefined): number {
	if (minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return DEFAULT_WAIT_DEADLINE_MS;
	return Math.min(MAX_WAIT_DEADLINE_MS, Math.round(minutes * 60_000));
}
