import type { INodeProperties } from 'n8n-workflow';
import { additionalBodyField, binaryPropertiesValue, conversationField, modelIdField } from '../descriptions';
import { responseOptions } from './options';
import { field, labelledOptions } from '../formFields';

export const createFields: INodeProperties[] = [
	modelIdField(
		'resp-model-1',
		'The model ID, as the gateway names it (aliases and dated snapshots work too)',
	),
	field('Input Type', 'inputMode', 'options', {
		noDataExpression: true,
		options: [
			{ name: 'Text', value: 'text' },
			{
				name: 'Messages',
				value: 'messages',
				description: 'Messages with text and files (images, audio, documents) from the item’s binary data',
			},
			{ name: 'JSON', value: 'json', description: 'The input items as JSON' },
		],
		default: 'text',
	}),
	field('Input', 'inputText', 'string', {
		typeOptions: { rows: 4 },
		default: '',
		displayOptions: { show: { inputMode: ['text'] } },
	}),
	conversationField({
		displayName: 'Messages',
		name: 'inputMessages',
		entry: 'message',
		entryDisplayName: 'Message',
		roles: labelledOptions({
			User: 'user',
			Assistant: 'assistant',
			Developer: 'developer',
			System: 'system',
		}),
		show: { inputMode: ['messages'] },
		textRows: 3,
		extraValues: [
			binaryPropertiesValue(
				'Binary properties of the input item to attach (comma-separated): images are sent as images, audio as audio, anything else as a file',
			),
		],
	}),
	field('Input (JSON)', 'inputJson', 'json', {
		default: '[\n  {"role": "user", "content": [{"type": "input_text", "text": "Hello"}]}\n]',
		displayOptions: { show: { inputMode: ['json'] } },
	}),
	field('Instructions', 'instructions', 'string', {
		typeOptions: { rows: 3 },
		default: '',
		description: 'System or developer instruction. Not inherited from a previous response.',
	}),
	field('Simplify Output', 'simplifyOutput', 'boolean', {
		default: true,
		description:
			'Whether to return only output_text, status and usage. Turn off for the full Response object.',
	}),
	responseOptions,
	additionalBodyField,
];
