/**
 * Audio the simulator returns for POST /v1/audio/speech. Deterministic: the
 * same request gives the same bytes, which is what lets the tests compare
 * `audio` and `sse` mode byte for byte.
 *
 * - `pcm` is real audio: signed 16-bit little-endian mono samples, one short
 *   tone per character of the input (pitch from the voice, the character and
 *   the seed), scaled by `volume` and shortened by the speaking rate.
 * - `wav` is a real RIFF/WAVE file around the same samples.
 * - `mp3` and `opus` are NOT real codecs: they are byte payloads that start
 *   like their formats (an ID3 tag and MPEG frame-sync bytes; an `OggS` page
 *   header carrying an `OpusHead` marker) so sniffers and media-type checks
 *   behave, followed by the PCM samples. A player will not decode them.
 */

export interface VoiceRequest {
	input: string;
	voice: string;
	sampleRate: number;
	/** Effective speaking rate (speed, else native rate, else 1). */
	rate: number;
	seed: number;
	/** 0-100, default 50. */
	volume: number;
}

export const SECONDS_PER_CHARACTER = 0.02;

function hash(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
	return h >>> 0;
}

/** Raw PCM: s16le mono at `sampleRate`. At least 0.25 s, so even a short text makes a file. */
export function synthesizePcm(request: VoiceRequest): Buffer {
	// Local names: a global looked up per sample is slow inside jest's VM context.
	const { PI, round, sin } = Math;
	const characters = [...request.input];
	const perCharacter = Math.max(1, round((request.sampleRate * SECONDS_PER_CHARACTER) / request.rate));
	const minimum = round(request.sampleRate * 0.25);
	const total = Math.max(minimum, characters.length * perCharacter);
	const pcm = Buffer.alloc(total * 2);
	const base = 110 + (hash(request.voice) % 220);
	const amplitude = round(32767 * 0.6 * (request.volume / 100));
	let phase = (request.seed % 628) / 100;
	// One tone per character, silence for a space and after the text.
	for (let index = 0, n = 0; n < total; index++) {
		const character = characters[index] ?? ' ';
		const frequency = /\s/.test(character) ? 0 : base + (character.codePointAt(0)! % 24) * 15;
		const step = (2 * PI * frequency) / request.sampleRate;
		for (const end = Math.min(total, n + perCharacter); n < end; n++) {
			phase += step;
			pcm.writeInt16LE(round(amplitude * sin(phase)), n * 2);
		}
	}
	return pcm;
}

/** A whole WAV file: RIFF header with exact sizes, `fmt ` (PCM, mono, 16-bit), `data`. */
export function wavFile(pcm: Buffer, sampleRate: number): Buffer {
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'ascii');
	header.writeUInt32LE(36 + pcm.length, 4);
	header.write('WAVE', 8, 'ascii');
	header.write('fmt ', 12, 'ascii');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(sampleRate, 24);
	header.writeUInt32LE(sampleRate * 2, 28); // byte rate
	header.writeUInt16LE(2, 32); // block align
	header.writeUInt16LE(16, 34); // bits per sample
	header.write('data', 36, 'ascii');
	header.writeUInt32LE(pcm.length, 40);
	return Buffer.concat([header, pcm]);
}

/** Not a decodable MP3 (see the file comment): an ID3v2 tag, a frame-sync header, then the samples. */
function mp3Payload(pcm: Buffer): Buffer {
	const id3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
	return Buffer.concat([id3, Buffer.from([0xff, 0xfb, 0x90, 0x64]), pcm]);
}

/** Not a decodable Ogg/Opus stream (see the file comment): an `OggS` page start and `OpusHead`, then the samples. */
function opusPayload(pcm: Buffer, sampleRate: number): Buffer {
	const page = Buffer.alloc(27);
	page.write('OggS', 0, 'ascii');
	page.writeUInt8(2, 5); // beginning of stream
	const head = Buffer.alloc(19);
	head.write('OpusHead', 0, 'ascii');
	head.writeUInt8(1, 8);
	head.writeUInt8(1, 9);
	head.writeUInt32LE(sampleRate, 12);
	return Buffer.concat([page, head, pcm]);
}

export const CONTENT_TYPES = {
	mp3: 'audio/mpeg',
	opus: 'audio/ogg',
	wav: 'audio/wav',
	pcm: 'audio/pcm',
} as const;

export type AudioFormat = keyof typeof CONTENT_TYPES;

export function encodeSpeech(format: AudioFormat, request: VoiceRequest): Buffer {
	const pcm = synthesizePcm(request);
	if (format === 'pcm') return pcm;
	if (format === 'wav') return wavFile(pcm, request.sampleRate);
	if (format === 'mp3') return mp3Payload(pcm);
	return opusPayload(pcm, request.sampleRate);
}

/** Splits audio into several pieces for `speech.audio.delta` events (odd sizes, so base64 pads). */
export function audioPieces(audio: Buffer, maxPiece = 16_385): Buffer[] {
	const size = Math.max(1, Math.min(maxPiece, Math.ceil(audio.length / 3)));
	const pieces: Buffer[] = [];
	for (let offset = 0; offset < audio.length; offset += size)
		pieces.push(audio.subarray(offset, offset + size));
	return pieces;
}
