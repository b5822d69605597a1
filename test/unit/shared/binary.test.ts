/**
 * Which input binaries each member takes. One table of accepted and
 * refused files per member (video frame, video reference by Material Type,
 * message turn, cached-content turn), judged by readBinaryFile with the same
 * MIME tests the operations use. The MIME type is n8n's record of the file,
 * else what its bytes show; parameters (`; charset=...`) and case are ignored.
 */
import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CACHED_CONTENT_FILE } from '../../../nodes/GenerationGateway/actions/cachedContent/body';
import { MESSAGE_FILE } from '../../../nodes/GenerationGateway/actions/message/body';
import { videoMaterial } from '../../../nodes/GenerationGateway/actions/video/request';
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

const read = (member: Member, ctx: IExecuteFunctions, property = 'file') =>
	readBinaryFile(ctx, 0, property, { field: 'The Field', ...MEMBERS[member] });

describe('readBinaryFile: which files each member takes', () => {
	it.each(accepted)('%s takes a file recorded as "%s"', async (member, recorded, bytes, sent) => {
		const file = await read(member, contextWith({ file: { bytes, mimeType: recorded } }));
		expect(file.mimeType).toBe(sent);
		expect(file.bytes.equals(bytes)).toBe(true);
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
