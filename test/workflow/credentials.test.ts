/**
 * Each credential type's `test` request, resolved as n8n resolves it and sent
 * with n8n's own HTTP client to the simulator: a good secret passes, a bad one
 * fails with the gateway's 401, and none of them creates or generates anything.
 */
import { credentialTestRequest, sendRequest } from '../harness';
import type { LooseJson } from '../harness/json';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

/**
 * Type, the simulator's key it carries, the path its test calls, the header the secret goes in, and
 * the status a good secret gets (the creating endpoints refuse the incomplete body, which the test ignores).
 */
const TYPES = [
	['generationGatewayBearerApi', 'bearer', '/v1/user/balance', 'authorization', 200],
	['generationGatewayApiKeyApi', 'apiKey', '/v1/messages', 'x-api-key', 400],
	['generationGatewayNativeKeyApi', 'nativeKey', '/v1beta/cachedContents', 'x-native-api-key', 400],
] as const;

/** What n8n's credential tester would show, and what the gateway answered (no status: no answer came). */
interface CredentialTestOutcome {
	passed: boolean;
	status?: number;
	/** The gateway's error envelope (`error.code: error.message`), or the client's error code. */
	error?: string;
}

/**
 * As n8n's credential tester decides: the test fails when the request throws
 * (a non-2xx status the request does not ignore), and passes otherwise.
 */
async function credentialTest(type: string, data: object): Promise<CredentialTestOutcome> {
	try {
		const response = await sendRequest(await credentialTestRequest(type, data as never));
		return { passed: true, status: response.statusCode };
	} catch (caught) {
		const failure = caught as { code?: string; response?: { status?: number; data?: LooseJson } };
		const envelope = failure.response?.data?.error;
		return {
			passed: false,
			status: failure.response?.status,
			error: envelope ? `${envelope.code}: ${envelope.message}` : failure.code,
		};
	}
}

describe('credential tests against the simulator', () => {
	it.each(TYPES)('%s passes with a good secret', async (type, key, path, header, status) => {
		const before = sim.requestsTo(path).length;
		const outcome = await credentialTest(type, sim.credentials()[type]);
		const requests = sim.requestsTo(path).slice(before);
		expect(outcome).toEqual({ passed: true, status });
		expect(requests).toHaveLength(1);
		// The secret went in its mechanism's header, and in no other.
		const secret = sim.keys[key];
		const carrying = Object.entries(requests[0].headers).filter(([, value]) => String(value).includes(secret));
		expect(carrying).toEqual([[header, header === 'authorization' ? `Bearer ${secret}` : secret]]);
	});

	it.each(TYPES)('%s fails with a bad secret', async (type, key, path) => {
		const before = sim.requestsTo(path).length;
		const outcome = await credentialTest(type, sim.credentials({ [key]: 'not-the-secret' })[type]);
		expect(outcome).toEqual({
			passed: false,
			status: 401,
			error: expect.stringMatching(/^invalid_credentials: Invalid or missing (auth token|API key)/),
		});
		expect(sim.requestsTo(path).slice(before).map((r) => r.status)).toEqual([401]);
	});

	it.each(TYPES)('%s accepts a Base URL with a trailing slash', async (type, _key, path) => {
		const data = { ...sim.credentials()[type], baseUrl: `${sim.url}/` };
		const before = sim.requestsTo(path).length;
		expect(await credentialTest(type, data)).toMatchObject({ passed: true });
		expect(sim.requestsTo(path).slice(before)).toHaveLength(1);
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
