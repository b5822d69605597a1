import { MAX_WAIT_DEADLINE_MS } from './polling';

/** Every interval, hold and bound of a callback wait and its backstop, side by side: they depend on each other. */

export interface ConfirmSchedule {
	/** The pauses before each read again, in order (the read that did not confirm is not counted). */
	pausesMs: number[];
	/** The window, from the answer that did not confirm: no read starts or runs past it. */
	windowMs: number;
	/** A read is not started with less than this left: it could not answer in time. */
	minReadMs: number;
}

export interface WatchSchedule {
	/** Between two reads of a task whose outcome is not known. */
	readEveryMs: number;
	/** From the moment every task is known final to the first delivery: the gateway's callback goes first. */
	headStartMs: number;
	/** The pauses between deliveries that n8n did not take (the last one repeats). */
	againAfterMs: number[];
}

/** What a gateway waits for the answer to a callback before it counts the call failed (webhook senders: 10 s and more). */
export const GATEWAY_ANSWER_WAIT_MS = 10_000;

/** A callback's first read of its own task, its wait for a request slot included: one attempt, answered (or 503) in time. */
export const FIRST_READ_BOUND_MS = 8_000;

/** A final callback's reads again while the gateway does not show the task final yet, and the window they fit in. */
export const DEFAULT_CONFIRM_SCHEDULE: ConfirmSchedule = {
	pausesMs: [1_000, 2_500, 4_000],
	windowMs: 8_000,
	minReadMs: 250,
};

/** Seconds a callback answered 503 is asked to wait (Retry-After): long enough for the gateway's reads to catch up. */
export const RETRY_AFTER_SECONDS = 30;

/** Reads of their own tasks a wait's callbacks make at once per process, at least: a burst behind one slot would answer late. */
export const CONFIRMATIONS_AT_ONCE = 16;

/** Reads of one task by the other tasks' callbacks, per process, before only the last unknown one reads it: bounded reads. */
export const OTHERS_READS_PER_TASK = 2;

/** After this long without such a read the bound starts again: a late callback or the package's own post may read. */
export const OTHERS_READ_AGAIN_MS = 30_000;

/** How long a claim holds after its callback handed the items to n8n: every request under way then has ended. */
export const CLAIM_HOLD_MS = 60_000;

/** The watch: a read of each task not known final, the gateway's callback first, and the pauses between posts n8n did not take. */
export const WATCH_SCHEDULE: WatchSchedule = {
	readEveryMs: 30_000,
	headStartMs: 15_000,
	againAfterMs: [5_000, 10_000, 20_000, 40_000, 60_000],
};

/** A post of the package's own news waits this long for n8n: n8n drops a request whose sender hung up before it read the body. */
export const DELIVERY_TIMEOUT_MS = 60_000;

/** Per process: the watches' reads and posts share these slots, so their news never comes as a burst. */
export const WATCH_READS_AT_ONCE = 8;
export const WATCH_DELIVERIES_AT_ONCE = 4;

/** Waits one process watches, and remembers between callbacks, at once: a watched wait's memory is kept. */
export const MAX_WAITS = 2_000;

/** A wait's memory goes once the wait is surely over: its longest deadline and an hour. */
export const WAIT_MEMORY_LIFETIME_MS = MAX_WAIT_DEADLINE_MS + 60 * 60_000;

/** A verdict on n8n's own address is shown on waits this long, then checked again: a set-up seldom changes, and posts renew it. */
export const VERDICT_FRESH_MS = 10 * 60_000;

/** Recover Waits: a wait's read of each task on a recheck (one attempt), and the post of the recheck. */
export const RECHECK_READ_MS = 10_000;
export const RECHECK_POST_MS = 60_000;
/** Rechecks under way at once in one pass: each makes n8n load a waiting execution. */
export const RECHECKS_AT_ONCE = 4;
/** A pass of Recover Waits within this long counts as set up: a schedule of a few minutes at most. */
export const RECOVERY_SEEN_MS = 15 * 60_000;

/** The probe of n8n's own address waits this long for an answer: its verdict is in before the first wait's first post. */
export const PROBE_TIMEOUT_MS = 10_000;
