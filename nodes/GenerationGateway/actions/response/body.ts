import type { IDataObject } from 'n8n-workflow';

import { RESPONSE_WIRE as W } from './wireNames';

interface BinaryInput {
	mimeType: string;
	fileName?: string;
	base64: string;
	/** Used as the audio format. */
	extension?: string;
}

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

export function inputMessage(role: string, text: string, files: IDataObject[]): IDataObject {
	if (!files.length) return { role, content: text };
	const content = text ? [{ type: W.inputText, text }, ...files] : files;
	return { role, content };
}
