/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { crc32, inflateSync } from 'node:zlib';

/**
 * Checks that bytes are a well-formed image and reads its dimensions, for the
 * tests: PNG (signature, chunk CRCs, IDAT inflates to exactly the pixel rows
 * IHDR announces, IEND), JPEG (SOI, segments up to SOF0, EOI) and lossless
 * WebP (RIFF size, VP8L header). Throws on anything else.
 */

export interface ImageInfo {
	format: 'png' | 'jpeg' | 'webp';
	width: number;
	height: number;
	alpha?: boolean;
}

function inspectPng(bytes: Buffer): ImageInfo {
	let offset = 8;
	let width = 0;
	let height = 0;
	let channels = 0;
	const idat: Buffer[] = [];
	let ended = false;
	while (offset + 12 <= bytes.length) {
		const length = bytes.readUInt32BE(offset);
		const type = bytes.toString('latin1', offset + 4, offset + 8);
		const data = bytes.subarray(offset + 8, offset + 8 + length);
		const crc = bytes.readUInt32BE(offset + 8 + length);
		if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== crc)
			throw new Error(`PNG: bad CRC in ${type}`);
		if (type === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			if (data[8] !== 8) throw new Error('PNG: only 8-bit images expected');
			channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
		}
		if (type === 'IDAT') idat.push(data);
		offset += 12 + length;
		if (type === 'IEND') {
			ended = true;
			break;
		}
	}
	if (!width || !channels || !ended) throw new Error('PNG: IHDR or IEND missing');
	const raw = inflateSync(Buffer.concat(idat));
	if (raw.length !== (width * channels + 1) * height) throw new Error('PNG: pixel data does not match IHDR');
	return { format: 'png', width, height, alpha: channels === 4 };
}

function inspectJpeg(bytes: Buffer): ImageInfo {
	if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) throw new Error('JPEG: no EOI');
	let offset = 2;
	while (offset + 4 <= bytes.length) {
		if (bytes[offset] !== 0xff) throw new Error('JPEG: bad segment');
		const marker = bytes[offset + 1];
		const length = bytes.readUInt16BE(offset + 2);
		if (marker === 0xc0 || marker === 0xc2) {
			return {
				format: 'jpeg',
				height: bytes.readUInt16BE(offset + 5),
				width: bytes.readUInt16BE(offset + 7),
			};
		}
		offset += 2 + length;
	}
	throw new Error('JPEG: no SOF segment');
}

function inspectWebp(bytes: Buffer): ImageInfo {
	if (bytes.readUInt32LE(4) !== bytes.length - 8) throw new Error('WebP: RIFF size does not match');
	if (bytes.toString('latin1', 12, 16) !== 'VP8L' || bytes[20] !== 0x2f)
		throw new Error('WebP: not a VP8L image');
	const bits = bytes.readUInt32LE(21);
	return {
		format: 'webp',
		width: (bits & 0x3fff) + 1,
		height: ((bits >>> 14) & 0x3fff) + 1,
		alpha: ((bits >>> 28) & 1) === 1,
	};
}

export function inspectImage(bytes: Buffer): ImageInfo {
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
		return inspectPng(bytes);
	}
	if (bytes[0] === 0xff && bytes[1] === 0xd8) return inspectJpeg(bytes);
	if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
		return inspectWebp(bytes);
	}
	throw new Error(`Not an image: ${bytes.subarray(0, 8).toString('hex')}`);
}
