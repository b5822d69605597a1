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
import { agentWorkflow, gatewayWorkflow, registerToolTypes, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const MESSAGE = 'Create Message';
const RESPONSE = 'Create Response';

/** Start → the node set to `resource` → Create, with `model` and a credential of type `credential`. */
const createWorkflow =
	(nodeName: string, resource: string, model: string, credential: string) =>
	(parameters: Record<string, unknown>, settings: Record<string, unknown> = {}) =>
		gatewayWorkflow({
			nodeName,
			parameters: { resource, operation: 'create', model, ...parameters },
			credentials: { [credential]: { id: '1', name: 'Gateway' } },
			settings,
		});
const messageWorkflow = createWorkflow(MESSAGE, 'message', 'chat-model-1', 'generationGatewayApiKeyApi');
const responseWorkflow = createWorkflow(RESPONSE, 'response', 'resp-model-1', 'generationGatewayBearerApi');

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

/** A streamed answer that succeeded: the node asked for a stream, the chunks join to the item's `field`. */
function expectStreamed(
	run: { result: RunResult; chunks: StructuredChunk[] },
	node: string,
	path: string,
	field: string,
	text: string,
): void {
	expect(run.result.status).toBe('success');
	// Stream left out of the options: the node asked the gateway for a stream by itself.
	expect(lastBody(path).stream).toBe(true);
	expect(run.result.output(node)[0].json[field]).toBe(text);
	expectAnswer(run.chunks, 3);
	expect(joined(run.chunks)).toBe(text);
	for (const chunk of run.chunks) {
		expect(chunk.metadata).toMatchObject({ nodeName: node, nodeId: 'gateway', itemIndex: 0, runIndex: 0 });
	}
}

/**
 * The stream breaks after `afterEvents` events, once with Stream on outside a
 * chat (today's error) and once in a streaming execution: the same error, the
 * chunks begin and a beginning of `text`, then n8n's own error chunk for the
 * failed node (its description), and no end.
 */
async function expectDropped(
	path: string,
	node: string,
	workflow: (parameters: Record<string, unknown>) => WorkflowJson,
	parameters: Record<string, unknown>,
	afterEvents: number,
	text: string,
): Promise<void> {
	sim.inject({ path, fault: { kind: 'sse-drop', afterEvents } });
	const today = await runWorkflow(workflow({ ...parameters, options: { stream: true } }), {
		credentials: sim.credentials(),
	});
	sim.inject({ path, fault: { kind: 'sse-drop', afterEvents } });
	const { result, chunks } = await runStreaming(sim, workflow(parameters));
	expect(result.status).toBe('error');
	const error = result.nodeError(node);
	expect(error?.message).toMatch(/stream failed: the connection to the gateway broke mid-stream/);
	expect(error?.message).toBe(today.nodeError(node)?.message);
	expect(error?.description).toBe(today.nodeError(node)?.description);
	const kinds = types(chunks);
	expect(kinds[0]).toBe('begin');
	expect(kinds).not.toContain('end');
	expect(kinds.filter((kind) => kind === 'error')).toHaveLength(1);
	expect(chunks.at(-1)).toMatchObject({
		type: 'error',
		content: error?.description,
		metadata: { nodeName: node },
	});
	// What arrived before the break was streamed: a beginning of the answer.
	expect(joined(chunks).length).toBeGreaterThan(0);
	expect(text.startsWith(joined(chunks))).toBe(true);
}

describe("Message → Create streaming into n8n's chat", () => {
	it('streams the text deltas in order (begin, item…, end), joined equal to the item, which is unchanged', async () => {
		const parameters = { thinking: 'adaptive', ...turn('Stream me into the chat, word by word. Then stop.') };
		const run = await runStreaming(sim, messageWorkflow(parameters));
		expectStreamed(run, MESSAGE, '/v1/messages', 'text', 'Stream me into the chat, word by word.');
		const { result, chunks } = run;
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
		await expectDropped(
			'/v1/messages',
			MESSAGE,
			messageWorkflow,
			turn('This stream will break before it ends. Sorry.'),
			5,
			'This stream will break before it ends.',
		);
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
		const workflow = agentWorkflow(
			{
				resource: 'message',
				operation: 'create',
				model: 'chat-model-1',
				turns: { turn: [{ role: 'user', text: "={{ $fromAI('question', 'The question', 'string') }}" }] },
			},
			'generationGatewayApiKeyApi',
		);
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
		const run = await runStreaming(sim, responseWorkflow(parameters));
		expectStreamed(run, RESPONSE, '/v1/responses', 'output_text', 'Stream the response into the chat.');
		const { result, chunks } = run;
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
		await expectDropped(
			'/v1/responses',
			RESPONSE,
			responseWorkflow,
			{ inputText: 'This response breaks in the middle of its text. Sorry.' },
			8,
			'This response breaks in the middle of its text.',
		);
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
