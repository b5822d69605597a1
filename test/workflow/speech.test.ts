/**
 * Speech → Synthesize through n8n-core's engine over real HTTP to the
 * simulator: every output format in both stream formats gives the same bytes,
 * with the right media type, extension and JSON; the request on the wire
 * carries the form's members where the manual (docs/speech.md) says; refusals spend nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { readBinary, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { encodeSpeech } from '../simulator/speech/audio';
import { SPEECH_NODE as NODE, SPEECH_PATH as PATH, speechWorkflow } from './speech-workflow';

const TEXT =
	"Good morning. Here is today's summary: three new videos were rendered overnight, and the image queue is empty.";

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 1000 });
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

async function synthesize(parameters: IDataObject) {
	const result = await runWorkflow(speechWorkflow(parameters), { credentials: sim.credentials() });
	expect(result.error?.message).toBeUndefined();
	const [item] = result.output(NODE);
	return { item, bytes: await readBinary(item.binary!.data) };
}

const FORMATS = [
	{ format: 'mp3', mimeType: 'audio/mpeg', extension: 'mp3', sampleRate: 24000 },
	{ format: 'pcm', mimeType: 'audio/pcm', extension: 'pcm', sampleRate: 16000 },
	{ format: 'wav', mimeType: 'audio/wav', extension: 'wav', sampleRate: 22050 },
	{ format: 'opus', mimeType: 'audio/ogg', extension: 'opus', sampleRate: 48000 },
];

describe('Speech → Synthesize (workflow): formats and stream formats', () => {
	it.each(FORMATS)(
		'$format: audio and sse give identical bytes',
		async ({ format, mimeType, extension, sampleRate }) => {
			const options = { speed: 1.25 };
			const audio = await synthesize({ responseFormat: format, streamFormat: 'audio', sampleRate, options });
			const sse = await synthesize({ responseFormat: format, streamFormat: 'sse', sampleRate, options });

			const expected = encodeSpeech(format as 'mp3', {
				input: TEXT,
				voice: 'narrator_v3.1',
				sampleRate,
				rate: 1.25,
				seed: 0,
				volume: 50,
			});
			expect(audio.bytes.equals(expected)).toBe(true);
			expect(sse.bytes.equals(audio.bytes)).toBe(true);
			// The stream really came in pieces.
			expect(expected.length).toBeGreaterThan(3 * 1000);

			for (const { item } of [audio, sse]) {
				expect(item.binary!.data.mimeType).toBe(mimeType);
				expect(item.binary!.data.fileName).toBe(`speech.${extension}`);
				expect(item.json).toMatchObject({
					model: 'vendor/audioF-3.1-tts-flash',
					format,
					mimeType,
					fileSize: expected.length,
					fileName: `speech.${extension}`,
					sampleRate,
				});
			}
			expect(audio.item.json.usage).toBeUndefined();
			expect(audio.item.json.streamFormat).toBe('audio');
			expect(sse.item.json.streamFormat).toBe('sse');
			const usage = sse.item.json.usage as Record<string, number>;
			expect(Object.keys(usage).sort()).toEqual(['input_tokens', 'output_tokens', 'total_tokens']);
			expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
			expect(usage.input_tokens).toBeGreaterThan(0);
			if (format === 'pcm') expect(sse.item.json).toMatchObject({ sampleFormat: 's16le', channels: 1 });
			if (format === 'wav') {
				expect(sse.item.json).toMatchObject({ channels: 1, durationSeconds: expect.any(Number) });
				expect(audio.bytes.readUInt32LE(4)).toBe(audio.bytes.length - 8);
			}
		},
	);

	it('sends OpenAI members at the top level and extension members in extra_body', async () => {
		await synthesize({
			responseFormat: 'opus',
			streamFormat: 'audio',
			sampleRate: 12000,
			options: {
				voiceAs: 'object',
				instructions: 'Whisper',
				speed: 0.8,
				nativeRate: 1.5,
				nativeInstruction: 'Shout',
				seed: 4242,
				nativeStreaming: true,
				volume: 30,
				otherNumeric: { member: [{ name: 'pitch', value: -3 }] },
			},
			additionalBodyFields: '{"user": "n8n-test"}',
		});
		const [request] = sim.requestsTo(PATH).slice(-1);
		expect(request.headers.authorization).toBe(`Bearer ${sim.keys.bearer}`);
		expect(request.body).toEqual({
			model: 'vendor/audioF-3.1-tts-flash',
			input: TEXT,
			voice: { id: 'narrator_v3.1' },
			response_format: 'opus',
			stream_format: 'audio',
			instructions: 'Whisper',
			speed: 0.8,
			extra_body: {
				sample_rate: 12000,
				rate: 1.5,
				instruction: 'Shout',
				seed: 4242,
				stream: true,
				volume: 30,
				pitch: -3,
			},
			user: 'n8n-test',
		});
	});

	it('a free model ID is sent as typed; a member in Additional Body Fields overrides extra_body', async () => {
		const { item } = await synthesize({
			model: { __rl: true, mode: 'id', value: 'audioF-tts' },
			responseFormat: 'pcm',
			streamFormat: 'audio',
			additionalBodyFields: '{"sample_rate": 8000}',
		});
		const [request] = sim.requestsTo(PATH).slice(-1);
		expect((request.body as IDataObject).model).toBe('audioF-tts');
		// The top-level member wins at the gateway, and the JSON reports that rate.
		expect(item.json).toMatchObject({ model: 'audioF-tts', sampleRate: 8000, sampleFormat: 's16le' });
		expect(item.json.fileSize).toBe(
			encodeSpeech('pcm', {
				input: TEXT,
				voice: 'narrator_v3.1',
				sampleRate: 8000,
				rate: 1.1,
				seed: 0,
				volume: 50,
			}).length,
		);
	});

	it('several items give one file each, in order, with Max Concurrent Requests', async () => {
		const workflow = speechWorkflow({
			input: '={{ $json.line }}',
			responseFormat: 'wav',
			streamFormat: 'sse',
			requestOptions: { maxConcurrency: 3 },
		});
		const lines = ['One.', 'Two, a little longer.', 'Three is the longest line of them all.', 'Four.'];
		const result = await runWorkflow(workflow, {
			credentials: sim.credentials(),
			input: lines.map((line) => ({ json: { line } })),
		});
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out.map((item) => item.pairedItem)).toEqual(lines.map((_, item) => ({ item })));
		for (const [index, item] of out.entries()) {
			const expected = encodeSpeech('wav', {
				input: lines[index],
				voice: 'narrator_v3.1',
				sampleRate: 24000,
				rate: 1.1,
				seed: 0,
				volume: 50,
			});
			expect((await readBinary(item.binary!.data)).equals(expected)).toBe(true);
		}
	});

	it('the output file goes to the binary field the user names', async () => {
		const result = await runWorkflow(speechWorkflow({ options: { binaryPropertyName: 'narration' } }), {
			credentials: sim.credentials(),
		});
		const [item] = result.output(NODE);
		expect(Object.keys(item.binary!)).toEqual(['narration']);
	});
});

describe('Speech → Synthesize (workflow): refused before sending', () => {
	it.each([
		[
			'opus at 44100 Hz',
			{ responseFormat: 'opus', sampleRate: 44100 },
			'Sample Rate: 44100 Hz is not available with opus (it refuses 22050 and 44100)',
		],
		[
			'a voice of another version',
			{ voice: 'narrator_v3.0' },
			'Voice: must end with "_v3.1" for vendor/audioF-3.1-tts-flash (got "narrator_v3.0")',
		],
		[
			'4097 characters of text',
			{ input: 'x'.repeat(4097) },
			'Text: must be at most 4096 characters (has 4097)',
		],
		['seed 70000', { options: { seed: 70000 } }, 'Seed: must be from 0 to 65535'],
		[
			'an other numeric member named like a field',
			{ options: { otherNumeric: { member: [{ name: 'speed', value: 1 }] } } },
			'Options → Other Numeric Members: "speed" has its own field in this form: set it there',
		],
	])('%s', async (_name, parameters, message) => {
		const before = sim.requestsTo(PATH).length;
		const result = await runWorkflow(speechWorkflow(parameters), { credentials: sim.credentials() });
		expect(result.status).toBe('error');
		const error = result.nodeError(NODE) as unknown as Record<string, string>;
		expect(error.message).toBe(message);
		expect(error.description).toContain('The request was not sent to the gateway');
		expect(sim.requestsTo(PATH).length).toBe(before);
	});
});
