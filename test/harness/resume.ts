/**
 * Calls a node's `webhook()` in-process the way n8n's webhook server does
 * (the CLI's webhook-helpers.ts and waiting-webhooks.ts are not installable
 * here): a real n8n-core WebhookContext over the built package, with an
 * express-like request and response, the workflow's static data kept between
 * calls, and credentials through the harness's credentials helper.
 *
 * Builds on engine.ts: a `workflowData` answer can then be run with
 * `runWorkflow(json, { startNode: <trigger>, input: workflowData[0], mode: 'webhook' })`,
 * since n8n-core passes a webhook node's input through as its output.
 *
 * `deliverToWaiting` / `WaitingWebhookServer` (below) resume `waiting`
 * executions the way n8n's waiting-webhook route does.
 */
import type {
	IDataObject,
	INode,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError, Workflow } from 'n8n-workflow';
import { WebhookContext, WorkflowExecute } from 'n8n-core';

import type { HttpsReceiver, ReceivedRequest } from '../simulator/video/https';
import { startHttpsReceiver } from '../simulator/video/https';

import type { WorkflowJson } from './additional-data';
import { buildAdditionalData, toWorkflowBase } from './additional-data';
import { ensureContainer } from './container';
import type { CredentialsByType } from './credentials-helper';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { RunResult } from './engine';
import { toResult } from './engine';
import { HarnessNodeTypes } from './node-types';

export interface WebhookCall {
	method?: 'GET' | 'POST';
	query?: Record<string, string>;
	body?: unknown;
	headers?: Record<string, string>;
	credentials?: CredentialsByType;
	/** Static data of the workflow, shared between calls (pass the one a previous call returned). */
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
	/** For a waiting execution: its data, as the resume call receives it. */
	runExecutionData?: IRunExecutionData;
	executionId?: string;
}

export interface WebhookAnswer {
	/** What webhook() returned. */
	result: IWebhookResponseData;
	/** What the node wrote to the response itself (noWebhookResponse), if anything. */
	response?: { status: number; body: unknown };
	staticData: IDataObject;
}

let typesPromise: Promise<HarnessNodeTypes> | undefined;

function fakeResponse() {
	const written: { status: number; body?: unknown; ended: boolean } = { status: 200, ended: false };
	const res = {
		statusCode: 200,
		headersSent: false,
		status(code: number) {
			written.status = code;
			res.statusCode = code;
			return res;
		},
		json(body: unknown) {
			written.body = body;
			written.ended = true;
			return res;
		},
		send(body: unknown) {
			written.body = body;
			written.ended = true;
			return res;
		},
		end(body?: unknown) {
			if (body !== undefined) written.body = body;
			written.ended = true;
			return res;
		},
		setHeader: () => res,
		header: () => res,
	};
	return { res, written };
}

/** Calls `webhook()` of `nodeName` in `workflowJson` with one request. */
export async function callWebhook(
	workflowJson: WorkflowJson,
	nodeName: string,
	call: WebhookCall = {},
): Promise<WebhookAnswer> {
	await ensureContainer();
	typesPromise ??= HarnessNodeTypes.load();
	const types = await typesPromise;
	const base = toWorkflowBase(workflowJson);
	const staticData = call.staticData ?? {};
	const workflow = new Workflow({
		id: base.id,
		name: base.name,
		nodes: base.nodes,
		connections: base.connections,
		active: true,
		nodeTypes: types,
		settings: base.settings,
		staticData,
	});
	const node = workflow.getNode(nodeName) as INode;
	const nodeType = types.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.find(
		(w) => (w.httpMethod ?? 'POST') === (call.method ?? 'POST'),
	);
	const mode = call.mode ?? 'webhook';
	const additionalData = buildAdditionalData({
		executionId: call.executionId ?? 'webhook-call',
		mode,
		workflow: base,
		credentialsHelper: new HarnessCredentialsHelper(types, { ...call.credentials }),
		instanceBaseUrl: 'http://localhost:5678',
	});
	const { res, written } = fakeResponse();
	additionalData.httpRequest = {
		method: call.method ?? 'POST',
		body: call.body,
		query: call.query ?? {},
		headers: call.headers ?? { 'content-type': 'application/json' },
		params: {},
		rawBody: Buffer.from(JSON.stringify(call.body ?? '')),
	} as unknown as typeof additionalData.httpRequest;
	additionalData.httpResponse = res as unknown as typeof additionalData.httpResponse;
	const webhookData: IWebhookData = {
		httpMethod: call.method ?? 'POST',
		node: node.name,
		path: String(description?.path ?? ''),
		webhookDescription: description!,
		workflowId: base.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		mode,
		webhookData,
		[],
		call.runExecutionData ?? null,
	);
	const result = await nodeType.webhook!.call(context);
	return {
		result,
		response: written.ended ? { status: written.status, body: written.body } : undefined,
		staticData: workflow.staticData as IDataObject,
	};
}

/* ------------------------------------------------------------------------ */
/* Waiting executions: what n8n's waiting-webhook route does (the CLI's      */
/* waiting-webhooks.ts getWebhookExecutionData + webhook-helpers.ts          */
/* executeWebhook), over a saved `waiting` RunResult.                        */
/* ------------------------------------------------------------------------ */

export interface WaitingRequest {
	method?: 'GET' | 'POST';
	/** Path after `/webhook-waiting/<executionId>` (n8n's "suffix"), '' by default. */
	suffix?: string;
	query?: Record<string, string>;
	body?: unknown;
	headers?: Record<string, string>;
}

export interface WaitingAnswer {
	/** The HTTP answer n8n would send to the caller. */
	status: number;
	body: unknown;
	/** The execution after this request: the same `waiting` result, or the resumed run's end. */
	execution: RunResult;
	resumed: boolean;
}

export interface ResumeOptions {
	credentials?: CredentialsByType;
	/** Must equal the run's, so `$execution.resumeUrl` stays the same; default http://localhost:5678. */
	instanceBaseUrl?: string;
}

/**
 * Delivers one request to the waiting node's restart webhook. As n8n does:
 * the execution is loaded afresh (a deep copy: nothing of a request that does
 * not resume is kept), the waiting node is disabled, waitTill cleared and the
 * node's last run dropped before `webhook()` runs in a real WebhookContext.
 * `workflowData` resumes the execution with n8n-core's WorkflowExecute, the
 * node's output replaced by it; otherwise the execution stays waiting.
 */
export async function deliverToWaiting(
	waiting: RunResult,
	request: WaitingRequest,
	options: ResumeOptions = {},
): Promise<WaitingAnswer> {
	const keep = (status: number, body: unknown): WaitingAnswer => ({
		status,
		body,
		execution: waiting,
		resumed: false,
	});
	if (waiting.status !== 'waiting')
		return keep(409, { message: `The execution "${waiting.executionId}" has finished already.` });
	const data = structuredClone(waiting.runExecutionData);
	if (data.resumeToken && request.query?.signature !== data.resumeToken)
		return keep(401, { error: 'Invalid token' });
	const lastNodeExecuted = String(data.resultData.lastNodeExecuted);
	data.executionData!.nodeExecutionStack[0].node.disabled = true;
	data.waitTill = undefined;
	data.resultData.runData[lastNodeExecuted]?.pop();

	await ensureContainer();
	typesPromise ??= HarnessNodeTypes.load();
	const types = await typesPromise;
	const { workflow } = waiting;
	const node = workflow.getNode(lastNodeExecuted) as INode;
	const nodeType = types.getByNameAndVersion(node.type, node.typeVersion);
	const method = request.method ?? 'POST';
	const description = nodeType.description.webhooks?.find(
		(w) =>
			w.restartWebhook === true && w.httpMethod === method && String(w.path ?? '') === (request.suffix ?? ''),
	);
	if (!description || !nodeType.webhook) {
		return keep(404, {
			message: `The workflow for execution "${waiting.executionId}" does not contain a waiting webhook with a matching path/method.`,
		});
	}
	const credentialsHelper = new HarnessCredentialsHelper(types, { ...options.credentials });
	const base = {
		id: workflow.id,
		name: workflow.name ?? 'Harness workflow',
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
	};
	const mode = waiting.run.mode;
	const additional = () =>
		buildAdditionalData({
			executionId: waiting.executionId,
			mode,
			workflow: toWorkflowBase(base),
			credentialsHelper,
			instanceBaseUrl: options.instanceBaseUrl ?? 'http://localhost:5678',
		});
	const additionalData = additional();
	const { res, written } = fakeResponse();
	additionalData.httpRequest = {
		method,
		body: request.body,
		query: request.query ?? {},
		headers: request.headers ?? { 'content-type': 'application/json' },
		params: {},
		rawBody: Buffer.from(JSON.stringify(request.body ?? '')),
	} as unknown as typeof additionalData.httpRequest;
	additionalData.httpResponse = res as unknown as typeof additionalData.httpResponse;
	const webhookData: IWebhookData = {
		httpMethod: method,
		node: node.name,
		path: String(description.path ?? ''),
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	let result: IWebhookResponseData;
	try {
		const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], data);
		result = await nodeType.webhook.call(context);
	} catch (error) {
		// n8n answers 500 and keeps the execution waiting (invokeWebhook's `failed`).
		return keep(500, { message: (error as Error).message });
	}
	if (result.workflowData === undefined) {
		if (written.ended) return keep(written.status, written.body);
		return keep(200, result.webhookResponse ?? { message: 'Webhook call received' });
	}
	const entry = data.executionData!.nodeExecutionStack[0];
	entry.data.main = result.workflowData;
	entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
	const order: string[] = [];
	const runData = additional();
	runData.hooks?.addHandler('nodeExecuteAfter', (nodeName) => {
		order.push(nodeName);
	});
	const run = await new WorkflowExecute(runData, mode, data).processRunExecutionData(workflow);
	return {
		status: written.ended ? written.status : 200,
		body: written.ended ? written.body : { message: 'Workflow was started' },
		execution: toResult(run, workflow, waiting.executionId, order),
		resumed: true,
	};
}

export interface WaitingServerDelivery {
	executionId: string;
	status: number;
	body: unknown;
	request: unknown;
	resumed: boolean;
	/** Time spent answering (webhook() and, when it resumed, the rest of the run). */
	ms: number;
}

/**
 * An https stand-in for n8n's `/webhook-waiting/` route (the test-only
 * self-signed certificate of the simulator): its `url` is the instance base
 * URL to run workflows with, so `$execution.resumeUrl` is https and points
 * here. `track()` a waiting RunResult; requests for it go to
 * `deliverToWaiting`, one at a time per execution (n8n answers 409 while a
 * resumed execution runs); `finished()` settles with the resumed run's end.
 */
export class WaitingWebhookServer {
	readonly deliveries: WaitingServerDelivery[] = [];

	private readonly executions = new Map<
		string,
		{ result: RunResult; busy: boolean; settle: Array<(r: RunResult) => void> }
	>();

	private constructor(
		private readonly receiver: HttpsReceiver,
		private readonly credentials: CredentialsByType,
	) {}

	static async start(credentials: CredentialsByType): Promise<WaitingWebhookServer> {
		let server: WaitingWebhookServer | undefined;
		const receiver = await startHttpsReceiver(async (request) => await server!.receive(request));
		server = new WaitingWebhookServer(receiver, credentials);
		return server;
	}

	get url(): string {
		return this.receiver.url;
	}

	track(result: RunResult): void {
		this.executions.set(result.executionId, { result, busy: false, settle: [] });
	}

	/** The execution's end once it is no longer waiting (rejects after `timeoutMs`). */
	async finished(executionId: string, timeoutMs = 10_000): Promise<RunResult> {
		const entry = this.executions.get(executionId);
		if (!entry) throw new UserError(`Execution ${executionId} is not tracked`);
		if (entry.result.status !== 'waiting') return entry.result;
		return await new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new UserError(`Execution ${executionId} still waiting after ${timeoutMs} ms`)),
				timeoutMs,
			);
			entry.settle.push((result) => {
				clearTimeout(timer);
				resolve(result);
			});
		});
	}

	async stop(): Promise<void> {
		await this.receiver.stop();
	}

	private async receive(request: ReceivedRequest): Promise<{ status: number; body?: unknown }> {
		const match = /^\/webhook-waiting\/([^/]+)(?:\/(.*))?$/.exec(request.path);
		const entry = match ? this.executions.get(decodeURIComponent(match[1])) : undefined;
		const started = Date.now();
		const log = (status: number, body: unknown, resumed = false) => {
			const ms = Date.now() - started;
			this.deliveries.push({
				executionId: match?.[1] ?? '',
				status,
				body,
				request: request.body,
				resumed,
				ms,
			});
			return { status, body };
		};
		if (!match || !entry) return log(404, { message: 'The execution does not exist.' });
		if (entry.busy) return log(409, { message: `The execution "${match[1]}" is running already.` });
		entry.busy = true;
		try {
			const answer = await deliverToWaiting(
				entry.result,
				{ suffix: match[2] ?? '', query: request.query, body: request.body },
				{ credentials: this.credentials, instanceBaseUrl: this.url },
			);
			if (answer.resumed) {
				entry.result = answer.execution;
				for (const settle of entry.settle.splice(0)) settle(answer.execution);
			}
			return log(answer.status, answer.body, answer.resumed);
		} finally {
			entry.busy = false;
		}
	}
}
