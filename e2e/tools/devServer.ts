/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * `./scripts/run n8n`: the package in a real n8n's editor, with the gateway simulator as its gateway.
 *
 * n8n 2.41.1 (the e2e suite's cached install, e2e/n8n/2.41.1) on http://localhost:5678 (a free port
 * when 5678 is taken), loopback only; the package built from this checkout loaded as an installed
 * community package; the simulator on loopback; the owner account, the three credentials (pointing
 * at the simulator) and every example workflow already in place. n8n keeps its files in .n8n-dev/
 * (git-ignored), so a second start is warm and nothing is created twice.
 *
 * Reload on build: n8n watches the folders of its community packages when N8N_DEV_RELOAD=true and
 * reloads a package whose files change. The package folder is a copy of the checkout's dist/ (a
 * link would make the package's require('n8n-workflow') find the checkout's own copy instead of
 * n8n's, and n8n's instanceof checks on errors would fail): this process copies dist/ again each
 * time a build has finished writing it, and n8n reloads the copy.
 *
 * Ctrl-C (or SIGTERM) stops n8n and the simulator; nothing is left running.
 *
 * It handles its own Ctrl-C: it never calls the suite's installExitHandlers (../src/proc), which
 * ends the process with 130.
 */
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';

import { startSimulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import { freePort, http } from '../src/http';
import { LOCAL_N8N_SETTINGS, N8N_VERSION, n8nInstall, repoRoot } from '../src/n8n';
import { signalGroup, start, stop, waitFor, type Proc } from '../src/proc';
import { DEV_OWNER, ensureCredentials, ensureExamples, Rest, type DevState } from './devSetup';

const PACKAGE = 'n8n-nodes-generation-gateway';
/**
 * n8n's data; GG_N8N_DEV_DIR puts it elsewhere (the e2e suite starts this command from scratch in a
 * temporary folder). Its real path: n8n's reload forgets the package's cached modules by path prefix,
 * and Node caches them under their real path.
 */
const devDir = (() => {
	const dir = resolve(process.env.GG_N8N_DEV_DIR || join(repoRoot, '.n8n-dev'));
	mkdirSync(dir, { recursive: true });
	return realpathSync(dir);
})();

/** Video tasks end after a few seconds, so a Create and Wait can be watched to its end in the editor. */
const VIDEO_TIMING = { queueAfterMs: 1_000, runAfterMs: 2_000, doneAfterMs: 4_000 };

const say = (line: string) => process.stdout.write(`${line}\n`);

const stateFile = join(devDir, 'dev-state.json');

function readState(): DevState {
	try {
		return JSON.parse(readFileSync(stateFile, 'utf8')) as DevState;
	} catch {
		return { credentials: {}, workflows: {} };
	}
}

/** One start at a time per checkout: two n8n processes on one SQLite file would corrupt it. */
function takeLock(): void {
	const lock = join(devDir, 'launcher.pid');
	if (existsSync(lock)) {
		const pid = Number(readFileSync(lock, 'utf8'));
		let alive = false;
		try {
			process.kill(pid, 0);
			alive = pid > 0;
		} catch {
			// not running: a stale lock
		}
		if (alive) throw new Error(`./scripts/run n8n is already running for this checkout (pid ${pid})`);
	}
	writeFileSync(lock, String(process.pid));
	process.on('exit', () => rmSync(lock, { force: true }));
}

async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

// ---- the package, as n8n's Community Nodes installer would leave it, refreshed on every build

const packageDir = () => join(devDir, '.n8n', 'nodes', 'node_modules', PACKAGE);

/** Files and their sizes and times under dist/: a build changes it. */
function distSignature(): string {
	const dist = join(repoRoot, 'dist');
	const entries: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else {
				const stat = statSync(path);
				entries.push(`${relative(dist, path)}:${stat.size}:${stat.mtimeMs}`);
			}
		}
	};
	try {
		walk(dist);
	} catch {
		return ''; // dist/ removed or being rewritten
	}
	return entries.sort().join('\n');
}

/** Whether dist/ holds every file package.json names (a build that failed or is half done does not). */
function distComplete(): boolean {
	const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
		main?: string;
		n8n: { nodes: string[]; credentials: string[] };
	};
	return [manifest.main ?? 'dist/index.js', ...manifest.n8n.nodes, ...manifest.n8n.credentials].every(
		(file) => existsSync(join(repoRoot, file)),
	);
}

/**
 * Puts the built package into n8n's community package folder. The new dist/ is copied beside it and
 * swapped in with two renames, so n8n's watcher never reads a half-copied package.
 */
function copyPackage(): void {
	const target = packageDir();
	const nodes = join(target, '..', '..');
	mkdirSync(target, { recursive: true });
	const next = join(devDir, 'dist.next');
	const previous = join(devDir, 'dist.previous');
	rmSync(next, { recursive: true, force: true });
	rmSync(previous, { recursive: true, force: true });
	cpSync(join(repoRoot, 'dist'), next, { recursive: true });
	cpSync(join(repoRoot, 'package.json'), join(target, 'package.json'));
	if (existsSync(join(target, 'dist'))) renameSync(join(target, 'dist'), previous);
	renameSync(next, join(target, 'dist'));
	rmSync(previous, { recursive: true, force: true });
	const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
	writeFileSync(
		join(nodes, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: version } }, null, 2),
	);
}

// ---- n8n

interface N8nRun {
	proc: Proc;
	url: string;
	port: number;
}

async function startN8n(port: number): Promise<N8nRun> {
	const { bin, node } = n8nInstall();
	const url = `http://localhost:${port}`;
	const env: NodeJS.ProcessEnv = {
		...process.env,
		// n8n's task runner starts `node` from PATH: the same Node as n8n.
		PATH: `${join(node, '..')}:${process.env.PATH}`,
		N8N_USER_FOLDER: devDir,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${url}/`,
		WEBHOOK_URL: `${url}/`,
		// Plain http on loopback: a cookie marked Secure would need https.
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DEV_RELOAD: 'true',
		...LOCAL_N8N_SETTINGS,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
	};
	// A process group of its own: Ctrl-C reaches this process, which stops n8n and its task runner.
	const proc = start('n8n', node, [bin, 'start'], { env, cwd: devDir, logFile: join(devDir, 'n8n.log') });
	return { proc, url, port };
}

/** SIGTERM, SIGKILL after 20 s; also to whatever n8n started (its task runner) and left in its group. */
async function stopN8n(run: N8nRun): Promise<void> {
	const slow = setTimeout(() => say('n8n did not stop within 20 s: killing it'), 20_000);
	await stop(run.proc, 20_000);
	clearTimeout(slow);
}

function logTail(file: string, lines = 30): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** Until n8n answers its readiness probe; fails at once when n8n exits first. */
async function waitReady(run: N8nRun, timeoutMs: number): Promise<void> {
	const { logFile } = run.proc;
	const ready = waitFor(
		'n8n to answer',
		async () => {
			const answer = await http(`http://127.0.0.1:${run.port}/healthz/readiness`, { timeoutMs: 5_000 });
			return answer.status === 200 ? true : undefined;
		},
		timeoutMs,
		300,
	).then(
		() => undefined,
		() => new Error(`n8n did not answer within ${timeoutMs / 1000} s; its log: ${logFile}`),
	);
	const exited = run.proc.exited.then(
		() => new Error(`n8n exited while starting; its log (${logFile}) ends:\n${logTail(logFile)}`),
	);
	const failure = await Promise.race([ready, exited]);
	if (failure) throw failure;
}

// ---- what a user finds in place: owner, credentials, examples

// ---- the whole command

async function main(): Promise<void> {
	const startedAt = Number(process.env.GG_RUN_STARTED_MS) || Date.now();
	mkdirSync(devDir, { recursive: true });
	takeLock();
	const port = (await portIsFree(5678)) ? 5678 : await freePort();
	if (port !== 5678) say(`port 5678 is taken: n8n gets ${port}`);

	const sim = await startSimulator();
	videoTasks(sim).timing = { ...VIDEO_TIMING };
	const simLog = join(devDir, 'simulator.log');
	writeFileSync(simLog, `simulator on ${sim.url}, keys ${JSON.stringify(sim.keys)}\n`);
	let logged = 0;

	copyPackage();
	let copied = distSignature();
	let seen = copied;
	const n8n = await startN8n(port);

	// Once a second: the simulator's new requests into its log, and a finished build into n8n.
	const ticker = setInterval(() => {
		for (const request of sim.requests.slice(logged)) {
			appendFileSync(
				simLog,
				`${new Date(request.at).toISOString()} ${request.method} ${request.path} -> ${request.status ?? '…'}\n`,
			);
		}
		logged = sim.requests.length;
		const now = distSignature();
		// A build rewrites dist/ over several seconds: copy once it has stood still for a second.
		if (now !== seen) {
			seen = now;
			return;
		}
		if (now === copied || !now || !distComplete()) return;
		copied = now;
		try {
			copyPackage();
			say(`${new Date().toISOString().slice(11, 19)} dist/ changed: package copied, n8n reloads it`);
		} catch (error) {
			say(`dist/ changed but could not be copied into n8n: ${(error as Error).message}`);
		}
	}, 1_000);

	let stopping = false;
	const shutdown = async (why: string, exitCode = 0) => {
		if (stopping) {
			signalGroup(n8n.proc, 'SIGKILL');
			process.exit(130);
		}
		stopping = true;
		clearInterval(ticker);
		say(`\n${why}: stopping n8n and the simulator`);
		await stopN8n(n8n);
		await sim.stop();
		say('stopped: nothing left running');
		process.exit(exitCode);
	};
	process.on('SIGINT', () => void shutdown('Ctrl-C'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));
	// Whatever ends this process ends n8n too.
	process.on('exit', () => signalGroup(n8n.proc, 'SIGKILL'));
	void n8n.proc.exited.then((code) => {
		if (stopping) return;
		say(`n8n exited (${code}); its log (${n8n.proc.logFile}) ends:\n${logTail(n8n.proc.logFile)}`);
		void shutdown('n8n exited', 1);
	});

	try {
		await waitReady(n8n, 300_000);
		const rest = new Rest(`http://127.0.0.1:${port}`);
		await rest.login();
		const state = readState();
		await ensureCredentials(rest, sim, state, `http://127.0.0.1:${port}`);
		const examples = await ensureExamples(rest, state);
		writeFileSync(stateFile, JSON.stringify(state, null, 2));
		const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
		const rel = (path: string) => relative(process.cwd(), path) || '.';
		say('');
		say(`n8n ${N8N_VERSION} is ready with ${PACKAGE} built from this checkout (${seconds} s)`);
		say(`  Editor:      ${n8n.url}`);
		say(`  Sign in:     ${DEV_OWNER.email} / ${DEV_OWNER.password}`);
		say(`  Workflows:   ${examples} examples from examples/, ready for "Execute workflow"`);
		say(
			`  Credentials: "Generation Gateway simulator (...)": three types pointing at the simulator, and Recover Waits' (this n8n)`,
		);
		say(`  Simulator:   ${sim.url} (video tasks end after ${VIDEO_TIMING.doneAfterMs / 1000} s)`);
		say(`  Files:       what the workflows get from the simulator (images, audio, video) n8n stores under`);
		say(
			`               ${rel(join(devDir, '.n8n', 'storage'))}/workflows/<workflow>/executions/<run>/binary_data/ (each`,
		);
		say(`               node's output, Binary tab); the simulator's requests: ${rel(simLog)}`);
		say(`  n8n's log:   ${rel(n8n.proc.logFile)}; its data: ${rel(devDir)}/ (delete it to start afresh)`);
		say('  Reload:      `npm run build` in another terminal; n8n reloads the package (refresh the editor)');
		say('Ctrl-C stops n8n and the simulator.');
	} catch (error) {
		say(`n8n could not be prepared: ${(error as Error).message}`);
		await shutdown('error', 1);
	}
}

void main().catch((error) => {
	process.stderr.write(`./scripts/run n8n: ${(error as Error).message ?? error}\n`);
	process.exit(1);
});
