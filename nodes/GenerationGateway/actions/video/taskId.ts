import type { IExecuteFunctions } from 'n8n-workflow';

import { refusal } from '../../../shared/validation';

export function requireTaskId(ctx: IExecuteFunctions, itemIndex: number): string {
	const taskId = String(ctx.getNodeParameter('taskId', itemIndex, '') ?? '').trim();
	if (!taskId)
		throw refusal(ctx.getNode(), 'Task ID', 'must not be empty (use the id that Create returned)', itemIndex);
	return taskId;
}
