import type { FailedAttempt, RequestKind } from '../../../nodes/shared/retry';
import {
	backoffDelay,
	MAX_ATTEMPTS,
	mayHaveBeenProcessed,
	parseRetryAfter,
	retryDelay,
} from '../../../nodes/shared/retry';

const NOW = Date.parse('2026-11-21T10:00:00Z');
const noJitter = () => 1;

describe('retryDelay: which failures are tried again (no duplicate paid work; reads retried)', () => {
	const rows: Array<[string, RequestKind, number, FailedAttempt, number | undefined]> = [
		// reads
		['read 429 without Retry-After backs off', 'read', 1, { status: 429 }, 500],
		['read 429 honours Retry-After seconds', 'read', 1, { status: 429, retryAfter: '2' }, 2000],
		[
			'read 429 honours Retry-After as HTTP date',
			'read',
			1,
			{ status: 429, retryAfter: new Date(NOW + 5000).toUTCString() },
			5000,
		],
		[
			'read 429 with Retry-After above 60 s is final',
			'read',
			1,
			{ status: 429, retryAfter: '61' },
			undefined,
		],
		['read 429 with Retry-After of exactly 60 s waits', 'read', 1, { status: 429, retryAfter: '60' }, 60000],
		['read 500 backs off', 'read', 1, { status: 500 }, 500],
		['read 502 second attempt backs off longer', 'read', 2, { status: 502 }, 1000],
		['read 503 on the last attempt is final', 'read', MAX_ATTEMPTS, { status: 503 }, undefined],
		['read 408 is retried', 'read', 1, { status: 408 }, 500],
		['read 400 is final', 'read', 1, { status: 400 }, undefined],
		['read 401 is final', 'read', 1, { status: 401 }, undefined],
		['read 402 is final', 'read', 1, { status: 402 }, undefined],
		['read 404 is final', 'read', 1, { status: 404 }, undefined],
		['read connection reset is retried', 'read', 1, { networkCode: 'ECONNRESET' }, 500],
		['read timeout is retried', 'read', 1, { networkCode: 'ECONNABORTED' }, 500],
		['read refused connection is retried', 'read', 1, { networkCode: 'ECONNREFUSED' }, 500],
		['read unknown network failure is retried', 'read', 1, {}, 500],
		// creations: only when the gateway surely did not take the request
		['create 429 is retried (refused, nothing created)', 'create', 1, { status: 429, retryAfter: '1' }, 1000],
		['create refused connection is retried (never sent)', 'create', 1, { networkCode: 'ECONNREFUSED' }, 500],
		['create DNS failure is retried (never sent)', 'create', 1, { networkCode: 'ENOTFOUND' }, 500],
		['create 500 is never retried (may have been created)', 'create', 1, { status: 500 }, undefined],
		['create 503 is never retried', 'create', 1, { status: 503 }, undefined],
		['create 408 is never retried', 'create', 1, { status: 408 }, undefined],
		['create connection reset is never retried', 'create', 1, { networkCode: 'ECONNRESET' }, undefined],
		['create timeout is never retried', 'create', 1, { networkCode: 'ECONNABORTED' }, undefined],
		['create unknown network failure is never retried', 'create', 1, {}, undefined],
		['create 429 on the last attempt is final', 'create', MAX_ATTEMPTS, { status: 429 }, undefined],
		// a refused TLS certificate: nothing was sent, and the next attempt meets the same certificate
		[
			'read self-signed certificate is final',
			'read',
			1,
			{ networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
			undefined,
		],
		['create expired certificate is final', 'create', 1, { networkCode: 'CERT_HAS_EXPIRED' }, undefined],
		[
			'read host name mismatch is final',
			'read',
			1,
			{ networkCode: 'ERR_TLS_CERT_ALTNAME_INVALID' },
			undefined,
		],
	];

	it.each(rows)('%s', (_name, kind, attempt, failure, expected) => {
		expect(retryDelay(kind, attempt, failure, NOW, noJitter)).toBe(expected);
	});

	it('allows at most 3 attempts in all', () => {
		expect(MAX_ATTEMPTS).toBe(3);
	});
});

describe('backoffDelay', () => {
	it.each([
		[1, 500],
		[2, 1000],
		[3, 2000],
		[5, 8000],
		[9, 8000],
	])('attempt %i without jitter waits %i ms (capped at 8 s)', (attempt, ms) => {
		expect(backoffDelay(attempt, noJitter)).toBe(ms);
	});

	it('jitter scales the delay down by at most a quarter', () => {
		expect(backoffDelay(2, () => 0)).toBe(750);
		expect(backoffDelay(2, () => 0.5)).toBe(875);
	});
});

describe('parseRetryAfter', () => {
	it.each([
		['3', 3000],
		['0', 0],
		['1.5', 1500],
		[new Date(NOW + 10_000).toUTCString(), 10_000],
		[new Date(NOW - 10_000).toUTCString(), 0],
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
	])('%p -> %p ms', (value, expected) => {
		expect(parseRetryAfter(value as string | undefined, NOW)).toBe(expected);
	});
});

describe('mayHaveBeenProcessed: could the gateway have done (and billed) the work?', () => {
	const rows: Array<[FailedAttempt, boolean]> = [
		[{ status: 500 }, true],
		[{ status: 502 }, true],
		[{ status: 504 }, true],
		[{ status: 429 }, false],
		[{ status: 408 }, false],
		[{ status: 400 }, false],
		[{ networkCode: 'ECONNRESET' }, true],
		[{ networkCode: 'ETIMEDOUT' }, true],
		[{ networkCode: 'ECONNABORTED' }, true],
		[{}, true],
		[{ networkCode: 'ECONNREFUSED' }, false],
		[{ networkCode: 'ENOTFOUND' }, false],
		[{ networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, false],
		[{ networkCode: 'SELF_SIGNED_CERT_IN_CHAIN' }, false],
		[{ networkCode: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, false],
		[{ networkCode: 'CERT_HAS_EXPIRED' }, false],
		[{ networkCode: 'ERR_TLS_CERT_ALTNAME_INVALID' }, false],
	];
	it.each(rows)('%j -> %s', (failure, expected) => {
		expect(mayHaveBeenProcessed(failure)).toBe(expected);
	});
});
