import type { INodeProperties } from 'n8n-workflow';
import { FUNCTION_CALLING_MODES, MAX_DISPLAY_NAME } from './schema';
import { additionalBodyField, binaryPropertiesValue, conversationField, modelIdField } from '../descriptions';
import { field, labelledOptions } from '../formFields';

export const createFields: INodeProperties[] = [
	modelIdField(
		'native-model-1',
		'The model the cache is bound to (it works only with this model). A bare name gets the "models/" prefix.',
	),
	field('Contents Input', 'contentsMode', 'options', {
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
	}),
	conversationField({
		displayName: 'Turns',
		name: 'turns',
		entry: 'turn',
		entryDisplayName: 'Turn',
		roles: labelledOptions({ User: 'user', Model: 'model' }),
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
	field('Contents (JSON)', 'contentsJson', 'json', {
		default: '[\n  {"role": "user", "parts": [{"text": "A long document"}]}\n]',
		displayOptions: { show: { contentsMode: ['json'] } },
		description: 'A list of {role: user|model, parts: [...]}, each with at least one part',
	}),
	field('System Instruction', 'systemInstruction', 'string', { typeOptions: { rows: 3 }, default: '' }),
	field('Expiry', 'expiry', 'options', {
		options: [
			{ name: 'Gateway Default', value: 'default' },
			{ name: 'TTL', value: 'ttl', description: 'A lifetime in seconds from now' },
			{ name: 'Expire Time', value: 'expireTime', description: 'An absolute date and time' },
		],
		default: 'ttl',
	}),
	field('TTL (Seconds)', 'ttlSeconds', 'number', {
		typeOptions: { minValue: 0, numberPrecision: 3 },
		default: 3600,
		displayOptions: { show: { expiry: ['ttl'] } },
		description: 'Sent as the interface duration, e.g. 3600 → "3600s"',
	}),
	field('Expire Time', 'expireTime', 'dateTime', {
		default: '',
		displayOptions: { show: { expiry: ['expireTime'] } },
		description: "Sent as RFC 3339 in UTC; a time without a zone is read in the workflow's time zone",
	}),
	field('Display Name', 'displayName', 'string', {
		default: '',
		description: `At most ${MAX_DISPLAY_NAME} characters`,
	}),
	field('Function Declarations (JSON)', 'functionDeclarations', 'json', {
		default: '[]',
		description:
			'Functions the cached model may call: [{name, description, parameters (JSON Schema)}]. Empty list: no tools.',
	}),
	field('Function Calling Mode', 'functionCallingMode', 'options', {
		options: [
			{ name: 'Default (Not Sent)', value: 'default' },
			...FUNCTION_CALLING_MODES.map((mode) => ({ name: mode, value: mode })),
		],
		default: 'default',
	}),
	field('Allowed Function Names', 'allowedFunctionNames', 'string', {
		default: '',
		displayOptions: { show: { functionCallingMode: ['ANY', 'VALIDATED'] } },
		description: 'Comma-separated; each must be a declared function',
	}),
	additionalBodyField,
];
