/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Cached Content → Create in real executions, and the text example workflow
 * (cache a document, summarise it with Message, answer with Response), which
 * uses all three credentials.
 */
import { join } from 'node:path';

import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, loadWorkflowFile, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { LooseJson } from '../harness/json';

const NODE = 'Create Cache';

function workflow(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}): WorkflowJson {
	return gatewayWorkflow({
		nodeName: NODE,
		parameters: { resource: 'cachedContent', operation: 'create', model: 'native-model-1', ...parameters },
		credentials: { generationGatewayNativeKeyApi: { id: '1', name: 'Native' } },
		settings,
	});
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

const lastBody = () => sim.requestsTo('/v1beta/cachedContents').slice(-1)[0]?.body as LooseJson;
const turns = { turn: [{ role: 'user', text: 'A long document.' }] };

describe('Cached Content → Create (workflow)', () => {
	it('creates a cache with the native key: models/ prefix added, ttl sent as "600s"', async () => {
		const started = Date.now();
		const result = await runWorkflow(
			workflow({
				turns,
				systemInstruction: 'Answer from the document.',
				expiry: 'ttl',
				ttlSeconds: 600,
				displayName: 'Report',
				functionDeclarations: JSON.stringify([{ name: 'lookup', parameters: { type: 'object' } }]),
				functionCallingMode: 'ANY',
				allowedFunctionNames: 'lookup',
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		const resource = result.output(NODE)[0].json as LooseJson;
		expect(resource).toMatchObject({
			name: expect.stringMatching(/^cachedContents\/[^/]+$/),
			model: 'models/native-model-1',
			displayName: 'Report',
			usageMetadata: { totalTokenCount: expect.any(Number) },
		});
		expect(Date.parse(resource.expireTime) - started).toBeGreaterThanOrEqual(599_000);
		const request = sim.requestsTo('/v1beta/cachedContents').slice(-1)[0];
		expect(request.headers['x-native-api-key']).toBe(sim.keys.nativeKey);
		expect(request.body).toEqual({
			model: 'models/native-model-1',
			contents: [{ role: 'user', parts: [{ text: 'A long document.' }] }],
			systemInstruction: { parts: [{ text: 'Answer from the document.' }] },
			tools: [{ functionDeclarations: [{ name: 'lookup', parameters: { type: 'object' } }] }],
			toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
			ttl: '600s',
			displayName: 'Report',
		});
	});

	it('sends an expire time as RFC 3339 UTC, read in the workflow time zone', async () => {
		const result = await runWorkflow(
			workflow({ turns, expiry: 'expireTime', expireTime: '2031-05-04T10:00:00.000+02:00' }),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(lastBody().expireTime).toBe('2031-05-04T08:00:00Z');
		expect(lastBody().ttl).toBeUndefined();
		expect(result.output(NODE)[0].json.expireTime).toBe('2031-05-04T08:00:00.000Z');
	});

	it('refuses before sending, naming the field; continue-on-fail keeps the good item', async () => {
		const before = sim.requestsTo('/v1beta/cachedContents').length;
		const result = await runWorkflow(
			workflow(
				{
					turns,
					displayName: '={{ $json.name }}',
					functionDeclarations: JSON.stringify([{ name: 'lookup' }]),
					functionCallingMode: '={{ $json.mode }}',
					allowedFunctionNames: '={{ $json.allowed }}',
					additionalBodyFields: '={{ JSON.stringify($json.extra) }}',
				},
				{ onError: 'continueRegularOutput' },
			),
			{
				credentials: sim.credentials(),
				input: [
					{ json: { name: 'x'.repeat(129), mode: 'ANY', allowed: 'lookup', extra: {} } },
					{ json: { name: 'ok', mode: 'AUTO', allowed: 'lookup', extra: {} } },
					{ json: { name: 'ok', mode: 'ANY', allowed: 'ghost', extra: {} } },
					{
						json: {
							name: 'ok',
							mode: 'ANY',
							allowed: 'lookup',
							extra: { expireTime: '2031-01-01T00:00:00Z' },
						},
					},
					{ json: { name: 'ok', mode: 'ANY', allowed: 'lookup', extra: {} } },
				],
			},
		);
		const out = result.output(NODE).map((item) => item.json);
		expect(out[0].error).toBe('Display Name: must be at most 128 characters (has 129)');
		expect(out[1].error).toBe(
			'Allowed Function Names: only allowed with the function-calling mode ANY or VALIDATED',
		);
		expect(out[2].error).toBe('Allowed Function Names: not declared as functions: ghost');
		expect(out[3].error).toBe('Expire Time: set either a TTL or an expire time, not both');
		expect(out[4].name).toMatch(/^cachedContents\//);
		expect(sim.requestsTo('/v1beta/cachedContents').length - before).toBe(1);
	});

	it('checks Additional Body Fields too: a ttl that is not a duration string is refused before sending', async () => {
		const result = await runWorkflow(workflow({ turns, additionalBodyFields: '{"ttl": 5}' }), {
			credentials: sim.credentials(),
		});
		expect(result.nodeError(NODE)?.message).toBe('TTL (Seconds): Expected string, received number');
	});

	it('shows the gateway error envelope and status when the gateway refuses', async () => {
		sim.inject({
			path: '/v1beta/cachedContents',
			fault: {
				kind: 'status',
				status: 400,
				body: {
					error: {
						message: 'Model does not support caching',
						type: 'invalid_request_error',
						code: 'unsupported_model',
						param: 'model',
					},
				},
			},
		});
		const result = await runWorkflow(workflow({ turns }), { credentials: sim.credentials() });
		const error = result.nodeError(NODE) as unknown as Record<string, string>;
		expect(error.message).toBe('Model does not support caching');
		expect(error.httpCode).toBe('400');
		expect(error.description).toContain('param: model');
	});
});

describe('example: examples/text-cache-summarise-answer.json', () => {
	it('caches the document, summarises it and answers, each with its own credential', async () => {
		const example = loadWorkflowFile(
			join(__dirname, '..', '..', 'examples', 'text-cache-summarise-answer.json'),
		);
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.status).toBe('success');
		const cache = result.output('Cache Document')[0].json;
		expect(cache).toMatchObject({ model: 'models/native-model-1', displayName: 'Gateway overview' });
		expect(result.output('Summarise')[0].json).toMatchObject({
			text: 'Summarise in one sentence.',
			stop_reason: 'end_turn',
		});
		const answer = result.output('Answer')[0].json;
		expect(answer).toMatchObject({ status: 'completed', output_text: 'What does the gateway do?' });
		const responseRequest = sim.requestsTo('/v1/responses').slice(-1)[0].body as Record<string, unknown>;
		expect(responseRequest.instructions).toBe(`Cite the cache ${String(cache.name)} if useful.`);
	});
});
