import type { Clock } from '../../../shared/time';

/** What an item's `waitInfo` says of its wait: which way it ran, why, and where it stands. */
export type WaitInfo =
	| { mode: 'polling'; polls: number; waitedSeconds: number; reason?: string; fallback?: string }
	| { mode: 'callback'; polls: 0; waitedSeconds: number; reason: string }
	| {
			mode: 'callback';
			state: 'waiting' | 'timed out';
			waitTill: string;
			reason: string;
			/** Set when this n8n process cannot reach its own address: why, and what to set. */
			ownNewsOff?: string;
			/** While waiting: the wait's own address, where Video Wait → Recover Waits finds it again. */
			callbackAddress?: string;
			/** Set while no Video Wait → Recover Waits pass ran in this process lately: what a restart would cost. */
			leftBehind?: string;
	  };

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** A polling wait that ended, after `polls` reads. */
export function polledInfo(
	polls: number,
	waitedMs: number,
	why: { reason?: string; fallback?: string },
): WaitInfo {
	return {
		mode: 'polling',
		polls,
		waitedSeconds: seconds(waitedMs),
		...(why.reason ? { reason: why.reason } : {}),
		...(why.fallback ? { fallback: why.fallback } : {}),
	};
}

/** A callback wait that ended: how long since it began. */
export function calledBackInfo(startedAt: number, reason: string, clock: Clock): WaitInfo {
	return { mode: 'callback', polls: 0, waitedSeconds: seconds(clock.now() - startedAt), reason };
}

/** A callback wait under way (the items output as it waits), or the items n8n hands on at its deadline. */
export function waitingInfo(
	state: 'waiting' | 'timed out',
	deadline: Date,
	reason: string,
	notes: { ownNewsOff?: string; callbackAddress?: string; leftBehind?: string } = {},
): WaitInfo {
	return {
		mode: 'callback',
		state,
		waitTill: deadline.toISOString(),
		reason,
		...(notes.ownNewsOff ? { ownNewsOff: notes.ownNewsOff } : {}),
		...(notes.callbackAddress ? { callbackAddress: notes.callbackAddress } : {}),
		...(notes.leftBehind ? { leftBehind: notes.leftBehind } : {}),
	};
}
