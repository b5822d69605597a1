import type { IBinaryData, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';

import { readHead, storeBinaryPieces } from './binary';
import type { BinaryStore } from './binary';
import { errorCause, headerValue, networkCodeOf, operationError, retryAfterHeader } from './errors';
import { cancelSignalOf } from './n8nFeatures';
import { retryDelay } from './retry';
import type { Clock } from './time';
import { systemClock } from './time';
import { printableUrl } from './urls';

/**
 * Downloads of paid results (a video, an image URL): retried as a read, bounded by
 * silence and by a total deadline (a host trickling bytes must not hold the run),
 * streamed into n8n's binary store. No gateway credential goes along (result URLs
 * are pre-signed, maybe on a storage host), and a URL's query is never printed.
 */

/** How long a download may take in all, as a multiple of Request Timeout. */
export const DOWNLOAD_DEADLINE_FACTOR = 10;

const MAX_ERROR_BYTES = 4096;

export interface DownloadContext extends BinaryStore {
	getNode(): INode;
	helpers: BinaryStore['helpers'] & {
		httpRequest(options: IHttpRequestOptions): Promise<unknown>;
	};
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

interface DownloadRequest {
	url: string;
	itemIndex: number;
	/** In the user's words: "the video of task video_1", "image 2". */
	what: string;
	advice: string;
	/** Request Timeout: the longest silence. */
	silenceMs: number;
	name: (head: Buffer, contentType: string | undefined) => { fileName: string; mimeType: string };
}

interface Downloaded {
	binary: IBinaryData;
	contentType?: string;
	attempts: number;
}

type Ending =
	| { kind: 'status'; status: number; retryAfter?: string; text: string }
	| { kind: 'network'; code?: string; cause: string }
	| { kind: 'short'; received: number; expected: number }
	| { kind: 'silent'; received: number }
	| { kind: 'deadline'; received: number }
	| { kind: 'cancelled' }
	| { kind: 'empty' };

function describe(ending: Ending, silenceMs: number, deadlineMs: number): string {
	switch (ending.kind) {
		case 'status':
			return `the file host answered HTTP ${ending.status}${ending.text ? `: ${ending.text}` : ''}`;
		case 'network':
			return `the connection failed${ending.cause}`;
		case 'short':
			return `the connection closed after ${ending.received} of ${ending.expected} bytes`;
		case 'silent':
			return `nothing arrived for longer than Request Timeout (${silenceMs / 1000} s), after ${ending.received} bytes`;
		case 'deadline':
			return `it took longer than ${deadlineMs / 1000} s in all (${DOWNLOAD_DEADLINE_FACTOR} x Request Timeout), after ${ending.received} bytes`;
		case 'cancelled':
			return 'the execution was stopped';
		case 'empty':
			return 'the file host sent an empty file';
	}
}

/** Undefined: never retried. */
function asFailure(ending: Ending) {
	if (ending.kind === 'status') return { status: ending.status, retryAfter: ending.retryAfter };
	if (ending.kind === 'network') return { networkCode: ending.code ?? '' };
	if (ending.kind === 'short' || ending.kind === 'silent') return { networkCode: 'ECONNRESET' };
	return undefined;
}

async function readText(body: unknown): Promise<string> {
	if (!body || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return '';
	const parts: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		parts.push(buffer);
		size += buffer.length;
		if (size >= MAX_ERROR_BYTES) break;
	}
	const text = Buffer.concat(parts).toString('utf8').replace(/\s+/g, ' ').trim();
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A storage host may echo the request, and a pre-signed URL's query holds its token. */
function withoutSecrets(text: string, url: string): string {
	let query: URLSearchParams;
	try {
		query = new URL(url).searchParams;
	} catch {
		return text;
	}
	let clean = text;
	for (const value of query.values()) if (value.length >= 6) clean = clean.split(value).join('…');
	return clean;
}

function destroy(body: unknown): void {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

type AttemptResult = { ok: true; binary: IBinaryData; contentType?: string } | { ok: false; ending: Ending };

/** `guard` closes the body on Stop, deadline or silence; the reason is then `guard.why`. */
async function attempt(ctx: DownloadContext, request: DownloadRequest, guard: Guard): Promise<AttemptResult> {
	const networkEnding = (error: unknown): Ending =>
		guard.why ?? { kind: 'network', code: networkCodeOf(error), cause: errorCause(error) };
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url: request.url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: request.silenceMs,
			abortSignal: guard.signal,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		return { ok: false, ending: networkEnding(error) };
	}
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const body = response.body as AsyncIterable<Buffer | string>;
	if (response.statusCode < 200 || response.statusCode >= 300) {
		const text = withoutSecrets(await readText(body).catch(() => ''), request.url);
		destroy(body);
		const retryAfter = retryAfterHeader(headers);
		return { ok: false, ending: { kind: 'status', status: response.statusCode, retryAfter, text } };
	}
	guard.watch(body);
	const encoded = headerValue(headers, 'content-encoding');
	const length = Number(headerValue(headers, 'content-length'));
	const expected = !encoded && Number.isFinite(length) && length > 0 ? length : undefined;
	const contentType = headerValue(headers, 'content-type')?.split(';')[0].trim() || undefined;
	const source = body[Symbol.asyncIterator]();
	let received = 0;
	// The store sees only that its pieces stopped (and may wrap the error).
	let broke: Ending | undefined;
	const interrupted = (ending: Ending) => {
		broke = ending;
		return operationError(ctx.getNode(), `The download stopped: ${ending.kind}`, {
			itemIndex: request.itemIndex,
		});
	};
	const next = async (): Promise<Buffer | undefined> => {
		let step: IteratorResult<Buffer | string>;
		try {
			step = await source.next();
		} catch (error) {
			throw interrupted(networkEnding(error));
		}
		if (guard.why) throw interrupted(guard.why);
		if (step.done) {
			if (expected !== undefined && received < expected)
				throw interrupted({ kind: 'short', received, expected });
			return undefined;
		}
		const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
		received += chunk.length;
		guard.progress(received);
		return chunk;
	};

	const file = await readHead(next).catch(() => null);
	if (file === null) {
		destroy(body);
		return { ok: false, ending: broke! };
	}
	if (!file) return { ok: false, ending: { kind: 'empty' } };
	const { fileName, mimeType } = request.name(file.head, contentType);
	try {
		const binary = await storeBinaryPieces(ctx, response.body, file.pieces, fileName, mimeType);
		return { ok: true, binary, contentType };
	} catch (error) {
		destroy(body);
		const ending = broke ?? guard.why;
		if (ending) return { ok: false, ending };
		// The store's own failure (a write error, a size mismatch): not the download's to retry.
		throw operationError(ctx.getNode(), `Could not store ${request.what}: ${(error as Error).message}`, {
			itemIndex: request.itemIndex,
			description: request.advice,
		});
	}
}

/** Aborts a download on Stop, at the deadline or after `silenceMs` without a byte. */
class Guard {
	private readonly controller = new AbortController();

	private readonly done = new AbortController();

	private body: unknown;

	private received = 0;

	private lastByteAt: number;

	private readonly watchdog: Promise<void>;

	why: Ending | undefined;

	constructor(
		private readonly clock: Clock,
		private readonly deadlineAt: number,
		private readonly silenceMs: number,
		private readonly cancel: AbortSignal | undefined,
	) {
		this.lastByteAt = clock.now();
		this.watchdog = this.watch_();
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	watch(body: unknown): void {
		this.body = body;
		this.lastByteAt = this.clock.now();
	}

	progress(received: number): void {
		this.received = received;
		this.lastByteAt = this.clock.now();
	}

	private stop(why: Ending): void {
		if (this.why) return;
		this.why = why;
		this.controller.abort();
		destroy(this.body);
	}

	private async watch_(): Promise<void> {
		const onCancel = () => this.stop({ kind: 'cancelled' });
		if (this.cancel?.aborted) onCancel();
		this.cancel?.addEventListener('abort', onCancel, { once: true });
		try {
			while (!this.done.signal.aborted && !this.why) {
				const now = this.clock.now();
				if (now >= this.deadlineAt) this.stop({ kind: 'deadline', received: this.received });
				else if (this.body && now - this.lastByteAt >= this.silenceMs)
					this.stop({ kind: 'silent', received: this.received });
				else {
					// Before the body is watched, look again a silence later (it may be watched by then).
					const silenceEnds = (this.body ? this.lastByteAt : now) + this.silenceMs;
					await this.clock.sleep(Math.min(this.deadlineAt, silenceEnds) - now, this.done.signal);
				}
			}
		} finally {
			this.cancel?.removeEventListener('abort', onCancel);
		}
	}

	async close(): Promise<void> {
		this.done.abort();
		await this.watchdog;
	}
}

export async function downloadToBinary(ctx: DownloadContext, request: DownloadRequest): Promise<Downloaded> {
	const clock = systemClock;
	const deadlineMs = request.silenceMs * DOWNLOAD_DEADLINE_FACTOR;
	const where = printableUrl(request.url);
	const fail = (why: string, attempts: number) =>
		operationError(ctx.getNode(), `Could not download ${request.what} from ${where}: ${why}`, {
			itemIndex: request.itemIndex,
			description: `${request.advice}${attempts > 1 ? ` Tried ${attempts} times.` : ''}`,
		});
	let protocol: string | undefined;
	try {
		protocol = new URL(request.url).protocol;
	} catch {
		protocol = undefined;
	}
	if (protocol !== 'http:' && protocol !== 'https:') {
		throw fail('only http and https addresses are downloaded', 1);
	}
	const cancel = cancelSignalOf(ctx);
	const deadlineAt = clock.now() + deadlineMs;
	for (let attempts = 1; ; attempts++) {
		const guard = new Guard(clock, deadlineAt, request.silenceMs, cancel);
		const result = await attempt(ctx, request, guard).finally(async () => await guard.close());
		if (result.ok) return { binary: result.binary, contentType: result.contentType, attempts };
		const failure = asFailure(result.ending);
		const delay = failure ? retryDelay('read', attempts, failure, clock.now()) : undefined;
		if (delay === undefined || clock.now() + delay >= deadlineAt || cancel?.aborted) {
			throw fail(describe(result.ending, request.silenceMs, deadlineMs), attempts);
		}
		await clock.sleep(delay, cancel);
		if (cancel?.aborted) throw fail(describe({ kind: 'cancelled' }, request.silenceMs, deadlineMs), attempts);
	}
}
