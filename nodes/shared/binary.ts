import { createHash } from 'crypto';
import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { binaryStoreReaderOf } from './n8nFeatures';
import { refusal } from './validation';

/**
 * Media types of generated files: from the format the user asked for, else
 * from the first bytes. Used for images, audio and video alike.
 */

export interface MediaType {
	mimeType: string;
	extension: string;
}

export const MEDIA_BY_FORMAT: Record<string, MediaType> = {
	png: { mimeType: 'image/png', extension: 'png' },
	jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
	jpg: { mimeType: 'image/jpeg', extension: 'jpg' },
	webp: { mimeType: 'image/webp', extension: 'webp' },
	gif: { mimeType: 'image/gif', extension: 'gif' },
	mp3: { mimeType: 'audio/mpeg', extension: 'mp3' },
	wav: { mimeType: 'audio/wav', extension: 'wav' },
	opus: { mimeType: 'audio/ogg', extension: 'opus' },
	ogg: { mimeType: 'audio/ogg', extension: 'ogg' },
	pcm: { mimeType: 'audio/L16', extension: 'pcm' },
	mp4: { mimeType: 'video/mp4', extension: 'mp4' },
	mov: { mimeType: 'video/quicktime', extension: 'mov' },
	webm: { mimeType: 'video/webm', extension: 'webm' },
};

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
	bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

/** Recognises the formats the gateway returns from their magic bytes. */
export function sniffMediaType(bytes: Uint8Array): MediaType | undefined {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return MEDIA_BY_FORMAT.png;
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return MEDIA_BY_FORMAT.jpeg;
	if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return MEDIA_BY_FORMAT.webp;
	if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return MEDIA_BY_FORMAT.wav;
	if (startsWith(bytes, ascii('GIF8'))) return MEDIA_BY_FORMAT.gif;
	if (startsWith(bytes, ascii('OggS'))) return MEDIA_BY_FORMAT.opus;
	if (
		startsWith(bytes, ascii('ID3')) ||
		(bytes.length > 1 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)
	) {
		return MEDIA_BY_FORMAT.mp3;
	}
	if (startsWith(bytes, ascii('ftypqt'), 4)) return MEDIA_BY_FORMAT.mov;
	if (startsWith(bytes, ascii('ftyp'), 4)) return MEDIA_BY_FORMAT.mp4;
	if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return MEDIA_BY_FORMAT.webm;
	return undefined;
}

/** The binary property name of the n-th file of an item: data, data_1, data_2, ... */
export function binaryPropertyName(index: number, base = 'data'): string {
	return index === 0 ? base : `${base}_${index}`;
}

/** A file to embed: its size, known before it is read, and its bytes, read afresh for every send. */
export interface PayloadFile {
	/** Bytes the file holds: the body's length is sent before the file is read. */
	readonly size: number;
	/**
	 * The file's bytes from the first, a chunk at a time. Every call reads the
	 * file anew (a request sent again sends it again); a reader that stops
	 * early ends the iteration, which lets the file go.
	 */
	chunks(): AsyncIterable<Uint8Array>;
	/** Names the file in the error when it holds more or fewer bytes than `size`. */
	readonly name?: string;
	/**
	 * Each chunk is a buffer of its own that nothing else reads (as n8n's
	 * store streams hand them): its memory is given back as soon as it is
	 * encoded, instead of when V8 next collects garbage.
	 */
	readonly disposable?: boolean;
}

/** Bytes of a file read from n8n's binary store at a time: a multiple of 3, so chunks encode to base64 on their own. */
const STORE_CHUNK_BYTES = 3 * 64 * 1024;
/** Bytes of an in-memory file handed on at a time: a multiple of 3. */
const BUFFER_CHUNK_BYTES = 3 * 64 * 1024;

/** A file already in memory (a Buffer), read in slices of it. */
export function bufferFile(bytes: Buffer, name?: string): PayloadFile {
	return {
		size: bytes.length,
		name,
		async *chunks() {
			for (let start = 0; start < bytes.length; start += BUFFER_CHUNK_BYTES) {
				yield bytes.subarray(start, Math.min(start + BUFFER_CHUNK_BYTES, bytes.length));
			}
		},
	};
}

/** The helpers a file kept in n8n's binary store is read through. */
type StoreHelpers = Partial<Pick<IExecuteFunctions['helpers'], 'getBinaryStream' | 'getBinaryMetadata'>>;

/**
 * A file in n8n's binary store (filesystem, S3, database: a binary with an
 * `id`), opened afresh each time it is read and read a chunk at a time: it
 * is never held whole. Its size is the store's record of it (else the
 * item's); undefined when neither is known or the store cannot stream (an
 * n8n without getBinaryStream), for the caller to read the file whole.
 */
export async function storedFile(
	helpers: StoreHelpers,
	binary: IBinaryData,
	name?: string,
): Promise<PayloadFile | undefined> {
	const id = binary.id;
	const reader = binaryStoreReaderOf(helpers);
	if (!id || !reader) return undefined;
	let size: unknown = binary.bytes;
	if (reader.metadata) {
		try {
			const recorded = (await reader.metadata(id)).fileSize as unknown;
			if (typeof recorded === 'number') size = recorded;
		} catch {
			// No record (an older store): the item's own count, else the file is read whole.
		}
	}
	if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
	return {
		size,
		name,
		disposable: true,
		async *chunks() {
			const stream = await reader.stream(id, STORE_CHUNK_BYTES);
			try {
				for await (const chunk of stream as AsyncIterable<Buffer | string>) {
					yield typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
				}
			} finally {
				stream.destroy();
			}
		},
	};
}

/** The first `count` bytes of a file (fewer when it is shorter); the rest is not read. */
export async function firstBytes(file: PayloadFile, count: number): Promise<Buffer> {
	const pieces: Buffer[] = [];
	let got = 0;
	for await (const chunk of file.chunks()) {
		pieces.push(Buffer.from(chunk.subarray(0, count - got)));
		got += pieces[pieces.length - 1].length;
		if (got >= count) break;
	}
	return Buffer.concat(pieces);
}

/** A file read from an input item's binary property: its bytes are read when the request is sent. */
export interface InputFile extends PayloadFile {
	mimeType: string;
	fileName?: string;
	extension?: string;
}

/** Enough of a file's start for sniffMediaType. */
const SNIFF_BYTES = 16;

/**
 * Finds a binary property of an input item for sending. Refuses, naming the
 * form field, when the property is missing or its MIME type (as n8n recorded
 * it, else as the bytes show) is not one `accepts` takes; `expected` says
 * what is accepted, e.g. "an image". A file in n8n's binary store is not
 * read here (only its first bytes when no MIME type was recorded): the
 * request reads it as it is sent (base64Payload.ts).
 */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	where: { field: string; expected: string; accepts: (mimeType: string) => boolean },
): Promise<InputFile> {
	const name = property.trim();
	if (!name) throw refusal(ctx.getNode(), where.field, 'enter the name of a binary property', itemIndex);
	const binary = ctx.getInputData()[itemIndex]?.binary?.[name];
	if (!binary) {
		const present = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
		throw refusal(
			ctx.getNode(),
			where.field,
			`the input item has no binary property "${name}" (it has ${present.length ? present.join(', ') : 'none'})`,
			itemIndex,
		);
	}
	const label = binary.fileName || name;
	const file =
		(await storedFile(ctx.helpers, binary, label)) ??
		bufferFile(await ctx.helpers.getBinaryDataBuffer(itemIndex, name), label);
	const recorded = binary.mimeType || (sniffMediaType(await firstBytes(file, SNIFF_BYTES))?.mimeType ?? '');
	const mimeType = (recorded || 'application/octet-stream').split(';')[0].trim().toLowerCase();
	if (!where.accepts(mimeType)) {
		throw refusal(
			ctx.getNode(),
			where.field,
			`binary property "${name}" is ${mimeType}, but ${where.expected} is needed`,
			itemIndex,
		);
	}
	return { ...file, mimeType, fileName: binary.fileName, extension: binary.fileExtension };
}

/** A MIME type test for one top-level type, e.g. `mediaOfType('image')` accepts image/png. */
export const mediaOfType =
	(type: string) =>
	(mimeType: string): boolean =>
		mimeType.startsWith(`${type}/`);

/** What `prepareBinaryData` takes: a Buffer or a Node Readable. */
type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** Any n8n context with a binary store (an execution, or a webhook such as a video callback). */
export interface BinaryStore {
	getNode(): INode;
	helpers: Pick<IExecuteFunctions['helpers'], 'prepareBinaryData'>;
}
type ReadableFrom = (
	pieces: AsyncIterable<Buffer>,
	options: { objectMode: boolean; highWaterMark: number },
) => BinarySource;

/**
 * Node's `Readable.from`, reached through a stream n8n handed us (package
 * code may not import node:stream): the class named Readable on the stream's
 * prototype chain. Undefined when `stream` is no Node stream (unit tests).
 */
export function readableFromStream(stream: unknown): ReadableFrom | undefined {
	let prototype: unknown = stream && typeof stream === 'object' ? Object.getPrototypeOf(stream) : undefined;
	for (let depth = 0; depth < 10 && prototype; depth++) {
		const constructor = (prototype as { constructor?: { name?: string; from?: unknown } }).constructor;
		if (constructor?.name === 'Readable' && typeof constructor.from === 'function') {
			return (constructor.from as ReadableFrom).bind(constructor);
		}
		prototype = Object.getPrototypeOf(prototype);
	}
	return undefined;
}

let nodeReadable: ReadableFrom | undefined;

/**
 * Node's `Readable.from`, for streams the package makes itself (a request
 * body): found on the prototype chain of a crypto Hash, a Node Transform
 * stream (package code may import crypto but not node:stream).
 */
export function nodeReadableFrom(): ReadableFrom {
	nodeReadable ??= readableFromStream(createHash('sha256'));
	if (!nodeReadable) throw new Error("Node's Readable class was not found on a crypto Hash");
	return nodeReadable;
}

/**
 * Gives a buffer's memory back at once instead of when V8 next collects
 * garbage. V8 counts buffers as external memory and collects them only after
 * about 64 MB have piled up, so without this every chunk of a 20 MB download
 * stays resident until the end. Only a buffer that owns its whole
 * ArrayBuffer is given back (a view into a shared or pooled buffer is left
 * alone): the caller vouches that nothing else reads it any more.
 */
export function releaseBuffer(buffer: Uint8Array): void {
	const memory = buffer.buffer as ArrayBuffer & {
		transfer?: (length: number) => ArrayBuffer;
		detached?: boolean;
	};
	if (buffer.byteOffset !== 0 || memory.byteLength - buffer.byteLength > 16 || memory.detached) return;
	if (typeof memory.transfer !== 'function') return;
	try {
		memory.transfer(0);
	} catch {
		// Not detachable (memory Node does not own): collected as usual.
	}
}

/** Pieces handed to the store that are kept (not given back) while it may still read them. */
const PIECES_IN_FLIGHT = 4;

export interface PieceOptions {
	/**
	 * Each piece is a buffer of its own (Buffer.allocUnsafeSlow) that nothing
	 * else refers to: it may be given back once the store has written it.
	 */
	disposable?: boolean;
}

/**
 * Stores a file that arrives in pieces as an n8n binary without gathering it
 * first: n8n's filesystem store (the default) writes each piece to disk as
 * it comes. `response` is the stream the pieces are read from, whose
 * Readable class carries them; without one the pieces are joined into one
 * Buffer.
 *
 * Disposable pieces are given back as soon as the store is done with them,
 * so a large file costs a few pieces of memory, not its size in garbage.
 * Done with means: the store reads one piece at a time and asks for the next
 * only after writing the last (fs.writeFile does, reading through the
 * stream's async iterator in paused mode); with one piece buffered in the
 * stream, a piece four requests old is written. A store that reads with
 * 'data' events (n8n's memory, database and S3 modes gather the pieces into
 * one buffer) puts the stream in flowing mode: then nothing is given back.
 * The stored size is checked against the bytes sent.
 */
export async function storeBinaryPieces(
	ctx: BinaryStore,
	response: unknown,
	pieces: AsyncIterable<Buffer>,
	fileName: string,
	mimeType: string,
	options: PieceOptions = {},
): Promise<IBinaryData> {
	const from = readableFromStream(response);
	if (!from) {
		const parts: Buffer[] = [];
		for await (const piece of pieces) parts.push(piece);
		return await ctx.helpers.prepareBinaryData(Buffer.concat(parts), fileName, mimeType);
	}
	let sent = 0;
	let gathered = false;
	const inFlight: Buffer[] = [];
	const feed = async function* () {
		for await (const piece of pieces) {
			sent += piece.length;
			if (options.disposable && !gathered) {
				gathered = (stream as { readableFlowing?: boolean | null }).readableFlowing === true;
				if (gathered) inFlight.length = 0;
				else {
					inFlight.push(piece);
					if (inFlight.length > PIECES_IN_FLIGHT) releaseBuffer(inFlight.shift()!);
				}
			}
			yield piece;
		}
	};
	const stream = from(feed(), { objectMode: true, highWaterMark: 1 });
	const binary = await ctx.helpers.prepareBinaryData(stream, fileName, mimeType);
	if (binary.bytes !== undefined && binary.bytes !== sent) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The file ${fileName} was stored with ${binary.bytes} of its ${sent} bytes`,
			{
				description:
					"n8n's binary data store did not write the whole file. Please report this with your n8n version and binary data mode.",
			},
		);
	}
	return binary;
}
