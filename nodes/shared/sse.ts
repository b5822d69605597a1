import type { ChunkType, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorCause, operationError } from './errors';
import { chatStreamingOf } from './n8nFeatures';
import { cancellableSleep } from './time';
import { isObject } from './validation';

/**
 * Server-sent events in three layers that survive any chunk boundary: bytes -> text
 * (streaming UTF-8) -> lines (CR, LF, CRLF split across chunks) -> events.
 */

export interface SseEvent {
	/** `message` when the event had no `event:` field. */
	event: string;
	data: string;
	id?: string;
}

export class SseDecoder {
	private readonly text = new TextDecoder('utf-8');

	private pending = '';

	/** True when the previous chunk ended in CR: an LF at the start of the next chunk belongs to it. */
	private lastWasCr = false;

	private eventName = '';

	private dataLines: string[] = [];

	private id: string | undefined;

	private hasFields = false;

	/** Grows with everything but comments: tells a live stream from one sending only keep-alives. */
	content = 0;

	push(chunk: Uint8Array | string): SseEvent[] {
		const decoded = typeof chunk === 'string' ? chunk : this.text.decode(chunk, { stream: true });
		return this.consume(decoded);
	}

	/** Also returns a last event that lacks its closing blank line (servers often omit it). */
	end(): SseEvent[] {
		const events = this.consume(this.text.decode());
		if (this.pending) {
			this.line(this.pending, events);
			this.pending = '';
		}
		this.dispatch(events);
		return events;
	}

	private consume(text: string): SseEvent[] {
		const events: SseEvent[] = [];
		if (!text) return events;
		let start = 0;
		// LF of a CRLF whose CR ended the previous chunk.
		if (this.lastWasCr && this.pending === '' && text.charCodeAt(0) === 10) start = 1;
		this.lastWasCr = false;
		// A native regex scan: a per-character loop is slow on multi-megabyte audio streams.
		const breaks = /[\r\n]/g;
		breaks.lastIndex = start;
		for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
			let index = match.index;
			const line = this.pending + text.slice(start, index);
			this.pending = '';
			this.line(line, events);
			if (text.charCodeAt(index) === 13) {
				if (index + 1 < text.length) {
					if (text.charCodeAt(index + 1) === 10) index++;
				} else {
					this.lastWasCr = true;
				}
			}
			start = index + 1;
			breaks.lastIndex = start;
		}
		const rest = text.slice(start);
		if (rest && !(this.pending + rest).startsWith(':')) this.content += rest.length;
		this.pending += rest;
		return events;
	}

	private line(line: string, events: SseEvent[]): void {
		if (line === '') {
			this.dispatch(events);
			return;
		}
		if (line.startsWith(':')) return;
		this.content++;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'event') {
			this.eventName = value;
			this.hasFields = true;
		} else if (field === 'data') {
			this.dataLines.push(value);
			this.hasFields = true;
		} else if (field === 'id') {
			this.id = value;
		}
	}

	private dispatch(events: SseEvent[]): void {
		if (this.hasFields) {
			const event: SseEvent = { event: this.eventName || 'message', data: this.dataLines.join('\n') };
			if (this.id !== undefined) event.id = this.id;
			events.push(event);
		}
		this.eventName = '';
		this.dataLines = [];
		this.hasFields = false;
	}
}

/** Kept on the error as `context.sseFailure`. */
export type SseFailure = 'idle' | 'timeout' | 'broken' | 'malformed' | 'truncated' | 'upstream';

const UNFINISHED =
	"The gateway may have done this work and charged for it although the stream did not finish: check the account before running the item again (Account → Get Balance, or the gateway's usage records).";

const SSE_FAILURE_HINTS: Record<SseFailure, string> = {
	idle: `${UNFINISHED} If the model is slow to answer, turn streaming off for this request.`,
	timeout: `${UNFINISHED} For long answers raise "Request Timeout" (Request Options).`,
	broken: `${UNFINISHED} The connection broke: check the network between n8n and the gateway.`,
	truncated: `${UNFINISHED} If it repeats, turn streaming off.`,
	malformed: `${UNFINISHED} The gateway sent a stream this node could not read: if it repeats, turn streaming off.`,
	upstream: 'The gateway reported an error in the stream; the message says what it was.',
};

/** "The image stream failed" + "The stream ended ..." -> "The image stream failed: the stream ended ...". */
export function naming(what: string | undefined, message: string): string {
	return what ? `${what}: ${message.charAt(0).toLowerCase()}${message.slice(1)}` : message;
}

export function sseError(
	node: INode,
	message: string,
	reason: SseFailure,
	itemIndex?: number,
): NodeOperationError {
	const error = operationError(node, message, {
		itemIndex,
		description: SSE_FAILURE_HINTS[reason],
	});
	error.context.sseFailure = reason;
	return error;
}

interface Destroyable {
	destroy?: (error?: Error) => unknown;
}

const DEFAULT_SSE_IDLE_MS = 60_000;

export interface SseReadOptions {
	node: INode;
	itemIndex?: number;
	idleMs?: number;
	/** The request's Request Timeout: a stream silent this long is closed by the HTTP client. */
	timeoutMs?: number;
	/** Put before the message, e.g. "The message stream failed". */
	what?: string;
}

/**
 * Reads events from a response body. A watchdog closes it ('idle') when it is silent
 * for `idleMs`, or sends only keep-alive comments for longer than `timeoutMs`: such a
 * connection would never meet the HTTP client's own silence timeout.
 */
export async function* readSseEvents(
	body: AsyncIterable<Uint8Array | string>,
	options: SseReadOptions,
): AsyncGenerator<SseEvent> {
	const idleMs = options.idleMs ?? DEFAULT_SSE_IDLE_MS;
	const decoder = new SseDecoder();
	let events = 0;
	let bytes = 0;
	const fail = (text: string, reason: SseFailure) => {
		const arrived = `after ${events} event${events === 1 ? '' : 's'} (${bytes} bytes) had arrived`;
		return sseError(options.node, naming(options.what, `${text}, ${arrived}`), reason, options.itemIndex);
	};
	const contentMs = options.timeoutMs ?? idleMs;
	let idle: string | undefined;
	const idleError = () => fail(idle!, 'idle');
	const finished = new AbortController();
	let lastChunkAt = Date.now();
	let lastContentAt = lastChunkAt;
	const watchdog = (async () => {
		while (!finished.signal.aborted) {
			// Past the keep-alive limit while silent: look again within a second.
			const keepAliveAt = lastContentAt + contentMs;
			const start = Date.now();
			const wake = Math.min(
				lastChunkAt + idleMs,
				keepAliveAt > start ? keepAliveAt : start + Math.min(contentMs, 1000),
			);
			await cancellableSleep(wake - Date.now(), finished.signal);
			if (finished.signal.aborted) return;
			const now = Date.now();
			if (now - lastChunkAt >= idleMs) idle = `The stream sent nothing for ${idleMs / 1000} s and was closed`;
			// Comments arrived since the last content (pure silence is the HTTP client's to end).
			else if (lastChunkAt > lastContentAt && now - lastContentAt >= contentMs)
				idle = `The stream sent only keep-alive comments for longer than Request Timeout (${contentMs / 1000} s) and was closed`;
			if (idle) {
				(body as Destroyable).destroy?.();
				return;
			}
		}
	})();
	try {
		for await (const chunk of body) {
			lastChunkAt = Date.now();
			bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
			const content = decoder.content;
			const completed = decoder.push(chunk);
			if (decoder.content !== content) lastContentAt = lastChunkAt;
			for (const event of completed) {
				events++;
				yield event;
			}
		}
	} catch (error) {
		if (idle) throw idleError();
		const silentMs = Date.now() - lastChunkAt;
		if (options.timeoutMs !== undefined && silentMs >= options.timeoutMs - 50) {
			throw fail(
				`The stream sent nothing for longer than Request Timeout (${options.timeoutMs / 1000} s) and was closed`,
				'timeout',
			);
		}
		throw fail(`The connection to the gateway broke mid-stream${errorCause(error)}`, 'broken');
	} finally {
		finished.abort();
		await watchdog;
	}
	if (idle) throw idleError();
	for (const event of decoder.end()) yield event;
}

/** The JSON object `text` holds; undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
	try {
		const value = JSON.parse(text) as unknown;
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

export function parseEventJson(
	node: INode,
	event: SseEvent,
	itemIndex?: number,
	what?: string,
): Record<string, unknown> {
	const value = jsonObject(event.data);
	if (value) return value;
	const preview = event.data.length > 120 ? `${event.data.slice(0, 120)}…` : event.data;
	throw sseError(
		node,
		naming(what, `The stream sent a malformed "${event.event}" event: ${preview}`),
		'malformed',
		itemIndex,
	);
}

export type StreamFailure = { ok: false; reason: SseFailure; message: string };

/** Assemblers return this instead of throwing, so they stay pure; `assembleStream` makes the node error. */
export type StreamOutcome<T = Record<string, unknown>> = { ok: true; value: T } | StreamFailure;

export const truncated = (message: string): StreamFailure => ({ ok: false, reason: 'truncated', message });

/**
 * Folds one protocol's events into its result; `assembleStream` does the SSE reading for all.
 * Nothing after a failure or the final event (`ended`) changes the outcome: reading stops there.
 */
export abstract class StreamAssembler<T = Record<string, unknown>> {
	protected failure: StreamFailure | undefined;

	protected ended = false;

	/** 'done' when no further event can change the outcome. */
	apply(eventName: string, data: Record<string, unknown>): 'done' | void {
		if (!this.failure && !this.ended) this.take(typeof data.type === 'string' ? data.type : eventName, data);
		if (this.failure || this.ended) return 'done';
	}

	finish(): StreamOutcome<T> {
		return this.failure ?? this.result();
	}

	protected fail(message: string, reason: SseFailure = 'malformed'): void {
		this.failure = { ok: false, reason, message };
	}

	/** `type` is the event's `type` member, else its SSE event name. */
	protected abstract take(type: string, data: Record<string, unknown>): void;

	protected abstract result(): StreamOutcome<T>;
}

/** Reads an SSE body through an assembler until its final event or its end. */
export async function assembleStream<T>(
	body: AsyncIterable<Uint8Array | string>,
	assembler: StreamAssembler<T>,
	options: SseReadOptions & { what: string },
): Promise<T> {
	const { node, itemIndex, what } = options;
	for await (const event of readSseEvents(body, options)) {
		// The `data: [DONE]` end marker some gateways send after the last event carries no JSON.
		if (event.data.trim() === '[DONE]') continue;
		if (assembler.apply(event.event, parseEventJson(node, event, itemIndex, what)) === 'done') break;
	}
	const outcome = assembler.finish();
	if (outcome.ok) return outcome.value;
	throw sseError(node, naming(what, outcome.message), outcome.reason, itemIndex);
}

/**
 * One item's answer streamed into n8n's chat: `begin`, an `item` chunk per piece of
 * text, then `end`. n8n sends the `error` chunk itself when the node fails; an error
 * item (Continue On Fail) never reaches it, so then the answer sends it. Chunks n8n
 * cannot deliver are dropped: the item is the node's result either way.
 */
export class ChatAnswer {
	private state: 'new' | 'open' | 'closed' = 'new';

	private sent: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly send: ((type: ChunkType, content?: string) => unknown) | undefined,
		private readonly reportsFailures = false,
	) {}

	get on(): boolean {
		return this.send !== undefined;
	}

	private chunk(type: ChunkType, content?: string): void {
		const send = this.send;
		if (!send) return;
		this.sent = this.sent.then(() => send(type, content)).catch(() => undefined);
	}

	begin(): void {
		if (this.state !== 'new') return;
		this.state = 'open';
		this.chunk('begin');
	}

	readonly text = (piece: string): void => {
		if (!piece || this.state === 'closed') return;
		this.begin();
		this.chunk('item', piece);
	};

	/** Closes the answer and waits until its chunks were handed to n8n. */
	async end(): Promise<void> {
		if (this.state !== 'closed') {
			this.begin();
			this.state = 'closed';
			this.chunk('end');
		}
		await this.sent;
	}

	/** Closes an open answer with an `error` chunk when n8n will not. */
	async fail(error: unknown): Promise<void> {
		if (this.state === 'open' && this.reportsFailures) {
			this.chunk('error', error instanceof Error ? error.message : String(error));
		}
		this.state = 'closed';
		await this.sent;
	}

	/** Runs the item's request, then ends the answer or reports the failure and rethrows it. */
	async around<T>(work: () => Promise<T>): Promise<T> {
		const outcome = await work().then(
			(value) => ({ value }),
			(error: unknown) => ({ error }),
		);
		if ('error' in outcome) {
			await this.fail(outcome.error);
			throw outcome.error;
		}
		await this.end();
		return outcome.value;
	}
}

/** Off when the execution does not stream or the node runs as an agent's tool (the agent answers the chat). */
export function chatAnswer(
	ctx: Pick<IExecuteFunctions, 'continueOnFail'>,
	itemIndex: number,
	asTool: boolean,
): ChatAnswer {
	const chat = asTool ? undefined : chatStreamingOf(ctx);
	if (!chat?.isStreaming()) return new ChatAnswer(undefined);
	return new ChatAnswer((type, content) => chat.sendChunk(type, itemIndex, content), ctx.continueOnFail());
}
