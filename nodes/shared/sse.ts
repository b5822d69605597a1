import type { ChunkType, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorCause, operationError } from './errors';
import { chatStreamingOf } from './n8nFeatures';
import { cancellableSleep } from './time';

/**
 * Server-sent events, decoded in three small layers that survive any chunk
 * boundary: bytes -> text (a streaming UTF-8 decoder, so a character split
 * across chunks is kept whole) -> lines (CR, LF and CRLF, even when the CR and
 * the LF arrive in different chunks) -> events (`event:`, `data:`, `id:`
 * fields; `:` comments ignored; a blank line ends an event).
 */

export interface SseEvent {
	/** The `event:` field, or `message` when the event had none. */
	event: string;
	/** The `data:` lines joined with "\n". */
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

	/**
	 * Grows with every piece of the stream that is more than a comment (a
	 * field line, or the start of one): a stream of keep-alive comments
	 * leaves it unchanged, so a reader can tell a stream that is alive from
	 * one that only says it is.
	 */
	content = 0;

	/** Feeds a chunk; returns the events it completed. */
	push(chunk: Uint8Array | string): SseEvent[] {
		const decoded = typeof chunk === 'string' ? chunk : this.text.decode(chunk, { stream: true });
		return this.consume(decoded);
	}

	/**
	 * Ends the stream. Returns an event that was complete except for its
	 * terminating blank line (servers often omit it at the very end).
	 */
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
		// Jumps from line break to line break (a native scan: ~10x faster than
		// a per-character loop on multi-megabyte audio streams).
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

/** Why a stream failed; kept on the error's context for callers and tests. */
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

/**
 * A message put after the name of the stream that failed: "The image stream
 * failed" + "The stream ended ..." -> "The image stream failed: the stream ended ...".
 */
export function naming(what: string | undefined, message: string): string {
	return what ? `${what}: ${message.charAt(0).toLowerCase()}${message.slice(1)}` : message;
}

/** A stream failure, as n8n shows it: the message says what happened, `context.sseFailure` why. */
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

/** A body that can be closed from outside (Node's streams can), so an idle stream stops being read. */
interface Destroyable {
	destroy?: (error?: Error) => unknown;
}

export const DEFAULT_SSE_IDLE_MS = 60_000;

export interface SseReadOptions {
	/** The node the errors are reported for. */
	node: INode;
	itemIndex?: number;
	/** Fail when nothing arrives for this long (default 60 s). */
	idleMs?: number;
	/** The request's Request Timeout: a stream silent this long is closed by the HTTP client. */
	timeoutMs?: number;
	/** Put before the message, e.g. "The message stream failed". */
	what?: string;
}

/**
 * Reads events from a response body. It is closed and fails with an 'idle'
 * error instead of holding the execution when it stays silent for `idleMs`,
 * or when for longer than Request Timeout (`timeoutMs`, else `idleMs`) it
 * sends nothing but comments (`: keep-alive`): a connection kept open that
 * way would never meet the HTTP client's silence timeout. A watchdog wakes
 * when either limit could be reached (n8n's sleep, in short slices, so it
 * stops promptly when the stream ends).
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
			// Past the keep-alive limit while silent: look again within a second (a comment may come).
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
		const cause = errorCause(error);
		throw fail(`The connection to the gateway broke mid-stream${cause}`, 'broken');
	} finally {
		finished.abort();
		await watchdog;
	}
	if (idle) throw idleError();
	for (const event of decoder.end()) yield event;
}

/** Parses an event's data as JSON, or fails with a message that names the event (and the stream, given `what`). */
export function parseEventJson(
	node: INode,
	event: SseEvent,
	itemIndex?: number,
	what?: string,
): Record<string, unknown> {
	try {
		const value = JSON.parse(event.data) as unknown;
		if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
	} catch {
		// reported below
	}
	const preview = event.data.length > 120 ? `${event.data.slice(0, 120)}…` : event.data;
	throw sseError(
		node,
		naming(what, `The stream sent a malformed "${event.event}" event: ${preview}`),
		'malformed',
		itemIndex,
	);
}

/**
 * How a stream assembler ends: the assembled result, or why there is none.
 * Assemblers return this instead of throwing, so they stay pure (no node
 * needed); `assembleStream` turns a failure into the node error.
 */
export type StreamOutcome<T = Record<string, unknown>> =
	| { ok: true; value: T }
	| { ok: false; reason: SseFailure; message: string };

/**
 * Folds one protocol's events into its result (message, response, image,
 * speech). The SSE reading itself (chunks, lines, the `[DONE]` end marker,
 * idle and size accounting, malformed JSON) is `assembleStream`'s, once for all.
 */
export interface StreamAssembler<T = Record<string, unknown>> {
	/**
	 * Applies one event: its SSE name and its parsed JSON. Returns 'done' when
	 * no further event can change the outcome (the final event arrived, or the
	 * stream failed): reading stops there.
	 */
	apply(eventName: string, data: Record<string, unknown>): 'done' | void;
	/** The result once reading stopped, or why there is none. */
	finish(): StreamOutcome<T>;
}

/** True for the `data: [DONE]` end marker some gateways send after the last event: it carries no JSON. */
export function isDoneSentinel(event: SseEvent): boolean {
	return event.data.trim() === '[DONE]';
}

/**
 * Reads an SSE body through an assembler until its final event or its end.
 * A malformed event, an idle, silent or broken stream, and the assembler's
 * own failure (an `error` event, a stream ended early) fail with a message
 * that starts with `what` and says what happened (`context.sseFailure`
 * carries the reason).
 */
export async function assembleStream<T>(
	body: AsyncIterable<Uint8Array | string>,
	assembler: StreamAssembler<T>,
	options: SseReadOptions & { what: string },
): Promise<T> {
	const { node, itemIndex, what } = options;
	for await (const event of readSseEvents(body, options)) {
		if (isDoneSentinel(event)) continue;
		if (assembler.apply(event.event, parseEventJson(node, event, itemIndex, what)) === 'done') break;
	}
	const outcome = assembler.finish();
	if (outcome.ok) return outcome.value;
	throw sseError(node, naming(what, outcome.message), outcome.reason, itemIndex);
}

/**
 * One item's answer streamed into n8n's chat (a Chat Trigger or Webhook in
 * response mode "Streaming"). n8n's contract (n8n-core's ExecuteContext
 * `isStreaming()` / `sendChunk()`, as its AI Agent uses them): per item,
 * `begin`, then an `item` chunk per piece of text, then `end`; the chat joins
 * the items into one message per node run. When a node fails, n8n itself
 * sends an `error` chunk (its workflow engine, with the error's description),
 * so a failure that fails the node sends nothing more from here; a failure
 * that becomes an error item (Continue On Fail) never reaches the engine, so
 * the answer sends the `error` chunk itself, with the error's message, and the
 * chat does not wait on a message left open. Chunks go out in order, one
 * after the other; a chunk n8n cannot deliver (the chat went away) is
 * dropped: the item is the node's result either way.
 *
 * Off (it sends nothing) when the execution does not stream, when the node
 * runs as an AI Agent's tool (the agent's own answer is what the chat shows),
 * and on n8n versions without `isStreaming`.
 */
export class ChatAnswer {
	private state: 'new' | 'open' | 'closed' = 'new';

	private sent: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly send: ((type: ChunkType, content?: string) => unknown) | undefined,
		private readonly reportsFailures = false,
	) {}

	/** Whether the execution streams into a chat (a `ChatAnswer` that is off sends nothing). */
	get on(): boolean {
		return this.send !== undefined;
	}

	private chunk(type: ChunkType, content?: string): void {
		const send = this.send;
		if (!send) return;
		this.sent = this.sent.then(() => send(type, content)).catch(() => undefined);
	}

	/** Opens the answer (once): the chat knows an answer is coming. */
	begin(): void {
		if (this.state !== 'new') return;
		this.state = 'open';
		this.chunk('begin');
	}

	/** A piece of the answer's text (empty pieces are not sent). */
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

	/** The item failed: closes an open answer with an `error` chunk when n8n will not (see above). */
	async fail(error: unknown): Promise<void> {
		if (this.state === 'open' && this.reportsFailures) {
			this.chunk('error', error instanceof Error ? error.message : String(error));
		}
		this.state = 'closed';
		await this.sent;
	}

	/**
	 * Runs the item's request: ends the answer when it succeeds; when it fails,
	 * reports the failure (see `fail`) and throws the request's error unchanged.
	 */
	async around<T>(work: () => Promise<T>): Promise<T> {
		let outcome: { value: T } | { error: unknown };
		try {
			outcome = { value: await work() };
		} catch (error) {
			outcome = { error };
		}
		if ('error' in outcome) {
			await this.fail(outcome.error);
			throw outcome.error;
		}
		await this.end();
		return outcome.value;
	}
}

/** The chat answer of item `itemIndex`: on when the execution streams and the node is not a tool. */
export function chatAnswer(
	ctx: Pick<IExecuteFunctions, 'continueOnFail'>,
	itemIndex: number,
	asTool: boolean,
): ChatAnswer {
	// An n8n without chat streaming (see n8nFeatures.ts) gets the whole text as the item, as a tool does.
	const chat = asTool ? undefined : chatStreamingOf(ctx);
	if (!chat?.isStreaming()) return new ChatAnswer(undefined);
	return new ChatAnswer((type, content) => chat.sendChunk(type, itemIndex, content), ctx.continueOnFail());
}
