import { timingSafeEqual } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ConfirmOptions } from './confirmWindow';
import { confirmWithin } from './confirmWindow';
import { retryAfterHeader } from './errors';
import { parseRetryAfter } from './retry';
import type { Clock } from './time';
import { systemClock } from './time';
import type { GatewayContext } from './transport';
import { gatewayRequest } from './transport';
import { RETRY_AFTER_SECONDS } from './waitClocks';

/**
 * What the action node's video operations and the trigger both know about a
 * video task: its statuses and the callback the gateway sends. It lives in
 * shared/ because the trigger is a node of its own and imports nothing from
 * the action node's folders.
 */

export const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled', 'expired'] as const;
export const VIDEO_STATUSES = ['pending', 'queue', 'in_progress', ...TERMINAL_STATUSES] as const;
type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminalStatus(status: unknown): status is TerminalStatus {
	return (TERMINAL_STATUSES as readonly unknown[]).includes(status);
}

/** Where video tasks are created, and read at VIDEO_TASKS_PATH/{id}. */
export const VIDEO_TASKS_PATH = '/v1/videos';

/** A callback's first read of its own task: short, so that the confirmation window fits a sender's timeout. */
export const FIRST_CONFIRMATION_READ_MS = 10_000;

export interface TaskReadOptions {
	/** The item the read is for (named in its error). */
	itemIndex?: number;
	clock?: Clock;
	/** 1 for a caller that schedules its own next try; default: the transport's retries. */
	attempts?: number;
	timeoutMs?: number;
}

/** One read of a task, `GET /v1/videos/{id}`: the gateway's record and its Retry-After hint. */
export async function readTask(
	ctx: GatewayContext,
	taskId: string,
	{ itemIndex, clock = systemClock, attempts, timeoutMs = 60_000 }: TaskReadOptions = {},
): Promise<{ record: IDataObject; retryAfterMs?: number }> {
	const response = await gatewayRequest<IDataObject>(
		ctx,
		{
			method: 'GET',
			path: `${VIDEO_TASKS_PATH}/${encodeURIComponent(taskId)}`,
			kind: 'read',
			timeoutMs,
			itemIndex,
			attempts,
		},
		clock,
	);
	// A record of another task would resume a wait, or start a workflow, with someone else's video.
	const record = response.body;
	if (record?.id !== taskId) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The gateway answered the read of video task ${taskId} with the record of ${JSON.stringify(record?.id ?? null)}`,
			{
				itemIndex,
				description: 'The record was not used. Read the task again later, or ask the gateway operator.',
			},
		);
	}
	return { record, retryAfterMs: parseRetryAfter(retryAfterHeader(response.headers), clock.now()) };
}

/** The window's clock, schedule and cancel signal. */
export type ConfirmFinalOptions = Omit<ConfirmOptions<IDataObject>, 'read' | 'isConfirmed'>;

/**
 * The confirmation of a final status a callback claims, for the trigger and
 * the callback wait: a first read (`read()`, its failure rejects), then, when
 * it does not show the task final, the confirmation window's reads
 * (`read(timeoutMs)`). The first final record, or the last one read when the
 * window passed; a read of the window that fails is no news.
 */
export async function confirmFinal(
	read: (timeoutMs?: number) => Promise<IDataObject>,
	options: ConfirmFinalOptions = {},
): Promise<IDataObject> {
	const first = await read();
	if (isTerminalStatus(first.status)) return first;
	const outcome = await confirmWithin<IDataObject>({
		...options,
		read,
		isConfirmed: (record) => isTerminalStatus(record.status),
	});
	return outcome.kind === 'confirmed' ? outcome.value : (outcome.last ?? first);
}

/**
 * Assumed wire names of the task callback (method and payload are not shown):
 * a POST whose JSON body is the task record, or `{data: <record>}`. The
 * trigger and the callback resume read `id` and `status` from it. Listed in
 * docs/assumed-field-names.md with the video names.
 */
export const VIDEO_CALLBACK_ID = 'id';
/** The trigger's webhook path: its address ends with it, the secret in the query. */
export const TRIGGER_PATH = 'video-task';
export const VIDEO_CALLBACK_STATUS = 'status';

/** Whether a callback address is a Generation Gateway Trigger's (https, its path, a secret). */
export function isTriggerAddress(url: unknown): url is string {
	if (typeof url !== 'string') return false;
	try {
		const address = new URL(url);
		return (
			address.protocol === 'https:' &&
			address.pathname.replace(/\/+$/, '').endsWith(`/${TRIGGER_PATH}`) &&
			address.searchParams.has('secret')
		);
	} catch {
		return false;
	}
}

/*
 * Checks on one delivery of a video task callback, as pure functions that
 * never throw (the trigger turns their verdicts into HTTP answers).
 */

/** Constant-time comparison of the secret a request carries with the configured one. */
export function secretMatches(expected: string, given: unknown): boolean {
	if (!expected || typeof given !== 'string' || !given) return false;
	const a = Buffer.from(expected);
	const b = Buffer.from(given);
	// timingSafeEqual needs equal lengths; comparing a with itself keeps the time flat.
	return a.length === b.length ? timingSafeEqual(a, b) : (timingSafeEqual(a, a), false);
}

export interface CallbackClaim {
	id: string;
	status: string;
	record: IDataObject;
}

/** The task id and status a body claims, or the reason it is not a task callback. */
export function readCallbackBody(body: unknown): CallbackClaim | { problem: string } {
	const outer = body && typeof body === 'object' && !Array.isArray(body) ? (body as IDataObject) : undefined;
	if (!outer) return { problem: 'The body must be a JSON object (the video task record)' };
	const inner =
		outer.data && typeof outer.data === 'object' && !Array.isArray(outer.data)
			? (outer.data as IDataObject)
			: undefined;
	const record = typeof outer[VIDEO_CALLBACK_ID] === 'string' ? outer : (inner ?? outer);
	const id = record[VIDEO_CALLBACK_ID];
	const status = record[VIDEO_CALLBACK_STATUS];
	if (typeof id !== 'string' || !id.trim()) return { problem: '"id" must be a non-empty string' };
	if (typeof status !== 'string' || !(VIDEO_STATUSES as readonly string[]).includes(status)) {
		return { problem: `"status" must be one of ${VIDEO_STATUSES.join(', ')}` };
	}
	return { id, status, record };
}

/** Answers a callback with a status and a small JSON body, starting nothing; a 503 asks to be called again. */
export function answerCallback(
	ctx: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = ctx.getResponseObject();
	if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
	res.status(status).json(body);
	return { noWebhookResponse: true };
}
