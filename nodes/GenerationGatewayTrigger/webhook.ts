import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isTerminalStatus, readCallbackBody, rememberDelivery, secretMatches } from '../shared/videoTask';
import { confirmWithin } from '../shared/confirmWindow';
import { gatewayRequest } from '../shared/transport';
import { gatewayFailureOf } from '../shared/errors';

/** Seconds a callback answered 503 is asked to wait before it is sent again. */
export const TRIGGER_RETRY_AFTER_SECONDS = 30;

/** Answers with a status and a small JSON body, starting nothing; a 503 asks to be called again. */
function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const res = ctx.getResponseObject();
	if (status === 503) res.setHeader('Retry-After', String(TRIGGER_RETRY_AFTER_SECONDS));
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

type Confirmation = IDataObject | { failedWith: number };

/** One confirmation read: the gateway's record, or the HTTP status it failed with (0: no answer). */
async function readTask(
	ctx: IWebhookFunctions,
	taskId: string,
	timeoutMs: number,
	attempts?: number,
): Promise<Confirmation> {
	return await gatewayRequest<IDataObject>(ctx, {
		method: 'GET',
		path: `/v1/videos/${encodeURIComponent(taskId)}`,
		kind: 'read',
		timeoutMs,
		attempts,
	}).then(
		(response) => response.body,
		(error: unknown) => ({ failedWith: gatewayFailureOf(error)?.status ?? 0 }),
	);
}

/**
 * Confirmation windows open in this process, by workflow, node and task:
 * deliveries of one task that arrive while its window is open join it
 * rather than reading on their own (a sender that retries fast, or sends
 * the same callback twice).
 */
const openWindows = new Map<string, Promise<Confirmation>>();

/**
 * The task as the gateway reads it, for a callback claiming a final status:
 * when the first read shows it still running (the gateway's reads may trail
 * its callbacks), read again within the confirmation window. `joined` says
 * this delivery joined a window another delivery of the task opened: that
 * one answers for the workflow start.
 */
async function confirmFinal(
	ctx: IWebhookFunctions,
	taskId: string,
): Promise<{ record: Confirmation; joined: boolean }> {
	const key = `${ctx.getWorkflow().id ?? ''}|${ctx.getNode().id}|${taskId}`;
	const open = openWindows.get(key);
	if (open) return { record: await open, joined: true };
	const window = (async (): Promise<Confirmation> => {
		const first = await readTask(ctx, taskId, 10_000);
		if ('failedWith' in first || isTerminalStatus(first.status)) return first;
		const outcome = await confirmWithin<Confirmation>({
			read: async (timeoutMs) => await readTask(ctx, taskId, timeoutMs, 1),
			isConfirmed: (record) => !('failedWith' in record) && isTerminalStatus(record.status),
		});
		// A read of the window that failed is no news: the last record the gateway gave stands.
		const last = outcome.kind === 'confirmed' ? outcome.value : outcome.last;
		return last && !('failedWith' in last) ? last : first;
	})();
	openWindows.set(key, window);
	try {
		return { record: await window, joined: false };
	} finally {
		if (openWindows.get(key) === window) openWindows.delete(key);
	}
}

/**
 * One callback delivery: secret (401), body shape (400), optional
 * confirmation with the gateway, status filter and duplicate drop (200,
 * ignored), then the workflow starts with the record. A final status the
 * gateway does not show yet is read again within the confirmation window
 * (a few seconds, confirmWindow.ts) before it is answered 503.
 */
export async function handleTaskCallback(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const secret = String(ctx.getNodeParameter('secret', '') ?? '');
	const query = ctx.getQueryData() as IDataObject;
	if (!secretMatches(secret, query.secret)) {
		return answer(ctx, 401, { error: 'Missing or wrong secret' });
	}
	const claim = readCallbackBody(ctx.getBodyData());
	if ('problem' in claim) return answer(ctx, 400, { error: claim.problem });

	// The claimed status is filtered first: a callback we would ignore costs no gateway read.
	const statuses = ctx.getNodeParameter('statuses', []) as string[];
	if (!statuses.includes(claim.status)) {
		return answer(ctx, 200, { received: true, ignored: `status ${claim.status}` });
	}
	let record = claim.record;
	let joined = false;
	if (ctx.getNodeParameter('confirm', true) as boolean) {
		const final = isTerminalStatus(claim.status);
		const confirmation = final
			? await confirmFinal(ctx, claim.id)
			: { record: await readTask(ctx, claim.id, 10_000), joined: false };
		const confirmed = confirmation.record;
		joined = confirmation.joined;
		if ('failedWith' in confirmed) {
			// A task the gateway does not know is refused; a gateway we cannot reach gets a 503 so a
			// retrying sender tries again later.
			const known = confirmed.failedWith === 404;
			return answer(ctx, known ? 404 : 503, {
				error: known
					? `The gateway does not know task ${claim.id}`
					: `Could not confirm task ${claim.id} now`,
			});
		}
		if (confirmed.id !== claim.id) {
			return answer(ctx, 404, { error: `The gateway does not confirm task ${claim.id}` });
		}
		// A final status the gateway does not show yet (its reads may lag behind its callbacks):
		// a 200 would stop the sender's retries and the workflow would never start for it.
		if (final && !isTerminalStatus(confirmed.status)) {
			return answer(ctx, 503, {
				error: `The gateway does not confirm yet that task ${claim.id} is ${claim.status}: it still reads "${String(confirmed.status)}" after a few seconds. Send the callback again later.`,
			});
		}
		record = confirmed;
	}
	// The delivery that opened the window starts the workflow; one that joined it is the same news.
	if (joined) return answer(ctx, 200, { received: true, ignored: 'duplicate delivery' });

	const status = String(record.status);
	if (!statuses.includes(status)) return answer(ctx, 200, { received: true, ignored: `status ${status}` });
	const staticData = ctx.getWorkflowStaticData('node');
	const seen = Array.isArray(staticData.seenDeliveries) ? (staticData.seenDeliveries as string[]) : [];
	staticData.seenDeliveries = seen;
	if (!rememberDelivery(seen, claim.id, status)) {
		return answer(ctx, 200, { received: true, ignored: 'duplicate delivery' });
	}
	return { workflowData: [[{ json: record }]], webhookResponse: { received: true } };
}
