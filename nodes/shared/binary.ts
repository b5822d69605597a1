import type { IExecuteFunctions } from 'n8n-workflow';

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

/** A file read from an input item's binary property. */
export interface InputFile {
	bytes: Buffer;
	mimeType: string;
	fileName?: string;
	extension?: string;
}

/**
 * Reads a binary property of an input item for sending. Refuses, naming the
 * form field, when the property is missing or its MIME type (as n8n recorded
 * it, else as the bytes show) is not one `accepts` takes; `expected` says
 * what is accepted, e.g. "an image".
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
	const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	const mimeType = (binary.mimeType || sniffMediaType(bytes)?.mimeType || 'application/octet-stream')
		.split(';')[0]
		.trim()
		.toLowerCase();
	if (!where.accepts(mimeType)) {
		throw refusal(
			ctx.getNode(),
			where.field,
			`binary property "${name}" is ${mimeType}, but ${where.expected} is needed`,
			itemIndex,
		);
	}
	return { bytes, mimeType, fileName: binary.fileName, extension: binary.fileExtension };
}

/** A MIME type test for one top-level type, e.g. `mediaOfType('image')` accepts image/png. */
export const mediaOfType =
	(type: string) =>
	(mimeType: string): boolean =>
		mimeType.startsWith(`${type}/`);
