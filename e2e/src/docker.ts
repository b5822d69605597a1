/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The docker part: the repository's docker/ folder as a user runs it. Debian's dockerd is started
 * here and stopped at the end; n8n's, PostgreSQL's, Redis's and nginx's images are stand-ins built
 * here (standins.ts); the Dockerfile and compose files run unchanged, from a copy of the folder with
 * `.env`, the packed package and a certificate put in, as the docs tell a user.
 *
 * One instance (docker-compose.yml): the package loads, a callback wait resumes through the proxy, a
 * video larger than one piece is kept in the filesystem; the docs' move to queue mode keeping the key
 * (export, down). Queue mode (docker-compose.queue.yml, two webhook processes) on that volume: the
 * docs' import, examples on the worker with the moved credentials, the package in main and each webhook
 * process, a callback wait resumed through the proxy by the webhook processes, the trigger, the big
 * video in n8n's database, the docs' upgrade and removal through packages/. Last, on a new instance
 * with no package in the image: the docs' npm route (install, upgrade, uninstall).
 *
 * The gateway simulator runs on the host; containers reach it through a forwarder on the default
 * bridge's address, and its callbacks reach n8n's public name through the proxy's port there. No
 * container reaches past the host (a DOCKER-USER rule while the part runs).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { basename, join } from 'node:path';

import { sampleMp4, videoTasks } from '../../test/simulator/video/tasks';
import { DOCKER_ENV, docker, startDaemon } from './dockerd';
import { freePort, http } from './http';
import { certificate } from './certificate';
import type { BinaryRef } from './executions';
import { N8n, N8N_VERSION, outputOf, repoRoot } from './n8n';
import { outputDir, run, waitFor } from './proc';
import { ensureImages } from './standins';
import { ranOnWorker, type PartInput } from './start';
import {
	callbackWorkflow,
	createCredentials,
	credentialName,
	examplesDir,
	loadWorkflow,
	PACKAGE,
	TRIGGER_TYPE,
	type Context,
} from './workflows';
import { runCallbackWait } from './callbackWait';
import { checkToolVariant, runExample } from './examples';

const PROJECT = 'gg-e2e';
/** n8n's public name in the containers' .env: the proxy's, reached through the host (extra_hosts). */
const PUBLIC_NAME = 'n8n.gateway-e2e.internal';
const QUEUE_FILE = 'docker-compose.queue.yml';
const ONE_FILE = 'docker-compose.yml';
/** The big video: several of the simulator's 1 MiB pieces. */
const BIG_VIDEO_BYTES = 5 * 1024 * 1024;

/** The n8n REST client of the suite, talking to main through the proxy. */
class ProxiedN8n extends N8n {
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
async function forward(host: string, target: number): Promise<{ port: number; server: Server }> {
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

interface Project {
	dir: string;
	/** `docker-compose -f <file> <args>` in the project folder. */
	compose(file: string, args: string[], timeoutMs?: number): string;
	/** The same, with `input` on its standard input (`... < file`). */
	composeWithInput(file: string, args: string[], input: Buffer): string;
	/** Container ids of a service. */
	containers(service: string): string[];
	logs(id: string): string;
}

function project(dir: string): Project {
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
async function healthy(p: Project, services: string[]): Promise<void> {
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
function inContainer(id: string, script: string): string {
	return docker(['exec', id, 'node', '-e', script], 60_000).trim();
}

/** The trigger's answer to a call without its secret, from inside the container (its own port). */
function triggerAnswer(id: string, webhookPath: string): string {
	return inContainer(
		id,
		`fetch('http://localhost:5678${webhookPath}', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"video_x","status":"completed"}' }).then((r) => console.log(r.status), (e) => console.log('error ' + e.message))`,
	);
}

/** The package's version in a container's nodes folder, or "absent". */
function packageIn(id: string): string {
	return inContainer(
		id,
		`try { console.log(require('/home/node/.n8n/nodes/node_modules/${PACKAGE}/package.json').version) } catch { console.log('absent') }`,
	);
}

/**
 * Create and Wait by callback, one task, Download Video on, the video BIG_VIDEO_BYTES long: where n8n
 * keeps it (the binary's id names the mode) and whether every byte arrived.
 */
async function bigVideo(ctx: Context, mode: string): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const tasks = videoTasks(sim);
	tasks.fileBytes = BIG_VIDEO_BYTES;
	try {
		const created = await n8n.createWorkflow(callbackWorkflow(ctx.credentials, 1, 2500));
		const id = await n8n.runManually(created.id, 'Start');
		const record = await n8n.waitExecution(id, 240_000);
		checks.equal('big video: execution status', record.status, 'success', { execution: id });
		const item = outputOf(record, 'Create Videos and Wait')[0];
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
function upstreams(p: Project, prefix: string): string[] {
	const proxy = p.containers('proxy')[0];
	return p
		.logs(proxy)
		.split('\n')
		.filter((line) => line.includes(`" ${prefix}`) || line.includes(` ${prefix}`))
		.map((line) => /upstream=([\d.]+):\d+/.exec(line)?.[1])
		.filter((a): a is string => Boolean(a));
}

function addressOf(id: string): string {
	return docker(['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', id]).trim();
}

/** Starts a compose file and waits for it; then main through the proxy, signed in (an owner made on a new database). */
async function up(
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
function saveLogs(p: Project, label: string, services: string[]): void {
	mkdirSync(join(outputDir, 'logs'), { recursive: true });
	for (const service of services) {
		for (const [i, id] of p.containers(service).entries()) {
			writeFileSync(join(outputDir, 'logs', `docker-${label}-${service}-${i + 1}.log`), p.logs(id));
		}
	}
}

/** The package's node types n8n lists. */
async function packageTypes(ctx: Context): Promise<string[]> {
	return (await ctx.n8n.nodeTypes()).map((t) => t.name).filter((t) => t.startsWith(`${PACKAGE}.`));
}

/** Waits until main answers through the proxy again, then signs in anew. */
async function signedIn(ctx: Context, base: string): Promise<void> {
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
function repack(work: string, tarball: string, version: string): string {
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
function packagesHold(p: Project, tarball?: string): void {
	const packages = join(p.dir, 'packages');
	for (const f of readdirSync(packages).filter((f) => f.endsWith('.tgz'))) rmSync(join(packages, f));
	if (tarball) copyFileSync(tarball, join(packages, basename(tarball)));
}

const MOVE = '/home/node/.n8n/move';
/** n8n's main process as every container of the compose files reaches it. */
const INSIDE_URL = 'http://n8n:5678';

/**
 * One instance on SQLite: the package loads, a callback wait resumes through the proxy, a big video is
 * kept in the filesystem; then the docs' first steps of the move to queue mode (the key, the export)
 * and `down`, which keeps the volume. Returns the credential ids, which the import keeps.
 */
async function oneInstance(input: PartInput, p: Project, base: string): Promise<Record<string, string>> {
	const { checks, sim } = input;
	const services = ['n8n', 'proxy'];
	checks.begin(`docker: one instance (${ONE_FILE})`);
	try {
		const ctx = await up(input, p, ONE_FILE, [], services, base, 'docker-one');
		// Recover Waits reaches n8n by its service's name from inside the containers (docs/deployment.md).
		ctx.credentials = await createCredentials(ctx.n8n, sim, INSIDE_URL);
		await checkToolVariant(ctx);
		checks.begin('docker: one instance, Create and Wait by callback through the proxy, 2 items');
		await runCallbackWait(ctx, 2);
		checks.begin("docker: one instance, a video of several pieces kept in n8n's filesystem");
		await bigVideo(ctx, 'filesystem-v2');

		checks.begin(
			'docker: moving to queue mode on PostgreSQL, keeping the key (docs/deployment.md): the export',
		);
		const config = p.compose(ONE_FILE, ['exec', '-T', 'n8n', 'cat', '/home/node/.n8n/config']);
		checks.ok(
			"n8n's own config holds the key of .env",
			config.includes(readFileSync(join(p.dir, '.env'), 'utf8').match(/^N8N_ENCRYPTION_KEY=(.*)$/m)![1]),
		);
		p.compose(ONE_FILE, ['exec', '-T', 'n8n', 'mkdir', '-p', MOVE]);
		p.compose(ONE_FILE, [
			'exec',
			'-T',
			'n8n',
			'n8n',
			'export:workflow',
			'--all',
			`--output=${MOVE}/workflows.json`,
		]);
		p.compose(ONE_FILE, [
			'exec',
			'-T',
			'n8n',
			'n8n',
			'export:credentials',
			'--all',
			`--output=${MOVE}/credentials.json`,
		]);
		return ctx.credentials;
	} finally {
		saveLogs(p, 'one', services);
		await checks.timed(`docker: ${ONE_FILE} down (the volume kept)`, async () =>
			p.compose(ONE_FILE, ['down']),
		);
	}
}

/** In every n8n container of queue mode: the package's version in the nodes folder. */
function packageEverywhere(p: Project): string[] {
	return ['n8n', 'n8n-worker', 'n8n-webhook'].flatMap((service) => p.containers(service).map(packageIn));
}

/**
 * Queue mode with two webhook processes, on the volume the one instance left: the docs' import, then
 * the moved credentials at work on the worker; the package in every process; a callback wait through
 * the proxy and the webhook processes; the trigger; a big video in the database; the docs' upgrade and
 * removal of the package through packages/.
 */
async function queueMode(
	input: PartInput,
	p: Project,
	base: string,
	moved: Record<string, string>,
): Promise<void> {
	const { checks, packed, work } = input;
	const services = ['postgres', 'redis', 'n8n', 'n8n-worker', 'n8n-webhook', 'proxy'];
	const scale = ['--scale', 'n8n-webhook=2'];
	checks.begin(`docker: queue mode (${QUEUE_FILE}, two webhook processes)`);
	try {
		const ctx = await up(input, p, QUEUE_FILE, scale, services, base, 'docker-queue');
		p.compose(QUEUE_FILE, [
			'exec',
			'-T',
			'n8n',
			'n8n',
			'import:credentials',
			`--input=${MOVE}/credentials.json`,
		]);
		p.compose(QUEUE_FILE, ['exec', '-T', 'n8n', 'n8n', 'import:workflow', `--input=${MOVE}/workflows.json`]);
		ctx.credentials = moved;
		// API keys stay in the one instance's database: Recover Waits' credential gets one made here.
		await ctx.n8n.rest('PATCH', `/credentials/${moved.generationGatewayN8nApi}`, {
			name: credentialName('generationGatewayN8nApi'),
			type: 'generationGatewayN8nApi',
			data: {
				baseUrl: INSIDE_URL,
				apiKey: await ctx.n8n.createApiKey('Recover Waits'),
				ignoreSslIssues: false,
			},
		});
		const workflows = await ctx.n8n.rest<Array<{ id: string }>>('GET', '/workflows');
		checks.ok(
			'the move: the workflows of the one instance are in queue mode',
			workflows.length >= 2,
			workflows.length,
		);
		const webhooks = p.containers('n8n-webhook');
		const worker = p.containers('n8n-worker')[0];
		const main = p.containers('n8n')[0];
		checks.equal('two webhook processes run', webhooks.length, 2);
		await checkToolVariant(ctx);
		for (const example of ['image-scheduled-generation', 'video-trigger', 'video-recover-waits']) {
			checks.begin(`docker: queue mode, examples/${example}.json with the moved credentials`);
			const record = await runExample(ctx, join(examplesDir, `${example}.json`));
			if (record) {
				const on = await waitFor(
					'the worker log',
					() => (ranOnWorker(p.logs(worker), record.id) ? true : undefined),
					30_000,
				).catch(() => false);
				checks.ok(`${example}: the execution ran on the worker (its log)`, on === true, {
					execution: record.id,
				});
			}
		}
		const trigger = loadWorkflow(join(examplesDir, 'video-trigger.json')).nodes.find(
			(n) => n.type === TRIGGER_TYPE,
		)!;
		const triggerPath = `/webhook/${trigger.webhookId}/video-task`;
		checks.begin('docker: queue mode, the package in every process');
		for (const [name, id] of [['main', main], ...webhooks.map((w, i) => [`webhook process ${i + 1}`, w])]) {
			checks.equal(
				`${name}: the trigger refuses a call without its secret (the package is loaded there)`,
				triggerAnswer(id, triggerPath),
				'401',
			);
		}
		// What the package does when it posts a callback's news itself: n8n's public address from inside,
		// through extra_hosts to the proxy, its certificate trusted through NODE_EXTRA_CA_CERTS.
		const publicUrl = readFileSync(join(p.dir, '.env'), 'utf8').match(/^PUBLIC_URL=(.*)$/m)![1];
		for (const [name, id] of [
			['main', main],
			['the worker', worker],
			['webhook process 1', webhooks[0]],
		]) {
			checks.equal(
				`${name} reaches n8n's public address (extra_hosts, the private CA)`,
				inContainer(
					id,
					`fetch('${publicUrl}healthz').then((r) => console.log(r.status), (e) => console.log('error ' + (e.cause?.code ?? e.message)))`,
				),
				'200',
				{ publicUrl },
			);
		}
		checks.begin('docker: queue mode, Create and Wait by callback through the proxy, 3 items');
		const before = upstreams(p, '/webhook-waiting/').length;
		// Two processes take the callbacks and share no memory: each may download the videos (n8n resumes once).
		const record = await runCallbackWait(ctx, 3, 2500, false, webhooks.length);
		const seen = upstreams(p, '/webhook-waiting/').slice(before);
		const addresses = webhooks.map(addressOf);
		checks.ok(
			'callback wait: the proxy sent every callback to a webhook process',
			seen.length > 0 && seen.every((a) => addresses.includes(a)),
			{ webhookProcesses: addresses, seen },
		);
		checks.ok(
			'callback wait: the execution resumed on the worker (its log)',
			ranOnWorker(p.logs(worker), record.id),
			{ execution: record.id },
		);
		checks.begin("docker: queue mode, a video of several pieces kept in n8n's database");
		await bigVideo(ctx, 'database');

		// The docs' upgrade: the new tarball in packages/ instead of the old one, the same up command.
		checks.begin('docker: queue mode, upgrading the package through packages/ (docs/deployment.md)');
		const upgraded = `${packed.version}-upgraded`;
		packagesHold(p, repack(work, packed.tarball, upgraded));
		await checks.timed('docker: upgrade (up -d --build)', async () =>
			p.compose(QUEUE_FILE, ['up', '-d', '--build', ...scale]),
		);
		await healthy(p, services);
		checks.equal(
			'after the upgrade: the version in every n8n process',
			packageEverywhere(p),
			Array(4).fill(upgraded),
		);
		await signedIn(ctx, base);
		checks.equal("after the upgrade: n8n lists the package's nodes", (await packageTypes(ctx)).length, 3);

		// The docs' remove: no tarball in packages/, the same up command.
		checks.begin('docker: queue mode, removing the package through packages/ (docs/deployment.md)');
		packagesHold(p);
		await checks.timed('docker: remove (up -d --build)', async () =>
			p.compose(QUEUE_FILE, ['up', '-d', '--build', ...scale]),
		);
		await healthy(p, services);
		checks.equal(
			'after the removal: gone from every n8n process',
			packageEverywhere(p),
			Array(4).fill('absent'),
		);
		await signedIn(ctx, base);
		checks.equal("after the removal: n8n lists none of the package's nodes", await packageTypes(ctx), []);
	} finally {
		saveLogs(p, 'queue', services);
		await checks.timed(`docker: ${QUEUE_FILE} down -v`, async () => p.compose(QUEUE_FILE, ['down', '-v']));
	}
}

/** The docs' other route on n8n's image with no package in it: npm in the running container, each step then a restart. */
async function npmRoute(input: PartInput, p: Project, base: string): Promise<void> {
	const { checks, packed, work } = input;
	const services = ['n8n', 'proxy'];
	checks.begin(
		'docker: one instance, npm in the running container: install, upgrade, remove (docs/deployment.md)',
	);
	packagesHold(p);
	try {
		const ctx = await up(input, p, ONE_FILE, [], services, base, 'docker-npm');
		const n8n = () => p.containers('n8n')[0];
		checks.equal('before: no package in the nodes folder', packageIn(n8n()), 'absent');
		const restart = async (what: string) => {
			await checks.timed(`docker: ${what} (restart n8n)`, async () =>
				p.compose(ONE_FILE, ['restart', 'n8n']),
			);
			await healthy(p, services);
			await signedIn(ctx, base);
		};
		const npmInstall = (tarball: string) =>
			p.composeWithInput(
				ONE_FILE,
				[
					'exec',
					'-T',
					'n8n',
					'sh',
					'-c',
					'cat > /tmp/gg.tgz && mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --legacy-peer-deps --no-audit --no-fund /tmp/gg.tgz',
				],
				readFileSync(tarball),
			);
		npmInstall(packed.tarball);
		await restart('npm install');
		checks.equal('npm install: the package in the nodes folder', packageIn(n8n()), packed.version);
		checks.equal("npm install: n8n lists the package's nodes", (await packageTypes(ctx)).length, 3);
		const upgraded = `${packed.version}-upgraded`;
		npmInstall(repack(work, packed.tarball, upgraded));
		await restart('npm upgrade');
		checks.equal('npm upgrade: the package in the nodes folder', packageIn(n8n()), upgraded);
		p.compose(ONE_FILE, [
			'exec',
			'-T',
			'n8n',
			'sh',
			'-c',
			`cd ~/.n8n/nodes && npm uninstall --legacy-peer-deps --no-audit --no-fund ${PACKAGE}`,
		]);
		await restart('npm uninstall');
		checks.equal('npm uninstall: the package is gone from the nodes folder', packageIn(n8n()), 'absent');
		checks.equal("npm uninstall: n8n lists none of the package's nodes", await packageTypes(ctx), []);
	} finally {
		saveLogs(p, 'npm', services);
		await checks.timed(`docker: ${ONE_FILE} down -v`, async () => p.compose(ONE_FILE, ['down', '-v']));
	}
}

/** Keeps containers from reaching past the host while the part runs (the daemon's DOCKER-USER chain). */
function confine(): () => void {
	const rules = [
		['-i', 'docker0', '!', '-o', 'docker0', '-j', 'REJECT'],
		['-i', 'br-+', '!', '-o', 'br-+', '-j', 'REJECT'],
	];
	// A run stopped by Ctrl-C leaves its rules: taken out first, so they are never there twice.
	const drop = () => {
		for (const rule of rules)
			for (let i = 0; i < 10 && spawnSync('iptables', ['-D', 'DOCKER-USER', ...rule]).status === 0; i++);
	};
	drop();
	for (const rule of rules) run('iptables', ['-I', 'DOCKER-USER', ...rule]);
	return drop;
}

export async function runDocker(input: PartInput): Promise<void> {
	const { checks, sim, work, packed } = input;
	checks.begin('docker: the daemon and the images');
	const daemon = await checks.timed('docker: start dockerd', () => startDaemon());
	let release: (() => void) | undefined;
	let forwarder: Server | undefined;
	const tasks = videoTasks(sim);
	try {
		await ensureImages(checks, work, N8N_VERSION);
		release = confine();
		const gateway = daemon.hostGateway;
		// The simulator as containers reach it: its URLs (credentials, video files) name the forwarder.
		const fwd = await forward(gateway, Number(new URL(sim.url).port));
		forwarder = fwd.server;
		Object.defineProperty(sim, 'url', { configurable: true, get: () => `http://${gateway}:${fwd.port}` });
		const port = await freePort();
		const base = `https://${gateway}:${port}`;
		// The gateway (on the host) calls n8n's public name; the host reaches the proxy at this address.
		tasks.routeCallback = (url) => url.replace(`//${PUBLIC_NAME}:`, `//${gateway}:`);

		const dir = join(work, 'docker');
		run('cp', ['-a', join(repoRoot, 'docker'), dir]);
		for (const local of ['.env', 'packages', 'certs', 'ca-certificates']) {
			const path = join(dir, local);
			if (local === '.env') rmSync(path, { force: true });
			else for (const f of readdirSync(path).filter((f) => !f.endsWith('.txt'))) rmSync(join(path, f));
		}
		copyFileSync(packed.tarball, join(dir, 'packages', `${PACKAGE}-${packed.version}.tgz`));
		const tls = certificate(work, [PUBLIC_NAME, gateway]);
		copyFileSync(tls.cert, join(dir, 'certs', 'fullchain.pem'));
		copyFileSync(tls.key, join(dir, 'certs', 'privkey.pem'));
		copyFileSync(tls.cert, join(dir, 'ca-certificates', 'e2e-ca.pem'));
		writeFileSync(
			join(dir, '.env'),
			[
				`COMPOSE_PROJECT_NAME=${PROJECT}`,
				`N8N_VERSION=${N8N_VERSION}`,
				`N8N_ENCRYPTION_KEY=${randomBytes(32).toString('hex')}`,
				`N8N_HOST=${PUBLIC_NAME}`,
				`PUBLIC_URL=https://${PUBLIC_NAME}:${port}/`,
				`PROXY_LISTEN=${gateway}:${port}`,
				`POSTGRES_PASSWORD=${randomBytes(24).toString('hex')}`,
				'NODE_EXTRA_CA_CERTS=/ca-certificates/e2e-ca.pem',
				'',
			].join('\n'),
		);
		const p = project(dir);
		// Whatever an earlier run that was cut short left behind.
		for (const file of [QUEUE_FILE, ONE_FILE]) p.compose(file, ['down', '-v', '--remove-orphans']);
		// One instance, then the move to queue mode on its volume, then the npm route on a new instance.
		try {
			const moved = await checks.timed('docker: one instance', () => oneInstance(input, p, base));
			await checks.timed('docker: queue mode', () => queueMode(input, p, base, moved));
		} catch (error) {
			checks.broke('docker: one instance and queue mode', error);
		}
		try {
			await checks.timed('docker: npm route', () => npmRoute(input, p, base));
		} catch (error) {
			checks.broke('docker: npm route', error);
		}
	} finally {
		tasks.routeCallback = undefined;
		delete (sim as { url?: string }).url;
		forwarder?.close();
		release?.();
		// Each `up --build` leaves the image it replaced without a name: removed, so that runs do not pile them up.
		try {
			if (daemon.ours) docker(['image', 'prune', '-f'], 300_000);
		} catch (error) {
			checks.broke('docker image prune', error);
		}
		await checks.timed('docker: stop dockerd', () => daemon.stop());
	}
}
