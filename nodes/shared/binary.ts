import { createHash } from 'crypto';
import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { binaryStoreReaderOf } from './n8nFeatures';
import { refusal } from './validation';

/** Media types of generated files: from the format asked for, else from the first bytes. */

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

/** data, data_1, data_2, ... */
export function binaryPropertyName(index: number, base = 'data'): string {
	return index === 0 ? base : `${base}_${index}`;
}

/** A file to embed: its size is known before it is read (the body's length is sent first). */
export interface PayloadFile {
	readonly size: number;
	/** Reads the file anew on every call, so a request sent again sends it again. */
	chunks(): AsyncIterable<Uint8Array>;
	readonly name?: string;
	/** Each chunk is a buffer nothing else reads: its memory is given back once encoded. */
	readonly disposable?: boolean;
}

/** A multiple of 3, so each chunk encodes to base64 on its own. */
const CHUNK_BYTES = 3 * 64 * 1024;

export function bufferFile(bytes: Buffer, name?: string): PayloadFile {
	return {
		size: bytes.length,
		name,
		async *chunks() {
			for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
				yield bytes.subarray(start, Math.min(start + CHUNK_BYTES, bytes.length));
			}
		},
	};
}

type StoreHelpers = Partial<Pick<IExecuteFunctions['helpers'], 'getBinaryStream' | 'getBinaryMetadata'>>;

/**
 * A file in n8n's binary store, streamed and never held whole. Undefined when its
 * size is unknown or the store cannot stream: the caller then reads it whole.
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
			// An older store keeps no record: the item's own count is used.
		}
	}
	if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
	return {
		size,
		name,
		disposable: true,
		async *chunks() {
			const stream = await reader.stream(id, CHUNK_BYTES);
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

async function firstBytes(file: PayloadFile, count: number): Promise<Buffer> {
	const pieces: Buffer[] = [];
	let got = 0;
	for await (const chunk of file.chunks()) {
		pieces.push(Buffer.from(chunk.subarray(0, count - got)));
		got += pieces[pieces.length - 1].length;
		if (got >= count) break;
	}
	return Buffer.concat(pieces);
}

interface InputFile extends PayloadFile {
	mimeType: string;
	fileName?: string;
	extension?: string;
}

const SNIFF_BYTES = 16;

/**
 * Finds an input item's binary property for sending, refusing a missing one or a MIME
 * type `accepts` rejects. Its bytes are read only when the request is sent.
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

export const mediaOfType =
	(type: string) =>
	(mimeType: string): boolean =>
		mimeType.startsWith(`${type}/`);

type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

export interface BinaryStore {
	getNode(): INode;
	helpers: Pick<IExecuteFunctions['helpers'], 'prepareBinaryData'>;
}
type ReadableFrom = (
	pieces: AsyncIterable<Buffer>,
	options: { objectMode: boolean; highWaterMark: number },
) => BinarySource;

/** Node's `Readable.from`, found on a stream's prototype chain: package code may not import node:stream. */
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

/** Node's `Readable.from`, taken from a crypto Hash (a Transform stream; crypto may be imported). */
export function nodeReadableFrom(): ReadableFrom {
	nodeReadable ??= readableFromStream(createHash('sha256'));
	if (!nodeReadable) throw new Error("Node's Readable class was not found on a crypto Hash");
	return nodeReadable;
}

/**
 * Gives a buffer's memory back now rather than at V8's next collection of external
 * memory. Only a buffer owning its whole ArrayBuffer; the caller vouches nothing reads it.
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
		// Not detachable: collected as usual.
	}
}

const HEAD_BYTES = 16;

/** A file arriving in pieces, its first bytes read ahead to tell its type before it is stored. */
export interface HeadedPieces {
	/** The first 16 bytes, fewer in a smaller file. */
	head: Buffer;
	/** Every piece, the head's included. */
	pieces: AsyncGenerator<Buffer>;
	/** Reads what `pieces` left unread. */
	skipRest(): Promise<void>;
}

/** `next` gives the file's next piece, undefined at its end. Undefined for an empty file. */
export async function readHead(next: () => Promise<Buffer | undefined>): Promise<HeadedPieces | undefined> {
	const head: Buffer[] = [];
	let size = 0;
	let ended = false;
	const take = async () => {
		const piece = ended ? undefined : await next();
		if (!piece) ended = true;
		return piece;
	};
	while (size < HEAD_BYTES && !ended) {
		const piece = await take();
		if (!piece) break;
		head.push(piece);
		size += piece.length;
	}
	if (!size) return undefined;
	return {
		head: Buffer.concat(head, Math.min(size, HEAD_BYTES)),
		pieces: (async function* () {
			yield* head.splice(0);
			for (let piece = await take(); piece; piece = await take()) yield piece;
		})(),
		skipRest: async () => {
			while (await take());
		},
	};
}

/** Pieces handed to the store that are kept while it may still read them. */
const PIECES_IN_FLIGHT = 4;

interface PieceOptions {
	/** Each piece is a buffer nothing else refers to: given back once the store wrote it. */
	disposable?: boolean;
}

/**
 * Stores a file arriving in pieces as an n8n binary without gathering it first.
 * A store reading in paused mode asks for a piece only after writing the last, so a
 * piece four requests old is written and can be given back; a store in flowing mode
 * gathers the pieces itself, and then nothing is given back.
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
