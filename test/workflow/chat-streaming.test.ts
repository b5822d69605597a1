/**
 * Message → Create and Response → Create in an execution that streams into
 * n8n's chat (as a Chat Trigger or Webhook in response mode "Streaming" makes
 * it: n8n-core's `isStreaming()` true, chunks to the `sendChunk` hook). The
 * answer's text goes out as it arrives (begin, an item per text delta, end),
 * joined equal to the item's text, which is unchanged; thinking and reasoning
 * are not sent; nothing is sent when the execution does not stream or the
 * node runs as an AI tool; a stream failing mid-way fails as it does today.
 */
import type { INodeExecutionData, StructuredChunk } from 'n8n-workflow';

import type { RunOptions, RunResult, WorkflowJson } from '../harness';
import {
	GATEWAY_TOOL_TYPE,
	TEST_AGENT_TYPE,
	gatewayWorkflow,
	registerToolTypes,
	runWorkflow,
} from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const MESSAGE = 'Create Message';
const RESPONSE = 'Create Response';

function messageWorkflow(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}) {
	return gatewayWorkflow({
		nodeName: MESSAGE,
		parameters: { resource: 'message', operation: 'create', model: 'chat-model-1', ...parameters },
		credentials: { generationGatewayApiKeyApi: { id: '1', name: 'API key' } },
		settings,
	});
}

function responseWorkflow(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}) {
	return gatewayWorkflow({
		nodeName: RESPONSE,
		parameters: { resource: 'response', operation: 'create', model: 'resp-model-1', ...parameters },
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Bearer' } },
		settings,
	});
}

const turn = (text: string) => ({ turns: { turn: [{ role: 'user', text }] } });

/** Runs the workflow as a streaming execution; returns the run and every chunk n8n was sent. */
async function runStreaming(
	sim: Simulator,
	workflow: WorkflowJson,
	options: RunOptions = {},
): Promise<{ result: RunResult; chunks: StructuredChunk[] }> {
	const chunks: StructuredChunk[] = [];
	const result = await runWorkflow(workflow, {
		credentials: sim.credentials(),
		...options,
		onChunk: (chunk) => chunks.push(chunk),
	});
	return { result, chunks };
}

const types = (chunks: StructuredChunk[]) => chunks.map((chunk) => chunk.type);
const joined = (chunks: StructuredChunk[]) =>
	chunks
		.filter((chunk) => chunk.type === 'item')
		.map((chunk) => chunk.content)
		.join('');
const ofItem = (chunks: StructuredChunk[], itemIndex: number) =>
	chunks.filter((chunk) => chunk.metadata.itemIndex === itemIndex);

/** begin, at least `min` items, end: n8n's order for one streamed answer. */
function expectAnswer(chunks: StructuredChunk[], min = 2): void {
	const kinds = types(chunks);
	expect(kinds[0]).toBe('begin');
	expect(kinds.at(-1)).toBe('end');
	expect(kinds.slice(1, -1).every((kind) => kind === 'item')).toBe(true);
	expect(kinds.length - 2).toBeGreaterThanOrEqual(min);
}

let sim: Simulator;
/** Writes every SSE answer in one piece (the other simulator splits it into 3-byte writes). */
let whole: Simulator;
beforeAll(async () => {
	registerToolTypes();
	sim = await startSimulator({ sseChunkBytes: 3 });
	whole = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
	await whole.stop();
});
afterEach(() => sim.clearFaults());

const lastBody = (path: string) => sim.requestsTo(path).slice(-1)[0]?.body as Record<string, unknown>;

describe("Message → Create streaming into n8n's chat", () => {
	it('streams the text deltas in order (begin, item…, end), joined equal to the item, which is unchanged', async () => {
		const parameters = { thinking: 'adaptive', ...turn('Stream me into the chat, word by word. Then stop.') };
		const { result, chunks } = await runStreaming(sim, messageWorkflow(parameters));
		expect(result.status).toBe('success');
		// Stream left out of the options: the node asked the gateway for a stream by itself.
		expect(lastBody('/v1/messages').stream).toBe(true);
		const item = result.output(MESSAGE)[0].json;
		expect(item.text).toBe('Stream me into the chat, word by word.');
		expectAnswer(chunks, 3);
		expect(joined(chunks)).toBe(item.text);
		for (const chunk of chunks) {
			expect(chunk.metadata).toMatchObject({
				nodeName: MESSAGE,
				nodeId: 'gateway',
				itemIndex: 0,
				runIndex: 0,
			});
		}
		// Thinking deltas are not chat text.
		expect(chunks.some((chunk) => String(chunk.content ?? '').includes('The user wrote'))).toBe(false);

		const plain = await runWorkflow(messageWorkflow(parameters), { credentials: sim.credentials() });
		expect(lastBody('/v1/messages').stream).toBeUndefined();
		const strip = (out: INodeExecutionData) => ({ ...out.json, id: undefined });
		expect(strip(result.output(MESSAGE)[0])).toEqual(strip(plain.output(MESSAGE)[0]));
	});

	it('sends nothing when the execution does not stream', async () => {
		const { result, chunks } = await runStreaming(sim, messageWorkflow(turn('Not a chat. At all.')), {
			mode: 'trigger',
		});
		expect(result.status).toBe('success');
		expect(chunks).toEqual([]);
		expect(lastBody('/v1/messages').stream).toBeUndefined();
		expect(result.output(MESSAGE)[0].json.text).toBe('Not a chat.');
	});

	it('with Stream added and off, asks for no stream and sends the whole text as one item', async () => {
		const { result, chunks } = await runStreaming(
			sim,
			messageWorkflow({ ...turn('In one piece. Please.'), options: { stream: false } }),
		);
		expect(result.status).toBe('success');
		expect(lastBody('/v1/messages').stream).toBe(false);
		expect(types(chunks)).toEqual(['begin', 'item', 'end']);
		expect(chunks[1].content).toBe('In one piece.');
	});

	it('streams each item as its own answer (begin, item…, end per itemIndex)', async () => {
		const texts = ['First item answers. x', 'Second item answers too. y', 'Third! z'];
		const { result, chunks } = await runStreaming(
			sim,
			messageWorkflow({ ...turn('={{ $json.q }}'), requestOptions: { maxConcurrency: 3 } }),
			{ input: texts.map((q) => ({ json: { q } })) },
		);
		expect(result.status).toBe('success');
		const output = result.output(MESSAGE);
		expect(output.map((out) => out.json.text)).toEqual([
			'First item answers.',
			'Second item answers too.',
			'Third!',
		]);
		for (const [itemIndex, out] of output.entries()) {
			const own = ofItem(chunks, itemIndex);
			expectAnswer(own, 1);
			expect(joined(own)).toBe(out.json.text);
		}
	});

	it('gives the same chunks whether the SSE arrives in 3-byte pieces or in one (UTF-8 split mid-character)', async () => {
		const parameters = turn('Grüße aus Köln, 世界 — ça va? Fin.');
		const split = await runStreaming(sim, messageWorkflow(parameters));
		const one = await runStreaming(whole, messageWorkflow(parameters));
		expect(split.result.output(MESSAGE)[0].json.text).toBe('Grüße aus Köln, 世界 — ça va?');
		expect(joined(split.chunks)).toBe('Grüße aus Köln, 世界 — ça va?');
		const items = (chunks: StructuredChunk[]) =>
			chunks.filter((chunk) => chunk.type === 'item').map((chunk) => chunk.content);
		expect(items(split.chunks)).toEqual(items(one.chunks));
	});

	it("a stream dropped mid-way fails with today's error; n8n then sends its error chunk (no end)", async () => {
		const parameters = turn('This stream will break before it ends. Sorry.');
		sim.inject({ path: '/v1/messages', fault: { kind: 'sse-drop', afterEvents: 5 } });
		const today = await runWorkflow(messageWorkflow({ ...parameters, options: { stream: true } }), {
			credentials: sim.credentials(),
		});
		sim.inject({ path: '/v1/messages', fault: { kind: 'sse-drop', afterEvents: 5 } });
		const { result, chunks } = await runStreaming(sim, messageWorkflow(parameters));
		expect(result.status).toBe('error');
		expect(today.nodeError(MESSAGE)?.message).toMatch(
			/^The message stream failed: the connection to the gateway broke mid-stream/,
		);
		expect(result.nodeError(MESSAGE)?.message).toBe(today.nodeError(MESSAGE)?.message);
		expect(result.nodeError(MESSAGE)?.description).toBe(today.nodeError(MESSAGE)?.description);
		const kinds = types(chunks);
		expect(kinds[0]).toBe('begin');
		expect(kinds).not.toContain('end');
		// The engine's error chunk for the failed node (n8n's convention: its description).
		expect(chunks.at(-1)).toMatchObject({
			type: 'error',
			content: result.nodeError(MESSAGE)?.description,
			metadata: { nodeName: MESSAGE },
		});
		expect(kinds.filter((kind) => kind === 'error')).toHaveLength(1);
		// What arrived before the break was streamed: a beginning of the answer.
		expect('This stream will break before it ends.'.startsWith(joined(chunks))).toBe(true);
	});

	it('a truncated stream under continue-on-fail: the error item as today, and the node closes the answer with an error chunk', async () => {
		const parameters = turn('Cut short. Yes.');
		sim.inject({ path: '/v1/messages', fault: { kind: 'sse-truncate', afterEvents: 6 } });
		const { result, chunks } = await runStreaming(
			sim,
			messageWorkflow(parameters, { onError: 'continueRegularOutput' }),
		);
		expect(result.status).toBe('success');
		const message = 'The message stream failed: the stream ended before message_stop';
		expect(result.output(MESSAGE)[0].json.error).toBe(message);
		expect(types(chunks)[0]).toBe('begin');
		expect(chunks.at(-1)).toMatchObject({ type: 'error', content: message, metadata: { itemIndex: 0 } });
		expect(types(chunks).filter((kind) => kind === 'error' || kind === 'end')).toEqual(['error']);
	});

	it('sends nothing before the gateway answers; a refused item sends nothing at all', async () => {
		const { result, chunks } = await runStreaming(sim, messageWorkflow({ turns: { turn: [] } }));
		expect(result.status).toBe('error');
		// Only the engine's error chunk for the failed node.
		expect(types(chunks)).toEqual(['error']);
	});

	it('as an AI Agent tool in a streaming execution: no chunks, and no stream asked for', async () => {
		const workflow = {
			name: 'agent tool chat test',
			nodes: [
				{
					id: 's',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{ id: 'a', name: 'Agent', type: TEST_AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: {} },
				{
					id: 't',
					name: 'Gateway Tool',
					type: GATEWAY_TOOL_TYPE,
					typeVersion: 1,
					position: [200, 200],
					parameters: {
						toolDescription: 'Answers',
						resource: 'message',
						operation: 'create',
						model: 'chat-model-1',
						turns: { turn: [{ role: 'user', text: "={{ $fromAI('question', 'The question', 'string') }}" }] },
					},
					credentials: { generationGatewayApiKeyApi: { id: '1', name: 'Gateway' } },
				},
			],
			connections: {
				Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				'Gateway Tool': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		} as unknown as WorkflowJson;
		const { result, chunks } = await runStreaming(sim, workflow, {
			input: [{ json: { toolArgs: { question: 'Asked by the agent. Fine.' } } }],
		});
		expect(result.status).toBe('success');
		expect(String(result.output('Agent')[0].json.returned)).toContain('Asked by the agent.');
		expect(lastBody('/v1/messages').stream).toBeUndefined();
		expect(chunks).toEqual([]);
	});
});

describe("Response → Create streaming into n8n's chat", () => {
	it('streams the output_text deltas in order, joined equal to output_text; reasoning summaries are not sent', async () => {
		const parameters = {
			inputText: 'Stream the response into the chat. Thanks.',
			options: { reasoningSummary: 'detailed' },
		};
		const { result, chunks } = await runStreaming(sim, responseWorkflow(parameters));
		expect(result.status).toBe('success');
		expect(lastBody('/v1/responses').stream).toBe(true);
		const item = result.output(RESPONSE)[0].json;
		expect(item.output_text).toBe('Stream the response into the chat.');
		expectAnswer(chunks, 3);
		expect(joined(chunks)).toBe(item.output_text);
		expect(chunks.every((chunk) => chunk.metadata.nodeName === RESPONSE)).toBe(true);
		expect(chunks.some((chunk) => String(chunk.content ?? '').includes('Read the input'))).toBe(false);

		const plain = await runWorkflow(responseWorkflow(parameters), { credentials: sim.credentials() });
		const strip = (out: INodeExecutionData) => ({ ...out.json, id: undefined });
		expect(strip(result.output(RESPONSE)[0])).toEqual(strip(plain.output(RESPONSE)[0]));
	});

	it('sends nothing when the execution does not stream', async () => {
		const { result, chunks } = await runStreaming(sim, responseWorkflow({ inputText: 'Quiet. Yes.' }), {
			mode: 'trigger',
		});
		expect(result.status).toBe('success');
		expect(chunks).toEqual([]);
		expect(lastBody('/v1/responses').stream).toBeUndefined();
	});

	it('with Background on, asks for no stream (the response is returned queued) and sends an empty answer', async () => {
		const { result, chunks } = await runStreaming(
			sim,
			responseWorkflow({ inputText: 'Later. Please.', options: { background: true } }),
		);
		expect(result.status).toBe('success');
		expect(lastBody('/v1/responses').stream).toBeUndefined();
		expect(result.output(RESPONSE)[0].json.status).toBe('queued');
		expect(types(chunks)).toEqual(['begin', 'end']);
	});

	it("a stream dropped mid-way fails with today's error; n8n then sends its error chunk", async () => {
		const parameters = { inputText: 'This response breaks in the middle of its text. Sorry.' };
		sim.inject({ path: '/v1/responses', fault: { kind: 'sse-drop', afterEvents: 8 } });
		const today = await runWorkflow(responseWorkflow({ ...parameters, options: { stream: true } }), {
			credentials: sim.credentials(),
		});
		sim.inject({ path: '/v1/responses', fault: { kind: 'sse-drop', afterEvents: 8 } });
		const { result, chunks } = await runStreaming(sim, responseWorkflow(parameters));
		expect(result.status).toBe('error');
		expect(result.nodeError(RESPONSE)?.message).toMatch(
			/^The response stream failed: the connection to the gateway broke/,
		);
		expect(result.nodeError(RESPONSE)?.message).toBe(today.nodeError(RESPONSE)?.message);
		expect(types(chunks)[0]).toBe('begin');
		expect(types(chunks)).not.toContain('end');
		expect(chunks.at(-1)).toMatchObject({ type: 'error', metadata: { nodeName: RESPONSE } });
		expect(joined(chunks).length).toBeGreaterThan(0);
		expect('This response breaks in the middle of its text.'.startsWith(joined(chunks))).toBe(true);
	});

	it('a response that ends "failed" under continue-on-fail: the error item as today, closed with an error chunk', async () => {
		const { result, chunks } = await runStreaming(
			sim,
			responseWorkflow({ model: 'resp-fail', inputText: 'Fail. Now.' }, { onError: 'continueRegularOutput' }),
		);
		expect(result.status).toBe('success');
		const message = 'The response ended with status "failed" (server_error: The upstream model failed)';
		expect(result.output(RESPONSE)[0].json.error).toBe(message);
		expect(types(chunks)).toEqual(['begin', 'error']);
		expect(chunks[1].content).toBe(message);
	});
});
