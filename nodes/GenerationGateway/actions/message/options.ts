import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../descriptions';
import { field, labelledOptions } from '../formFields';

export const messageOptions: INodeProperties = optionsCollection([
	field('Container', 'container', 'string', {
		default: '',
		description: 'Code execution container: its ID, or a JSON object (e.g. {"ID": "…", "skills": […]})',
	}),
	field('Context Management (JSON)', 'contextManagement', 'json', {
		default: '{}',
		description: 'Server-side context editing, as a JSON object (e.g. {"edits": […]})',
	}),
	field('Diagnostics (JSON)', 'diagnostics', 'json', {
		default: '{}',
		description: 'Diagnostics request, as a JSON object',
	}),
	field('Effort', 'effort', 'options', {
		options: labelledOptions({ Low: 'low', Medium: 'medium', High: 'high' }),
		default: 'medium',
		description: 'Effort level of the output configuration',
	}),
	field('Fallback Credit Token', 'fallbackCreditToken', 'string', {
		typeOptions: { password: true },
		default: '',
		description: 'The token a refused message returned in stop_details, to retry on another model',
	}),
	field('Fallback Models', 'fallbackModels', 'string', {
		default: '',
		placeholder: 'e.g. chat-model-2, chat-model-3',
		description: 'Models to fall back to, in order (comma-separated)',
	}),
	field('Inference Geography', 'inferenceGeo', 'string', {
		default: '',
		placeholder: 'e.g. us',
		description: 'Where the model should run, if the gateway offers a choice',
	}),
	field('Service Tier', 'serviceTier', 'options', {
		options: labelledOptions({ Auto: 'auto', 'Standard Only': 'standard_only' }),
		default: 'auto',
	}),
	field('Speed', 'speed', 'options', {
		options: labelledOptions({ Standard: 'standard', Fast: 'fast' }),
		default: 'standard',
	}),
	field('Stop Sequences', 'stopSequences', 'string', {
		typeOptions: { rows: 3 },
		default: '',
		description: 'Custom sequences that end generation, one per line',
	}),
	field('Stream', 'stream', 'boolean', {
		default: false,
		description:
			'Whether to receive the reply as server-sent events. The node reads the stream to its end and returns the same Message.',
	}),
	field('Temperature', 'temperature', 'number', {
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
		description: 'Randomness, 0 to 1',
	}),
	field('Tool Choice', 'toolChoice', 'options', {
		options: [
			{ name: 'Any', value: 'any', description: 'Must use one of the tools' },
			{ name: 'Auto', value: 'auto', description: 'The model decides' },
			{ name: 'None', value: 'none', description: 'Must not use tools' },
			{ name: 'Tool', value: 'tool', description: 'Must use the tool named in Tool Name' },
		],
		default: 'auto',
	}),
	field('Tool Name', 'toolName', 'string', {
		default: '',
		description: 'The tool to use when Tool Choice is "Tool"',
	}),
	field('Tools (JSON)', 'tools', 'json', {
		default:
			'[\n  {"name": "get_weather", "description": "Weather for a city", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}\n]',
		description:
			'Tool definitions: name, description, input JSON Schema (input_schema) and, for server tools, type',
	}),
	field('Top K', 'topK', 'number', {
		typeOptions: { minValue: 0 },
		default: 40,
		description: 'Sample only from the K most likely tokens (0 or more)',
	}),
	field('Top P', 'topP', 'number', {
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 1,
		description: 'Nucleus sampling, 0 to 1',
	}),
]);
