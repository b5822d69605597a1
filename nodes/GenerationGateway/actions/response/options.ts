import { formLabels, optionsCollection } from '../descriptions';
import { RESPONSE_WIRE as W } from './wireNames';

import {
	REASONING_CONTEXT,
	REASONING_EFFORT,
	REASONING_SUMMARY,
	RESPONSE_INCLUDE,
	RESPONSE_SERVICE_TIERS,
} from './schema';

const choices = (values: readonly string[]) =>
	values.map((value) => ({ name: value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()), value }));

export const responseOptions = optionsCollection([
	{
		displayName: 'Background',
		name: 'background',
		type: 'boolean',
		default: false,
		description: 'Whether to run in the background: the gateway answers at once with status "queued"',
	},
	{
		displayName: 'Conversation',
		name: 'conversation',
		type: 'string',
		default: '',
		description:
			'The conversation (session) this response belongs to: its ID, or a JSON object. Cannot be combined with Previous Response ID.',
	},
	{
		displayName: 'Include',
		name: 'include',
		type: 'multiOptions',
		options: RESPONSE_INCLUDE.map((value) => ({ name: value, value })),
		default: [],
		description: 'Extra output data to include',
	},
	{
		displayName: 'Max Output Tokens',
		name: 'maxOutputTokens',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1024,
		description: 'Most tokens the output may use, reasoning included (1 or more)',
	},
	{
		displayName: 'Max Tool Calls',
		name: 'maxToolCalls',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 10,
	},
	{
		displayName: 'Moderation (JSON)',
		name: 'moderation',
		type: 'json',
		default: '{"model": ""}',
		description: 'Audit-style moderation configuration, with the moderation model ID as "model"',
	},
	{
		displayName: 'Parallel Tool Calls',
		name: 'parallelToolCalls',
		type: 'boolean',
		default: true,
		description: 'Whether the model may call several tools at once',
	},
	{
		displayName: 'Previous Response ID',
		name: 'previousResponseId',
		type: 'string',
		default: '',
		description:
			'Continue from this response (multi-turn). Its instructions are not inherited. Cannot be combined with Conversation.',
	},
	{
		displayName: 'Prompt Cache Key',
		name: 'promptCacheKey',
		type: 'string',
		default: '',
		description: 'A stable key for prompt caching (replaces User)',
	},
	{
		displayName: 'Prompt Cache Retention (Deprecated)',
		name: 'promptCacheRetention',
		type: 'options',
		options: [
			{ name: 'In Memory', value: 'in_memory' },
			{ name: '24h', value: '24h' },
		],
		default: 'in_memory',
		description:
			'Deprecated by the gateway in favor of prompt_cache_options.ttl (send that in Additional Body Fields)',
	},
	{
		displayName: 'Reasoning Context',
		name: 'reasoningContext',
		type: 'options',
		options: choices(REASONING_CONTEXT),
		default: 'auto',
	},
	{
		displayName: 'Reasoning Effort',
		name: 'reasoningEffort',
		type: 'options',
		options: choices(REASONING_EFFORT),
		default: 'medium',
	},
	{
		displayName: 'Reasoning Mode',
		name: 'reasoningMode',
		type: 'string',
		default: '',
		placeholder: 'e.g. standard or pro',
	},
	{
		displayName: 'Reasoning Summary',
		name: 'reasoningSummary',
		type: 'options',
		options: choices(REASONING_SUMMARY),
		default: 'auto',
	},
	{
		displayName: 'Reasoning Summary Generation',
		name: 'reasoningGenerateSummary',
		type: 'options',
		options: choices(REASONING_SUMMARY),
		default: 'auto',
	},
	{
		displayName: 'Safety Identifier',
		name: 'safetyIdentifier',
		type: 'string',
		default: '',
		description: 'A stable identifier of your end user, at most 64 characters',
	},
	{
		displayName: 'Service Tier',
		name: 'serviceTier',
		type: 'options',
		options: choices(RESPONSE_SERVICE_TIERS),
		default: 'auto',
	},
	{
		displayName: 'Store',
		name: 'store',
		type: 'boolean',
		default: true,
		description: 'Whether to store the response for later retrieval',
	},
	{
		displayName: 'Stream',
		name: 'stream',
		type: 'boolean',
		default: false,
		description:
			'Whether to receive the response as server-sent events. The node reads the stream to its end and returns the same Response object.',
	},
	{
		displayName: 'Temperature',
		name: 'temperature',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
		default: 1,
		description: 'Randomness, 0 to 2',
	},
	{
		displayName: 'Tool Choice',
		name: 'toolChoice',
		type: 'options',
		options: [
			{ name: 'Auto', value: 'auto' },
			{ name: 'None', value: 'none' },
			{ name: 'Required', value: 'required' },
		],
		default: 'auto',
	},
	{
		displayName: 'Tools (JSON)',
		name: 'tools',
		type: 'json',
		default:
			'[\n  {"type": "function", "name": "get_weather", "description": "Weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}\n]',
		description:
			'Tools: function, web_search, file_search (vector_store_ids), code_interpreter (container), computer_use_preview, mcp (server_label, server_url)',
	},
	{
		displayName: 'Top Logprobs',
		name: 'topLogprobs',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 20 },
		default: 0,
		description: 'How many most likely tokens to return per position, 0 to 20',
	},
	{
		displayName: 'Top P',
		name: 'topP',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
	},
	{
		displayName: 'Truncation (Deprecated)',
		name: 'truncation',
		type: 'options',
		options: [
			{ name: 'Auto', value: 'auto' },
			{ name: 'Disabled', value: 'disabled' },
		],
		default: 'disabled',
		description: 'Deprecated by the gateway',
	},
	{
		displayName: 'User (Deprecated)',
		name: 'user',
		type: 'string',
		default: '',
		description: 'Deprecated by the gateway: use Safety Identifier and Prompt Cache Key',
	},
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
