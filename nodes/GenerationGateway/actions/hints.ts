import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { NO_CUSTOM_DATA } from '../../shared/n8nFeatures';

/**
 * Execution hints, each about money and what to do. Not static `hints`: their
 * conditions see neither the node's settings (Retry On Fail) nor how a run went.
 */

const hint = (message: string, type: NodeExecutionHint['type'] = 'warning'): NodeExecutionHint => ({
	message,
	type,
	location: 'outputPane',
});

export const RETRY_ON_FAIL_MESSAGE =
	"Retry On Fail is on for this node: after a failed request n8n runs the node again for every item, and each attempt creates and bills new work, so turn Retry On Fail off in the node's Settings and run only the failed items again instead.";

/** Retry On Fail on an operation that creates paid work. */
export const retryOnFailHint = () => hint(RETRY_ON_FAIL_MESSAGE);

export const pollingFallbackHint = (shownResumeUrl: string) =>
	hint(
		`Create and Wait polled the gateway instead of waiting for its callback, because n8n's resume URL is not https (${shownResumeUrl}): set N8N_WEBHOOK_URL (older n8n such as 2.0 and 1.123: WEBHOOK_URL) to n8n's public https address so that the execution waits for the callback without holding a worker.`,
	);

export const noCustomDataHint = () =>
	hint(
		`Create and Wait polled the gateway instead of waiting for its callback, because ${NO_CUSTOM_DATA}. Update n8n to wait by callback without holding a worker.`,
	);

export const customDataFullHint = (items: number, fitting: number) =>
	hint(
		fitting > 0
			? `The task list of ${items} items did not fit in the execution's custom data, so Create and Wait polled the gateway instead of waiting for callbacks: send at most ${fitting} items per run (for example with Loop Over Items) to wait by callback.`
			: `The execution's custom data had no room for the task list (n8n keeps at most 10 entries per execution), so Create and Wait polled the gateway instead of waiting for callbacks: free custom data entries set earlier in this execution to wait by callback.`,
	);

export const refusedItemsHint = (refused: number, items: number) =>
	hint(
		`${refused} of ${items} ${items === 1 ? 'item' : 'items'} ${refused === 1 ? 'was' : 'were'} refused before sending (nothing was sent or charged for ${refused === 1 ? 'it' : 'them'}): each such item's error field names the value to fix, so fix it and run ${refused === 1 ? 'that item' : 'those items'} again.`,
	);

/** A callback wait begun while no Video Wait → Recover Waits pass ran in this n8n process lately. */
export const LEFT_BEHIND =
	'No Video Wait → Recover Waits pass has run in this n8n process in the last 15 minutes: should n8n restart, or this process stop, before the tasks end (or the gateway call while n8n is down), this wait goes on at its Wait Timeout without its videos. A workflow with a Schedule Trigger and Video Wait → Recover Waits finishes such waits (docs: recover-waits.md).';

export const noRecoveryHint = () => hint(LEFT_BEHIND, 'info');

export const ownNewsOffHint = (address: string, said: string, fix: string) =>
	hint(
		`This n8n process cannot reach n8n's own address (${address}): ${said}. The wait goes on by the gateway's callbacks alone: should one not get through, its execution goes on at the Wait Timeout without the videos (each item names its task). To have the package bring the news itself, ${fix}.`,
	);

/** Older n8n versions lack the method. */
export function addHints(ctx: IExecuteFunctions, ...hints: NodeExecutionHint[]): void {
	if (hints.length && typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints(...hints);
}
