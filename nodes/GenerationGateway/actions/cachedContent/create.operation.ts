import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { CACHED_CONTENT_FILE, buildCachedContentBody, inlineDataPart, turnParts } from './body';
import { CACHED_CONTENT_LABELS, cachedContentBodySchema } from './schema';
import { Base64Payload } from '../../../shared/base64Payload';
import { readBinaryFile } from '../../../shared/binary';
import { gatewayRequest } from '../../../shared/transport';
import { assertValid, refusal } from '../../../shared/validation';
import {
	readAdditionalBody,
	readConversation,
	readRequestSettings,
	scoped,
	withAdditionalBody,
} from '../descriptions';
import { readJsonParameter, splitList } from '../jsonParameter';
import type { OperationModule } from '../types';
import { createFields } from './fields';

const PATH = '/v1beta/cachedContents';
const TURNS = { name: 'turns', entry: 'turn', displayName: 'Turns' };

/** The expire time as RFC 3339 UTC; text that is not a date is sent as typed for the schema to refuse. */
function readExpireTime(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('expireTime', itemIndex, '') as unknown;
	const text = DateTime.isDateTime(raw) ? (raw.toISO() ?? '') : String(raw ?? '').trim();
	const problem = 'enter a date and time (or choose another Expiry)';
	if (!text) throw refusal(ctx.getNode(), 'Expire Time', problem, itemIndex);
	const parsed = DateTime.fromISO(text, { zone: ctx.getTimezone() });
	return parsed.isValid ? parsed.toUTC().toISO({ suppressMilliseconds: true })! : text;
}

/** The form's turns; attached binaries become inline data parts whose base64 waits in `payload`. */
async function readTurns(ctx: IExecuteFunctions, itemIndex: number, payload: Base64Payload) {
	const turns = await readConversation(ctx, itemIndex, TURNS, async (name, field) => {
		const file = await readBinaryFile(ctx, itemIndex, name, { field, ...CACHED_CONTENT_FILE });
		return inlineDataPart(file.mimeType, payload.embed(file));
	});
	return turns.map(({ role, text, files }) => ({ role, parts: turnParts(text, files) }));
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const param = <T>(name: string, fallback: T) => this.getNodeParameter(name, itemIndex, fallback) as T;
	const payload = new Base64Payload();
	const contents =
		param<string>('contentsMode', 'form') === 'json'
			? readJsonParameter(this, 'contentsJson', 'Contents (JSON)', itemIndex)
			: await readTurns(this, itemIndex, payload);
	const declarations = readJsonParameter(
		this,
		'functionDeclarations',
		'Function Declarations (JSON)',
		itemIndex,
	);
	const mode = param<string>('functionCallingMode', 'default');
	const expiry = param<string>('expiry', 'ttl');
	const body = withAdditionalBody(
		buildCachedContentBody({
			model: param('model', ''),
			contents,
			systemInstruction: param('systemInstruction', '') || undefined,
			functionDeclarations: Array.isArray(declarations) && !declarations.length ? undefined : declarations,
			functionCallingMode: mode === 'default' ? undefined : mode,
			allowedFunctionNames: splitList(param('allowedFunctionNames', ''), true),
			ttlSeconds: expiry === 'ttl' ? param('ttlSeconds', 3600) : undefined,
			expireTime: expiry === 'expireTime' ? readExpireTime(this, itemIndex) : undefined,
			displayName: param('displayName', '') || undefined,
		}),
		readAdditionalBody(this, itemIndex),
	);
	assertValid(this.getNode(), cachedContentBodySchema, body, CACHED_CONTENT_LABELS, itemIndex);
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const { body: resource } = await gatewayRequest<IDataObject>(this, {
		method: 'POST',
		path: PATH,
		body: payload.requestBody(body),
		kind: 'create',
		timeoutMs,
		itemIndex,
	});
	return [{ json: resource }];
}

export const create: OperationModule = {
	description: scoped('cachedContent', 'create', createFields),
	createsPaidWork: true,
	execute,
};
