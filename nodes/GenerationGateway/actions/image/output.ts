import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fileTypeFromMimeType } from 'n8n-workflow';

import type { IncomingImage } from './result';
import { imageBinaryAsDataUrl } from './wireNames';
import type { MediaType } from '../../../shared/binary';
import { downloadToBinary } from '../../../shared/download';
import { MEDIA_BY_FORMAT, sniffMediaType, storeBinaryPieces } from '../../../shared/binary';
import { refusal } from '../../../shared/validation';

/**
 * The n8n-facing edges of Image → Generate: reference images read from the
 * item's binaries, generated images written as binaries (data, data_1, ...),
 * and URL results downloaded on request.
 */

const FALLBACK_MEDIA: MediaType = { mimeType: 'application/octet-stream', extension: 'bin' };

/** The media type of an image: the format the gateway reported, else the bytes. */
export function imageMediaType(bytes: Uint8Array, format?: unknown): MediaType {
	const declared = typeof format === 'string' ? MEDIA_BY_FORMAT[format.toLowerCase()] : undefined;
	return declared ?? sniffMediaType(bytes) ?? FALLBACK_MEDIA;
}

/** Writes one image as an n8n binary, named after its position (image-1.png, ...). */
export async function imageBinary(
	ctx: IExecuteFunctions,
	bytes: Buffer,
	stem: string,
	format?: unknown,
): Promise<IBinaryData> {
	const media = imageMediaType(bytes, format);
	return await ctx.helpers.prepareBinaryData(bytes, `${stem}.${media.extension}`, media.mimeType);
}

/** An image of a JSON answer, stored while it arrived: its binary, and its first bytes to tell its type. */
export interface StoredImage {
	binary: IBinaryData;
	head: Buffer;
}

/**
 * Writes an image of a JSON answer to n8n's binary store while it arrives
 * (result.ts hands its bytes on piece by piece). Named and typed from its
 * position and the format asked for; `nameImage` corrects both once the
 * whole answer is read.
 */
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

/** Names and types a stored image after its place in the answer and the format the answer reports. */
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

/**
 * The "Reference Images" of an item as strings the gateway accepts: URLs as
 * typed, binaries as data URLs (see image/wireNames.ts).
 */
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
		if (!url) {
			throw refusal(
				ctx.getNode(),
				`Reference Images (#${position + 1})`,
				'the Image URL is empty',
				itemIndex,
			);
		}
		images.push(url);
	}
	return images;
}

/**
 * Downloads an image the gateway returned as a URL into n8n's binary store
 * (no credential: such URLs are pre-signed; retried, bounded and streamed as
 * shared/download.ts says), typed from its Content-Type, else the format the
 * answer reports, else its bytes.
 */
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

/** The format of a downloaded image: its Content-Type when that names an image format. */
export function formatFromContentType(contentType?: string): string | undefined {
	if (!contentType?.startsWith('image/')) return undefined;
	const format = contentType.slice('image/'.length);
	return MEDIA_BY_FORMAT[format] ? format : undefined;
}

/** The elements of the result's `data` list (none when the gateway sent no list). */
export function dataItems(json: IDataObject): IDataObject[] {
	return Array.isArray(json.data) ? (json.data as IDataObject[]) : [];
}
