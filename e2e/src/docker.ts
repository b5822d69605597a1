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
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';

import { videoTasks } from '../../test/simulator/video/tasks';
import { runCallbackWait } from './callbackWait';
import { certificate } from './certificate';
import { docker, startDaemon } from './dockerd';
import {
	bigVideo,
	forward,
	healthy,
	INSIDE_URL,
	MOVE,
	ONE_FILE,
	packageIn,
	packagesHold,
	packageTypes,
	PROJECT,
	type Project,
	project,
	PUBLIC_NAME,
	QUEUE_FILE,
	repack,
	saveLogs,
	signedIn,
	up,
} from './dockerProject';
import { queueMode } from './dockerQueue';
import { checkToolVariant } from './examples';
import { freePort } from './http';
import { N8N_VERSION, repoRoot } from './n8n';
import { run } from './proc';
import { ensureImages } from './standins';
import type { PartInput } from './start';
import { createCredentials, PACKAGE } from './workflows';

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
