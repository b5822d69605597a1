import type { StreamOutcome } from '../../../shared/sse';
import { StreamAssembler, truncated } from '../../../shared/sse';
import { isObject } from '../../../shared/validation';

/**
 * Assembles the OpenAI Responses events of POST /v1/responses into the Response a
 * non-streamed call returns. The terminal event's object is authoritative; the
 * assembled items fill an empty `output`. `onText` gets only the answer's text.
 */

type Json = Record<string, unknown>;

const TERMINAL = new Set(['response.completed', 'response.failed', 'response.incomplete']);
const SNAPSHOT = new Set(['response.created', 'response.in_progress', 'response.queued']);

/** Events that grow (`.delta`) or set (`.done`) one text of an output item, and where that text is. */
const TEXT_EVENTS = new Map<string, { list?: PartList; field: string }>(
	Object.entries({
		'response.output_text': { list: 'content', field: 'text' },
		'response.refusal': { list: 'content', field: 'refusal' },
		'response.function_call_arguments': { field: 'arguments' },
		'response.reasoning_summary_text': { list: 'summary', field: 'text' },
	}),
);

/** Events that give a whole content or summary part. */
const PART_EVENTS = new Map<string, PartList>(
	Object.entries({
		'response.content_part.added': 'content',
		'response.content_part.done': 'content',
		'response.reasoning_summary_part.added': 'summary',
	}),
);

const ANNOTATION_ADDED = 'response.output_text.annotation.added';

type PartList = 'content' | 'summary';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function outputTextOf(output: unknown): string {
	if (!Array.isArray(output)) return '';
	return (output as Json[])
		.filter((item) => item?.type === 'message' && Array.isArray(item.content))
		.flatMap((item) => item.content as Json[])
		.filter((part) => part?.type === 'output_text' && typeof part.text === 'string')
		.map((part) => part.text as string)
		.join('');
}

export class ResponseStreamAssembler extends StreamAssembler {
	constructor(private readonly onText?: (text: string) => void) {
		super();
	}

	private snapshot: Json | undefined;

	private items: Json[] = [];

	private terminal: Json | undefined;

	protected take(type: string, data: Json): void {
		if (SNAPSHOT.has(type) || TERMINAL.has(type)) {
			if (!isObject(data.response)) return this.fail(`${type} without a response`);
			this.ended = TERMINAL.has(type);
			if (this.ended) this.terminal = data.response;
			else this.snapshot = data.response;
		} else if (type === 'error') {
			const code = typeof data.code === 'string' ? ` (${data.code})` : '';
			const message = String(data.message ?? 'no message');
			this.fail(`the gateway reported an error${code}: ${message}`, 'upstream');
		} else if (type === 'response.output_item.added' || type === 'response.output_item.done') {
			if (typeof data.output_index !== 'number' || !isObject(data.item)) {
				return this.fail(`${type} without output_index or item`);
			}
			this.items[data.output_index] = { ...data.item };
		} else {
			this.applyItemEvent(type, data);
		}
	}

	protected result(): StreamOutcome {
		if (!this.terminal) {
			const last = this.snapshot ? ` (last status: ${String(this.snapshot.status)})` : '';
			return truncated(
				`the stream ended before response.completed, response.failed or response.incomplete${last}`,
			);
		}
		const response = { ...this.terminal };
		const output = Array.isArray(response.output) ? response.output : [];
		if (!output.length && this.items.some(Boolean)) response.output = this.items.filter(Boolean);
		if (typeof response.output_text !== 'string') response.output_text = outputTextOf(response.output);
		return { ok: true, value: response };
	}

	/** The part of `item` an event names (by content_index or summary_index): made when missing, or replaced. */
	private part(item: Json, list: PartList, data: Json, replacement?: Json): Json {
		if (!Array.isArray(item[list])) item[list] = [];
		const parts = item[list] as Json[];
		const index = data[list === 'content' ? 'content_index' : 'summary_index'];
		const at = typeof index === 'number' ? index : 0;
		if (replacement) parts[at] = { ...replacement };
		else if (!isObject(parts[at])) parts[at] = {};
		return parts[at];
	}

	private applyItemEvent(type: string, data: Json): void {
		const [, stream, step] = /^(.+)\.(delta|done)$/.exec(type) ?? [];
		const textEvent = TEXT_EVENTS.get(stream);
		const partList = PART_EVENTS.get(type);
		// Others are events this version does not assemble (e.g. tool progress).
		if (!textEvent && !partList && type !== ANNOTATION_ADDED) return;
		const item = typeof data.output_index === 'number' ? this.items[data.output_index] : undefined;
		if (!isObject(item)) {
			return this.fail(`${type} for output item ${String(data.output_index)}, which was not added`);
		}
		if (partList) {
			if (!isObject(data.part)) return this.fail(`a ${partList} part event without its part`);
			this.part(item, partList, data, data.part);
		} else if (!textEvent) {
			const part = this.part(item, 'content', data);
			part.annotations = [...(Array.isArray(part.annotations) ? part.annotations : []), data.annotation];
		} else {
			const { list, field } = textEvent;
			const target = list ? this.part(item, list, data) : item;
			target[field] = step === 'delta' ? text(target[field]) + text(data.delta) : text(data[field]);
			if (type === 'response.output_text.delta' && item.type === 'message') this.onText?.(text(data.delta));
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
