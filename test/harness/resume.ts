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
 */
import type {
	IDataObject,
	INode,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { WebhookContext } from 'n8n-core';

import type { WorkflowJson } from './additional-data';
import { buildAdditionalData, toWorkflowBase } from './additional-data';
import { ensureContainer } from './container';
import type { CredentialsByType } from './credentials-helper';
import { HarnessCredentialsHelper } from './credentials-helper';
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
