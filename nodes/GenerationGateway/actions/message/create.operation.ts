import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { MessageForm, ThinkingType } from './body';
import { buildMessageBody, fileBlock, MESSAGE_FILE, turnContent } from './body';
import { MESSAGE_LABELS, messageBodySchema } from './schema';
import { MessageStreamAssembler, simplifyMessage } from './stream';
import { Base64Payload } from '../../../shared/base64Payload';
import { readBinaryFile } from '../../../shared/binary';
import { assertValid, refusal } from '../../../shared/validation';
import { readAdditionalBody, readConversation, scoped, withAdditionalBody } from '../descriptions';
import { replyTo } from '../chatReply';
import type { OperationModule } from '../types';
import { createFields } from './fields';
import { readJsonParameter, splitList } from '../jsonParameter';

const PATH = '/v1/messages';
const TURNS = { name: 'turns', entry: 'turn', displayName: 'Turns' };

const unset = (value: unknown) => (value === 'default' || value === '' ? undefined : value);

/** The form's turns; attached binaries become base64 blocks whose text waits in `payload`. */
async function readTurns(ctx: IExecuteFunctions, itemIndex: number, payload: Base64Payload) {
	const turns = await readConversation(ctx, itemIndex, TURNS, async (name, field, role) => {
		if (role !== 'user') {
			throw refusal(ctx.getNode(), field, 'only user turns can attach images and documents', itemIndex);
		}
		const file = await readBinaryFile(ctx, itemIndex, name, { field, ...MESSAGE_FILE });
		return fileBlock(file.mimeType, payload.embed(file));
	});
	return turns.map(({ role, text, files }) => ({ role, content: turnContent(text, files) }));
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
	const json = (name: string, label: string) =>
		options[name] === undefined ? undefined : readJsonParameter(ctx, `options.${name}`, label, itemIndex);
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
		tools: json('tools', 'Tools (JSON)'),
		toolChoice: toolChoice
			? { type: toolChoice, ...(toolChoice === 'tool' ? { name: String(options.toolName ?? '') } : {}) }
			: undefined,
		effort: options.effort as string | undefined,
		serviceTier: options.serviceTier as string | undefined,
		speed: options.speed as string | undefined,
		container: readContainer(String(options.container ?? '')),
		contextManagement: json('contextManagement', 'Context Management (JSON)'),
		diagnostics: json('diagnostics', 'Diagnostics (JSON)'),
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
	const payload = new Base64Payload();
	const body = withAdditionalBody(
		buildMessageBody(await readForm(this, itemIndex, payload)),
		readAdditionalBody(this, itemIndex),
	);
	return await replyTo(this, itemIndex, body, {
		path: PATH,
		mayStream: () => true,
		validate: (sent) => assertValid(this.getNode(), messageBodySchema, sent, MESSAGE_LABELS, itemIndex),
		send: (sent) => payload.requestBody(sent),
		assembler: (onText) => new MessageStreamAssembler(onText),
		streamFailed: 'The message stream failed',
		simplify: simplifyMessage,
		textMember: 'text',
	});
}

export const create: OperationModule = {
	description: scoped('message', 'create', createFields),
	createsPaidWork: true,
	execute,
};
