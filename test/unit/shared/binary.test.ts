/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Which input binaries each member takes. One table of accepted and
 * refused files per member (video frame, video reference by Material Type,
 * message turn, cached-content turn), judged by readBinaryFile with the same
 * MIME tests the operations use. The MIME type is n8n's record of the file,
 * else what its bytes show; parameters (`; charset=...`) and case are ignored.
 */
import { Readable } from 'node:stream';

import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CACHED_CONTENT_FILE } from '../../../nodes/GenerationGateway/actions/cachedContent/body';
import { MESSAGE_FILE } from '../../../nodes/GenerationGateway/actions/message/body';
import { videoMaterial } from '../../../nodes/GenerationGateway/actions/video/request';
import type { PayloadFile } from '../../../nodes/shared/binary';
import { readBinaryFile } from '../../../nodes/shared/binary';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
const MP3 = Buffer.from('ID3\u0003\u0000mp3');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4)]);
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const TEXT = Buffer.from('plain words');

/** The smallest execute context readBinaryFile uses: one input item with these binaries. */
function contextWith(files: Record<string, { bytes: Buffer; mimeType?: string }>): IExecuteFunctions {
	const binary: Record<string, IBinaryData> = {};
	for (const [name, file] of Object.entries(files)) {
		binary[name] = { data: file.bytes.toString('base64'), mimeType: file.mimeType ?? '', fileName: name };
	}
	const node = { name: 'Gateway', type: 'n8n-nodes-generation-gateway.generationGateway' } as INode;
	return {
		getNode: () => node,
		getInputData: () => [{ json: {}, binary }],
		helpers: {
			getBinaryDataBuffer: async (_item: number, name: string) => Buffer.from(binary[name].data, 'base64'),
		},
	} as unknown as IExecuteFunctions;
}

// The rules as the operations use them.
const MEMBERS = {
	'video frame': videoMaterial('image'),
	'video reference, Material Type Image': videoMaterial('image'),
	'video reference, Material Type Video': videoMaterial('video'),
	'video reference, Material Type Audio': videoMaterial('audio'),
	'message turn': MESSAGE_FILE,
	'cached-content turn': CACHED_CONTENT_FILE,
};
type Member = keyof typeof MEMBERS;

// [member, recorded MIME type ('' = none recorded), bytes, MIME type sent]
const accepted: Array<[Member, string, Buffer, string]> = [
	['video frame', 'image/png', PNG, 'image/png'],
	['video frame', 'image/jpeg', JPEG, 'image/jpeg'],
	['video frame', 'IMAGE/PNG; charset=binary', PNG, 'image/png'],
	['video frame', '', PNG, 'image/png'],
	['video frame', '', JPEG, 'image/jpeg'],
	['video reference, Material Type Image', 'image/webp', PNG, 'image/webp'],
	['video reference, Material Type Video', 'video/mp4', MP4, 'video/mp4'],
	['video reference, Material Type Video', '', MP4, 'video/mp4'],
	['video reference, Material Type Audio', 'audio/mpeg', MP3, 'audio/mpeg'],
	['video reference, Material Type Audio', 'audio/wav', MP3, 'audio/wav'],
	['video reference, Material Type Audio', '', MP3, 'audio/mpeg'],
	['message turn', 'image/png', PNG, 'image/png'],
	['message turn', 'image/jpeg', JPEG, 'image/jpeg'],
	['message turn', 'image/webp', PNG, 'image/webp'],
	['message turn', 'image/gif', PNG, 'image/gif'],
	['message turn', 'application/pdf', PDF, 'application/pdf'],
	['cached-content turn', 'application/pdf', PDF, 'application/pdf'],
	['cached-content turn', 'text/plain', TEXT, 'text/plain'],
	['cached-content turn', 'audio/mpeg', MP3, 'audio/mpeg'],
	['cached-content turn', '', PNG, 'image/png'],
];

// [member, recorded MIME type, bytes, refusal]
const refused: Array<[Member, string, Buffer, string]> = [
	['video frame', 'audio/mpeg', MP3, 'binary property "file" is audio/mpeg, but an image is needed'],
	['video frame', 'video/mp4', MP4, 'binary property "file" is video/mp4, but an image is needed'],
	['video frame', '', TEXT, 'binary property "file" is application/octet-stream, but an image is needed'],
	[
		'video reference, Material Type Image',
		'video/mp4',
		MP4,
		'binary property "file" is video/mp4, but an image is needed',
	],
	[
		'video reference, Material Type Video',
		'image/png',
		PNG,
		'binary property "file" is image/png, but a video is needed',
	],
	[
		'video reference, Material Type Audio',
		'video/mp4',
		MP4,
		'binary property "file" is video/mp4, but an audio file is needed',
	],
	[
		'message turn',
		'image/svg+xml',
		TEXT,
		'binary property "file" is image/svg+xml, but a PNG, JPEG, WebP or GIF image or a PDF document is needed',
	],
	[
		'message turn',
		'audio/mpeg',
		MP3,
		'binary property "file" is audio/mpeg, but a PNG, JPEG, WebP or GIF image or a PDF document is needed',
	],
	[
		'message turn',
		'text/plain',
		TEXT,
		'binary property "file" is text/plain, but a PNG, JPEG, WebP or GIF image or a PDF document is needed',
	],
	[
		'cached-content turn',
		'',
		TEXT,
		'binary property "file" is application/octet-stream, but a file with a MIME type is needed',
	],
];

/** All the bytes of a file, read the way a request reads it. */
async function bytesOf(file: PayloadFile): Promise<Buffer> {
	const pieces: Buffer[] = [];
	for await (const piece of file.chunks()) pieces.push(Buffer.from(piece));
	return Buffer.concat(pieces);
}

const read = (member: Member, ctx: IExecuteFunctions, property = 'file') =>
	readBinaryFile(ctx, 0, property, { field: 'The Field', ...MEMBERS[member] });

describe('readBinaryFile: which files each member takes', () => {
	it.each(accepted)('%s takes a file recorded as "%s"', async (member, recorded, bytes, sent) => {
		const file = await read(member, contextWith({ file: { bytes, mimeType: recorded } }));
		expect(file.mimeType).toBe(sent);
		expect((await bytesOf(file)).equals(bytes)).toBe(true);
		expect(file.size).toBe(bytes.length);
	});

	it.each(refused)('%s refuses a file recorded as "%s"', async (member, recorded, bytes, problem) => {
		const attempt = read(member, contextWith({ file: { bytes, mimeType: recorded } }));
		await expect(attempt).rejects.toThrow(NodeOperationError);
		await expect(attempt).rejects.toThrow(`The Field: ${problem}`);
	});

	it.each([
		['a missing property', 'photo', 'The Field: the input item has no binary property "photo" (it has file)'],
		['an empty name', '  ', 'The Field: enter the name of a binary property'],
	])('refuses %s, naming the field', async (_case, property, message) => {
		const attempt = read(
			'video frame',
			contextWith({ file: { bytes: PNG, mimeType: 'image/png' } }),
			property,
		);
		await expect(attempt).rejects.toThrow(message);
	});

	it('says when the item has no binaries at all', async () => {
		await expect(read('message turn', contextWith({}), 'data')).rejects.toThrow(
			'The Field: the input item has no binary property "data" (it has none)',
		);
	});

	it('a refusal says nothing was sent', async () => {
		const error = await read('video frame', contextWith({}), 'data').catch((e: NodeOperationError) => e);
		expect((error as NodeOperationError).description).toBe(
			'The request was not sent to the gateway, so no credit was spent.',
		);
	});
});

describe('readBinaryFile: a file in the binary store is read when the request is sent, never whole', () => {
	const PHOTO = Buffer.concat([PNG, Buffer.alloc(1000, 7)]);

	/** An item whose binary is in n8n's store (an id), read through getBinaryStream in chunks. */
	function storeContext(options: {
		mimeType?: string;
		bytes?: number;
		metadata?: () => Promise<{ fileSize: number }>;
		stream?: boolean;
	}) {
		const log = { opened: 0, destroyed: 0, chunkSizes: [] as Array<number | undefined>, buffers: 0 };
		const binary: IBinaryData = {
			id: 'filesystem-v2:workflows/1/executions/1/binary_data/abc',
			data: 'filesystem-v2',
			mimeType: options.mimeType ?? 'image/png',
			fileName: 'photo.png',
			bytes: options.bytes,
		};
		const node = { name: 'Gateway', type: 'n8n-nodes-generation-gateway.generationGateway' } as INode;
		const helpers: Record<string, unknown> = {
			getBinaryDataBuffer: async () => {
				log.buffers++;
				return PHOTO;
			},
			getBinaryMetadata: options.metadata ?? (async () => ({ fileSize: PHOTO.length })),
		};
		if (options.stream !== false) {
			helpers.getBinaryStream = async (id: string, chunkSize?: number) => {
				expect(id).toBe(binary.id);
				log.opened++;
				log.chunkSizes.push(chunkSize);
				const stream = Readable.from([PHOTO.subarray(0, 10), PHOTO.subarray(10, 500), PHOTO.subarray(500)]);
				stream.once('close', () => log.destroyed++);
				return stream;
			};
		}
		const ctx = {
			getNode: () => node,
			getInputData: () => [{ json: {}, binary: { file: binary } }],
			helpers,
		} as unknown as IExecuteFunctions;
		return { ctx, log };
	}

	it('finds the file and its size without reading it; each read opens the store anew, in chunks of 192 KB', async () => {
		const { ctx, log } = storeContext({});
		const file = await read('video frame', ctx);
		expect({ size: file.size, mimeType: file.mimeType, fileName: file.fileName }).toEqual({
			size: PHOTO.length,
			mimeType: 'image/png',
			fileName: 'photo.png',
		});
		expect(log.opened).toBe(0);
		expect((await bytesOf(file)).equals(PHOTO)).toBe(true);
		expect((await bytesOf(file)).equals(PHOTO)).toBe(true);
		expect(log).toMatchObject({ opened: 2, destroyed: 2, chunkSizes: [196_608, 196_608], buffers: 0 });
	});

	it('without a recorded MIME type, only the first chunk is read to recognise it, and the stream closed', async () => {
		const { ctx, log } = storeContext({ mimeType: '' });
		const file = await read('video frame', ctx);
		expect(file.mimeType).toBe('image/png');
		await new Promise((resolve) => setImmediate(resolve)); // 'close' follows destroy
		expect(log).toMatchObject({ opened: 1, destroyed: 1, buffers: 0 });
	});

	it("the size is the store's record, else the item's count; with neither the file is read whole", async () => {
		const missing = async () => {
			throw new Error('no metadata');
		};
		const recorded = storeContext({ bytes: 5, metadata: async () => ({ fileSize: PHOTO.length }) });
		expect((await read('video frame', recorded.ctx)).size).toBe(PHOTO.length);
		const counted = storeContext({ bytes: PHOTO.length, metadata: missing });
		expect((await read('video frame', counted.ctx)).size).toBe(PHOTO.length);
		expect(counted.log.buffers).toBe(0);
		const unknown = storeContext({ metadata: missing });
		expect((await bytesOf(await read('video frame', unknown.ctx))).equals(PHOTO)).toBe(true);
		expect(unknown.log).toMatchObject({ opened: 0, buffers: 1 });
	});

	it('an n8n without getBinaryStream reads the file whole, as before', async () => {
		const { ctx, log } = storeContext({ stream: false });
		const file = await read('video frame', ctx);
		expect((await bytesOf(file)).equals(PHOTO)).toBe(true);
		expect(log.buffers).toBe(1);
	});
});
