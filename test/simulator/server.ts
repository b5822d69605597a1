/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { RequestInvalid, sendError, sseEvent, startSse } from './http';
import { ROUTES } from './routes';
import type { AuthMechanism, Fault, FaultRule, LoggedRequest, Route, RouteContext } from './types';

/**
 * The gateway simulator: a local implementation of the Generation Gateway's
 * interface (its endpoints, rules, authentication and error envelope) for the
 * workflow tests, the demo and the benchmark. It listens on loopback only. Each resource adds its endpoints in
 * routes/<resource>.ts; this file owns what every endpoint shares:
 * authentication (the interface's Authentication table), the error envelope,
 * the request log and fault injection.
 */

/** The interface's Authentication table, restated here on purpose (the package has its own copy). */
const AUTH_TABLE: ReadonlyArray<{ prefix: string; mechanism: AuthMechanism }> = [
	{ prefix: '/v1/images/generations', mechanism: 'bearer' },
	{ prefix: '/v1/videos', mechanism: 'bearer' },
	{ prefix: '/v1/user/balance', mechanism: 'bearer' },
	{ prefix: '/v1/responses', mechanism: 'bearer' },
	{ prefix: '/v1/audio/speech', mechanism: 'bearer' },
	{ prefix: '/v1/messages', mechanism: 'apiKey' },
	{ prefix: '/v1beta/cachedContents', mechanism: 'nativeKey' },
];

export interface SimulatorKeys {
	bearer: string;
	apiKey: string;
	nativeKey: string;
}

export interface SimulatorOptions {
	keys?: Partial<SimulatorKeys>;
	/** Added to every answer, to model gateway latency (the concurrency benchmark, P1). */
	latencyMs?: number;
	/** Bytes per write when streaming SSE (small values exercise chunk boundaries). */
	sseChunkBytes?: number;
}

export const DEFAULT_KEYS: SimulatorKeys = {
	bearer: 'sim-bearer-token',
	apiKey: 'sim-api-key',
	nativeKey: 'sim-native-key',
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function matchPath(pattern: string | RegExp, path: string): Record<string, string> | undefined {
	if (typeof pattern === 'string') return pattern === path ? {} : undefined;
	const match = pattern.exec(path);
	return match ? { ...(match.groups ?? {}) } : undefined;
}

function mechanismFor(path: string): AuthMechanism | undefined {
	return AUTH_TABLE.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.mechanism;
}

export class Simulator {
	readonly keys: SimulatorKeys;

	/** Every request received, in arrival order. */
	readonly requests: LoggedRequest[] = [];

	/** Account state behind GET /v1/user/balance. */
	balance = { balance: 87.5, currency: 'USD', is_active: true, total: 100, used: 12.5 };

	/** Per-resource state that route modules keep (tasks, caches...). */
	readonly state = new Map<string, unknown>();

	latencyMs: number;

	sseChunkBytes: number;

	private faults: Array<FaultRule & { remaining: number }> = [];

	private gates: Gate[] = [];

	private server: Server | undefined;

	private sockets = new Set<Socket>();

	private port = 0;

	constructor(
		private readonly routes: Route[] = ROUTES,
		options: SimulatorOptions = {},
	) {
		this.keys = { ...DEFAULT_KEYS, ...options.keys };
		this.latencyMs = options.latencyMs ?? 0;
		this.sseChunkBytes = options.sseChunkBytes ?? 0;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Credential data for each of the package's credential types, pointing here. */
	credentials(overrides: Partial<SimulatorKeys> = {}) {
		const keys = { ...this.keys, ...overrides };
		return {
			generationGatewayBearerApi: { baseUrl: this.url, token: keys.bearer },
			generationGatewayApiKeyApi: { baseUrl: this.url, apiKey: keys.apiKey },
			generationGatewayNativeKeyApi: { baseUrl: this.url, apiKey: keys.nativeKey },
		};
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.dispatch(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async stop(): Promise<void> {
		// Background work of endpoints (video task callbacks) ends with the simulator.
		for (const value of this.state.values()) (value as { stop?: () => void }).stop?.();
		for (const gate of this.gates.splice(0)) gate.open();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
		this.server = undefined;
	}

	/** Makes the next `times` requests matching `path`/`method` meet `fault`. */
	inject(rule: FaultRule): void {
		this.faults.push({ ...rule, remaining: rule.times ?? 1 });
	}

	clearFaults(): void {
		this.faults = [];
		for (const gate of this.gates.splice(0)) gate.open();
	}

	/**
	 * Holds every request to `path` (after logging it, before answering it) until the gate is
	 * opened: a test sees how many requests the client has in flight at once without timing them.
	 * Opened by `open()`, `clearFaults()` or `stop()`.
	 */
	hold(path: string | RegExp): Gate {
		const gate = new Gate(path);
		this.gates.push(gate);
		return gate;
	}

	/** Requests received for a path (string equality or pattern). */
	requestsTo(path: string | RegExp, method?: string): LoggedRequest[] {
		return this.requests.filter(
			(r) => matchPath(path, r.path) !== undefined && (method === undefined || r.method === method),
		);
	}

	/** The fault the current request meets, consuming one use of its rule. */
	takeFault(method: string, path: string, kinds?: Array<Fault['kind']>): Fault | undefined {
		const rule = this.faults.find(
			(f) =>
				f.remaining > 0 &&
				(f.method === undefined || f.method === method) &&
				(f.path === undefined || matchPath(f.path, path) !== undefined) &&
				(kinds === undefined || kinds.includes(f.fault.kind)),
		);
		if (!rule) return undefined;
		rule.remaining -= 1;
		return rule.fault;
	}

	/**
	 * Streams SSE events, honouring the SSE faults: `sse-truncate` closes the
	 * stream early, `sse-malformed` sends a broken event, `sse-idle` stops
	 * writing without closing. Writes in `sseChunkBytes` pieces when set.
	 */
	async streamSse(ctx: RouteContext, events: Array<{ data: unknown; event?: string }>): Promise<void> {
		const { res } = ctx;
		const path = new URL(ctx.req.url ?? '/', 'http://x').pathname;
		const fault = this.takeFault(ctx.req.method ?? 'POST', path, [
			'sse-truncate',
			'sse-malformed',
			'sse-idle',
			'sse-drop',
			'sse-keepalive',
		]);
		startSse(res);
		let payload = '';
		const cut =
			fault &&
			(fault.kind === 'sse-truncate' ||
				fault.kind === 'sse-idle' ||
				fault.kind === 'sse-drop' ||
				fault.kind === 'sse-keepalive')
				? (fault.afterEvents ?? Math.max(1, events.length - 1))
				: events.length;
		for (const [index, event] of events.entries()) {
			if (fault?.kind !== 'sse-malformed' && index >= cut) break;
			payload += sseEvent(event.data, event.event);
			if (fault?.kind === 'sse-malformed' && index === 0) payload += 'data: {"type": broken\n\n';
		}
		const step = this.sseChunkBytes > 0 ? this.sseChunkBytes : payload.length || 1;
		const bytes = Buffer.from(payload);
		for (let offset = 0; offset < bytes.length; offset += step) {
			// A client that gave up (or a stopped simulator) gets nothing more: streaming on would
			// keep timers running after the test.
			if (res.destroyed) return;
			res.write(bytes.subarray(offset, offset + step));
			// Each piece its own write, one event-loop turn apart (a timer would wait at least 1 ms a piece).
			if (this.sseChunkBytes > 0) await nextTurn();
		}
		if (fault?.kind === 'sse-idle') return; // keeps the connection open and silent
		if (fault?.kind === 'sse-keepalive') {
			// Comments until the client (or the stopping simulator) closes the connection.
			const timer = setInterval(() => res.write(': keep-alive\n\n'), fault.everyMs);
			timer.unref();
			res.on('close', () => clearInterval(timer));
			return;
		}
		if (fault?.kind === 'sse-drop') {
			ctx.req.socket.destroy();
			return;
		}
		res.end();
	}

	private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const path = url.pathname;
		const method = (req.method ?? 'GET').toUpperCase();
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const logged: LoggedRequest = { method, path, headers: req.headers, body: undefined, at: Date.now() };
		this.requests.push(logged);
		res.on('finish', () => (logged.status = res.statusCode));
		try {
			let body: unknown;
			const text = rawBody.toString('utf8').trim();
			if (text) {
				try {
					body = JSON.parse(text);
				} catch {
					return sendError(res, 400, 'The request body is not valid JSON', { code: 'invalid_json' });
				}
			}
			logged.body = body;

			for (const gate of this.gates) if (matchPath(gate.path, path) !== undefined) await gate.pass();
			const fault = this.takeFault(method, path, [
				'status',
				'slow',
				'drop',
				'drop-after',
				'status-after',
				'cut-after',
				'trickle',
				'redirect',
			]);
			if (fault?.kind === 'redirect') {
				res.writeHead(fault.status, { Location: fault.location, 'Content-Type': 'text/plain' });
				res.end(`Moved to ${fault.location}`);
				return;
			}
			if (fault?.kind === 'drop') {
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'drop-after') {
				// The handler runs in full; its answer never leaves: the first write closes the connection.
				const close = () => {
					req.socket.destroy();
					return res;
				};
				res.writeHead = close as typeof res.writeHead;
				res.write = (() => (close(), true)) as typeof res.write;
				res.end = close as typeof res.end;
			}
			if (fault?.kind === 'cut-after') {
				// The handler runs in full; its answer leaves only up to `bytes` bytes of body.
				res.end = ((chunk?: unknown) => {
					const body = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk ?? ''));
					res.write(body.subarray(0, fault.bytes));
					if (!fault.stall) {
						res.socket?.end(() => res.socket?.destroy());
						return res;
					}
					const timer = setTimeout(() => res.destroy(), 10_000);
					timer.unref();
					res.on('close', () => clearTimeout(timer));
					return res;
				}) as typeof res.end;
			}
			if (fault?.kind === 'trickle') {
				// The handler runs in full; its body leaves `bytes` at a time, `everyMs` apart.
				res.end = ((chunk?: unknown) => {
					const body = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk ?? ''));
					let sent = 0;
					const timer = setInterval(() => {
						if (res.destroyed) return clearInterval(timer);
						res.write(body.subarray(sent, sent + fault.bytes));
						sent += fault.bytes;
						if (sent >= body.length) {
							clearInterval(timer);
							res.socket?.end();
						}
					}, fault.everyMs);
					timer.unref();
					res.on('close', () => clearInterval(timer));
					return res;
				}) as typeof res.end;
			}
			if (fault?.kind === 'status-after') {
				// The handler runs in full; its answer leaves with the fault's status.
				const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
				res.writeHead = ((_status: number, ...rest: unknown[]) =>
					writeHead(fault.status, ...rest)) as typeof res.writeHead;
			}
			if (fault?.kind === 'slow') await sleep(fault.delayMs);
			if (this.latencyMs) await sleep(this.latencyMs);
			if (fault?.kind === 'status') {
				const headers: Record<string, string> = fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {};
				if (fault.rawBody !== undefined) {
					res.writeHead(fault.status, { 'Content-Type': fault.contentType ?? 'text/html', ...headers });
					res.end(fault.rawBody);
					return;
				}
				if (fault.body !== undefined) {
					res.writeHead(fault.status, { 'Content-Type': 'application/json', ...headers });
					res.end(JSON.stringify(fault.body));
					return;
				}
				return sendError(res, fault.status, `Simulated failure (HTTP ${fault.status})`, {
					code: `simulated_${fault.status}`,
					headers,
				});
			}

			// Authentication comes first, as in front of a real gateway: a request
			// with the wrong mechanism for its endpoint group gets 401 whatever it asks.
			const mechanism = mechanismFor(path);
			if (mechanism && !this.authenticated(req, mechanism)) {
				return sendError(res, 401, this.authMessage(mechanism), { code: 'invalid_credentials' });
			}

			const candidates = this.routes
				.map((route) => ({ route, params: matchPath(route.path, path) }))
				.filter((c) => c.params !== undefined);
			if (!candidates.length)
				return sendError(res, 404, `No endpoint at ${path}`, { code: 'unknown_endpoint' });
			const match = candidates.find((c) => c.route.method === method);
			if (!match)
				return sendError(res, 405, `${method} is not allowed on ${path}`, { code: 'method_not_allowed' });

			await match.route.handle({
				req,
				res,
				params: match.params!,
				body,
				rawBody,
				query: url.searchParams,
				sim: this,
			});
		} catch (error) {
			if (res.headersSent) {
				res.destroy();
				return;
			}
			if (error instanceof RequestInvalid) {
				return sendError(res, error.status, error.message, { code: error.code, param: error.param });
			}
			return sendError(res, 500, `Simulator error: ${(error as Error).message}`, { code: 'simulator_error' });
		}
	}

	/** Exactly one mechanism per endpoint group: a request carrying another one is refused. */
	private authenticated(req: IncomingMessage, mechanism: AuthMechanism): boolean {
		const header = (name: string) => req.headers[name]?.toString();
		if (mechanism === 'bearer') return header('authorization') === `Bearer ${this.keys.bearer}`;
		if (mechanism === 'apiKey') return header('x-api-key') === this.keys.apiKey;
		return header('x-native-api-key') === this.keys.nativeKey;
	}

	private authMessage(mechanism: AuthMechanism): string {
		if (mechanism === 'bearer') return 'Invalid or missing auth token: send "Authorization: Bearer <token>"';
		if (mechanism === 'apiKey') return 'Invalid or missing API key: send the "x-api-key" header';
		return 'Invalid or missing API key: send the "x-native-api-key" header';
	}
}

/** Requests held by `Simulator.hold()`: how many wait now and at most, until `open()`. */
export class Gate {
	waiting = 0;

	maxWaiting = 0;

	private opened = false;

	private readonly held: Array<() => void> = [];

	constructor(readonly path: string | RegExp) {}

	async pass(): Promise<void> {
		if (this.opened) return;
		this.waiting += 1;
		this.maxWaiting = Math.max(this.maxWaiting, this.waiting);
		await new Promise<void>((resolve) => this.held.push(resolve));
		this.waiting -= 1;
	}

	/** Lets the held requests go on, and every later one through. */
	open(): void {
		this.opened = true;
		for (const release of this.held.splice(0)) release();
	}
}

/** Starts a simulator on a free loopback port. */
export async function startSimulator(
	options: SimulatorOptions = {},
	routes: Route[] = ROUTES,
): Promise<Simulator> {
	return await new Simulator(routes, options).start();
}
