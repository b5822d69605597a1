import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sniffMediaType } from '../../../shared/binary';
import { binaryInputPart, inputMessage } from './body';
import { responseBodySchema } from './schema';
import { RESPONSE_LABELS, responseOptionWire, responseOptions } from './options';
import { ResponseStreamAssembler, responseProblem, simplifyResponse } from './stream';
import { assertValid, refusal } from '../../../shared/validation';
import { readAdditionalBody, readConversation, scoped, withAdditionalBody } from '../descriptions';
import { readJsonParameter } from '../jsonParameter';
import { replyTo } from '../chatReply';
import type { OperationModule } from '../types';
import { createFields } from './fields';

const PATH = '/v1/responses';
const MESSAGES = { name: 'inputMessages', entry: 'message', displayName: 'Messages' };
/** Options typed as JSON text. */
const READ_AS_JSON = ['tools', 'moderation'];

async function readMessages(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const item = ctx.getInputData()[itemIndex];
	const messages = await readConversation(ctx, itemIndex, MESSAGES, async (name, field) => {
		const binary = item.binary?.[name];
		if (!binary) throw refusal(ctx.getNode(), field, `the item has no binary property "${name}"`, itemIndex);
		const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
		const mimeType = binary.mimeType || sniffMediaType(bytes)?.mimeType || 'application/octet-stream';
		return binaryInputPart({
			mimeType,
			fileName: binary.fileName,
			extension: binary.fileExtension,
			base64: bytes.toString('base64'),
		});
	});
	return messages.map(({ role, text, files }) => inputMessage(String(role ?? 'user'), text, files));
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
	return await replyTo(this, itemIndex, body, {
		path: PATH,
		// A background response answers before its text exists.
		mayStream: (sent) => sent.background !== true,
		validate: (sent) => assertValid(node, responseBodySchema, sent, RESPONSE_LABELS, itemIndex),
		assembler: (onText) => new ResponseStreamAssembler(onText),
		streamFailed: 'The response stream failed',
		// failed / incomplete / cancelled are not results: they fail the item (or become its error item).
		check: (response) => {
			const problem = responseProblem(response);
			if (!problem) return;
			throw new NodeOperationError(node, problem, {
				itemIndex,
				description: `Response ${String(response.id)}: ${JSON.stringify(response.error ?? response.incomplete_details ?? null)}`,
			});
		},
		simplify: simplifyResponse,
		textMember: 'output_text',
	});
}

export const create: OperationModule = {
	description: scoped('response', 'create', createFields),
	createsPaidWork: true,
	execute,
};
