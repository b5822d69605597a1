/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { Readable } from 'node:stream';

import type { PayloadFile } from '../../../nodes/shared/binary';
import {
	Base64Payload,
	FileSizeChanged,
	StreamedBody,
	base64Length,
	sendableBody,
	withPayload,
} from '../../../nodes/shared/base64Payload';
import { bufferFile } from '../../../nodes/shared/binary';
import { checkBase64, checkMediaUrl } from '../../simulator/media/inline';
import { bytesFrom } from '../../harness/bytes';
import { RELEASES_MEMORY } from '../../harness/runtime';

const bytesOf = (size: number, seed: number) => bytesFrom(size, (i) => i * seed + (i >> 8));

/** A file read in chunks of `chunk` bytes (the last shorter), as a store's stream gives it. */
function chunkedFile(bytes: Buffer, chunk: number, options: { size?: number; disposable?: boolean } = {}) {
	const reads = { opened: 0, finished: 0 };
	const file: PayloadFile = {
		size: options.size ?? bytes.length,
		name: 'frame.png',
		disposable: options.disposable,
		async *chunks() {
			reads.opened++;
			try {
				for (let at = 0; at < bytes.length; at += chunk) {
					// A buffer of its own per chunk, as n8n's filesystem store hands them.
					yield Buffer.from(bytes.subarray(at, Math.min(at + chunk, bytes.length)));
				}
			} finally {
				reads.finished++;
			}
		},
	};
	return { file, reads };
}

/** The body as it was sent before bodies were streamed: JSON.stringify over the base64 text. */
const oldBody = (body: unknown) => Buffer.from(JSON.stringify(body));

/** Everything a Node Readable gives. */
async function drain(stream: unknown): Promise<Buffer> {
	const pieces: Buffer[] = [];
	for await (const piece of stream as Readable) pieces.push(piece as Buffer);
	return Buffer.concat(pieces);
}

describe('Base64Payload: the streamed body is the body JSON.stringify wrote before', () => {
	const STORE_CHUNK = 3 * 64 * 1024;
	const small = [0, 1, 2, 3, 4, 5, 6, 7, 100];
	const sizes = [...small, STORE_CHUNK - 1, STORE_CHUNK, STORE_CHUNK + 1, 2 * STORE_CHUNK + 2];
	// [chunk size, file sizes]: n8n's chunk (a multiple of 3), chunks that leave 1 or 2 bytes
	// over for the next, chunks smaller than a 3-byte group.
	const cases: Array<[number, number[]]> = [
		[STORE_CHUNK, sizes],
		[64 * 1024, sizes],
		[64 * 1024 + 1, sizes],
		[1, small],
		[2, small],
		[4, small],
		[7, [...small, 1000]],
	];

	describe.each(cases)('read in chunks of %i bytes', (chunk, fileSizes) => {
		it.each(fileSizes)('a %i-byte file as a data URL', async (size) => {
			const bytes = bytesOf(size, 7);
			const payload = new Base64Payload();
			const body = {
				model: 'm',
				frame: { image_url: payload.embed(chunkedFile(bytes, chunk).file, 'data:image/png;base64,') },
			};
			const streamed = payload.requestBody(body) as StreamedBody;
			const expected = oldBody({
				model: 'm',
				frame: { image_url: `data:image/png;base64,${bytes.toString('base64')}` },
			});
			expect(streamed).toBeInstanceOf(StreamedBody);
			expect(streamed.length).toBe(expected.length);
			expect((await drain(streamed.open())).equals(expected)).toBe(true);
		});
	});

	it.each(sizes)('a %i-byte file as bare base64, with the chunk boundaries a store gives', async (size) => {
		const bytes = bytesOf(size, 11);
		const payload = new Base64Payload();
		const body = {
			parts: [
				{ inline_data: { mime_type: 'image/png', data: payload.embed(chunkedFile(bytes, 65_537).file) } },
			],
		};
		const streamed = payload.stream(body);
		const expected = oldBody({
			parts: [{ inline_data: { mime_type: 'image/png', data: bytes.toString('base64') } }],
		});
		expect(streamed.length).toBe(expected.length);
		expect((await drain(streamed.open())).equals(expected)).toBe(true);
	});

	it('several files, in memory and read in chunks, data URLs and bare base64, among unicode text', async () => {
		const files = [bytesOf(10, 3), bytesOf(65_538, 5), bytesOf(0, 1), bytesOf(200_001, 13)];
		const payload = new Base64Payload();
		const body = {
			text: 'naïve ☃ "quoted" \\ back',
			parts: [
				{ data: payload.embed(files[0]) },
				{ url: payload.embed(chunkedFile(files[1], 4096 + 2).file, 'data:image/jpeg;base64,') },
				{ data: payload.embed(chunkedFile(files[2], 5).file) },
				{ url: payload.embed(bufferFile(files[3]), 'data:video/mp4;base64,') },
			],
			tail: '✓',
		};
		const streamed = payload.stream(body);
		const expected = oldBody({
			text: 'naïve ☃ "quoted" \\ back',
			parts: [
				{ data: files[0].toString('base64') },
				{ url: `data:image/jpeg;base64,${files[1].toString('base64')}` },
				{ data: '' },
				{ url: `data:video/mp4;base64,${files[3].toString('base64')}` },
			],
			tail: '✓',
		});
		expect(streamed.length).toBe(expected.length);
		expect((await drain(streamed.open())).equals(expected)).toBe(true);
	});

	it('the length is the JSON text plus 4 * ceil(n / 3) per file and its prefix', () => {
		expect([0, 1, 2, 3, 4, 20 * 1024 * 1024].map(base64Length)).toEqual([0, 4, 4, 4, 8, 27_962_028]);
		const payload = new Base64Payload();
		const body = { a: payload.embed(chunkedFile(bytesOf(20, 1), 3).file, 'data:image/png;base64,') };
		expect(payload.stream(body).length).toBe('{"a":"data:image/png;base64,"}'.length + 28);
	});

	it('a body without files stays an object', () => {
		const plain = { model: 'm' };
		expect(new Base64Payload().requestBody(plain)).toBe(plain);
	});

	it('travels with a copied body (spread) and is invisible to JSON.stringify', async () => {
		const payload = new Base64Payload();
		const body = withPayload({ url: payload.embed(Buffer.from('hi')) }, payload);
		const copy = { ...body, callback_url: 'https://x' };
		expect(JSON.stringify(copy)).not.toContain('aGk=');
		const sent = sendableBody(copy) as StreamedBody;
		expect(JSON.parse((await drain(sent.open())).toString())).toEqual({
			url: 'aGk=',
			callback_url: 'https://x',
		});
		expect(sendableBody({ url: 'u' })).toEqual({ url: 'u' });
	});
});

describe('StreamedBody: read as it is sent, afresh for every send', () => {
	it('nothing is read until the stream is; each open reads the files again', async () => {
		const { file, reads } = chunkedFile(bytesOf(1000, 3), 100);
		const payload = new Base64Payload();
		const streamed = payload.stream({ data: payload.embed(file) });
		const first = streamed.open();
		expect(reads.opened).toBe(0);
		const once = await drain(first);
		const again = await drain(streamed.open());
		expect(reads).toEqual({ opened: 2, finished: 2 });
		expect(again.equals(once)).toBe(true);
		expect(once.length).toBe(streamed.length);
	});

	it('a stream destroyed half read lets its file go; one never read opens nothing', async () => {
		const { file, reads } = chunkedFile(bytesOf(10_000, 3), 100);
		const payload = new Base64Payload();
		const streamed = payload.stream({ data: payload.embed(file) });
		const unread = streamed.open() as unknown as Readable;
		unread.destroy();
		await new Promise((resolve) => unread.once('close', resolve));
		expect(reads.opened).toBe(0);

		const half = streamed.open() as unknown as Readable;
		for await (const piece of half) {
			expect(piece).toBeInstanceOf(Buffer);
			break; // for await destroys the stream
		}
		await new Promise((resolve) => setImmediate(resolve));
		expect(half.destroyed).toBe(true);
		expect(reads).toEqual({ opened: 1, finished: 1 });
	});

	it('a file shorter or longer than its recorded size fails the stream, before a byte beyond it', async () => {
		for (const [actual, recorded, message] of [
			[100, 150, 'held only 100 of the 150 bytes'],
			[150, 100, 'held more than 100 of the 100 bytes'],
		] as const) {
			const payload = new Base64Payload();
			const streamed = payload.stream({
				data: payload.embed(chunkedFile(bytesOf(actual, 3), 30, { size: recorded }).file),
			});
			const sent: Buffer[] = [];
			const error = await (async () => {
				for await (const piece of streamed.open() as unknown as Readable) sent.push(piece as Buffer);
			})().catch((e: Error) => e);
			expect(error).toBeInstanceOf(FileSizeChanged);
			expect((error as Error).message).toContain(`"frame.png" ${message}`);
			expect(Buffer.concat(sent).length).toBeLessThanOrEqual(streamed.length);
		}
	});

	it('chunks of a disposable file are given back once encoded; the body is still right', async () => {
		const bytes = bytesOf(3 * 4096 + 1, 9);
		const given: Buffer[] = [];
		const file: PayloadFile = {
			size: bytes.length,
			disposable: true,
			async *chunks() {
				for (let at = 0; at < bytes.length; at += 4096) {
					const piece = Buffer.allocUnsafeSlow(Math.min(4096, bytes.length - at));
					bytes.copy(piece, 0, at);
					given.push(piece);
					yield piece;
				}
			},
		};
		const payload = new Base64Payload();
		const streamed = payload.stream({ data: payload.embed(file) });
		expect((await drain(streamed.open())).equals(oldBody({ data: bytes.toString('base64') }))).toBe(true);
		expect(given.map((piece) => piece.buffer.byteLength)).toEqual(
			RELEASES_MEMORY ? [0, 0, 0, 0] : [4096, 4096, 4096, 1],
		);
	});
});

describe('simulator inline media checks', () => {
	it.each([
		['data:image/png;base64,aGk=', 'image', 2],
		['https://x/a.png', 'image', undefined],
		['data:audio/mpeg;base64,aGVsbG8=', 'audio', 5],
	])('accepts %s as %s', (url, kind, size) => {
		expect(checkMediaUrl('p', url, kind)).toBe(size);
	});
	it.each([
		['data:image/png;base64,aGk', 'image', 'not valid base64'],
		['data:image/png,aGk=', 'image', 'data:<mime>;base64'],
		['data:audio/mpeg;base64,aGk=', 'image', 'audio/mpeg is not accepted'],
		['ftp://x/a.png', 'image', 'http(s) URL or a data URL'],
		['data:;base64,aGk=', 'image', 'a MIME type is required'],
	])('refuses %s as %s', (url, kind, message) => {
		expect(() => checkMediaUrl('p', url, kind)).toThrow(message);
	});
	it('counts decoded bytes and refuses empty base64', () => {
		expect(checkBase64('p', 'aGVsbG8h')).toBe(6);
		expect(() => checkBase64('p', '')).toThrow('base64 data is required');
	});
});
