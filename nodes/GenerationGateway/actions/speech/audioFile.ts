/** Checks on received audio before it becomes an n8n file; each returns a problem in words. */

interface WavInfo {
	channels: number;
	sampleRate: number;
	bitsPerSample: number;
	dataBytes: number;
}

/**
 * The gateway buffers WAV packaging to know the full length, so a placeholder size
 * (0 or 0xFFFFFFFF) or chunk sizes that miss the file's end mean the audio was cut.
 */
export function readWholeWav(audio: Uint8Array): { info: WavInfo } | { problem: string } {
	const bytes = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
	const ascii = (offset: number) => bytes.toString('latin1', offset, offset + 4);
	if (bytes.length < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') {
		return { problem: 'the audio does not start with a RIFF/WAVE header' };
	}
	const riffSize = bytes.readUInt32LE(4);
	if (riffSize !== bytes.length - 8) {
		return {
			problem: `the RIFF header announces ${riffSize + 8} bytes but ${bytes.length} arrived`,
		};
	}
	let format: Omit<WavInfo, 'dataBytes'> | undefined;
	let dataBytes: number | undefined;
	let offset = 12;
	while (offset < bytes.length) {
		if (offset + 8 > bytes.length) return { problem: `a chunk header is cut at byte ${offset}` };
		const id = ascii(offset);
		const size = bytes.readUInt32LE(offset + 4);
		const end = offset + 8 + size + (size % 2); // chunks are padded to an even length
		if (end > bytes.length) {
			return { problem: `the "${id}" chunk announces ${size} bytes but the file ends before them` };
		}
		if (id === 'fmt ' && size >= 16) {
			format = {
				channels: bytes.readUInt16LE(offset + 10),
				sampleRate: bytes.readUInt32LE(offset + 12),
				bitsPerSample: bytes.readUInt16LE(offset + 22),
			};
		} else if (id === 'data') {
			dataBytes = size;
		}
		offset = end;
	}
	if (!format) return { problem: 'the WAV file has no "fmt " chunk' };
	if (dataBytes === undefined) return { problem: 'the WAV file has no "data" chunk' };
	return { info: { ...format, dataBytes } };
}

/**
 * Buffer.from(…, 'base64') silently skips bad characters: a decoded length other
 * than the text's length implies reveals a corrupted piece without a second pass.
 */
export function decodeBase64Audio(text: string): Buffer | { problem: string } {
	if (text.length % 4 === 1) return { problem: 'its base64 text has an impossible length' };
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	const bytes = Buffer.from(text, 'base64');
	if (bytes.length !== Math.floor(((text.length - padding) * 3) / 4)) {
		return { problem: 'it is not base64 text' };
	}
	return bytes;
}
