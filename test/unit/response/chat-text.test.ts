/** The Response assembler passes on the output_text deltas of message items only (the chat's text). */
import { ResponseStreamAssembler } from '../../../nodes/GenerationGateway/actions/response/stream';

describe('ResponseStreamAssembler onText', () => {
	it('passes on output_text deltas of message items; not reasoning, refusals or tool arguments', () => {
		const pieces: string[] = [];
		const assembler = new ResponseStreamAssembler((text) => pieces.push(text));
		const apply = (data: Record<string, unknown>) => assembler.apply(String(data.type), data);
		const response = { id: 'resp_1', status: 'in_progress', output: [] };
		apply({ type: 'response.created', response });
		apply({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', summary: [] } });
		apply({
			type: 'response.reasoning_summary_text.delta',
			output_index: 0,
			summary_index: 0,
			delta: 'think',
		});
		apply({ type: 'response.output_item.added', output_index: 1, item: { type: 'message', content: [] } });
		const part = { type: 'output_text', text: '', annotations: [] };
		apply({ type: 'response.content_part.added', output_index: 1, content_index: 0, part });
		apply({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Hi ' });
		apply({ type: 'response.refusal.delta', output_index: 1, content_index: 1, delta: 'no' });
		apply({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'wörld' });
		apply({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: '' });
		apply({
			type: 'response.output_item.added',
			output_index: 2,
			item: { type: 'function_call', arguments: '' },
		});
		apply({ type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"a":1}' });
		apply({ type: 'response.output_text.done', output_index: 1, content_index: 0, text: 'Hi wörld' });
		apply({ type: 'response.completed', response: { ...response, status: 'completed' } });
		expect(pieces.join('')).toBe('Hi wörld');
		expect(pieces.filter(Boolean)).toEqual(['Hi ', 'wörld']);
		const outcome = assembler.finish();
		expect(outcome.ok && outcome.value.output_text).toBe('Hi wörld');
	});
});
