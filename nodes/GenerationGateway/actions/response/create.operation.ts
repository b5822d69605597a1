import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sniffMediaType } from '../../../shared/binary';
import { assembleStream, chatAnswer } from '../../../shared/sse';
import { binaryInputPart, inputMessage } from './body';
import { responseBodySchema } from './schema';
import { RESPONSE_LABELS, responseOptionWire, responseOptions } from './options';
import { ResponseStreamAssembler, responseProblem, simplifyResponse } from './stream';
import { gatewayRequest } from '../../../shared/transport';
import { assertValid, refusal } from '../../../shared/validation';
import { readAdditionalBody, readRequestSettings, scoped, withAdditionalBody } from '../descriptions';
import { readJsonParameter, splitList } from '../jsonParameter';
import { runsAsTool } from '../tool';
import type { OperationModule } from '../types';
import { createFields } from './fields';

const PATH = '/v1/responses';
/** Options typed as JSON text. */
const READ_AS_JSON = ['tools', 'moderation'];

async function readMessages(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const rows = (ctx.getNodeParameter('inputMessages', itemIndex, {}) as IDataObject).message as
		| IDataObject[]
		| undefined;
	const item = ctx.getInputData()[itemIndex];
	const messages: IDataObject[] = [];
	for (const [n, row] of (rows ?? []).entries()) {
		const files: IDataObject[] = [];
		for (const name of splitList(row.binaryProperties, true)) {
			const binary = item.binary?.[name];
			if (!binary) {
				throw refusal(
					ctx.getNode(),
					`Messages (#${n + 1} Binary Properties)`,
					`the item has no binary property "${name}"`,
					itemIndex,
				);
			}
			const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
			const mimeType = binary.mimeType || sniffMediaType(bytes)?.mimeType || 'application/octet-stream';
			files.push(
				binaryInputPart({
					mimeType,
					fileName: binary.fileName,
					extension: binary.fileExtension,
					base64: bytes.toString('base64'),
				}),
			);
		}
		messages.push(inputMessage(String(row.role ?? 'user'), String(row.text ?? ''), files));
	}
	return messages;
}

async function readBody(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const mode = ctx.getNodeParameter('inputMode', itemIndex, 'text') as string;
	const body: IDataObject = { model: ctx.getNodeParameter('model', itemIndex, '') as string };
	if (mode === 'text') {
		const text = ctx.getNodeParameter('inputText', itemIndex, '') as string;
		if (text !== '') body.input = text;
	} else if (mode === 'messages') {
		body.input = await readMessages(ctx, itemIndex);
	} else {
		body.input = readJsonParameter(ctx, 'inputJson', 'Input (JSON)', itemIndex) as IDataObject[];
	}
	const instructions = ctx.getNodeParameter('instructions', itemIndex, '') as string;
	if (instructions) body.instructions = instructions;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const reasoning: IDataObject = {};
	for (const { name } of responseOptions.options) {
		const value = options[name];
		const wire = responseOptionWire(name);
		if (value === undefined || name === 'conversation') continue;
		if (READ_AS_JSON.includes(name)) {
			body[wire] = readJsonParameter(ctx, `options.${name}`, RESPONSE_LABELS[wire], itemIndex) as IDataObject;
		} else if (value === '' || (Array.isArray(value) && !value.length)) continue;
		else if (wire.startsWith('reasoning.')) reasoning[wire.slice('reasoning.'.length)] = value;
		else body[wire] = value;
	}
	if (Object.keys(reasoning).length) body.reasoning = reasoning;
	if (typeof options.conversation === 'string' && options.conversation.trim()) {
		const text = options.conversation.trim();
		body.conversation = text.startsWith('{')
			? (readJsonParameter(ctx, 'options.conversation', 'Conversation', itemIndex) as IDataObject)
			: text;
	}
	return body;
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const body = withAdditionalBody(await readBody(this, itemIndex), readAdditionalBody(this, itemIndex));
	// Streaming into n8n's chat: with the Stream option left out the node streams by itself,
	// unless Background is on (it answers before its text exists); with Stream off, it does not.
	const chat = chatAnswer(this, itemIndex, runsAsTool(this));
	if (chat.on && body.stream === undefined && body.background !== true) body.stream = true;
	assertValid(node, responseBodySchema, body, RESPONSE_LABELS, itemIndex);
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const request = {
		method: 'POST',
		path: PATH,
		body,
		kind: 'create',
		timeoutMs,
		itemIndex,
	} as const;
	const response = await chat.around(async (): Promise<IDataObject> => {
		let result: IDataObject;
		if (body.stream === true) {
			const { body: stream } = await gatewayRequest<AsyncIterable<Uint8Array>>(this, {
				...request,
				responseType: 'stream',
			});
			chat.begin();
			result = (await assembleStream(stream, new ResponseStreamAssembler(chat.text), {
				node,
				itemIndex,
				timeoutMs,
				what: 'The response stream failed',
			})) as IDataObject;
		} else {
			result = (await gatewayRequest<IDataObject>(this, request)).body;
		}
		// failed / incomplete / cancelled are not results: they fail the item (or become its error item).
		const problem = responseProblem(result);
		if (problem) {
			throw new NodeOperationError(node, problem, {
				itemIndex,
				description: `Response ${String(result.id)}: ${JSON.stringify(result.error ?? result.incomplete_details ?? null)}`,
			});
		}
		if (body.stream !== true) chat.text(String(simplifyResponse(result).output_text));
		return result;
	});
	const simplify = this.getNodeParameter('simplifyOutput', itemIndex, true) as boolean;
	return [{ json: (simplify ? simplifyResponse(response) : response) as IDataObject }];
}

export const create: OperationModule = {
	description: scoped('response', 'create', createFields),
	createsPaidWork: true,
	execute,
};
