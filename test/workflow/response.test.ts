/**
 * Response → Create in real executions: text input with the bearer
 * credential, a binary image (and audio) from the item as input, streaming,
 * failed and incomplete responses reported as errors, refusals before sending.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { LooseJson } from '../harness/json';

const NODE = 'Create Response';
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

function workflow(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}): WorkflowJson {
	return gatewayWorkflow({
		nodeName: NODE,
		parameters: { resource: 'response', operation: 'create', model: 'resp-model-1', ...parameters },
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Bearer' } },
		settings,
	});
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 7 });
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

const lastBody = () => sim.requestsTo('/v1/responses').slice(-1)[0]?.body as LooseJson;

describe('Response → Create (workflow)', () => {
	it('answers a text input with the bearer credential; outputs output_text, status and usage', async () => {
		const result = await runWorkflow(
			workflow({
				inputText: 'Name three colours. Then stop.',
				instructions: 'Be brief.',
				options: {
					temperature: 1.5,
					reasoningEffort: 'low',
					reasoningSummary: 'auto',
					include: ['reasoning.encrypted_content'],
				},
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json).toMatchObject({
			status: 'completed',
			output_text: 'Name three colours.',
			usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
		});
		const request = sim.requestsTo('/v1/responses').slice(-1)[0];
		expect(request.headers.authorization).toBe(`Bearer ${sim.keys.bearer}`);
		expect(request.body).toEqual({
			model: 'resp-model-1',
			input: 'Name three colours. Then stop.',
			instructions: 'Be brief.',
			temperature: 1.5,
			reasoning: { effort: 'low', summary: 'auto' },
			include: ['reasoning.encrypted_content'],
		});
	});

	it('sends a binary image and audio file of the item as input parts', async () => {
		const item: INodeExecutionData = {
			json: {},
			binary: {
				data: {
					data: PNG.toString('base64'),
					mimeType: 'image/png',
					fileName: 'dot.png',
					fileExtension: 'png',
				},
				clip: {
					data: Buffer.from('ID3 fake mp3').toString('base64'),
					mimeType: 'audio/mpeg',
					fileName: 'a.mp3',
					fileExtension: 'mp3',
				},
			},
		};
		const result = await runWorkflow(
			workflow({
				inputMode: 'messages',
				inputMessages: {
					message: [{ role: 'user', text: 'What is in the picture?', binaryProperties: 'data, clip' }],
				},
			}),
			{ credentials: sim.credentials(), input: [item] },
		);
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json.output_text).toBe(
			`Received image image/png (${PNG.length} bytes), audio mp3 (12 bytes). What is in the picture?`,
		);
		expect(lastBody().input).toEqual([
			{
				role: 'user',
				content: [
					{ type: 'input_text', text: 'What is in the picture?' },
					{ type: 'input_image', image_url: `data:image/png;base64,${PNG.toString('base64')}` },
					{
						type: 'input_audio',
						input_audio: { data: Buffer.from('ID3 fake mp3').toString('base64'), format: 'mp3' },
					},
				],
			},
		]);
	});

	it('streams (in 7-byte chunks) and returns the same Response object as without streaming', async () => {
		const parameters = {
			inputText: 'Stream it. Now.',
			simplifyOutput: false,
			options: { reasoningSummary: 'detailed' },
		};
		const plain = await runWorkflow(workflow(parameters), { credentials: sim.credentials() });
		const streamed = await runWorkflow(
			workflow({ ...parameters, options: { ...parameters.options, stream: true } }),
			{ credentials: sim.credentials() },
		);
		expect(streamed.status).toBe('success');
		const strip = (item: INodeExecutionData) => {
			const json = item.json as LooseJson;
			return {
				...json,
				id: 0,
				created_at: 0,
				completed_at: 0,
				stream: 0,
				output: json.output.map((o: object) => ({ ...o, id: 0 })),
			};
		};
		expect(strip(streamed.output(NODE)[0])).toEqual(strip(plain.output(NODE)[0]));
		expect((streamed.output(NODE)[0].json.output as unknown[]).length).toBe(2);
	});

	it('reports failed and incomplete responses as errors; continue-on-fail keeps the other items', async () => {
		const result = await runWorkflow(
			workflow(
				{
					model: '={{ $json.model }}',
					inputText: 'One two three four. Five.',
					options: { maxOutputTokens: '={{ $json.max }}', stream: '={{ $json.stream }}' },
				},
				{ onError: 'continueRegularOutput' },
			),
			{
				credentials: sim.credentials(),
				input: [
					{ json: { model: 'resp-fail', max: 100, stream: false } },
					{ json: { model: 'resp-model-1', max: 2, stream: true } },
					{ json: { model: 'resp-model-1', max: 100, stream: false } },
					{ json: { model: 'resp-model-1', max: 0, stream: false } },
				],
			},
		);
		expect(result.status).toBe('success');
		const out = result.output(NODE).map((item) => item.json);
		expect(out[0].error).toBe(
			'The response ended with status "failed" (server_error: The upstream model failed)',
		);
		expect(out[1].error).toBe('The response ended with status "incomplete" (reason: max_output_tokens)');
		expect(out[1].errorDescription).toContain('max_output_tokens');
		expect(out[2]).toMatchObject({ status: 'completed', output_text: 'One two three four.' });
		expect(out[3].error).toBe('Max Output Tokens: must be 1 or more');
		expect(out[3].errorDescription).toContain('not sent');
	});

	it('refuses previous_response_id with conversation, and a missing binary property, before sending', async () => {
		const before = sim.requestsTo('/v1/responses').length;
		const both = await runWorkflow(
			workflow({ inputText: 'x', options: { previousResponseId: 'resp_1', conversation: 'conv_1' } }),
			{ credentials: sim.credentials() },
		);
		expect(both.nodeError(NODE)?.message).toBe(
			'Conversation: cannot be combined with Previous Response ID: use one of the two',
		);
		const missing = await runWorkflow(
			workflow({
				inputMode: 'messages',
				inputMessages: { message: [{ role: 'user', text: 'x', binaryProperties: 'photo' }] },
			}),
			{ credentials: sim.credentials() },
		);
		expect(missing.nodeError(NODE)?.message).toBe(
			'Messages (#1 Binary Properties): the item has no binary property "photo"',
		);
		expect(sim.requestsTo('/v1/responses').length).toBe(before);
	});
});
