/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { request } from 'node:http';

import { useVirtualTime } from '../../harness/virtual-time';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';

// The `slow` fault's pause on virtual time: exact, and no real wait.
useVirtualTime();

let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

type Mechanism = 'bearer' | 'apiKey' | 'nativeKey';

function headersFor(mechanism: Mechanism): Record<string, string> {
	if (mechanism === 'bearer') return { Authorization: `Bearer ${sim.keys.bearer}` };
	if (mechanism === 'apiKey') return { 'x-api-key': sim.keys.apiKey };
	return { 'x-native-api-key': sim.keys.nativeKey };
}

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, json, text };
}

// The interface's Authentication table: one mechanism per endpoint group.
const GROUPS: Array<[string, string, Mechanism]> = [
	['POST', '/v1/images/generations', 'bearer'],
	['POST', '/v1/videos', 'bearer'],
	['GET', '/v1/videos/task_1', 'bearer'],
	['GET', '/v1/user/balance', 'bearer'],
	['POST', '/v1/responses', 'bearer'],
	['POST', '/v1/audio/speech', 'bearer'],
	['POST', '/v1/messages', 'apiKey'],
	['POST', '/v1beta/cachedContents', 'nativeKey'],
];
const MECHANISMS: Mechanism[] = ['bearer', 'apiKey', 'nativeKey'];

describe('simulator authentication', () => {
	const wrong = GROUPS.flatMap(([method, path, right]) =>
		MECHANISMS.filter((m) => m !== right).map((m) => [method, path, right, m] as const),
	);

	it.each(wrong)(
		'%s %s (needs %s) refuses %s with 401 and the envelope',
		async (method, path, _right, used) => {
			const { status, json } = await call(method, path, headersFor(used), method === 'POST' ? {} : undefined);
			expect(status).toBe(401);
			expect(json).toMatchObject({ error: { type: 'authentication_error', code: 'invalid_credentials' } });
		},
	);

	it.each(GROUPS)('%s %s accepts its own mechanism (%s)', async (method, path, right) => {
		const { status } = await call(method, path, headersFor(right), method === 'POST' ? {} : undefined);
		expect(status).not.toBe(401);
	});

	it('refuses a wrong bearer token', async () => {
		const { status, json } = await call('GET', '/v1/user/balance', { Authorization: 'Bearer nope' });
		expect(status).toBe(401);
		expect((json as { error: Record<string, string> }).error).toEqual({
			message: expect.stringContaining('Bearer'),
			type: 'authentication_error',
			code: 'invalid_credentials',
			param: '',
		});
	});
});

/** GET with a body: fetch cannot send one, node:http can (the interface's balance request carries `{}`). */
function getWithBody(path: string, body: string): Promise<{ status: number; json: unknown }> {
	return new Promise((resolve, reject) => {
		const req = request(
			`${sim.url}${path}`,
			{
				method: 'GET',
				headers: {
					...headersFor('bearer'),
					'Content-Type': 'none',
					'Content-Length': Buffer.byteLength(body),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) }),
				);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

describe('simulator balance', () => {
	const RECORD = { balance: 87.5, currency: 'USD', is_active: true, total: 100, used: 12.5 };

	it('answers the balance record to a GET without a body', async () => {
		const { status, json } = await call('GET', '/v1/user/balance', headersFor('bearer'));
		expect(status).toBe(200);
		expect(json).toEqual(RECORD);
	});

	it("answers the balance record to the interface's form: {} with Content-Type none", async () => {
		expect(await getWithBody('/v1/user/balance', '{}')).toEqual({ status: 200, json: RECORD });
	});

	it('refuses a body with members', async () => {
		const { status, json } = await getWithBody('/v1/user/balance', '{"currency":"EUR"}');
		expect(status).toBe(400);
		expect(json).toMatchObject({ error: { type: 'invalid_request_error', param: 'body' } });
	});

	it('refuses the wrong method with 405', async () => {
		expect((await call('POST', '/v1/user/balance', headersFor('bearer'), {})).status).toBe(405);
	});

	it('answers 404 with the envelope for an unknown path', async () => {
		const { status, json } = await call('GET', '/v1/nothing-here', headersFor('bearer'));
		expect(status).toBe(404);
		expect(json).toMatchObject({ error: { code: 'unknown_endpoint' } });
	});
});

describe('simulator fault injection', () => {
	it('answers 429 with Retry-After, then normally', async () => {
		sim.inject({ path: '/v1/user/balance', fault: { kind: 'status', status: 429, retryAfter: '2' } });
		const first = await call('GET', '/v1/user/balance', headersFor('bearer'));
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('2');
		expect(first.json).toMatchObject({ error: { type: 'rate_limit_error' } });
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(200);
	});

	it.each([500, 503])('answers %i for the given number of requests', async (status) => {
		sim.inject({ path: '/v1/user/balance', times: 2, fault: { kind: 'status', status } });
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(status);
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(status);
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(200);
	});

	it('sends a non-JSON body when asked', async () => {
		sim.inject({ fault: { kind: 'status', status: 502, rawBody: '<html>Bad Gateway</html>' } });
		const { status, text } = await call('GET', '/v1/user/balance', headersFor('bearer'));
		expect(status).toBe(502);
		expect(text).toContain('<html>');
	});

	it('answers slowly', async () => {
		sim.inject({ fault: { kind: 'slow', delayMs: 150 } });
		const started = Date.now();
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(200);
		expect(Date.now() - started).toBe(150);
	});

	it('drops the connection', async () => {
		sim.inject({ fault: { kind: 'drop' } });
		await expect(call('GET', '/v1/user/balance', headersFor('bearer'))).rejects.toThrow();
		expect((await call('GET', '/v1/user/balance', headersFor('bearer'))).status).toBe(200);
	});

	it('logs every request', async () => {
		const before = sim.requestsTo('/v1/user/balance').length;
		await call('GET', '/v1/user/balance', headersFor('bearer'));
		const log = sim.requestsTo('/v1/user/balance');
		expect(log).toHaveLength(before + 1);
		expect(log[log.length - 1]).toMatchObject({ method: 'GET', status: 200 });
	});
});

describe('simulator video validation: a value String() cannot print is refused with 400, never a crash', () => {
	// `String({"toString": []})` throws ("Cannot convert object to primitive value"); the
	// simulator would answer 500 "Simulator error" instead of the 400 the gateway gives.
	const odd = { toString: [] };
	const valid = { model: 'vidA-2.5', prompt: 'a fox', duration: 5, resolution: '720p' };
	const ref = { image_url: 'https://example.com/a.png' };
	const rows: Array<[string, Record<string, unknown>, string, RegExp]> = [
		[
			'model {"toString": []}',
			{ ...valid, model: odd },
			'model',
			/^Unknown video model: \{"toString":\[\]\}; known: /,
		],
		[
			'model "toString" (an inherited member, not a model)',
			{ ...valid, model: 'toString' },
			'model',
			/^Unknown video model: toString; known: /,
		],
		[
			'model "constructor"',
			{ ...valid, model: 'constructor' },
			'model',
			/^Unknown video model: constructor; known: /,
		],
		['model missing', { prompt: 'a fox' }, 'model', /^Unknown video model: undefined; known: /],
		[
			'resolution {"toString": []}',
			{ ...valid, resolution: odd },
			'resolution',
			/^resolution must be one of /,
		],
		[
			'aspect_ratio {"toString": []}',
			{ ...valid, aspect_ratio: odd },
			'aspect_ratio',
			/^aspect_ratio must be one of /,
		],
		[
			'a reference role {"toString": []}',
			{ ...valid, input_references: [{ ...ref, role: odd }] },
			'input_references',
			/^role \{"toString":\[\]\} is not accepted here$/,
		],
		[
			'a reference type {"toString": []}',
			{ ...valid, input_references: [{ ...ref, type: odd }] },
			'input_references',
			/^type \{"toString":\[\]\} does not match image_url$/,
		],
	];
	it.each(rows)('%s', async (_name, body, param, message) => {
		const { status, json } = await call('POST', '/v1/videos', headersFor('bearer'), body);
		expect(status).toBe(400);
		const error = (json as { error: { message: string; param: string } }).error;
		expect(error.param).toBe(param);
		expect(error.message).toMatch(message);
	});
});
