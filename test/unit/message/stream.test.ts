import {
	MessageStreamAssembler,
	simplifyMessage,
} from '../../../nodes/GenerationGateway/actions/message/stream';
import { SseDecoder } from '../../../nodes/shared/sse';

/** An SSE body as the Anthropic Messages protocol sends it (event: line + data: line). */
function sse(events: Array<Record<string, unknown>>): string {
	return events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

const message = {
	id: 'msg_1',
	type: 'message',
	role: 'assistant',
	model: 'chat-model-1',
	content: [],
	stop_reason: null,
	stop_sequence: null,
	usage: { input_tokens: 12, output_tokens: 1 },
};

const events = [
	{ type: 'message_start', message },
	{ type: 'ping' },
	{ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
	{ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
	{ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think — ünïcode ✓' } },
	{ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM+/=' } },
	{ type: 'content_block_stop', index: 0 },
	{ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
	{ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello, ' } },
	{ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'wörld 🌍' } },
	{ type: 'content_block_stop', index: 1 },
	{
		type: 'content_block_start',
		index: 2,
		content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
	},
	{
		type: 'content_block_delta',
		index: 2,
		delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' },
	},
	{
		type: 'content_block_delta',
		index: 2,
		delta: { type: 'input_json_delta', partial_json: 'ris", "n": 2}' },
	},
	{ type: 'content_block_stop', index: 2 },
	{
		type: 'message_delta',
		delta: { stop_reason: 'tool_use', stop_sequence: null },
		usage: { output_tokens: 42 },
	},
	{ type: 'message_stop' },
];

const expected = {
	...message,
	content: [
		{ type: 'thinking', thinking: 'Let me think — ünïcode ✓', signature: 'EqQBCgIYAhIM+/=' },
		{ type: 'text', text: 'Hello, wörld 🌍' },
		{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { city: 'Paris', n: 2 } },
	],
	stop_reason: 'tool_use',
	usage: { input_tokens: 12, output_tokens: 42 },
};

function assemble(chunks: Uint8Array[]) {
	const decoder = new SseDecoder();
	const assembler = new MessageStreamAssembler();
	const feed = (list: ReturnType<SseDecoder['push']>) =>
		list.forEach((event) => assembler.apply(event.event, JSON.parse(event.data) as Record<string, unknown>));
	for (const chunk of chunks) feed(decoder.push(chunk));
	feed(decoder.end());
	return assembler.finish();
}

describe('messages: SSE assembly', () => {
	const bytes = Buffer.from(sse(events));

	it('assembles the same Message resource for every split of the stream into two chunks', () => {
		for (let at = 0; at <= bytes.length; at++) {
			const outcome = assemble([bytes.subarray(0, at), bytes.subarray(at)]);
			if (!outcome.ok || JSON.stringify(outcome.value) !== JSON.stringify(expected)) {
				throw new Error(`split at byte ${at}: ${JSON.stringify(outcome)}`);
			}
		}
	});

	it('assembles it from one-byte chunks', () => {
		const outcome = assemble(Array.from(bytes, (byte) => Uint8Array.of(byte)));
		expect(outcome).toEqual({ ok: true, value: expected });
	});

	it('simplifies to text, stop reason, stop sequence and usage', () => {
		const outcome = assemble([bytes]);
		if (!outcome.ok) throw new Error(outcome.message);
		expect(simplifyMessage(outcome.value)).toEqual({
			id: 'msg_1',
			model: 'chat-model-1',
			text: 'Hello, wörld 🌍',
			stop_reason: 'tool_use',
			stop_sequence: null,
			usage: { input_tokens: 12, output_tokens: 42 },
		});
	});

	it('keeps citations and the stop sequence from message_delta', () => {
		const outcome = assemble([
			Buffer.from(
				sse([
					{ type: 'message_start', message },
					{ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
					{
						type: 'content_block_delta',
						index: 0,
						delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x' } },
					},
					{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'cited' } },
					{ type: 'content_block_stop', index: 0 },
					{
						type: 'message_delta',
						delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' },
						usage: { output_tokens: 3 },
					},
					{ type: 'message_stop' },
				]),
			),
		]);
		expect(outcome.ok && outcome.value).toMatchObject({
			content: [{ type: 'text', text: 'cited', citations: [{ type: 'char_location', cited_text: 'x' }] }],
			stop_reason: 'stop_sequence',
			stop_sequence: 'END',
		});
	});

	it.each([
		['no message_stop', events.slice(0, -1), 'truncated', /before message_stop/],
		['nothing at all', [], 'truncated', /before message_start/],
		[
			'delta for a block never started',
			[events[0], events[3]],
			'malformed',
			/content block 0, which was not started/,
		],
		[
			'broken tool input',
			[
				events[0],
				{
					type: 'content_block_start',
					index: 0,
					content_block: { type: 'tool_use', id: 't', name: 'n', input: {} },
				},
				{ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
				{ type: 'content_block_stop', index: 0 },
				{ type: 'message_stop' },
			],
			'malformed',
			/tool input of content block 0 is not valid JSON/,
		],
		[
			'an error event',
			[events[0], { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
			'upstream',
			/error \(overloaded_error\): Overloaded/,
		],
	])('fails on %s', (_name, list, reason, message) => {
		const outcome = assemble([Buffer.from(sse(list as Array<Record<string, unknown>>))]);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.reason).toBe(reason);
		expect(outcome.message).toMatch(message);
	});
});
