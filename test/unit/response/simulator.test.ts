import { ResponseStreamAssembler } from '../../../nodes/GenerationGateway/actions/response/stream';
import { SseDecoder } from '../../../nodes/shared/sse';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import type { LooseJson } from '../../harness/json';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

async function post(body: unknown) {
	const response = await fetch(`${sim.url}/v1/responses`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${sim.keys.bearer}` },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	return {
		status: response.status,
		text,
		json: JSON.parse(text.startsWith('{') ? text : '{}') as LooseJson,
	};
}

const base = { model: 'resp-model-1', input: 'Tell me. Then more.' };

const rows: Array<[string, Record<string, unknown>, string | undefined]> = [
	['text input', {}, undefined],
	[
		'both previous_response_id and conversation',
		{ previous_response_id: 'r', conversation: 'c' },
		'conversation',
	],
	['include unknown', { include: ['x'] }, 'include.0'],
	['max_output_tokens 0', { max_output_tokens: 0 }, 'max_output_tokens'],
	['max_tool_calls -1', { max_tool_calls: -1 }, 'max_tool_calls'],
	['prompt_cache_retention bad', { prompt_cache_retention: '1h' }, 'prompt_cache_retention'],
	['reasoning effort bad', { reasoning: { effort: 'huge' } }, 'reasoning.effort'],
	['safety_identifier 65', { safety_identifier: 'x'.repeat(65) }, 'safety_identifier'],
	['service_tier bad', { service_tier: 'gold' }, 'service_tier'],
	['temperature 2.5', { temperature: 2.5 }, 'temperature'],
	['top_p 2', { top_p: 2 }, 'top_p'],
	['top_logprobs 21', { top_logprobs: 21 }, 'top_logprobs'],
	['tool kind bad', { tools: [{ type: 'x' }] }, 'tools.0.type'],
	['tool_choice bad', { tool_choice: 'sometimes' }, 'tool_choice'],
	['truncation bad', { truncation: 'cut' }, 'truncation'],
	[
		'broken image data URL',
		{ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,@@' }] }] },
		'input.0.content.0.image_url',
	],
];

describe('simulator: POST /v1/responses', () => {
	it.each(rows)('%s', async (_name, change, param) => {
		const { status, json } = await post({ ...base, ...change });
		if (param === undefined) {
			expect(status).toBe(200);
			expect(json).toMatchObject({ object: 'response', status: 'completed', output_text: 'Tell me.' });
		} else {
			expect(status).toBe(400);
			expect(json.error.param).toBe(param);
		}
	});

	it('reports incomplete, failed and queued responses', async () => {
		expect((await post({ ...base, max_output_tokens: 1 })).json).toMatchObject({
			status: 'incomplete',
			incomplete_details: { reason: 'max_output_tokens' },
		});
		expect((await post({ ...base, model: 'resp-fail' })).json).toMatchObject({
			status: 'failed',
			error: { code: 'server_error' },
		});
		expect((await post({ ...base, background: true })).json).toMatchObject({ status: 'queued', output: [] });
	});

	it('streams the OpenAI Responses event sequence that assembles into the non-streamed object', async () => {
		const body = { ...base, reasoning: { summary: 'auto' } };
		const plain = (await post(body)).json;
		const streamed = await post({ ...body, stream: true });
		const decoder = new SseDecoder();
		const assembler = new ResponseStreamAssembler();
		const events = [...decoder.push(streamed.text), ...decoder.end()];
		expect(events[0].event).toBe('response.created');
		expect(events.at(-1)?.event).toBe('response.completed');
		for (const event of events) assembler.apply(event.event, JSON.parse(event.data));
		const outcome = assembler.finish();
		const strip = (value: LooseJson) => ({
			...value,
			id: undefined,
			created_at: 0,
			completed_at: 0,
			output: value.output.map((i: LooseJson) => ({ ...i, id: undefined })),
		});
		expect(outcome.ok && strip(outcome.value)).toEqual({ ...strip(plain), stream: undefined });
	});
});
