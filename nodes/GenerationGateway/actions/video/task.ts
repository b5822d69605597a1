import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sendableBody } from '../../../shared/base64Payload';
import { gatewayRequest } from '../../../shared/transport';
import { VIDEO_TASKS_PATH } from '../../../shared/videoTask';
import { noteCreatedTask } from '../paidWork';
import { downloadTaskVideo } from './media';
import { readRequestSettings } from '../descriptions';
import { readVideoBody } from './request';
import type { WaitInfo } from './waitInfo';

/** Task steps shared by the video operations; every failure names the task id, for Wait for Completion. */

export interface CreationResult extends IDataObject {
	id: string;
	status: string;
	polling_url: string;
}

export const VIDEO_MAYBE_CREATED =
	"A task may exist and be charged: look it up before creating another (the gateway's task list, or Video → Get with its ID if you have one). If it exists, Video → Wait for Completion with its ID gives its video.";

/** Only from an answer shaped as a creation result: an `id` alone could name a request or an error. */
export function taskIdInAnswer(answer: unknown): string | undefined {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
	const { id, status, polling_url: pollingUrl } = answer as IDataObject;
	if (typeof id !== 'string' || !id.trim()) return undefined;
	const isCreation = status === 'pending' || status === 'queue' || typeof pollingUrl === 'string';
	return isCreation ? id : undefined;
}

/** What to run for a task whose wait ended without its final status. */
export function pickUpAdvice(taskId: string): string {
	return `use Video → Wait for Completion with task ID ${taskId} to pick it up.`;
}

export function limitText(deadlineMs: number): string {
	return deadlineMs >= 60_000
		? `${Math.round(deadlineMs / 6000) / 10} min`
		: `${Math.round(deadlineMs / 100) / 10} s`;
}

export function videoMaybeCreated(answer: unknown): string {
	const id = taskIdInAnswer(answer);
	if (id === undefined) return VIDEO_MAYBE_CREATED;
	return `The gateway's answer names task ${id}: it may exist and be charged. Use Video → Wait for Completion with task ID ${id} to get its video (Video → Get shows its status) instead of creating another.`;
}

export async function createTask(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	timeoutMs: number,
): Promise<CreationResult> {
	const { body: created } = await gatewayRequest<CreationResult>(ctx, {
		method: 'POST',
		path: VIDEO_TASKS_PATH,
		body: sendableBody(body),
		kind: 'create',
		timeoutMs,
		itemIndex,
		ifMaybeCharged: videoMaybeCreated,
	});
	if (!created || typeof created.id !== 'string' || !created.id) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The gateway accepted the video task but returned no task id',
			{
				itemIndex,
				description: `Answer: ${JSON.stringify(created)}. Check the gateway's task list before creating it again.`,
			},
		);
	}
	noteCreatedTask(ctx, itemIndex, created.id);
	return created;
}

/** The router's check before any create; the body is dropped, not to hold the batch's media in memory. */
export async function checkVideoBody(this: IExecuteFunctions, itemIndex: number): Promise<void> {
	await readVideoBody(this, itemIndex);
	// A bad timeout must not refuse an item after others were created.
	readRequestSettings(this, itemIndex);
}

export async function finishedItem(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex: number,
	record: IDataObject,
	options: { download: boolean; info?: WaitInfo },
): Promise<INodeExecutionData> {
	const id = String(record.id ?? '');
	if (record.status !== 'completed') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Video task ${id} ended with status "${String(record.status)}"`,
			{
				itemIndex,
				description: `The gateway's record of the task, read with GET /v1/videos/${id}: ${JSON.stringify(record)}`,
			},
		);
	}
	const json: IDataObject = options.info ? { ...record, waitInfo: options.info } : { ...record };
	if (!options.download) return { json };
	return { json, binary: { data: await downloadTaskVideo(ctx, itemIndex, record) } };
}
