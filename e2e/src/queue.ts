/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Queue mode: PostgreSQL and Redis in temp folders on loopback ports, an n8n
 * main process and a worker, binary data kept in the database. The image,
 * speech, trigger and callback-wait workflows must succeed, and the resumed
 * execution must run on the worker (its log names the execution). A dedicated
 * webhook process (`n8n webhook`) runs beside them: callbacks.ts delivers the
 * callback wait's callbacks to it and to main, before the wait and across a
 * restart, and checks that no resume is lost.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import { runCallbackScenarios } from './callbacks';
import type { Checks } from './checks';
import { N8n, type Certificate } from './n8n';
import { installPacked } from './install';
import { freePort, run, start, stop, waitFor, type Proc } from './proc';
import { videoTasks } from '../../test/simulator/video/tasks';
import { createCredentials, examplesDir, runCallbackWait, runExample, type Context } from './workflows';

/** Connections per n8n process to PostgreSQL (n8n's default is 2); docs/waiting-and-callbacks.md says why. */
export const QUEUE_DB_POOL_SIZE = 10;

interface QueueInput {
	work: string;
	cert: Certificate;
	packed: { tarball: string; version: string };
	sim: Simulator;
	checks: Checks;
}

function postgresBin(): string {
	const root = '/usr/lib/postgresql';
	const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
	return join(root, version, 'bin');
}

/** A throw-away PostgreSQL cluster (initdb refuses root: it runs as the postgres user then). */
async function startPostgres(): Promise<{ port: number; proc: Proc; dir: string }> {
	const bin = postgresBin();
	const dir = mkdtempSync(join(tmpdir(), 'gg-e2e-pg-'));
	const asRoot = process.getuid?.() === 0;
	const owner = asRoot
		? {
				uid: Number(run('id', ['-u', 'postgres']).stdout.trim()),
				gid: Number(run('id', ['-g', 'postgres']).stdout.trim()),
			}
		: {};
	if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid!);
	const data = join(dir, 'data');
	run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
		...owner,
		cwd: dir,
	});
	const port = await freePort();
	const proc = start(
		'postgres',
		join(bin, 'postgres'),
		['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
		{ ...owner, cwd: dir },
	);
	await waitFor(
		'PostgreSQL',
		() => {
			try {
				run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { timeoutMs: 5000 });
				return true;
			} catch {
				return undefined;
			}
		},
		60_000,
		500,
	);
	return { port, proc, dir };
}

async function startRedis(work: string): Promise<{ port: number; proc: Proc }> {
	const port = await freePort();
	const dir = join(work, 'redis');
	mkdirSync(dir, { recursive: true });
	const proc = start('redis', 'redis-server', [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		dir,
	]);
	await waitFor('Redis', () => (/Ready to accept connections/.test(proc.log()) ? true : undefined), 30_000);
	return { port, proc };
}

/** A queue-mode n8n: main, a worker and `webhooks` dedicated webhook processes on one PostgreSQL and Redis. */
export interface QueueDeployment {
	main: N8n;
	worker: N8n;
	webhooks: N8n[];
	/** Whether the worker's log says it ran execution `id`. */
	onWorker(id: string): boolean;
	/** Stops every process still running, then PostgreSQL, and removes its data. */
	stop(): Promise<void>;
}

export async function startQueueDeployment(input: {
	work: string;
	cert: Certificate;
	packed: { tarball: string; version: string };
	checks: Checks;
	/** Folder name under `work` and prefix of the processes' names. */
	name: string;
	webhooks: number;
	/** DB_POSTGRESDB_POOL_SIZE of every process (n8n's default is 2). */
	poolSize?: number;
}): Promise<QueueDeployment> {
	const { work, cert, packed, checks, name } = input;
	const pg = await startPostgres();
	const started: N8n[] = [];
	let redis: Proc | undefined;
	const stopAll = async () => {
		for (const proc of [...started].reverse()) await proc.stop();
		if (redis) await stop(redis);
		await stop(pg.proc);
		rmSync(pg.dir, { recursive: true, force: true });
	};
	try {
		const { port: redisPort, proc: redisProc } = await startRedis(join(work, name));
		redis = redisProc;
		const home = join(work, name);
		mkdirSync(join(home, '.n8n'), { recursive: true });
		installPacked(join(home, '.n8n'), packed.tarball, packed.version);
		const env = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_DATABASE: 'postgres',
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			// n8n's default pool of 2 connections per process: 300 final callbacks in one instant, each
			// loading the waiting execution, exhausted it (the REST API answered 500 for a minute).
			DB_POSTGRESDB_POOL_SIZE: String(input.poolSize ?? QUEUE_DB_POOL_SIZE),
		};
		const main = new N8n({ name: `n8n-${name}-main`, home, cert, env });
		started.push(main);
		await checks.timed(`${name}: main start`, () => main.start());
		const worker = new N8n({
			name: `n8n-${name}-worker`,
			home,
			cert,
			command: 'worker',
			port: await freePort(),
			env: {
				...env,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
				// The resume URL a node computes on the worker must reach the main process.
				WEBHOOK_URL: `${main.url}/`,
				N8N_EDITOR_BASE_URL: `${main.url}/`,
			},
		});
		started.push(worker);
		await checks.timed(`${name}: worker start`, () => worker.start());
		// As scaled deployments run them: the same queue and database, their own ports; they serve
		// /webhook-waiting/ too, so a gateway's callback may reach one instead of main (behind a
		// balancer when there are several).
		const webhooks: N8n[] = [];
		for (let i = 1; i <= input.webhooks; i++) {
			const webhook = new N8n({
				name: `n8n-${name}-webhook${i > 1 ? `-${i}` : ''}`,
				home,
				cert,
				command: 'webhook',
				env,
			});
			started.push(webhook);
			webhooks.push(webhook);
			await checks.timed(`${name}: webhook process ${i} start`, () => webhook.start());
		}
		await main.login();
		checks.note(
			`${name}: main on ${main.url}; webhook processes on ${webhooks.map((w) => w.url).join(', ')}; worker log ${worker.proc!.logFile}; DB_POSTGRESDB_POOL_SIZE=${input.poolSize ?? QUEUE_DB_POOL_SIZE}`,
		);
		const onWorker = (id: string) =>
			new RegExp(`Worker (started|finished) execution ${id} \\(`, 'g').exec(worker.proc!.log()) !== null;
		return { main, worker, webhooks, onWorker, stop: stopAll };
	} catch (error) {
		await stopAll();
		throw error;
	}
}

export async function runQueue({ work, cert, packed, sim, checks }: QueueInput): Promise<void> {
	checks.begin('queue mode: PostgreSQL, Redis, main and worker');
	const deployment = await startQueueDeployment({ work, cert, packed, checks, name: 'queue', webhooks: 2 });
	const { main, worker, onWorker } = deployment;
	const [webhook, webhook2] = deployment.webhooks;
	try {
		const ctx: Context = {
			n8n: main,
			sim,
			checks,
			credentials: await createCredentials(main, sim),
			label: 'queue',
		};
		for (const example of ['image-scheduled-generation', 'speech-synthesize', 'video-trigger']) {
			const file = join(examplesDir, `${example}.json`);
			if (!existsSync(file)) {
				checks.ok(`examples/${example}.json exists`, false);
				continue;
			}
			checks.begin(`queue mode: examples/${example}.json`);
			try {
				const record = await runExample(ctx, file);
				if (record) {
					await waitFor(
						`worker log of execution ${record.id}`,
						() => (onWorker(record.id) ? true : undefined),
						10_000,
					).catch(() => undefined);
					checks.ok(`${example}: execution ${record.id} ran on the worker (worker log)`, onWorker(record.id));
				}
			} catch (error) {
				checks.broke(example, error);
			}
		}
		checks.begin('queue mode: Create and Wait by callback, 3 items');
		try {
			const record = await runCallbackWait(ctx, 3);
			await waitFor('worker log', () => (onWorker(record.id) ? true : undefined), 10_000).catch(
				() => undefined,
			);
			const lines = worker
				.proc!.log()
				.split('\n')
				.filter((l) => l.includes(`execution ${record.id} (`));
			checks.note(`worker log for execution ${record.id}: ${lines.map((l) => l.trim()).join(' | ')}`);
			checks.ok(
				`callback wait: the resumed execution ${record.id} ran on the worker (started there twice: run, then resume)`,
				lines.filter((l) => l.includes('Worker started execution')).length >= 2,
			);
		} catch (error) {
			checks.broke('callback wait', error);
		}
		// Queue mode keeps binary data in the database: the list a worker stored is read by the process
		// that takes the callback.
		checks.begin(
			'queue mode: Create and Wait by callback, 300 items ending in one instant, callbacks spread over two webhook processes (task list kept in the binary store)',
		);
		const tasks = videoTasks(sim);
		const saved = { timeout: tasks.callbackTimeoutMs, second: tasks.secondCallbacks };
		// A gateway that waits 10 s for an answer and never calls twice; a balancer in front of the
		// two webhook processes, taking turns.
		tasks.callbackTimeoutMs = 10_000;
		tasks.secondCallbacks = { kind: 'off' };
		let turn = 0;
		tasks.routeCallback = (url) => {
			const target = new URL(url);
			target.port = String([webhook, webhook2][turn++ % 2].port);
			return target.toString();
		};
		try {
			// The creates go one at a time on the worker; the tasks all end once the execution waits.
			await runCallbackWait(ctx, 300, 0, true, 2);
		} catch (error) {
			checks.broke('callback wait, 300 items', error);
		} finally {
			tasks.routeCallback = undefined;
			tasks.callbackTimeoutMs = saved.timeout;
			tasks.secondCallbacks = saved.second;
		}
		await webhook2.stop();
		await runCallbackScenarios(ctx, { main, webhook, worker });
	} finally {
		await deployment.stop();
	}
}
