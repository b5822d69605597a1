import { MessageStreamAssembler } from '../../../nodes/GenerationGateway/actions/message/stream';
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
	const response = await fetch(`${sim.url}/v1/messages`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': sim.keys.apiKey },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	return {
		status: response.status,
		text,
		json: JSON.parse(text.startsWith('{') ? text : '{}') as LooseJson,
	};
}

const base = {
	model: 'chat-model-1',
	max_tokens: 100,
	messages: [{ role: 'user', content: 'Hello there. More.' }],
};

/** The simulator checks the interface's rules on its own: accepted and rejected bodies. */
const rows: Array<[string, Record<string, unknown>, string | undefined]> = [
	['minimal', {}, undefined],
	['max_tokens 0', { max_tokens: 0 }, undefined],
	['max_tokens negative', { max_tokens: -1 }, 'max_tokens'],
	['system role', { messages: [{ role: 'system', content: 'x' }] }, 'messages.0.role'],
	[
		'too many messages',
		{ messages: Array.from({ length: 100_001 }, () => ({ role: 'user', content: 'x' })) },
		'messages',
	],
	['temperature 1.5', { temperature: 1.5 }, 'temperature'],
	['top_p -1', { top_p: -1 }, 'top_p'],
	['top_k 1.5', { top_k: 1.5 }, 'top_k'],
	[
		'budget 1000',
		{ max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 1000 } },
		'thinking.budget_tokens',
	],
	[
		'budget = max_tokens',
		{ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 } },
		'thinking.budget_tokens',
	],
	['budget ok', { max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }, undefined],
	['display bad', { thinking: { type: 'adaptive', display: 'all' } }, 'thinking.display'],
	[
		'unmatched bad',
		{ thinking: { type: 'adaptive', unmatched_blocks: 'keep' } },
		'thinking.unmatched_blocks',
	],
	['effort bad', { output_config: { effort: 'max' } }, 'output_config.effort'],
	['service tier bad', { service_tier: 'priority' }, 'service_tier'],
	['speed bad', { speed: 'warp' }, 'speed'],
	['system not a string', { system: 5 }, 'system'],
];

describe('simulator: POST /v1/messages', () => {
	it.each(rows)('%s', async (_name, change, param) => {
		const { status, json } = await post({ ...base, ...change });
		if (param === undefined) {
			expect(status).toBe(200);
			expect(json).toMatchObject({ type: 'message', role: 'assistant', model: 'chat-model-1' });
		} else {
			expect(status).toBe(400);
			expect(json.error.param).toBe(param);
		}
	});

	it('answers the first sentence of the last user turn, and warms the cache with max_tokens 0', async () => {
		expect((await post(base)).json.content).toEqual([{ type: 'text', text: 'Hello there.' }]);
		const warm = (await post({ ...base, max_tokens: 0 })).json;
		expect(warm.content).toEqual([]);
		expect(warm.usage.cache_creation_input_tokens).toBeGreaterThan(0);
	});

	it('accepts its own thinking blocks back and answers 400 for an unmatched one under "error"', async () => {
		const first = (
			await post({ ...base, max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 1024 } })
		).json;
		const thinkingBlock = first.content[0];
		expect(thinkingBlock.type).toBe('thinking');
		const turns = (block: unknown) => [
			...base.messages,
			{ role: 'assistant', content: [block, { type: 'text', text: 'Hi.' }] },
			{ role: 'user', content: 'Again.' },
		];
		const thinking = { type: 'enabled', budget_tokens: 1024, unmatched_blocks: 'error' };
		const kept = await post({ ...base, max_tokens: 3000, thinking, messages: turns(thinkingBlock) });
		expect(kept.status).toBe(200);
		const forged = await post({
			...base,
			max_tokens: 3000,
			thinking,
			messages: turns({ ...thinkingBlock, signature: 'forged' }),
		});
		expect(forged.status).toBe(400);
		expect(forged.json.error.param).toBe('messages.1.content.0');
		const dropped = await post({
			...base,
			max_tokens: 3000,
			thinking: { ...thinking, unmatched_blocks: 'drop_block' },
			messages: turns({ ...thinkingBlock, signature: 'forged' }),
		});
		expect(dropped.json.input_transformations).toEqual([
			{ path: 'messages.1.content.0', reason: 'unmatched_signature', type: 'thinking_block_dropped' },
		]);
	});

	it('streams the Anthropic event sequence that assembles into the non-streamed message', async () => {
		const body = {
			...base,
			thinking: { type: 'adaptive' },
			tools: [{ name: 't', input_schema: {} }],
			tool_choice: { type: 'any' },
		};
		const plain = (await post(body)).json;
		const streamed = await post({ ...body, stream: true });
		const decoder = new SseDecoder();
		const assembler = new MessageStreamAssembler();
		const events = [...decoder.push(streamed.text), ...decoder.end()];
		expect(events.map((e) => e.event)).toEqual(
			expect.arrayContaining(['message_start', 'ping', 'content_block_delta', 'message_stop']),
		);
		for (const event of events) assembler.apply(event.event, JSON.parse(event.data));
		const outcome = assembler.finish();
		expect(outcome.ok && { ...outcome.value, id: plain.id }).toEqual(plain);
	});
});
