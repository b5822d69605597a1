import { createHash } from 'node:crypto';

import { encodeJpeg } from './jpeg';
import { encodeNoisePng, encodePng } from './png';
import { encodeWebp } from './webp';

/**
 * The simulator's "generated" images: real files of the requested size and
 * format, whose colours come from the prompt (so two prompts give two
 * different pictures). A transparent background leaves the corners clear.
 */

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface RenderRequest {
	width: number;
	height: number;
	format: ImageFormat;
	transparent?: boolean;
	/** Anything that should change the picture: prompt, index, seed. */
	seed: string;
	/** Random pixels, stored uncompressed (PNG only): for the memory benchmark. */
	noise?: boolean;
}

function palette(seed: string): [number, number, number][] {
	const hash = createHash('sha256').update(seed).digest();
	return [
		[hash[0], hash[1], hash[2]],
		[hash[3], hash[4], hash[5]],
	];
}

/** Pictures already drawn, by request: tests ask for the same one again and again (the oldest go first). */
const drawn = new Map<string, Buffer>();
const DRAWN_MAX = 32;
const DRAWN_MAX_BYTES = 2 * 1024 * 1024;

export function renderImage(request: RenderRequest): Buffer {
	const { width, height, format, transparent, seed } = request;
	if (format === 'png' && request.noise) return encodeNoisePng(width, height);
	const key = JSON.stringify([width, height, format, Boolean(transparent), seed]);
	const known = drawn.get(key);
	if (known) return known;
	const bytes = draw(request);
	if (bytes.length <= DRAWN_MAX_BYTES) {
		if (drawn.size >= DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
		drawn.set(key, bytes);
	}
	return bytes;
}

function draw(request: RenderRequest): Buffer {
	const { width, height, format, transparent } = request;
	const [from, to] = palette(request.seed);
	if (format === 'jpeg') {
		const spanX = Math.max(1, Math.ceil(width / 8) - 1);
		const spanY = Math.max(1, Math.ceil(height / 8) - 1);
		return encodeJpeg(width, height, (bx, by) => {
			const t = (bx / spanX + by / spanY) / 2;
			return [0, 1, 2].map((c) => (from[c] + (to[c] - from[c]) * t + 0.5) | 0) as [number, number, number];
		});
	}
	const radius = Math.min(width, height) / 2;
	const inside = (x: number, y: number) => (x - width / 2) ** 2 + (y - height / 2) ** 2 <= radius * radius;
	if (format === 'webp') {
		const clear = transparent ? 0 : 255;
		return encodeWebp(
			width,
			height,
			[
				[...from, clear],
				[...to, 255],
			],
			(x, y) => (transparent ? (inside(x, y) ? 1 : 0) : ((x >> 5) + (y >> 5)) & 1 ? 1 : 0),
		);
	}
	// A diagonal gradient: colour = from + (to - from) * (x/w + y/h) / 2, filled row by row.
	const channels = transparent ? 4 : 3;
	const xTerm = [0, 1, 2].map((c) =>
		Float64Array.from({ length: width }, (_, x) => ((to[c] - from[c]) * x) / Math.max(1, width - 1) / 2),
	);
	return encodePng(
		width,
		height,
		(y, row) => {
			const yTerm = [0, 1, 2].map((c) => from[c] + ((to[c] - from[c]) * y) / Math.max(1, height - 1) / 2);
			// `| 0` rather than Math.round: a global looked up per pixel is slow inside jest's VM context.
			for (let x = 0, o = 0; x < width; x++, o += channels) {
				row[o] = (yTerm[0] + xTerm[0][x] + 0.5) | 0;
				row[o + 1] = (yTerm[1] + xTerm[1][x] + 0.5) | 0;
				row[o + 2] = (yTerm[2] + xTerm[2][x] + 0.5) | 0;
				if (transparent) row[o + 3] = inside(x, y) ? 255 : 0;
			}
		},
		transparent,
	);
}
