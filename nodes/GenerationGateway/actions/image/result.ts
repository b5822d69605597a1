import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Reads an image result (JSON with `b64_json` members) from the response
 * stream without ever holding the Base64 text: each `b64_json` string is
 * decoded chunk by chunk into one byte arena, and the rest of the JSON (a few
 * hundred bytes) is parsed normally with the Base64 replaced by a marker.
 *
 * Why (PERFORMANCE.md P4): parsing the whole answer as JSON holds the raw
 * bytes, the text, the parsed string and the decoded image at once (about 5x
 * the image); this holds the decoded image plus one network chunk.
 */

const FIELD = Buffer.from('b64_json');
/** What a decoded `b64_json` value becomes in the parsed JSON: the marker + the image's position. */
export const B64_MARKER = '#b64_json:';

/** Base64 alphabet (standard and URL-safe) -> 6-bit value; 255 for every other byte. */
const SEXTET = new Uint8Array(256).fill(255);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
	.split('')
	.forEach((char, value) => (SEXTET[char.charCodeAt(0)] = value));
SEXTET['-'.charCodeAt(0)] = 62;
SEXTET['_'.charCodeAt(0)] = 63;
const SLASH = Buffer.from('/');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

enum State {
	Structure,
	String,
	AfterKey,
	AfterColon,
	Base64,
}

/** One growing buffer the images are decoded into; finished images are views of it. */
class Arena {
	private buffer: Buffer | undefined;

	private length = 0;

	private imageStart = 0;

	constructor(private readonly expectedBytes: number) {}

	/** Makes room for `room` more bytes; returns the buffer to write into at `length`. */
	reserve(room: number): Buffer {
		this.ensure(room);
		return this.buffer!;
	}

	/** Where the next byte goes; `advance` moves it after writing. */
	get position(): number {
		return this.length;
	}

	advance(bytes: number): void {
		this.length += bytes;
	}

	/** Ends the current image and returns its bytes (a view, not a copy). */
	finish(): Buffer {
		const image = this.buffer ? this.buffer.subarray(this.imageStart, this.length) : Buffer.alloc(0);
		this.imageStart = this.length;
		return image;
	}

	private ensure(room: number): void {
		if (this.buffer && this.length + room <= this.buffer.length) return;
		const current = this.length - this.imageStart;
		// First use: size from Content-Length (one allocation for every image of
		// the answer). Later: only the unfinished image moves to a bigger buffer,
		// finished images keep their views of the old one.
		const size = this.buffer
			? Math.max(this.buffer.length * 2, current + room)
			: Math.max(this.expectedBytes, room, 64 * 1024);
		const next = Buffer.allocUnsafe(size);
		if (this.buffer) this.buffer.copy(next, 0, this.imageStart, this.length);
		this.buffer = next;
		this.length = current;
		this.imageStart = 0;
	}
}

export class Base64ResultReader {
	private state = State.Structure;

	private escaped = false;

	/** The first bytes of the string being read, to recognise the key `b64_json`. */
	private keyBytes: number[] = [];

	private readonly skeleton: Buffer[] = [];

	private readonly arena: Arena;

	/** Base64 decoding state: up to 3 pending sextets in `bits`, `sextets` of them. */
	private bits = 0;

	private sextets = 0;

	/** An escape inside a Base64 value (`\/`), possibly split across chunks. */
	private pendingEscape = '';

	readonly images: Buffer[] = [];

	/** @param expectedBytes decoded size to expect (from Content-Length), to allocate once. */
	constructor(expectedBytes = 0) {
		this.arena = new Arena(expectedBytes);
	}

	push(chunk: Buffer): void {
		let copyFrom = 0;
		let index = 0;
		while (index < chunk.length) {
			if (this.state === State.Base64) {
				index = this.readBase64(chunk, index);
				copyFrom = index;
				continue;
			}
			const byte = chunk[index];
			if (this.state === State.String) {
				if (this.escaped) this.escaped = false;
				else if (byte === BACKSLASH) this.escaped = true;
				else if (byte === QUOTE) {
					this.state = this.isField() ? State.AfterKey : State.Structure;
				}
				if (this.keyBytes.length <= FIELD.length) this.keyBytes.push(byte);
			} else if (this.state === State.AfterKey && !isSpace(byte)) {
				this.state = byte === COLON ? State.AfterColon : State.Structure;
				if (this.state === State.Structure) continue; // read this byte again as structure
			} else if (this.state === State.AfterColon && !isSpace(byte)) {
				if (byte !== QUOTE) {
					this.state = State.Structure;
					continue;
				}
				this.skeleton.push(Buffer.from(chunk.subarray(copyFrom, index + 1)));
				this.state = State.Base64;
				index++;
				continue;
			} else if (this.state === State.Structure && byte === QUOTE) {
				this.state = State.String;
				this.keyBytes = [];
			}
			index++;
		}
		// Copied, not viewed: a view would keep the whole network chunk alive.
		if (this.state !== State.Base64 && copyFrom < chunk.length) {
			this.skeleton.push(Buffer.from(chunk.subarray(copyFrom)));
		}
	}

	/** The JSON text without the Base64 values (each replaced by B64_MARKER + its index). */
	text(): string {
		return Buffer.concat(this.skeleton).toString('utf8');
	}

	/** True when the stream ended inside a Base64 value. */
	get truncated(): boolean {
		return this.state !== State.Structure;
	}

	private isField(): boolean {
		// keyBytes holds the content without the closing quote.
		return this.keyBytes.length === FIELD.length && FIELD.every((b, i) => this.keyBytes[i] === b);
	}

	/** Reads Base64 text from `start`; returns where structure reading resumes. */
	private readBase64(chunk: Buffer, start: number): number {
		let index = start;
		while (index < chunk.length) {
			if (this.pendingEscape) {
				this.pendingEscape += String.fromCharCode(chunk[index++]);
				this.resolveEscape();
				continue;
			}
			let end = index;
			while (end < chunk.length && chunk[end] !== QUOTE && chunk[end] !== BACKSLASH) end++;
			if (end > index) this.decode(chunk, index, end);
			if (end === chunk.length) return end;
			if (chunk[end] === BACKSLASH) {
				this.pendingEscape = '\\';
				index = end + 1;
				continue;
			}
			// Closing quote: the image is complete.
			this.flushBits();
			this.images.push(this.arena.finish());
			this.skeleton.push(Buffer.from(`${B64_MARKER}${this.images.length - 1}"`));
			this.state = State.Structure;
			return end + 1;
		}
		return index;
	}

	/** JSON escapes a Base64 text may contain: `\/` (and, harmlessly, `\uXXXX` or line breaks). */
	private resolveEscape(): void {
		const escape = this.pendingEscape;
		if (escape.length < 2) return;
		if (escape[1] === 'u') {
			if (escape.length < 6) return;
			this.decode(Buffer.from(String.fromCharCode(parseInt(escape.slice(2), 16)), 'latin1'));
		} else if (escape[1] === '/') {
			this.decode(SLASH);
		}
		this.pendingEscape = '';
	}

	/**
	 * Decodes Base64 bytes straight into the arena: no string is made per
	 * chunk (strings of a 27 MB answer would be garbage worth several times the
	 * image before the collector runs). Other bytes ("=", line breaks) are skipped.
	 */
	private decode(bytes: Buffer, from = 0, to = bytes.length): void {
		const target = this.arena.reserve(Math.ceil(((to - from + this.sextets) * 3) / 4));
		let position = this.arena.position;
		let bits = this.bits;
		let sextets = this.sextets;
		for (let index = from; index < to; index++) {
			const value = SEXTET[bytes[index]];
			if (value === 255) continue;
			bits = (bits << 6) | value;
			if (++sextets === 4) {
				target[position++] = bits >> 16;
				target[position++] = (bits >> 8) & 0xff;
				target[position++] = bits & 0xff;
				bits = 0;
				sextets = 0;
			}
		}
		this.arena.advance(position - this.arena.position);
		this.bits = bits;
		this.sextets = sextets;
	}

	/** The last 2 or 3 sextets of a value without padding carry 1 or 2 bytes. */
	private flushBits(): void {
		const target = this.arena.reserve(2);
		let position = this.arena.position;
		if (this.sextets === 2) target[position++] = this.bits >> 4;
		if (this.sextets === 3) {
			target[position++] = this.bits >> 10;
			target[position++] = (this.bits >> 2) & 0xff;
		}
		this.arena.advance(position - this.arena.position);
		this.bits = 0;
		this.sextets = 0;
	}
}

export interface ParsedImageResult {
	json: Record<string, unknown>;
	/** Decoded images in the order their `b64_json` members appeared. */
	images: Buffer[];
}

/**
 * Reads a whole image result from a response body. `contentLength` (when the
 * gateway sent one) lets the decoded bytes be allocated once.
 */
export async function readImageResult(
	node: INode,
	body: AsyncIterable<Buffer | string>,
	contentLength: number | undefined,
	itemIndex?: number,
): Promise<ParsedImageResult> {
	// +16: room for the rounding of the last chunk, so the one allocation is enough.
	const reader = new Base64ResultReader(contentLength ? Math.ceil((contentLength * 3) / 4) + 16 : 0);
	for await (const chunk of body) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
	const text = reader.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	if (reader.truncated || !json || typeof json !== 'object' || Array.isArray(json)) {
		const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
		throw new NodeOperationError(node, 'The gateway answered with something that is not an image result', {
			itemIndex,
			description: `Expected a JSON object with a "data" list${reader.truncated ? '; the answer ended early' : ''}. Received: ${preview || '(empty body)'}`,
		});
	}
	return { json: json as Record<string, unknown>, images: reader.images };
}
