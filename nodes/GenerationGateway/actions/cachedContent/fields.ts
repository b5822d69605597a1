import type { INodeProperties } from 'n8n-workflow';
import { FUNCTION_CALLING_MODES, MAX_DISPLAY_NAME } from './schema';
import { additionalBodyField, binaryPropertiesValue, conversationField, modelIdField } from '../descriptions';

export const createFields: INodeProperties[] = [
	modelIdField(
		'native-model-1',
		'The model the cache is bound to (it works only with this model). A bare name gets the "models/" prefix.',
	),
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
