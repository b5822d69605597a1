import type { StreamAssembler, StreamOutcome } from '../../../shared/sse';
import { isObject } from '../../../shared/validation';

/**
 * Assembles the OpenAI Responses events of POST /v1/responses into the Response a
 * non-streamed call returns. The terminal event's object is authoritative; the
 * assembled items fill an empty `output`. `onText` gets only the answer's text.
 */

type Json = Record<string, unknown>;

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);
const SNAPSHOT = new Set(['response.created', 'response.in_progress', 'response.queued']);

function outputTextOf(output: unknown): string {
	if (!Array.isArray(output)) return '';
	return (output as Json[])
		.filter((item) => item?.type === 'message' && Array.isArray(item.content))
		.flatMap((item) => item.content as Json[])
		.filter((part) => part?.type === 'output_text' && typeof part.text === 'string')
		.map((part) => part.text as string)
		.join('');
}

export class ResponseStreamAssembler implements StreamAssembler {
	constructor(private readonly onText?: (text: string) => void) {}

	private snapshot: Json | undefined;

	private items: Json[] = [];

	private terminal: Json | undefined;

	private failure: Extract<StreamOutcome, { ok: false }> | undefined;

	apply(eventName: string, data: Json): 'done' | void {
		this.applyEvent(eventName, data);
		// Nothing after the final event or a failure changes the outcome.
		if (this.failure || this.terminal) return 'done';
	}

	private applyEvent(eventName: string, data: Json): void {
		if (this.failure || this.terminal) return;
		const type = typeof data.type === 'string' ? data.type : eventName;
		if (SNAPSHOT.has(type) || TERMINAL.has(type)) {
			if (!isObject(data.response)) return this.fail(`${type} without a response`);
			if (TERMINAL.has(type)) this.terminal = data.response;
			else this.snapshot = data.response;
			return;
		}
		if (type === 'error') {
			const code = typeof data.code === 'string' ? ` (${data.code})` : '';
			this.failure = {
				ok: false,
				reason: 'upstream',
				message: `the gateway reported an error${code}: ${String(data.message ?? 'no message')}`,
			};
			return;
		}
		if (type === 'response.output_item.added' || type === 'response.output_item.done') {
			if (typeof data.output_index !== 'number' || !isObject(data.item)) {
				return this.fail(`${type} without output_index or item`);
			}
			this.items[data.output_index] = { ...data.item };
			return;
		}
		this.applyItemDelta(type, data);
	}

	finish(): StreamOutcome {
		if (this.failure) return this.failure;
		if (!this.terminal) {
			const last = this.snapshot ? ` (last status: ${String(this.snapshot.status)})` : '';
			return {
				ok: false,
				reason: 'truncated',
				message: `the stream ended before response.completed, response.failed or response.incomplete${last}`,
			};
		}
		const response = { ...this.terminal };
		const output = Array.isArray(response.output) ? response.output : [];
		if (!output.length && this.items.some(Boolean)) response.output = this.items.filter(Boolean);
		if (typeof response.output_text !== 'string') response.output_text = outputTextOf(response.output);
		return { ok: true, value: response };
	}

	private fail(message: string): void {
		this.failure = { ok: false, reason: 'malformed', message };
	}

	private item(data: Json, type: string): Json | undefined {
		const item = typeof data.output_index === 'number' ? this.items[data.output_index] : undefined;
		if (!isObject(item))
			this.fail(`${type} for output item ${String(data.output_index)}, which was not added`);
		return item;
	}

	private part(item: Json, list: 'content' | 'summary', index: unknown): Json {
		if (!Array.isArray(item[list])) item[list] = [];
		const parts = item[list] as Json[];
		const at = typeof index === 'number' ? index : 0;
		if (!isObject(parts[at])) parts[at] = {};
		return parts[at];
	}

	private setPart(item: Json, list: 'content' | 'summary', index: unknown, part: unknown): void {
		if (!isObject(part)) return this.fail(`a ${list} part event without its part`);
		this.part(item, list, index);
		(item[list] as Json[])[typeof index === 'number' ? index : 0] = { ...part };
	}

	private applyItemDelta(type: string, data: Json): void {
		const text = (value: unknown) => (typeof value === 'string' ? value : '');
		const append = (target: Json, field: string, piece: unknown) => {
			target[field] = text(target[field]) + text(piece);
		};
		if (!type.startsWith('response.')) return;
		const known = [
			'response.content_part.added',
			'response.content_part.done',
			'response.output_text.delta',
			'response.output_text.done',
			'response.output_text.annotation.added',
			'response.refusal.delta',
			'response.refusal.done',
			'response.function_call_arguments.delta',
			'response.function_call_arguments.done',
			'response.reasoning_summary_part.added',
			'response.reasoning_summary_text.delta',
			'response.reasoning_summary_text.done',
		];
		if (!known.includes(type)) return; // events this version does not assemble (e.g. tool progress)
		const item = this.item(data, type);
		if (!item) return;
		switch (type) {
			case 'response.content_part.added':
			case 'response.content_part.done':
				return this.setPart(item, 'content', data.content_index, data.part);
			case 'response.output_text.delta':
				append(this.part(item, 'content', data.content_index), 'text', data.delta);
				if (item.type === 'message') this.onText?.(text(data.delta));
				return;
			case 'response.output_text.done':
				this.part(item, 'content', data.content_index).text = text(data.text);
				return;
			case 'response.output_text.annotation.added': {
				const part = this.part(item, 'content', data.content_index);
				part.annotations = [...(Array.isArray(part.annotations) ? part.annotations : []), data.annotation];
				return;
			}
			case 'response.refusal.delta':
				return append(this.part(item, 'content', data.content_index), 'refusal', data.delta);
			case 'response.refusal.done':
				this.part(item, 'content', data.content_index).refusal = text(data.refusal);
				return;
			case 'response.function_call_arguments.delta':
				return append(item, 'arguments', data.delta);
			case 'response.function_call_arguments.done':
				item.arguments = text(data.arguments);
				return;
			case 'response.reasoning_summary_part.added':
				return this.setPart(item, 'summary', data.summary_index, data.part);
			case 'response.reasoning_summary_text.delta':
				return append(this.part(item, 'summary', data.summary_index), 'text', data.delta);
			default:
				this.part(item, 'summary', data.summary_index).text = text(data.text);
		}
	}
}

const UNSUCCESSFUL_STATUSES = ['failed', 'incomplete', 'cancelled'];

/** Undefined for a success, or one still running in the background. */
export function responseProblem(response: Json): string | undefined {
	const status = String(response.status ?? '');
	if (!UNSUCCESSFUL_STATUSES.includes(status)) return undefined;
	const error = isObject(response.error) ? response.error : undefined;
	const incomplete = isObject(response.incomplete_details) ? response.incomplete_details : undefined;
	const detail = error
		? `${error.code ? `${String(error.code)}: ` : ''}${String(error.message ?? 'no message')}`
		: incomplete
			? `reason: ${String(incomplete.reason ?? 'not given')}`
			: 'no details given';
	return `The response ended with status "${status}" (${detail})`;
}

export function simplifyResponse(response: Json): Json {
	return {
		id: response.id,
		model: response.model,
		status: response.status,
		output_text:
			typeof response.output_text === 'string' ? response.output_text : outputTextOf(response.output),
		usage: response.usage ?? {},
	};
}
