import { RequestInvalid, invalid } from '../http';
import type { AudioFormat, VoiceRequest } from './audio';

/**
 * The simulator's own reading of POST /v1/audio/speech (written from the
 * interface, not from the package's schema, so the two check each other).
 *
 * Wire names the interface does not show are the package's documented
 * assumptions (docs/assumed-field-names.md): response_format, sample_rate,
 * seed, stream (native streaming flag), volume.
 */

interface SimSpeechModel {
	id: string;
	voiceSuffix: string;
}

/** The gateway's model catalog. `audioF-tts` is a simulator-only alias, to exercise free model IDs. */
const MODELS: SimSpeechModel[] = [{ id: 'vendor/audioF-3.1-tts-flash', voiceSuffix: '_v3.1' }];
const ALIASES: Record<string, string> = { 'audioF-tts': 'vendor/audioF-3.1-tts-flash' };

const FORMATS = ['mp3', 'pcm', 'wav', 'opus'];
const SAMPLE_RATES = [8000, 12000, 16000, 22050, 24000, 44100, 48000];
const OPUS_REFUSES = [22050, 44100];
/** When a request names no sample rate. The interface gives none; 24 kHz is OpenAI's. */
export const SIM_DEFAULT_SAMPLE_RATE = 24000;

export interface SpeechJob extends VoiceRequest {
	model: string;
	format: AudioFormat;
	streamFormat: 'audio' | 'sse';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const length = (text: string) => [...text].length;

function findModel(id: string): SimSpeechModel | undefined {
	const base = id.replace(/-\d{4}-\d{2}-\d{2}$/, '');
	const resolved = ALIASES[id] ?? ALIASES[base] ?? id;
	return MODELS.find((m) => m.id === resolved) ?? MODELS.find((m) => m.id === base);
}

function numberIn(
	param: string,
	value: unknown,
	min: number,
	max: number,
	integer = false,
): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value)) invalid(param, `${param} must be a number`);
	if (integer && !Number.isInteger(value)) invalid(param, `${param} must be an integer`);
	if (value < min || value > max) invalid(param, `${param} must be between ${min} and ${max}`);
	return value;
}

/** Validates a request body; throws the 400 (or 404 for an unknown model) the gateway would send. */
export function readSpeechRequest(body: unknown): SpeechJob {
	if (!isObject(body)) invalid('body', 'The request body must be a JSON object');
	const { model, input, voice, instructions, speed, stream_format, response_format, extra_body } = body;
	if (typeof model !== 'string' || model.length < 1) invalid('model', 'model is required');
	const known = findModel(model);
	if (!known)
		throw new RequestInvalid(
			'model',
			`The model ${model} is not in the model catalog`,
			'model_not_found',
			404,
		);
	if (typeof input !== 'string') invalid('input', 'input is required and must be a string');
	if (length(input) > 4096)
		invalid('input', 'input must be at most 4096 characters', 'string_above_max_length');

	const voiceId = typeof voice === 'string' ? voice : isObject(voice) ? voice.id : undefined;
	if (typeof voiceId !== 'string' || voiceId.length < 1) {
		invalid('voice', 'voice must be a non-empty name or an object with a non-empty id');
	}
	if (!voiceId.endsWith(known.voiceSuffix)) {
		invalid(
			'voice',
			`voice ${voiceId} does not match model ${known.id}: use a voice ending in ${known.voiceSuffix}`,
			'voice_model_mismatch',
		);
	}
	if (instructions !== undefined && typeof instructions !== 'string')
		invalid('instructions', 'instructions must be a string');
	if (typeof instructions === 'string' && length(instructions) > 4096) {
		invalid('instructions', 'instructions must be at most 4096 characters', 'string_above_max_length');
	}
	const speedValue = numberIn('speed', speed, 0.5, 2);
	if (stream_format !== undefined && stream_format !== 'audio' && stream_format !== 'sse') {
		invalid('stream_format', 'stream_format must be audio or sse');
	}
	const format = response_format ?? 'mp3';
	if (typeof format !== 'string' || !FORMATS.includes(format)) {
		invalid('response_format', `response_format must be one of ${FORMATS.join(', ')}`);
	}
	if (extra_body !== undefined && !isObject(extra_body))
		invalid('extra_body', 'extra_body must be an object');

	// Extension members: top level wins over extra_body; only one level is unwrapped.
	const member = (name: string): unknown => (body[name] !== undefined ? body[name] : extra_body?.[name]);
	const sampleRate = member('sample_rate') ?? SIM_DEFAULT_SAMPLE_RATE;
	if (typeof sampleRate !== 'number' || !SAMPLE_RATES.includes(sampleRate)) {
		invalid('sample_rate', `sample_rate must be one of ${SAMPLE_RATES.join(', ')}`);
	}
	if (format === 'opus' && OPUS_REFUSES.includes(sampleRate)) {
		invalid('sample_rate', `opus does not support a sample rate of ${sampleRate}`, 'unsupported_sample_rate');
	}
	const rate = numberIn('rate', member('rate'), 0.5, 2);
	const seed = numberIn('seed', member('seed'), 0, 65535, true);
	const volume = numberIn('volume', member('volume'), 0, 100, true);
	const instruction = member('instruction');
	if (instruction !== undefined && typeof instruction !== 'string')
		invalid('instruction', 'instruction must be a string');
	const stream = member('stream');
	if (stream !== undefined && typeof stream !== 'boolean') invalid('stream', 'stream must be a boolean');

	return {
		model: known.id,
		input,
		voice: voiceId,
		format: format as AudioFormat,
		streamFormat: stream_format === 'sse' ? 'sse' : 'audio',
		sampleRate,
		rate: speedValue ?? rate ?? 1, // speed wins over the native rate
		seed: seed ?? 0,
		volume: volume ?? 50,
	};
}
