import { sleep } from 'n8n-workflow';

/** A clock the poller, the transport and the tests agree on; tests inject a fake one. */
export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The longest single timer a cancellable sleep leaves behind when it is
 * cancelled. Short enough that a process (a test worker, an n8n worker being
 * stopped) is never held: jest force-exits a worker still busy 500 ms after
 * its tests, and a 1 s slice did that now and then under load.
 */
const SLICE_MS = 200;

/**
 * Sleeps for `ms`, or less if `signal` aborts first (then it resolves early;
 * the caller checks `signal.aborted`). Uses n8n-workflow's sleep because
 * community nodes may not use timers directly. The signal is passed on, so a
 * cancelled wait leaves no timer behind (a timer left running kept test
 * workers alive after their last test: "A worker process has failed to exit
 * gracefully"). Older n8n-workflow versions ignore the signal; for them long
 * waits are still taken in slices of at most 0.2 s, so a cancelled wait
 * leaves at most one short timer.
 */
export async function cancellableSleep(ms: number, signal?: AbortSignal): Promise<void> {
	if (ms <= 0 || signal?.aborted) return;
	if (!signal) return await sleep(ms);
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<void>((resolve) => {
		onAbort = resolve;
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		const until = Date.now() + ms;
		for (let left = ms; left > 0 && !signal.aborted; left = until - Date.now()) {
			// Rejects with the abort reason when the signal fires: that is the early end asked for.
			const slice = sleep(Math.min(left, SLICE_MS), signal).catch(() => undefined);
			await Promise.race([slice, aborted]);
		}
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: cancellableSleep,
};
