import { sleep } from 'n8n-workflow';

/** A clock the poller, the transport and the tests agree on; tests inject a fake one. */
export interface Clock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Sleeps for `ms`, or less if `signal` aborts first (then it resolves early;
 * the caller checks `signal.aborted`). Uses n8n-workflow's sleep because
 * community nodes may not use timers directly.
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
		await Promise.race([sleep(ms), aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

export const systemClock: Clock = {
	now: () => Date.now(),
	sleep: cancellableSleep,
};
