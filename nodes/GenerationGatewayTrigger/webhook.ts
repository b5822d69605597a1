import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isTerminalStatus, readCallbackBody, rememberDelivery, secretMatches } from '../shared/videoTask';
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

/**
 * One callback delivery: secret (401), body shape (400), optional
 * confirmation with the gateway, status filter and duplicate drop (200,
 * ignored), then the workflow starts with the record. Everything is answered
 * within one gateway read at most.
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
	if (ctx.getNodeParameter('confirm', true) as boolean) {
		const confirmed = await gatewayRequest<IDataObject>(ctx, {
			method: 'GET',
			path: `/v1/videos/${encodeURIComponent(claim.id)}`,
			kind: 'read',
			timeoutMs: 10_000,
		}).then(
			(response) => response.body,
			(error: unknown) => ({ failedWith: gatewayFailureOf(error)?.status ?? 0 }),
		);
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
		if (isTerminalStatus(claim.status) && !isTerminalStatus(confirmed.status)) {
			return answer(ctx, 503, {
				error: `The gateway does not confirm yet that task ${claim.id} is ${claim.status}: it reads "${String(confirmed.status)}". Send the callback again later.`,
			});
		}
		record = confirmed;
	}

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
