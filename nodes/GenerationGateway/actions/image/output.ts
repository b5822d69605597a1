import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fileTypeFromMimeType } from 'n8n-workflow';

import type { IncomingImage } from './result';
import { imageBinaryAsDataUrl } from './wireNames';
import type { MediaType } from '../../../shared/binary';
import { downloadToBinary } from '../../../shared/download';
import { MEDIA_BY_FORMAT, sniffMediaType, storeBinaryPieces } from '../../../shared/binary';
import { refusal } from '../../../shared/validation';

/** The n8n-facing edges of Image → Generate: reference images in, generated images out as binaries. */

const FALLBACK_MEDIA: MediaType = { mimeType: 'application/octet-stream', extension: 'bin' };

function imageMediaType(bytes: Uint8Array, format?: unknown): MediaType {
	const declared = typeof format === 'string' ? MEDIA_BY_FORMAT[format.toLowerCase()] : undefined;
	return declared ?? sniffMediaType(bytes) ?? FALLBACK_MEDIA;
}

export async function imageBinary(
	ctx: IExecuteFunctions,
	bytes: Buffer,
	stem: string,
	format?: unknown,
): Promise<IBinaryData> {
	const media = imageMediaType(bytes, format);
	return await ctx.helpers.prepareBinaryData(bytes, `${stem}.${media.extension}`, media.mimeType);
}

export interface StoredImage {
	binary: IBinaryData;
	head: Buffer;
}

/** Named from the format asked for; `nameImage` corrects it once the whole answer is read. */
export async function storeIncomingImage(
	ctx: IExecuteFunctions,
	response: unknown,
	image: IncomingImage,
	format?: unknown,
): Promise<StoredImage> {
	const media = imageMediaType(image.head, format);
	const fileName = `image-${image.index + 1}.${media.extension}`;
	// The reader decodes each piece into a buffer of its own, read by nobody else.
	const binary = await storeBinaryPieces(ctx, response, image.bytes, fileName, media.mimeType, {
		disposable: true,
	});
	return { binary, head: image.head };
}

export function nameImage(image: StoredImage, stem: string, format?: unknown): IBinaryData {
	const media = imageMediaType(image.head, format);
	image.binary.fileName = `${stem}.${media.extension}`;
	image.binary.fileExtension = media.extension;
	image.binary.mimeType = media.mimeType;
	image.binary.fileType = fileTypeFromMimeType(media.mimeType);
	return image.binary;
}

export interface ReferenceImageEntry {
	source?: string;
	url?: string;
	binaryProperty?: string;
}

export async function readReferenceImages(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entries: ReferenceImageEntry[],
): Promise<string[]> {
	const images: string[] = [];
	for (const [position, entry] of entries.entries()) {
		if (entry.source === 'binary') {
			const property = (entry.binaryProperty ?? 'data').trim();
			const binary = ctx.helpers.assertBinaryData(itemIndex, property);
			const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
			const mimeType = binary.mimeType || sniffMediaType(bytes)?.mimeType || 'image/png';
			images.push(imageBinaryAsDataUrl(mimeType, bytes.toString('base64')));
			continue;
		}
		const url = (entry.url ?? '').trim();
		const field = `Reference Images (#${position + 1})`;
		if (!url) throw refusal(ctx.getNode(), field, 'the Image URL is empty', itemIndex);
		images.push(url);
	}
	return images;
}

export async function downloadImage(
	ctx: IExecuteFunctions,
	url: string,
	position: number,
	format: unknown,
	timeoutMs: number,
	itemIndex: number,
): Promise<IBinaryData> {
	const { binary } = await downloadToBinary(ctx, {
		url,
		itemIndex,
		what: `image ${position + 1}`,
		advice:
			'The image was generated (and paid for); only the download failed. The URL is in the gateway answer; turn off "Download URL Results" to get it without downloading.',
		silenceMs: timeoutMs,
		name: (head, contentType) => {
			const media = imageMediaType(head, formatFromContentType(contentType) ?? format);
			return { fileName: `image-${position + 1}.${media.extension}`, mimeType: media.mimeType };
		},
	});
	return binary;
}

function formatFromContentType(contentType?: string): string | undefined {
	if (!contentType?.startsWith('image/')) return undefined;
	const format = contentType.slice('image/'.length);
	return MEDIA_BY_FORMAT[format] ? format : undefined;
}

export function dataItems(json: IDataObject): IDataObject[] {
	return Array.isArray(json.data) ? (json.data as IDataObject[]) : [];
}
