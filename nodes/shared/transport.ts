import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { StreamedBody } from './base64Payload';
import { BoundedMap } from './boundedMap';
import { credentialForPath } from './credentials';
import {
	describeGatewayError,
	describeNetworkFailure,
	isCertificateError,
	isTimeoutError,
	maybeCharged,
	networkCodeOf,
	retryAfterHeader,
	toNodeApiError,
} from './errors';
import { cancelSignalOf } from './n8nFeatures';
import type { RequestKind } from './retry';
import { mayHaveBeenProcessed, parseRetryAfter, retryDelay } from './retry';
import type { Clock } from './time';
import { cancellableSleep, systemClock } from './time';
import { REDIRECT_STATUSES, isLoopbackHost, originOf, printableUrl } from './urls';

export type GatewayContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions;

export type ResponseType = 'json' | 'buffer' | 'stream';

export interface GatewayRequest {
	method: 'GET' | 'POST';
	/** Path under the Base URL, e.g. `/v1/user/balance`. Picks the credential. */
	path: string;
	/** An object, JSON bytes, or JSON written as it is sent (base64Payload.ts). */
	body?: IDataObject | Buffer | StreamedBody;
	headers?: IDataObject;
	/** `read` may be retried; `create` costs credit and is only retried when it surely did not arrive. */
	kind: RequestKind;
	responseType?: ResponseType;
	/** Deadline for one attempt. */
	timeoutMs?: number;
	itemIndex?: number;
	/** For a `create` that may have been charged: what to do; a function gets the answer's body. */
	ifMaybeCharged?: string | ((answer: unknown) => string);
	/** A caller that schedules its own next try passes 1: no retry sleeps while holding a request slot. */
	attempts?: number;
}

export interface GatewayResponse<T> {
	status: number;
	headers: Record<string, unknown>;
	body: T;
}

export const DEFAULT_READ_TIMEOUT_MS = 60_000;
export const DEFAULT_CREATE_TIMEOUT_MS = 300_000;
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Network failures that say nothing answers at the Base URL any more: never sent. */
const ADDRESS_GONE: ReadonlySet<string> = new Set([
	'ENOTFOUND',
	'ECONNREFUSED',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** A credential as the requests of one context send it: decrypted once, its Base URL checked. */
interface HeldCredential {
	baseUrl: string;
	decrypted: ICredentialsDecrypted;
	loadedAt: number;
}

/** Each context loads a credential once (an execution's items, a watch, one webhook request). */
const heldByContext = new WeakMap<object, Map<string, Promise<HeldCredential>>>();

/**
 * Webhook requests (callbacks) each get a new context: a credential loaded in
 * one is kept for the next ones of the same workflow, node and credential for
 * a minute, and requests arriving together share one load, since each load in
 * a webhook costs n8n a database read and more. A request the gateway refuses
 * (401/403) with a kept credential loads it again: it may have changed.
 */
const heldForWebhooks = new BoundedMap<string, { since: number; held: Promise<HeldCredential> }>(256);
const WEBHOOK_HOLD_MS = 60_000;

function webhookHoldKey(ctx: GatewayContext, credential: string): string | undefined {
	if (!('getRequestObject' in ctx)) return undefined;
	const node = ctx.getNode();
	const ref = node.credentials?.[credential];
	return `${String(ctx.getWorkflow().id ?? '')}|${node.id}|${credential}|${String(ref?.id ?? ref?.name ?? '')}`;
}

async function loadCredential(ctx: GatewayContext, credential: string, now: number): Promise<HeldCredential> {
	const data = await ctx.getCredentials(credential);
	const baseUrl = String(data.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\//i.test(baseUrl)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) address`,
			{
				description:
					'Open the credential and set Base URL to the gateway address, e.g. https://gateway.example.com',
			},
		);
	}
	const ref = ctx.getNode().credentials?.[credential];
	return {
		baseUrl,
		decrypted: { id: String(ref?.id ?? ''), name: ref?.name ?? credential, type: credential, data },
		loadedAt: now,
	};
}

async function credentialFor(ctx: GatewayContext, credential: string, now: number): Promise<HeldCredential> {
	let perContext = heldByContext.get(ctx);
	if (!perContext) {
		perContext = new Map();
		heldByContext.set(ctx, perContext);
	}
	let held = perContext.get(credential);
	if (held) return await held;
	const key = webhookHoldKey(ctx, credential);
	const kept = key === undefined ? undefined : heldForWebhooks.get(key);
	if (kept && now - kept.since < WEBHOOK_HOLD_MS) {
		// A shared load that failed is no verdict on this request: it loads on its own.
		held = kept.held.catch(async () => await loadCredential(ctx, credential, now));
	} else {
		held = loadCredential(ctx, credential, now);
		void held.then((loaded) => warnIfPlainHttp(ctx, loaded.baseUrl)).catch(() => undefined);
		if (key !== undefined) {
			const entry = { since: now, held };
			heldForWebhooks.dropWhere((kept) => now - kept.since >= WEBHOOK_HOLD_MS);
			heldForWebhooks.set(key, entry);
			held.catch(() => {
				if (heldForWebhooks.get(key) === entry) heldForWebhooks.delete(key);
			});
		}
	}
	perContext.set(credential, held);
	held.catch(() => perContext.delete(credential));
	return await held;
}

/** Forgets the copy of a credential that was refused, not one loaded since: the next request loads it again. */
async function forgetCredential(
	ctx: GatewayContext,
	credential: string,
	refused: HeldCredential,
): Promise<void> {
	const isRefused = async (held: Promise<HeldCredential>) => (await held.catch(() => undefined)) === refused;
	const perContext = heldByContext.get(ctx);
	const mine = perContext?.get(credential);
	if (mine && (await isRefused(mine)) && perContext?.get(credential) === mine) perContext.delete(credential);
	const key = webhookHoldKey(ctx, credential);
	const entry = key === undefined ? undefined : heldForWebhooks.get(key);
	if (entry && (await isRefused(entry.held)) && heldForWebhooks.get(key!) === entry)
		heldForWebhooks.delete(key!);
}

/** A key sent over plain http to another machine can be read on the way: warn in the output pane. */
function warnIfPlainHttp(ctx: GatewayContext, baseUrl: string): void {
	const url = new URL(baseUrl);
	if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
	if (!('addExecutionHints' in ctx) || typeof ctx.addExecutionHints !== 'function') return;
	ctx.addExecutionHints({
		type: 'warning',
		location: 'outputPane',
		message: `The credential's Base URL (${url.origin}) is plain http: the gateway key travels unencrypted to a host outside this machine. Use the gateway's https address.`,
	});
}

async function readStreamText(stream: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream as AsyncIterable<Buffer | string>) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		if (size < MAX_ERROR_BODY_BYTES) chunks.push(buffer);
		size += buffer.length;
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** A streamed body goes with its exact length, so it is not sent chunked. */
function jsonBody(body: GatewayRequest['body']): Pick<IHttpRequestOptions, 'body' | 'json'> & {
	contentType?: IDataObject;
} {
	if (body instanceof StreamedBody) {
		return {
			body: body as unknown as IHttpRequestOptions['body'],
			json: false,
			contentType: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
		};
	}
	if (!Buffer.isBuffer(body)) return { body, json: body !== undefined };
	return { body, json: false, contentType: { 'Content-Type': 'application/json' } };
}

function openStream(body: unknown): { once(event: 'close', listener: () => void): unknown } | undefined {
	const stream = body as { once?: unknown; closed?: boolean; destroyed?: boolean } | undefined;
	if (!stream || typeof stream.once !== 'function' || stream.closed || stream.destroyed) return undefined;
	return stream as { once(event: 'close', listener: () => void): unknown };
}

/**
 * One send. n8n's client reads a Readable body once, so a streamed body is opened
 * afresh for each send (retry, 307/308). A body left unread is closed, letting its
 * files go: at once, or once a streamed answer is read (closing it would abort that).
 */
async function sendOnce(
	ctx: GatewayContext,
	held: HeldCredential,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	const helper = ctx.helpers.httpRequestWithAuthentication;
	const credential = held.decrypted.type;
	// A copy: n8n may add to the data it is given.
	const decrypted = { credentialsDecrypted: { ...held.decrypted, data: { ...held.decrypted.data } } };
	if (!(options.body instanceof StreamedBody)) {
		return (await helper.call(ctx, credential, options, decrypted)) as IN8nHttpFullResponse;
	}
	const stream = options.body.open();
	let response: IN8nHttpFullResponse | undefined;
	try {
		response = (await helper.call(
			ctx,
			credential,
			{ ...options, body: stream as unknown as IHttpRequestOptions['body'] },
			decrypted,
		)) as IN8nHttpFullResponse;
	} finally {
		if (!response) stream.destroy(); // the send failed: its body is not read any further
	}
	if (!stream.readableEnded && !stream.destroyed) {
		const answer = openStream(response.body);
		if (answer) answer.once('close', () => stream.destroy());
		else stream.destroy();
	}
	return response;
}

interface WatchedBody {
	once?: (event: string, listener: () => void) => unknown;
	emit?: (event: string, error: Error) => boolean;
	destroy?: () => unknown;
	listenerCount?: (event: string) => number;
	push?: (chunk: unknown, encoding?: string) => boolean;
	destroyed?: boolean;
}

/**
 * Fails a streamed answer silent for `timeoutMs` with the client's timeout error:
 * the client's own timeout ends once the headers are in. The error is emitted on
 * the body so a waiting reader gets it at once. Arrivals are seen at `push`, since
 * a 'data' listener would start the stream flowing before anyone reads.
 */
function watchSilence(body: unknown, timeoutMs: number): void {
	const stream = body as WatchedBody | undefined;
	if (!stream || typeof stream.push !== 'function' || typeof stream.emit !== 'function') return;
	const ended = new AbortController();
	let lastDataAt = Date.now();
	const push = stream.push.bind(stream);
	stream.push = (chunk: unknown, encoding?: string) => {
		lastDataAt = Date.now();
		return push(chunk, encoding);
	};
	for (const event of ['end', 'close', 'error']) stream.once?.(event, () => ended.abort());
	void (async () => {
		while (!ended.signal.aborted && !stream.destroyed) {
			await cancellableSleep(lastDataAt + timeoutMs - Date.now(), ended.signal);
			if (ended.signal.aborted || stream.destroyed) return;
			if (Date.now() - lastDataAt >= timeoutMs) {
				// Only a body someone reads is told why: an 'error' nobody listens to would end the process.
				if ((stream.listenerCount?.('error') ?? 0) > 0) {
					const error = Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded`), { code: 'ETIMEDOUT' });
					stream.emit!('error', error);
				}
				stream.destroy?.();
				return;
			}
		}
	})();
}

const MAX_REDIRECTS = 5;

/** Ends the request with its node error, never retried. */
class RedirectRefused extends Error {
	constructor(readonly nodeError: Error) {
		super(nodeError.message);
	}
}

function headerValue(headers: unknown, name: string): string | undefined {
	const value = (headers as Record<string, unknown> | undefined)?.[name];
	return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

/**
 * Follows redirects only within the Base URL's origin: n8n's client would follow one
 * anywhere with the credential's headers. A POST is not turned into a GET by 301-303:
 * that would lose the generation, and repeating it could pay twice.
 */
async function sendWithinOrigin(
	ctx: GatewayContext,
	credential: HeldCredential,
	options: IHttpRequestOptions,
	firstUrl: string,
	request: GatewayRequest,
): Promise<IN8nHttpFullResponse> {
	const origin = originOf(firstUrl);
	let current = firstUrl;
	let hopOptions = options;
	for (let hop = 0; ; hop++) {
		const response = await sendOnce(ctx, credential, hopOptions);
		const location = headerValue(response.headers, 'location');
		if (!REDIRECT_STATUSES.has(response.statusCode) || !location) return response;
		(response.body as { destroy?: () => void } | undefined)?.destroy?.();
		let next: string | undefined;
		try {
			next = new URL(location, current).href;
		} catch {
			next = undefined;
		}
		const refuse = (message: string, hint: string) =>
			new RedirectRefused(
				toNodeApiError(ctx.getNode(), { status: response.statusCode, message, hint }, request.itemIndex),
			);
		const to = next ? printableUrl(next) : location;
		const kept = 'The request was not sent there and no credit was spent.';
		if (!next || originOf(next) !== origin) {
			throw refuse(
				`The gateway redirected this request to ${to}, another address than the Base URL (${String(origin)}): the credential is sent only to the Base URL, so the request stopped here`,
				`${kept} If the gateway has moved, set the credential's Base URL to its new address. A redirect from https to http, or to another host or port, is never followed.`,
			);
		}
		if (hop >= MAX_REDIRECTS) {
			throw refuse(
				`The gateway redirected this request more than ${MAX_REDIRECTS} times (last to ${to})`,
				'Check the Base URL: the gateway seems to redirect in a loop.',
			);
		}
		const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
		if (!keepsMethod && hopOptions.method !== 'GET') {
			throw refuse(
				`The gateway answered this ${String(hopOptions.method)} with HTTP ${response.statusCode}, a redirect to ${to} that would turn it into a GET`,
				'The node does not follow it: the request would be lost or sent twice. Check the Base URL (a missing or extra path segment, http instead of https).',
			);
		}
		hopOptions = { ...hopOptions, baseURL: undefined, url: next };
		current = next;
	}
}

/** The only way package code reaches the gateway, with retries (retry.ts) and error mapping (errors.ts). */
export async function gatewayRequest<T = unknown>(
	ctx: GatewayContext,
	request: GatewayRequest,
	clock: Clock = systemClock,
): Promise<GatewayResponse<T>> {
	const credential = credentialForPath(request.path);
	if (!credential) {
		throw new NodeOperationError(ctx.getNode(), `No credential is known for ${request.path}`, {
			itemIndex: request.itemIndex,
		});
	}
	const requestedAt = clock.now();
	let held = await credentialFor(ctx, credential, requestedAt);
	const responseType = request.responseType ?? 'json';
	const timeout =
		request.timeoutMs ?? (request.kind === 'read' ? DEFAULT_READ_TIMEOUT_MS : DEFAULT_CREATE_TIMEOUT_MS);

	const { contentType, ...body } = jsonBody(request.body);
	for (let attempt = 1; ; attempt++) {
		const baseURL = held.baseUrl;
		const options: IHttpRequestOptions = {
			method: request.method,
			baseURL,
			url: request.path,
			headers: {
				Accept: responseType === 'json' ? 'application/json' : '*/*',
				...contentType,
				...request.headers,
			},
			...body,
			timeout,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			encoding: responseType === 'json' ? 'json' : responseType === 'buffer' ? 'arraybuffer' : 'stream',
		};
		let response: IN8nHttpFullResponse | undefined;
		let networkError: unknown;
		const startedAt = clock.now();
		try {
			response = await sendWithinOrigin(ctx, held, options, `${baseURL}${request.path}`, request);
		} catch (error) {
			if (error instanceof RedirectRefused) throw error.nodeError;
			networkError = error;
		}

		// A credential kept from another request or over a minute (a watch) was refused (401/403), or its Base
		// URL kept that long leads nowhere now (no host, no listener, another certificate, 404): sent again if changed.
		const refused = response?.statusCode === 401 || response?.statusCode === 403;
		const keptLong = requestedAt - held.loadedAt >= WEBHOOK_HOLD_MS;
		const code = response ? undefined : networkCodeOf(networkError);
		const gone = response
			? response.statusCode === 404
			: ADDRESS_GONE.has(code ?? '') || isCertificateError(code);
		if (
			held.loadedAt < requestedAt &&
			((refused && (keptLong || webhookHoldKey(ctx, credential) !== undefined)) || (gone && keptLong))
		) {
			const kept = held;
			await forgetCredential(ctx, credential, kept);
			held = await credentialFor(ctx, credential, clock.now());
			const changed = JSON.stringify(held.decrypted.data) !== JSON.stringify(kept.decrypted.data);
			if (changed) {
				(response?.body as { destroy?: () => void } | undefined)?.destroy?.();
				attempt--;
				continue;
			}
		}
		const signal = cancelSignalOf(ctx);
		if (response && response.statusCode >= 200 && response.statusCode < 300) {
			let body = response.body as unknown;
			if (responseType === 'buffer' && !Buffer.isBuffer(body)) body = Buffer.from(body as ArrayBuffer);
			if (responseType === 'stream') watchSilence(body, timeout);
			return {
				status: response.statusCode,
				headers: response.headers as Record<string, unknown>,
				body: body as T,
			};
		}

		let errorBody: unknown = response?.body;
		if (
			response &&
			responseType === 'stream' &&
			errorBody &&
			typeof errorBody === 'object' &&
			'pipe' in errorBody
		) {
			errorBody = await readStreamText(errorBody as NodeJS.ReadableStream);
		}
		const headers = (response?.headers ?? {}) as Record<string, unknown>;
		const failure = {
			status: response?.statusCode,
			retryAfter: retryAfterHeader(headers),
			networkCode: response ? undefined : networkCodeOf(networkError),
		};
		const delay =
			signal?.aborted || attempt >= (request.attempts ?? Number.POSITIVE_INFINITY)
				? undefined
				: retryDelay(request.kind, attempt, failure, clock.now());
		if (delay === undefined) {
			let details = describeGatewayError({
				status: response?.statusCode,
				headers,
				body: errorBody,
				networkCode: failure.networkCode,
				networkMessage: response
					? undefined
					: describeNetworkFailure({
							code: failure.networkCode,
							message: networkError instanceof Error ? networkError.message : undefined,
							timedOut: isTimeoutError(networkError, clock.now() - startedAt, timeout),
							timeoutMs: timeout,
						}),
			});
			const mayHaveCharged = request.kind === 'create' && mayHaveBeenProcessed(failure);
			if (mayHaveCharged) {
				const advice = request.ifMaybeCharged;
				details = maybeCharged(details, typeof advice === 'function' ? advice(details.body) : advice);
			}
			if (attempt > 1) details.hint = `${details.hint ?? ''} Tried ${attempt} times.`.trim();
			throw toNodeApiError(ctx.getNode(), details, request.itemIndex, {
				networkCode: failure.networkCode,
				mayHaveCharged,
				retryAfterMs: parseRetryAfter(failure.retryAfter, clock.now()),
			});
		}
		await clock.sleep(delay, signal);
	}
}
