import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { scoped } from '../descriptions';
import type { OperationModule } from '../types';
import { getOptionsField, taskIdField } from './options';
import { requireTaskId } from './taskId';
import { downloadTaskVideo } from './media';
import { readTask } from '../../../shared/videoTask';

/** The task record as the gateway returns it; the video is downloaded on request when completed. */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const taskId = requireTaskId(this, itemIndex);
	const { download } = this.getNodeParameter('getOptions', itemIndex, {}) as IDataObject;
	const { record } = await readTask(this, taskId, { itemIndex });
	if (!download || record.status !== 'completed') return [{ json: record }];
	return [{ json: record, binary: { data: await downloadTaskVideo(this, itemIndex, record) } }];
}

export const get: OperationModule = {
	description: scoped('video', 'get', [taskIdField, getOptionsField]),
	execute,
};
