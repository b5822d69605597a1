import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { DateTime } from 'luxon';

import {
	CACHED_CONTENT_LABELS,
	FUNCTION_CALLING_MODES,
	CACHED_CONTENT_FILE,
	MAX_DISPLAY_NAME,
	buildCachedContentBody,
	cachedContentBodySchema,
	inlineDataPart,
	turnParts,
} from './body';
import { Base64Payload } from '../../../shared/base64Payload';
import { readBinaryFile } from '../../../shared/binary';
import { gatewayRequest } from '../../../shared/transport';
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
import { readJsonParameter, splitList } from '../jsonParameter';
import type { OperationModule } from '../types';

/** The endpoint this operation calls. */
export const PATH = '/v1beta/cachedContents';

const properties: INodeProperties[] = [
	{
		displayName: 'Model',
		name: 'model',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. native-model-1',
		description:
			'The model the cache is bound to (it works only with this model). A bare name gets the "models/" prefix.',
	},
	{
		displayName: 'Contents Input',
		name: 'contentsMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Turns', value: 'form', description: 'Text turns, with files from binary properties' },
			{
				name: 'JSON',
				value: 'json',
				description: 'Turns with any part kind: inline files, file references, function calls',
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
			{ name: 'Model', value: 'model' },
		],
		show: { contentsMode: ['form'] },
		textRows: 6,
		description:
			'The content to cache, in conversation order (at least one turn). A turn can carry files from binary properties, e.g. a long PDF.',
		extraValues: [
			binaryPropertiesValue(
				'Binary properties of the input item to cache with this turn (comma-separated), each sent as an inline data part with its MIME type',
			),
		],
	}),
	{
		displayName: 'Contents (JSON)',
		name: 'contentsJson',
		type: 'json',
		default: '[\n  {"role": "user", "parts": [{"text": "A long document"}]}\n]',
		displayOptions: { show: { contentsMode: ['json'] } },
		description: 'A list of {role: user|model, parts: [...]}, each with at least one part',
	},
	{
		displayName: 'System Instruction',
		name: 'systemInstruction',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
	},
	{
		displayName: 'Expiry',
		name: 'expiry',
		type: 'options',
		options: [
			{ name: 'Gateway Default', value: 'default' },
			{ name: 'TTL', value: 'ttl', description: 'A lifetime in seconds from now' },
			{ name: 'Expire Time', value: 'expireTime', description: 'An absolute date and time' },
		],
		default: 'ttl',
	},
	{
		displayName: 'TTL (Seconds)',
		name: 'ttlSeconds',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 3 },
		default: 3600,
		displayOptions: { show: { expiry: ['ttl'] } },
		description: 'Sent as the interface duration, e.g. 3600 → "3600s"',
	},
	{
		displayName: 'Expire Time',
		name: 'expireTime',
		type: 'dateTime',
		default: '',
		displayOptions: { show: { expiry: ['expireTime'] } },
		description: "Sent as RFC 3339 in UTC; a time without a zone is read in the workflow's time zone",
	},
	{
		displayName: 'Display Name',
		name: 'displayName',
		type: 'string',
		default: '',
		description: `At most ${MAX_DISPLAY_NAME} characters`,
	},
	{
		displayName: 'Function Declarations (JSON)',
		name: 'functionDeclarations',
		type: 'json',
		default: '[]',
		description:
			'Functions the cached model may call: [{name, description, parameters (JSON Schema)}]. Empty list: no tools.',
	},
	{
		displayName: 'Function Calling Mode',
		name: 'functionCallingMode',
		type: 'options',
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			...FUNCTION_CALLING_MODES.map((mode) => ({ name: mode, value: mode })),
		],
		default: 'default',
	},
	{
		displayName: 'Allowed Function Names',
		name: 'allowedFunctionNames',
		type: 'string',
		default: '',
		displayOptions: { show: { functionCallingMode: ['ANY', 'VALIDATED'] } },
		description: 'Comma-separated; each must be a declared function',
	},
	additionalBodyField,
];

/** The expire time as RFC 3339 UTC; text that is not a date is sent as typed for the schema to refuse. */
function readExpireTime(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('expireTime', itemIndex, '') as unknown;
	const text = DateTime.isDateTime(raw) ? (raw.toISO() ?? '') : String(raw ?? '').trim();
	if (!text)
		throw refusal(
			ctx.getNode(),
			'Expire Time',
			'enter a date and time (or choose another Expiry)',
			itemIndex,
		);
	const parsed = DateTime.fromISO(text, { zone: ctx.getTimezone() });
	return parsed.isValid ? parsed.toUTC().toISO({ suppressMilliseconds: true })! : text;
}

/** The form's turns; attached binaries become inline data parts whose base64 waits in `payload`. */
async function readTurns(
	ctx: IExecuteFunctions,
	itemIndex: number,
	payload: Base64Payload,
): Promise<IDataObject[]> {
	const turns = (ctx.getNodeParameter('turns', itemIndex, {}) as IDataObject).turn as
		| IDataObject[]
		| undefined;
	const contents: IDataObject[] = [];
	for (const [n, turn] of (turns ?? []).entries()) {
		const files: IDataObject[] = [];
		for (const name of splitList(turn.binaryProperties, true)) {
			const file = await readBinaryFile(ctx, itemIndex, name, {
				field: `Turns (#${n + 1} Binary Properties)`,
				...CACHED_CONTENT_FILE,
			});
			files.push(inlineDataPart(file.mimeType, payload.embed(file.bytes)));
		}
		contents.push({ role: turn.role, parts: turnParts(String(turn.text ?? ''), files) });
	}
	return contents;
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
	description: scoped('cachedContent', 'create', properties),
	createsPaidWork: true,
	execute,
};
