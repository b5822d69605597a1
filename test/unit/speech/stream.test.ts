/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { request } from 'node:http';
import { isDeepStrictEqual } from 'node:util';

import type { INode } from 'n8n-workflow';

import {
	SpeechAudioAssembler,
	readSpeechStream,
} from '../../../nodes/GenerationGateway/actions/speech/stream';
import { sseEvent } from '../../simulator/http';
import { useVirtualTime } from '../../harness/virtual-time';
import { startSimulator } from '../../simulator/server';
import { audioPieces, encodeSpeech } from '../../simulator/speech/audio';

/**
 * Speech streams: the joined audio is identical for every split
 * of the stream into chunks, and a stream that ends without its final event,
 * carries a broken event or goes idle fails with a clear error.
 */

const node = {
	id: 'n',
	name: 'Speech',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const usage = { input_tokens: 3, output_tokens: 13, total_tokens: 16 };

const audio = encodeSpeech('wav', {
	input: 'Hi, all 🙂',
	voice: 'n_v3.1',
	sampleRate: 8000,
	rate: 1,
	seed: 0,
	volume: 50,
});

function payload(lineEnd = '\n', withDone = true): Buffer {
	const events = audioPieces(audio).map((piece) =>
		sseEvent({ type: 'speech.audio.delta', audio: piece.toString('base64') }),
	);
	if (withDone) events.push(sseEvent({ type: 'speech.audio.done', usage }));
	return Buffer.from(events.join('').replace(/\n/g, lineEnd));
}

async function* chunks(parts: Buffer[]): AsyncGenerator<Uint8Array> {
	for (const part of parts) yield part;
}

async function failureOf(promise: Promise<unknown>): Promise<{ message: string; reason: unknown }> {
	try {
		await promise;
	} catch (error) {
		const e = error as { message: string; context: Record<string, unknown> };
		return { message: e.message, reason: e.context.sseFailure };
	}
	throw new Error('expected the stream to fail');
}

describe('speech SSE: every split gives the same file', () => {
	it('has several deltas whose base64 pieces carry padding', () => {
		const pieces = audioPieces(audio);
		expect(pieces.length).toBeGreaterThanOrEqual(3);
		expect(pieces.some((piece) => piece.toString('base64').endsWith('='))).toBe(true);
	});

	it.each([
		['LF', '\n'],
		['CRLF', '\r\n'],
		['CR', '\r'],
	])('split in two at every byte boundary (%s line ends)', async (_name, lineEnd) => {
		const bytes = payload(lineEnd);
		// The cuts whose audio or usage differ (one check at the end: an expect per cut costs more than the read).
		const different: number[] = [];
		for (let cut = 0; cut <= bytes.length; cut++) {
			const result = await readSpeechStream(chunks([bytes.subarray(0, cut), bytes.subarray(cut)]), { node });
			if (!result.audio.equals(audio) || !isDeepStrictEqual(result.usage, usage)) different.push(cut);
		}
		expect(different).toEqual([]);
	});

	it('one byte per chunk', async () => {
		const bytes = payload('\r\n');
		const parts = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
		const result = await readSpeechStream(chunks(parts), { node });
		expect(result.audio.equals(audio)).toBe(true);
		expect(result.deltas).toBe(audioPieces(audio).length);
	});

	it('skips events of other types and a [DONE] marker', async () => {
		const extra = Buffer.from(
			`: keep-alive\n\n${sseEvent({ type: 'speech.audio.progress' })}data: [DONE]\n\n`,
		);
		const bytes = payload();
		const result = await readSpeechStream(chunks([extra, bytes]), { node });
		expect(result.audio.equals(audio)).toBe(true);
	});
});

describe('speech SSE failures', () => {
	// The idle rule is about time: on virtual time its pause is exact and takes no real time.
	useVirtualTime();

	it('a stream without its done event fails as truncated, naming what arrived', async () => {
		const failure = await failureOf(readSpeechStream(chunks([payload('\n', false)]), { node }));
		expect(failure.reason).toBe('truncated');
		expect(failure.message).toMatch(
			/ended before its final speech\.audio\.done event \(\d+ audio pieces, \d+ bytes received\)/,
		);
	});

	it.each([
		['broken JSON', 'data: {"type": broken\n\n', /malformed "message" event/],
		[
			'delta without audio',
			sseEvent({ type: 'speech.audio.delta' }),
			/audio piece #1 is malformed: it has no "audio" text/,
		],
		['delta that is not base64', sseEvent({ type: 'speech.audio.delta', audio: 'AB$%' }), /not base64/],
		[
			'done without whole-number usage',
			sseEvent({ type: 'speech.audio.done', usage: { input_tokens: 1 } }),
			/output_tokens, total_tokens/,
		],
	])('%s fails as malformed', async (_name, text, message) => {
		const failure = await failureOf(readSpeechStream(chunks([Buffer.from(text)]), { node }));
		expect(failure.reason).toBe('malformed');
		expect(failure.message).toMatch(message);
	});

	it('an error event inside the stream is reported with its message', async () => {
		const text = sseEvent({ type: 'error', error: { message: 'upstream overloaded', code: 'overloaded' } });
		const failure = await failureOf(readSpeechStream(chunks([Buffer.from(text)]), { node }));
		expect(failure.reason).toBe('upstream');
		expect(failure.message).toMatch(/upstream overloaded/);
	});

	it('the assembler ignores anything after the done event', () => {
		const assembler = new SpeechAudioAssembler();
		expect(assembler.apply('', { type: 'speech.audio.delta', audio: 'AAE=' })).toBeUndefined();
		expect(assembler.apply('', { type: 'speech.audio.done', usage })).toBe('done');
		expect(assembler.apply('', { type: 'speech.audio.delta', audio: 'AAE=' })).toBe('done');
		expect(assembler.finish()).toEqual({ ok: true, value: { audio: Buffer.from([0, 1]), usage, deltas: 1 } });
	});

	it('an idle stream over real HTTP fails as idle', async () => {
		const sim = await startSimulator();
		try {
			sim.inject({ fault: { kind: 'sse-idle', afterEvents: 1 }, path: '/v1/audio/speech' });
			const body = JSON.stringify({
				model: 'vendor/audioF-3.1-tts-flash',
				input: 'Hi',
				voice: 'a_v3.1',
				stream_format: 'sse',
			});
			const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
				const req = request(`${sim.url}/v1/audio/speech`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sim.keys.bearer}` },
				});
				req.on('response', resolve).on('error', reject).end(body);
			});
			const started = Date.now();
			const failure = await failureOf(readSpeechStream(response, { node, idleMs: 300 }));
			expect(failure.reason).toBe('idle');
			expect(failure.message).toMatch(/sent nothing for 0.3 s/);
			expect(Date.now() - started).toBe(300);
		} finally {
			await sim.stop();
		}
	});
});
