import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { OperationModule } from '../types';
import {
	handleVideoCallback,
	startCallbackWait,
	videoCallbackWebhooks,
	waitModeFor,
} from './wait/callbackWait';
import { generationFields } from './fields';
import { createOptionsField, readWaitDeadlineMs, waitOptionsField } from './options';
import { readVideoBody } from './request';
import { checkVideoBody, createTask, finishedItem, waitForTask } from './task';

/**
 * Create, then wait until the task is terminal: by callback (callbackWait.ts,
 * the whole node at once, through the router's `executeAll`) or, item by
 * item here, by polling. The create is never repeated: a timeout or a
 * failure after it names the task id.
 */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = await readVideoBody(this, itemIndex);
	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	const deadlineMs = readWaitDeadlineMs(this, itemIndex);
	const created = await createTask(this, itemIndex, body, readRequestSettings(this, itemIndex).timeoutMs);
	const { record, info } = await waitForTask(this, itemIndex, created.id, { deadlineMs, pollFirst: false });
	const { fallback } = waitModeFor(this, itemIndex);
	return [
		await finishedItem(this, itemIndex, record, {
			download: options.download === true,
			info: fallback ? { ...info, fallback } : info,
		}),
	];
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
	executeAll: startCallbackWait,
	webhooks: videoCallbackWebhooks,
	webhook: handleVideoCallback,
};
