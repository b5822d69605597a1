import type { IDataObject } from 'n8n-workflow';

import { CACHED_CONTENT_WIRE as W } from './wireNames';

/**
 * Builds the body of POST /v1beta/cachedContents from the form's values: the
 * model as `models/{id}`, the turns' parts (text and files as inline data),
 * the function declarations and their calling config, the TTL as a duration.
 * The assembled body is checked by schema.ts. Pure, unit-tested from a table.
 */

/** `gemini-x` -> `models/gemini-x`; an ID already carrying the prefix stays as it is. */
export function cachedContentModel(model: string): string {
	const id = model.trim();
	return id.startsWith('models/') || id === '' ? id : `models/${id}`;
}

/** Seconds from the form -> the interface's duration: digits, up to 9 fraction digits, suffix `s`. */
export function ttlFromSeconds(seconds: number): string {
	const text = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(9).replace(/0+$/, '');
	return `${text}s`;
}

/** What a turn's Binary Properties take: any file whose MIME type is known (it travels with the part). */
export const CACHED_CONTENT_FILE = {
	expected: 'a file with a MIME type',
	accepts: (mimeType: string) => mimeType !== 'application/octet-stream',
};

/** A file as a part of a turn: Gemini's `inlineData` with the MIME type and the base64 bytes. */
export function inlineDataPart(mimeType: string, base64: string): IDataObject {
	return { [W.inlineData]: { [W.inlineMimeType]: mimeType, [W.inlineBase64]: base64 } };
}

/** A form turn's parts: its text (when any), then its files. */
export function turnParts(text: string, files: IDataObject[]): IDataObject[] {
	return [...(text || !files.length ? [{ text }] : []), ...files];
}

export interface CachedContentForm {
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
