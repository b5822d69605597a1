import { decodeBase64Audio, readWholeWav } from '../../../nodes/GenerationGateway/actions/speech/audioFile';
import { sniffMediaType } from '../../../nodes/shared/binary';
import { encodeSpeech, synthesizePcm } from '../../simulator/speech/audio';

/** WAV output must be a whole RIFF file (a truncated header makes players refuse the file). */

const request = {
	input: 'Testing one two',
	voice: 'n_v3.1',
	sampleRate: 16000,
	rate: 1,
	seed: 7,
	volume: 80,
};
const wav = encodeSpeech('wav', request);

describe('readWholeWav', () => {
	it('reads a whole file: format and data size', () => {
		const result = readWholeWav(wav);
		expect(result).toEqual({
			info: { channels: 1, sampleRate: 16000, bitsPerSample: 16, dataBytes: synthesizePcm(request).length },
		});
	});

	it('accepts an odd-sized extra chunk with its pad byte', () => {
		const list = Buffer.concat([
			Buffer.from('LIST'),
			Buffer.from([3, 0, 0, 0]),
			Buffer.from('abc'),
			Buffer.from([0]),
		]);
		const file = Buffer.concat([wav, list]);
		file.writeUInt32LE(file.length - 8, 4);
		expect(readWholeWav(file)).toHaveProperty('info');
	});

	const mangled = (change: (copy: Buffer) => Buffer) => change(Buffer.from(wav));
	it.each([
		['cut by one byte', mangled((b) => b.subarray(0, b.length - 1)), /announces \d+ bytes but \d+ arrived/],
		[
			'streaming placeholder sizes',
			mangled((b) => (b.writeUInt32LE(0xffffffff, 4), b.writeUInt32LE(0xffffffff, 40), b)),
			/announces/,
		],
		[
			'data chunk longer than the file',
			mangled((b) => (b.writeUInt32LE(b.readUInt32LE(40) + 2, 40), b)),
			/"data" chunk announces/,
		],
		['not RIFF at all', Buffer.from('ID3 and more bytes'), /does not start with a RIFF\/WAVE header/],
		[
			'no data chunk',
			(() => {
				const b = Buffer.from(wav.subarray(0, 36));
				b.writeUInt32LE(28, 4);
				return b;
			})(),
			/no "data" chunk/,
		],
	])('refuses %s', (_name, bytes, problem) => {
		const result = readWholeWav(bytes);
		expect('problem' in result && result.problem).toMatch(problem);
	});
});

describe('simulator payloads look like their formats', () => {
	it.each([
		['mp3', 'audio/mpeg'],
		['opus', 'audio/ogg'],
		['wav', 'audio/wav'],
	] as const)('%s sniffs as %s', (format, mimeType) => {
		expect(sniffMediaType(encodeSpeech(format, request))?.mimeType).toBe(mimeType);
	});

	it('pcm is the same samples as inside the wav', () => {
		expect(encodeSpeech('pcm', request).equals(wav.subarray(44))).toBe(true);
	});
});

describe('decodeBase64Audio', () => {
	it.each([
		['AAE=', [0, 1]],
		['AAEC', [0, 1, 2]],
		['AAE', [0, 1]],
		['', []],
		['-_8=', [251, 255]],
	])('%j decodes', (text, bytes) => {
		expect(decodeBase64Audio(text)).toEqual(Buffer.from(bytes));
	});

	it.each([
		['AA E', /not base64/],
		['AB$%', /not base64/],
		['A', /impossible length/],
		['AAE==A', /not base64/],
		['AAE=AAE=', /not base64/],
	])('%j is refused', (text, problem) => {
		const result = decodeBase64Audio(text);
		expect(Buffer.isBuffer(result) ? 'decoded' : result.problem).toMatch(problem);
	});
});
