/**
 * A credential never leaves the gateway's origin. The Base URL answers a
 * redirect (301, 302, 303, 307, 308) to another host, or to the same host
 * under another scheme: the request stops with a message naming where it
 * pointed, the other address receives nothing, and the request is not sent
 * again. Within the gateway's origin, 307/308 are followed (the credential
 * goes along: it is the same gateway), 301/302/303 for a GET; a POST that a
 * redirect would turn into a GET is refused, as is a redirect loop. Every
 * credential type: bearer (Account, Image), API key (Message), native key
 * (Cached Content). Real executions against two simulators over HTTP.
 */
import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const NODE = 'Gateway';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

interface Operation {
	name: string;
	method: 'GET' | 'POST';
	path: string;
	parameters: Record<string, unknown>;
	credentials: Record<string, { id: string; name: string }>;
	/** The header that carries this credential type's secret. */
	secretHeader: string;
}

const OPERATIONS: Operation[] = [
	{
		name: 'Account → Get Balance (bearer)',
		method: 'GET',
		path: '/v1/user/balance',
		parameters: { resource: 'account', operation: 'getBalance' },
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Bearer' } },
		secretHeader: 'authorization',
	},
	{
		name: 'Image → Generate (bearer)',
		method: 'POST',
		path: '/v1/images/generations',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: rl('imagegen-2'),
			prompt: 'a lighthouse',
			size: '1024x1024',
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Bearer' } },
		secretHeader: 'authorization',
	},
	{
		name: 'Message → Create (API key)',
		method: 'POST',
		path: '/v1/messages',
		parameters: {
			resource: 'message',
			operation: 'create',
			model: 'chat-model-1',
			turns: { turn: [{ role: 'user', text: 'Hi.' }] },
		},
		credentials: { generationGatewayApiKeyApi: { id: '1', name: 'API key' } },
		secretHeader: 'x-api-key',
	},
	{
		name: 'Cached Content → Create (native key)',
		method: 'POST',
		path: '/v1beta/cachedContents',
		parameters: {
			resource: 'cachedContent',
			operation: 'create',
			model: 'native-model-1',
			turns: { turn: [{ role: 'user', text: 'A long document.' }] },
		},
		credentials: { generationGatewayNativeKeyApi: { id: '1', name: 'Native' } },
		secretHeader: 'x-native-api-key',
	},
];

const STATUSES = [301, 302, 303, 307, 308] as const;

let sim: Simulator;
/** Another origin: anything it receives would have left the gateway. */
let elsewhere: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
	elsewhere = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
	await elsewhere.stop();
});
afterEach(() => sim.clearFaults());

function workflow(operation: Operation): WorkflowJson {
	return gatewayWorkflow({
		nodeName: NODE,
		parameters: operation.parameters,
		credentials: operation.credentials,
	});
}

async function run(operation: Operation) {
	const before = sim.requestsTo(operation.path, operation.method).length;
	const result = await runWorkflow(workflow(operation), { credentials: sim.credentials() });
	return { result, sent: sim.requestsTo(operation.path, operation.method).length - before };
}

describe('a redirect to another origin stops the request; the credential stays', () => {
	const targets = [
		['another host', () => `${elsewhere.url}/collect`],
		// The same host and port under another scheme is another origin too (as https -> http is).
		['the same host under another scheme', () => `${sim.url.replace('http://', 'https://')}/v1/user/balance`],
		[
			'another port of the same host',
			() => `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/user/balance`,
		],
	] as const;
	const rows = OPERATIONS.flatMap((operation) =>
		STATUSES.flatMap((status) =>
			targets.map(([where, location]) => ({ operation, status, where, location })),
		),
	);
	it.each(rows.map((row) => [row.operation.name, row.status, row.where, row] as const))(
		'%s, HTTP %i to %s',
		async (_name, status, _where, { operation, location }) => {
			const target = location();
			const elsewhereBefore = elsewhere.requests.length;
			sim.inject({
				path: operation.path,
				method: operation.method,
				fault: { kind: 'redirect', status, location: target },
			});
			const { result, sent } = await run(operation);
			expect(result.status).toBe('error');
			const error = result.nodeError(NODE)!;
			expect(error.message).toBe(
				`The gateway redirected this request to ${target}, another address than the Base URL (${sim.url}): the credential is sent only to the Base URL, so the request stopped here`,
			);
			expect(error.description).toMatch(/set the credential's Base URL to its new address/);
			expect(sent).toBe(1);
			expect(elsewhere.requests.length).toBe(elsewhereBefore);
		},
	);

	it('a pre-signed query string in the Location is not printed', async () => {
		const operation = OPERATIONS[0];
		sim.inject({
			path: operation.path,
			method: 'GET',
			fault: { kind: 'redirect', status: 302, location: `${elsewhere.url}/collect?token=s3cr3t` },
		});
		const { result } = await run(operation);
		expect(result.nodeError(NODE)!.message).toContain(`${elsewhere.url}/collect?…`);
		expect(JSON.stringify(result.nodeError(NODE))).not.toContain('s3cr3t');
	});
});

describe('a redirect within the gateway origin', () => {
	it.each(
		OPERATIONS.flatMap((operation) =>
			STATUSES.filter((status) => operation.method === 'GET' || status >= 307).map(
				(status) => [operation.name, status, operation] as const,
			),
		),
	)('%s, HTTP %i: followed, with the credential, and answered', async (_name, status, operation) => {
		sim.inject({
			path: operation.path,
			method: operation.method,
			fault: { kind: 'redirect', status, location: operation.path },
		});
		const { result, sent } = await run(operation);
		expect(result.status).toBe('success');
		expect(sent).toBe(2);
		const [first, second] = sim.requestsTo(operation.path, operation.method).slice(-2);
		expect(first.status).toBe(status);
		expect(second.status).toBe(200);
		expect(second.headers[operation.secretHeader]).toBeDefined();
		if (operation.method === 'POST') expect(second.body).toEqual(first.body);
	});

	it.each(
		OPERATIONS.filter((operation) => operation.method === 'POST').flatMap((operation) =>
			([301, 302, 303] as const).map((status) => [operation.name, status, operation] as const),
		),
	)('%s, HTTP %i: a POST is not turned into a GET; refused, sent once', async (_name, status, operation) => {
		sim.inject({
			path: operation.path,
			method: 'POST',
			fault: { kind: 'redirect', status, location: operation.path },
		});
		const { result, sent } = await run(operation);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)!.message).toBe(
			`The gateway answered this POST with HTTP ${status}, a redirect to ${sim.url}${operation.path} that would turn it into a GET`,
		);
		expect(sent).toBe(1);
	});

	it('a redirect loop ends after 5 redirects, naming the last address', async () => {
		const operation = OPERATIONS[0];
		sim.inject({
			path: operation.path,
			method: 'GET',
			times: 20,
			fault: { kind: 'redirect', status: 302, location: operation.path },
		});
		const { result, sent } = await run(operation);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)!.message).toBe(
			`The gateway redirected this request more than 5 times (last to ${sim.url}${operation.path})`,
		);
		expect(sent).toBe(6);
	});
});
