import type { IDataObject, INode } from 'n8n-workflow';

import {
	buildSpeechBody,
	mergeAdditionalSpeechBody,
	otherNumericProblem,
	type SpeechFormValues,
} from '../../../nodes/GenerationGateway/actions/speech/body';
import {
	SPEECH_LABELS,
	effectiveSpeechOutput,
	speechBodySchema,
} from '../../../nodes/GenerationGateway/actions/speech/schema';
import { assertValid } from '../../../nodes/shared/validation';
import { RequestInvalid } from '../../simulator/http';
import { readSpeechRequest } from '../../simulator/speech/validate';

/**
 * Every rule of POST /v1/audio/speech (interface: the endpoint's table, the
 * extension members paragraph, Limits) as accepted and rejected examples.
 * Each row runs through the node's check (message names the form field) AND
 * through the simulator's independent reading, which must agree.
 */

const node = {
	id: 'n',
	name: 'Speech',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

const BASE: SpeechFormValues = {
	model: 'vendor/audioF-3.1-tts-flash',
	input: 'Hello there.',
	voice: 'narrator_v3.1',
	voiceAs: 'name',
	responseFormat: 'mp3',
	streamFormat: 'audio',
	sampleRate: 24000,
};

interface Row {
	name: string;
	form?: Partial<SpeechFormValues>;
	/** "Additional Body Fields (JSON)". */
	additional?: IDataObject;
	/** The node's refusal, or undefined when the request is accepted. */
	refused?: RegExp;
	/** Where the simulator's verdict differs from the node's, and why. */
	simulator?: { accepts: boolean; why: string };
}

const text = (n: number, char = 'a') => char.repeat(n);

const ROWS: Row[] = [
	{ name: 'catalogued model with a matching voice' },
	{ name: 'model is required', form: { model: '  ' }, refused: /^Model: is required/ },
	{
		name: 'an uncatalogued model is sent as typed (the gateway judges it)',
		form: { model: 'vendor/other-tts', voice: 'anyone' },
		simulator: { accepts: false, why: 'not in the gateway catalog: 404' },
	},
	{ name: 'simulator alias is sent as typed', form: { model: 'audioF-tts' } },
	{
		name: 'a dated snapshot behaves as its base model (voice suffix checked)',
		form: { model: 'vendor/audioF-3.1-tts-flash-2026-01-15', voice: 'narrator_v3.0' },
		refused: /^Voice: must end with "_v3\.1"/,
	},
	{ name: 'input of 4096 characters', form: { input: text(4096) } },
	{ name: 'input of 4096 emoji counts characters, not UTF-16 units', form: { input: text(4096, '🙂') } },
	{
		name: 'input over 4096 characters',
		form: { input: text(4097) },
		refused: /^Text: must be at most 4096 characters \(has 4097\)/,
	},
	{
		name: 'empty input',
		form: { input: '  ' },
		refused: /^Text: must not be empty/,
		simulator: { accepts: true, why: 'the interface sets no minimum; the node refuses nothing-to-read' },
	},
	{ name: 'voice must not be empty', form: { voice: '' }, refused: /^Voice: must not be empty/ },
	{ name: 'voice as an object with id', form: { voiceAs: 'object' } },
	{ name: 'voice object with an empty id', form: { voiceAs: 'object', voice: '' }, refused: /^Voice/ },
	{
		name: 'voice suffix of another version',
		form: { voice: 'narrator_v3.0' },
		refused: /^Voice: must end with "_v3\.1" for vendor\/audioF-3\.1-tts-flash/,
	},
	{
		name: 'voice object suffix checked too',
		form: { voiceAs: 'object', voice: 'narrator_v3' },
		refused: /^Voice \(id\): must end with "_v3\.1"/,
	},
	{
		name: 'voice given as neither text nor object',
		additional: { voice: 7 },
		refused: /^Voice: must be a voice name or an object/,
	},
	{ name: 'instructions of 4096 characters', form: { instructions: text(4096) } },
	{
		name: 'instructions over 4096 characters',
		form: { instructions: text(4097) },
		refused: /^Instructions: must be at most 4096/,
	},
	{ name: 'speed 0.5', form: { speed: 0.5 } },
	{ name: 'speed 2', form: { speed: 2 } },
	{ name: 'speed below 0.5', form: { speed: 0.49 }, refused: /^Speed: must be from 0.5 to 2/ },
	{ name: 'speed above 2', form: { speed: 2.01 }, refused: /^Speed: must be from 0.5 to 2/ },
	{ name: 'native rate 0.5 and 2', form: { nativeRate: 0.5 }, additional: { extra_body: { rate: 2 } } },
	{
		name: 'native rate below 0.5',
		form: { nativeRate: 0.4 },
		refused: /^Native Rate: must be from 0.5 to 2/,
	},
	{ name: 'native rate above 2', form: { nativeRate: 2.5 }, refused: /^Native Rate: must be from 0.5 to 2/ },
	{ name: 'speed and rate both set: sent, speed wins at the gateway', form: { speed: 1.5, nativeRate: 0.7 } },
	{
		name: 'instructions and instruction both set: sent',
		form: { instructions: 'calm', nativeInstruction: 'lively' },
	},
	{ name: 'seed 0', form: { seed: 0 } },
	{ name: 'seed 65535', form: { seed: 65535 } },
	{ name: 'seed above 65535', form: { seed: 65536 }, refused: /^Seed: must be from 0 to 65535/ },
	{ name: 'seed below 0', form: { seed: -1 }, refused: /^Seed: must be from 0 to 65535/ },
	{ name: 'seed not whole', form: { seed: 1.5 }, refused: /^Seed: must be a whole number/ },
	{ name: 'volume 0 and 100', form: { volume: 0 }, additional: { volume: 100 } },
	{ name: 'volume above 100', form: { volume: 101 }, refused: /^Volume: must be from 0 to 100/ },
	{ name: 'volume not whole', form: { volume: 50.5 }, refused: /^Volume: must be a whole number/ },
	{ name: 'native streaming flag', form: { nativeStreaming: true } },
	{
		name: 'native streaming flag must be boolean',
		additional: { stream: 'yes' },
		refused: /^Additional Body Fields \(JSON\) stream: must be true or false/,
	},
	...[8000, 12000, 16000, 22050, 24000, 44100, 48000].map((rate) => ({
		name: `sample rate ${rate}`,
		form: { sampleRate: rate },
	})),
	{
		name: 'sample rate outside the enum',
		form: { sampleRate: 11025 },
		refused: /^Sample Rate: must be one of 8000, 12000/,
	},
	{
		name: 'opus refuses 22050',
		form: { responseFormat: 'opus', sampleRate: 22050 },
		refused: /^Sample Rate: 22050 Hz is not available with opus/,
	},
	{
		name: 'opus refuses 44100',
		form: { responseFormat: 'opus', sampleRate: 44100 },
		refused: /^Sample Rate: 44100 Hz is not available with opus/,
	},
	{ name: 'opus at 48000', form: { responseFormat: 'opus', sampleRate: 48000 } },
	{ name: 'mp3 at 22050', form: { sampleRate: 22050 } },
	...(['pcm', 'wav', 'opus'] as const).map((format) => ({
		name: `format ${format}`,
		form: { responseFormat: format },
	})),
	{
		name: 'format outside the enum',
		additional: { response_format: 'flac' },
		refused: /^Output Format: must be one of mp3, pcm, wav, opus/,
	},
	{ name: 'stream format sse', form: { streamFormat: 'sse' } },
	{
		name: 'stream format outside the enum',
		additional: { stream_format: 'chunked' },
		refused: /^Stream Format: must be one of audio, sse/,
	},
	{
		name: 'a top-level member wins over extra_body (opus, 48000 over 22050)',
		form: { responseFormat: 'opus', sampleRate: 22050 },
		additional: { sample_rate: 48000 },
	},
	{
		name: 'the winning top-level member is the one checked',
		form: { responseFormat: 'opus', sampleRate: 48000 },
		additional: { sample_rate: 44100 },
		refused: /^Additional Body Fields \(JSON\) sample_rate: 44100 Hz is not available with opus/,
	},
	{
		name: 'extra_body typed in Additional Body Fields is checked',
		additional: { extra_body: { seed: 70000 } },
		refused: /^Seed: must be from 0 to 65535/,
	},
	{
		name: 'other numeric members travel in extra_body',
		form: { otherNumeric: [{ name: 'pitch', value: 3 }] },
	},
];

describe('POST /v1/audio/speech rules', () => {
	it.each(ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
		const body = mergeAdditionalSpeechBody(buildSpeechBody({ ...BASE, ...row.form }), row.additional ?? {});
		let refusal: string | undefined;
		try {
			assertValid(node, speechBodySchema, body, SPEECH_LABELS);
		} catch (error) {
			refusal = (error as Error).message;
			expect((error as { description?: string }).description).toMatch(/not sent to the gateway/);
		}
		if (row.refused) expect(refusal).toMatch(row.refused);
		else expect(refusal).toBeUndefined();

		const simulatorAccepts = row.simulator?.accepts ?? !row.refused;
		let simulatorError: unknown;
		try {
			readSpeechRequest(JSON.parse(JSON.stringify(body)));
		} catch (error) {
			simulatorError = error;
		}
		if (simulatorAccepts) expect(simulatorError).toBeUndefined();
		else expect(simulatorError).toBeInstanceOf(RequestInvalid);
	});
});

describe('body building', () => {
	it('puts OpenAI members at the top level and extension members in extra_body', () => {
		const body = buildSpeechBody({
			...BASE,
			voiceAs: 'object',
			instructions: 'warm',
			speed: 1.25,
			nativeRate: 0.8,
			nativeInstruction: 'bright',
			seed: 42,
			nativeStreaming: true,
			volume: 70,
			otherNumeric: [{ name: 'pitch', value: -2 }],
		});
		expect(body).toEqual({
			model: 'vendor/audioF-3.1-tts-flash',
			input: 'Hello there.',
			voice: { id: 'narrator_v3.1' },
			response_format: 'mp3',
			stream_format: 'audio',
			instructions: 'warm',
			speed: 1.25,
			extra_body: {
				sample_rate: 24000,
				rate: 0.8,
				instruction: 'bright',
				seed: 42,
				stream: true,
				volume: 70,
				pitch: -2,
			},
		});
	});

	it('sends optional members only when set', () => {
		expect(buildSpeechBody(BASE)).toEqual({
			model: 'vendor/audioF-3.1-tts-flash',
			input: 'Hello there.',
			voice: 'narrator_v3.1',
			response_format: 'mp3',
			stream_format: 'audio',
			extra_body: { sample_rate: 24000 },
		});
	});

	it('merges an additional extra_body member by member and lets top-level members override', () => {
		const merged = mergeAdditionalSpeechBody(buildSpeechBody({ ...BASE, seed: 1 }), {
			extra_body: { pitch: 2 },
			response_format: 'wav',
		});
		expect(merged.extra_body).toEqual({ sample_rate: 24000, seed: 1, pitch: 2 });
		expect(effectiveSpeechOutput(merged)).toMatchObject({
			format: 'wav',
			sampleRate: 24000,
			streamFormat: 'audio',
		});
		expect(effectiveSpeechOutput({ ...merged, sample_rate: 8000 }).sampleRate).toBe(8000);
	});

	it.each([
		['pitch', 1, undefined],
		['1pitch', 1, /not a member name/],
		['speed', 1, /has its own field/],
		['sample_rate', 1, /has its own field/],
		['pitch', Number.NaN, /needs a number/],
	])('other numeric member %s = %s', (name, value, problem) => {
		const found = otherNumericProblem(name, value);
		if (problem) expect(found).toMatch(problem);
		else expect(found).toBeUndefined();
	});
});
