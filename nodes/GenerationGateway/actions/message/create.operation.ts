import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { MessageForm, ThinkingType } from './body';
import {
	MESSAGE_LABELS,
	MIN_THINKING_BUDGET,
	buildMessageBody,
	fileBlock,
	MESSAGE_FILE,
	messageBodySchema,
	turnContent,
} from './body';
import { MessageStreamAssembler, simplifyMessage } from './stream';
import { assembleStream } from '../../../shared/sse';
import { gatewayRequest } from '../../../shared/transport';
import { Base64Payload } from '../../../shared/base64Payload';
import { readBinaryFile } from '../../../shared/binary';
import { assertValid, refusal } from '../../../shared/validation';
import {
	additionalBodyField,
	binaryPropertiesValue,
	conversationField,
	readAdditionalBody,
	readRequestSettings,
	scoped,
	withAdditionalBody,
} from '../descriptions';
import type { OperationModule } from '../types';
import { messageOptions } from './options';
import { readJsonParameter, splitList } from '../jsonParameter';

/** The endpoint this operation calls. */
export const PATH = '/v1/messages';

const properties: INodeProperties[] = [
	{
		displayName: 'Model',
		name: 'model',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. chat-model-1',
		description: 'The chat model ID, as the gateway names it (aliases and dated snapshots work too)',
	},
	{
		displayName: 'Max Tokens',
		name: 'maxTokens',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 1024,
		description:
			'Most tokens the reply may use, thinking included. 0 generates no reply: it only warms the prompt cache.',
	},
	{
		displayName: 'Conversation Input',
		name: 'conversationMode',
		type: 'options',
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
	},
	conversationField({
		displayName: 'Turns',
		name: 'turns',
		entry: 'turn',
		entryDisplayName: 'Turn',
		roles: [
			{ name: 'User', value: 'user' },
			{ name: 'Assistant', value: 'assistant' },
		],
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
	{
		displayName: 'Messages (JSON)',
		name: 'messagesJson',
		type: 'json',
		default: '[\n  {"role": "user", "content": "Hello"}\n]',
		displayOptions: { show: { conversationMode: ['json'] } },
		description:
			'A list of {role, content}; content is text or a list of content blocks. Pass thinking blocks back exactly as received (their signature unchanged).',
	},
	{
		displayName: 'System',
		name: 'system',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'System prompt. The gateway has no system-role messages: system instructions go here.',
	},
	{
		displayName: 'Thinking',
		name: 'thinking',
		type: 'options',
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Enabled', value: 'enabled', description: 'Think first, within a token budget' },
			{ name: 'Adaptive', value: 'adaptive', description: 'The model decides how much to think' },
			{ name: 'Disabled', value: 'disabled' },
		],
		default: 'default',
		description: 'Extended thinking. Thinking tokens count toward Max Tokens.',
	},
	{
		displayName: 'Thinking Budget Tokens',
		name: 'thinkingBudget',
		type: 'number',
		typeOptions: { minValue: MIN_THINKING_BUDGET },
		default: 2048,
		displayOptions: { show: { thinking: ['enabled'] } },
		description: `At least ${MIN_THINKING_BUDGET}, and below Max Tokens`,
	},
	{
		displayName: 'Thinking Display',
		name: 'thinkingDisplay',
		type: 'options',
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Summarized', value: 'summarized' },
			{ name: 'Omitted', value: 'omitted', description: 'Hides the thinking text but keeps its signature' },
			{ name: 'Updates', value: 'updates' },
		],
		default: 'default',
		displayOptions: { show: { thinking: ['enabled', 'adaptive'] } },
	},
	{
		displayName: 'Unmatched Thinking Blocks',
		name: 'unmatchedThinkingBlocks',
		type: 'options',
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			{ name: 'Error', value: 'error', description: 'The gateway answers HTTP 400' },
			{ name: 'Drop Block', value: 'drop_block', description: 'The gateway removes them' },
		],
		default: 'default',
		displayOptions: { show: { thinking: ['enabled', 'adaptive', 'disabled'] } },
		description: 'What the gateway does with thinking blocks in the conversation that do not match',
	},
	{
		displayName: 'Simplify Output',
		name: 'simplifyOutput',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only the text, stop reason, stop sequence and usage. Turn off for the full Message resource (content blocks, thinking signatures, tool calls).',
	},
	messageOptions,
	additionalBodyField,
];

const unset = (value: unknown) => (value === 'default' || value === '' ? undefined : value);

/** The form's turns; attached binaries become base64 blocks whose text waits in `payload`. */
async function readTurns(
	ctx: IExecuteFunctions,
	itemIndex: number,
	payload: Base64Payload,
): Promise<IDataObject[]> {
	const turns = (ctx.getNodeParameter('turns', itemIndex, {}) as IDataObject).turn as
		| IDataObject[]
		| undefined;
	const messages: IDataObject[] = [];
	for (const [n, turn] of (turns ?? []).entries()) {
		const field = `Turns (#${n + 1} Binary Properties)`;
		const names = splitList(turn.binaryProperties, true);
		if (names.length && turn.role !== 'user') {
			throw refusal(ctx.getNode(), field, 'only user turns can attach images and documents', itemIndex);
		}
		const files: IDataObject[] = [];
		for (const name of names) {
			const file = await readBinaryFile(ctx, itemIndex, name, { field, ...MESSAGE_FILE });
			files.push(fileBlock(file.mimeType, payload.embed(file.bytes)));
		}
		messages.push({ role: turn.role, content: turnContent(String(turn.text ?? ''), files) });
	}
	return messages;
}

async function readForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	payload: Base64Payload,
): Promise<MessageForm> {
	const param = <T>(name: string, fallback?: T) => ctx.getNodeParameter(name, itemIndex, fallback) as T;
	const messages =
		param<string>('conversationMode', 'form') === 'json'
			? readJsonParameter(ctx, 'messagesJson', 'Messages (JSON)', itemIndex)
			: await readTurns(ctx, itemIndex, payload);
	const thinkingType = unset(param<string>('thinking', 'default')) as ThinkingType | undefined;
	const options = param<IDataObject>('options', {});
	const toolChoice = options.toolChoice as string | undefined;
	return {
		model: param<string>('model', ''),
		maxTokens: param<number>('maxTokens', 1024),
		messages,
		system: unset(param<string>('system', '')) as string | undefined,
		thinking: thinkingType && {
			type: thinkingType,
			budgetTokens: thinkingType === 'enabled' ? param<number>('thinkingBudget', 2048) : undefined,
			display:
				thinkingType === 'disabled' ? undefined : (unset(param('thinkingDisplay', 'default')) as string),
			unmatchedBlocks: unset(param('unmatchedThinkingBlocks', 'default')) as string | undefined,
		},
		stream: options.stream as boolean | undefined,
		stopSequences: splitList(options.stopSequences),
		temperature: options.temperature as number | undefined,
		topP: options.topP as number | undefined,
		topK: options.topK as number | undefined,
		tools:
			options.tools === undefined
				? undefined
				: readJsonParameter(ctx, 'options.tools', 'Tools (JSON)', itemIndex),
		toolChoice: toolChoice
			? { type: toolChoice, ...(toolChoice === 'tool' ? { name: String(options.toolName ?? '') } : {}) }
			: undefined,
		effort: options.effort as string | undefined,
		serviceTier: options.serviceTier as string | undefined,
		speed: options.speed as string | undefined,
		container: readContainer(String(options.container ?? '')),
		contextManagement:
			options.contextManagement === undefined
				? undefined
				: readJsonParameter(ctx, 'options.contextManagement', 'Context Management (JSON)', itemIndex),
		diagnostics:
			options.diagnostics === undefined
				? undefined
				: readJsonParameter(ctx, 'options.diagnostics', 'Diagnostics (JSON)', itemIndex),
		fallbackCreditToken: unset(options.fallbackCreditToken) as string | undefined,
		fallbackModels: splitList(options.fallbackModels, true),
		inferenceGeo: unset(options.inferenceGeo) as string | undefined,
	};
}

/** The container field takes an ID, or a JSON object (e.g. with skills). */
function readContainer(text: string): unknown {
	const trimmed = text.trim();
	if (!trimmed) return undefined;
	if (!trimmed.startsWith('{')) return trimmed;
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return trimmed; // sent as an ID; the gateway judges it
	}
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const payload = new Base64Payload();
	const body = withAdditionalBody(
		buildMessageBody(await readForm(this, itemIndex, payload)),
		readAdditionalBody(this, itemIndex),
	);
	assertValid(node, messageBodySchema, body, MESSAGE_LABELS, itemIndex);
	const sent = payload.requestBody(body);
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	let message: IDataObject;
	if (body.stream === true) {
		const response = await gatewayRequest<AsyncIterable<Uint8Array>>(this, {
			method: 'POST',
			path: PATH,
			body: sent,
			kind: 'create',
			responseType: 'stream',
			timeoutMs,
			itemIndex,
		});
		message = (await assembleStream(response.body, new MessageStreamAssembler(), {
			node,
			itemIndex,
			timeoutMs,
			what: 'The message stream failed',
		})) as IDataObject;
	} else {
		const response = await gatewayRequest<IDataObject>(this, {
			method: 'POST',
			path: PATH,
			body: sent,
			kind: 'create',
			timeoutMs,
			itemIndex,
		});
		message = response.body;
	}
	const simplify = this.getNodeParameter('simplifyOutput', itemIndex, true) as boolean;
	return [{ json: (simplify ? simplifyMessage(message) : message) as IDataObject }];
}

export const create: OperationModule = {
	description: scoped('message', 'create', properties),
	createsPaidWork: true,
	execute,
};
