import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import {
	SPEECH_EXTENSION_MEMBERS,
	SPEECH_EXTRA_BODY,
	SPEECH_NATIVE_INSTRUCTION,
	SPEECH_NATIVE_RATE,
	SPEECH_NATIVE_STREAM,
	SPEECH_RESPONSE_FORMAT,
	SPEECH_SAMPLE_RATE,
	SPEECH_SEED,
	SPEECH_VOLUME,
} from './wireNames';
import type { SpeechFormat, SpeechFormatInfo, SpeechStreamFormat } from './catalog';
import { addIssue, atMostChars, isObject, oneOf } from '../../../shared/validation';
import {
	DEFAULT_SPEECH_FORMAT,
	SPEECH_FORMAT_VALUES,
	SPEECH_FORMATS,
	SPEECH_LIMITS,
	SPEECH_SAMPLE_RATES,
	SPEECH_STREAM_FORMATS,
	speechCatalog,
} from './catalog';

/**
 * Checks a speech body after Additional Body Fields (JSON) were merged, so a member
 * typed there is checked as strictly as the form's, at the top level and in `extra_body`.
 */

export const SPEECH_LABELS: Record<string, string> = {
	model: 'Model',
	input: 'Text',
	voice: 'Voice',
	instructions: 'Instructions',
	speed: 'Speed',
	stream_format: 'Stream Format',
	[SPEECH_RESPONSE_FORMAT]: 'Output Format',
	[SPEECH_EXTRA_BODY]: 'Additional Body Fields (JSON) extra_body',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_SAMPLE_RATE}`]: 'Sample Rate',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_NATIVE_RATE}`]: 'Native Rate',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_SEED}`]: 'Seed',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_NATIVE_INSTRUCTION}`]: 'Native Instruction',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_NATIVE_STREAM}`]: 'Native Streaming Generation',
	[`${SPEECH_EXTRA_BODY}.${SPEECH_VOLUME}`]: 'Volume',
	// Extension members at the top level can only come from Additional Body Fields.
	...Object.fromEntries(
		SPEECH_EXTENSION_MEMBERS.map((name) => [name, `Additional Body Fields (JSON) ${name}`]),
	),
};

const between = ({ min, max }: { min: number; max: number }, { integer = false } = {}) =>
	z
		.number({ invalid_type_error: `must be a number from ${min} to ${max}` })
		.refine((v) => !integer || Number.isInteger(v), { message: 'must be a whole number' })
		.refine((v) => v >= min && v <= max, { message: `must be from ${min} to ${max}` });

const atMost = (max: number) => atMostChars(z.string({ invalid_type_error: 'must be text' }), max);

const extensionMembers = {
	[SPEECH_SAMPLE_RATE]: z
		.number({ invalid_type_error: 'must be a number' })
		.refine((v) => (SPEECH_SAMPLE_RATES as readonly number[]).includes(v), {
			message: `must be one of ${SPEECH_SAMPLE_RATES.join(', ')}`,
		})
		.optional(),
	[SPEECH_NATIVE_RATE]: between(SPEECH_LIMITS.rate).optional(),
	[SPEECH_SEED]: between(SPEECH_LIMITS.seed, { integer: true }).optional(),
	[SPEECH_NATIVE_INSTRUCTION]: z.string({ invalid_type_error: 'must be text' }).optional(),
	[SPEECH_NATIVE_STREAM]: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
	[SPEECH_VOLUME]: between(SPEECH_LIMITS.volume, { integer: true }).optional(),
};

const voiceId = z
	.string({ invalid_type_error: 'must be a voice name' })
	.refine((v) => v.trim().length > 0, { message: 'must not be empty' });

export const speechBodySchema = z
	.object({
		model: z
			.string({ required_error: 'is required', invalid_type_error: 'must be a model ID' })
			.refine((v) => v.trim().length > 0, { message: 'is required' }),
		input: atMost(SPEECH_LIMITS.maxInputChars).refine((v) => v.trim().length > 0, {
			message: 'must not be empty: there is nothing to read',
		}),
		voice: z.union([voiceId, z.object({ id: voiceId }).passthrough()], {
			errorMap: () => ({ message: 'must be a voice name or an object with a non-empty "id"' }),
		}),
		instructions: atMost(SPEECH_LIMITS.maxInstructionsChars).optional(),
		speed: between(SPEECH_LIMITS.speed).optional(),
		stream_format: oneOf(SPEECH_STREAM_FORMATS).optional(),
		[SPEECH_RESPONSE_FORMAT]: oneOf(SPEECH_FORMAT_VALUES).optional(),
		[SPEECH_EXTRA_BODY]: z
			.object(extensionMembers, { invalid_type_error: 'must be an object' })
			.passthrough()
			.optional(),
		...extensionMembers,
	})
	.passthrough()
	.superRefine((body, ctx) => {
		const model = speechCatalog.resolve(body.model);
		const voice = typeof body.voice === 'string' ? body.voice : body.voice.id;
		if (model && !voice.endsWith(model.voiceSuffix)) {
			const path = typeof body.voice === 'string' ? ['voice'] : ['voice', 'id'];
			addIssue(ctx, path, `must end with "${model.voiceSuffix}" for ${model.id} (got "${voice}")`);
		}
		const { sampleRate, format, info } = effectiveSpeechOutput(body as IDataObject);
		if (sampleRate !== undefined && info.refusedSampleRates.includes(sampleRate)) {
			const refused = info.refusedSampleRates.join(' and ');
			const message = `${sampleRate} Hz is not available with ${format} (it refuses ${refused})`;
			addIssue(ctx, effectivePath(body as IDataObject, SPEECH_SAMPLE_RATE), message);
		}
	});

/** Where an extension member's effective value sits: the top level wins over `extra_body`. */
function effectivePath(body: IDataObject, name: string): string[] {
	return body[name] !== undefined ? [name] : [SPEECH_EXTRA_BODY, name];
}

function effectiveExtensionMember(body: IDataObject, name: string): unknown {
	if (body[name] !== undefined) return body[name];
	const extra = body[SPEECH_EXTRA_BODY];
	return isObject(extra) ? extra[name] : undefined;
}

interface SpeechOutput {
	format: SpeechFormat;
	info: SpeechFormatInfo;
	sampleRate?: number;
	streamFormat: SpeechStreamFormat;
}

export function effectiveSpeechOutput(body: IDataObject): SpeechOutput {
	const requested = body[SPEECH_RESPONSE_FORMAT];
	const format = (SPEECH_FORMAT_VALUES as readonly unknown[]).includes(requested)
		? (requested as SpeechFormat)
		: DEFAULT_SPEECH_FORMAT;
	const sampleRate = effectiveExtensionMember(body, SPEECH_SAMPLE_RATE);
	return {
		format,
		info: SPEECH_FORMATS[format],
		sampleRate: typeof sampleRate === 'number' ? sampleRate : undefined,
		streamFormat: body.stream_format === 'sse' ? 'sse' : 'audio',
	};
}
