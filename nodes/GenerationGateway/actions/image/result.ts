import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readHead, releaseBuffer } from '../../../shared/binary';
import { errorCause, maybeCharged, operationError } from '../../../shared/errors';
import { jsonObject } from '../../../shared/sse';

/**
 * Reads an image result (JSON with `b64_json` members) from the response stream
 * without holding the Base64 text or the whole image: each `b64_json` string is
 * decoded chunk by chunk and its bytes handed on as they arrive; the rest of the
 * JSON is parsed with each Base64 value replaced by a marker.
 */

const FIELD = Buffer.from('b64_json');
/** Followed by the image's position. */
export const B64_MARKER = '#b64_json:';

/** Standard and URL-safe alphabets -> 6-bit value; 255 for every other byte. */
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

export type ImageEvent = { kind: 'start' } | { kind: 'bytes'; bytes: Buffer } | { kind: 'end' };

export class Base64ResultReader {
	private state = State.Structure;

	private escaped = false;

	/** The first bytes of the string being read, to recognise the key `b64_json`. */
	private keyBytes: number[] = [];

	private readonly skeleton: Buffer[] = [];

	/** Up to 3 pending sextets. */
	private bits = 0;

	private sextets = 0;

	/** An escape inside a Base64 value (`\/`), possibly split across chunks. */
	private pendingEscape = '';

	images = 0;

	private events: ImageEvent[] = [];

	/** The chunk is not kept: its bytes are decoded into new buffers. */
	push(chunk: Buffer): ImageEvent[] {
		this.events = [];
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
				this.events.push({ kind: 'start' });
				this.images++;
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
		return this.events;
	}

	text(): string {
		return Buffer.concat(this.skeleton).toString('utf8');
	}

	get truncated(): boolean {
		return this.state !== State.Structure;
	}

	private isField(): boolean {
		// keyBytes holds the content without the closing quote.
		return this.keyBytes.length === FIELD.length && FIELD.every((b, i) => this.keyBytes[i] === b);
	}

	/** Returns where structure reading resumes. */
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
			this.events.push({ kind: 'end' });
			this.skeleton.push(Buffer.from(`${B64_MARKER}${this.images - 1}"`));
			this.state = State.Structure;
			return end + 1;
		}
		return index;
	}

	/** `\/`, and harmlessly `\uXXXX` or line breaks. */
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

	/** No string per chunk: strings would pile up as garbage before the collector runs. */
	private decode(bytes: Buffer, from = 0, to = bytes.length): void {
		const target = Buffer.allocUnsafeSlow(Math.ceil(((to - from + this.sextets) * 3) / 4));
		let position = 0;
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
		this.bits = bits;
		this.sextets = sextets;
		if (position) this.events.push({ kind: 'bytes', bytes: target.subarray(0, position) });
	}

	/** The last 2 or 3 sextets of a value without padding carry 1 or 2 bytes. */
	private flushBits(): void {
		if (this.sextets >= 2) {
			const last = Buffer.allocUnsafeSlow(this.sextets - 1);
			if (this.sextets === 2) last[0] = this.bits >> 4;
			else {
				last[0] = this.bits >> 10;
				last[1] = (this.bits >> 2) & 0xff;
			}
			this.events.push({ kind: 'bytes', bytes: last });
		}
		this.bits = 0;
		this.sextets = 0;
	}
}

export interface IncomingImage {
	/** The number in its marker. */
	index: number;
	/** To tell its type before storing it. */
	head: Buffer;
	/** The head included. */
	bytes: AsyncIterable<Buffer>;
}

interface ParsedImageResult<T> {
	json: Record<string, unknown>;
	/** By marker number; undefined for an empty value. */
	images: Array<T | undefined>;
}

interface ImageResultOptions {
	itemIndex?: number;
	timeoutMs?: number;
	contentLength?: number;
}

/** Hands each image to `sink` while it arrives, one after the other, in the answer's order. */
export async function readImageResult<T>(
	node: INode,
	body: AsyncIterable<Buffer | string>,
	sink: (image: IncomingImage) => Promise<T>,
	options: ImageResultOptions = {},
): Promise<ParsedImageResult<T>> {
	const { itemIndex, timeoutMs, contentLength } = options;
	const reader = new Base64ResultReader();
	const source = body[Symbol.asyncIterator]();
	const queue: ImageEvent[] = [];
	let received = 0;
	let lastChunkAt = Date.now();
	let failure: NodeOperationError | undefined;

	const next = async (): Promise<ImageEvent | undefined> => {
		while (!queue.length) {
			let step: IteratorResult<Buffer | string>;
			try {
				step = await source.next();
			} catch (error) {
				const arrived = `after ${received}${contentLength ? ` of ${contentLength}` : ''} bytes had arrived`;
				const what =
					timeoutMs !== undefined && Date.now() - lastChunkAt >= timeoutMs - 50
						? `the image answer stopped for longer than Request Timeout (${timeoutMs / 1000} s) and was closed, ${arrived}`
						: `the connection to the gateway broke while the image answer was arriving${errorCause(error)}, ${arrived}`;
				const details = maybeCharged({ message: what });
				failure = operationError(node, details.message, { itemIndex, description: details.hint });
				throw failure;
			}
			if (step.done) return undefined;
			const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
			received += chunk.length;
			lastChunkAt = Date.now();
			for (const event of reader.push(chunk)) queue.push(event);
			releaseBuffer(chunk); // decoded: Node copied it for us alone, nothing reads it again
		}
		return queue.shift();
	};

	const images: Array<T | undefined> = [];
	const nextBytes = async () => {
		const event = await next();
		return event?.kind === 'bytes' ? event.bytes : undefined;
	};
	for (let event = await next(); event; event = await next()) {
		if (event.kind !== 'start') continue;
		// An image ends at its `end` event (or the answer does, which `truncated` reports).
		const file = await readHead(nextBytes);
		if (!file) {
			images.push(undefined);
			continue;
		}
		try {
			images.push(await sink({ index: images.length, head: file.head, bytes: file.pieces }));
		} catch (error) {
			throw failure ?? error;
		}
		// A sink that stopped early leaves the rest of its image unread: skip it.
		await file.skipRest();
	}

	const text = reader.text();
	const json = reader.truncated ? undefined : jsonObject(text);
	if (!json) {
		const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
		throw new NodeOperationError(node, 'The gateway answered with something that is not an image result', {
			itemIndex,
			description: `Expected a JSON object with a "data" list${reader.truncated ? '; the answer ended early' : ''}. Received: ${preview || '(empty body)'}`,
		});
	}
	return { json, images };
}
