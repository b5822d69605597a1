/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Simulator } from './server';

/** The three authentication mechanisms of the interface's Authentication table. */
export type AuthMechanism = 'bearer' | 'apiKey' | 'nativeKey';

export interface RouteContext {
	req: IncomingMessage;
	res: ServerResponse;
	/** Path parameters captured by the route's pattern (named groups). */
	params: Record<string, string>;
	/** Parsed JSON body (undefined when none); `rawBody` holds the bytes. */
	body: unknown;
	rawBody: Buffer;
	query: URLSearchParams;
	sim: Simulator;
}

export interface Route {
	method: 'GET' | 'POST';
	/** Exact path, or a pattern with named groups for path parameters. */
	path: string | RegExp;
	handle(ctx: RouteContext): void | Promise<void>;
}

/** A fault the next matching request(s) meet instead of (or on top of) the normal answer. */
export type Fault =
	| {
			kind: 'status';
			status: number;
			retryAfter?: string;
			body?: unknown;
			rawBody?: string;
			contentType?: string;
	  }
	| { kind: 'slow'; delayMs: number }
	| { kind: 'drop' }
	/** The request is processed (a task created, a generation charged), then the connection is closed unanswered. */
	| { kind: 'drop-after' }
	/**
	 * The request is processed (a task created, a generation charged) and its
	 * answer sent with this status instead: a gateway that failed after the work.
	 */
	| { kind: 'status-after'; status: number }
	/**
	 * The request is processed and its answer begins (status, headers, the
	 * full Content-Length), then stops after `bytes` bytes of body: the
	 * connection breaks, or with `stall` stays open and silent (closed after
	 * 10 s, or when the simulator stops).
	 */
	| { kind: 'cut-after'; bytes: number; stall?: boolean }
	/**
	 * The request is processed and its answer trickles: status, headers and
	 * the full Content-Length at once, then `bytes` bytes of body every
	 * `everyMs` (a slow or hostile file host), until done or the client goes.
	 */
	| { kind: 'trickle'; bytes: number; everyMs: number }
	/** Answers at once with a redirect to `location` (absolute or relative), nothing processed. */
	| { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
	/** Sends `afterEvents` events, then only `: keep-alive` comments every `everyMs`, never ending. */
	| { kind: 'sse-keepalive'; afterEvents?: number; everyMs: number }
	| { kind: 'sse-truncate'; afterEvents?: number }
	| { kind: 'sse-malformed' }
	| { kind: 'sse-idle'; afterEvents?: number }
	/** Sends some events, then the connection breaks (no end of stream). */
	| { kind: 'sse-drop'; afterEvents?: number };

export interface FaultRule {
	fault: Fault;
	method?: 'GET' | 'POST';
	/** Matches when the request path equals this string or matches this pattern. */
	path?: string | RegExp;
	/** How many matching requests meet the fault; Infinity for all. Default 1. */
	times?: number;
}

export interface LoggedRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	body: unknown;
	status?: number;
	at: number;
}
