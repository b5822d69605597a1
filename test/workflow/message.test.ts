/**
 * Message → Create in real executions (n8n-core engine, package from dist/,
 * real HTTP to the simulator): a multi-turn conversation carrying a thinking
 * block back unchanged, streaming, the x-api-key credential, refusals before
 * sending, and continue-on-fail.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { LooseJson } from '../harness/json';

const NODE = 'Create Message';

function workflow(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}): WorkflowJson {
	return gatewayWorkflow({
		nodeName: NODE,
		parameters: { resource: 'message', operation: 'create', model: 'chat-model-1', ...parameters },
		credentials: { generationGatewayApiKeyApi: { id: '1', name: 'API key' } },
		settings,
	});
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 5 });
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

const lastBody = () => sim.requestsTo('/v1/messages').slice(-1)[0]?.body as LooseJson;

describe('Message → Create (workflow)', () => {
	it('sends form turns and the system prompt with the x-api-key credential; outputs the simplified item', async () => {
		const result = await runWorkflow(
			workflow({
				turns: { turn: [{ role: 'user', text: 'Summarise this. It is long.' }] },
				system: 'Be brief.',
				maxTokens: 200,
				options: { temperature: 0.2, stopSequences: 'END\nSTOP' },
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json).toMatchObject({
			text: 'Summarise this.',
			stop_reason: 'end_turn',
			stop_sequence: null,
			usage: { input_tokens: 7 },
		});
		const request = sim.requestsTo('/v1/messages').slice(-1)[0];
		expect(request.headers['x-api-key']).toBe(sim.keys.apiKey);
		expect(request.headers.authorization).toBeUndefined();
		expect(request.body).toEqual({
			model: 'chat-model-1',
			max_tokens: 200,
			messages: [{ role: 'user', content: 'Summarise this. It is long.' }],
			system: 'Be brief.',
			temperature: 0.2,
			stop_sequences: ['END', 'STOP'],
		});
	});

	it('runs a multi-turn conversation: the thinking block of turn 1 goes back unchanged in turn 2', async () => {
		const thinking = {
			thinking: 'enabled',
			thinkingBudget: 1024,
			unmatchedThinkingBlocks: 'error',
			maxTokens: 3000,
		};
		const first = await runWorkflow(
			workflow({
				...thinking,
				simplifyOutput: false,
				turns: { turn: [{ role: 'user', text: 'What is n8n?' }] },
			}),
			{ credentials: sim.credentials() },
		);
		expect(first.status).toBe('success');
		const reply = first.output(NODE)[0].json as LooseJson;
		expect(reply.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^sig_/) });
		const messages = [
			{ role: 'user', content: 'What is n8n?' },
			{ role: 'assistant', content: reply.content },
			{ role: 'user', content: 'And in one word?' },
		];
		const second = await runWorkflow(
			workflow({ ...thinking, conversationMode: 'json', messagesJson: JSON.stringify(messages) }),
			{ credentials: sim.credentials() },
		);
		expect(second.status).toBe('success');
		expect(second.output(NODE)[0].json.text).toBe('And in one word?');
		expect(lastBody().messages[1].content[0]).toEqual(reply.content[0]);
		expect(lastBody().thinking).toEqual({ type: 'enabled', budget_tokens: 1024, unmatched_blocks: 'error' });

		// A changed signature is an unmatched block: with "error" the gateway answers 400.
		messages[1].content[0] = { ...reply.content[0], signature: 'changed' };
		const third = await runWorkflow(
			workflow({ ...thinking, conversationMode: 'json', messagesJson: JSON.stringify(messages) }),
			{ credentials: sim.credentials() },
		);
		expect(third.status).toBe('error');
		expect((third.nodeError(NODE) as unknown as Record<string, unknown>).httpCode).toBe('400');
	});

	it('streams (in 5-byte chunks) and assembles the same Message resource as without streaming', async () => {
		const parameters = {
			thinking: 'adaptive',
			simplifyOutput: false,
			turns: { turn: [{ role: 'user', text: 'Stream me. Please.' }] },
		};
		const plain = await runWorkflow(workflow(parameters), { credentials: sim.credentials() });
		const streamed = await runWorkflow(workflow({ ...parameters, options: { stream: true } }), {
			credentials: sim.credentials(),
		});
		expect(streamed.status).toBe('success');
		expect(lastBody().stream).toBe(true);
		const strip = (item: INodeExecutionData) => ({ ...item.json, id: undefined });
		expect(strip(streamed.output(NODE)[0])).toEqual(strip(plain.output(NODE)[0]));
	});

	it('fails clearly when the stream ends before message_stop', async () => {
		sim.inject({ path: '/v1/messages', fault: { kind: 'sse-truncate', afterEvents: 3 } });
		const result = await runWorkflow(
			workflow({ options: { stream: true }, turns: { turn: [{ role: 'user', text: 'Hi.' }] } }),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toBe(
			'The message stream failed: the stream ended before message_stop',
		);
	});

	it('refuses before sending, naming the field; continue-on-fail gives an error item in place', async () => {
		const before = sim.requestsTo('/v1/messages').length;
		const result = await runWorkflow(
			workflow(
				{
					maxTokens: 1500,
					thinking: '={{ $json.thinking }}',
					thinkingBudget: 2048,
					turns: { turn: [{ role: '={{ $json.role }}', text: 'Hi.' }] },
				},
				{ onError: 'continueRegularOutput' },
			),
			{
				credentials: sim.credentials(),
				input: [
					{ json: { role: 'system', thinking: 'default' } },
					{ json: { role: 'user', thinking: 'enabled' } },
					{ json: { role: 'user', thinking: 'default' } },
				],
			},
		);
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.error).toBe(
			'Conversation (#1 role): system-role messages are not supported: put the system prompt in the System field',
		);
		expect(out[0].json.errorDescription).toContain('not sent');
		expect(out[1].json.error).toBe(
			'Thinking Budget Tokens: must be below Max Tokens (1500): thinking tokens count toward it',
		);
		expect(out[2].json.text).toBe('Hi.');
		expect(sim.requestsTo('/v1/messages').length - before).toBe(1);
	});
});
