import type { INodeProperties } from 'n8n-workflow';
import { MIN_THINKING_BUDGET } from './schema';
import { additionalBodyField, binaryPropertiesValue, conversationField, modelIdField } from '../descriptions';
import { messageOptions } from './options';
import { field, labelledOptions } from '../formFields';

export const createFields: INodeProperties[] = [
	modelIdField(
		'chat-model-1',
		'The chat model ID, as the gateway names it (aliases and dated snapshots work too)',
	),
	field('Max Tokens', 'maxTokens', 'number', {
		typeOptions: { minValue: 0 },
		default: 1024,
		description:
			'Most tokens the reply may use, thinking included. 0 generates no reply: it only warms the prompt cache.',
	}),
	field('Conversation Input', 'conversationMode', 'options', {
		noDataExpression: true,
		options: [
			{
				name: 'Turns',
				value: 'form',
				description: 'User and assistant turns as text, with images and PDFs from binary properties',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'The messages list as JSON: images, documents, tool results, thinking blocks',
			},
		],
		default: 'form',
	}),
	conversationField({
		displayName: 'Turns',
		name: 'turns',
		entry: 'turn',
		entryDisplayName: 'Turn',
		roles: labelledOptions({ User: 'user', Assistant: 'assistant' }),
		show: { conversationMode: ['form'] },
		textRows: 4,
		description:
			'The conversation so far, oldest first. Consecutive turns of the same role are merged. User turns can attach images (PNG, JPEG, WebP, GIF) and PDF documents from binary properties.',
		extraValues: [
			binaryPropertiesValue(
				'Binary properties of the input item to attach to a user turn (comma-separated): PNG, JPEG, WebP and GIF images, PDF documents. Sent as base64 content blocks.',
			),
		],
	}),
	field('Messages (JSON)', 'messagesJson', 'json', {
		default: '[\n  {"role": "user", "content": "Hello"}\n]',
		displayOptions: { show: { conversationMode: ['json'] } },
		description:
			'A list of {role, content}; content is text or a list of content blocks. Pass thinking blocks back exactly as received (their signature unchanged).',
	}),
	field('System', 'system', 'string', {
		typeOptions: { rows: 3 },
		default: '',
		description: 'System prompt. The gateway has no system-role messages: system instructions go here.',
	}),
	field('Thinking', 'thinking', 'options', {
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Enabled', value: 'enabled', description: 'Think first, within a token budget' },
			{ name: 'Adaptive', value: 'adaptive', description: 'The model decides how much to think' },
			{ name: 'Disabled', value: 'disabled' },
		],
		default: 'default',
		description: 'Extended thinking. Thinking tokens count toward Max Tokens.',
	}),
	field('Thinking Budget Tokens', 'thinkingBudget', 'number', {
		typeOptions: { minValue: MIN_THINKING_BUDGET },
		default: 2048,
		displayOptions: { show: { thinking: ['enabled'] } },
		description: `At least ${MIN_THINKING_BUDGET}, and below Max Tokens`,
	}),
	field('Thinking Display', 'thinkingDisplay', 'options', {
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Summarized', value: 'summarized' },
			{ name: 'Omitted', value: 'omitted', description: 'Hides the thinking text but keeps its signature' },
			{ name: 'Updates', value: 'updates' },
		],
		default: 'default',
		displayOptions: { show: { thinking: ['enabled', 'adaptive'] } },
	}),
	field('Unmatched Thinking Blocks', 'unmatchedThinkingBlocks', 'options', {
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Error', value: 'error', description: 'The gateway answers HTTP 400' },
			{ name: 'Drop Block', value: 'drop_block', description: 'The gateway removes them' },
		],
		default: 'default',
		displayOptions: { show: { thinking: ['enabled', 'adaptive', 'disabled'] } },
		description: 'What the gateway does with thinking blocks in the conversation that do not match',
	}),
	field('Simplify Output', 'simplifyOutput', 'boolean', {
		default: true,
		description:
			'Whether to return only the text, stop reason, stop sequence and usage. Turn off for the full Message resource (content blocks, thinking signatures, tool calls).',
	}),
	messageOptions,
	additionalBodyField,
];
