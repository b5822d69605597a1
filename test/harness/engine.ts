/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Runs real n8n workflows in-process: n8n-core's WorkflowExecute and
 * ExecutionLifecycleHooks, this package loaded from dist/ by n8n-core's
 * PackageDirectoryLoader, real HTTP through n8n's helpers, binary data in
 * n8n's filesystem store. Nothing about IExecuteFunctions is mocked.
 */
import { readFileSync } from 'node:fs';

import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import { BinaryDataService, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ExecutionStatus,
	IBinaryData,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeType,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	StructuredChunk,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError, Workflow, createRunExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from './additional-data';
import { buildAdditionalData, toWorkflowBase } from './additional-data';
import { disposeContainer, ensureContainer } from './container';
import type { CredentialsByType } from './credentials-helper';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { ExtraTypes } from './node-types';
import { HarnessNodeTypes } from './node-types';

export type { WorkflowJson } from './additional-data';
export type { CredentialsByType } from './credentials-helper';

export interface RunOptions {
	/** Decrypted credential data per credential type name. */
	credentials?: CredentialsByType;
	/** Items the start node emits; default one empty item. */
	input?: INodeExecutionData[];
	/** Default `manual` (the editor's "Execute workflow"). */
	mode?: WorkflowExecuteMode;
	/** Start node name; default `Workflow.getStartNode()` (the manual trigger). */
	startNode?: string;
	/** Cancels the execution (as the editor's Stop button does) after this many ms. */
	cancelAfterMs?: number;
	/** Base of the webhook / resume URLs the nodes see; default http://localhost:5678. */
	instanceBaseUrl?: string;
	/**
	 * Streams the execution, as n8n's server does for a Chat Trigger or Webhook in
	 * response mode "Streaming" (`additionalData.streamingEnabled` and a `sendChunk`
	 * hook; the mode must be manual, webhook, integrated or chat): every chunk the
	 * nodes send, and the engine's `error` chunk for a failed node, comes here.
	 */
	onChunk?: (chunk: StructuredChunk) => void;
}

export interface RunResult {
	run: IRun;
	status: ExecutionStatus;
	/** The execution's error (`run.data.resultData.error`), if it failed. */
	error?: ExecutionError;
	executionId: string;
	/** Everything needed to resume a `waiting` execution (see resume notes below). */
	runExecutionData: IRunExecutionData;
	waitTill?: Date;
	workflow: Workflow;
	/** Names of the nodes in the order they finished. */
	nodeExecutionOrder: string[];
	/** Items a node produced on an output, by default in its last run ([] if it did not run). */
	output(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** The error a node's run ended with, as n8n stores it (a plain object, not the thrown class). */
	nodeError(nodeName: string, runIndex?: number): ExecutionError | undefined;
}

/** A started execution: `cancel()` aborts it (the nodes' getExecutionCancelSignal fires). */
export interface RunHandle {
	/** Settles when the engine has really stopped, i.e. after the running node returned. */
	promise: Promise<RunResult>;
	cancel(): void;
}

const extraTypes: ExtraTypes = { nodes: new Map(), credentials: new Map() };
let nodeTypesPromise: Promise<HarnessNodeTypes> | undefined;
let executionCounter = 0;

async function nodeTypes(): Promise<HarnessNodeTypes> {
	await ensureContainer();
	nodeTypesPromise ??= HarnessNodeTypes.load(extraTypes);
	return await nodeTypesPromise;
}

/** Adds a node type (e.g. a test-only node) under a full name such as `test.binaryMaker`. */
export function registerNodeType(fullName: string, type: INodeType | IVersionedNodeType): void {
	extraTypes.nodes.set(fullName, type);
}

/** Adds a credential type (e.g. a test-only one) under its `name`. */
export function registerCredentialType(type: ICredentialType): void {
	extraTypes.credentials.set(type.name, type);
}

/** Reads a workflow exported from n8n. */
export function loadWorkflowFile(filePath: string): WorkflowJson {
	return JSON.parse(readFileSync(filePath, 'utf8')) as WorkflowJson;
}

export function toResult(run: IRun, workflow: Workflow, executionId: string, order: string[]): RunResult {
	const { runData } = run.data.resultData;
	const taskOf = (nodeName: string, runIndex = -1) => runData[nodeName]?.at(runIndex);
	return {
		run,
		status: run.status,
		error: run.data.resultData.error,
		executionId,
		runExecutionData: run.data,
		waitTill: run.waitTill ?? undefined,
		workflow,
		nodeExecutionOrder: order,
		output: (nodeName, outputIndex = 0, runIndex) =>
			taskOf(nodeName, runIndex)?.data?.main?.[outputIndex] ?? [],
		nodeError: (nodeName, runIndex) => taskOf(nodeName, runIndex)?.error,
	};
}

/**
 * Starts a workflow and returns at once.
 *
 * Resuming a `waiting` execution (webhook resume: resume.ts `deliverToWaiting`):
 * - timed resume (n8n's WaitTracker): `new WorkflowExecute(additionalData, mode,
 *   result.runExecutionData).processRunExecutionData(result.workflow)`. Its
 *   handleWaitingState clears waitTill, disables the waiting node (its input
 *   passes through) and drops that node's last run.
 * - webhook resume (the CLI's waiting-webhooks.ts + webhook-helpers.ts): call the
 *   waiting node's `webhook()` in a WebhookContext, put the `workflowData` it
 *   returns on `nodeExecutionStack[0].data.main`, then re-run as above.
 * Both need only `runExecutionData`, `workflow` and `executionId` from RunResult
 * (keep the same executionId so `$execution.resumeUrl` stays valid).
 */
export function startWorkflow(
	workflowData: IWorkflowBase | WorkflowJson,
	options: RunOptions = {},
): RunHandle {
	let cancelled = false;
	let cancelRun: (() => void) | undefined;
	const cancel = () => {
		cancelled = true;
		cancelRun?.();
	};

	const promise = (async (): Promise<RunResult> => {
		const types = await nodeTypes();
		const base = toWorkflowBase(workflowData);
		const mode = options.mode ?? 'manual';
		const executionId = `harness-${++executionCounter}`;
		const workflow = new Workflow({
			id: base.id,
			name: base.name,
			nodes: base.nodes,
			connections: base.connections,
			active: false,
			nodeTypes: types,
			settings: base.settings,
			staticData: base.staticData,
			pinData: base.pinData,
		});
		const startNode = options.startNode ? workflow.getNode(options.startNode) : workflow.getStartNode();
		if (!startNode)
			throw new UserError(`No start node "${options.startNode ?? '(trigger)'}" in the workflow`);

		const credentialsHelper = new HarnessCredentialsHelper(types, { ...options.credentials });
		const additionalData = buildAdditionalData({
			executionId,
			mode,
			workflow: base,
			credentialsHelper,
			instanceBaseUrl: options.instanceBaseUrl ?? 'http://localhost:5678',
		});
		if (options.onChunk) {
			additionalData.streamingEnabled = true;
			additionalData.hooks?.addHandler('sendChunk', options.onChunk);
		}
		const order: string[] = [];
		additionalData.hooks?.addHandler('nodeExecuteAfter', (nodeName) => {
			order.push(nodeName);
		});

		const runExecutionData = createRunExecutionData({
			resultData: { pinData: base.pinData },
			executionData: {
				nodeExecutionStack: [
					{ node: startNode, data: { main: [options.input ?? [{ json: {} }]] }, source: null },
				],
			},
		});
		const execution = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
			workflow,
		);
		cancelRun = () => execution.cancel();
		const timer = options.cancelAfterMs === undefined ? undefined : setTimeout(cancel, options.cancelAfterMs);
		if (cancelled) execution.cancel();
		try {
			// On cancel, n8n-core resolves this only once the running node has returned.
			const run = await execution;
			return toResult(run, workflow, executionId, order);
		} finally {
			clearTimeout(timer);
		}
	})();
	return { promise, cancel };
}

/** Runs a workflow to its end (success, error, canceled or waiting). */
export async function runWorkflow(
	workflow: IWorkflowBase | WorkflowJson,
	options: RunOptions = {},
): Promise<RunResult> {
	return await startWorkflow(workflow, options).promise;
}

/** The bytes of a binary output, read back through n8n's BinaryDataService. */
export async function readBinary(data: IBinaryData): Promise<Buffer> {
	await ensureContainer();
	return await Container.get(BinaryDataService).getAsBuffer(data);
}

/** A credential type's `test.request`, expressions resolved and `authenticate` applied. */
export async function credentialTestRequest(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): Promise<IHttpRequestOptions> {
	const types = await nodeTypes();
	return await new HarnessCredentialsHelper(types, { [typeName]: data }).testRequest(typeName, data);
}

/** The absolute URL of a request (`baseURL` + `url`). */
export function requestUrl(options: IHttpRequestOptions): string {
	return options.baseURL ? `${options.baseURL.replace(/\/+$/, '')}${options.url}` : options.url;
}

/** Sends a request with n8n's own HTTP client (OutboundHttp, as httpRequestWithAuthentication does). */
export async function sendRequest(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
	await ensureContainer();
	const response = await Container.get(OutboundHttp)
		.requests()
		.request({ ...options, returnFullResponse: true });
	return response as IN8nHttpFullResponse;
}

/** Drops loaded types and removes the temp folder; registered automatically with jest's afterAll. */
export function disposeHarness(): void {
	nodeTypesPromise = undefined;
	disposeContainer();
}

// Module scope runs while jest collects the test file, where hooks may be added.
const jestAfterAll = (globalThis as { afterAll?: (fn: () => void) => void }).afterAll;
if (typeof jestAfterAll === 'function') {
	try {
		jestAfterAll(disposeHarness);
	} catch {
		// Imported inside a running test: the caller disposes (or the OS cleans tmp).
	}
}
