import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { startedDeliveries } from '../../../shared/deliveries';
import { isOwnWebhookAddress } from '../../../shared/ownAddress';
import { MAX_WAIT_DEADLINE_MS } from '../../../shared/polling';
import { systemClock } from '../../../shared/time';
import { isTriggerAddress, readTask } from '../../../shared/videoTask';
import { postToN8n, startWatch, watchLog } from '../../../shared/watch';
import { additionalBodyField, readRequestSettings, scoped } from '../descriptions';
import type { OperationModule } from '../types';
import { generationFields } from './fields';
import { createOptionsField } from './options';
import { readVideoBody } from './request';
import { checkVideoBody, createTask } from './task';
import { VIDEO_CALLBACK_URL } from './wireNames';

/**
 * Returns the task at once; never sent twice by the node. A task whose
 * callback address is a Generation Gateway Trigger's on this n8n is watched
 * from this process (shared/watch.ts): should the gateway's final callback not start
 * the trigger's workflow here, the package posts the task's record to it.
 */
async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = await readVideoBody(this, itemIndex);
	const created = await createTask(this, itemIndex, body, readRequestSettings(this, itemIndex).timeoutMs);
	const callbackUrl = body[VIDEO_CALLBACK_URL];
	if (isTriggerAddress(callbackUrl) && isOwnWebhookAddress(this, callbackUrl))
		watchForTrigger(this, itemIndex, created.id, callbackUrl);
	return [{ json: created }];
}

function watchForTrigger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	triggerUrl: string,
): void {
	startWatch({
		taskIds: [taskId],
		until: systemClock.now() + MAX_WAIT_DEADLINE_MS,
		known: () => undefined,
		delivered: () => startedDeliveries.startedFor(taskId),
		read: async (id) => (await readTask(ctx, id, { itemIndex, attempts: 1 })).record,
		deliver: async ([record]) => await postToN8n(ctx, triggerUrl, record, { now: systemClock.now() }),
		log: watchLog(ctx),
	});
}

export const create: OperationModule = {
	description: scoped('video', 'create', [...generationFields, createOptionsField, additionalBodyField]),
	createsPaidWork: true,
	check: checkVideoBody,
	execute,
};
