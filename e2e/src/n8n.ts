/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * One real n8n process (main or worker) from e2e/n8n/<version>/, on loopback over https,
 * and a client for its REST API (the calls the editor makes).
 */
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

import type { Certificate } from './certificate';
import type { BinaryRef, ExecutionRecord, Item, RunData } from './executions';
import { freePort, http, restCall, signIn } from './http';
import { kill, sleep, start, stop, waitFor, type Proc } from './proc';

export const e2eDir = join(__dirname, '..');
export const repoRoot = join(e2eDir, '..');
/** The n8n the suite runs unless a part names another (every part but the compatibility one). */
export const N8N_VERSION = '2.41.1';

/** One n8n installed by e2e/n8n/install.sh: its modules and the Node it runs under. */
export interface N8nInstall {
	version: string;
	modules: string;
	/** The n8n command. */
	bin: string;
	/** The Node binary that runs it (n8n 1.x and early 2.x run under Node 22). */
	node: string;
}

export function n8nInstall(version = N8N_VERSION): N8nInstall {
	const pin = join(e2eDir, 'n8n', version);
	const modules = join(pin, 'node_modules');
	if (!existsSync(join(modules, 'n8n', 'package.json')) || !existsSync(join(pin, 'node'))) {
		throw new Error(`n8n ${version} is not installed: run bash e2e/n8n/install.sh ${version}`);
	}
	return { version, modules, bin: join(modules, 'n8n', 'bin', 'n8n'), node: realpathSync(join(pin, 'node')) };
}

/** The older n8n releases the suite proves (every folder of e2e/n8n/ but N8N_VERSION), oldest first. */
export function olderVersions(): string[] {
	const byVersion = (a: string, b: string) => {
		const [x, y] = [a, b].map((v) => v.split('.').map(Number));
		return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
	};
	return readdirSync(join(e2eDir, 'n8n'), { withFileTypes: true })
		.filter(
			(entry) => entry.isDirectory() && entry.name !== N8N_VERSION && /^\d+\.\d+\.\d+$/.test(entry.name),
		)
		.map((entry) => entry.name)
		.sort(byVersion);
}

export const n8nModules = join(e2eDir, 'n8n', N8N_VERSION, 'node_modules');

/** n8n's own flatted, which stores execution data; loaded at first use, so importing this file needs no n8n. */
const flatted = () =>
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require(join(n8nModules, 'flatted')) as { parse(text: string): unknown };

export const OWNER = {
	email: 'owner@e2e.invalid',
	password: 'E2e-owner-pass-1',
	firstName: 'E2E',
	lastName: 'Owner',
};
const ENCRYPTION_KEY = 'e2e-generation-gateway-encryption-key';

/**
 * What every local n8n here runs with (the suite's and `./scripts/run n8n`'s): quiet (no
 * diagnostics, version notices, templates, personalization survey or banners), the tool variant
 * allowed, manual executions saved, logs on the console.
 */
export const LOCAL_N8N_SETTINGS: Readonly<Record<string, string>> = {
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
	EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
	N8N_LOG_LEVEL: 'info',
	N8N_LOG_OUTPUT: 'console',
};

export interface N8nOptions {
	name: string;
	/** N8N_USER_FOLDER (n8n keeps its files in <home>/.n8n). */
	home: string;
	cert: Certificate;
	/** `webhook`: a dedicated webhook process (queue mode), served and checked like a main. */
	command?: 'start' | 'worker' | 'webhook';
	env?: Record<string, string>;
	/** A worker's port is chosen by the caller; a main's port is free unless given. */
	port?: number;
	/** Which installed n8n (default N8N_VERSION). */
	version?: string;
}

/** What n8n's REST API takes to save a new, inactive workflow. */
export function newWorkflowBody(workflow: {
	name?: unknown;
	nodes?: unknown;
	connections?: unknown;
	settings?: unknown;
	pinData?: unknown;
}): Record<string, unknown> {
	return {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
		pinData: workflow.pinData ?? {},
		active: false,
	};
}

export class N8n {
	proc: Proc | undefined;

	port = 0;

	cookie = '';

	readonly install: N8nInstall;

	constructor(readonly options: N8nOptions) {
		this.install = n8nInstall(options.version);
	}

	get url(): string {
		return `https://127.0.0.1:${this.port}`;
	}

	get userFolder(): string {
		return join(this.options.home, '.n8n');
	}

	async start(timeoutMs = 240_000): Promise<void> {
		// A restarted process keeps its port: resume URLs and callback addresses name it.
		this.port = this.options.port ?? (this.port || (await freePort()));
		mkdirSync(this.options.home, { recursive: true });
		const env: NodeJS.ProcessEnv = {
			// n8n's task runner and its CLI children start `node` from PATH: the same Node as n8n.
			PATH: `${join(this.install.node, '..')}:${process.env.PATH}`,
			HOME: this.options.home,
			TZ: 'UTC',
			N8N_USER_FOLDER: this.options.home,
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'https',
			N8N_SSL_KEY: this.options.cert.key,
			N8N_SSL_CERT: this.options.cert.cert,
			// n8n trusts its own certificate, as a public one is trusted: the package posts to its own URLs.
			NODE_EXTRA_CA_CERTS: this.options.cert.cert,
			WEBHOOK_URL: `https://127.0.0.1:${this.port}/`,
			N8N_EDITOR_BASE_URL: `https://127.0.0.1:${this.port}/`,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			...LOCAL_N8N_SETTINGS,
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			...this.options.env,
		};
		const command = this.options.command ?? 'start';
		this.proc = start(this.options.name, this.install.node, [this.install.bin, command], {
			env,
			cwd: this.options.home,
		});
		const proc = this.proc;
		let exited = false;
		void proc.exited.then(() => (exited = true));
		if (command === 'worker') {
			await waitFor(
				`${this.options.name} to be ready`,
				() => {
					if (exited) throw new Error(`${this.options.name} exited; see ${proc.logFile}`);
					return /Worker ready|n8n worker is now ready/i.test(proc.log()) ? true : undefined;
				},
				timeoutMs,
				500,
			);
			return;
		}
		await waitFor(
			`${this.options.name} on ${this.url}`,
			async () => {
				if (exited) throw new Error(`${this.options.name} exited; see ${proc.logFile}`);
				const answer = await http(`${this.url}/healthz/readiness`, { timeoutMs: 5000 });
				if (answer.status !== 200) return undefined;
				// n8n 1.x and 2.0 answer readiness while they still run migrations, before the REST API exists.
				if (command !== 'start') return true;
				const settings = await http(`${this.url}/rest/settings`, { timeoutMs: 5000 });
				return settings.status === 200 ? true : undefined;
			},
			timeoutMs,
			500,
		);
	}

	async stop(): Promise<void> {
		if (this.proc) await stop(this.proc);
	}

	/** `kill -9`, as a crash or an orchestrator's hard stop: the process gets no chance to finish anything. */
	async kill(): Promise<void> {
		if (this.proc) await kill(this.proc);
	}

	/** A REST call with the owner's cookie; throws on a status >= 400 unless `allow` lists it. */
	async rest<T = unknown>(method: string, path: string, body?: unknown, allow: number[] = []): Promise<T> {
		return await restCall<T>(this.url, this.cookie, { method, path, body, allow, timeoutMs: 180_000 });
	}

	/** The owner account (set up on first start), then a login cookie. */
	async login(): Promise<void> {
		this.cookie = await signIn(this.url, OWNER);
	}

	async nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		const answer = await http(`${this.url}/types/nodes.json`, { headers: { cookie: this.cookie } });
		if (answer.status !== 200) throw new Error(`/types/nodes.json -> ${answer.status}`);
		return answer.json();
	}

	/** An API key of the owner with every scope the role allows (Settings → n8n API), as a user makes one. */
	async createApiKey(label: string): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label,
			scopes,
			expiresAt: null,
		});
		return created.rawApiKey;
	}

	async createCredential(type: string, name: string, data: Record<string, unknown>): Promise<string> {
		const created = await this.rest<{ id: string }>('POST', '/credentials', { name, type, data });
		return created.id;
	}

	/**
	 * Saving and activating workflows one at a time, as an editor user does: n8n 1.x on SQLite breaks two
	 * saves at once ("no such savepoint"), and leaves its connection broken for the saves after.
	 */
	private edits: Promise<unknown> = Promise.resolve();

	private oneEditAtATime<T>(edit: () => Promise<T>): Promise<T> {
		const next = this.edits.then(edit, edit);
		this.edits = next.catch(() => undefined);
		return next;
	}

	async createWorkflow(workflow: Record<string, unknown>): Promise<{ id: string; versionId: string }> {
		const { id, versionId } = await this.oneEditAtATime(() =>
			this.rest<{ id: string; versionId: string }>('POST', '/workflows', newWorkflowBody(workflow)),
		);
		return { id, versionId };
	}

	async activate(id: string, versionId: string): Promise<void> {
		await this.oneEditAtATime(() => this.rest('POST', `/workflows/${id}/activate`, { versionId }));
	}

	/** A manual run from a trigger, as the editor's "Execute workflow" button. */
	async runManually(workflowId: string, trigger: string): Promise<string> {
		// n8n 1.x and 2.0 run the workflow the editor sends (workflowData); newer n8n reads it from its
		// database and ignores the member.
		const workflowData = await this.rest<Record<string, unknown>>('GET', `/workflows/${workflowId}`);
		const result = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{ workflowData, triggerToStartFrom: { name: trigger } },
		);
		if (!result.executionId) throw new Error(`the run started no execution: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	/**
	 * The execution as n8n saved it. n8n 1.x on SQLite writes an execution's status and its data in two
	 * statements, so for a moment a run that ended reads "success" with the data saved before it (as it
	 * began, or as it resumed, the waiting node's run taken off): such a record is read again, for at
	 * most 10 s (then returned as it is, for the caller's checks to show).
	 */
	async execution(id: string): Promise<ExecutionRecord> {
		const deadline = Date.now() + 10_000;
		for (;;) {
			const raw = await this.rest<Omit<ExecutionRecord, 'data'> & { data: string }>('GET', `/executions/${id}`);
			const record = { ...raw, data: flatted().parse(raw.data) as RunData };
			if (record.status !== 'success' || endedData(record.data) || Date.now() >= deadline) return record;
			await sleep(100);
		}
	}

	async executions(workflowId: string): Promise<Array<{ id: string; status: string; mode: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const list = await this.rest<{ results: Array<{ id: string; status: string; mode: string }> }>(
			'GET',
			`/executions?filter=${filter}&limit=50`,
		);
		return list.results;
	}

	/**
	 * The workflow's executions once there are more than `moreThan` and none is running or waiting (a
	 * webhook-started run is saved late; a run started in the editor shows up after the click).
	 */
	async settledExecutions(
		workflowId: string,
		timeoutMs = 60_000,
		moreThan = 0,
	): Promise<Array<{ id: string; status: string; mode: string }>> {
		return await waitFor(
			`the executions of workflow ${workflowId} to be saved`,
			async () => {
				const list = await this.executions(workflowId);
				return list.length > moreThan && list.every((e) => !['running', 'new', 'waiting'].includes(e.status))
					? list
					: undefined;
			},
			timeoutMs,
			500,
		);
	}

	/** Waits until the execution has one of `statuses` (default: finished one way or another). */
	async waitExecution(
		id: string,
		timeoutMs: number,
		statuses = ['success', 'error', 'crashed', 'canceled'],
	): Promise<ExecutionRecord> {
		return await waitFor(
			`execution ${id} to reach ${statuses.join('/')}`,
			async () => {
				const record = await this.execution(id);
				return statuses.includes(record.status) ? record : undefined;
			},
			timeoutMs,
			300,
		);
	}

	async binaryBytes(ref: BinaryRef): Promise<Buffer> {
		if (!ref.id) return Buffer.from(ref.data ?? '', 'base64');
		const answer = await http(
			`${this.url}/rest/binary-data?id=${encodeURIComponent(ref.id)}&action=download&mimeType=${encodeURIComponent(ref.mimeType)}`,
			{ headers: { cookie: this.cookie } },
		);
		if (answer.status !== 200) throw new Error(`binary ${ref.id} -> ${answer.status}`);
		return answer.body;
	}
}

/** Data a successful run saved at its end: some node ran, and none has its runs taken off (a resume's start). */
function endedData(data: RunData): boolean {
	const runs = Object.values(data.resultData.runData ?? {});
	return runs.length > 0 && runs.every((nodeRuns) => nodeRuns.length > 0);
}

/**
 * The first answer to a webhook of a workflow just activated that is not 404: n8n registers an
 * activated workflow's webhooks a moment after the activation answers, so `send` is tried again
 * (every 500 ms, at most `timeoutMs`) while n8n answers 404.
 */
export async function webhookAnswer<T extends { status: number }>(
	what: string,
	send: () => Promise<T>,
	timeoutMs = 30_000,
): Promise<T> {
	return await waitFor(
		what,
		async () => {
			const answer = await send();
			return answer.status === 404 ? undefined : answer;
		},
		timeoutMs,
		500,
	);
}

/** The last run's first output of a node. */
export function outputOf(record: ExecutionRecord, node: string): Item[] {
	const runs = record.data.resultData.runData[node] ?? [];
	return runs.at(-1)?.data?.main?.[0] ?? [];
}
