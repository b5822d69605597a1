import { randomUUID } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { PayloadFile } from './binary';
import { bufferFile, nodeReadableFrom, releaseBuffer } from './binary';

/**
 * A JSON request body that carries files as base64 text without ever holding
 * a file or its base64 whole. The body is built and checked with a short
 * placeholder where each file goes; `requestBody` then gives a StreamedBody:
 * the JSON text around the files and each file's base64, written as the file
 * is read from n8n's binary store a chunk at a time, with the exact length
 * known up front (JSON text + 4 * ceil(n / 3) per file of n bytes). The
 * bytes are those `JSON.stringify` writes over the base64 text (a data URL
 * with its prefix, or bare base64). A 20 MB or 200 MB file costs a few
 * chunks of memory, not 2.4 to 3x its size (file, then the whole body).
 */

/** The length of the base64 text of `bytes` bytes, padding included. */
export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** The file held more or fewer bytes than it said: the body would not match its Content-Length. */
export class FileSizeChanged extends Error {
	constructor(file: PayloadFile, read: number) {
		super(
			`The binary file ${file.name ? `"${file.name}" ` : ''}held ${read > file.size ? 'more than' : 'only'} ${read > file.size ? file.size : read} of the ${file.size} bytes n8n's binary store recorded for it, so the request was stopped while it was sent`,
		);
	}
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The base64 characters of every 12 bits, two at a time as one 16-bit
 * number in this machine's byte order: written through a Uint16Array, they
 * land in memory in the order they are read.
 */
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
 * Writes the base64 of `source` (whole 3-byte groups) into `out` from
 * `offset` (even), 4 characters per group; returns the offset after them.
 * Written in place, not through `toString('base64')`: a string per slice
 * would pass the file's base64 through V8's young generation, which then
 * grows to its largest size (about 32 MB resident) while a file is sent.
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

/**
 * The base64 text of one file, a buffer per chunk read. A chunk's last one
 * or two bytes that do not fill a 3-byte group are kept for the next chunk,
 * so the pieces join into one valid base64 text (padding only at its end).
 */
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

/** What the transport hands n8n's HTTP helper for one send: a Node Readable. */
export interface BodyStream {
	destroy(error?: Error): unknown;
	readonly readableEnded?: boolean;
	readonly destroyed?: boolean;
}

/**
 * A JSON body written as it is sent. `length` is exact (the Content-Length);
 * `open` gives a fresh stream of the bytes for each send (a retry or a
 * redirect sends the body again, reading the files again). Nothing is read
 * until the stream is.
 */
export class StreamedBody {
	constructor(
		readonly length: number,
		private readonly parts: ReadonlyArray<string | PayloadFile>,
	) {}

	/** The body's bytes, a piece at a time: JSON text, then each file's base64 as it is read. */
	async *pieces(): AsyncGenerator<Buffer> {
		for (const part of this.parts) {
			if (typeof part !== 'string') yield* base64Of(part);
			else if (part) yield Buffer.from(part, 'utf8');
		}
	}

	/** A Node Readable of the body, read once; destroying it lets its files go. */
	open(): BodyStream {
		return nodeReadableFrom()(this.pieces(), { objectMode: true, highWaterMark: 1 }) as BodyStream;
	}

	/** The whole body in one buffer (tests; a body known to be small). */
	async bytes(): Promise<Buffer> {
		const pieces: Buffer[] = [];
		for await (const piece of this.pieces()) pieces.push(piece);
		return Buffer.concat(pieces, this.length);
	}
}

export class Base64Payload {
	private readonly files: PayloadFile[] = [];
	private readonly marker = `gg-b64-${randomUUID().replace(/-/g, '')}-`;

	/** How many files the payload carries. */
	get size(): number {
		return this.files.length;
	}

	/**
	 * A placeholder standing for `prefix` + the file's base64 text, to put in
	 * the body where the file goes (e.g. prefix `data:image/png;base64,` for a
	 * data URL). It is made of JSON-safe characters, so it survives
	 * `JSON.stringify` unchanged. Nothing is read from the file here.
	 */
	embed(file: Buffer | PayloadFile, prefix = ''): string {
		this.files.push(Buffer.isBuffer(file) ? bufferFile(file) : file);
		return `${prefix}${this.marker}${this.files.length - 1}.`;
	}

	/** The body as it will be sent: JSON text around the files, each placeholder standing for its file's base64. */
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

	/** The body to hand to the transport: streamed when files are embedded, else the object itself. */
	requestBody(body: IDataObject): IDataObject | StreamedBody {
		return this.files.length ? this.stream(body) : body;
	}
}

/**
 * Where a built body keeps its payload: a symbol key, so the body can be
 * copied with `{...body}` (the payload goes along) while `JSON.stringify`
 * and the checks never see it.
 */
const PAYLOAD = Symbol('base64Payload');

/** Attaches the payload whose placeholders `body` holds. */
export function withPayload<T extends IDataObject>(body: T, payload: Base64Payload): T {
	return payload.size ? Object.assign(body, { [PAYLOAD]: payload }) : body;
}

/** The body to send: streamed with the files written in when a payload is attached, else the object. */
export function sendableBody(body: IDataObject): IDataObject | StreamedBody {
	const payload = (body as { [PAYLOAD]?: Base64Payload })[PAYLOAD];
	return payload ? payload.requestBody(body) : body;
}
