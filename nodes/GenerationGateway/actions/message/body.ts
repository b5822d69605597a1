import type { IDataObject } from 'n8n-workflow';

import { MESSAGE_WIRE as W } from './wireNames';

/** The message body from the form's values, without n8n; unset members are not sent. */

export type ThinkingType = 'enabled' | 'adaptive' | 'disabled';

/** Undefined: not set. */
export interface MessageForm {
	model: string;
	maxTokens: number;
	messages: unknown;
	system?: string;
	thinking?: {
		type: ThinkingType;
		budgetTokens?: number;
		display?: string;
		unmatchedBlocks?: string;
	};
	stream?: boolean;
	stopSequences?: string[];
	temperature?: number;
	topP?: number;
	topK?: number;
	tools?: unknown;
	toolChoice?: { type: string; name?: string };
	effort?: string;
	serviceTier?: string;
	speed?: string;
	container?: unknown;
	contextManagement?: unknown;
	diagnostics?: unknown;
	fallbackCreditToken?: string;
	fallbackModels?: string[];
	inferenceGeo?: string;
}

const MESSAGE_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf'];
export const MESSAGE_FILE = {
	expected: 'a PNG, JPEG, WebP or GIF image or a PDF document',
	accepts: (mimeType: string): boolean => MESSAGE_FILE_TYPES.includes(mimeType),
};

export function fileBlock(mimeType: string, base64: string): IDataObject {
	return {
		type: mimeType.startsWith('image/') ? W.imageBlock : W.documentBlock,
		[W.blockSource]: { type: W.base64Source, [W.sourceMediaType]: mimeType, [W.sourceData]: base64 },
	};
}

/** Files first, as the protocol advises. */
export function turnContent(text: string, files: IDataObject[]): string | IDataObject[] {
	if (!files.length) return text;
	return text ? [...files, { type: 'text', text }] : files;
}

export function buildMessageBody(form: MessageForm): IDataObject {
	const body: IDataObject = {
		model: form.model,
		max_tokens: form.maxTokens,
		messages: form.messages as IDataObject[],
	};
	const set = (name: string, value: unknown) => {
		if (value !== undefined) body[name] = value as IDataObject;
	};
	set('system', form.system);
	if (form.thinking) {
		const thinking: IDataObject = { type: form.thinking.type };
		if (form.thinking.type === 'enabled') thinking[W.thinkingBudget] = form.thinking.budgetTokens;
		if (form.thinking.display !== undefined) thinking[W.thinkingDisplay] = form.thinking.display;
		if (form.thinking.unmatchedBlocks !== undefined)
			thinking[W.thinkingUnmatched] = form.thinking.unmatchedBlocks;
		body[W.thinking] = thinking;
	}
	set(W.stream, form.stream);
	set(W.stopSequences, form.stopSequences?.length ? form.stopSequences : undefined);
	set(W.temperature, form.temperature);
	set(W.topP, form.topP);
	set(W.topK, form.topK);
	set(W.tools, form.tools);
	set(W.toolChoice, form.toolChoice);
	set(W.outputConfig, form.effort !== undefined ? { [W.effort]: form.effort } : undefined);
	set(W.serviceTier, form.serviceTier);
	set(W.speed, form.speed);
	set(W.container, form.container);
	set(W.contextManagement, form.contextManagement);
	set(W.diagnostics, form.diagnostics);
	set(W.fallbackCreditToken, form.fallbackCreditToken);
	set(W.fallbacks, form.fallbackModels?.length ? form.fallbackModels.map((model) => ({ model })) : undefined);
	set(W.inferenceGeo, form.inferenceGeo);
	return body;
}
