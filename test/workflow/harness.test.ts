/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Proves the workflow harness: the built package runs in n8n-core's engine,
 * over real HTTP to a local server, with n8n's credential and binary helpers,
 * and what n8n-core starts for a file's executions stops with the file.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	ICredentialType,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import {
	credentialTestRequest,
	disposeHarness,
	readBinary,
	registerCredentialType,
	registerNodeType,
	requestUrl,
	runWorkflow,
	sendRequest,
	startWorkflow,
} from '../harness';
import { OpenResources } from '../harness/open-handles-environment';
import { until } from '../harness/until';

const BALANCE = { balance: 12.5, currency: 'USD', is_active: true, total: 20, used: 7.5 };
const BAD_TOKEN = {
	error: { message: 'bad token', type: 'authentication_error', code: 'invalid_token', param: null },
};

const server = createServer((req, res) => {
	const ok = req.method === 'GET' && req.url === '/v1/user/balance';
	const authorized = req.headers.authorization === 'Bearer good-token';
	const [status, body] = !ok
		? [404, { error: { message: 'not found' } }]
		: authorized
			? [200, BALANCE]
			: [401, BAD_TOKEN];
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
});
let baseUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

const TRIGGER = "When clicking 'Execute workflow'";

function workflowWith(node: {
	name: string;
	type: string;
	parameters?: object;
	credentials?: object;
}): WorkflowJson {
	return {
		name: 'harness test',
		nodes: [
			{
				id: 't',
				name: TRIGGER,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'n',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
				...node,
			} as WorkflowJson['nodes'][number],
		],
		connections: { [TRIGGER]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
	};
}

const balanceWorkflow = workflowWith({
	name: 'Balance',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	parameters: { resource: 'account', operation: 'getBalance' },
	credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
});

/** A test-only node type running `run` as its execute(). */
function testNode(name: string, run: (ctx: IExecuteFunctions) => Promise<INodeExecutionData[][]>): INodeType {
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version: 1,
			description: 'Test-only node',
			defaults: { name },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		} satisfies INodeTypeDescription,
		async execute(this: IExecuteFunctions) {
			return await run(this);
		},
	};
}

const bearer = (token: string) => ({ generationGatewayBearerApi: { baseUrl, token } });

describe('workflow harness', () => {
	it('runs the Generation Gateway node against a local gateway', async () => {
		const result = await runWorkflow(balanceWorkflow, { credentials: bearer('good-token') });

		expect(result.status).toBe('success');
		expect(result.error).toBeUndefined();
		expect(result.nodeExecutionOrder).toEqual([TRIGGER, 'Balance']);
		const items = result.output('Balance');
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual(BALANCE);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('fails the run with the gateway message on a bad token', async () => {
		const result = await runWorkflow(balanceWorkflow, { credentials: bearer('wrong') });

		expect(result.status).toBe('error');
		expect(result.error?.message ?? '').toContain('bad token');
		const nodeError = result.nodeError('Balance');
		// Stored as n8n stores it: the thrown NodeApiError spread into a plain object.
		expect(nodeError).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'bad token' });
		expect(result.output('Balance')).toEqual([]);
	});

	it('resolves the credential test request and sends it with n8n’s HTTP client', async () => {
		const request = await credentialTestRequest('generationGatewayBearerApi', {
			baseUrl: `${baseUrl}/`,
			token: 'good-token',
		});

		expect(request.method).toBe('GET');
		expect(requestUrl(request)).toBe(`${baseUrl}/v1/user/balance`);
		expect(request.headers).toMatchObject({ Authorization: 'Bearer good-token' });
		const good = await sendRequest(request);
		expect(good.statusCode).toBe(200);
		expect(good.body).toEqual(BALANCE);

		const bad = await credentialTestRequest('generationGatewayBearerApi', { baseUrl, token: 'nope' });
		await expect(sendRequest(bad)).rejects.toThrow();
	});

	it('applies generic (expressions, defaults) and function authenticate blocks', async () => {
		const properties: ICredentialType['properties'] = [
			{ displayName: 'Key', name: 'key', type: 'string', default: '' },
			{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
		];
		const request = { baseURL: '={{"https://" + $credentials.region + ".example.test"}}', url: '/ping' };
		registerCredentialType({
			name: 'testGenericApi',
			displayName: 'Generic',
			properties,
			authenticate: {
				type: 'generic',
				properties: {
					headers: { 'X-Key': '={{$credentials.key.toUpperCase()}}' },
					qs: { region: '={{$credentials.region}}' },
				},
			},
			test: { request },
		});
		registerCredentialType({
			name: 'testFunctionApi',
			displayName: 'Function',
			properties,
			authenticate: async (credentials, options) => ({
				...options,
				headers: {
					...options.headers,
					'X-Signed': `${String(credentials.key)}@${String(credentials.region)}`,
				},
			}),
			test: { request },
		});

		const generic = await credentialTestRequest('testGenericApi', { key: 'abc' });
		expect(requestUrl(generic)).toBe('https://eu.example.test/ping');
		expect(generic.headers).toEqual({ 'X-Key': 'ABC' });
		expect(generic.qs).toEqual({ region: 'eu' });
		const fn = await credentialTestRequest('testFunctionApi', { key: 'abc', region: 'us' });
		expect(requestUrl(fn)).toBe('https://us.example.test/ping');
		expect(fn.headers).toEqual({ 'X-Signed': 'abc@us' });
	});

	it('stores binary data with prepareBinaryData and reads it back', async () => {
		const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);
		registerNodeType(
			'test.binaryMaker',
			testNode('binaryMaker', async (ctx) => {
				const data = await ctx.helpers.prepareBinaryData(bytes, 'image.png', 'image/png');
				return [[{ json: {}, binary: { data }, pairedItem: { item: 0 } }]];
			}),
		);

		const result = await runWorkflow(workflowWith({ name: 'Make', type: 'test.binaryMaker' }));

		expect(result.status).toBe('success');
		const binary = result.output('Make')[0].binary?.data;
		expect(binary).toMatchObject({ fileName: 'image.png', mimeType: 'image/png' });
		expect(binary?.id).toMatch(/^filesystem/); // stored in the filesystem store, not inline
		expect(await readBinary(binary!)).toEqual(bytes);
	});

	it('cancels a running execution through the execution cancel signal', async () => {
		let sawAbort = false;
		let running = false;
		registerNodeType(
			'test.waitForAbort',
			testNode('waitForAbort', async (ctx) => {
				const signal = ctx.getExecutionCancelSignal();
				running = true;
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, 5_000); // bound: never hang the suite
					signal?.addEventListener('abort', () => {
						sawAbort = true;
						clearTimeout(timer);
						resolve();
					});
				});
				return [ctx.getInputData()];
			}),
		);
		const handle = startWorkflow(workflowWith({ name: 'Wait', type: 'test.waitForAbort' }));
		await until(() => running, 'the node to run');
		handle.cancel();
		const result = await handle.promise;

		// The node ended on the abort, not on its bound.
		expect(sawAbort).toBe(true);
		expect(result.status).toBe('canceled');
	});

	it('ends with status waiting when a node puts the execution to wait', async () => {
		const waitTill = new Date(Date.now() + 60_000);
		registerNodeType(
			'test.putToWait',
			testNode('putToWait', async (ctx) => {
				await ctx.putExecutionToWait(waitTill);
				return [ctx.getInputData()];
			}),
		);
		const result = await runWorkflow(workflowWith({ name: 'Park', type: 'test.putToWait' }));

		expect(result.status).toBe('waiting');
		expect(result.waitTill).toEqual(waitTill);
		expect(result.runExecutionData.executionData?.nodeExecutionStack[0]?.node.name).toBe('Park');
	});

	// Last: it ends the file's n8n (the harness sets up a new one for any execution after it).
	it("ends the file's n8n with what n8n-core started for its executions (the SSH client manager's 60 s interval)", async () => {
		// Left armed, the interval keeps its callback, and through it the file's whole module graph
		// (n8n-core, n8n-workflow, the package), alive for the rest of jest's worker. The rows above
		// made the manager already: this row starts from a new n8n, watching its timers.
		disposeHarness();
		const resources = new OpenResources();
		// The timers Node has reported cleared so far are gone from the list after a turn.
		const unrefdTimers = async () => {
			await new Promise<void>((resolve) => setImmediate(resolve));
			return resources.unrefdTimers().length;
		};
		try {
			// The trigger alone: no HTTP, whose Date header Node caches with an unref'd timer of its own.
			const result = await runWorkflow({
				...balanceWorkflow,
				nodes: balanceWorkflow.nodes.slice(0, 1),
				connections: {},
			});
			expect(result.status).toBe('success');
			expect(await unrefdTimers()).toBe(1);
			disposeHarness();
			expect(await unrefdTimers()).toBe(0);
		} finally {
			resources.stop();
		}
	});
});
