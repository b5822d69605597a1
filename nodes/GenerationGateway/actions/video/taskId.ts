import type { IExecuteFunctions } from 'n8n-workflow';

import { refusal } from '../../../shared/validation';

/** The "Task ID" field, trimmed; an empty one is refused before any request. */
export function requireTaskId(ctx: IExecuteFunctions, itemIndex: number): string {
	const taskId = String(ctx.getNodeParameter('taskId', itemIndex, '') ?? '').trim();
	if (!taskId)
		throw refusal(ctx.getNode(), 'Task ID', 'must not be empty (use the id that Create returned)', itemIndex);
	return taskId;
}
