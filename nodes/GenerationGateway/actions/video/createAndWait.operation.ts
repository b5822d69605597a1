import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { ItemResult, OperationModule } from '../types';
import { handleVideoCallback, videoCallbackWebhooks } from './wait/callback/answer';
import type { WaitPlan } from './wait/plan';
import { planWait } from './wait/plan';
import { settleByPolling } from './wait/polling';
import { settleByCallback } from './wait/callback/start';
import { generationFields } from './fields';
import { createOptionsField, readWaitDeadlineMs, waitOptionsField } from './options';
import { readVideoBody } from './request';
import { checkVideoBody, createTask } from './task';
import { VIDEO_CALLBACK_URL } from './wireNames';

/**
 * Create, then wait until the task is terminal. The router asks `plan` once
 * how the run waits (wait/plan.ts), runs `execute` for every item (the
 * creates, with the wait's own address as callback address when it waits by
 * callback), then `settle` once for the whole batch: by callback
 * (wait/callback/start.ts; the callbacks are answered by
 * wait/callback/answer.ts) or by polling every task at once
 * (wait/polling.ts). The create is never repeated: a timeout or a failure
 * after it names the task id.
 */
async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	wait: WaitPlan,
): Promise<INodeExecutionData[]> {
	const body = await readVideoBody(this, itemIndex);
	const sent = wait.mode === 'callback' ? { ...body, [VIDEO_CALLBACK_URL]: wait.callbackUrl } : body;
	return [{ json: await createTask(this, itemIndex, sent, readRequestSettings(this, itemIndex).timeoutMs) }];
}

async function settle(ctx: IExecuteFunctions, results: ItemResult[], wait: WaitPlan): Promise<ItemResult[]> {
	if (wait.mode === 'callback') return await settleByCallback(ctx, results, wait);
	return await settleByPolling(ctx, results, {
		readFirst: false,
		reason: wait.reason,
		fallback: wait.fallback,
	});
}

export const createAndWait: OperationModule<WaitPlan> = {
	description: scoped('video', 'createAndWait', [
		...generationFields,
		createOptionsField,
		waitOptionsField(true),
		additionalBodyField,
	]),
	createsPaidWork: true,
	// The wait's settings are checked with the body: a bad Wait Timeout refuses the item before any create.
	async check(this: IExecuteFunctions, itemIndex: number) {
		await checkVideoBody.call(this, itemIndex);
		readWaitDeadlineMs(this, itemIndex);
	},
	plan: planWait,
	execute,
	settle,
	webhooks: videoCallbackWebhooks,
	webhook: handleVideoCallback,
};
