/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Workflow tests of Account → Get Balance: real executions of the example workflow and of
 * variations of it, through n8n-core's engine, over real HTTP to the
 * simulator. They cover Get Balance, the router (continue-on-fail, Max
 * Concurrent Requests, pairedItem) and the transport (retries, error mapping).
 */
import { join } from 'node:path';

import type { WorkflowJson } from '../harness';
import { loadWorkflowFile, runWorkflow, until } from '../harness';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

useVirtualTime();

const NODE = 'Get Balance';
const example = loadWorkflowFile(join(__dirname, '..', '..', 'examples', 'account-balance.json'));

/** The example workflow with extra parameters and node settings on the gateway node. */
function balanceWorkflow(parameters: object = {}, settings: object = {}): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	const node = copy.nodes.find((n) => n.name === NODE)!;
	Object.assign(node.parameters, parameters);
	Object.assign(node, settings);
	return copy;
}

const items = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { i } }));

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => {
	sim.clearFaults();
	sim.latencyMs = 0;
});

describe('Account → Get Balance (workflow)', () => {
	it('outputs balance, currency, is_active, total and used as the gateway returns them', async () => {
		sim.balance = { balance: 41.25, currency: 'EUR', is_active: false, total: 50, used: 8.75 };
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.status).toBe('success');
		const [item] = result.output(NODE);
		expect(item.json).toEqual({ balance: 41.25, currency: 'EUR', is_active: false, total: 50, used: 8.75 });
		expect(item.pairedItem).toEqual({ item: 0 });
		const [request] = sim.requestsTo('/v1/user/balance').slice(-1);
		expect(request.headers.authorization).toBe(`Bearer ${sim.keys.bearer}`);
		expect(request.headers['content-type']).toBe('none');
		sim.balance = { balance: 87.5, currency: 'USD', is_active: true, total: 100, used: 12.5 };
	});

	it('a bad secret fails with the gateway message, the status and a hint', async () => {
		const before = sim.requestsTo('/v1/user/balance').length;
		const result = await runWorkflow(example, { credentials: sim.credentials({ bearer: 'wrong-token' }) });
		expect(result.status).toBe('error');
		const error = result.nodeError(NODE) as unknown as Record<string, unknown>;
		expect(error.message).toBe('Invalid or missing auth token: send "Authorization: Bearer <token>"');
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('type: authentication_error');
		expect(error.description).toContain('code: invalid_credentials');
		expect(error.description).toContain('Check that the secret is correct');
		// 401 is final: no retry.
		expect(sim.requestsTo('/v1/user/balance').length - before).toBe(1);
	});

	it('continue-on-fail turns a failure into an error item in its place', async () => {
		sim.inject({
			path: '/v1/user/balance',
			times: 1,
			fault: {
				kind: 'status',
				status: 402,
				body: { error: { message: 'Out of credit', type: 'insufficient_quota', code: 'quota', param: '' } },
			},
		});
		const result = await runWorkflow(balanceWorkflow({}, { onError: 'continueRegularOutput' }), {
			credentials: sim.credentials(),
			input: items(3),
		});
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out).toHaveLength(3);
		expect(out[0].json.error).toBe('Out of credit');
		expect(out[0].json.errorDescription).toContain('HTTP 402');
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[1].json).toHaveProperty('balance');
		expect(out[2].pairedItem).toEqual({ item: 2 });
	});

	it('without continue-on-fail the error names the failing item', async () => {
		sim.inject({ path: '/v1/user/balance', times: 1, fault: { kind: 'status', status: 404 } });
		const result = await runWorkflow(example, { credentials: sim.credentials(), input: items(1) });
		expect(result.status).toBe('error');
		const error = result.nodeError(NODE) as unknown as { context: { itemIndex: number }; httpCode: string };
		expect(error.httpCode).toBe('404');
		expect(error.context.itemIndex).toBe(0);
	});

	it('10 items with Max Concurrent Requests 3 keep their order and pairedItem, 3 in flight at most', async () => {
		sim.latencyMs = 60;
		const inFlight: number[] = [];
		// The first wave: the simulator holds the requests unanswered until three are in flight at
		// once (a client sending one at a time never gets there: the wait fails).
		const gate = sim.hold('/v1/user/balance');
		const running = runWorkflow(balanceWorkflow({ requestOptions: { maxConcurrency: 3 } }), {
			credentials: sim.credentials(),
			input: items(10),
		});
		let firstWave: number;
		try {
			await until(() => gate.waiting >= 3, 'three balance requests in flight at once');
			firstWave = gate.waiting;
		} finally {
			gate.open();
		}
		const result = await running;
		expect(firstWave).toBe(3);
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out).toHaveLength(10);
		expect(out.map((item) => item.pairedItem)).toEqual(Array.from({ length: 10 }, (_, i) => ({ item: i })));
		// Never more than three in flight: request i+3 is sent only once one of requests i..i+2 is
		// answered, which takes the 60 ms latency at least, so it arrives 60 ms after request i or later.
		const arrivals = sim
			.requestsTo('/v1/user/balance')
			.slice(-10)
			.map((r) => r.at);
		for (let i = 0; i + 3 < arrivals.length; i++) inFlight.push(arrivals[i + 3] - arrivals[i]);
		expect(Math.min(...inFlight)).toBeGreaterThanOrEqual(50);
	});

	it('a read that meets 429 with Retry-After waits and succeeds', async () => {
		sim.inject({
			path: '/v1/user/balance',
			times: 1,
			fault: { kind: 'status', status: 429, retryAfter: '1' },
		});
		const before = sim.requestsTo('/v1/user/balance').length;
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json).toHaveProperty('balance', 87.5);
		const log = sim.requestsTo('/v1/user/balance').slice(before);
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(log[1].at - log[0].at).toBeGreaterThanOrEqual(950);
	});

	it('a read that meets 500 on every attempt fails after the third with the gateway message', async () => {
		sim.inject({
			path: '/v1/user/balance',
			times: Infinity,
			fault: {
				kind: 'status',
				status: 500,
				body: {
					error: { message: 'Upstream model crashed', type: 'api_error', code: 'upstream_error', param: '' },
				},
			},
		});
		const before = sim.requestsTo('/v1/user/balance').length;
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.status).toBe('error');
		expect(sim.requestsTo('/v1/user/balance').length - before).toBe(3);
		const error = result.nodeError(NODE) as unknown as Record<string, string>;
		expect(error.message).toBe('Upstream model crashed');
		expect(error.httpCode).toBe('500');
		expect(error.description).toContain('Tried 3 times');
	});

	it('a dropped connection on a read is retried', async () => {
		sim.inject({ path: '/v1/user/balance', times: 1, fault: { kind: 'drop' } });
		const before = sim.requestsTo('/v1/user/balance').length;
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.status).toBe('success');
		expect(sim.requestsTo('/v1/user/balance').length - before).toBe(2);
	});

	it('a non-JSON error page is reported as such', async () => {
		sim.inject({
			path: '/v1/user/balance',
			times: 1,
			fault: { kind: 'status', status: 403, rawBody: '<html><h1>Forbidden</h1></html>' },
		});
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		const error = result.nodeError(NODE) as unknown as Record<string, string>;
		expect(error.message).toBe('The gateway answered with an HTML page instead of JSON');
		expect(error.description).toContain('HTTP 403');
		expect(error.description).toContain('not allowed');
	});

	it('refuses a Base URL that is not http(s) before sending', async () => {
		const credentials = sim.credentials();
		credentials.generationGatewayBearerApi.baseUrl = 'gateway.example.com';
		const result = await runWorkflow(example, { credentials });
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toContain('is not an http(s) address');
	});
});
