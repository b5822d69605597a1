import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../descriptions';

export const messageOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Container',
		name: 'container',
		type: 'string',
		default: '',
		description: 'Code execution container: its ID, or a JSON object (e.g. {"ID": "…", "skills": […]})',
	},
	{
		displayName: 'Context Management (JSON)',
		name: 'contextManagement',
		type: 'json',
		default: '{}',
		description: 'Server-side context editing, as a JSON object (e.g. {"edits": […]})',
	},
	{
		displayName: 'Diagnostics (JSON)',
		name: 'diagnostics',
		type: 'json',
		default: '{}',
		description: 'Diagnostics request, as a JSON object',
	},
	{
		displayName: 'Effort',
		name: 'effort',
		type: 'options',
		options: [
			{ name: 'Low', value: 'low' },
			{ name: 'Medium', value: 'medium' },
			{ name: 'High', value: 'high' },
		],
		default: 'medium',
		description: 'Effort level of the output configuration',
	},
	{
		displayName: 'Fallback Credit Token',
		name: 'fallbackCreditToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'The token a refused message returned in stop_details, to retry on another model',
	},
	{
		displayName: 'Fallback Models',
		name: 'fallbackModels',
		type: 'string',
		default: '',
		placeholder: 'e.g. chat-model-2, chat-model-3',
		description: 'Models to fall back to, in order (comma-separated)',
	},
	{
		displayName: 'Inference Geography',
		name: 'inferenceGeo',
		type: 'string',
		default: '',
		placeholder: 'e.g. us',
		description: 'Where the model should run, if the gateway offers a choice',
	},
	{
		displayName: 'Service Tier',
		name: 'serviceTier',
		type: 'options',
		options: [
			{ name: 'Auto', value: 'auto' },
			{ name: 'Standard Only', value: 'standard_only' },
		],
		default: 'auto',
	},
	{
		displayName: 'Speed',
		name: 'speed',
		type: 'options',
		options: [
			{ name: 'Standard', value: 'standard' },
			{ name: 'Fast', value: 'fast' },
		],
		default: 'standard',
	},
	{
		displayName: 'Stop Sequences',
		name: 'stopSequences',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Custom sequences that end generation, one per line',
	},
	{
		displayName: 'Stream',
		name: 'stream',
		type: 'boolean',
		default: false,
		description:
			'Whether to receive the reply as server-sent events. The node reads the stream to its end and returns the same Message.',
	},
	{
		displayName: 'Temperature',
		name: 'temperature',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
		description: 'Randomness, 0 to 1',
	},
	{
		displayName: 'Tool Choice',
		name: 'toolChoice',
		type: 'options',
		options: [
			{ name: 'Any', value: 'any', description: 'Must use one of the tools' },
			{ name: 'Auto', value: 'auto', description: 'The model decides' },
			{ name: 'None', value: 'none', description: 'Must not use tools' },
			{ name: 'Tool', value: 'tool', description: 'Must use the tool named in Tool Name' },
		],
		default: 'auto',
	},
	{
		displayName: 'Tool Name',
		name: 'toolName',
		type: 'string',
		default: '',
		description: 'The tool to use when Tool Choice is "Tool"',
	},
	{
		displayName: 'Tools (JSON)',
		name: 'tools',
		type: 'json',
		default:
			'[\n  {"name": "get_weather", "description": "Weather for a city", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}\n]',
		description:
			'Tool definitions: name, description, input JSON Schema (input_schema) and, for server tools, type',
	},
	{
		displayName: 'Top K',
		name: 'topK',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 40,
		description: 'Sample only from the K most likely tokens (0 or more)',
	},
	{
		displayName: 'Top P',
		name: 'topP',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
		description: 'Nucleus sampling, 0 to 1',
	},
]);
