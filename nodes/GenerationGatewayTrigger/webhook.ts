import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { joinOrOpen, notConfirmedYet } from '../shared/confirmWindow';
import { gatewayFailureOf } from '../shared/errors';
import type { CallbackClaim } from '../shared/videoTask';
import {
	FIRST_CONFIRMATION_READ_MS,
	answerCallback,
	confirmFinal,
	isTerminalStatus,
	readCallbackBody,
	readTask,
	secretMatches,
} from '../shared/videoTask';
import { deliveryKey, startedDeliveries } from '../shared/deliveries';

type Confirmation = IDataObject | { failedWith: number };

/** What one delivery comes to: a workflow start with the record, or an answer that starts nothing. */
type Outcome = { start: IDataObject } | { status: number; body: IDataObject };

/**
 * The gateway's record of a claimed task (a final status confirmed within the
 * confirmation window), or the HTTP status its first read failed with (0: no answer).
 */
async function confirmClaim(ctx: IWebhookFunctions, claim: CallbackClaim): Promise<Confirmation> {
	const read = async (timeoutMs?: number) => {
		const options =
			timeoutMs === undefined ? { timeoutMs: FIRST_CONFIRMATION_READ_MS } : { timeoutMs, attempts: 1 };
		return (await readTask(ctx, claim.id, options)).record;
	};
	return await (isTerminalStatus(claim.status) ? confirmFinal(read) : read()).catch((error: unknown) => ({
		failedWith: gatewayFailureOf(error)?.status ?? 0,
	}));
}

/** The gateway's word on a claim (with Confirm on), or the claim itself. */
async function judge(ctx: IWebhookFunctions, claim: CallbackClaim, statuses: string[]): Promise<Outcome> {
	if (!(ctx.getNodeParameter('confirm', true) as boolean)) return { start: claim.record };
	const final = isTerminalStatus(claim.status);
	const confirmed = await confirmClaim(ctx, claim);
	if ('failedWith' in confirmed) {
		// A task the gateway does not know is refused; a gateway we cannot reach gets a 503 so a
		// retrying sender tries again later.
		return confirmed.failedWith === 404
			? { status: 404, body: { error: `The gateway does not know task ${claim.id}` } }
			: { status: 503, body: { error: `Could not confirm task ${claim.id} now` } };
	}
	// A 200 would stop the sender's retries and the workflow would never start for this news.
	if (final && !isTerminalStatus(confirmed.status)) {
		return { status: 503, body: { error: notConfirmedYet(claim.id, claim.status, confirmed.status) } };
	}
	if (!statuses.includes(String(confirmed.status))) {
		return { status: 200, body: { received: true, ignored: `status ${String(confirmed.status)}` } };
	}
	return { start: confirmed };
}

/** Deliveries of one task and status being judged now in this process: the ones that come meanwhile join. */
const judging = new Map<string, Promise<Outcome>>();

/**
 * One callback delivery: secret (401), body shape (400), status filter (200,
 * ignored), then the gateway's confirmation and the duplicate drop; the first
 * delivery of a task's status starts the workflow with the record. Deliveries
 * of the same news that arrive while it is judged share its outcome.
 */
export async function handleTaskCallback(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const secret = String(ctx.getNodeParameter('secret', '') ?? '');
	if (!secretMatches(secret, (ctx.getQueryData() as IDataObject).secret)) {
		return answerCallback(ctx, 401, { error: 'Missing or wrong secret' });
	}
	const claim = readCallbackBody(ctx.getBodyData());
	if ('problem' in claim) return answerCallback(ctx, 400, { error: claim.problem });
	// The claimed status is filtered first: a callback we would ignore costs no gateway read.
	const statuses = ctx.getNodeParameter('statuses', []) as string[];
	if (!statuses.includes(claim.status)) {
		return answerCallback(ctx, 200, { received: true, ignored: `status ${claim.status}` });
	}
	const key = (status: string) => deliveryKey(ctx.getWorkflow().id, ctx.getNode().id, claim.id, status);
	const duplicate = { received: true, ignored: 'duplicate delivery' };
	if (startedDeliveries.has(key(claim.status))) return answerCallback(ctx, 200, duplicate);

	const { value: outcome, joined } = await joinOrOpen(
		judging,
		key(claim.status),
		async () => await judge(ctx, claim, statuses),
	);
	if (!('start' in outcome)) return answerCallback(ctx, outcome.status, outcome.body);
	const status = String(outcome.start.status);
	if (joined || !startedDeliveries.claim(key(status), isTerminalStatus(status) ? claim.id : undefined)) {
		return answerCallback(ctx, 200, duplicate);
	}
	return { workflowData: [[{ json: outcome.start }]], webhookResponse: { received: true } };
}
