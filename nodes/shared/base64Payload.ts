import { randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { PayloadFile } from './binary';
import { bufferFile, nodeReadableFrom, releaseBuffer } from './binary';

/**
 * A JSON body carrying files as base64 without holding a file or its base64 whole.
 * The body is built and checked with a placeholder per file; `requestBody` then
 * streams the JSON text around each file's base64, written as the file is read,
 * with the exact length known up front (4 * ceil(n / 3) per file of n bytes).
 */

export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** The body would not match its Content-Length. */
export class FileSizeChanged extends Error {
	constructor(file: PayloadFile, read: number) {
		super(
			`The binary file ${file.name ? `"${file.name}" ` : ''}held ${read > file.size ? 'more than' : 'only'} ${read > file.size ? file.size : read} of the ${file.size} bytes n8n's binary store recorded for it, so the request was stopped while it was sent`,
		);
	}
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The two base64 characters of every 12 bits, as one 16-bit number in this machine's byte order. */
const CHARACTER_PAIRS = (() => {
	const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
	const pairs = new Uint16Array(4096);
	for (let bits = 0; bits < 4096; bits++) {
		const first = ALPHABET.charCodeAt(bits >> 6);
		const second = ALPHABET.charCodeAt(bits & 63);
		pairs[bits] = littleEndian ? first | (second << 8) : (first << 8) | second;
	}
	return pairs;
})();

/**
 * Writes whole 3-byte groups into `out` in place: `toString('base64')` would make a
 * string per slice and grow V8's young generation while a file is sent.
 */
function encodeGroups(source: Uint8Array, out: Buffer, offset: number): number {
	const groups = source.length / 3;
	const target = new Uint16Array(out.buffer, out.byteOffset + offset, groups * 2);
	for (let group = 0, at = 0; group < groups; group++, at += 3) {
		const bits = (source[at] << 16) | (source[at + 1] << 8) | source[at + 2];
		target[2 * group] = CHARACTER_PAIRS[bits >>> 12];
		target[2 * group + 1] = CHARACTER_PAIRS[bits & 4095];
	}
	return offset + groups * 4;
}

/** Bytes that do not fill a 3-byte group go on to the next chunk: padding only at the end. */
async function* base64Of(file: PayloadFile): AsyncGenerator<Buffer> {
	let carry = Buffer.alloc(0);
	let read = 0;
	for await (const chunk of file.chunks()) {
		read += chunk.length;
		if (read > file.size) throw new FileSizeChanged(file, read);
		const usable = carry.length + chunk.length;
		if (usable < 3) {
			carry = Buffer.concat([carry, chunk]);
			if (file.disposable) releaseBuffer(chunk);
			continue;
		}
		const out = Buffer.allocUnsafeSlow(base64Length(usable - (usable % 3)));
		let offset = 0;
		let start = 0;
		if (carry.length) {
			start = 3 - carry.length;
			offset = encodeGroups(Buffer.concat([carry, chunk.subarray(0, start)]), out, offset);
		}
		const end = chunk.length - ((chunk.length - start) % 3);
		encodeGroups(chunk.subarray(start, end), out, offset);
		carry = Buffer.from(chunk.subarray(end)); // a copy: the chunk is not kept
		if (file.disposable) releaseBuffer(chunk);
		yield out;
	}
	if (read !== file.size) throw new FileSizeChanged(file, read);
	if (carry.length) yield Buffer.from(carry.toString('base64'), 'latin1');
}

interface BodyStream {
	destroy(error?: Error): unknown;
	readonly readableEnded?: boolean;
	readonly destroyed?: boolean;
}

/** `open` gives a fresh stream for each send: a retry or redirect reads the files again. */
export class StreamedBody {
	constructor(
		readonly length: number,
		private readonly parts: ReadonlyArray<string | PayloadFile>,
	) {}

	async *pieces(): AsyncGenerator<Buffer> {
		for (const part of this.parts) {
			if (typeof part !== 'string') yield* base64Of(part);
			else if (part) yield Buffer.from(part, 'utf8');
		}
	}

	open(): BodyStream {
		return nodeReadableFrom()(this.pieces(), { objectMode: true, highWaterMark: 1 }) as BodyStream;
	}
}

export class Base64Payload {
	private readonly files: PayloadFile[] = [];
	private readonly marker = `gg-b64-${randomUUID().replace(/-/g, '')}-`;

	get size(): number {
		return this.files.length;
	}

	/** A JSON-safe placeholder for `prefix` + the file's base64, e.g. a data URL. */
	embed(file: Buffer | PayloadFile, prefix = ''): string {
		this.files.push(Buffer.isBuffer(file) ? bufferFile(file) : file);
		return `${prefix}${this.marker}${this.files.length - 1}.`;
	}

	stream(body: IDataObject): StreamedBody {
		const json = JSON.stringify(body);
		const pattern = new RegExp(`${this.marker}(\\d+)\\.`, 'g');
		const parts: Array<string | PayloadFile> = [];
		let last = 0;
		for (const match of json.matchAll(pattern)) {
			parts.push(json.slice(last, match.index), this.files[Number(match[1])]);
			last = match.index + match[0].length;
		}
		parts.push(json.slice(last));
		const length = parts.reduce<number>(
			(sum, part) => sum + (typeof part === 'string' ? Buffer.byteLength(part) : base64Length(part.size)),
			0,
		);
		return new StreamedBody(length, parts);
	}

	requestBody(body: IDataObject): IDataObject | StreamedBody {
		return this.files.length ? this.stream(body) : body;
	}
}

/** A symbol key: `{...body}` copies the payload, `JSON.stringify` and the checks never see it. */
const PAYLOAD = Symbol('base64Payload');

export function withPayload<T extends IDataObject>(body: T, payload: Base64Payload): T {
	return payload.size ? Object.assign(body, { [PAYLOAD]: payload }) : body;
}

export function sendableBody(body: IDataObject): IDataObject | StreamedBody {
	const payload = (body as { [PAYLOAD]?: Base64Payload })[PAYLOAD];
	return payload ? payload.requestBody(body) : body;
}
