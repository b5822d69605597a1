/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
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
 * `WaitingExecutions` (below; `WaitingWebhookServer` puts it behind https,
 * `deliverToWaiting` for one request) resume `waiting` executions the way
 * n8n 2.x's waiting-webhook route does, concurrent requests included.
 */
import type {
	IDataObject,
	INode,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { cpSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

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
import { HarnessNodeTypes, PACKAGE_ROOT } from './node-types';
import { SavedData } from './saved-data';

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
	response?: { status: number; body: unknown; headers: Record<string, string> };
	staticData: IDataObject;
	/** Credentials n8n loaded for this webhook() call. */
	credentialLoads: number;
}

let typesPromise: Promise<HarnessNodeTypes> | undefined;

function fakeResponse() {
	const written: { status: number; body?: unknown; ended: boolean; headers: Record<string, string> } = {
		status: 200,
		ended: false,
		headers: {},
	};
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
		setHeader(name: string, value: unknown) {
			written.headers[name.toLowerCase()] = String(value);
			return res;
		},
		header(name: string, value: unknown) {
			return res.setHeader(name, value);
		},
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
	const credentialsHelper = new HarnessCredentialsHelper(types, { ...call.credentials });
	const additionalData = buildAdditionalData({
		executionId: call.executionId ?? 'webhook-call',
		mode,
		workflow: base,
		credentialsHelper,
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
		response: written.ended
			? { status: written.status, body: written.body, headers: written.headers }
			: undefined,
		staticData: workflow.staticData as IDataObject,
		credentialLoads: credentialsHelper.loads,
	};
}

/* ------------------------------------------------------------------------ */
/* Waiting executions: what n8n 2.x's waiting-webhook route does (the CLI's  */
/* webhooks/waiting-webhooks.ts, webhook-helpers.ts executeWebhook and       */
/* active-executions.ts add), over saved `waiting` RunResults.               */
/* ------------------------------------------------------------------------ */

export interface WaitingRequest {
	method?: 'GET' | 'POST';
	/** Path after `/webhook-waiting/<executionId>` (n8n's "suffix"), '' by default. */
	suffix?: string;
	query?: Record<string, string>;
	body?: unknown;
	headers?: Record<string, string>;
	/**
	 * Which n8n process serves the request (webhook processes behind a load
	 * balancer): 0, the default, is the harness's own load of the package; any
	 * other number loads a copy of dist/, so the package's module state (what a
	 * process remembers) is that process's own.
	 */
	process?: number;
}

export interface WaitingAnswer {
	/** The HTTP answer n8n would send to the caller. */
	status: number;
	body: unknown;
	/** The execution after this request: the same `waiting` result, or the resumed run's end. */
	execution: RunResult;
	/** Headers the node set on its own answer. */
	headers: Record<string, string>;
	/** This request resumed the execution (won n8n's resume). */
	resumed: boolean;
	/** webhook() returned items, but another request had resumed the execution first, or n8n did not start the resume (`loseResume`). */
	lostResume: boolean;
	/** Credentials n8n loaded for this request's webhook() (the resumed run's own not counted). */
	credentialLoads: number;
}

export interface ResumeOptions {
	credentials?: CredentialsByType;
	/** Must equal the run's, so `$execution.resumeUrl` stays the same; default http://localhost:5678. */
	instanceBaseUrl?: string;
}

export interface WaitingDelivery extends WaitingAnswer {
	executionId: string;
	request: unknown;
	/** Time spent answering (webhook() and, when it resumed, the rest of the run). */
	ms: number;
	/** When the answer was done (ms since the epoch). */
	endedAt: number;
}

/** The status column n8n's route reads: waiting until a resume wins, then running, then the end. */
interface ExecutionRow {
	result: RunResult;
	status: 'waiting' | 'running' | 'ended';
	settle: Array<(result: RunResult) => void>;
}

/**
 * n8n's executions table and waiting-webhook route, in process. Faithful to
 * what matters for concurrent callbacks:
 * - every request loads the execution afresh (a deep copy of the saved data:
 *   nothing a request that does not resume does to it is kept), checks the
 *   resume token (401), then the status: running, ended with an error or
 *   finished -> 409. There is no lock here: requests that load the execution
 *   while it is waiting all call `webhook()`, concurrently.
 * - before `webhook()` the waiting node is disabled, waitTill cleared and the
 *   node's last run popped; `webhook()` runs in a real n8n-core WebhookContext.
 * - `webhook()` throws -> 500, the execution stays waiting (invokeWebhook).
 * - no `workflowData` -> the node's own answer, or 200; still waiting.
 * - `workflowData` -> n8n resumes: ActiveExecutions.add updates the row only
 *   if it is still `waiting` (requireStatus: 'waiting'); the first request to
 *   get there wins and the run goes on from the node with those items; a
 *   later one fails with ExecutionAlreadyResumingError, answered 500 "There
 *   was a problem executing the workflow" unless the node answered the
 *   request itself before returning (then its answer stands).
 */
export class WaitingExecutions {
	readonly deliveries: WaitingDelivery[] = [];

	/**
	 * Requests whose items n8n does not resume with, although webhook() returned them (n8n failing
	 * between the node's answer and the run: a crash, a database error): the caller gets the node's
	 * own answer and the execution stays waiting.
	 */
	loseResume: ((request: WaitingRequest) => boolean) | undefined;

	private readonly rows = new Map<string, ExecutionRow>();

	/** Each saved result's data as the database holds it: written once, read by every request that loads it. */
	private readonly stored = new WeakMap<RunResult, SavedData<IRunExecutionData>>();

	/** A fresh copy of the execution's data as saved now (n8n's load from its database). */
	private load(result: RunResult): IRunExecutionData {
		let saved = this.stored.get(result);
		if (!saved) this.stored.set(result, (saved = new SavedData(result.runExecutionData)));
		return saved.load();
	}

	constructor(private readonly options: ResumeOptions = {}) {}

	track(result: RunResult): void {
		this.rows.set(result.executionId, {
			result,
			status: result.status === 'waiting' ? 'waiting' : 'ended',
			settle: [],
		});
	}

	/** The execution's end once it is no longer waiting (rejects after `timeoutMs`). */
	async finished(executionId: string, timeoutMs = 10_000): Promise<RunResult> {
		const row = this.rows.get(executionId);
		if (!row) throw new UserError(`Execution ${executionId} is not tracked`);
		if (row.status === 'ended') return row.result;
		return await new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new UserError(`Execution ${executionId} still waiting after ${timeoutMs} ms`)),
				timeoutMs,
			);
			row.settle.push((result) => {
				clearTimeout(timer);
				resolve(result);
			});
		});
	}

	/** The executions that wait now, each as saved (n8n's public API lists them with their data). */
	waitingNow(): Array<{ executionId: string; result: RunResult }> {
		return [...this.rows]
			.filter(([, row]) => row.status === 'waiting')
			.map(([executionId, row]) => ({ executionId, result: row.result }));
	}

	/** The execution's end if it is no longer waiting, else undefined (nothing is awaited). */
	finishedNow(executionId: string): RunResult | undefined {
		const row = this.rows.get(executionId);
		return row?.status === 'ended' ? row.result : undefined;
	}

	/** One request to `/webhook-waiting/<executionId>[/<suffix>]`. */
	async deliver(executionId: string, request: WaitingRequest): Promise<WaitingAnswer> {
		const started = Date.now();
		const answer = await this.answer(executionId, request);
		const endedAt = Date.now();
		this.deliveries.push({ ...answer, executionId, request: request.body, ms: endedAt - started, endedAt });
		this.settle(executionId);
		return answer;
	}

	/**
	 * What n8n's WaitTracker does when `waitTill` passes: it resumes the saved
	 * execution (if still waiting) without any webhook; n8n-core then disables
	 * the waiting node, so its input items pass through. False if it was not waiting.
	 */
	async resumeAtWaitTill(executionId: string): Promise<boolean> {
		const row = this.rows.get(executionId);
		if (row?.status !== 'waiting') return false;
		row.status = 'running';
		await this.run(row, executionId, this.load(row.result));
		this.settle(executionId);
		return true;
	}

	/** Runs a resumed execution to its end (or its next wait) and saves the result. */
	private async run(row: ExecutionRow, executionId: string, data: IRunExecutionData): Promise<void> {
		const { workflow } = row.result;
		const types = await typesOfProcess(0);
		const order: string[] = [];
		const additionalData = buildAdditionalData({
			executionId,
			mode: row.result.run.mode,
			workflow: toWorkflowBase({
				id: workflow.id,
				name: workflow.name ?? 'Harness workflow',
				nodes: Object.values(workflow.nodes),
				connections: workflow.connectionsBySourceNode,
			}),
			credentialsHelper: new HarnessCredentialsHelper(types, { ...this.options.credentials }),
			instanceBaseUrl: this.options.instanceBaseUrl ?? 'http://localhost:5678',
		});
		additionalData.hooks?.addHandler('nodeExecuteAfter', (nodeName) => {
			order.push(nodeName);
		});
		const run = await new WorkflowExecute(additionalData, row.result.run.mode, data).processRunExecutionData(
			workflow,
		);
		row.result = toResult(run, workflow, executionId, order);
		row.status = row.result.status === 'waiting' ? 'waiting' : 'ended';
	}

	/** Tells those waiting in `finished()` (once the request that ended it is logged). */
	private settle(executionId: string): void {
		const row = this.rows.get(executionId);
		if (row?.status === 'ended') for (const settle of row.settle.splice(0)) settle(row.result);
	}

	private async answer(executionId: string, request: WaitingRequest): Promise<WaitingAnswer> {
		const row = this.rows.get(executionId);
		let headers: Record<string, string> = {};
		const loaded = { helper: undefined as HarnessCredentialsHelper | undefined }; // this request's credential loads
		const keep = (status: number, body: unknown, lostResume = false): WaitingAnswer => ({
			status,
			body,
			headers,
			execution: row!.result,
			resumed: false,
			lostResume,
			credentialLoads: loaded.helper?.loads ?? 0,
		});
		if (!row) {
			return {
				status: 404,
				body: { message: `The execution "${executionId}" does not exist.` },
				headers,
				execution: undefined as unknown as RunResult,
				resumed: false,
				lostResume: false,
				credentialLoads: 0,
			};
		}
		// The DB load: a copy of what is saved now.
		const saved = row.result;
		const data = this.load(saved);
		if (data.resumeToken && request.query?.signature !== data.resumeToken)
			return keep(401, { error: 'Invalid token' });
		if (row.status === 'running')
			return keep(409, { message: `The execution "${executionId}" is running already.` });
		if (data.resultData.error)
			return keep(409, { message: `The execution "${executionId}" has finished with error.` });
		if (row.status === 'ended')
			return keep(409, { message: `The execution "${executionId} has finished already.` });

		const lastNodeExecuted = String(data.resultData.lastNodeExecuted);
		data.executionData!.nodeExecutionStack[0].node.disabled = true;
		data.waitTill = undefined;
		data.resultData.runData[lastNodeExecuted]?.pop();

		await ensureContainer();
		const types = await typesOfProcess(request.process ?? 0);
		const { workflow } = saved;
		const node = workflow.getNode(lastNodeExecuted) as INode;
		const nodeType = types.getByNameAndVersion(node.type, node.typeVersion);
		const method = request.method ?? 'POST';
		const description = nodeType.description.webhooks?.find(
			(w) =>
				w.restartWebhook === true &&
				w.httpMethod === method &&
				String(w.path ?? '') === (request.suffix ?? ''),
		);
		if (!description || !nodeType.webhook) {
			return keep(404, {
				message: `The workflow for execution "${executionId}" does not contain a waiting webhook with a matching path/method.`,
			});
		}
		const credentialsHelper = new HarnessCredentialsHelper(types, { ...this.options.credentials });
		loaded.helper = credentialsHelper;
		const base = {
			id: workflow.id,
			name: workflow.name ?? 'Harness workflow',
			nodes: Object.values(workflow.nodes),
			connections: workflow.connectionsBySourceNode,
		};
		const mode = saved.run.mode;
		const additionalData = buildAdditionalData({
			executionId,
			mode,
			workflow: toWorkflowBase(base),
			credentialsHelper,
			instanceBaseUrl: this.options.instanceBaseUrl ?? 'http://localhost:5678',
		});
		const { res, written } = fakeResponse();
		headers = written.headers;
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
		} catch {
			// invokeWebhook: the caller gets a 500 and the execution stays waiting.
			return keep(500, { message: 'Workflow Webhook Error: Workflow could not be started!' });
		}
		const own = written.ended ? { status: written.status, body: written.body } : undefined;
		if (result.workflowData === undefined) {
			if (own) return keep(own.status, own.body);
			return keep(200, result.webhookResponse ?? { message: 'Webhook call received' });
		}
		// ActiveExecutions.add: update the row only if it is still waiting.
		if (row.status !== 'waiting' || this.loseResume?.(request)) {
			if (own) return keep(own.status, own.body, true);
			return keep(500, { message: 'There was a problem executing the workflow' }, true);
		}
		row.status = 'running';
		const entry = data.executionData!.nodeExecutionStack[0];
		entry.data.main = result.workflowData;
		entry.metadata = { ...entry.metadata, forwardAllOutputs: true };
		await this.run(row, executionId, data);
		return {
			status: own?.status ?? 200,
			body: own ? own.body : { message: 'Workflow was started' },
			headers,
			execution: row.result,
			resumed: true,
			lostResume: false,
			credentialLoads: credentialsHelper.loads,
		};
	}
}

const processTypes = new Map<number, Promise<HarnessNodeTypes>>();

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** The package as n8n process `serving` loaded it (see WaitingRequest.process). */
async function typesOfProcess(serving: number): Promise<HarnessNodeTypes> {
	if (serving === 0) return await (typesPromise ??= HarnessNodeTypes.load());
	let types = processTypes.get(serving);
	if (!types) {
		// Inside the repository's node_modules, so the copy resolves the same n8n-workflow;
		// one folder per test process (jest runs test files in parallel workers). Copies
		// left by test processes that have ended are removed.
		const copies = join(PACKAGE_ROOT, 'node_modules', '.cache', 'harness-processes');
		mkdirSync(copies, { recursive: true });
		for (const name of readdirSync(copies)) {
			if (!isRunning(Number(name.split('-')[0])))
				rmSync(join(copies, name), { recursive: true, force: true });
		}
		const root = join(copies, `${process.pid}-${serving}`);
		rmSync(root, { recursive: true, force: true });
		mkdirSync(root, { recursive: true });
		cpSync(join(PACKAGE_ROOT, 'dist'), join(root, 'dist'), { recursive: true });
		copyFileSync(join(PACKAGE_ROOT, 'package.json'), join(root, 'package.json'));
		types = HarnessNodeTypes.load(undefined, root);
		processTypes.set(serving, types);
	}
	return await types;
}

/**
 * Delivers one request to a waiting execution on its own (a table holding
 * only that execution, as saved in `waiting`).
 */
export async function deliverToWaiting(
	waiting: RunResult,
	request: WaitingRequest,
	options: ResumeOptions = {},
): Promise<WaitingAnswer> {
	const executions = new WaitingExecutions(options);
	executions.track(waiting);
	return await executions.deliver(waiting.executionId, request);
}

/**
 * An https stand-in for n8n's `/webhook-waiting/` route (the test-only
 * self-signed certificate of the simulator) in front of a WaitingExecutions
 * table: its `url` is the instance base URL to run workflows with, so
 * `$execution.resumeUrl` is https and points here. `track()` a waiting
 * RunResult; requests over https and in-process `deliver()` calls reach the
 * same table, concurrently, as n8n's route would.
 */
export class WaitingWebhookServer extends WaitingExecutions {
	private constructor(
		private readonly receiver: HttpsReceiver,
		credentials: CredentialsByType,
	) {
		super({ credentials, instanceBaseUrl: receiver.url });
	}

	/** `untrusted`: n8n's own address shows a certificate n8n's Node does not trust (a private CA not given to it). */
	static async start(
		credentials: CredentialsByType,
		{ untrusted = false }: { untrusted?: boolean } = {},
	): Promise<WaitingWebhookServer> {
		// Assigned once the receiver, whose handler refers to it, has started.
		// eslint-disable-next-line prefer-const
		let server: WaitingWebhookServer | undefined;
		const receiver = await startHttpsReceiver(async (request) => await server!.receive(request), {
			untrusted,
		});
		server = new WaitingWebhookServer(receiver, credentials);
		return server;
	}

	get url(): string {
		return this.receiver.url;
	}

	async stop(): Promise<void> {
		await this.receiver.stop();
	}

	/**
	 * Requests answered 503 "Database is not ready!" before any node runs, as n8n answers
	 * when its database does not answer in time under load: those `refuse` picks.
	 */
	refuse: ((request: ReceivedRequest) => boolean) | undefined;
	readonly refused: ReceivedRequest[] = [];

	/** The key n8n's public API takes here (`/api/v1/executions`, as Video Wait → Recover Waits reads it). */
	// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- the stand-in's fixed test value, no secret
	static readonly API_KEY = 'harness-n8n-api-key';

	/** Requests to the public API, in order. */
	readonly apiRequests: ReceivedRequest[] = [];

	/**
	 * n8n's `GET /api/v1/executions?status=waiting&includeData=true`: the waiting executions, newest
	 * first, `limit` per page, `cursor` the last id of the page before (as n8n's cursor names it).
	 */
	private listExecutions(request: ReceivedRequest): { status: number; body: unknown } {
		this.apiRequests.push(request);
		if (request.headers?.['x-n8n-api-key'] !== WaitingWebhookServer.API_KEY)
			return { status: 401, body: { message: "'X-N8N-API-KEY' header required" } };
		const limit = Number(request.query.limit ?? 100);
		// Harness ids end in a counter: n8n's cursor is the last id of the page before.
		const order = (id: string) => Number(/\d+$/.exec(id)?.[0] ?? 0);
		const after = request.query.cursor ? order(Buffer.from(request.query.cursor, 'base64').toString()) : Infinity;
		const waiting = (request.query.status === 'waiting' ? this.waitingNow() : [])
			.filter(({ executionId }) => order(executionId) < after)
			.sort((a, b) => order(b.executionId) - order(a.executionId));
		const page = waiting.slice(0, limit);
		const data = page.map(({ executionId, result }) => ({
			id: executionId,
			workflowId: result.workflow.id,
			status: 'waiting',
			...(request.query.includeData === 'true' ? { data: structuredClone(result.runExecutionData) } : {}),
		}));
		const nextCursor =
			waiting.length > limit ? Buffer.from(String(page[page.length - 1].executionId)).toString('base64') : null;
		return { status: 200, body: { data, nextCursor } };
	}

	/**
	 * Requests held open for `holdOpenMs` before n8n's 404, as n8n holds a request to a waiting
	 * execution whose node is followed by a Wait or Form node: those `holdOpen` picks.
	 */
	holdOpen: ((request: ReceivedRequest) => boolean) | undefined;
	holdOpenMs = 5 * 60_000;
	readonly heldOpen: ReceivedRequest[] = [];

	private async receive(
		request: ReceivedRequest,
	): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }> {
		if (request.path === '/api/v1/executions' && request.method === 'GET') return this.listExecutions(request);
		const match = /^\/webhook-waiting\/([^/]+)(?:\/(.*))?$/.exec(request.path);
		if (!match) return { status: 404, body: { message: 'Not found' } };
		if (this.refuse?.(request)) {
			this.refused.push(request);
			return { status: 503, body: { code: 503, message: 'Database is not ready!' } };
		}
		if (this.holdOpen?.(request)) {
			this.heldOpen.push(request);
			await new Promise((resolve) => setTimeout(resolve, this.holdOpenMs));
			return { status: 404, body: { code: 404, message: 'Not found' } };
		}
		const answer = await this.deliver(decodeURIComponent(match[1]), {
			suffix: match[2] ?? '',
			query: request.query,
			body: request.body,
		});
		// The node's own headers (Retry-After on a 503) reach the caller, as n8n sends them.
		return { status: answer.status, body: answer.body, headers: answer.headers };
	}
}
