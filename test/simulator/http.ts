/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import type { ServerResponse } from 'node:http';

/** Writes a JSON answer. */
export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		'x-request-id':
			res.req.headers['x-sim-request-id']?.toString() ?? `req_${Math.random().toString(36).slice(2, 12)}`,
		...headers,
	});
	res.end(text);
}

/** The gateway's error envelope: `{error:{message,type,code,param}}`, all strings. */
export function sendError(
	res: ServerResponse,
	status: number,
	message: string,
	options: { type?: string; code?: string; param?: string | null; headers?: Record<string, string> } = {},
): void {
	const type =
		options.type ??
		(status === 401
			? 'authentication_error'
			: status === 402
				? 'insufficient_quota'
				: status === 404
					? 'not_found_error'
					: status === 429
						? 'rate_limit_error'
						: status >= 500
							? 'api_error'
							: 'invalid_request_error');
	sendJson(
		res,
		status,
		{ error: { message, type, code: options.code ?? type, param: options.param ?? '' } },
		options.headers,
	);
}

/** A validation failure: 400 with the offending member in `param`. */
export class RequestInvalid extends Error {
	constructor(
		readonly param: string,
		message: string,
		readonly code = 'invalid_value',
		readonly status = 400,
	) {
		super(message);
	}
}

export function invalid(param: string, message: string, code?: string): never {
	throw new RequestInvalid(param, message, code);
}

/** Writes server-sent events: `event:` line when the event has a name, then `data: <json>`. */
export function startSse(res: ServerResponse): void {
	res.writeHead(200, {
		'Content-Type': 'text/event-stream',
		'Cache-Control': 'no-cache',
		Connection: 'keep-alive',
	});
}

export function sseEvent(data: unknown, event?: string): string {
	return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
