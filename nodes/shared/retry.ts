/**
 * When a failed request is tried again. Reads: on 429, 408, 5xx and network errors,
 * with capped back-off and Retry-After. Creations cost credit: retried only when the
 * gateway surely did not take them (a 429, a connection never opened); a timeout,
 * reset or 5xx may follow started work, and a second try could bill twice.
 */

import { isCertificateError, neverOpened } from './errors';

export type RequestKind = 'read' | 'create';

export interface FailedAttempt {
	status?: number;
	/** Seconds or an HTTP date. */
	retryAfter?: string;
	networkCode?: string;
}

export const MAX_ATTEMPTS = 3;
const MAX_RETRY_AFTER_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

const MAYBE_SENT_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/** A 5xx, or no answer for another reason than a connection never opened; a 4xx is a refusal. */
export function mayHaveBeenProcessed(failure: FailedAttempt): boolean {
	if (failure.status !== undefined) return failure.status >= 500;
	return !neverOpened(failure.networkCode) && !isCertificateError(failure.networkCode);
}

export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 429 || status >= 500;
}

export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** 0.5 s, 1 s, 2 s ... capped at 8 s, each scaled by 0.75-1.0. */
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
	if (neverOpened(code)) return true;
	return kind === 'read' && (MAYBE_SENT_CODES.has(code) || code === '');
}

/** Undefined when the failure is final; `attempt` is the 1-based attempt that just failed. */
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
		// More than a minute is better answered by a later run than by holding the execution.
		if (asked > MAX_RETRY_AFTER_MS) return undefined;
		return asked;
	}
	return backoffDelay(attempt, random);
}
