import { decodeBase64Audio } from './audioFile';
import type { SseReadOptions, StreamOutcome } from '../../../shared/sse';
import { assembleStream, StreamAssembler, truncated } from '../../../shared/sse';

/**
 * Joins a speech SSE stream into one audio file. Each `speech.audio.delta` is decoded
 * on its own: pieces may carry their own `=` padding, so joining the base64 first
 * would corrupt the file.
 */

const SPEECH_DELTA_EVENT = 'speech.audio.delta';
const SPEECH_DONE_EVENT = 'speech.audio.done';

export interface SpeechUsage {
	input_tokens: number;
	output_tokens: number;
	total_tokens: number;
}

interface SpeechAudio {
	audio: Buffer;
	usage: SpeechUsage;
	deltas: number;
}

const USAGE_MEMBERS = ['input_tokens', 'output_tokens', 'total_tokens'] as const;

export class SpeechAudioAssembler extends StreamAssembler<SpeechAudio> {
	private readonly pieces: Buffer[] = [];

	private received = 0;

	private deltas = 0;

	private usage: SpeechUsage | undefined;

	protected take(type: string, event: Record<string, unknown>): void {
		const error = event.error;
		if (type === 'error' || (error && typeof error === 'object')) {
			const detail = (error && typeof error === 'object' ? error : event) as Record<string, unknown>;
			const message = typeof detail.message === 'string' ? detail.message : JSON.stringify(detail);
			return this.fail(`The gateway reported an error inside the stream: ${message}`, 'upstream');
		}
		if (type === SPEECH_DELTA_EVENT) {
			const bytes =
				typeof event.audio === 'string'
					? decodeBase64Audio(event.audio)
					: { problem: 'it has no "audio" text' };
			if (!Buffer.isBuffer(bytes)) {
				return this.fail(`The stream's audio piece #${this.deltas + 1} is malformed: ${bytes.problem}`);
			}
			this.pieces.push(bytes);
			this.received += bytes.length;
			this.deltas++;
		} else if (type === SPEECH_DONE_EVENT) {
			const usage = (event.usage ?? {}) as Record<string, unknown>;
			const bad = USAGE_MEMBERS.filter((name) => !Number.isInteger(usage[name]));
			if (bad.length) {
				return this.fail(
					`The stream's ${SPEECH_DONE_EVENT} event has no whole-number usage (${bad.join(', ')})`,
				);
			}
			this.usage = {
				input_tokens: usage.input_tokens as number,
				output_tokens: usage.output_tokens as number,
				total_tokens: usage.total_tokens as number,
			};
			this.ended = true;
		}
	}

	protected result(): StreamOutcome<SpeechAudio> {
		if (!this.usage) {
			return truncated(
				`The stream ended before its final ${SPEECH_DONE_EVENT} event (${this.deltas} audio pieces, ${this.received} bytes received): the audio would be incomplete, so no file was made`,
			);
		}
		const audio = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces, this.received);
		return { ok: true, value: { audio, usage: this.usage, deltas: this.deltas } };
	}
}

const SPEECH_STREAM_FAILED = 'The speech stream failed';

export async function readSpeechStream(
	body: AsyncIterable<Uint8Array | string>,
	options: SseReadOptions,
): Promise<SpeechAudio> {
	return await assembleStream(body, new SpeechAudioAssembler(), {
		...options,
		what: options.what ?? SPEECH_STREAM_FAILED,
	});
}
