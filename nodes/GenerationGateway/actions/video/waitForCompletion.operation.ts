import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { scoped } from '../descriptions';
import type { OperationModule } from '../types';
import { readWaitDeadlineMs, taskIdField, waitOptionsField } from './options';
import { requireTaskId } from './taskId';
import { finishedItem, waitForTask } from './task';

/** Waits (by polling) for an existing task, e.g. after Create or after a timed-out Create and Wait. */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const taskId = requireTaskId(this, itemIndex);
	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	const { record, info } = await waitForTask(this, itemIndex, taskId, {
		deadlineMs: readWaitDeadlineMs(this, itemIndex),
		pollFirst: true,
	});
	return [await finishedItem(this, itemIndex, record, { download: options.download === true, info })];
}

export const waitForCompletion: OperationModule = {
	description: scoped('video', 'waitForCompletion', [taskIdField, waitOptionsField(false)]),
	execute,
};
