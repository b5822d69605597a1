import type { INode } from 'n8n-workflow';

import { MESSAGE_WIRE } from '../../../nodes/GenerationGateway/actions/message/wireNames';
import { buildMessageBody } from '../../../nodes/GenerationGateway/actions/message/body';
import {
	MESSAGE_LABELS,
	MAX_MESSAGES,
	messageBodySchema,
} from '../../../nodes/GenerationGateway/actions/message/schema';
import { assertValid } from '../../../nodes/shared/validation';

const node: INode = {
	id: '1',
	name: 'Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const base = () => ({
	model: 'chat-model-1',
	max_tokens: 1024,
	messages: [{ role: 'user', content: 'Hello' }],
});

/** Every row: a change to the minimal valid body, and the message expected (undefined = accepted). */
const rows: Array<[string, Record<string, unknown>, RegExp | undefined]> = [
	['minimal body', {}, undefined],
	['max_tokens 0 only warms the cache', { max_tokens: 0 }, undefined],
	['max_tokens below 0', { max_tokens: -1 }, /^Max Tokens: must be 0 or more/],
	['max_tokens not whole', { max_tokens: 1.5 }, /^Max Tokens: must be a whole number/],
	['model empty', { model: ' ' }, /^Model: enter a model ID/],
	[
		'user and assistant turns',
		{
			messages: [
				{ role: 'user', content: 'Hi' },
				{ role: 'assistant', content: 'Hello' },
				{ role: 'user', content: [{ type: 'text', text: 'And?' }] },
			],
		},
		undefined,
	],
	[
		'consecutive same-role turns (the gateway merges them)',
		{
			messages: [
				{ role: 'user', content: 'a' },
				{ role: 'user', content: 'b' },
			],
		},
		undefined,
	],
	[
		'system role refused with a hint',
		{ messages: [{ role: 'system', content: 'Be brief' }] },
		/^Conversation \(#1 role\): system-role messages are not supported: put the system prompt in the System field/,
	],
	['other role', { messages: [{ role: 'tool', content: 'x' }] }, /role must be "user" or "assistant"/],
	[
		'content neither text nor blocks',
		{ messages: [{ role: 'user', content: 5 }] },
		/content must be text or a list/,
	],
	[
		'block without type',
		{ messages: [{ role: 'user', content: [{ text: 'x' }] }] },
		/Conversation \(#1 content #1\): every content block must be an object with a "type"/,
	],
	[
		'thinking block passed back with its signature',
		{
			messages: [
				{ role: 'user', content: 'q' },
				{
					role: 'assistant',
					content: [
						{ type: 'thinking', thinking: 't', signature: 'sig' },
						{ type: 'text', text: 'a' },
					],
				},
				{ role: 'user', content: 'more' },
			],
		},
		undefined,
	],
	['no turns', { messages: [] }, /^Conversation: add at least one turn/],
	[
		`${MAX_MESSAGES} messages`,
		{ messages: Array.from({ length: MAX_MESSAGES }, () => ({ role: 'user', content: 'x' })) },
		undefined,
	],
	[
		`${MAX_MESSAGES + 1} messages`,
		{ messages: Array.from({ length: MAX_MESSAGES + 1 }, () => ({ role: 'user', content: 'x' })) },
		/^Conversation: at most 100000 messages/,
	],
	['system as text', { system: 'Be brief' }, undefined],
	['system not text', { system: ['x'] }, /^System:/],
	['temperature 0 and 1', { temperature: 1, top_p: 0 }, undefined],
	['temperature above 1', { temperature: 1.1 }, /^Temperature: temperature must be between 0 and 1/],
	['temperature below 0', { temperature: -0.1 }, /^Temperature:/],
	['top_p above 1', { top_p: 1.01 }, /^Top P: top_p must be between 0 and 1/],
	['top_k 0', { top_k: 0 }, undefined],
	['top_k negative', { top_k: -1 }, /^Top K: must be 0 or more/],
	['top_k not whole', { top_k: 2.5 }, /^Top K: must be a whole number/],
	['stop sequences', { stop_sequences: ['END'] }, undefined],
	['empty stop sequence', { stop_sequences: [''] }, /^Stop Sequences/],
	[
		'thinking enabled at the minimum budget',
		{ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } },
		undefined,
	],
	[
		'thinking budget below 1024',
		{ max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1023 } },
		/^Thinking Budget Tokens: must be at least 1024/,
	],
	[
		'thinking budget equal to max_tokens',
		{ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 } },
		/^Thinking Budget Tokens: must be below Max Tokens \(2048\)/,
	],
	[
		'thinking enabled without budget',
		{ thinking: { type: 'enabled' } },
		/^Thinking Budget Tokens: enabled thinking needs a token budget/,
	],
	['thinking adaptive', { thinking: { type: 'adaptive' } }, undefined],
	['thinking disabled', { thinking: { type: 'disabled' } }, undefined],
	['thinking null', { thinking: null }, undefined],
	[
		'thinking of unknown type',
		{ thinking: { type: 'auto' } },
		/^Thinking \(type\): type must be enabled, adaptive or disabled/,
	],
	[
		'thinking display summarized/omitted/updates/null',
		{ thinking: { type: 'adaptive', display: 'omitted' } },
		undefined,
	],
	['thinking display null', { thinking: { type: 'adaptive', display: null } }, undefined],
	[
		'thinking display unknown',
		{ thinking: { type: 'adaptive', display: 'full' } },
		/^Thinking Display: must be summarized, omitted or updates/,
	],
	['unmatched blocks error', { thinking: { type: 'disabled', unmatched_blocks: 'error' } }, undefined],
	[
		'unmatched blocks drop_block',
		{ thinking: { type: 'disabled', unmatched_blocks: 'drop_block' } },
		undefined,
	],
	[
		'unmatched blocks unknown',
		{ thinking: { type: 'disabled', unmatched_blocks: 'ignore' } },
		/^Unmatched Thinking Blocks: must be error or drop_block/,
	],
	[
		'tool with input schema',
		{ tools: [{ name: 'lookup', description: 'd', input_schema: { type: 'object' } }] },
		undefined,
	],
	['server tool with a type', { tools: [{ name: 'web_search', type: 'web_search_20250305' }] }, undefined],
	['tool without name', { tools: [{ input_schema: { type: 'object' } }] }, /^Tools \(JSON\) \(#1 name\)/],
	[
		'custom tool without schema',
		{ tools: [{ name: 'x' }] },
		/^Tools \(JSON\) \(#1\): a custom tool \(no "type"\) needs an input JSON Schema/,
	],
	['tool choice auto', { tool_choice: { type: 'auto' } }, undefined],
	['tool choice tool with name', { tool_choice: { type: 'tool', name: 'lookup' } }, undefined],
	[
		'tool choice tool without name',
		{ tool_choice: { type: 'tool' } },
		/^Tool Name: tool choice "tool" needs the name/,
	],
	['tool choice unknown', { tool_choice: { type: 'some' } }, /^Tool Choice/],
	['effort high', { output_config: { effort: 'high' } }, undefined],
	['effort unknown', { output_config: { effort: 'max' } }, /^Effort:/],
	['service tier standard_only', { service_tier: 'standard_only' }, undefined],
	['service tier unknown', { service_tier: 'priority' }, /^Service Tier:/],
	['speed fast', { speed: 'fast' }, undefined],
	['speed unknown', { speed: 'slow' }, /^Speed:/],
	['container id', { container: 'container_1' }, undefined],
	['container object', { container: { id: 'c', skills: [] } }, undefined],
	['container number', { container: 3 }, /^Container:/],
	['context management object', { context_management: { edits: [] } }, undefined],
	['context management not object', { context_management: 'x' }, /^Context Management/],
	['diagnostics not object', { diagnostics: [] }, /^Diagnostics/],
	['fallback credit token', { fallback_credit_token: 'tok' }, undefined],
	['fallbacks', { fallbacks: [{ model: 'other' }] }, undefined],
	['fallback without model', { fallbacks: [{}] }, /^Fallback Models/],
	['inference geo', { inference_geo: 'us' }, undefined],
	['unknown member passes to the gateway', { metadata: { user_id: 'u' } }, undefined],
];

describe('messages: request rules (interface "POST /v1/messages" and Limits)', () => {
	it.each(rows)('%s', (_name, change, expected) => {
		const body = { ...base(), ...change };
		const run = () => assertValid(node, messageBodySchema, body, MESSAGE_LABELS, 0);
		if (expected === undefined) expect(run).not.toThrow();
		else expect(run).toThrow(expected);
	});

	it('says the request was not sent', () => {
		try {
			assertValid(node, messageBodySchema, { ...base(), temperature: 2 }, MESSAGE_LABELS, 0);
			throw new Error('accepted');
		} catch (error) {
			expect((error as { description?: string }).description).toMatch(/not sent/);
		}
	});
});

describe('messages: body builder', () => {
	it('sends only what the form set, under the assumed names', () => {
		const body = buildMessageBody({
			model: 'm',
			maxTokens: 4096,
			messages: [{ role: 'user', content: 'hi' }],
			system: 'S',
			thinking: { type: 'enabled', budgetTokens: 2048, display: 'summarized', unmatchedBlocks: 'error' },
			stopSequences: [],
			effort: 'low',
			fallbackModels: ['a', 'b'],
			toolChoice: { type: 'any' },
		});
		expect(body).toEqual({
			model: 'm',
			max_tokens: 4096,
			messages: [{ role: 'user', content: 'hi' }],
			system: 'S',
			[MESSAGE_WIRE.thinking]: {
				type: 'enabled',
				budget_tokens: 2048,
				display: 'summarized',
				unmatched_blocks: 'error',
			},
			output_config: { effort: 'low' },
			fallbacks: [{ model: 'a' }, { model: 'b' }],
			tool_choice: { type: 'any' },
		});
		expect(() => assertValid(node, messageBodySchema, body, MESSAGE_LABELS)).not.toThrow();
	});

	it('does not send a budget for adaptive thinking', () => {
		const body = buildMessageBody({
			model: 'm',
			maxTokens: 10,
			messages: [],
			thinking: { type: 'adaptive', budgetTokens: 5000 },
		});
		expect(body.thinking).toEqual({ type: 'adaptive' });
	});
});
