import type { INode } from 'n8n-workflow';

import type { SseEvent, SseFailure } from './sse';
import { naming, parseEventJson, readSseEvents, sseError } from './sse';

/**
 * Shared by the Message and Response streams (message/stream.ts, response/stream.ts).
 *
 * What a stream assembler ends with: the assembled resource, or why it could
 * not be assembled. Assemblers return this instead of throwing, so they stay
 * pure (no node needed) and the caller turns a failure into the n8n error.
 */
export type StreamOutcome =
	| { ok: true; value: Record<string, unknown> }
	| { ok: false; reason: SseFailure; message: string };

export interface StreamAssembler {
	/** Applies one event: its SSE name and its parsed JSON data. */
	apply(eventName: string, data: Record<string, unknown>): void;
	/** The result once the stream has ended. */
	finish(): StreamOutcome;
}

/** True for the `data: [DONE]` sentinel some gateways append after the last event. */
export function isDoneSentinel(event: SseEvent): boolean {
	return event.data.trim() === '[DONE]';
}

/**
 * Reads an SSE body to its end through an assembler. A malformed event, an
 * `error` event, an idle or truncated stream fail with a message that says so
 * (`context.sseFailure` carries the reason).
 */
export async function assembleStream(
	body: AsyncIterable<Uint8Array | string>,
	assembler: StreamAssembler,
	options: { node: INode; itemIndex?: number; idleMs?: number; timeoutMs?: number; what: string },
): Promise<Record<string, unknown>> {
	for await (const event of readSseEvents(body, options)) {
		if (isDoneSentinel(event)) continue;
		assembler.apply(event.event, parseEventJson(options.node, event, options.itemIndex, options.what));
	}
	const outcome = assembler.finish();
	if (outcome.ok) return outcome.value;
	throw sseError(options.node, naming(options.what, outcome.message), outcome.reason, options.itemIndex);
}
