import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { MessageForm, ThinkingType } from './body';
import { buildMessageBody, fileBlock, MESSAGE_FILE, turnContent } from './body';
import { MESSAGE_LABELS, messageBodySchema } from './schema';
import { MessageStreamAssembler, simplifyMessage } from './stream';
import { assembleStream, chatAnswer } from '../../../shared/sse';
import { gatewayRequest } from '../../../shared/transport';
import { Base64Payload } from '../../../shared/base64Payload';
import { readBinaryFile } from '../../../shared/binary';
import { assertValid, refusal } from '../../../shared/validation';
import { readAdditionalBody, readRequestSettings, scoped, withAdditionalBody } from '../descriptions';
import { runsAsTool } from '../tool';
import type { OperationModule } from '../types';
import { createFields } from './fields';
import { readJsonParameter, splitList } from '../jsonParameter';

const PATH = '/v1/messages';

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
			files.push(fileBlock(file.mimeType, payload.embed(file)));
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
	// Streaming into n8n's chat: with the Stream option left out the node streams by itself;
	// with Stream added and off the chat gets the whole text at once.
	const chat = chatAnswer(this, itemIndex, runsAsTool(this));
	if (chat.on && body.stream === undefined) body.stream = true;
	assertValid(node, messageBodySchema, body, MESSAGE_LABELS, itemIndex);
	const sent = payload.requestBody(body);
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const request = { method: 'POST', path: PATH, body: sent, kind: 'create', timeoutMs, itemIndex } as const;
	const message = await chat.around(async (): Promise<IDataObject> => {
		if (body.stream !== true) {
			const { body: whole } = await gatewayRequest<IDataObject>(this, request);
			chat.text(String(simplifyMessage(whole).text));
			return whole;
		}
		const response = await gatewayRequest<AsyncIterable<Uint8Array>>(this, {
			...request,
			responseType: 'stream',
		});
		chat.begin();
		return (await assembleStream(response.body, new MessageStreamAssembler(chat.text), {
			node,
			itemIndex,
			timeoutMs,
			what: 'The message stream failed',
		})) as IDataObject;
	});
	const simplify = this.getNodeParameter('simplifyOutput', itemIndex, true) as boolean;
	return [{ json: (simplify ? simplifyMessage(message) : message) as IDataObject }];
}

export const create: OperationModule = {
	description: scoped('message', 'create', createFields),
	createsPaidWork: true,
	execute,
};
