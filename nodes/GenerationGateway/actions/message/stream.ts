import type { StreamOutcome } from '../../../shared/sse';
import { StreamAssembler, truncated } from '../../../shared/sse';
import { isObject } from '../../../shared/validation';

/**
 * Assembles the Anthropic Messages events of POST /v1/messages into the Message a
 * non-streamed call returns: message_start -> (content_block_start, delta*,
 * content_block_stop)* -> message_delta -> message_stop. A signature is kept byte for
 * byte (it must be passed back unchanged); unknown events are skipped. `onText` gets
 * only the answer's text, for n8n's chat.
 */

type Json = Record<string, unknown>;

/** Deltas that grow one text of a content block, and the member (named alike in the delta). */
const TEXT_DELTAS = new Map([
	['text_delta', 'text'],
	['thinking_delta', 'thinking'],
	['signature_delta', 'signature'],
]);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Events that only follow message_start. */
const AFTER_START = [
	'content_block_start',
	'content_block_delta',
	'content_block_stop',
	'message_delta',
	'message_stop',
];

export class MessageStreamAssembler extends StreamAssembler {
	constructor(private readonly onText?: (text: string) => void) {
		super();
	}

	private message: Json | undefined;

	private blocks: Json[] = [];

	private partialJson = new Map<number, string>();

	protected take(type: string, data: Json): void {
		if (!this.message && AFTER_START.includes(type)) return this.fail(`${type} before message_start`);
		switch (type) {
			case 'message_start':
				if (!isObject(data.message)) return this.fail('message_start without a message');
				this.message = { ...data.message };
				this.blocks = Array.isArray(data.message.content) ? [...(data.message.content as Json[])] : [];
				return;
			case 'content_block_start':
				if (typeof data.index !== 'number' || !isObject(data.content_block)) {
					return this.fail('content_block_start without index or content_block');
				}
				this.blocks[data.index] = { ...data.content_block };
				return;
			case 'content_block_delta':
				return this.applyDelta(data);
			case 'content_block_stop':
				return this.stopBlock(data);
			case 'message_delta':
				return this.applyMessageDelta(data);
			case 'message_stop':
				this.ended = true;
				return;
			case 'error': {
				const error = isObject(data.error) ? data.error : data;
				const kind = typeof error.type === 'string' ? ` (${error.type})` : '';
				const message = String(error.message ?? 'no message');
				return this.fail(`the gateway reported an error${kind}: ${message}`, 'upstream');
			}
			default:
				return; // ping and event types this version does not know
		}
	}

	protected result(): StreamOutcome {
		if (!this.ended) return truncated(`the stream ended before message_${this.message ? 'stop' : 'start'}`);
		return { ok: true, value: { ...this.message, content: this.blocks.filter(Boolean) } };
	}

	private blockAt(data: Json, event: string): Json | undefined {
		const block = typeof data.index === 'number' ? this.blocks[data.index] : undefined;
		if (isObject(block)) return block;
		this.fail(`${event} for content block ${String(data.index)}, which was not started`);
		return undefined;
	}

	private applyDelta(data: Json): void {
		const block = this.blockAt(data, 'content_block_delta');
		if (!block) return;
		const delta = isObject(data.delta) ? data.delta : {};
		const field = TEXT_DELTAS.get(String(delta.type));
		if (field) {
			block[field] = text(block[field]) + text(delta[field]);
			if (field === 'text' && typeof delta.text === 'string') this.onText?.(delta.text);
		} else if (delta.type === 'input_json_delta') {
			const index = data.index as number;
			this.partialJson.set(index, (this.partialJson.get(index) ?? '') + String(delta.partial_json ?? ''));
		} else if (delta.type === 'citations_delta') {
			block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
		}
	}

	private stopBlock(data: Json): void {
		const block = this.blockAt(data, 'content_block_stop');
		if (!block) return;
		const index = data.index as number;
		const json = this.partialJson.get(index);
		if (json === undefined) return;
		this.partialJson.delete(index);
		if (!json.trim()) return; // no input deltas: the input given at the block's start stands
		try {
			block.input = JSON.parse(json) as unknown;
		} catch {
			this.fail(`the tool input of content block ${index} is not valid JSON`);
		}
	}

	private applyMessageDelta(data: Json): void {
		const message = this.message!;
		if (isObject(data.delta)) Object.assign(message, data.delta);
		// Usage in message_delta is cumulative: it replaces the counts message_start gave.
		if (isObject(data.usage)) {
			message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...data.usage };
		}
		for (const field of ['context_management', 'diagnostics', 'container']) {
			if (data[field] !== undefined) message[field] = data[field];
		}
	}
}

export function simplifyMessage(message: Json): Json {
	const content = Array.isArray(message.content) ? (message.content as Json[]) : [];
	const text = content
		.filter((block) => block?.type === 'text' && typeof block.text === 'string')
		.map((block) => block.text as string)
		.join('');
	return {
		id: message.id,
		model: message.model,
		text,
		stop_reason: message.stop_reason ?? null,
		stop_sequence: message.stop_sequence ?? null,
		usage: message.usage ?? {},
	};
}
