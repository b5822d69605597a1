import { invalid } from '../http';
import { checkBase64, checkMime } from '../media/inline';

/**
 * The interface's rules for POST /v1/messages, written again for the
 * simulator (on purpose not shared with the package: the two must agree by
 * both following the interface, not by sharing a bug). Optional members use
 * the names the package assumes (Anthropic Messages names).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function oneOf(param: string, value: unknown, allowed: readonly string[], nullable = false): void {
	if (value === undefined || (nullable && value === null)) return;
	if (typeof value !== 'string' || !allowed.includes(value)) {
		invalid(param, `${param}: must be one of ${allowed.join(', ')}`);
	}
}

function range(param: string, value: unknown, min: number, max: number): void {
	if (value === undefined) return;
	if (typeof value !== 'number' || value < min || value > max)
		invalid(param, `${param}: must be between ${min} and ${max}`);
}

function validateTurns(messages: unknown): void {
	if (!Array.isArray(messages)) invalid('messages', 'messages: must be an array');
	if (messages.length > 100_000) invalid('messages', 'messages: at most 100000 items');
	messages.forEach((turn, n) => {
		if (!isObject(turn)) invalid(`messages.${n}`, `messages.${n}: must be an object`);
		if (turn.role === 'system') {
			invalid(
				`messages.${n}.role`,
				`messages.${n}.role: system-role messages are not supported; use the top-level system member`,
			);
		}
		if (turn.role !== 'user' && turn.role !== 'assistant') {
			invalid(`messages.${n}.role`, `messages.${n}.role: must be user or assistant`);
		}
		if (typeof turn.content === 'string') return;
		if (!Array.isArray(turn.content))
			invalid(`messages.${n}.content`, `messages.${n}.content: must be a string or an array`);
		turn.content.forEach((block, m) => {
			if (!isObject(block) || typeof block.type !== 'string') {
				invalid(`messages.${n}.content.${m}`, `messages.${n}.content.${m}: a content block needs a type`);
			}
			validateFileBlock(`messages.${n}.content.${m}`, block);
		});
	});
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** Image and document blocks with a base64 source: the Messages protocol's media types, strict base64. */
function validateFileBlock(path: string, block: Json): void {
	if (block.type !== 'image' && block.type !== 'document') return;
	const source = block.source;
	if (!isObject(source) || source.type !== 'base64') return; // url / file sources: not inline
	const accepts =
		block.type === 'image'
			? (mime: string) => IMAGE_TYPES.includes(mime)
			: (mime: string) => mime === 'application/pdf';
	checkMime(`${path}.source.media_type`, source.media_type, accepts);
	checkBase64(`${path}.source.data`, source.data);
}

function validateThinking(thinking: unknown, maxTokens: number): void {
	if (thinking === undefined || thinking === null) return;
	if (!isObject(thinking)) invalid('thinking', 'thinking: must be an object or null');
	oneOf('thinking.type', thinking.type, ['enabled', 'adaptive', 'disabled']);
	if (thinking.type === undefined) invalid('thinking.type', 'thinking.type: required');
	if (thinking.type === 'enabled') {
		const budget = thinking.budget_tokens;
		if (!isInt(budget) || budget < 1024)
			invalid('thinking.budget_tokens', 'thinking.budget_tokens: an integer >= 1024 is required');
		if (budget >= maxTokens)
			invalid('thinking.budget_tokens', 'thinking.budget_tokens: must be less than max_tokens');
	}
	oneOf('thinking.display', thinking.display, ['summarized', 'omitted', 'updates'], true);
	oneOf('thinking.unmatched_blocks', thinking.unmatched_blocks, ['error', 'drop_block'], true);
}

export function validateMessageRequest(body: unknown): Json {
	if (!isObject(body)) invalid('body', 'The request body must be a JSON object');
	if (typeof body.model !== 'string' || !body.model.trim()) invalid('model', 'model: required');
	if (!isInt(body.max_tokens) || body.max_tokens < 0)
		invalid('max_tokens', 'max_tokens: an integer >= 0 is required');
	validateTurns(body.messages);
	if (body.system !== undefined && typeof body.system !== 'string')
		invalid('system', 'system: must be a string');
	if (body.stream !== undefined && typeof body.stream !== 'boolean')
		invalid('stream', 'stream: must be a boolean');
	if (body.stop_sequences !== undefined) {
		if (!Array.isArray(body.stop_sequences) || body.stop_sequences.some((s) => typeof s !== 'string' || !s)) {
			invalid('stop_sequences', 'stop_sequences: must be an array of non-empty strings');
		}
	}
	range('temperature', body.temperature, 0, 1);
	range('top_p', body.top_p, 0, 1);
	if (body.top_k !== undefined && (!isInt(body.top_k) || body.top_k < 0))
		invalid('top_k', 'top_k: an integer >= 0');
	validateThinking(body.thinking, body.max_tokens);
	if (body.tools !== undefined) {
		if (!Array.isArray(body.tools)) invalid('tools', 'tools: must be an array');
		body.tools.forEach((tool, n) => {
			if (!isObject(tool) || typeof tool.name !== 'string' || !tool.name)
				invalid(`tools.${n}.name`, `tools.${n}.name: required`);
			if (tool.type === undefined && !isObject(tool.input_schema)) {
				invalid(`tools.${n}.input_schema`, `tools.${n}.input_schema: required for custom tools`);
			}
		});
	}
	if (body.tool_choice !== undefined) {
		if (!isObject(body.tool_choice)) invalid('tool_choice', 'tool_choice: must be an object');
		oneOf('tool_choice.type', body.tool_choice.type, ['auto', 'any', 'tool', 'none']);
		if (body.tool_choice.type === 'tool' && typeof body.tool_choice.name !== 'string') {
			invalid('tool_choice.name', 'tool_choice.name: required when type is tool');
		}
	}
	if (body.output_config !== undefined) {
		if (!isObject(body.output_config)) invalid('output_config', 'output_config: must be an object');
		oneOf('output_config.effort', body.output_config.effort, ['low', 'medium', 'high']);
	}
	oneOf('service_tier', body.service_tier, ['auto', 'standard_only']);
	oneOf('speed', body.speed, ['standard', 'fast']);
	if (body.container !== undefined && typeof body.container !== 'string' && !isObject(body.container)) {
		invalid('container', 'container: must be a string or an object');
	}
	for (const name of ['context_management', 'diagnostics']) {
		if (body[name] !== undefined && !isObject(body[name])) invalid(name, `${name}: must be an object`);
	}
	for (const name of ['fallback_credit_token', 'inference_geo']) {
		if (body[name] !== undefined && typeof body[name] !== 'string')
			invalid(name, `${name}: must be a string`);
	}
	if (body.fallbacks !== undefined) {
		if (
			!Array.isArray(body.fallbacks) ||
			body.fallbacks.some((f) => !isObject(f) || typeof f.model !== 'string')
		) {
			invalid('fallbacks', 'fallbacks: must be an array of {model}');
		}
	}
	return body;
}
