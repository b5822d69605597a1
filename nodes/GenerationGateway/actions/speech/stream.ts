import { decodeBase64Audio } from './audioFile';
import type { SseReadOptions } from '../../../shared/sse';
import { naming, parseEventJson, readSseEvents, sseError } from '../../../shared/sse';

/**
 * Joins a speech SSE stream into one audio file (interface, Events item 2):
 * each `speech.audio.delta` carries a base64 piece of the audio, the final
 * `speech.audio.done` carries the token usage. Each delta is decoded on its
 * own (pieces may carry their own `=` padding, so joining the base64 text first
 * would corrupt the file) and the bytes are concatenated once at the end.
 *
 * Pure: fed with parsed event objects, it answers what to do; the operation
 * turns a problem into the node error (see sse.ts `sseError`).
 */

export const SPEECH_DELTA_EVENT = 'speech.audio.delta';
export const SPEECH_DONE_EVENT = 'speech.audio.done';

export interface SpeechUsage {
	input_tokens: number;
	output_tokens: number;
	total_tokens: number;
}

export interface SpeechStreamProblem {
	problem: string;
	reason: 'malformed' | 'truncated' | 'upstream';
}

export type SpeechEventOutcome = 'more' | 'done' | SpeechStreamProblem;

const USAGE_MEMBERS = ['input_tokens', 'output_tokens', 'total_tokens'] as const;

export class SpeechAudioAssembler {
	private readonly pieces: Buffer[] = [];

	private received = 0;

	private deltas = 0;

	private usage: SpeechUsage | undefined;

	/** Takes one event's JSON. Events of other types are skipped (the interface lists only these two). */
	accept(event: Record<string, unknown>): SpeechEventOutcome {
		if (this.usage) return 'done';
		const error = event.error;
		if (event.type === 'error' || (error && typeof error === 'object')) {
			const detail = (error && typeof error === 'object' ? error : event) as Record<string, unknown>;
			const message = typeof detail.message === 'string' ? detail.message : JSON.stringify(detail);
			return { problem: `The gateway reported an error inside the stream: ${message}`, reason: 'upstream' };
		}
		if (event.type === SPEECH_DELTA_EVENT) {
			const bytes =
				typeof event.audio === 'string'
					? decodeBase64Audio(event.audio)
					: { problem: 'it has no "audio" text' };
			if (!Buffer.isBuffer(bytes)) {
				return {
					problem: `The stream's audio piece #${this.deltas + 1} is malformed: ${bytes.problem}`,
					reason: 'malformed',
				};
			}
			this.pieces.push(bytes);
			this.received += bytes.length;
			this.deltas++;
			return 'more';
		}
		if (event.type === SPEECH_DONE_EVENT) {
			const usage = event.usage as Record<string, unknown> | undefined;
			const bad = USAGE_MEMBERS.filter((name) => !Number.isInteger(usage?.[name]));
			if (bad.length) {
				return {
					problem: `The stream's ${SPEECH_DONE_EVENT} event has no whole-number usage (${bad.join(', ')})`,
					reason: 'malformed',
				};
			}
			this.usage = {
				input_tokens: usage!.input_tokens as number,
				output_tokens: usage!.output_tokens as number,
				total_tokens: usage!.total_tokens as number,
			};
			return 'done';
		}
		return 'more';
	}

	/** The whole file, or the reason there is none (the final event never came). */
	finish(): { audio: Buffer; usage: SpeechUsage; deltas: number } | SpeechStreamProblem {
		if (!this.usage) {
			return {
				problem: `The stream ended before its final ${SPEECH_DONE_EVENT} event (${this.deltas} audio pieces, ${this.received} bytes received): the audio would be incomplete, so no file was made`,
				reason: 'truncated',
			};
		}
		const audio = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.received);
		this.pieces.length = 0;
		return { audio, usage: this.usage, deltas: this.deltas };
	}
}

export const SPEECH_STREAM_FAILED = 'The speech stream failed';

/**
 * Reads a speech SSE body to its end and returns the joined audio and usage,
 * or fails with the node error for a malformed, truncated, idle or broken
 * stream, its message starting with "The speech stream failed: ".
 * Stops reading at the final event.
 */
export async function readSpeechStream(
	body: AsyncIterable<Uint8Array | string>,
	options: SseReadOptions,
): Promise<{ audio: Buffer; usage: SpeechUsage; deltas: number }> {
	const { node, itemIndex } = options;
	const what = options.what ?? SPEECH_STREAM_FAILED;
	const assembler = new SpeechAudioAssembler();
	const fail = (outcome: SpeechStreamProblem) =>
		sseError(node, naming(what, outcome.problem), outcome.reason, itemIndex);
	for await (const event of readSseEvents(body, { ...options, what })) {
		if (event.data === '[DONE]') continue; // an OpenAI-style end marker carries no JSON
		const outcome = assembler.accept(parseEventJson(node, event, itemIndex, what));
		if (outcome === 'done') break;
		if (outcome !== 'more') throw fail(outcome);
	}
	const result = assembler.finish();
	if ('problem' in result) throw fail(result);
	return result;
}
