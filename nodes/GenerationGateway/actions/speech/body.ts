import type { IDataObject } from 'n8n-workflow';

import {
	SPEECH_EXTRA_BODY,
	SPEECH_NATIVE_INSTRUCTION,
	SPEECH_NATIVE_RATE,
	SPEECH_NATIVE_STREAM,
	SPEECH_RESPONSE_FORMAT,
	SPEECH_SAMPLE_RATE,
	SPEECH_SEED,
	SPEECH_VOLUME,
} from './wireNames';
import type { SpeechFormat, SpeechStreamFormat } from './catalog';
import { SPEECH_LABELS } from './schema';
import { isObject } from '../../../shared/validation';

/** The speech body from the form's values, without n8n; schema.ts checks the merged body. */

export interface SpeechFormValues {
	model: string;
	input: string;
	voice: string;
	/** Send the voice as a name (`"x_v3.1"`) or as an object (`{"id": "x_v3.1"}`). */
	voiceAs: 'name' | 'object';
	responseFormat: SpeechFormat;
	streamFormat: SpeechStreamFormat;
	sampleRate: number;
	instructions?: string;
	speed?: number;
	nativeRate?: number;
	nativeInstruction?: string;
	seed?: number;
	nativeStreaming?: boolean;
	volume?: number;
	/** Sent in `extra_body`. */
	otherNumeric?: Array<{ name: string; value: number }>;
}

/** They have their own fields. */
const RESERVED_NAMES = new Set([...Object.keys(SPEECH_LABELS).filter((k) => !k.includes('.'))]);

export function buildSpeechBody(values: SpeechFormValues): IDataObject {
	const extra: IDataObject = { [SPEECH_SAMPLE_RATE]: values.sampleRate };
	if (values.nativeRate !== undefined) extra[SPEECH_NATIVE_RATE] = values.nativeRate;
	if (values.seed !== undefined) extra[SPEECH_SEED] = values.seed;
	if (values.nativeInstruction) extra[SPEECH_NATIVE_INSTRUCTION] = values.nativeInstruction;
	if (values.nativeStreaming !== undefined) extra[SPEECH_NATIVE_STREAM] = values.nativeStreaming;
	if (values.volume !== undefined) extra[SPEECH_VOLUME] = values.volume;
	for (const { name, value } of values.otherNumeric ?? []) extra[name] = value;

	const body: IDataObject = {
		model: values.model.trim(),
		input: values.input,
		voice: values.voiceAs === 'object' ? { id: values.voice } : values.voice,
		[SPEECH_RESPONSE_FORMAT]: values.responseFormat,
		stream_format: values.streamFormat,
	};
	if (values.instructions) body.instructions = values.instructions;
	if (values.speed !== undefined) body.speed = values.speed;
	body[SPEECH_EXTRA_BODY] = extra;
	return body;
}

export function otherNumericProblem(name: string, value: unknown): string | undefined {
	if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `"${name}" is not a member name (letters, digits, _)`;
	if (RESERVED_NAMES.has(name)) return `"${name}" has its own field in this form: set it there`;
	if (typeof value !== 'number' || !Number.isFinite(value)) return `"${name}" needs a number`;
	return undefined;
}

/** An `extra_body` typed in Additional Body Fields is merged member by member, not replaced. */
export function mergeAdditionalSpeechBody(body: IDataObject, additional: IDataObject): IDataObject {
	const merged: IDataObject = { ...body, ...additional };
	const extra = additional[SPEECH_EXTRA_BODY];
	const formExtra = body[SPEECH_EXTRA_BODY];
	if (isObject(extra) && isObject(formExtra)) merged[SPEECH_EXTRA_BODY] = { ...formExtra, ...extra };
	return merged;
}
