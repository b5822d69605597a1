import type { INode } from 'n8n-workflow';

import { binaryInputPart, inputMessage } from '../../../nodes/GenerationGateway/actions/response/body';
import {
	RESPONSE_INCLUDE,
	responseBodySchema,
} from '../../../nodes/GenerationGateway/actions/response/schema';
import { RESPONSE_LABELS } from '../../../nodes/GenerationGateway/actions/response/options';
import { assertValid } from '../../../nodes/shared/validation';

const node = {
	id: '1',
	name: 'Gateway',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const base = () => ({ model: 'resp-model-1', input: 'Hello' });

const rows: Array<[string, Record<string, unknown>, RegExp | undefined]> = [
	['text input', {}, undefined],
	['no input (conversation carries it)', { input: undefined, conversation: 'conv_1' }, undefined],
	[
		'message input with blocks',
		{ input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] },
		undefined,
	],
	['message input as text', { input: [{ role: 'developer', content: 'hi' }] }, undefined],
	[
		'non-message item with a type',
		{ input: [{ type: 'function_call_output', call_id: 'c', output: '{}' }] },
		undefined,
	],
	[
		'item with neither role nor type',
		{ input: [{ content: 'x' }] },
		/^Input \(#1\): every input item needs a role or a type/,
	],
	[
		'block without type',
		{ input: [{ role: 'user', content: [{ text: 'x' }] }] },
		/^Input \(#1 content #1\): every block needs a "type"/,
	],
	['input a number', { input: 5 }, /^Input: must be text or a list of input items/],
	['model missing', { model: '' }, /^Model: enter a model ID/],
	['instructions', { instructions: 'Be brief' }, undefined],
	['previous_response_id alone', { previous_response_id: 'resp_1' }, undefined],
	['conversation object', { conversation: { id: 'conv_1' } }, undefined],
	[
		'previous_response_id with conversation',
		{ previous_response_id: 'resp_1', conversation: 'conv_1' },
		/^Conversation: cannot be combined with Previous Response ID/,
	],
	['background', { background: true }, undefined],
	['all seven include values', { include: [...RESPONSE_INCLUDE] }, undefined],
	[
		'unknown include value',
		{ include: ['output.everything'] },
		/^Include \(#1\): must be one of web_search_call.action.sources/,
	],
	['max_output_tokens 1', { max_output_tokens: 1 }, undefined],
	['max_output_tokens 0', { max_output_tokens: 0 }, /^Max Output Tokens: must be 1 or more/],
	['max_tool_calls 0', { max_tool_calls: 0 }, undefined],
	['max_tool_calls -1', { max_tool_calls: -1 }, /^Max Tool Calls: must be 0 or more/],
	['max_tool_calls 1.5', { max_tool_calls: 1.5 }, /^Max Tool Calls: must be a whole number/],
	['parallel_tool_calls not boolean', { parallel_tool_calls: 'yes' }, /^Parallel Tool Calls/],
	['prompt_cache_retention 24h', { prompt_cache_retention: '24h' }, undefined],
	['prompt_cache_retention 1h', { prompt_cache_retention: '1h' }, /^Prompt Cache Retention \(Deprecated\)/],
	[
		'reasoning full',
		{
			reasoning: {
				effort: 'xhigh',
				summary: 'concise',
				generate_summary: 'auto',
				context: 'all_turns',
				mode: 'pro',
			},
		},
		undefined,
	],
	[
		'reasoning effort unknown',
		{ reasoning: { effort: 'extreme' } },
		/^Reasoning Effort: must be one of none, minimal/,
	],
	[
		'reasoning summary unknown',
		{ reasoning: { summary: 'long' } },
		/^Reasoning Summary: must be one of auto, concise, detailed/,
	],
	[
		'summary generation unknown',
		{ reasoning: { generate_summary: 'long' } },
		/^Reasoning Summary Generation/,
	],
	['reasoning context unknown', { reasoning: { context: 'everything' } }, /^Reasoning Context/],
	['safety_identifier 64 chars', { safety_identifier: 'x'.repeat(64) }, undefined],
	[
		'safety_identifier 65 chars',
		{ safety_identifier: 'x'.repeat(65) },
		/^Safety Identifier: must be at most 64 characters \(has 65\)$/,
	],
	['service tier ultrafast', { service_tier: 'ultrafast' }, undefined],
	['service tier unknown', { service_tier: 'standard' }, /^Service Tier: must be one of auto, default/],
	['store and stream', { store: false, stream: true }, undefined],
	['temperature 2', { temperature: 2 }, undefined],
	['temperature 2.1', { temperature: 2.1 }, /^Temperature: must be between 0 and 2/],
	['temperature -0.5', { temperature: -0.5 }, /^Temperature: must be between 0 and 2/],
	['top_p 1.2', { top_p: 1.2 }, /^Top P: must be between 0 and 1/],
	['top_logprobs 20', { top_logprobs: 20 }, undefined],
	['top_logprobs 21', { top_logprobs: 21 }, /^Top Logprobs: must be between 0 and 20/],
	['top_logprobs -1', { top_logprobs: -1 }, /^Top Logprobs: must be between 0 and 20/],
	[
		'tool kinds',
		{
			tools: [
				{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: true },
				{ type: 'web_search' },
				{ type: 'file_search', vector_store_ids: ['vs_1'] },
				{ type: 'code_interpreter', container: { type: 'auto' } },
				{ type: 'computer_use_preview' },
				{ type: 'mcp', server_label: 'x', server_url: 'https://mcp.example' },
			],
		},
		undefined,
	],
	[
		'function tool without name',
		{ tools: [{ type: 'function' }] },
		/^Tools \(JSON\) \(#1 name\): a function tool needs a name/,
	],
	[
		'unknown tool kind',
		{ tools: [{ type: 'teleport' }] },
		/^Tools \(JSON\) \(#1 type\): must be one of function/,
	],
	['tool_choice required', { tool_choice: 'required' }, undefined],
	['tool_choice unknown', { tool_choice: 'always' }, /^Tool Choice: must be none, auto or required/],
	['truncation disabled', { truncation: 'disabled' }, undefined],
	['truncation unknown', { truncation: 'middle' }, /^Truncation \(Deprecated\)/],
	['user', { user: 'u-1' }, undefined],
	['moderation object', { moderation: { model: 'mod-1' } }, undefined],
	['moderation not object', { moderation: 'mod-1' }, /^Moderation \(JSON\)/],
];

describe('responses: request rules (interface "POST /v1/responses" and Limits)', () => {
	it.each(rows)('%s', (_name, change, expected) => {
		const run = () => assertValid(node, responseBodySchema, { ...base(), ...change }, RESPONSE_LABELS, 0);
		if (expected === undefined) expect(run).not.toThrow();
		else expect(run).toThrow(expected);
	});
});

describe('responses: binary input parts', () => {
	it.each([
		[
			{ mimeType: 'image/png', base64: 'iVBO' },
			{ type: 'input_image', image_url: 'data:image/png;base64,iVBO' },
		],
		[
			{ mimeType: 'audio/mpeg', base64: 'SUQz', extension: 'mp3' },
			{ type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
		],
		[
			{ mimeType: 'audio/wav', base64: 'UklG' },
			{ type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
		],
		[
			{ mimeType: 'application/pdf', base64: 'JVBE', fileName: 'a.pdf' },
			{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' },
		],
	])('%j', (file, part) => {
		expect(binaryInputPart(file)).toEqual(part);
	});

	it('puts the text first and the files after it; plain text stays a string', () => {
		const image = binaryInputPart({ mimeType: 'image/png', base64: 'AA' });
		expect(inputMessage('user', 'Describe', [image])).toEqual({
			role: 'user',
			content: [{ type: 'input_text', text: 'Describe' }, image],
		});
		expect(inputMessage('user', 'Hi', [])).toEqual({ role: 'user', content: 'Hi' });
	});
});
