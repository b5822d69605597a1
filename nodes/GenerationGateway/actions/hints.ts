import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { NO_CUSTOM_DATA } from '../../shared/n8nFeatures';

/**
 * Execution hints: n8n shows them above the node's output in the editor, with
 * the run. Each one is about money (work created twice, a wait that holds a
 * worker, items that were never sent) and says in one sentence what happened
 * and what to do. They are execution hints, not the description's static
 * `hints`, because what they report is only known at run time: a static
 * hint's display condition sees the node's parameters and input, not its
 * settings (Retry On Fail) nor how a run went.
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

/** Create and Wait asked for a callback wait but polled (the reason names the resume URL). */
export const pollingFallbackHint = (shownResumeUrl: string) =>
	hint(
		`Create and Wait polled the gateway instead of waiting for its callback, because n8n's resume URL is not https (${shownResumeUrl}): set WEBHOOK_URL to n8n's public https address so that the execution waits for the callback without holding a worker.`,
	);

/** This n8n keeps no custom data for a waiting execution: Create and Wait polled. */
export const noCustomDataHint = () =>
	hint(
		`Create and Wait polled the gateway instead of waiting for its callback, because ${NO_CUSTOM_DATA}. Update n8n to wait by callback without holding a worker.`,
	);

/** The callback wait's task list did not fit in the execution's custom data. */
export const customDataFullHint = (items: number, fitting: number) =>
	hint(
		fitting > 0
			? `The task list of ${items} items did not fit in the execution's custom data, so Create and Wait polled the gateway instead of waiting for callbacks: send at most ${fitting} items per run (for example with Loop Over Items) to wait by callback.`
			: `The execution's custom data had no room for the task list (n8n keeps at most 10 entries per execution), so Create and Wait polled the gateway instead of waiting for callbacks: free custom data entries set earlier in this execution to wait by callback.`,
	);

/** Some items were refused by the node's own checks under continue-on-fail. */
export const refusedItemsHint = (refused: number, items: number) =>
	hint(
		`${refused} of ${items} ${items === 1 ? 'item' : 'items'} ${refused === 1 ? 'was' : 'were'} refused before sending (nothing was sent or charged for ${refused === 1 ? 'it' : 'them'}): each such item's error field names the value to fix, so fix it and run ${refused === 1 ? 'that item' : 'those items'} again.`,
	);

/** Adds hints to the run, where this n8n version supports them (older versions lack the method). */
export function addHints(ctx: IExecuteFunctions, ...hints: NodeExecutionHint[]): void {
	if (hints.length && typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints(...hints);
}
