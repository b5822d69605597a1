import type { INode } from 'n8n-workflow';

import {
	buildCachedContentBody,
	cachedContentModel,
	ttlFromSeconds,
} from '../../../nodes/GenerationGateway/actions/cachedContent/body';
import {
	CACHED_CONTENT_LABELS,
	cachedContentBodySchema,
} from '../../../nodes/GenerationGateway/actions/cachedContent/schema';
import { assertValid } from '../../../nodes/shared/validation';

const node = {
	id: '1',
	name: 'Gateway',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const base = () => ({
	model: 'models/native-model-1',
	contents: [{ role: 'user', parts: [{ text: 'A long document' }] }],
});
const lookup = { name: 'lookup', description: 'Finds', parameters: { type: 'object' } };
const tools = [{ functionDeclarations: [lookup, { name: 'other' }] }];
const callingConfig = (config: object) => ({ tools, toolConfig: { functionCallingConfig: config } });

const rows: Array<[string, Record<string, unknown>, RegExp | undefined]> = [
	['one user turn', {}, undefined],
	[
		'multi-turn history',
		{
			contents: [
				{ role: 'user', parts: [{ text: 'q' }] },
				{ role: 'model', parts: [{ text: 'a' }, { functionCall: { name: 'lookup', args: {} } }] },
				{ role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBE' } }] },
			],
		},
		undefined,
	],
	['model with two segments', { model: 'models/a/b' }, /^Model: must be a model ID/],
	['model without prefix (the form adds it)', { model: 'native-model-1' }, /^Model:/],
	['no contents', { contents: [] }, /^Contents: add at least one turn/],
	[
		'role assistant',
		{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] },
		/^Contents \(#1 role\): role must be user or model/,
	],
	[
		'turn without parts',
		{ contents: [{ role: 'user', parts: [] }] },
		/^Contents \(#1 parts\): every turn needs at least one part/,
	],
	[
		'empty part',
		{ contents: [{ role: 'user', parts: [{}] }] },
		/^Contents \(#1 parts #1\): a part must carry text/,
	],
	['text not a string', { contents: [{ role: 'user', parts: [{ text: 5 }] }] }, /text must be a string/],
	['system instruction', { systemInstruction: { parts: [{ text: 'Be exact' }] } }, undefined],
	['system instruction without text', { systemInstruction: { parts: [{}] } }, /^System Instruction/],
	['function declarations', { tools }, undefined],
	['other tool kinds alone', { tools: [{ codeExecution: {} }] }, undefined],
	[
		'empty function declarations',
		{ tools: [{ functionDeclarations: [] }] },
		/at least one function declaration/,
	],
	[
		'declaration without name',
		{ tools: [{ functionDeclarations: [{ description: 'x' }] }] },
		/every function declaration needs a name/,
	],
	[
		'duplicate function names',
		{ tools: [{ functionDeclarations: [lookup] }, { functionDeclarations: [lookup] }] },
		/the function name "lookup" is declared twice/,
	],
	[
		'parameters with parametersJsonSchema',
		{ tools: [{ functionDeclarations: [{ ...lookup, parametersJsonSchema: {} }] }] },
		/parameters and parametersJsonSchema cannot both be set/,
	],
	[
		'response with responseJsonSchema',
		{ tools: [{ functionDeclarations: [{ name: 'f', response: {}, responseJsonSchema: {} }] }] },
		/response and responseJsonSchema cannot both be set/,
	],
	[
		'behavior NON_BLOCKING',
		{ tools: [{ functionDeclarations: [{ name: 'f', behavior: 'NON_BLOCKING' }] }] },
		undefined,
	],
	['behavior unknown', { tools: [{ functionDeclarations: [{ name: 'f', behavior: 'LATER' }] }] }, /behavior/],
	['mode AUTO', callingConfig({ mode: 'AUTO' }), undefined],
	['mode unknown', callingConfig({ mode: 'SOMETIMES' }), /^Function Calling Mode/],
	['allowed names with ANY', callingConfig({ mode: 'ANY', allowedFunctionNames: ['lookup'] }), undefined],
	[
		'allowed names with VALIDATED',
		callingConfig({ mode: 'VALIDATED', allowedFunctionNames: ['lookup', 'other'] }),
		undefined,
	],
	[
		'allowed names with AUTO',
		callingConfig({ mode: 'AUTO', allowedFunctionNames: ['lookup'] }),
		/^Allowed Function Names: only allowed with the function-calling mode ANY or VALIDATED/,
	],
	[
		'allowed names without mode',
		callingConfig({ allowedFunctionNames: ['lookup'] }),
		/only allowed with the function-calling mode/,
	],
	[
		'allowed name not declared',
		callingConfig({ mode: 'ANY', allowedFunctionNames: ['lookup', 'ghost'] }),
		/^Allowed Function Names: not declared as functions: ghost/,
	],
	['ttl 3600s', { ttl: '3600s' }, undefined],
	['ttl with 9 fraction digits', { ttl: '1.123456789s' }, undefined],
	['ttl with 10 fraction digits', { ttl: '1.1234567891s' }, /^TTL \(Seconds\): must be seconds like "3600s"/],
	['ttl without unit', { ttl: '3600' }, /^TTL \(Seconds\)/],
	['ttl in minutes', { ttl: '60m' }, /^TTL \(Seconds\)/],
	['expireTime UTC', { expireTime: '2030-01-31T12:00:00Z' }, undefined],
	['expireTime with offset and fraction', { expireTime: '2030-01-31T12:00:00.5+02:00' }, undefined],
	[
		'expireTime without zone',
		{ expireTime: '2030-01-31T12:00:00' },
		/^Expire Time: must be an RFC 3339 time/,
	],
	[
		'both ttl and expireTime',
		{ ttl: '60s', expireTime: '2030-01-31T12:00:00Z' },
		/^Expire Time: set either a TTL or an expire time, not both/,
	],
	['displayName 128 characters (emoji count once)', { displayName: '😀'.repeat(128) }, undefined],
	[
		'displayName 129 characters',
		{ displayName: 'x'.repeat(129) },
		/^Display Name: must be at most 128 characters \(has 129\)$/,
	],
];

describe('cached contents: request rules (interface "POST /v1beta/cachedContents")', () => {
	it.each(rows)('%s', (_name, change, expected) => {
		const run = () =>
			assertValid(node, cachedContentBodySchema, { ...base(), ...change }, CACHED_CONTENT_LABELS, 0);
		if (expected === undefined) expect(run).not.toThrow();
		else expect(run).toThrow(expected);
	});
});

describe('cached contents: body builder', () => {
	it('adds the models/ prefix to a bare model name only', () => {
		expect(cachedContentModel('native-model-1')).toBe('models/native-model-1');
		expect(cachedContentModel(' models/native-model-1 ')).toBe('models/native-model-1');
	});

	it('sends the TTL in seconds as the interface duration', () => {
		expect(ttlFromSeconds(3600)).toBe('3600s');
		expect(ttlFromSeconds(1.5)).toBe('1.5s');
	});

	it('builds tools, the tool configuration, ttl and display name', () => {
		const body = buildCachedContentBody({
			model: 'native-model-1',
			contents: base().contents,
			systemInstruction: 'Be exact',
			functionDeclarations: [lookup],
			functionCallingMode: 'ANY',
			allowedFunctionNames: ['lookup'],
			ttlSeconds: 600,
			displayName: 'Report',
		});
		expect(body).toEqual({
			model: 'models/native-model-1',
			contents: base().contents,
			systemInstruction: { parts: [{ text: 'Be exact' }] },
			tools: [{ functionDeclarations: [lookup] }],
			toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
			ttl: '600s',
			displayName: 'Report',
		});
		expect(() => assertValid(node, cachedContentBodySchema, body, CACHED_CONTENT_LABELS)).not.toThrow();
	});
});
