/**
 * When a failed request is tried again (no duplicate paid work; reads ride out hiccups). Pure: the
 * transport asks, these functions answer, the tests read them as a table.
 *
 * - Reads (balance, task polls, gets) are retried on 429, 408, 5xx and network
 *   errors, at most 3 attempts in all, with capped exponential back-off and
 *   jitter, honouring Retry-After when it asks for 60 s or less.
 * - Creations (generations, video tasks, caches) cost credit. They are retried
 *   only when the failure proves the gateway did not take the request: a 429
 *   refusal, or a connection that was never opened. A timeout, a reset
 *   connection or a 5xx may come after the gateway started the work, so those
 *   are never retried: running them twice could bill twice or create two tasks.
 * - A TLS certificate that was refused is final for both: nothing was sent,
 *   and another attempt meets the same certificate.
 */

import { isCertificateError } from './errors';

export type RequestKind = 'read' | 'create';

export interface FailedAttempt {
	/** HTTP status, or undefined when no response arrived. */
	status?: number;
	/** The Retry-After header as received (seconds or an HTTP date). */
	retryAfter?: string;
	/** Node's error code for a request that got no response (ECONNREFUSED, ECONNRESET, ETIMEDOUT...). */
	networkCode?: string;
}

export const MAX_ATTEMPTS = 3;
export const MAX_RETRY_AFTER_MS = 60_000;
export const BASE_DELAY_MS = 500;
export const MAX_BACKOFF_MS = 8_000;

/** Error codes that mean the request never left this machine or never reached a listening gateway. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Error codes of a request that may or may not have been received. */
const MAYBE_SENT_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/**
 * Whether a failed request may have been received and acted on by the gateway:
 * any 5xx (the work may have run before the failure), or no answer at all for
 * another reason than a connection that was never opened or a TLS certificate
 * that was refused (a timeout, a reset, a closed socket). A 4xx, 429 included, is a refusal: nothing was done.
 */
export function mayHaveBeenProcessed(failure: FailedAttempt): boolean {
	if (failure.status !== undefined) return failure.status >= 500;
	return !NOT_SENT_CODES.has(failure.networkCode ?? '') && !isCertificateError(failure.networkCode);
}

export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 429 || status >= 500;
}

/** Retry-After in milliseconds (seconds or HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential back-off with jitter: 0.5 s, 1 s, 2 s ... capped at 8 s, each scaled by 0.75-1.0. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const raw = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
	return Math.round(raw * (0.75 + 0.25 * random()));
}

function isRetryable(kind: RequestKind, failure: FailedAttempt): boolean {
	if (failure.status !== undefined) {
		if (kind === 'create') return failure.status === 429;
		return isRetryableStatus(failure.status);
	}
	const code = failure.networkCode ?? '';
	if (isCertificateError(code)) return false;
	if (NOT_SENT_CODES.has(code)) return true;
	return kind === 'read' && (MAYBE_SENT_CODES.has(code) || code === '');
}

/**
 * The delay before the next attempt, or undefined when the failure is final.
 * `attempt` is the number of the attempt that just failed (1-based).
 */
export function retryDelay(
	kind: RequestKind,
	attempt: number,
	failure: FailedAttempt,
	now: number = Date.now(),
	random: () => number = Math.random,
): number | undefined {
	if (attempt >= MAX_ATTEMPTS) return undefined;
	if (!isRetryable(kind, failure)) return undefined;
	const asked = parseRetryAfter(failure.retryAfter, now);
	if (asked !== undefined) {
		// A server asking for more than a minute is better answered by a later run
		// than by holding the execution.
		if (asked > MAX_RETRY_AFTER_MS) return undefined;
		return asked;
	}
	return backoffDelay(attempt, random);
}
