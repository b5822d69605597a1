import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { scoped } from '../descriptions';
import type { ItemResult, OperationModule } from '../types';
import { readWaitDeadlineMs, taskIdField, waitOptionsField } from './options';
import { requireTaskId } from './taskId';
import { settleByPolling } from './wait/polling';

/** `execute` checks each item's task ID and settings; `settle` polls all the tasks at once. */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = requireTaskId(this, itemIndex);
	readWaitDeadlineMs(this, itemIndex);
	return [{ json: { id } }];
}

async function settle(ctx: IExecuteFunctions, results: ItemResult[]): Promise<ItemResult[]> {
	return await settleByPolling(ctx, results, { readFirst: true });
}

export const waitForCompletion: OperationModule = {
	description: scoped('video', 'waitForCompletion', [taskIdField, waitOptionsField(false)]),
	execute,
	settle,
};
