import type { IDataObject } from 'n8n-workflow';

import { CACHED_CONTENT_WIRE as W } from './wireNames';

/** `gemini-x` -> `models/gemini-x`; an ID already carrying the prefix stays as it is. */
export function cachedContentModel(model: string): string {
	const id = model.trim();
	return id.startsWith('models/') || id === '' ? id : `models/${id}`;
}

/** Digits, up to 9 fraction digits, suffix `s`. */
export function ttlFromSeconds(seconds: number): string {
	const text = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(9).replace(/0+$/, '');
	return `${text}s`;
}

export const CACHED_CONTENT_FILE = {
	expected: 'a file with a MIME type',
	accepts: (mimeType: string) => mimeType !== 'application/octet-stream',
};

export function inlineDataPart(mimeType: string, base64: string): IDataObject {
	return { [W.inlineData]: { [W.inlineMimeType]: mimeType, [W.inlineBase64]: base64 } };
}

export function turnParts(text: string, files: IDataObject[]): IDataObject[] {
	return [...(text || !files.length ? [{ text }] : []), ...files];
}

interface CachedContentForm {
	model: string;
	contents: unknown;
	systemInstruction?: string;
	functionDeclarations?: unknown;
	functionCallingMode?: string;
	allowedFunctionNames?: string[];
	ttlSeconds?: number;
	expireTime?: string;
	displayName?: string;
}

export function buildCachedContentBody(form: CachedContentForm): IDataObject {
	const body: IDataObject = {
		model: cachedContentModel(form.model),
		contents: form.contents as IDataObject[],
	};
	if (form.systemInstruction) body.systemInstruction = { parts: [{ text: form.systemInstruction }] };
	if (form.functionDeclarations !== undefined) {
		body.tools = [{ functionDeclarations: form.functionDeclarations as IDataObject[] }];
	}
	if (form.functionCallingMode !== undefined || form.allowedFunctionNames?.length) {
		const config: IDataObject = {};
		if (form.functionCallingMode !== undefined) config[W.mode] = form.functionCallingMode;
		if (form.allowedFunctionNames?.length) config[W.allowedFunctionNames] = form.allowedFunctionNames;
		body[W.toolConfig] = { [W.functionCallingConfig]: config };
	}
	if (form.ttlSeconds !== undefined) body.ttl = ttlFromSeconds(form.ttlSeconds);
	if (form.expireTime !== undefined) body.expireTime = form.expireTime;
	if (form.displayName !== undefined) body.displayName = form.displayName;
	return body;
}
