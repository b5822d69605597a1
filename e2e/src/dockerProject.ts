/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The docker part's means (docker.ts): the compose project in its folder (compose, containers,
 * their logs and addresses, health), the suite's REST client through the proxy, the forwarder to the
 * simulator, and the steps the docs tell a user (packages/, the package in a container, the big video).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { basename, join } from 'node:path';

import { sampleMp4, videoTasks } from '../../test/simulator/video/tasks';
import { DOCKER_ENV, docker } from './dockerd';
import type { BinaryRef } from './executions';
import { freePort, http } from './http';
import { N8n, outputOf } from './n8n';
import { outputDir, run, waitFor } from './proc';
import type { PartInput } from './start';
import { CREATE_AND_WAIT, callbackWorkflow, PACKAGE, type Context } from './workflows';

export const PROJECT = 'gg-e2e';
/** n8n's public name in the containers' .env: the proxy's, reached through the host (extra_hosts). */
export const PUBLIC_NAME = 'n8n.gateway-e2e.internal';
export const QUEUE_FILE = 'docker-compose.queue.yml';
export const ONE_FILE = 'docker-compose.yml';
/** The big video: several of the simulator's 1 MiB pieces. */
export const BIG_VIDEO_BYTES = 5 * 1024 * 1024;

/** The n8n REST client of the suite, talking to main through the proxy. */
export class ProxiedN8n extends N8n {
	constructor(
		private readonly base: string,
		options: ConstructorParameters<typeof N8n>[0],
	) {
		super(options);
	}

	override get url(): string {
		return this.base;
	}
}

/** A TCP forwarder on `host:port` to the simulator on loopback. */
export async function forward(host: string, target: number): Promise<{ port: number; server: Server }> {
	const server = createServer((socket) => {
		const upstream = connect(target, '127.0.0.1');
		socket.pipe(upstream).pipe(socket);
		socket.on('error', () => upstream.destroy());
		upstream.on('error', () => socket.destroy());
	});
	const port = await freePort();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	return { port, server };
}

export interface Project {
	dir: string;
	/** `docker-compose -f <file> <args>` in the project folder. */
	compose(file: string, args: string[], timeoutMs?: number): string;
	/** The same, with `input` on its standard input (`... < file`). */
	composeWithInput(file: string, args: string[], input: Buffer): string;
	/** Container ids of a service. */
	containers(service: string): string[];
	logs(id: string): string;
}

export function project(dir: string): Project {
	const env = { ...DOCKER_ENV, COMPOSE_HTTP_TIMEOUT: '300' };
	return {
		dir,
		compose: (file, args, timeoutMs = 15 * 60_000) =>
			run('docker-compose', ['-f', file, ...args], { cwd: dir, env, timeoutMs }).stdout,
		composeWithInput: (file, args, input) => {
			const result = spawnSync('docker-compose', ['-f', file, ...args], {
				cwd: dir,
				env,
				input,
				encoding: 'utf8',
				timeout: 5 * 60_000,
				killSignal: 'SIGKILL',
			});
			if (result.status !== 0)
				throw new Error(
					`docker-compose ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
				);
			return result.stdout;
		},
		containers: (service) =>
			docker([
				'ps',
				'-q',
				'--filter',
				`label=com.docker.compose.project=${PROJECT}`,
				'--filter',
				`label=com.docker.compose.service=${service}`,
			])
				.split('\n')
				.filter(Boolean),
		logs: (id) => {
			const out = run('docker', ['logs', id], { env: DOCKER_ENV, timeoutMs: 60_000 });
			return out.stdout + out.stderr;
		},
	};
}

/** Waits until every container of the project is healthy (or running, where it has no health check). */
export async function healthy(p: Project, services: string[]): Promise<void> {
	await waitFor(
		`${services.join(', ')} to be healthy`,
		() => {
			const ids = services.flatMap((s) => p.containers(s));
			if (ids.length < services.length) return undefined;
			const states = docker([
				'inspect',
				'-f',
				'{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}',
				...ids,
			])
				.trim()
				.split('\n');
			if (states.some((s) => / (exited|dead) /.test(s)))
				throw new Error(`a container stopped: ${states.join('; ')}`);
			return states.every((s) => / running (healthy|none)$/.test(s)) ? true : undefined;
		},
		8 * 60_000,
		2000,
	);
}

/** `node -e <script>` in a container: what it printed. */
export function inContainer(id: string, script: string): string {
	return docker(['exec', id, 'node', '-e', script], 60_000).trim();
}

/** The trigger's answer to a call without its secret, from inside the container (its own port). */
export function triggerAnswer(id: string, webhookPath: string): string {
	return inContainer(
		id,
		`fetch('http://localhost:5678${webhookPath}', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"video_x","status":"completed"}' }).then((r) => console.log(r.status), (e) => console.log('error ' + e.message))`,
	);
}

/** The package's version in a container's nodes folder, or "absent". */
export function packageIn(id: string): string {
	return inContainer(
		id,
		`try { console.log(require('/home/node/.n8n/nodes/node_modules/${PACKAGE}/package.json').version) } catch { console.log('absent') }`,
	);
}

/**
 * Create and Wait by callback, one task, Download Video on, the video BIG_VIDEO_BYTES long: where n8n
 * keeps it (the binary's id names the mode) and whether every byte arrived.
 */
export async function bigVideo(ctx: Context, mode: string): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const tasks = videoTasks(sim);
	tasks.fileBytes = BIG_VIDEO_BYTES;
	try {
		const created = await n8n.createWorkflow(callbackWorkflow(ctx.credentials, 1, 2500));
		const id = await n8n.runManually(created.id, 'Start');
		const record = await n8n.waitExecution(id, 240_000);
		checks.equal('big video: execution status', record.status, 'success', { execution: id });
		const item = outputOf(record, CREATE_AND_WAIT)[0];
		const ref: BinaryRef | undefined = item?.binary?.data;
		checks.ok(`big video: kept in n8n's ${mode} mode`, String(ref?.id).startsWith(`${mode}:`), ref?.id);
		const bytes = ref ? await n8n.binaryBytes(ref) : Buffer.alloc(0);
		const head = sampleMp4(String(item?.json.id));
		checks.ok(
			`big video: all ${BIG_VIDEO_BYTES} bytes, the simulator's file`,
			bytes.length === BIG_VIDEO_BYTES && bytes.subarray(0, head.length).equals(head),
			{ bytes: bytes.length },
		);
	} finally {
		tasks.fileBytes = undefined;
	}
}

/** The upstream addresses the proxy's access log names for requests whose path starts with `prefix`. */
export function upstreams(p: Project, prefix: string): string[] {
	const proxy = p.containers('proxy')[0];
	return p
		.logs(proxy)
		.split('\n')
		.filter((line) => line.includes(`" ${prefix}`) || line.includes(` ${prefix}`))
		.map((line) => /upstream=([\d.]+):\d+/.exec(line)?.[1])
		.filter((a): a is string => Boolean(a));
}

export function addressOf(id: string): string {
	return docker(['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', id]).trim();
}

/** Starts a compose file and waits for it; then main through the proxy, signed in (an owner made on a new database). */
export async function up(
	input: PartInput,
	p: Project,
	file: string,
	args: string[],
	services: string[],
	base: string,
	label: string,
): Promise<Context> {
	const { checks, sim, cert, work } = input;
	await checks.timed(`docker: ${label}: ${file} up`, async () =>
		p.compose(file, ['up', '-d', '--build', ...args]),
	);
	await checks.timed(`docker: ${label}: healthy`, () => healthy(p, services));
	const n8n = new ProxiedN8n(base, { name: label, home: join(work, label), cert });
	const ctx: Context = { n8n, sim, checks, credentials: {}, label };
	await signedIn(ctx, base);
	return ctx;
}

/** Saves the logs of every container of the project to e2e-output/logs/docker-<label>-<service>-<n>.log. */
export function saveLogs(p: Project, label: string, services: string[]): void {
	mkdirSync(join(outputDir, 'logs'), { recursive: true });
	for (const service of services) {
		for (const [i, id] of p.containers(service).entries()) {
			writeFileSync(join(outputDir, 'logs', `docker-${label}-${service}-${i + 1}.log`), p.logs(id));
		}
	}
}

/** The package's node types n8n lists. */
export async function packageTypes(ctx: Context): Promise<string[]> {
	return (await ctx.n8n.nodeTypes()).map((t) => t.name).filter((t) => t.startsWith(`${PACKAGE}.`));
}

/** Waits until main answers through the proxy again, then signs in anew. */
export async function signedIn(ctx: Context, base: string): Promise<void> {
	await waitFor(
		'n8n through the proxy',
		async () =>
			(await http(`${base}/rest/settings`, { timeoutMs: 5000 })).status === 200 ? true : undefined,
		120_000,
		1000,
	);
	await ctx.n8n.login();
}

/** A copy of the packed package with another version, for the upgrade. */
export function repack(work: string, tarball: string, version: string): string {
	const dir = join(work, 'repack');
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	run('tar', ['-xzf', tarball, '-C', dir]);
	const manifest = join(dir, 'package', 'package.json');
	run('node', [
		'-e',
		`const f=${JSON.stringify(manifest)};const p=require(f);p.version=${JSON.stringify(version)};require('fs').writeFileSync(f,JSON.stringify(p,null,2))`,
	]);
	const out = join(work, `${PACKAGE}-${version}.tgz`);
	run('tar', ['-czf', out, '-C', dir, 'package']);
	return out;
}

/** packages/ holding `tarball` alone, or nothing. */
export function packagesHold(p: Project, tarball?: string): void {
	const packages = join(p.dir, 'packages');
	for (const f of readdirSync(packages).filter((f) => f.endsWith('.tgz'))) rmSync(join(packages, f));
	if (tarball) copyFileSync(tarball, join(packages, basename(tarball)));
}

export const MOVE = '/home/node/.n8n/move';
/** n8n's main process as every container of the compose files reaches it. */
export const INSIDE_URL = 'http://n8n:5678';
