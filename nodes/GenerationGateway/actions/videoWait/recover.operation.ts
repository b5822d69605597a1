import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../../shared/concurrency';
import { N8N_API_CREDENTIAL } from '../../../shared/credentials';
import { systemClock } from '../../../shared/time';
import { RECHECKS_AT_ONCE, RECHECK_POST_MS } from '../../../shared/waitClocks';
import { printableUrl } from '../../../shared/urls';
import { readRequestSettings, scoped } from '../descriptions';
import type { OperationModule } from '../types';
import type { LeftWait, RecheckOutcome } from '../video/wait/callback/recover';
import {
	RECHECK_BODY,
	insideAddress,
	leftWaitOf,
	notePass,
	recheckOutcome,
} from '../video/wait/callback/recover';

/**
 * One pass over n8n's waiting executions (wait/callback/recover.ts says why):
 * every video wait found is asked to check its tasks, a few at a time, at its
 * own address as n8n reaches it from inside. Run by a Schedule Trigger.
 */

/** Executions per page of n8n's list (each with its data). */
const PAGE_SIZE = 50;
/** A pass reads at most this many pages: 5,000 waiting executions. */
const MAX_PAGES = 100;

const description = scoped('videoWait', 'recover', [
	{
		displayName:
			'Run this on a Schedule Trigger (every minute). Each run finds the Create and Wait nodes that wait by callback in n8n\'s waiting executions and asks each to check its tasks: a wait whose tasks are all final resumes with its videos, once. This finishes waits that a restart, a stopped worker or callbacks lost while n8n was down left behind. It needs the "Generation Gateway (Recover Waits) API" credential: n8n\'s own address from inside and an API key of n8n.',
		name: 'recoverNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Workflow ID',
		name: 'recoverWorkflowId',
		type: 'string',
		default: '',
		description: "Only this workflow's waiting executions; empty: every workflow's",
	},
]);

interface Listed {
	data?: unknown[];
	nextCursor?: string | null;
}

async function listPage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{
		base,
		cursor,
		workflowId,
		timeoutMs,
		insecure,
	}: { base: string; cursor?: string; workflowId: string; timeoutMs: number; insecure: boolean },
): Promise<Listed> {
	try {
		return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, N8N_API_CREDENTIAL, {
			method: 'GET',
			url: `${base}/api/v1/executions`,
			qs: {
				status: 'waiting',
				includeData: true,
				limit: PAGE_SIZE,
				...(cursor ? { cursor } : {}),
				...(workflowId ? { workflowId } : {}),
			},
			json: true,
			timeout: timeoutMs,
			skipSslCertificateValidation: insecure,
		})) as Listed;
	} catch (error) {
		const message = `Could not list n8n's waiting executions at ${printableUrl(`${base}/api/v1/executions`)}`;
		const description =
			"Check the Generation Gateway (Recover Waits) API credential: its address must be how n8n reaches itself from inside (e.g. http://localhost:5678, or the service name between containers), n8n's public API must be on (N8N_PUBLIC_API_DISABLED unset), and the API key an owner's or admin's.";
		const failed = new NodeApiError(ctx.getNode(), error as JsonObject, { itemIndex, message, description });
		// NodeApiError may put a generic message in place of ours for known status codes.
		failed.message = `${message}: ${(error as Error).message}`;
		failed.description = description;
		throw failed;
	}
}

/** One wait's recheck, as the recovery's output names it. */
interface Rechecked extends IDataObject {
	executionId: string;
	workflowId: string;
	node: string;
	taskIds: string[];
	outcome: RecheckOutcome;
	/** What n8n or the wait answered, in words. */
	answer: string;
}

async function recheck(
	ctx: IExecuteFunctions,
	wait: LeftWait,
	{ base, timeoutMs, insecure }: { base: string; timeoutMs: number; insecure: boolean },
): Promise<Rechecked> {
	const { executionId, workflowId, node, taskIds } = wait;
	const seen = { executionId, workflowId, node, taskIds };
	try {
		const response = (await ctx.helpers.httpRequest({
			method: 'POST',
			url: insideAddress(wait.address, base),
			body: RECHECK_BODY,
			json: true,
			timeout: timeoutMs,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			skipSslCertificateValidation: insecure,
		})) as { statusCode?: number; body?: unknown };
		const status = Number(response.statusCode ?? 0);
		const said =
			typeof response.body === 'object' ? JSON.stringify(response.body) : String(response.body ?? '');
		return {
			...seen,
			outcome: recheckOutcome(status, response.body),
			answer: `HTTP ${status} ${said}`.slice(0, 300),
		};
	} catch (error) {
		return { ...seen, outcome: 'try again', answer: `no answer: ${(error as Error).message}` };
	}
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	notePass(systemClock.now());
	const credentials = await this.getCredentials(N8N_API_CREDENTIAL, itemIndex);
	const base = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const insecure = credentials.ignoreSslIssues === true;
	const workflowId = String(this.getNodeParameter('recoverWorkflowId', itemIndex, '') ?? '').trim();
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const waits: LeftWait[] = [];
	let waiting = 0;
	let cursor: string | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const listed = await listPage(this, itemIndex, { base, cursor, workflowId, timeoutMs, insecure });
		const executions = Array.isArray(listed.data) ? listed.data : [];
		waiting += executions.length;
		for (const execution of executions) {
			const wait = leftWaitOf(execution);
			if (wait) waits.push(wait);
		}
		cursor = typeof listed.nextCursor === 'string' && listed.nextCursor ? listed.nextCursor : undefined;
		if (!cursor) break;
	}
	const rechecked = await mapWithConcurrency(
		waits.length,
		RECHECKS_AT_ONCE,
		async (index) =>
			await recheck(this, waits[index], { base, timeoutMs: Math.min(timeoutMs, RECHECK_POST_MS), insecure }),
	);
	const count = (outcome: RecheckOutcome) => rechecked.filter((wait) => wait.outcome === outcome).length;
	return [
		{
			json: {
				executionsWaiting: waiting,
				videoWaits: waits.length,
				resumed: count('resumed'),
				tasksRunning: count('tasks running'),
				tryAgain: count('try again'),
				waits: rechecked,
			},
		},
	];
}

export const recover: OperationModule = {
	description,
	execute,
};
