import type { IDataObject } from 'n8n-workflow';

import { RESPONSE_WIRE as W } from './wireNames';

/**
 * Pieces of the POST /v1/responses body built from the form: the input part
 * of a binary file (image, audio or any other file) and an input message with
 * its text and attached files. The assembled body is checked by schema.ts.
 * Pure, unit-tested.
 */

/** A file from the item's binary data, already read. */
export interface BinaryInput {
	mimeType: string;
	fileName?: string;
	/** The bytes, base64-encoded. */
	base64: string;
	/** The file extension n8n recorded (e.g. "mp3"), used as the audio format. */
	extension?: string;
}

/** One input block for a binary file: image, audio or (anything else) file, as OpenAI Responses takes them. */
export function binaryInputPart(file: BinaryInput): IDataObject {
	const mimeType = file.mimeType.toLowerCase();
	if (mimeType.startsWith('image/')) {
		return { type: W.inputImage, [W.inputImageUrl]: `data:${mimeType};base64,${file.base64}` };
	}
	if (mimeType.startsWith('audio/')) {
		const format =
			mimeType === 'audio/mpeg' ? 'mp3' : (file.extension ?? mimeType.slice(6).replace(/^x-/, ''));
		return { type: W.inputAudio, [W.inputAudio]: { data: file.base64, format } };
	}
	return {
		type: W.inputFile,
		[W.inputFileName]: file.fileName ?? 'file',
		[W.inputFileData]: `data:${mimeType || 'application/octet-stream'};base64,${file.base64}`,
	};
}

/** An input message: plain text content, or text plus file blocks when files are attached. */
export function inputMessage(role: string, text: string, files: IDataObject[]): IDataObject {
	if (!files.length) return { role, content: text };
	const content = text ? [{ type: W.inputText, text }, ...files] : files;
	return { role, content };
}
