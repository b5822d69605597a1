/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Virtual time for the tests about lags, windows, Retry-After, back-off and deadlines:
 * the node, the gateway simulator and the harness run on one clock that moves only when the
 * test file's process has nothing else to do, so no test waits in real time for a pause, and
 * none depends on real time passing (or not passing) between two steps.
 *
 * `useVirtualTime()`, called at the top of a test file (before its own beforeAll/afterAll),
 * installs jest's modern fake timers for the file (Date, setTimeout, setInterval and their
 * clear functions; not nextTick, setImmediate or queueMicrotask) and starts a driver:
 * - everything in the file's realm reads that clock: the package loaded from dist/ (Date.now,
 *   and n8n-workflow's sleep, i.e. setTimeout, behind nodes/shared/time.ts's systemClock),
 *   n8n-core and axios's request deadline (follow-redirects' timer), the in-process simulator
 *   (task timing, callback deliveries and their pauses, `slow` and `trickle` faults) and the
 *   harness (`until`, `WaitingExecutions.finished`). Real I/O is untouched: Node's http, net and
 *   tls run on Node's own timers, so real sockets carry every request over real HTTP(S).
 * - the driver jumps to the next virtual timer (and fires every timer due then) only when the
 *   process is quiet for QUIET_TURNS real event-loop turns in a row: no libuv request pending
 *   (fs, dns, connect, write, shutdown), no foreign setImmediate queued, and no byte in transit
 *   between two in-process sockets (each socket's bytes written equal its peer's bytes read; no
 *   connect, TLS handshake, buffered write or end of stream under way). So a step happens only
 *   when every party waits for a timer: virtual time never passes while a request or its answer
 *   is on its way, and always passes when everything waits.
 * - Node's own socket idle timeouts (axios's `req.setTimeout`, the simulator's callback
 *   `timeout`) stay real: they measure silence on a socket, which virtual time makes short.
 *
 * What a test may assert is unchanged: counts, orders, and schedules read on the clock (the
 * simulator's `at` and `sentAt`, `Date.now()` around a step), which are now exact; never how long
 * something took in real time. The real-time behaviour stays covered by the e2e suite and the
 * bench (which use the same simulator on the real clock).
 */
import * as diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { type Server, Socket } from 'node:net';
import { setImmediate as realImmediate, setTimeout as realTimeout } from 'node:timers';
import { TLSSocket } from 'node:tls';

import { untracked } from './untracked';

/** Real event-loop turns with nothing moving before virtual time may jump. */
const QUIET_TURNS = 3;

/** libuv requests (process.getActiveResourcesInfo()) that mean work under way, and queued immediates. */
const WORK_UNDER_WAY = /Req|^(ConnectWrap|WriteWrap|ShutdownWrap|Immediate)$/;

/**
 * A socket, whether it is a TLS one, and its connection end, "local|remote", and its peer's,
 * "remote|local" (set once both are known).
 */
type SocketState = { socket: Socket; tls: boolean; key?: string; peerKey?: string };

// The driver's own turns, not tracked by the open-handle check: they end when the driver stops.
const wake = (resolve: () => void) => untracked(() => resolve());
const nextTurn = async () => await new Promise<void>((resolve) => realImmediate(wake(resolve)));
const pause = async (ms: number) => await new Promise<void>((resolve) => realTimeout(wake(resolve), ms));

/**
 * Whether the socket has received its peer's end of stream (or is gone). `readableEnded` turns true
 * only once the reader has consumed the end; Node's internal `_readableState.ended` says it arrived,
 * also on a paused socket. If Node drops it, such a socket looks like one whose end is still on its
 * way: virtual time stops and the test holding it times out.
 */
const ended = (socket: Socket) =>
	socket.destroyed ||
	socket.readableEnded ||
	Boolean((socket as unknown as { _readableState?: { ended?: boolean } })._readableState?.ended);

/** Every socket of the process, from its creation to its close (client and server side). */
class Sockets {
	/** Each socket with its state, written once: scans run every turn. */
	private readonly live = new Map<Socket, SocketState>();

	/** Keys ("local|remote") of in-process sockets that closed while their peer may still be open. */
	private readonly closed = new Set<string>();

	private readonly channels: Array<[string, (message: unknown) => void]> = [
		['net.client.socket', (message) => this.add((message as { socket: Socket }).socket)],
		['net.server.socket', (message) => this.add((message as { socket: Socket }).socket)],
		// A client socket that net.client.socket does not announce (an https request's on Node 20).
		[
			'http.client.request.start',
			(message) => this.addWhenAssigned((message as { request: ClientRequest }).request),
		],
		// An https server's TLS socket (the raw one comes through net.server.socket).
		['http.server.request.start', (message) => this.add((message as { socket: Socket }).socket)],
	];

	start(): void {
		for (const [name, listener] of this.channels) diagnostics.subscribe(name, listener);
	}

	stop(): void {
		for (const [name, listener] of this.channels) diagnostics.unsubscribe(name, listener);
		this.live.clear();
		this.closed.clear();
	}

	private add(socket: Socket | undefined): void {
		if (!(socket instanceof Socket) || this.live.has(socket)) return;
		const state: SocketState = { socket, tls: socket instanceof TLSSocket };
		this.live.set(socket, state);
		socket.once('close', () => {
			this.live.delete(socket);
			if (state.key) this.closed.add(state.key);
		});
	}

	private addWhenAssigned(request: ClientRequest): void {
		if (request.socket) this.add(request.socket);
		else request.once('socket', (socket: Socket) => this.add(socket));
	}

	/** The socket's keys, once its addresses are known. */
	private static keyed(state: SocketState): state is Required<SocketState> {
		const { socket } = state;
		if (!state.key && socket.localPort !== undefined && socket.remotePort !== undefined) {
			const local = `${socket.localAddress}:${socket.localPort}`;
			const remote = `${socket.remoteAddress}:${socket.remotePort}`;
			state.key = `${local}|${remote}`;
			state.peerKey = `${remote}|${local}`;
		}
		return state.key !== undefined;
	}

	/** What is moving between in-process sockets now, or undefined when nothing is. */
	moving(): string | undefined {
		// The top socket of each connection end: an https server's TLS socket over its raw one.
		const ends = new Map<string, Required<SocketState>>();
		for (const state of this.live.values()) {
			const { socket } = state;
			if (socket.destroyed) continue;
			if (socket.connecting) return 'a connection being opened';
			if (!Sockets.keyed(state)) continue;
			// No public flag says a TLS handshake is over (`getProtocol()` does not on the server side). If
			// Node renames `_secureEstablished`, every TLS socket looks mid-handshake: virtual time stops
			// while any https connection is open, and the https tests time out first.
			if (state.tls && !(socket as unknown as { _secureEstablished?: boolean })._secureEstablished)
				return 'a TLS handshake';
			if (socket.writableLength > 0) return `${socket.writableLength} bytes waiting to be written`;
			const other = ends.get(state.key);
			if (!other || (state.tls && !other.tls)) ends.set(state.key, state);
		}
		let listening: Set<number> | undefined;
		for (const { key, peerKey, socket, tls } of ends.values()) {
			const peer = ends.get(peerKey);
			if (peer) {
				if (tls !== peer.tls) return 'a TLS connection whose server side has not read its request yet';
				if (socket.bytesWritten > peer.socket.bytesRead)
					return `${socket.bytesWritten - peer.socket.bytesRead} bytes on their way (${key})`;
				continue;
			}
			if (ended(socket)) continue;
			// The peer closed and its end of stream is on its way, or a connection not accepted yet.
			if (this.closed.has(peerKey)) return `an end of stream on its way (${key})`;
			listening ??= listeningPorts();
			if (listening.has(socket.remotePort ?? -1)) return `a connection to be accepted (${key})`;
		}
		// Forget closed ends that no open socket pairs with any more.
		for (const key of this.closed) {
			const [local, remote] = key.split('|');
			if (!ends.has(`${remote}|${local}`)) this.closed.delete(key);
		}
		return undefined;
	}
}

/**
 * Ports this process listens on (the simulator's, the waiting-webhook route's...), to tell a
 * connection its server has not accepted yet. Node lists no servers publicly, hence its internal
 * `_getActiveHandles`. If Node removes it, the driver throws at the first connection waiting to be
 * accepted and virtual time stops; if its handles change shape, ports go missing and virtual time
 * may jump while a connection waits, so a request timeout fires early.
 */
function listeningPorts(): Set<number> {
	const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
	const ports = new Set<number>();
	for (const handle of handles) {
		const address = (handle as Partial<Server>).address?.();
		if (address && typeof address === 'object' && 'port' in address && !(handle instanceof Socket))
			ports.add(address.port);
	}
	return ports;
}

/** Jumps virtual time from timer to timer whenever the process is quiet (see the file's header). */
class Driver {
	private readonly sockets = new Sockets();

	private running: Promise<void> | undefined;

	private stopped = false;

	/** A virtual timer's callback that threw: the file fails with it (a real timer's would too). */
	private error: unknown;

	start(): void {
		this.sockets.start();
		this.running = this.loop();
	}

	async stop(): Promise<void> {
		this.stopped = true;
		await this.running;
		this.sockets.stop();
		if (this.error) throw this.error;
	}

	/** Why the process is not quiet now, or undefined when it is. */
	private busy(): string | undefined {
		const work = process.getActiveResourcesInfo().filter((type) => WORK_UNDER_WAY.test(type));
		if (work.length) return work.join(', ');
		return this.sockets.moving();
	}

	private async loop(): Promise<void> {
		let quiet = 0;
		while (!this.stopped) {
			if (this.busy()) {
				// Real I/O under way, which virtual time does not move: look again in a real millisecond.
				quiet = 0;
				await pause(1);
				continue;
			}
			if (++quiet < QUIET_TURNS) {
				await nextTurn();
				continue;
			}
			quiet = 0;
			if (jest.getTimerCount() === 0) {
				// Everyone waits for something real (or for the test): look again shortly.
				await pause(1);
				continue;
			}
			try {
				jest.advanceTimersToNextTimer();
			} catch (error) {
				this.error ??= error;
			}
			await nextTurn();
		}
	}
}

let driver: Driver | undefined;

/**
 * Runs the calling test file on virtual time (see the file's header): call it at the top of the
 * file, before the file's own hooks, so that the clock is in place for them. The file's afterAll
 * hooks run after it is back on real timers (they only close servers and sockets).
 */
export function useVirtualTime(): void {
	beforeAll(() => {
		jest.useFakeTimers({
			advanceTimers: false,
			doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'performance'],
		});
		driver = new Driver();
		driver.start();
	});
	afterAll(async () => {
		const stopping = driver;
		driver = undefined;
		try {
			await stopping?.stop();
		} finally {
			jest.useRealTimers();
		}
	});
}
