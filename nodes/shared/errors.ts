import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** A failed gateway call in the user's terms, as pure data; `toNodeApiError` makes the n8n error. */
interface GatewayErrorDetails {
	/** Undefined when no response arrived. */
	status?: number;
	message: string;
	type?: string;
	code?: string;
	param?: string;
	requestId?: string;
	hint?: string;
	body?: unknown;
}

const HINTS: Record<number, string> = {
	400: 'The gateway refused the request as invalid. Check the field named in "param" and the model\'s accepted values.',
	401: 'The credential was refused. Check that the secret is correct, that the credential type matches this resource, and that the Base URL points at the gateway.',
	402: 'The account has no credit left for this request. Top up the balance (Account → Get Balance shows it) and run again.',
	403: 'The credential is valid but not allowed to do this: the model or operation may not be enabled for this account.',
	404: 'The gateway does not know this address or object. Check the Base URL, the model ID and any task or resource ID you passed.',
	408: 'The gateway timed out waiting for the request. Try again; for long jobs raise "Request Timeout".',
	409: 'The request conflicts with the current state of the object. Read it again before retrying.',
	413: 'The request is too large for the gateway. Send fewer or smaller reference files.',
	422: 'The gateway understood the request but cannot process these values. Check the field named in "param".',
	429: 'The gateway is rate-limiting this account. Lower "Max Concurrent Requests", space the runs out, or retry after the time given in Retry-After.',
};

const SERVER_HINT =
	'The gateway or its upstream model had a server-side problem. Retry later; reads are retried automatically, creations are not (to avoid paying twice).';
const NETWORK_HINT =
	'No answer arrived from the gateway. Check the Base URL, the network between n8n and the gateway, and "Request Timeout".';

const CERTIFICATE_HINT =
	'The server at the Base URL showed a TLS certificate that n8n does not trust (self-signed, expired, or made out for another host name). Check the Base URL; for a gateway with its own certificate authority, give n8n that CA (NODE_EXTRA_CA_CERTS).';

const NOT_OPENED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A connection never opened: the request did not leave. */
export function neverOpened(code: string | undefined): boolean {
	return code !== undefined && NOT_OPENED.has(code);
}

/** A refused TLS certificate: the request was never sent, and sending it again meets the same one. */
export function isCertificateError(code: string | undefined): boolean {
	return (
		code !== undefined &&
		/^(?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID)$/.test(
			code,
		)
	);
}

const NETWORK_CODE = /^E[A-Z_]+$|^UND_ERR|^ERR_/;

/** Looks through the error's causes too: n8n wraps the client's error. */
export function networkCodeOf(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, cause } = current as { code?: unknown; cause?: unknown };
		if (typeof code === 'string' && (NETWORK_CODE.test(code) || isCertificateError(code))) return code;
		current = cause;
	}
	return undefined;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A request without an answer in words, instead of the HTTP library's "socket hang up". */
export function describeNetworkFailure(failure: {
	code?: string;
	message?: string;
	timedOut?: boolean;
	timeoutMs: number;
}): string {
	const { code, message, timedOut, timeoutMs } = failure;
	if (timedOut || code === 'ETIMEDOUT' || code === 'ERR_SOCKET_CONNECTION_TIMEOUT') {
		return `No answer arrived within Request Timeout (${seconds(timeoutMs)})`;
	}
	if (isCertificateError(code)) {
		return `The gateway's TLS certificate was not accepted (${code}); the request was not sent`;
	}
	if (neverOpened(code)) {
		return `The gateway could not be reached (${code}); the request was not sent`;
	}
	if (code || /aborted|hang up|closed|reset/i.test(message ?? '')) {
		return `The connection to the gateway closed before its answer arrived${code ? ` (${code})` : ''}`;
	}
	return message || 'No answer arrived from the gateway';
}

/**
 * Judged from the error itself: a reset near the deadline is not a timeout. Only an
 * error naming no code at all is judged by how long the attempt took.
 */
export function isTimeoutError(error: unknown, elapsedMs: number, timeoutMs: number): boolean {
	let sawCode = false;
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
		if (code === 'ETIMEDOUT' || code === 'ERR_SOCKET_CONNECTION_TIMEOUT') return true;
		if (typeof message === 'string' && /^timeout of \d+ ?ms exceeded/i.test(message)) return true;
		if (typeof code === 'string' && (NETWORK_CODE.test(code) || isCertificateError(code))) sawCode = true;
		current = cause;
	}
	return !sawCode && elapsedMs >= timeoutMs - 50;
}

/**
 * n8n replaces a message naming a Node error code with text advising an immediate
 * retry: wrong for a request that may have been charged. This keeps the message.
 */
export function operationError(
	node: INode,
	message: string,
	options: { itemIndex?: number; description?: string },
): NodeOperationError {
	const error = new NodeOperationError(node, message, options);
	error.message = message;
	return error;
}

/** E.g. " (aborted, ECONNRESET)". Not `instanceof Error`: stream errors may come from another realm. */
export function errorCause(error: unknown): string {
	const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
	const said = typeof message === 'string' ? message : '';
	const parts = [said, typeof code === 'string' && !said.includes(code) ? code : ''].filter(Boolean);
	return parts.length ? ` (${parts.join(', ')})` : '';
}

export const MAYBE_CHARGED_ADVICE =
	"Check the account before running this item again (Account → Get Balance, or the gateway's usage records): a second request is charged again.";

/** Says first that the work may have been charged for, and what to do instead of retrying. */
export function maybeCharged(
	details: GatewayErrorDetails,
	advice = MAYBE_CHARGED_ADVICE,
): GatewayErrorDetails {
	let what = details.message.charAt(0).toLowerCase() + details.message.slice(1);
	if (details.status !== undefined) {
		const answered = `the gateway answered HTTP ${details.status}`;
		// A body without a message already reads "The gateway answered HTTP 500": say it once.
		what = details.message && what !== answered ? `${answered} (${details.message})` : answered;
	}
	return {
		...details,
		message: `The gateway may have done this work and charged for it: ${what}`,
		hint: `${advice} Do not simply run it again.`,
	};
}

export function hintForStatus(status: number | undefined, networkCode?: string): string {
	if (status === undefined) return isCertificateError(networkCode) ? CERTIFICATE_HINT : NETWORK_HINT;
	if (status >= 500) return SERVER_HINT;
	return HINTS[status] ?? 'The gateway refused the request.';
}

const REQUEST_ID_HEADERS = [
	'x-request-id',
	'request-id',
	'x-gateway-request-id',
	'x-amzn-requestid',
	'cf-ray',
];

/** A response header by its lower-case name, whatever the case it came in. */
export function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) {
			if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
			return value === undefined || value === null ? undefined : String(value);
		}
	}
	return undefined;
}

function requestIdFrom(headers: Record<string, unknown> | undefined): string | undefined {
	for (const name of REQUEST_ID_HEADERS) {
		const value = headerValue(headers, name);
		if (value) return value;
	}
	return undefined;
}

export function retryAfterHeader(headers: Record<string, unknown> | undefined): string | undefined {
	return headerValue(headers, 'retry-after');
}

const MAX_TEXT = 500;

function asText(body: unknown): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (typeof body === 'string') return body;
	return undefined;
}

export function parseErrorBody(body: unknown): unknown {
	const text = asText(body);
	if (text === undefined) return body;
	const trimmed = text.trim();
	if (!trimmed) return undefined;
	try {
		return JSON.parse(trimmed);
	} catch {
		return trimmed.length > MAX_TEXT ? `${trimmed.slice(0, MAX_TEXT)}…` : trimmed;
	}
}

function str(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The envelope is `{error:{message,type,code,param}}`; an HTML page from a proxy still reads well. */
export function describeGatewayError(input: {
	status?: number;
	headers?: Record<string, unknown>;
	body?: unknown;
	networkMessage?: string;
	networkCode?: string;
}): GatewayErrorDetails {
	const { status, headers } = input;
	const body = parseErrorBody(input.body);
	const details: GatewayErrorDetails = {
		status,
		message: '',
		requestId: requestIdFrom(headers),
		hint: hintForStatus(status, input.networkCode),
		body,
	};
	const envelope =
		body && typeof body === 'object' && !Array.isArray(body)
			? ((body as Record<string, unknown>).error ?? body)
			: undefined;
	if (envelope && typeof envelope === 'object' && !Array.isArray(envelope)) {
		const e = envelope as Record<string, unknown>;
		details.message = str(e.message) ?? '';
		details.type = str(e.type);
		details.code = str(e.code);
		details.param = str(e.param);
		details.requestId =
			details.requestId ?? str(e.request_id) ?? str((body as Record<string, unknown>).request_id);
	} else if (typeof envelope === 'string' || typeof body === 'string') {
		const text = (typeof body === 'string' ? body : envelope) as string;
		details.message = /^\s*</.test(text) ? 'The gateway answered with an HTML page instead of JSON' : text;
	}
	if (!details.message) {
		details.message =
			status === undefined
				? (input.networkMessage ?? 'The gateway could not be reached')
				: `The gateway answered HTTP ${status}`;
	}
	return details;
}

/** Kept on the node error (`context.gateway`) so callers decide by facts, not by its text. */
interface GatewayFailure {
	status?: number;
	networkCode?: string;
	requestId?: string;
	mayHaveCharged: boolean;
	retryAfterMs?: number;
}

export function gatewayFailureOf(error: unknown): GatewayFailure | undefined {
	const failure = (error as { context?: { gateway?: unknown } } | undefined)?.context?.gateway;
	return failure && typeof failure === 'object' ? (failure as GatewayFailure) : undefined;
}

export function toNodeApiError(
	node: INode,
	details: GatewayErrorDetails,
	itemIndex?: number,
	failure: Pick<GatewayFailure, 'networkCode' | 'mayHaveCharged' | 'retryAfterMs'> = {
		mayHaveCharged: false,
	},
): NodeApiError {
	const facts = [
		details.status !== undefined ? `HTTP ${details.status}` : undefined,
		details.type ? `type: ${details.type}` : undefined,
		details.code ? `code: ${details.code}` : undefined,
		details.param ? `param: ${details.param}` : undefined,
		details.requestId ? `request id: ${details.requestId}` : undefined,
	].filter(Boolean);
	const description = [facts.join(', '), details.hint].filter(Boolean).join('. ');
	const errorResponse: JsonObject = {
		message: details.message,
		...(details.type ? { type: details.type } : {}),
		...(details.code ? { code: details.code } : {}),
		...(details.param ? { param: details.param } : {}),
		...(details.requestId ? { requestId: details.requestId } : {}),
		...(details.status !== undefined ? { httpCode: String(details.status) } : {}),
	};
	const error = new NodeApiError(node, errorResponse, {
		message: details.message,
		description,
		httpCode: details.status !== undefined ? String(details.status) : undefined,
		itemIndex,
	});
	// NodeApiError may replace the message with a generic one for known codes; keep the gateway's.
	error.message = details.message;
	error.description = description;
	const gateway: GatewayFailure = {
		status: details.status,
		networkCode: failure.networkCode,
		requestId: details.requestId,
		mayHaveCharged: failure.mayHaveCharged,
		...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
	};
	error.context = { ...error.context, gateway: gateway as unknown as JsonObject };
	return error;
}
