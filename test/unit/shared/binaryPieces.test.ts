/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Files that arrive in pieces are stored
 * without being gathered, and pieces the store has written are given back at
 * once. The stores are n8n's own consumers: fs.writeFile over the stream (the
 * filesystem mode, n8n's default) and binaryToBuffer (memory, database, S3 and
 * Azure modes gather the pieces with 'data' events). Whatever the consumer,
 * the stored bytes are the bytes sent; only a consumer that reads one piece at
 * a time sees its old pieces given back.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

import { binaryToBuffer } from '@n8n/backend-network';
import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readableFromStream, releaseBuffer, storeBinaryPieces } from '../../../nodes/shared/binary';
import { RELEASES_MEMORY } from '../../harness/runtime';

const node = { name: 'Gateway', type: 'n8n-nodes-generation-gateway.generationGateway' } as INode;
const folder = mkdtempSync(path.join(tmpdir(), 'binary-pieces-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A binary store: takes what prepareBinaryData got, returns the bytes as stored. */
type Store = (data: Buffer | Readable) => Promise<Buffer>;

/** n8n's filesystem store (its default): fs.writeFile over the stream. */
const filesystem: Store = async (data) => {
	const file = path.join(folder, `file-${Math.random()}`);
	await writeFile(file, data);
	return readFileSync(file);
};
/** n8n's memory, database, S3 and Azure stores: the pieces gathered into one buffer first. */
const gathering: Store = async (data) => await binaryToBuffer(data);

/** An execute context whose prepareBinaryData hands the data to `store` and records what it stored. */
function contextStoringWith(store: Store, stored: Buffer[] = []) {
	const prepareBinaryData = async (data: Buffer | Readable, fileName?: string, mimeType?: string) => {
		const bytes = await store(data);
		stored.push(bytes);
		return { data: '', fileName, mimeType: mimeType ?? '', bytes: bytes.length } as IBinaryData;
	};
	return { getNode: () => node, helpers: { prepareBinaryData } } as unknown as IExecuteFunctions;
}

function piecesOf(file: Buffer, size: number): Buffer[] {
	const pieces: Buffer[] = [];
	for (let offset = 0; offset < file.length; offset += size) {
		const piece = Buffer.allocUnsafeSlow(Math.min(size, file.length - offset));
		file.copy(piece, 0, offset, offset + piece.length);
		pieces.push(piece);
	}
	return pieces;
}

async function* yielding(pieces: Buffer[]) {
	for (const piece of pieces) yield piece;
}

describe('readableFromStream', () => {
	it.each([
		['an HTTP response', () => new IncomingMessage(null as never)],
		['a gunzip stream (a compressed answer)', () => createGunzip()],
		['a PassThrough', () => new PassThrough()],
	])('finds Readable.from through %s', async (_name, make) => {
		const from = readableFromStream(make());
		expect(typeof from).toBe('function');
		const stream = from!(yielding([Buffer.from('ab'), Buffer.from('c')]), {
			objectMode: true,
			highWaterMark: 1,
		});
		expect(stream).toBeInstanceOf(Readable);
		expect((await binaryToBuffer(stream as Readable)).toString()).toBe('abc');
	});

	it.each([
		['an async generator', yielding([])],
		['a plain object', {}],
		['nothing', undefined],
	])('finds nothing in %s', (_name, value) => {
		expect(readableFromStream(value)).toBeUndefined();
	});
});

describe('releaseBuffer', () => {
	it('gives back a buffer that owns its memory, and leaves views, pooled and shared memory alone', () => {
		const own = Buffer.allocUnsafeSlow(100);
		const big = Buffer.allocUnsafeSlow(1000);
		const view = big.subarray(10, 20);
		const pooled = Buffer.from('tiny');
		const start = big.subarray(0, 500);
		const notDetachable = Buffer.from('x'.repeat(5000));
		for (const buffer of [own, view, pooled, start, notDetachable]) releaseBuffer(buffer);
		expect(own.length).toBe(RELEASES_MEMORY ? 0 : 100);
		expect([view.length, pooled.length, start.length, notDetachable.length]).toEqual([10, 4, 500, 5000]);
		expect(big.length).toBe(1000);
	});
});

describe('storeBinaryPieces', () => {
	const file = randomBytes(300_000);

	it.each([
		['a store reading one piece at a time (filesystem)', filesystem, true],
		['a store gathering the pieces (memory, database, S3, Azure)', gathering, false],
	])('stores every byte with %s; gives old pieces back only there', async (_name, store, givesBack) => {
		const stored: Buffer[] = [];
		const pieces = piecesOf(file, 16_384);
		const binary = await storeBinaryPieces(
			contextStoringWith(store, stored),
			new PassThrough(),
			yielding(pieces),
			'image-1.png',
			'image/png',
			{ disposable: true },
		);
		expect(binary).toMatchObject({ fileName: 'image-1.png', mimeType: 'image/png', bytes: file.length });
		expect(stored[0].equals(file)).toBe(true);
		const given = pieces.filter((piece) => piece.length === 0).length;
		if (givesBack && RELEASES_MEMORY) {
			expect(given).toBeGreaterThan(pieces.length - 6); // all but the last few in flight
		} else {
			expect(given).toBe(0);
		}
	});

	it('gives nothing back unless the pieces are declared disposable', async () => {
		const pieces = piecesOf(file, 16_384);
		await storeBinaryPieces(
			contextStoringWith(filesystem),
			new PassThrough(),
			yielding(pieces),
			'f',
			'image/png',
		);
		expect(pieces.every((piece) => piece.length > 0)).toBe(true);
	});

	it('joins the pieces into one buffer when no stream class is at hand', async () => {
		const stored: Buffer[] = [];
		const binary = await storeBinaryPieces(
			contextStoringWith(filesystem, stored),
			undefined,
			yielding(piecesOf(file, 1000)),
			'f',
			'image/png',
			{ disposable: true },
		);
		expect(binary.bytes).toBe(file.length);
		expect(stored[0].equals(file)).toBe(true);
	});

	it('refuses a store that kept fewer bytes than were sent, naming the file', async () => {
		const short: Store = async (data) => (await binaryToBuffer(data)).subarray(1);
		const error = await storeBinaryPieces(
			contextStoringWith(short),
			new PassThrough(),
			yielding(piecesOf(file, 1000)),
			'image-2.webp',
			'image/webp',
		).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(
			`The file image-2.webp was stored with ${file.length - 1} of its ${file.length} bytes`,
		);
	});
});
