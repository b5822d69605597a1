import {
	ResponseStreamAssembler,
	responseProblem,
	simplifyResponse,
} from '../../../nodes/GenerationGateway/actions/response/stream';
import { SseDecoder } from '../../../nodes/shared/sse';

/** An SSE body as OpenAI Responses sends it: `event:` and `data:` with type and sequence_number. */
function sse(events: Array<Record<string, unknown>>): string {
	return events
		.map(
			(data, n) =>
				`event: ${String(data.type)}\ndata: ${JSON.stringify({ ...data, sequence_number: n })}\n\n`,
		)
		.join('');
}

const shell = {
	id: 'resp_1',
	object: 'response',
	created_at: 1,
	model: 'resp-model-1',
	output: [],
	usage: null,
};
const reasoning = { id: 'rs_1', type: 'reasoning', summary: [] };
const message = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
const call = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '' };
const usage = {
	input_tokens: 5,
	output_tokens: 9,
	total_tokens: 14,
	output_tokens_details: { reasoning_tokens: 2 },
};

const events = [
	{ type: 'response.created', response: { ...shell, status: 'in_progress' } },
	{ type: 'response.in_progress', response: { ...shell, status: 'in_progress' } },
	{ type: 'response.output_item.added', output_index: 0, item: reasoning },
	{
		type: 'response.reasoning_summary_part.added',
		output_index: 0,
		summary_index: 0,
		part: { type: 'summary_text', text: '' },
	},
	{ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'Think ' },
	{ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'hard' },
	{ type: 'response.output_item.added', output_index: 1, item: message },
	{
		type: 'response.content_part.added',
		output_index: 1,
		content_index: 0,
		part: { type: 'output_text', text: '', annotations: [] },
	},
	{ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Grüße ' },
	{ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'aus 東京 🗼' },
	{
		type: 'response.output_text.annotation.added',
		output_index: 1,
		content_index: 0,
		annotation_index: 0,
		annotation: { type: 'url_citation', url: 'https://example.com', start_index: 0, end_index: 5 },
	},
	{ type: 'response.output_text.done', output_index: 1, content_index: 0, text: 'Grüße aus 東京 🗼' },
	{ type: 'response.output_item.added', output_index: 2, item: call },
	{ type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"q":' },
	{ type: 'response.function_call_arguments.delta', output_index: 2, delta: '"x"}' },
	{ type: 'response.completed', response: { ...shell, status: 'completed', completed_at: 2, usage } },
];

const expected = {
	...shell,
	status: 'completed',
	completed_at: 2,
	usage,
	output: [
		{ ...reasoning, summary: [{ type: 'summary_text', text: 'Think hard' }] },
		{
			...message,
			content: [
				{
					type: 'output_text',
					text: 'Grüße aus 東京 🗼',
					annotations: [{ type: 'url_citation', url: 'https://example.com', start_index: 0, end_index: 5 }],
				},
			],
		},
		{ ...call, arguments: '{"q":"x"}' },
	],
	output_text: 'Grüße aus 東京 🗼',
};

function assemble(chunks: Uint8Array[]) {
	const decoder = new SseDecoder();
	const assembler = new ResponseStreamAssembler();
	const feed = (list: ReturnType<SseDecoder['push']>) =>
		list.forEach((event) => assembler.apply(event.event, JSON.parse(event.data) as Record<string, unknown>));
	for (const chunk of chunks) feed(decoder.push(chunk));
	feed(decoder.end());
	return assembler.finish();
}

describe('responses: SSE assembly', () => {
	const bytes = Buffer.from(sse(events));

	it('assembles the same Response object for every split of the stream into two chunks', () => {
		for (let at = 0; at <= bytes.length; at++) {
			const outcome = assemble([bytes.subarray(0, at), bytes.subarray(at)]);
			if (!outcome.ok || JSON.stringify(outcome.value) !== JSON.stringify(expected)) {
				throw new Error(`split at byte ${at}: ${JSON.stringify(outcome)}`);
			}
		}
	});

	it('assembles it from one-byte chunks', () => {
		expect(assemble(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual({ ok: true, value: expected });
	});

	it('keeps the terminal object when it carries its output', () => {
		const full = { ...expected, output_text: 'as sent' };
		const outcome = assemble([
			Buffer.from(sse([...events.slice(0, -1), { type: 'response.completed', response: full }])),
		]);
		expect(outcome).toEqual({ ok: true, value: full });
	});

	it('assembles a failed and an incomplete response, which are then reported as such', () => {
		const failed = assemble([
			Buffer.from(
				sse([
					events[0],
					{
						type: 'response.failed',
						response: {
							...shell,
							status: 'failed',
							error: { code: 'server_error', message: 'Upstream failed' },
						},
					},
				]),
			),
		]);
		expect(failed.ok && responseProblem(failed.value)).toBe(
			'The response ended with status "failed" (server_error: Upstream failed)',
		);
		const incomplete = assemble([
			Buffer.from(
				sse([
					events[0],
					{
						type: 'response.incomplete',
						response: {
							...shell,
							status: 'incomplete',
							incomplete_details: { reason: 'max_output_tokens' },
						},
					},
				]),
			),
		]);
		expect(incomplete.ok && responseProblem(incomplete.value)).toBe(
			'The response ended with status "incomplete" (reason: max_output_tokens)',
		);
		expect(responseProblem({ status: 'completed' })).toBeUndefined();
		expect(responseProblem({ status: 'queued' })).toBeUndefined();
		expect(responseProblem({ status: 'cancelled' })).toBe(
			'The response ended with status "cancelled" (no details given)',
		);
	});

	it('simplifies to output_text, status and usage', () => {
		expect(simplifyResponse(expected)).toEqual({
			id: 'resp_1',
			model: 'resp-model-1',
			status: 'completed',
			output_text: 'Grüße aus 東京 🗼',
			usage,
		});
	});

	it.each([
		[
			'no terminal event',
			events.slice(0, 5),
			'truncated',
			/ended before response.completed.*\(last status: in_progress\)/,
		],
		[
			'an error event',
			[events[0], { type: 'error', code: 'rate_limit', message: 'Slow down' }],
			'upstream',
			/error \(rate_limit\): Slow down/,
		],
		[
			'a delta for an item never added',
			[events[0], events[8]],
			'malformed',
			/output item 1, which was not added/,
		],
	])('fails on %s', (_name, list, reason, message) => {
		const outcome = assemble([Buffer.from(sse(list as Array<Record<string, unknown>>))]);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.reason).toBe(reason);
		expect(outcome.message).toMatch(message);
	});
});
