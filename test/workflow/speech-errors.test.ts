/**
 * Speech → Synthesize failures through the engine: the documented error
 * envelope reaches the user whole (the interface's Errors section), a broken
 * SSE stream fails clearly and a generation is never sent twice by accident.
 */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { SPEECH_NODE as NODE, SPEECH_PATH as PATH, speechWorkflow } from './speech-workflow';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 700 });
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

async function failure(parameters: IDataObject = {}, credentials = sim.credentials()) {
	const before = sim.requestsTo(PATH).length;
	const result = await runWorkflow(speechWorkflow(parameters), { credentials });
	expect(result.status).toBe('error');
	const error = result.nodeError(NODE) as unknown as Record<string, unknown> & { context: IDataObject };
	return { error, attempts: sim.requestsTo(PATH).length - before };
}

const envelope = (message: string, type: string, code: string, param: string) => ({
	error: { message, type, code, param },
});

describe('Speech → Synthesize (workflow): gateway errors arrive whole', () => {
	it('400 from the gateway (a free model ID with a voice of another version)', async () => {
		const { error, attempts } = await failure({
			model: { __rl: true, mode: 'id', value: 'audioF-tts' },
			voice: 'narrator_v2',
		});
		expect(error.message).toBe(
			'voice narrator_v2 does not match model vendor/audioF-3.1-tts-flash: use a voice ending in _v3.1',
		);
		expect(error.httpCode).toBe('400');
		expect(error.description).toContain('type: invalid_request_error');
		expect(error.description).toContain('code: voice_model_mismatch');
		expect(error.description).toContain('param: voice');
		expect(attempts).toBe(1);
	});

	it('401 for a bad token', async () => {
		const { error } = await failure({}, sim.credentials({ bearer: 'nope' }));
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('type: authentication_error');
		expect(error.description).toContain('code: invalid_credentials');
	});

	it('404 for a model the gateway does not have', async () => {
		const { error } = await failure({
			model: { __rl: true, mode: 'id', value: 'vendor/unknown-tts' },
			voice: 'x',
		});
		expect(error.message).toBe('The model vendor/unknown-tts is not in the model catalog');
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('code: model_not_found');
		expect(error.description).toContain('param: model');
	});

	it.each([
		[
			402,
			envelope('Insufficient balance for this synthesis', 'insufficient_quota', 'balance_low', 'model'),
			1,
			'Top up the balance',
		],
		[
			429,
			envelope('Too many speech requests', 'rate_limit_error', 'rate_limited', 'voice'),
			3,
			'rate-limiting',
		],
		[
			500,
			envelope('The speech upstream failed', 'api_error', 'upstream_error', 'input'),
			1,
			'Do not simply run it again',
		],
		[
			503,
			envelope('Speech is overloaded', 'api_error', 'overloaded', 'stream_format'),
			1,
			'Do not simply run it again',
		],
	])(
		'%i: message, type, code, param, status and hint reach the user',
		async (status, body, attempts, hint) => {
			sim.inject({
				path: PATH,
				times: Infinity,
				fault: { kind: 'status', status, body, retryAfter: status === 429 ? '0' : undefined },
			});
			const result = await failure();
			const { message, type, code, param } = body.error;
			// A 5xx may come after the synthesis ran: the message says so first (never "retry").
			expect(result.error.message).toBe(
				status >= 500
					? `The gateway may have done this work and charged for it: the gateway answered HTTP ${status} (${message})`
					: message,
			);
			expect(result.error.httpCode).toBe(String(status));
			for (const fact of [`type: ${type}`, `code: ${code}`, `param: ${param}`, hint]) {
				expect(result.error.description).toContain(fact);
			}
			// A generation is retried only when the gateway surely did not take it (a 429 refusal).
			expect(result.attempts).toBe(attempts);
		},
	);

	it('with continue-on-fail the error becomes the item', async () => {
		sim.inject({
			path: PATH,
			fault: { kind: 'status', status: 402, body: envelope('No credit', 'insufficient_quota', 'quota', '') },
		});
		const result = await runWorkflow(speechWorkflow({}, { onError: 'continueRegularOutput' }), {
			credentials: sim.credentials(),
		});
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json).toMatchObject({ error: 'No credit' });
	});
});

describe('Speech → Synthesize (workflow): broken streams', () => {
	it('a stream cut before speech.audio.done fails and saves nothing', async () => {
		sim.inject({ path: PATH, fault: { kind: 'sse-truncate' } });
		const { error, attempts } = await failure({ streamFormat: 'sse' });
		expect(error.message).toMatch(
			/^The speech stream failed: the stream ended before its final speech\.audio\.done event \(\d+ audio pieces, \d+ bytes received\)/,
		);
		expect(attempts).toBe(1);
	});

	it('a malformed event fails naming it', async () => {
		sim.inject({ path: PATH, fault: { kind: 'sse-malformed' } });
		const { error } = await failure({ streamFormat: 'sse' });
		expect(error.message).toMatch(
			/^The speech stream failed: the stream sent a malformed "message" event: \{"type": broken/,
		);
	});

	it('a WAV file that is not whole is refused, not saved', async () => {
		// 'RIFF' announcing 100 more bytes, then only 'WAVE': a cut file.
		const rawBody = 'RIFF\u0064\u0000\u0000\u0000WAVE';
		sim.inject({ path: PATH, fault: { kind: 'status', status: 200, rawBody, contentType: 'audio/wav' } });
		const { error } = await failure({ responseFormat: 'wav', streamFormat: 'audio' });
		expect(error.message).toBe(
			'The WAV audio is not a whole file: the RIFF header announces 108 bytes but 12 arrived',
		);
	});

	it('a 200 answer with JSON instead of audio is reported, not saved as a file', async () => {
		sim.inject({
			path: PATH,
			fault: { kind: 'status', status: 200, rawBody: '{"note":"queued"}', contentType: 'application/json' },
		});
		const { error } = await failure({ streamFormat: 'audio' });
		expect(error.message).toBe('The gateway answered with application/json instead of audio');
		expect(error.description).toBe('{"note":"queued"}');
	});

	it('a dropped connection on a generation is reported, not repeated', async () => {
		sim.inject({ path: PATH, fault: { kind: 'drop' } });
		const { attempts } = await failure({ streamFormat: 'audio' });
		expect(attempts).toBe(1);
	});
});
