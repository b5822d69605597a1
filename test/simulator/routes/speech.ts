import { audioPieces, CONTENT_TYPES, encodeSpeech } from '../speech/audio';
import { readSpeechRequest } from '../speech/validate';
import type { Route } from '../types';

/** Audio tokens per second of speech, for the usage of the final SSE event. */
const TOKENS_PER_SECOND = 50;

/**
 * POST /v1/audio/speech: audio bytes (`stream_format` audio, the default) or
 * an SSE stream that splits the SAME bytes into several `speech.audio.delta`
 * events followed by `speech.audio.done` with the usage (interface, Events 2).
 * SSE faults (`sse-truncate`, `sse-malformed`, `sse-idle`) apply through
 * `sim.streamSse`.
 */
export const speechRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1/audio/speech',
		async handle(ctx) {
			const job = readSpeechRequest(ctx.body);
			const audio = encodeSpeech(job.format, job);
			if (job.streamFormat === 'audio') {
				ctx.res.writeHead(200, {
					'Content-Type': CONTENT_TYPES[job.format],
					'Content-Length': audio.length,
				});
				ctx.res.end(audio);
				return;
			}
			const seconds = audio.length / (job.sampleRate * 2);
			const input_tokens = Math.max(1, Math.ceil([...job.input].length / 4));
			const output_tokens = Math.max(1, Math.ceil(seconds * TOKENS_PER_SECOND));
			await ctx.sim.streamSse(ctx, [
				...audioPieces(audio).map((piece) => ({
					data: { type: 'speech.audio.delta', audio: piece.toString('base64') },
				})),
				{
					data: {
						type: 'speech.audio.done',
						usage: { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens },
					},
				},
			]);
		},
	},
];
