import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { ItemResult, OperationModule } from '../types';
import { handleVideoCallback, runWaitMode, settleByCallback, videoCallbackWebhooks } from './wait/callbackWait';
import { settleByPolling } from './wait/pollingWait';
import { generationFields } from './fields';
import { createOptionsField, readWaitDeadlineMs, waitOptionsField } from './options';
import { readVideoBody } from './request';
import { checkVideoBody, createTask } from './task';
import { VIDEO_CALLBACK_URL } from './wireNames';

/**
 * Create, then wait until the task is terminal. The router runs `execute`
 * for every item (the creates, at most Max Concurrent Requests at once),
 * then `settle` once for the whole batch: by callback (wait/callbackWait.ts,
 * the execution waits with no worker held) or by polling every task at once
 * (wait/pollingWait.ts). The create is never repeated: a timeout or a
 * failure after it names the task id.
 */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = await readVideoBody(this, itemIndex);
	const { mode, resumeUrl } = runWaitMode(this);
	const sent = mode === 'callback' ? { ...body, [VIDEO_CALLBACK_URL]: resumeUrl } : body;
	return [{ json: await createTask(this, itemIndex, sent, readRequestSettings(this, itemIndex).timeoutMs) }];
}

async function settle(ctx: IExecuteFunctions, results: ItemResult[]): Promise<ItemResult[]> {
	const { mode, reason, fallback } = runWaitMode(ctx);
	if (mode === 'callback') return await settleByCallback(ctx, results, reason);
	return await settleByPolling(ctx, results, { readFirst: false, reason, fallback });
}

export const createAndWait: OperationModule = {
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
	execute,
	settle,
	webhooks: videoCallbackWebhooks,
	webhook: handleVideoCallback,
};
