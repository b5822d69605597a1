/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Every error path of the shared transport, with its exact wording, as a
 * table: what the fake n8n HTTP helper answered or threw on each attempt ->
 * the message, the description and how many attempts were made. No server:
 * the helper is the one seam n8n gives a node (the workflow tests run the
 * same paths over real HTTP in uncertain-errors.test.ts).
 */
import { Readable } from 'node:stream';

import type { IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MAYBE_CHARGED_ADVICE, gatewayFailureOf } from '../../../nodes/shared/errors';
import type { GatewayRequest } from '../../../nodes/shared/transport';
import { gatewayRequest } from '../../../nodes/shared/transport';
import { useVirtualTime } from '../../harness/virtual-time';
import { FakeClock } from './fakeClock';

const node = { name: 'Gateway', type: 'generationGateway' } as INode;

/** One attempt's outcome: an HTTP answer, or an error thrown by n8n's helper after `elapsedMs`. */
type Attempt =
	| { status: number; body?: unknown; headers?: Record<string, string> }
	| { error: unknown; elapsedMs?: number };

function fakeContext(attempts: Attempt[], options: { baseUrl?: string; cancelled?: boolean } = {}) {
	const clock = new FakeClock();
	const sent: IHttpRequestOptions[] = [];
	const controller = new AbortController();
	if (options.cancelled) controller.abort();
	const ctx = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: options.baseUrl ?? 'https://gateway.test' }),
		getExecutionCancelSignal: () => controller.signal,
		helpers: {
			async httpRequestWithAuthentication(_credential: string, request: IHttpRequestOptions) {
				sent.push(request);
				const attempt = attempts[Math.min(sent.length, attempts.length) - 1];
				if ('error' in attempt) {
					clock.time += attempt.elapsedMs ?? 5;
					throw attempt.error;
				}
				return { statusCode: attempt.status, headers: attempt.headers ?? {}, body: attempt.body };
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, clock, sent };
}

/** An error as n8n's helper throws it: its own text, the client's error (with the code) as cause. */
const clientError = (code: string | undefined, message: string) =>
	Object.assign(new Error('The connection was aborted, perhaps the server is offline'), {
		cause: Object.assign(new Error(message), code ? { code } : {}),
	});

const envelope = (message: string, type = 'api_error', code = 'upstream', param = '') => ({
	error: { message, type, code, param },
});

const READ: GatewayRequest = { method: 'GET', path: '/v1/user/balance', kind: 'read', timeoutMs: 1000 };
const CREATE: GatewayRequest = {
	method: 'POST',
	path: '/v1/images/generations',
	body: { model: 'imagegen-2', prompt: 'x' },
	kind: 'create',
	timeoutMs: 1000,
};

const NETWORK_HINT =
	'No answer arrived from the gateway. Check the Base URL, the network between n8n and the gateway, and "Request Timeout".';
const SERVER_HINT =
	'The gateway or its upstream model had a server-side problem. Retry later; reads are retried automatically, creations are not (to avoid paying twice).';
const CHARGED = `${MAYBE_CHARGED_ADVICE} Do not simply run it again.`;
const MAY_HAVE = 'The gateway may have done this work and charged for it: ';

interface Row {
	name: string;
	request: GatewayRequest;
	attempts: Attempt[];
	message: string;
	description: string;
	sent: number;
}

const ROWS: Row[] = [
	// An answer with an error status
	{
		name: 'read, 400 with the envelope: its members, the hint, not retried',
		request: READ,
		attempts: [{ status: 400, body: envelope('bad value', 'invalid_request_error', 'invalid_value', 'n') }],
		message: 'bad value',
		description:
			'HTTP 400, type: invalid_request_error, code: invalid_value, param: n. The gateway refused the request as invalid. Check the field named in "param" and the model\'s accepted values.',
		sent: 1,
	},
	{
		name: 'read, 502 HTML page from a proxy: said, retried 3 times',
		request: READ,
		attempts: [{ status: 502, body: '<html><body>Bad Gateway</body></html>' }],
		message: 'The gateway answered with an HTML page instead of JSON',
		description: `HTTP 502. ${SERVER_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'read, 503 with an empty body',
		request: READ,
		attempts: [{ status: 503, body: '' }],
		message: 'The gateway answered HTTP 503',
		description: `HTTP 503. ${SERVER_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'read, 503 asking (Retry-After) for more than a minute: final at once',
		request: READ,
		attempts: [{ status: 503, body: envelope('maintenance'), headers: { 'retry-after': '120' } }],
		message: 'maintenance',
		description: `HTTP 503, type: api_error, code: upstream. ${SERVER_HINT}`,
		sent: 1,
	},
	{
		name: 'read, 500 then 200: the retry succeeds (no error)',
		request: READ,
		attempts: [
			{ status: 500, body: envelope('hiccup') },
			{ status: 200, body: { balance: 1 } },
		],
		message: '',
		description: '',
		sent: 2,
	},
	{
		name: 'create, 429 three times: retried (nothing was done), then the rate-limit hint',
		request: CREATE,
		attempts: [{ status: 429, body: envelope('Too many requests', 'rate_limit_error', 'rate_limited') }],
		message: 'Too many requests',
		description:
			'HTTP 429, type: rate_limit_error, code: rate_limited. The gateway is rate-limiting this account. Lower "Max Concurrent Requests", space the runs out, or retry after the time given in Retry-After. Tried 3 times.',
		sent: 3,
	},
	{
		name: 'create, 500 with the envelope: may have been charged, sent once',
		request: CREATE,
		attempts: [{ status: 500, body: envelope('upstream failed') }],
		message: `${MAY_HAVE}the gateway answered HTTP 500 (upstream failed)`,
		description: `HTTP 500, type: api_error, code: upstream. ${CHARGED}`,
		sent: 1,
	},
	{
		name: 'create, 502 without a body: HTTP 502 said once',
		request: CREATE,
		attempts: [{ status: 502 }],
		message: `${MAY_HAVE}the gateway answered HTTP 502`,
		description: `HTTP 502. ${CHARGED}`,
		sent: 1,
	},
	{
		name: "create, 500 with the operation's advice, given the answer",
		request: {
			...CREATE,
			ifMaybeCharged: (answer) => `Look up ${(answer as { id?: string }).id ?? 'nothing'}.`,
		},
		attempts: [{ status: 500, body: { id: 'task_7' } }],
		message: `${MAY_HAVE}the gateway answered HTTP 500`,
		description: 'HTTP 500. Look up task_7. Do not simply run it again.',
		sent: 1,
	},
	// No answer
	{
		name: "read, n8n client's deadline: Request Timeout named, retried",
		request: READ,
		attempts: [{ error: clientError('ECONNABORTED', 'timeout of 1000ms exceeded'), elapsedMs: 1000 }],
		message: 'No answer arrived within Request Timeout (1 s)',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'read, connection reset: retried',
		request: READ,
		attempts: [{ error: clientError('ECONNRESET', 'socket hang up') }],
		message: 'The connection to the gateway closed before its answer arrived (ECONNRESET)',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'create, connection refused: never sent, so retried, and nothing about charges',
		request: CREATE,
		attempts: [{ error: clientError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9') }],
		message: 'The gateway could not be reached (ECONNREFUSED); the request was not sent',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'create, host unknown: never sent',
		request: CREATE,
		attempts: [{ error: clientError('ENOTFOUND', 'getaddrinfo ENOTFOUND gateway.test') }],
		message: 'The gateway could not be reached (ENOTFOUND); the request was not sent',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'create, connection reset: may have been charged, sent once',
		request: CREATE,
		attempts: [{ error: clientError('ECONNRESET', 'socket hang up') }],
		message: `${MAY_HAVE}the connection to the gateway closed before its answer arrived (ECONNRESET)`,
		description: CHARGED,
		sent: 1,
	},
	{
		name: "create, n8n client's deadline: may have been charged, Request Timeout named",
		request: CREATE,
		attempts: [{ error: clientError('ECONNABORTED', 'timeout of 1000ms exceeded'), elapsedMs: 1000 }],
		message: `${MAY_HAVE}no answer arrived within Request Timeout (1 s)`,
		description: CHARGED,
		sent: 1,
	},
	{
		name: 'create, an error without a code after the whole deadline: a timeout',
		request: CREATE,
		attempts: [{ error: new Error('aborted'), elapsedMs: 1000 }],
		message: `${MAY_HAVE}no answer arrived within Request Timeout (1 s)`,
		description: CHARGED,
		sent: 1,
	},
	{
		name: 'create, "aborted" without a code, early: the connection closed',
		request: CREATE,
		attempts: [{ error: new Error('aborted'), elapsedMs: 20 }],
		message: `${MAY_HAVE}the connection to the gateway closed before its answer arrived`,
		description: CHARGED,
		sent: 1,
	},
	{
		name: 'read, an unknown error without a code: its own text, retried',
		request: READ,
		attempts: [{ error: new Error('Something odd happened') }],
		message: 'Something odd happened',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'read, a thrown value that is not an Error: the general text',
		request: READ,
		attempts: [{ error: 'boom' }],
		message: 'No answer arrived from the gateway',
		description: `${NETWORK_HINT} Tried 3 times.`,
		sent: 3,
	},
	{
		name: 'create, a certificate n8n does not trust: not sent, not retried',
		request: CREATE,
		attempts: [{ error: clientError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate') }],
		message:
			"The gateway's TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT); the request was not sent",
		description:
			'The server at the Base URL showed a TLS certificate that n8n does not trust (self-signed, expired, or made out for another host name). Check the Base URL; for a gateway with its own certificate authority, give n8n that CA (NODE_EXTRA_CA_CERTS).',
		sent: 1,
	},
];

async function outcome(request: GatewayRequest, attempts: Attempt[], options = {}) {
	const { ctx, clock, sent } = fakeContext(attempts, options);
	try {
		await gatewayRequest(ctx, { ...request, itemIndex: 4 }, clock);
		return { error: undefined, sent: sent.length };
	} catch (error) {
		return { error: error as NodeApiError, sent: sent.length };
	}
}

describe('gatewayRequest: every error path says what happened', () => {
	it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
		const { error, sent } = await outcome(row.request, row.attempts);
		expect(sent).toBe(row.sent);
		if (!row.message) {
			expect(error).toBeUndefined();
			return;
		}
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe(row.message);
		expect(error?.description).toBe(row.description);
		expect(error?.context.itemIndex).toBe(4);
		if (row.request.kind === 'create' && row.message.startsWith(MAY_HAVE)) {
			expect(`${error?.message} ${error?.description}`).not.toMatch(/\bretry|try again|perhaps/i);
		}
	});

	it('an error body of a streamed request is read from the stream', async () => {
		const body = Readable.from([Buffer.from(JSON.stringify(envelope('stream refused', 'x', 'y', 'stream')))]);
		const { error, sent } = await outcome({ ...CREATE, responseType: 'stream' }, [{ status: 400, body }]);
		expect(sent).toBe(1);
		expect(error?.message).toBe('stream refused');
		expect(error?.description).toMatch(/^HTTP 400, type: x, code: y, param: stream\. /);
	});

	it('a long text error body is shortened to 500 characters (a streamed one is read up to 64 KB)', async () => {
		const body = Readable.from([Buffer.alloc(100 * 1024, 'x')]);
		const { error } = await outcome({ ...READ, responseType: 'stream' }, [{ status: 404, body }]);
		expect(error?.message).toBe(`${'x'.repeat(500)}…`);
	});

	it('a read limited to one attempt is sent once, its Retry-After kept for the caller', async () => {
		const refused: Attempt = { status: 429, body: '', headers: { 'retry-after': '7' } };
		const once = await outcome({ ...READ, attempts: 1 }, [refused, { status: 200, body: {} }]);
		expect(once.sent).toBe(1);
		expect(gatewayFailureOf(once.error)).toEqual(
			expect.objectContaining({ status: 429, retryAfterMs: 7000 }),
		);
		// Without the limit the transport waits the 7 s itself and tries again.
		expect((await outcome(READ, [refused, { status: 200, body: {} }])).sent).toBe(2);
	});

	it('a cancelled execution is not retried', async () => {
		const { error, sent } = await outcome(READ, [{ status: 503, body: '' }], { cancelled: true });
		expect(sent).toBe(1);
		expect(error?.message).toBe('The gateway answered HTTP 503');
		expect(error?.description).toBe(`HTTP 503. ${SERVER_HINT}`);
	});

	it('a Base URL that is not http(s) is refused before sending', async () => {
		const { error, sent } = await outcome(READ, [{ status: 200 }], { baseUrl: 'gateway.test' });
		expect(sent).toBe(0);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('The credential\'s Base URL "gateway.test" is not an http(s) address');
		expect(error?.description).toBe(
			'Open the credential and set Base URL to the gateway address, e.g. https://gateway.example.com',
		);
	});

	it('a path no credential serves is refused before sending, naming the path', async () => {
		const { error, sent } = await outcome({ ...READ, path: '/v9/unknown' }, [{ status: 200 }]);
		expect(sent).toBe(0);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('No credential is known for /v9/unknown');
		expect(error?.context.itemIndex).toBe(4);
	});
});

describe('gatewayRequest: redirects keep the credential at the Base URL origin', () => {
	/** The options of every request handed to n8n's authenticated helper, and the outcome. */
	async function redirected(request: GatewayRequest, attempts: Attempt[]) {
		const { ctx, clock, sent } = fakeContext(attempts);
		const result = await gatewayRequest(ctx, { ...request, itemIndex: 4 }, clock).catch((e: unknown) => e);
		return { result, sent };
	}
	const to = (status: number, location: string): Attempt => ({ status, headers: { location } });

	it('n8n is asked not to follow redirects itself', async () => {
		const { sent } = await redirected(READ, [{ status: 200, body: {} }]);
		expect(sent[0].disableFollowRedirect).toBe(true);
	});

	it.each([
		['https -> http, same host', 'http://gateway.test/v1/user/balance'],
		['another host', 'https://collector.test/v1/user/balance'],
		['another port', 'https://gateway.test:8443/v1/user/balance'],
		['a scheme-relative address to another host', '//collector.test/x'],
	])('%s: refused, one request, no retry', async (_name, location) => {
		const { result, sent } = await redirected(READ, [to(302, location)]);
		expect(sent).toHaveLength(1);
		expect(result).toBeInstanceOf(NodeApiError);
		expect((result as NodeApiError).message).toMatch(
			/^The gateway redirected this request to .+, another address than the Base URL \(https:\/\/gateway\.test\): the credential is sent only to the Base URL, so the request stopped here$/,
		);
		expect((result as NodeApiError).description).toMatch(/^HTTP 302\. The request was not sent there/);
	});

	it('a relative Location within the origin is followed with the same method and body (307)', async () => {
		const { result, sent } = await redirected(CREATE, [
			to(307, '/v2/images/generations'),
			{ status: 200, body: { ok: 1 } },
		]);
		expect(result).toMatchObject({ status: 200, body: { ok: 1 } });
		expect(sent).toHaveLength(2);
		expect(sent[1]).toMatchObject({
			method: 'POST',
			url: 'https://gateway.test/v2/images/generations',
			body: CREATE.body,
		});
		expect(sent[1].baseURL).toBeUndefined();
	});

	it('a 303 after a read is followed as a GET', async () => {
		const { result, sent } = await redirected(READ, [
			to(303, 'https://gateway.test/v1/user/balance2'),
			{ status: 200, body: {} },
		]);
		expect(result).toMatchObject({ status: 200 });
		expect(sent[1]).toMatchObject({ method: 'GET', url: 'https://gateway.test/v1/user/balance2' });
	});
});

describe('gatewayRequest: a plain-http Base URL to another machine is pointed out', () => {
	it.each([
		['http://gateway.test', true],
		['http://10.0.0.5:8080', true],
		['https://gateway.test', false],
		['http://127.0.0.1:4000', false],
		['http://localhost:4000', false],
		['http://[::1]:4000', false],
	])('%s: warning %s', async (baseUrl, warned) => {
		const { ctx, clock } = fakeContext([{ status: 200, body: {} }], { baseUrl });
		const hints: unknown[] = [];
		Object.assign(ctx, { addExecutionHints: (...added: unknown[]) => hints.push(...added) });
		await gatewayRequest(ctx, READ, clock);
		await gatewayRequest(ctx, READ, clock); // once per run, however many requests
		expect(hints).toEqual(
			warned
				? [
						{
							type: 'warning',
							location: 'outputPane',
							message: expect.stringMatching(
								/^The credential's Base URL \(.+\) is plain http: the gateway key travels unencrypted/,
							),
						},
					]
				: [],
		);
	});
});

describe('gatewayRequest: the error carries the failure as facts (context.gateway)', () => {
	it.each<[string, GatewayRequest, Attempt[], object]>([
		['a 404 read', READ, [{ status: 404, body: '' }], { status: 404, mayHaveCharged: false }],
		['a 500 create', CREATE, [{ status: 500, body: '' }], { status: 500, mayHaveCharged: true }],
		[
			'a 429 create',
			CREATE,
			[{ status: 429, body: '', headers: { 'retry-after': '120' } }],
			{ status: 429, mayHaveCharged: false, retryAfterMs: 120_000 },
		],
		[
			'a reset create',
			CREATE,
			[{ error: clientError('ECONNRESET', 'socket hang up') }],
			{ status: undefined, networkCode: 'ECONNRESET', mayHaveCharged: true },
		],
		[
			'a refused read',
			READ,
			[{ error: clientError('ECONNREFUSED', 'connect ECONNREFUSED') }],
			{ status: undefined, networkCode: 'ECONNREFUSED', mayHaveCharged: false },
		],
	])('%s', async (_name, request, attempts, expected) => {
		const { error } = await outcome(request, attempts);
		expect(gatewayFailureOf(error)).toEqual(expect.objectContaining(expected));
		expect(gatewayFailureOf(new Error('x'))).toBeUndefined();
	});
});

describe('gatewayRequest: a streamed answer silent past Request Timeout', () => {
	// The silence is measured on virtual time: exact, and no real wait.
	useVirtualTime();

	/** A body that sends `first` and then nothing, closed (and its timer cleared) when destroyed. */
	function stalling(first: string): Readable {
		let timer: NodeJS.Timeout | undefined;
		return new Readable({
			read() {
				if (timer) return;
				this.push(Buffer.from(first));
				timer = setTimeout(() => undefined, 60_000);
			},
			destroy(error, callback) {
				clearTimeout(timer);
				callback(error);
			},
		});
	}

	it('fails its reader with a timeout error and is closed', async () => {
		const body = stalling('data: {"a":1}\n\n');
		const { ctx } = fakeContext([{ status: 200, body }]);
		const started = Date.now();
		const { body: stream } = await gatewayRequest<Readable>(ctx, {
			...CREATE,
			responseType: 'stream',
			timeoutMs: 200,
		});
		const reading = (async () => {
			for await (const _chunk of stream) void _chunk;
		})();
		await expect(reading).rejects.toMatchObject({ code: 'ETIMEDOUT' });
		expect(Date.now() - started).toBe(200);
		expect(body.destroyed).toBe(true);
	});

	it('a body nobody reads is closed without an error event (which would end the process)', async () => {
		const body = stalling('x');
		const { ctx } = fakeContext([{ status: 200, body }]);
		const started = Date.now();
		await gatewayRequest(ctx, { ...CREATE, responseType: 'stream', timeoutMs: 200 });
		const closed = new Promise((resolve) => body.once('close', resolve));
		await closed;
		expect(Date.now() - started).toBe(200);
		expect(body.destroyed).toBe(true);
	});
});

describe('credentials in webhook requests (callbacks)', () => {
	/** A webhook request's context: its own object each time, the same workflow, node and credential. */
	function webhookContext(loads: { count: number; fail?: number; token?: string }, answers: number[] = []) {
		const sent: Array<{ token: unknown }> = [];
		const ctx = {
			getNode: () => ({
				...node,
				id: 'node-1',
				credentials: { generationGatewayBearerApi: { id: 'c1', name: 'Gateway' } },
			}),
			getWorkflow: () => ({ id: 'wf-credentials' }),
			getRequestObject: () => ({}),
			getCredentials: async () => {
				loads.count++;
				if (loads.fail && loads.fail-- > 0) throw new Error('Database is not ready');
				return { baseUrl: 'https://gateway.test', token: loads.token ?? 'first' };
			},
			helpers: {
				async httpRequestWithAuthentication(
					_credential: string,
					_request: IHttpRequestOptions,
					extra?: { credentialsDecrypted?: { data: { token?: unknown } } },
				) {
					sent.push({ token: extra?.credentialsDecrypted?.data.token });
					return { statusCode: answers.shift() ?? 200, headers: {}, body: { ok: true } };
				},
			},
		} as unknown as IExecuteFunctions;
		return { ctx, sent };
	}
	const READ_TASK: GatewayRequest = { method: 'GET', path: '/v1/videos/v1', kind: 'read', timeoutMs: 1000 };

	it('20 requests arriving together load the credential once and send it already decrypted', async () => {
		const loads = { count: 0 };
		const requests = Array.from({ length: 20 }, () => webhookContext(loads));
		await Promise.all(requests.map(async ({ ctx }) => await gatewayRequest(ctx, READ_TASK, new FakeClock())));
		expect(loads.count).toBe(1);
		expect(requests.flatMap(({ sent }) => sent)).toEqual(
			Array.from({ length: 20 }, () => ({ token: 'first' })),
		);
	});

	it('a shared load that fails is retried by each request on its own, not failed for all', async () => {
		const loads = { count: 0, fail: 1 };
		const clock = new FakeClock(5_000_000);
		const requests = Array.from({ length: 3 }, () => webhookContext(loads));
		const results = await Promise.allSettled(
			requests.map(async ({ ctx }) => await gatewayRequest(ctx, READ_TASK, clock)),
		);
		expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
		expect(loads.count).toBe(3);
	});

	it('a kept credential the gateway refuses (401) is loaded again and the read sent again when it changed', async () => {
		const loads = { count: 0, token: 'old' };
		const clock = new FakeClock(9_000_000);
		await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
		loads.token = 'new';
		clock.time += 1_000;
		const second = webhookContext(loads, [401]);
		await gatewayRequest(second.ctx, READ_TASK, clock);
		expect(second.sent).toEqual([{ token: 'old' }, { token: 'new' }]);
		expect(loads.count).toBe(2);
	});

	it("an execution's failed request does not load its credential again (it was loaded moments ago)", async () => {
		const loads = { count: 0 };
		const { ctx } = webhookContext(loads, [200, 500]);
		const execution = { ...ctx, getRequestObject: undefined } as unknown as IExecuteFunctions;
		delete (execution as { getRequestObject?: unknown }).getRequestObject;
		const clock = new FakeClock(30_000_000);
		await gatewayRequest(execution, READ_TASK, clock);
		clock.time += 1_000;
		await expect(gatewayRequest(execution, { ...READ_TASK, attempts: 1 }, clock)).rejects.toThrow();
		expect(loads.count).toBe(1);
	});

	it('a credential is kept for a minute, then loaded again', async () => {
		const loads = { count: 0 };
		const clock = new FakeClock(20_000_000);
		await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
		clock.time += 59_000;
		await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
		expect(loads.count).toBe(1);
		clock.time += 2_000;
		await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
		expect(loads.count).toBe(2);
	});

	it.each([404, 429, 500])(
		'a kept credential whose request fails with HTTP %i is not loaded again (only 401/403 say it may have changed)',
		async (status) => {
			const loads = { count: 0 };
			const clock = new FakeClock(100_000_000 + status * 1_000_000);
			await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
			clock.time += 1_000;
			await expect(
				gatewayRequest(webhookContext(loads, [status]).ctx, { ...READ_TASK, attempts: 1 }, clock),
			).rejects.toThrow();
			await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
			expect(loads.count).toBe(1);
		},
	);

	it('a refused copy is dropped, not a newer copy another request loaded meanwhile', async () => {
		const loads = { count: 0, token: 'old' };
		const clock = new FakeClock(2_000_000_000);
		// A long request (a watch) holds the old copy; a minute later another request loads the new one.
		const holder = webhookContext(loads, [200, 401]);
		await gatewayRequest(holder.ctx, READ_TASK, clock);
		loads.token = 'new';
		clock.time += 61_000;
		await gatewayRequest(webhookContext(loads).ctx, READ_TASK, clock);
		expect(loads.count).toBe(2);
		// The holder is refused: it drops its own old copy and takes the kept new one, with no load.
		clock.time += 1_000;
		await gatewayRequest(holder.ctx, READ_TASK, clock);
		expect(holder.sent).toEqual([{ token: 'old' }, { token: 'old' }, { token: 'new' }]);
		expect(loads.count).toBe(2);
	});
});

describe("a long wait's reads follow a changed Base URL", () => {
	/** An execution's context (a watch holds it until its deadline) whose credential's Base URL can change. */
	function watchContext(oldAddress: Attempt) {
		const credential = { baseUrl: 'https://old-gateway.test', loads: 0 };
		const sentTo: string[] = [];
		const ctx = {
			getNode: () => ({
				...node,
				id: 'node-1',
				credentials: { generationGatewayBearerApi: { id: 'c1', name: 'Gateway' } },
			}),
			getCredentials: async () => {
				credential.loads++;
				return { baseUrl: credential.baseUrl };
			},
			helpers: {
				async httpRequestWithAuthentication(_credential: string, request: IHttpRequestOptions) {
					sentTo.push(String(request.baseURL));
					const attempt: Attempt =
						request.baseURL === 'https://old-gateway.test' && sentTo.length > 1
							? oldAddress
							: { status: 200, body: { id: 'v1' } };
					if ('error' in attempt) throw attempt.error;
					return { statusCode: attempt.status, headers: {}, body: attempt.body };
				},
			},
		} as unknown as IExecuteFunctions;
		return { ctx, credential, sentTo };
	}
	const READ_TASK: GatewayRequest = {
		method: 'GET',
		path: '/v1/videos/v1',
		kind: 'read',
		timeoutMs: 1000,
		attempts: 1,
	};

	// [the old address's answer, ms since the credential was loaded, loaded again and read at the new address]
	it.each<[string, Attempt, number, boolean]>([
		[
			'nothing listens there any more',
			{ error: clientError('ECONNREFUSED', 'connect ECONNREFUSED') },
			61_000,
			true,
		],
		[
			'its name is gone',
			{ error: clientError('ENOTFOUND', 'getaddrinfo ENOTFOUND old-gateway.test') },
			61_000,
			true,
		],
		[
			'a gateway there does not know the task (404)',
			{ status: 404, body: envelope('no such task') },
			61_000,
			true,
		],
		['the gateway is busy (500): the same address', { status: 500, body: envelope('busy') }, 61_000, false],
		[
			'nothing listens, a copy loaded moments ago',
			{ error: clientError('ECONNREFUSED', 'connect ECONNREFUSED') },
			1_000,
			false,
		],
	])('%s', async (_what, oldAnswer, keptMs, follows) => {
		const { ctx, credential, sentTo } = watchContext(oldAnswer);
		const clock = new FakeClock(3_000_000_000);
		await gatewayRequest(ctx, READ_TASK, clock);
		credential.baseUrl = 'https://new-gateway.test';
		clock.time += keptMs;
		const second = gatewayRequest(ctx, READ_TASK, clock);
		if (follows) await expect(second).resolves.toMatchObject({ status: 200 });
		else await expect(second).rejects.toThrow();
		expect(sentTo).toEqual([
			'https://old-gateway.test',
			'https://old-gateway.test',
			...(follows ? ['https://new-gateway.test'] : []),
		]);
		expect(credential.loads).toBe(follows ? 2 : 1);
	});
});
