/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG encoder (8-bit RGB or RGBA, filter 0, zlib via node:zlib) for the
 * simulator's generated images.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The file: signature, then each chunk as length, type, data and the CRC of type and data. */
function png(width: number, height: number, alpha: boolean, raw: Buffer, level: number): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = alpha ? 6 : 2; // RGBA or RGB
	// compression 0, filter 0, interlace 0
	const chunks: Array<[string, Buffer]> = [
		['IHDR', ihdr],
		['IDAT', deflateSync(raw, { level })],
		['IEND', Buffer.alloc(0)],
	];
	// Written once into one buffer: the image data is the bulk of the file and is not copied again.
	const file = Buffer.allocUnsafe(chunks.reduce((size, [, data]) => size + 12 + data.length, SIGNATURE.length));
	let at = SIGNATURE.copy(file, 0);
	for (const [type, data] of chunks) {
		at = file.writeUInt32BE(data.length, at);
		const typeAt = at;
		at += file.write(type, at, 'latin1');
		at += data.copy(file, at);
		at = file.writeUInt32BE(crc32(data, crc32(file.subarray(typeAt, typeAt + 4))), at);
	}
	return file;
}

/**
 * `fillRow(y, row)` writes one row of pixels (RGB or RGBA bytes, no filter
 * byte) into `row`, every byte of it (the row is not cleared first): filling
 * rows, not pixels, keeps large images fast.
 */
export function encodePng(
	width: number,
	height: number,
	fillRow: (y: number, row: Buffer) => void,
	alpha = false,
): Buffer {
	const stride = width * (alpha ? 4 : 3) + 1;
	const raw = Buffer.allocUnsafe(stride * height);
	for (let y = 0; y < height; y++) {
		// Not zeroed first. Byte 0 of each row is the filter type, 0 (None); `fillRow` writes the rest.
		raw[y * stride] = 0;
		fillRow(y, raw.subarray(y * stride + 1, (y + 1) * stride));
	}
	return png(width, height, alpha, raw, 1);
}

/**
 * A PNG of random pixels, stored without compression: its size is about
 * width*height*3 bytes, which is what the memory benchmark needs (a 20 MB
 * image that no compression shrinks).
 */
export function encodeNoisePng(width: number, height: number): Buffer {
	const stride = width * 3 + 1;
	const raw = randomBytes(stride * height);
	for (let y = 0; y < height; y++) raw[y * stride] = 0;
	return png(width, height, false, raw, 0);
}
