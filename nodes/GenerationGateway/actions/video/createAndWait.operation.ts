import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { waitDeadlineMs } from '../../../shared/polling';
import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { OperationModule } from '../types';
import { startCallbackWait, waitModeFor } from './callbackWait';
import { generationFields } from './fields';
import { createOptionsField, waitOptionsField } from './options';
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
	const deadlineMs = waitDeadlineMs(options.timeoutMinutes as number | undefined);
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
	check: checkVideoBody,
	execute,
	executeAll: startCallbackWait,
};
