/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG encoder (8-bit RGB or RGBA, filter 0, zlib via node:zlib) for the
 * simulator's generated images.
 */

function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function png(width: number, height: number, alpha: boolean, raw: Buffer, level: number): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = alpha ? 6 : 2; // RGBA or RGB
	// compression 0, filter 0, interlace 0
	return Buffer.concat([
		SIGNATURE,
		chunk('IHDR', ihdr),
		chunk('IDAT', deflateSync(raw, { level })),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/**
 * `fillRow(y, row)` writes one row of pixels (RGB or RGBA bytes, no filter
 * byte) into `row`: filling rows, not pixels, keeps large images fast.
 */
export function encodePng(
	width: number,
	height: number,
	fillRow: (y: number, row: Buffer) => void,
	alpha = false,
): Buffer {
	const stride = width * (alpha ? 4 : 3) + 1;
	const raw = Buffer.alloc(stride * height);
	for (let y = 0; y < height; y++) {
		// Byte 0 of each row is the filter type, 0 (None).
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
