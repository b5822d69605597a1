import { sleep } from 'n8n-workflow';

/** A clock the poller, the transport and the tests agree on; tests inject a fake one. */
export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest timer a cancelled sleep leaves behind: short enough that no stopping process is held by it. */
const SLICE_MS = 200;

/**
 * Sleeps for `ms`, or less if `signal` aborts first (then it resolves early;
 * the caller checks `signal.aborted`). Uses n8n-workflow's sleep because
 * community nodes may not use timers directly. The signal is passed on, so a
 * cancelled wait leaves no timer behind; older n8n-workflow versions ignore
 * it, so long waits are taken in slices of at most SLICE_MS.
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
