/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P5: Speech → Synthesize in SSE mode against audio mode, through the node in
 * a real n8n execution over loopback HTTP. The file must be byte-identical;
 * the figure is the median time ratio (target: SSE within 5 %).
 * A long text (4000 characters, about 80 s of 24 kHz WAV) makes the decode
 * work visible: the SSE body is base64, a third larger than the audio.
 */
import { performance } from 'node:perf_hooks';

import type { IDataObject, INode } from 'n8n-workflow';

import { readSpeechStream } from '../../../nodes/GenerationGateway/actions/speech/stream';
import { readBinary, runWorkflow } from '../../harness';
import { startSimulator } from '../../simulator';
import { sseEvent } from '../../simulator/http';
import { audioPieces } from '../../simulator/speech/audio';
import { SPEECH_NODE, speechWorkflow } from '../../workflow/speech-workflow';

export const title = 'P5 speech: SSE vs audio mode (bytes identical, time ratio)';

const ROUNDS = 9;
const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(90).slice(0, 4000);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	try {
		const parameters = (streamFormat: string): IDataObject => ({
			input: TEXT,
			responseFormat: 'wav',
			streamFormat,
			options: {},
		});
		const once = async (streamFormat: string) => {
			const started = performance.now();
			const result = await runWorkflow(speechWorkflow(parameters(streamFormat)), {
				credentials: sim.credentials(),
			});
			const ms = performance.now() - started;
			if (result.status !== 'success') throw new Error(`${streamFormat}: ${result.error?.message}`);
			const [item] = result.output(SPEECH_NODE);
			return { ms, bytes: await readBinary(item.binary!.data), json: item.json };
		};
		await once('audio'); // warm-up: module loading, connection pool, JIT
		await once('sse');
		const times: Record<string, number[]> = { audio: [], sse: [] };
		let identical = true;
		let reference: Buffer | undefined;
		let deltas = 0;
		for (let round = 0; round < ROUNDS; round++) {
			// Alternate the order so drift on a shared machine hits both modes alike.
			for (const mode of round % 2 ? ['sse', 'audio'] : ['audio', 'sse']) {
				const { ms, bytes } = await once(mode);
				times[mode].push(ms);
				reference ??= bytes;
				identical &&= bytes.equals(reference);
			}
		}
		// The same comparison with a gateway that takes 1 s to synthesize (both
		// modes wait for it): what the ratio looks like when synthesis, not
		// loopback transfer, dominates the request, as it does for a real model.
		sim.latencyMs = 1000;
		const slow: Record<string, number[]> = { audio: [], sse: [] };
		for (let round = 0; round < 3; round++) {
			for (const mode of round % 2 ? ['sse', 'audio'] : ['audio', 'sse']) {
				const { ms, bytes } = await once(mode);
				slow[mode].push(ms);
				identical &&= bytes.equals(reference!);
			}
		}
		sim.latencyMs = 0;
		const breakdown = await sseBreakdown(reference!);
		const sseLog = sim
			.requestsTo('/v1/audio/speech')
			.filter((r) => (r.body as IDataObject).stream_format === 'sse');
		deltas = breakdown.deltas;
		const audioMs = median(times.audio);
		const sseMs = median(times.sse);
		return {
			'audio file (bytes)': reference!.length,
			'SSE deltas per file': deltas,
			'SSE requests': sseLog.length,
			'bytes identical (all rounds)': identical ? 'yes' : 'NO',
			'audio mode median (ms)': audioMs.toFixed(1),
			'sse mode median (ms)': sseMs.toFixed(1),
			'time ratio sse/audio': (sseMs / audioMs).toFixed(3),
			'with 1 s synthesis latency: audio / sse median (ms)': `${median(slow.audio).toFixed(0)} / ${median(slow.sse).toFixed(0)}`,
			'with 1 s synthesis latency: time ratio sse/audio': (median(slow.sse) / median(slow.audio)).toFixed(3),
			'of which: simulator builds the SSE body (ms, median)': breakdown.buildMs.toFixed(1),
			'of which: node decodes SSE into the file (ms, median)': breakdown.decodeMs.toFixed(1),
			target: 'identical bytes; ratio <= 1.05',
		};
	} finally {
		await sim.stop();
	}
}

/**
 * Where SSE's extra time goes, measured in-process on the same file: the
 * simulator's base64 + JSON + text work to build the stream, and the node's
 * decode (bytes -> events -> base64 -> one buffer) with readSpeechStream.
 */
async function sseBreakdown(audio: Buffer) {
	const node = {
		id: 'b',
		name: 'Bench',
		type: 'bench',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;
	const build: number[] = [];
	const decode: number[] = [];
	let deltas = 0;
	for (let round = 0; round < ROUNDS; round++) {
		let started = performance.now();
		const events = audioPieces(audio).map((piece) =>
			sseEvent({ type: 'speech.audio.delta', audio: piece.toString('base64') }),
		);
		const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2 };
		const body = Buffer.from(events.join('') + sseEvent({ type: 'speech.audio.done', usage }));
		build.push(performance.now() - started);
		started = performance.now();
		const result = await readSpeechStream(
			(async function* () {
				for (let offset = 0; offset < body.length; offset += 65_536)
					yield body.subarray(offset, offset + 65_536);
			})(),
			{ node },
		);
		decode.push(performance.now() - started);
		if (!result.audio.equals(audio)) throw new Error('in-process decode differs');
		deltas = result.deltas;
	}
	return { buildMs: median(build), decodeMs: median(decode), deltas };
}
