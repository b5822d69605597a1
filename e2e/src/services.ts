/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Throw-away PostgreSQL and Redis on loopback ports, for queue mode (Debian's packages). */
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './http';
import { run, start, stop, waitFor } from './proc';

/** A service on a loopback port; `stop` ends it and removes its data. */
export interface Service {
	port: number;
	stop(): Promise<void>;
}

function postgresBin(): string {
	const root = '/usr/lib/postgresql';
	const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
	return join(root, version, 'bin');
}

/** A throw-away PostgreSQL cluster (initdb refuses root: it runs as the postgres user then). */
export async function startPostgres(): Promise<Service> {
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
	return {
		port,
		stop: async () => {
			await stop(proc);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Redis without persistence; its folder is `<dir>/redis`. */
export async function startRedis(dir: string): Promise<Service> {
	const port = await freePort();
	const data = join(dir, 'redis');
	mkdirSync(data, { recursive: true });
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
		data,
	]);
	await waitFor('Redis', () => (/Ready to accept connections/.test(proc.log()) ? true : undefined), 30_000);
	return { port, stop: () => stop(proc) };
}
