import { formLabels, optionsCollection } from '../descriptions';
import { RESPONSE_WIRE as W } from './wireNames';

import {
	REASONING_CONTEXT,
	REASONING_EFFORT,
	REASONING_SUMMARY,
	RESPONSE_INCLUDE,
	RESPONSE_SERVICE_TIERS,
} from './schema';
import { field, labelledOptions, valueOptions } from '../formFields';

const choices = (values: readonly string[]) =>
	values.map((value) => ({ name: value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()), value }));

export const responseOptions = optionsCollection([
	field('Background', 'background', 'boolean', {
		default: false,
		description: 'Whether to run in the background: the gateway answers at once with status "queued"',
	}),
	field('Conversation', 'conversation', 'string', {
		default: '',
		description:
			'The conversation (session) this response belongs to: its ID, or a JSON object. Cannot be combined with Previous Response ID.',
	}),
	field('Include', 'include', 'multiOptions', {
		options: valueOptions(RESPONSE_INCLUDE),
		default: [],
		description: 'Extra output data to include',
	}),
	field('Max Output Tokens', 'maxOutputTokens', 'number', {
		typeOptions: { minValue: 1 },
		default: 1024,
		description: 'Most tokens the output may use, reasoning included (1 or more)',
	}),
	field('Max Tool Calls', 'maxToolCalls', 'number', { typeOptions: { minValue: 0 }, default: 10 }),
	field('Moderation (JSON)', 'moderation', 'json', {
		default: '{"model": ""}',
		description: 'Audit-style moderation configuration, with the moderation model ID as "model"',
	}),
	field('Parallel Tool Calls', 'parallelToolCalls', 'boolean', {
		default: true,
		description: 'Whether the model may call several tools at once',
	}),
	field('Previous Response ID', 'previousResponseId', 'string', {
		default: '',
		description:
			'Continue from this response (multi-turn). Its instructions are not inherited. Cannot be combined with Conversation.',
	}),
	field('Prompt Cache Key', 'promptCacheKey', 'string', {
		default: '',
		description: 'A stable key for prompt caching (replaces User)',
	}),
	field('Prompt Cache Retention (Deprecated)', 'promptCacheRetention', 'options', {
		options: labelledOptions({ 'In Memory': 'in_memory', '24h': '24h' }),
		default: 'in_memory',
		description:
			'Deprecated by the gateway in favor of prompt_cache_options.ttl (send that in Additional Body Fields)',
	}),
	field('Reasoning Context', 'reasoningContext', 'options', {
		options: choices(REASONING_CONTEXT),
		default: 'auto',
	}),
	field('Reasoning Effort', 'reasoningEffort', 'options', {
		options: choices(REASONING_EFFORT),
		default: 'medium',
	}),
	field('Reasoning Mode', 'reasoningMode', 'string', { default: '', placeholder: 'e.g. standard or pro' }),
	field('Reasoning Summary', 'reasoningSummary', 'options', {
		options: choices(REASONING_SUMMARY),
		default: 'auto',
	}),
	field('Reasoning Summary Generation', 'reasoningGenerateSummary', 'options', {
		options: choices(REASONING_SUMMARY),
		default: 'auto',
	}),
	field('Safety Identifier', 'safetyIdentifier', 'string', {
		default: '',
		description: 'A stable identifier of your end user, at most 64 characters',
	}),
	field('Service Tier', 'serviceTier', 'options', {
		options: choices(RESPONSE_SERVICE_TIERS),
		default: 'auto',
	}),
	field('Store', 'store', 'boolean', {
		default: true,
		description: 'Whether to store the response for later retrieval',
	}),
	field('Stream', 'stream', 'boolean', {
		default: false,
		description:
			'Whether to receive the response as server-sent events. The node reads the stream to its end and returns the same Response object.',
	}),
	field('Temperature', 'temperature', 'number', {
		typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
		default: 1,
		description: 'Randomness, 0 to 2',
	}),
	field('Tool Choice', 'toolChoice', 'options', {
		options: labelledOptions({ Auto: 'auto', None: 'none', Required: 'required' }),
		default: 'auto',
	}),
	field('Tools (JSON)', 'tools', 'json', {
		default:
			'[\n  {"type": "function", "name": "get_weather", "description": "Weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}\n]',
		description:
			'Tools: function, web_search, file_search (vector_store_ids), code_interpreter (container), computer_use_preview, mcp (server_label, server_url)',
	}),
	field('Top Logprobs', 'topLogprobs', 'number', {
		typeOptions: { minValue: 0, maxValue: 20 },
		default: 0,
		description: 'How many most likely tokens to return per position, 0 to 20',
	}),
	field('Top P', 'topP', 'number', {
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
	}),
	field('Truncation (Deprecated)', 'truncation', 'options', {
		options: labelledOptions({ Auto: 'auto', Disabled: 'disabled' }),
		default: 'disabled',
		description: 'Deprecated by the gateway',
	}),
	field('User (Deprecated)', 'user', 'string', {
		default: '',
		description: 'Deprecated by the gateway: use Safety Identifier and Prompt Cache Key',
	}),
]);

/** An option's wire path: its name in snake case unless listed (a dot: a member of `reasoning`). */
const WIRE_EXCEPTIONS: Record<string, string> = {
	moderation: W.moderation,
	reasoningContext: 'reasoning.context',
	reasoningEffort: 'reasoning.effort',
	reasoningGenerateSummary: `reasoning.${W.reasoningGenerateSummary}`,
	reasoningMode: 'reasoning.mode',
	reasoningSummary: 'reasoning.summary',
};
export const responseOptionWire = (name: string): string =>
	WIRE_EXCEPTIONS[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const RESPONSE_LABELS: Record<string, string> = {
	model: 'Model',
	input: 'Input',
	instructions: 'Instructions',
	...formLabels(responseOptions.options, responseOptionWire),
};
