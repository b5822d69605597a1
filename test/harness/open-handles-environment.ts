/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The jest environment of every test file (jest.config.js): node's, plus a check that the file
 * closed what it opened. When the file is over (its tests and afterAll hooks have run), no timer,
 * socket, server, pipe or child process opened while it ran may still be open; otherwise the file
 * fails with "left open: ..." naming the resource types and where each was opened. A leaked
 * handle would keep jest's worker alive after the run (jest then prints "A worker process has
 * failed to exit gracefully" and kills it), or wake up inside the next test file.
 *
 * The resources are tracked one by one with async_hooks from the file's start (counting types
 * with process.getActiveResourcesInfo() is not enough: when a single file runs in jest's own
 * process, jest's timers come and go and hide one of the file's). Only what keeps the event loop
 * alive counts (ref'd: an unref'd timer or socket does not). Sockets and servers close
 * asynchronously (the handle is released a turn or two of the event loop after
 * destroy()/close()), so the check waits for them, at most CLOSE_GRACE_MS; a timer still armed
 * after that is a leak whatever its delay. Reported leaks are unref'd so that they do not also
 * hold the run. The virtual-time driver's own turns are not tracked (untracked.ts).
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';
import { type AsyncHook, createHook } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import vm from 'node:vm';

import { UNTRACKED } from './untracked';

export const CLOSE_GRACE_MS = 2000;

/**
 * async_hooks types of the resources that keep the event loop alive until closed: timers and
 * libuv handles (each has hasRef()). A TLS connection is its TCPWRAP; requests (fs, dns...)
 * end by themselves.
 */
const TRACKED = new Set([
	'Timeout',
	'Immediate',
	'TCPWRAP',
	'TCPSERVERWRAP',
	'PIPEWRAP',
	'PIPESERVERWRAP',
	'PROCESSWRAP',
	'UDPWRAP',
	'SIGNALWRAP',
	'FSEVENTWRAP',
	'STATWATCHER',
	'MESSAGEPORT',
]);

/** Frames captured where a resource is opened: Node's own first, then the 8 of the file's that are kept. */
const STACK_FRAMES = 24;

/**
 * A timer or immediate whose callback is marked untracked (untracked.ts). Node keeps the callback in
 * `_onTimeout` or `_onImmediate`, set before the resource's init hook; should it rename them, such
 * timers are tracked like any other.
 */
function untrackedTimer(resource: unknown): boolean {
	const { _onTimeout, _onImmediate } = resource as { _onTimeout?: unknown; _onImmediate?: unknown };
	const callback = _onTimeout ?? _onImmediate;
	return typeof callback === 'function' && UNTRACKED in callback;
}

const JEST_FRAME = /node_modules\/(@jest\/|jest-[a-z-]+\/|jest\/)/;

/** A resource opened by the file, and where. */
class Tracked {
	private sites: NodeJS.CallSite[] | undefined;

	private text: string | undefined;

	constructor(
		readonly type: string,
		readonly resource: { hasRef?: () => boolean; unref?: () => unknown },
		private readonly origin: Error,
	) {}

	/** The file's own call sites where it was opened (Node's and this file's left out), at most 8. */
	private own(): NodeJS.CallSite[] {
		this.sites ??= callSites(this.origin)
			.filter((site) => {
				const file = site.getFileName() ?? '';
				return !file.startsWith('node:') && !file.includes('open-handles-environment');
			})
			.slice(0, 8);
		return this.sites;
	}

	/** Opened by jest itself (its reporter's status timer when a single file runs in jest's process), not by the file. */
	get jests(): boolean {
		return JEST_FRAME.test(this.own()[0]?.getFileName() ?? '');
	}

	/** The file's own frames where it was opened, as Node (or jest's source maps) prints them. */
	get stack(): string {
		return (this.text ??= printed(this.own()));
	}
}

/**
 * Where a resource is opened: an error whose stack V8 records as it is made but prints only when it
 * is first read. Printing each new timer's stack (source maps looked up frame by frame), or even
 * reading its call sites, costs far more than the timer itself, and only a leak's stack is ever read.
 */
function origin(): Error {
	const limit = Error.stackTraceLimit;
	// Enough for Node's own frames above the 8 of the file's that are kept (jest's limit is 100).
	Error.stackTraceLimit = STACK_FRAMES;
	try {
		return new Error();
	} finally {
		Error.stackTraceLimit = limit;
	}
}

/** The call sites of an error not read yet (its stack is made once, on this first read). */
function callSites(error: Error): NodeJS.CallSite[] {
	const prepare = Error.prepareStackTrace;
	Error.prepareStackTrace = (_error, sites) => sites;
	try {
		return error.stack as unknown as NodeJS.CallSite[];
	} finally {
		Error.prepareStackTrace = prepare;
	}
}

/** The "    at ..." lines of these call sites, printed as `new Error().stack` prints them. */
function printed(sites: NodeJS.CallSite[]): string {
	const text = Error.prepareStackTrace
		? String(Error.prepareStackTrace(new Error(), sites))
		: sites.map((site) => `    at ${String(site)}`).join('\n');
	return text
		.split('\n')
		.filter((line) => /^\s+at /.test(line))
		.join('\n');
}

/**
 * Records the resources created from now on and still alive (a timer not yet fired or cleared, a
 * socket, server or child process not yet closed) and keeping the process alive (ref'd).
 */
export class OpenResources {
	private readonly live = new Map<number, Tracked>();

	private readonly hook: AsyncHook;

	constructor() {
		this.hook = createHook({
			init: (asyncId, type, _trigger, resource) => {
				if (!TRACKED.has(type) || untrackedTimer(resource)) return;
				this.live.set(asyncId, new Tracked(type, resource as Tracked['resource'], origin()));
			},
			destroy: (asyncId) => void this.live.delete(asyncId),
			// A promise keeps nothing open. Tracked, each one would cost a call here and a destroy hook
			// (the option is Node 24's; older Node ignores it and tracks them).
			trackPromises: false,
		} as Parameters<typeof createHook>[0]);
		this.hook.enable();
	}

	/**
	 * Prints the stacks of what is open now, while jest can still map the file's lines to its
	 * sources (it forgets its source maps before the environment's teardown).
	 */
	printStacks(): void {
		for (const tracked of this.live.values()) void tracked.stack;
	}

	/**
	 * The tracked resources still open and ref'd. The process's own stdout and stderr are not
	 * the file's: Node creates them on first use, as a pipe when output is piped, when a test's
	 * failure is reported (babel's debug module asks stderr whether it is a terminal), and they
	 * stay open for the process's life.
	 */
	open(): Tracked[] {
		const stdio = new Set(
			[process.stdout, process.stderr].map((stream) => (stream as unknown as { _handle?: unknown })._handle),
		);
		return [...this.live.values()].filter(
			(tracked) =>
				!stdio.has(tracked.resource) && (tracked.resource.hasRef?.() ?? true) && !tracked.jests,
		);
	}

	/**
	 * The tracked timers still armed but unref'd: open() passes them, as they do not keep the process
	 * alive, yet each keeps its callback, and what that holds, in memory until it fires or is cleared.
	 */
	unrefdTimers(): Tracked[] {
		return [...this.live.values()].filter(
			(tracked) => tracked.type === 'Timeout' && tracked.resource.hasRef?.() === false,
		);
	}

	/** Waits until nothing tracked is open, at most `graceMs` (sockets and servers close a loop turn after close()); returns what is left. */
	async settle(graceMs = CLOSE_GRACE_MS): Promise<Tracked[]> {
		const until = Date.now() + graceMs;
		for (;;) {
			// Between two checks the event loop turns (closing handles are released in its close phase).
			await new Promise<void>((resolve) => setImmediate(resolve));
			const open = this.open();
			if (!open.length || Date.now() >= until) return open;
			await new Promise<void>((resolve) => setTimeout(resolve, 10).unref());
		}
	}

	stop(): void {
		this.hook.disable();
	}
}

/** "Timeout x2, TCPWRAP" */
export function describeTypes(resources: Array<{ type: string }>): string {
	const counts = new Map<string, number>();
	for (const { type } of resources) counts.set(type, (counts.get(type) ?? 0) + 1);
	return [...counts].map(([type, count]) => (count > 1 ? `${type} x${count}` : type)).join(', ');
}

/**
 * Gives the next context jest's node environment creates a plain global object, where Node offers
 * one (22.8 and later; the floor run's older Node keeps jest's own context): the code under test then
 * reads its globals (Object, Array, Date...) as an ordinary object's properties, not through the
 * interceptors of a contextified object, which made every such read slow. Returns the undo.
 */
function plainGlobalForNextContext(): () => void {
	const { DONT_CONTEXTIFY } = vm.constants as { DONT_CONTEXTIFY?: unknown };
	const original = vm.createContext;
	if (DONT_CONTEXTIFY === undefined) return () => undefined;
	Object.assign(vm, { createContext: () => original(DONT_CONTEXTIFY as vm.Context) });
	return () => Object.assign(vm, { createContext: original });
}

export default class OpenHandlesEnvironment extends NodeEnvironment {
	private readonly resources = new OpenResources();

	private readonly testPath: string;

	/** How long closing handles are waited for: CLOSE_GRACE_MS, or the config's `testEnvironmentOptions.closeGraceMs`. */
	private readonly graceMs: number;

	constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
		const restore = plainGlobalForNextContext();
		try {
			super(config, context);
		} finally {
			restore();
		}
		this.testPath = context.testPath;
		const { closeGraceMs } = config.projectConfig.testEnvironmentOptions;
		this.graceMs = typeof closeGraceMs === 'number' ? closeGraceMs : CLOSE_GRACE_MS;
	}

	private checked = false;

	/** After the file's tests and afterAll hooks, before jest forgets its source maps. */
	async handleTestEvent(event: Circus.Event): Promise<void> {
		if (event.name === 'run_finish') this.resources.printStacks();
	}

	async teardown(): Promise<void> {
		await super.teardown();
		// jest calls teardown() again when it threw: the file was checked (and failed) once.
		if (this.checked) return;
		this.checked = true;
		const start = Date.now();
		const atEnd = describeTypes(this.resources.open());
		const left = await this.resources.settle(this.graceMs);
		this.resources.stop();
		if (process.env.OPEN_HANDLES_LOG) {
			// Figures for the README: what each file still had open at its end, and how long it took to close.
			appendFileSync(
				process.env.OPEN_HANDLES_LOG,
				`${JSON.stringify({ file: this.testPath, atEnd, closedAfterMs: Date.now() - start, left: left.map((r) => `${r.type}\n${r.stack}`) })}\n`,
			);
		}
		if (left.length) {
			const where = left
				.map(
					({ type, stack }) =>
						`${type}, opened${stack ? `\n${stack}` : ' from node internals only (after an await)'}`,
				)
				.join('\n');
			const error = new Error(
				`${this.testPath} left open: ${describeTypes(left)} (still there ${this.graceMs} ms after its last ` +
					'afterAll). Close it in the test (server.close(), socket.destroy(), clearTimeout(), ' +
					`child.kill()...) or in the package code that opened it.\n${where}`,
			);
			error.stack = error.message; // the place of the check says nothing about the leak
			// Reported: it must not hold the run too (in band it lives in jest's own process, which
			// would never exit). unref() closes nothing, it only stops keeping the process alive.
			for (const { resource } of left) resource.unref?.();
			throw error;
		}
	}
}
