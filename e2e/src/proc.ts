/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Every process the suite starts goes through here: each runs in a process
 * group of its own, its output goes to e2e-output/logs/<name>.log, and all of
 * them are stopped at the end, on failure, and, once the entry point called
 * installExitHandlers, on Ctrl-C and when the runner itself exits (a last
 * synchronous SIGKILL to each group). `./scripts/run n8n` (tools/devServer.ts)
 * starts and stops its n8n with the same helpers.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** e2e-output/ in the checkout; `E2E_OUTPUT_DIR` puts a run's results elsewhere (two runs side by side). */
export const outputDir = process.env.E2E_OUTPUT_DIR || join(__dirname, '..', '..', 'e2e-output');
export const logsDir = join(outputDir, 'logs');

export interface Proc {
	name: string;
	child: ChildProcess;
	logFile: string;
	exited: Promise<number | null>;
	/** The log so far. */
	log(): string;
}

const running = new Set<Proc>();

/** `logFile`: the log elsewhere than e2e-output/logs/<name>.log, written afresh (not appended to). */
export function start(
	name: string,
	command: string,
	args: string[],
	options: { env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number; logFile?: string } = {},
): Proc {
	const logFile = options.logFile ?? join(logsDir, `${name}.log`);
	mkdirSync(dirname(logFile), { recursive: true });
	const log = createWriteStream(logFile, { flags: options.logFile ? 'w' : 'a' });
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		uid: options.uid,
		gid: options.gid,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stdout!.pipe(log, { end: false });
	child.stderr!.pipe(log, { end: false });
	const proc: Proc = {
		name,
		child,
		logFile,
		exited: new Promise((resolve) =>
			child.on('exit', (code) => {
				running.delete(proc);
				resolve(code);
			}),
		),
		log: () => readFileSync(logFile, 'utf8'),
	};
	child.on('error', (error) => log.write(`spawn error: ${error.message}\n`));
	running.add(proc);
	return proc;
}

/** A signal to the process's group (itself and whatever it started there); synchronous, for exit handlers too. */
export function signalGroup(proc: Proc, signal: NodeJS.Signals): void {
	try {
		process.kill(-proc.child.pid!, signal);
	} catch {
		// already gone
	}
}

/**
 * SIGTERM to the process group, SIGKILL after `graceMs`. A process that already ended gets a SIGKILL
 * to its group: the children it left behind there.
 */
export async function stop(proc: Proc, graceMs = 15_000): Promise<void> {
	if (!running.has(proc)) return signalGroup(proc, 'SIGKILL');
	signalGroup(proc, 'SIGTERM');
	const timer = setTimeout(() => signalGroup(proc, 'SIGKILL'), graceMs);
	await proc.exited;
	clearTimeout(timer);
	signalGroup(proc, 'SIGKILL'); // children left behind in the group
}

/** SIGKILL to the process group at once (`kill -9`: nothing of the process gets to finish). */
export async function kill(proc: Proc): Promise<void> {
	if (!running.has(proc)) return;
	signalGroup(proc, 'SIGKILL');
	await proc.exited;
}

export async function stopAll(): Promise<void> {
	await Promise.all([...running].reverse().map((p) => stop(p)));
}

/**
 * Stops every process started here when the runner exits, and on Ctrl-C or SIGTERM (then exits
 * with 130). Called by the suite's entry point only: a tool that imports these helpers keeps its
 * own signal handling.
 */
export function installExitHandlers(): void {
	process.on('exit', () => {
		for (const proc of running) signalGroup(proc, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.on(signal, () => {
			process.stdout.write(`\n${signal}: stopping everything the suite started\n`);
			void stopAll().finally(() => process.exit(130));
		});
	}
}

/** Runs a command to its end (bounded), failing with its output when it fails. */
export function run(
	command: string,
	args: string[],
	options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; uid?: number; gid?: number } = {},
): SpawnSyncReturns<string> {
	const result = spawnSync(command, args, {
		cwd: options.cwd,
		uid: options.uid,
		gid: options.gid,
		env: options.env ?? process.env,
		encoding: 'utf8',
		timeout: options.timeoutMs ?? 120_000,
		killSignal: 'SIGKILL',
	});
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined), at most `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined> | T | undefined,
	timeoutMs: number,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	while (Date.now() < deadline) {
		try {
			const value = await probe();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = error;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
	);
}
