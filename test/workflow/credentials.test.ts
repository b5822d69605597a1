/**
 * Each credential type's `test` request, resolved as n8n resolves it and sent
 * with n8n's own HTTP client to the simulator: a good secret passes, a bad one
 * fails, and none of them creates or generates anything.
 */
import { credentialTestRequest, sendRequest } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

const TYPES = [
	['generationGatewayBearerApi', 'bearer', '/v1/user/balance'],
	['generationGatewayApiKeyApi', 'apiKey', '/v1/messages'],
	['generationGatewayNativeKeyApi', 'nativeKey', '/v1beta/cachedContents'],
] as const;

/**
 * As n8n's credential tester decides: the test fails when the request throws
 * (a non-2xx status the request does not ignore), and passes otherwise.
 */
async function credentialTestPasses(type: string, data: object): Promise<boolean> {
	try {
		await sendRequest(await credentialTestRequest(type, data as never));
		return true;
	} catch {
		return false;
	}
}

describe('credential tests against the simulator', () => {
	it.each(TYPES)('%s passes with a good secret', async (type, key, path) => {
		const before = sim.requestsTo(path).length;
		const data = sim.credentials()[type];
		expect(await credentialTestPasses(type, data)).toBe(true);
		const requests = sim.requestsTo(path).slice(before);
		expect(requests).toHaveLength(1);
		expect(requests[0].status).not.toBe(401);
		expect(key).toBeTruthy();
	});

	it.each(TYPES)('%s fails with a bad secret', async (type, key) => {
		const data = sim.credentials({ [key]: 'not-the-secret' })[type];
		expect(await credentialTestPasses(type, data)).toBe(false);
	});

	it.each(TYPES)('%s accepts a Base URL with a trailing slash', async (type) => {
		const data = { ...sim.credentials()[type], baseUrl: `${sim.url}/` };
		expect(await credentialTestPasses(type, data)).toBe(true);
	});

	it('the creating endpoints answer the incomplete test bodies with 400, so nothing is created or billed', async () => {
		for (const [type, , path] of TYPES.slice(1)) {
			const response = await sendRequest({
				...(await credentialTestRequest(type, sim.credentials()[type] as never)),
				returnFullResponse: true,
			});
			expect([path, response.statusCode]).toEqual([path, 400]);
		}
	});
});
