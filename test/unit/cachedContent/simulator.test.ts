import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import type { LooseJson } from '../../harness/json';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

async function post(body: unknown) {
	const response = await fetch(`${sim.url}/v1beta/cachedContents`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-native-api-key': sim.keys.nativeKey },
		body: JSON.stringify(body),
	});
	return { status: response.status, json: (await response.json()) as LooseJson };
}

const base = { model: 'models/native-model-1', contents: [{ role: 'user', parts: [{ text: 'doc' }] }] };
const tools = [{ functionDeclarations: [{ name: 'f' }] }];

/** The simulator checks the interface's rules on its own: accepted and rejected bodies. */
const rows: Array<[string, Record<string, unknown>, string | undefined]> = [
	['minimal', {}, undefined],
	['bare model', { model: 'native-model-1' }, 'model'],
	['no contents', { contents: [] }, 'contents'],
	['role assistant', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
	['no parts', { contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts'],
	[
		'duplicate function',
		{ tools: [{ functionDeclarations: [{ name: 'f' }, { name: 'f' }] }] },
		'tools[0].functionDeclarations[1].name',
	],
	[
		'allowed names with AUTO',
		{ tools, toolConfig: { functionCallingConfig: { mode: 'AUTO', allowedFunctionNames: ['f'] } } },
		'toolConfig.functionCallingConfig.allowedFunctionNames',
	],
	[
		'allowed name undeclared',
		{ tools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['g'] } } },
		'toolConfig.functionCallingConfig.allowedFunctionNames',
	],
	[
		'allowed names with VALIDATED',
		{ tools, toolConfig: { functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['f'] } } },
		undefined,
	],
	['ttl and expireTime', { ttl: '60s', expireTime: '2031-01-01T00:00:00Z' }, 'ttl'],
	['ttl 60', { ttl: '60' }, 'ttl'],
	['expireTime no zone', { expireTime: '2031-01-01T00:00:00' }, 'expireTime'],
	['displayName 129', { displayName: 'x'.repeat(129) }, 'displayName'],
];

describe('simulator: POST /v1beta/cachedContents', () => {
	it.each(rows)('%s', async (_name, change, param) => {
		const { status, json } = await post({ ...base, ...change });
		if (param === undefined) {
			expect(status).toBe(200);
			expect(json.name).toMatch(/^cachedContents\/[^/]+$/);
		} else {
			expect(status).toBe(400);
			expect(json.error.param).toBe(param);
		}
	});

	it('returns expireTime for a ttl and for an expireTime request', async () => {
		const at = Date.now();
		const ttl = (await post({ ...base, ttl: '120.5s' })).json;
		expect(Date.parse(ttl.expireTime) - at).toBeGreaterThanOrEqual(119_000);
		expect((await post({ ...base, expireTime: '2031-01-01T01:00:00+01:00' })).json.expireTime).toBe(
			'2031-01-01T00:00:00.000Z',
		);
	});
});
