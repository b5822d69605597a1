import { invalid } from '../http';

/**
 * The interface's members table for POST /v1/responses, written again for
 * the simulator (not shared with the package on purpose).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

const INCLUDE = [
	'web_search_call.action.sources',
	'code_interpreter_call.outputs',
	'computer_call_output.output.image_url',
	'file_search_call.results',
	'message.input_image.image_url',
	'message.output_text.logprobs',
	'reasoning.encrypted_content',
];
const TOOL_TYPES = [
	'function',
	'web_search',
	'web_search_preview',
	'file_search',
	'code_interpreter',
	'computer',
	'computer_use_preview',
	'mcp',
];

function enumOf(param: string, value: unknown, allowed: string[]): void {
	if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value))) {
		invalid(param, `${param}: must be one of ${allowed.join(', ')}`);
	}
}

function bool(param: string, value: unknown): void {
	if (value !== undefined && typeof value !== 'boolean') invalid(param, `${param}: must be a boolean`);
}

function intRange(param: string, value: unknown, min: number, max = Infinity): void {
	if (value !== undefined && (!isInt(value) || value < min || value > max)) {
		invalid(param, `${param}: must be an integer from ${min}${max === Infinity ? '' : ` to ${max}`}`);
	}
}

function numRange(param: string, value: unknown, min: number, max: number): void {
	if (value !== undefined && (typeof value !== 'number' || value < min || value > max)) {
		invalid(param, `${param}: must be between ${min} and ${max}`);
	}
}

function validateInput(input: unknown): void {
	if (input === undefined || typeof input === 'string') return;
	if (!Array.isArray(input)) invalid('input', 'input: must be a string or an array');
	input.forEach((item, n) => {
		if (!isObject(item)) invalid(`input.${n}`, `input.${n}: must be an object`);
		if (item.role === undefined) {
			if (typeof item.type !== 'string') invalid(`input.${n}`, `input.${n}: needs role or type`);
			return;
		}
		if (typeof item.content === 'string') return;
		if (!Array.isArray(item.content))
			invalid(`input.${n}.content`, `input.${n}.content: must be a string or an array`);
		item.content.forEach((block, m) => {
			if (!isObject(block) || typeof block.type !== 'string') {
				invalid(`input.${n}.content.${m}`, `input.${n}.content.${m}: a block needs a type`);
			}
		});
	});
}

export function validateResponseRequest(body: unknown): Json {
	if (!isObject(body)) invalid('body', 'The request body must be a JSON object');
	if (typeof body.model !== 'string' || !body.model) invalid('model', 'model: required');
	validateInput(body.input);
	if (body.previous_response_id !== undefined && body.conversation !== undefined) {
		invalid('conversation', 'conversation: cannot be combined with previous_response_id');
	}
	for (const name of ['background', 'parallel_tool_calls', 'store', 'stream']) bool(name, body[name]);
	if (body.include !== undefined) {
		if (!Array.isArray(body.include)) invalid('include', 'include: must be an array');
		body.include.forEach((value, n) => enumOf(`include.${n}`, value, INCLUDE));
	}
	intRange('max_output_tokens', body.max_output_tokens, 1);
	intRange('max_tool_calls', body.max_tool_calls, 0);
	enumOf('prompt_cache_retention', body.prompt_cache_retention, ['in_memory', '24h']);
	if (body.reasoning !== undefined) {
		if (!isObject(body.reasoning)) invalid('reasoning', 'reasoning: must be an object');
		enumOf('reasoning.effort', body.reasoning.effort, [
			'none',
			'minimal',
			'low',
			'medium',
			'high',
			'xhigh',
			'max',
		]);
		enumOf('reasoning.summary', body.reasoning.summary, ['auto', 'concise', 'detailed']);
		enumOf('reasoning.generate_summary', body.reasoning.generate_summary, ['auto', 'concise', 'detailed']);
		enumOf('reasoning.context', body.reasoning.context, ['auto', 'current_turn', 'all_turns']);
	}
	if (
		body.safety_identifier !== undefined &&
		(typeof body.safety_identifier !== 'string' || [...body.safety_identifier].length > 64)
	) {
		invalid('safety_identifier', 'safety_identifier: at most 64 characters');
	}
	enumOf('service_tier', body.service_tier, [
		'auto',
		'default',
		'flex',
		'scale',
		'priority',
		'fast',
		'ultrafast',
	]);
	numRange('temperature', body.temperature, 0, 2);
	numRange('top_p', body.top_p, 0, 1);
	intRange('top_logprobs', body.top_logprobs, 0, 20);
	if (body.tools !== undefined) {
		if (!Array.isArray(body.tools)) invalid('tools', 'tools: must be an array');
		body.tools.forEach((tool, n) => {
			if (!isObject(tool)) invalid(`tools.${n}`, `tools.${n}: must be an object`);
			enumOf(`tools.${n}.type`, tool.type, TOOL_TYPES);
			if (tool.type === 'function' && typeof tool.name !== 'string')
				invalid(`tools.${n}.name`, `tools.${n}.name: required`);
		});
	}
	if (typeof body.tool_choice === 'string')
		enumOf('tool_choice', body.tool_choice, ['none', 'auto', 'required']);
	enumOf('truncation', body.truncation, ['auto', 'disabled']);
	if (body.user !== undefined && typeof body.user !== 'string') invalid('user', 'user: must be a string');
	if (body.moderation !== undefined && !isObject(body.moderation))
		invalid('moderation', 'moderation: must be an object');
	return body;
}
