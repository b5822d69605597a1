/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * An n8n with the package and its credentials, as every part and bench starts one: the packed
 * package put where n8n's Community Nodes installer puts it, n8n started (one instance on SQLite,
 * or queue mode: PostgreSQL, Redis, main, a worker and webhook processes), the owner logged in,
 * one credential of each type pointing at the simulator.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import type { Checks } from './checks';
import type { Certificate } from './certificate';
import { N8n, type N8nOptions } from './n8n';
import { freePort } from './http';
import { run } from './proc';
import { startPostgres, startRedis, type Service } from './services';
import { createCredentials, PACKAGE, withCredentials, type Context, type Workflow } from './workflows';

/** What the suite gives every part and bench. */
export interface PartInput {
	/** This run's temporary folder (user folders, Redis). */
	work: string;
	cert: Certificate;
	/** The package as `npm pack` made it. */
	packed: { tarball: string; version: string };
	sim: Simulator;
	checks: Checks;
}

/** Connections per n8n process to PostgreSQL (n8n's default is 2); docs/waiting-and-callbacks.md says why. */
export const QUEUE_DB_POOL_SIZE = 10;

export interface StartOptions {
	/** Names the user folder under `work`, the processes (`n8n-<name>`, `-main`, `-worker`, `-webhook`) and the timings. */
	name: string;
	/** A folder of e2e/n8n/ (default N8N_VERSION). */
	version?: string;
	/** Queue mode instead of one instance on SQLite. */
	queue?: { webhooks: number; poolSize?: number };
	/** More environment for every process. */
	env?: Record<string, string>;
	/** false: neither the package nor credentials (the registry part installs it through n8n). */
	withPackage?: boolean;
	/** The user folder, when not `<work>/<name>`. */
	home?: string;
}

/** A started n8n; it is the Context the helpers of workflows.ts take. */
export interface PackagedN8n extends Context {
	/** The process to call: the single instance, or queue mode's main. */
	n8n: N8n;
	/** Queue mode: the worker and the dedicated webhook processes. */
	worker?: N8n;
	webhooks: N8n[];
	/** Saves the workflow with this n8n's credentials; `activate` puts its triggers and webhooks live. */
	importWorkflow(
		workflow: Workflow,
		options?: { activate?: boolean },
	): Promise<{ id: string; versionId: string }>;
	/** Queue mode: whether the worker's log says it ran execution `id`. */
	onWorker(id: string): boolean;
	/** A load balancer in front of the webhook processes, each URL sent to the next one (single instance: as is). */
	balancer(): (url: string) => string;
	/** Stops every process it started, PostgreSQL and Redis too. */
	stop(): Promise<void>;
}

/** Whether a worker's log says it ran execution `id`. */
export function ranOnWorker(log: string, id: string): boolean {
	return new RegExp(`Worker (started|finished) execution ${id} \\(`).test(log);
}

/** Puts the packed package where n8n keeps installed community packages (<user folder>/.n8n/nodes). */
function installPacked(home: string, packed: PartInput['packed']): void {
	const nodes = join(home, '.n8n', 'nodes');
	const target = join(nodes, 'node_modules', PACKAGE);
	mkdirSync(target, { recursive: true });
	run('tar', ['-xzf', packed.tarball, '-C', target, '--strip-components=1']);
	writeFileSync(
		join(nodes, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: packed.version } },
			null,
			2,
		),
	);
}

/** The environment of every queue-mode process: one PostgreSQL, one Redis, binary data in the database. */
function queueEnv(postgres: Service, redis: Service, poolSize: number): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_DATABASE: 'postgres',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		DB_POSTGRESDB_POOL_SIZE: String(poolSize),
	};
}

interface Processes {
	main: N8n;
	worker?: N8n;
	webhooks: N8n[];
}

/** What the processes have in common; each process is listed in `started` before it starts. */
interface Launch {
	name: string;
	home: string;
	cert: Certificate;
	version?: string;
	checks: Checks;
	started: N8n[];
}

async function launch(
	at: Launch,
	options: Omit<N8nOptions, 'home' | 'cert' | 'version'>,
	timing: string,
): Promise<N8n> {
	const n8n = new N8n({ ...options, home: at.home, cert: at.cert, version: at.version });
	at.started.push(n8n);
	await at.checks.timed(`${at.name}: ${timing}`, () => n8n.start());
	return n8n;
}

/** Queue mode: main, a worker and `webhooks` webhook processes on one PostgreSQL and Redis. */
async function startQueue(
	at: Launch,
	services: Service[],
	queue: NonNullable<StartOptions['queue']>,
	extra: Record<string, string>,
): Promise<Processes> {
	const postgres = await startPostgres();
	services.push(postgres);
	const redis = await startRedis(at.home);
	services.push(redis);
	const env = { ...queueEnv(postgres, redis, queue.poolSize ?? QUEUE_DB_POOL_SIZE), ...extra };
	const main = await launch(at, { name: `n8n-${at.name}-main`, env }, 'main start');
	const worker = await launch(
		at,
		{
			name: `n8n-${at.name}-worker`,
			command: 'worker',
			port: await freePort(),
			env: {
				...env,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
				// The resume URL a node computes on the worker must reach main.
				WEBHOOK_URL: `${main.url}/`,
				N8N_EDITOR_BASE_URL: `${main.url}/`,
			},
		},
		'worker start',
	);
	// Webhook processes serve /webhook-waiting/ too: a gateway's callback may reach one instead of main.
	const webhooks: N8n[] = [];
	for (let i = 1; i <= queue.webhooks; i++) {
		const name = `n8n-${at.name}-webhook${i > 1 ? `-${i}` : ''}`;
		webhooks.push(await launch(at, { name, command: 'webhook', env }, `webhook process ${i} start`));
	}
	return { main, worker, webhooks };
}

/**
 * Starts an n8n with the package and its credentials. Everything it started is stopped when it
 * fails, and by `stop()`.
 */
export async function startN8n(input: PartInput, options: StartOptions): Promise<PackagedN8n> {
	const { work, cert, packed, sim, checks } = input;
	const { name, version, queue } = options;
	const home = options.home ?? join(work, name);
	mkdirSync(join(home, '.n8n'), { recursive: true });
	if (options.withPackage !== false) installPacked(home, packed);
	const at: Launch = { name, home, cert, version, checks, started: [] };
	const services: Service[] = [];
	const stop = async () => {
		for (const n8n of [...at.started].reverse()) await n8n.stop();
		for (const service of [...services].reverse()) await service.stop();
	};
	try {
		const env = options.env ?? {};
		const { main, worker, webhooks } = queue
			? await startQueue(at, services, queue, env)
			: { main: await launch(at, { name: `n8n-${name}`, env }, 'n8n start'), webhooks: [] };
		await main.login();
		const node = run(main.install.node, ['--version']).stdout.trim();
		const where = worker
			? `main on ${main.url}; webhook processes on ${webhooks.map((w) => w.url).join(', ')}; worker log ${worker.proc!.logFile}; DB_POSTGRESDB_POOL_SIZE=${main.options.env?.DB_POSTGRESDB_POOL_SIZE}`
			: `on ${main.url}, user folder ${main.userFolder}`;
		checks.note(`${name}: n8n ${main.install.version} (Node ${node}) ${where}`);
		const credentials = options.withPackage === false ? {} : await createCredentials(main, sim);
		const started: PackagedN8n = {
			n8n: main,
			sim,
			checks,
			credentials,
			label: name,
			worker,
			webhooks,
			async importWorkflow(workflow, { activate = false } = {}) {
				const created = await main.createWorkflow(withCredentials(workflow, started.credentials));
				if (activate) await main.activate(created.id, created.versionId);
				return created;
			},
			onWorker: (id) => worker !== undefined && ranOnWorker(worker.proc!.log(), id),
			balancer: () => {
				let turn = 0;
				return (url) => {
					if (!webhooks.length) return url;
					const target = new URL(url);
					target.port = String(webhooks[turn++ % webhooks.length].port);
					return target.toString();
				};
			},
			stop,
		};
		return started;
	} catch (error) {
		await stop();
		throw error;
	}
}
