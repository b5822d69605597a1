import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { OperationModule } from '../types';
import { generationFields } from './fields';
import { createOptionsField } from './options';
import { readVideoBody } from './request';
import { checkVideoBody, createTask } from './task';

/** Returns the task at once; never sent twice by the node. */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = await readVideoBody(this, itemIndex);
	const created = await createTask(this, itemIndex, body, readRequestSettings(this, itemIndex).timeoutMs);
	return [{ json: created }];
}

export const create: OperationModule = {
	description: scoped('video', 'create', [...generationFields, createOptionsField, additionalBodyField]),
	createsPaidWork: true,
	check: checkVideoBody,
	execute,
};
