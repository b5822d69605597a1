import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	describeGatewayError,
	errorCause,
	operationError,
	describeNetworkFailure,
	hintForStatus,
	isTimeoutError,
	maybeCharged,
	networkCodeOf,
	MAYBE_CHARGED_ADVICE,
	parseErrorBody,
	toNodeApiError,
} from '../../../nodes/shared/errors';

const node: INode = {
	id: '1',
	name: 'Generation Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const envelope = (message: string, type: string, code: string, param: string) => ({
	error: { message, type, code, param },
});

describe('describeGatewayError: the envelope and the status reach the user (R8)', () => {
	const rows: Array<[string, Parameters<typeof describeGatewayError>[0], Record<string, unknown>]> = [
		[
			'envelope members',
			{
				status: 400,
				body: envelope('n must be 1 for legacyimg-3', 'invalid_request_error', 'invalid_value', 'n'),
			},
			{
				status: 400,
				message: 'n must be 1 for legacyimg-3',
				type: 'invalid_request_error',
				code: 'invalid_value',
				param: 'n',
			},
		],
		[
			'envelope as a JSON string body',
			{
				status: 401,
				body: JSON.stringify(envelope('bad token', 'authentication_error', 'invalid_token', '')),
			},
			{
				status: 401,
				message: 'bad token',
				type: 'authentication_error',
				code: 'invalid_token',
				param: undefined,
			},
		],
		[
			'envelope as bytes',
			{
				status: 402,
				body: Buffer.from(JSON.stringify(envelope('no credit', 'insufficient_quota', 'quota', ''))),
			},
			{ status: 402, message: 'no credit', type: 'insufficient_quota', code: 'quota' },
		],
		[
			'request id from the x-request-id header',
			{
				status: 500,
				headers: { 'X-Request-Id': 'req_123' },
				body: envelope('upstream failed', 'api_error', 'upstream', ''),
			},
			{ requestId: 'req_123', message: 'upstream failed' },
		],
		[
			'request id from the body when no header carries one',
			{ status: 500, body: { error: { message: 'boom', type: 'api_error' }, request_id: 'req_body' } },
			{ requestId: 'req_body' },
		],
		[
			'an HTML page from a proxy',
			{ status: 502, body: '<html><body>Bad Gateway</body></html>' },
			{ status: 502, message: 'The gateway answered with an HTML page instead of JSON' },
		],
		['plain text body', { status: 503, body: 'upstream overloaded' }, { message: 'upstream overloaded' }],
		['empty body', { status: 504, body: '' }, { message: 'The gateway answered HTTP 504' }],
		[
			'a top-level message without the envelope',
			{ status: 400, body: { message: 'bad size', code: 'size' } },
			{ message: 'bad size', code: 'size' },
		],
		[
			'no response at all',
			{ networkMessage: 'connect ECONNREFUSED 127.0.0.1:9' },
			{ status: undefined, message: 'connect ECONNREFUSED 127.0.0.1:9' },
		],
	];

	it.each(rows)('%s', (_name, input, expected) => {
		expect(describeGatewayError(input)).toMatchObject(expected);
	});

	it('shortens long non-JSON bodies', () => {
		const parsed = parseErrorBody('x'.repeat(2000)) as string;
		expect(parsed.length).toBeLessThan(600);
	});
});

describe('hintForStatus: plain-language hints', () => {
	it.each([
		[401, /secret is correct/],
		[402, /no credit/],
		[403, /not allowed/],
		[404, /does not know/],
		[429, /rate-limiting/],
		[500, /server-side problem/],
		[503, /server-side problem/],
		[undefined, /No answer arrived/],
	])('HTTP %p', (status, hint) => {
		expect(hintForStatus(status)).toMatch(hint);
	});
	it.each([
		['DEPTH_ZERO_SELF_SIGNED_CERT', /TLS certificate that n8n does not trust.*NODE_EXTRA_CA_CERTS/],
		['ECONNRESET', /^No answer arrived from the gateway/],
		[undefined, /^No answer arrived from the gateway/],
	])('no answer, code %p', (code, hint) => {
		expect(hintForStatus(undefined, code)).toMatch(hint);
	});
});

describe('toNodeApiError', () => {
	it('keeps the gateway message and lists type, code, param, status and request id', () => {
		const details = describeGatewayError({
			status: 429,
			headers: { 'x-request-id': 'req_9' },
			body: envelope('Too many requests', 'rate_limit_error', 'rate_limited', 'model'),
		});
		const error = toNodeApiError(node, details, 3);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Too many requests');
		expect(error.httpCode).toBe('429');
		expect(error.description).toContain('HTTP 429');
		expect(error.description).toContain('type: rate_limit_error');
		expect(error.description).toContain('code: rate_limited');
		expect(error.description).toContain('param: model');
		expect(error.description).toContain('request id: req_9');
		expect(error.description).toContain('rate-limiting');
		expect(error.context.itemIndex).toBe(3);
	});
});

describe('describeNetworkFailure: a request without an answer, in words', () => {
	const rows: Array<[string, Parameters<typeof describeNetworkFailure>[0], string]> = [
		[
			'the attempt used its whole deadline',
			{ code: 'ECONNABORTED', message: 'timeout of 1000ms exceeded', timedOut: true, timeoutMs: 1000 },
			'No answer arrived within Request Timeout (1 s)',
		],
		[
			'ETIMEDOUT',
			{ code: 'ETIMEDOUT', timeoutMs: 300_000 },
			'No answer arrived within Request Timeout (300 s)',
		],
		[
			'a fractional setting',
			{ timedOut: true, timeoutMs: 1500 },
			'No answer arrived within Request Timeout (1.5 s)',
		],
		[
			'refused',
			{ code: 'ECONNREFUSED', timeoutMs: 1000 },
			'The gateway could not be reached (ECONNREFUSED); the request was not sent',
		],
		[
			'unknown host',
			{ code: 'ENOTFOUND', timeoutMs: 1000 },
			'The gateway could not be reached (ENOTFOUND); the request was not sent',
		],
		[
			'reset',
			{ code: 'ECONNRESET', message: 'socket hang up', timeoutMs: 1000 },
			'The connection to the gateway closed before its answer arrived (ECONNRESET)',
		],
		[
			'no code, "aborted"',
			{ message: 'aborted', timeoutMs: 1000 },
			'The connection to the gateway closed before its answer arrived',
		],
		[
			'anything else keeps its text',
			{ message: 'self-signed certificate', timeoutMs: 1000 },
			'self-signed certificate',
		],
		// Certificates Node refused: self-signed, for another host, expired, without its chain.
		...[
			'DEPTH_ZERO_SELF_SIGNED_CERT',
			'ERR_TLS_CERT_ALTNAME_INVALID',
			'CERT_HAS_EXPIRED',
			'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
		].map((code): [string, Parameters<typeof describeNetworkFailure>[0], string] => [
			code,
			{ code, message: 'self-signed certificate', timeoutMs: 1000 },
			`The gateway's TLS certificate was not accepted (${code}); the request was not sent`,
		]),
		['nothing at all', { timeoutMs: 1000 }, 'No answer arrived from the gateway'],
	];
	it.each(rows)('%s', (_name, input, expected) => {
		expect(describeNetworkFailure(input)).toBe(expected);
	});
});

describe('isTimeoutError: a deadline is told from the error, not from the time it took', () => {
	// The shapes n8n's HTTP client gives (seen on the simulator): a NodeApiError whose cause is
	// the AxiosError.
	const wrap = (code: string, message: string) => ({
		message: 'The connection was aborted, perhaps the server is offline',
		cause: { code, message },
	});
	const rows: Array<[string, unknown, number, boolean]> = [
		[
			'n8n client deadline (ECONNABORTED "timeout of 1000ms exceeded")',
			wrap('ECONNABORTED', 'timeout of 1000ms exceeded'),
			1012,
			true,
		],
		[
			'the same, reported early by a busy clock',
			wrap('ECONNABORTED', 'timeout of 1000ms exceeded'),
			400,
			true,
		],
		['socket deadline ETIMEDOUT', wrap('ETIMEDOUT', 'connect ETIMEDOUT'), 10, true],
		['connection reset just before the deadline', wrap('ECONNRESET', 'socket hang up'), 990, false],
		['connection reset after the deadline', wrap('ECONNRESET', 'socket hang up'), 1500, false],
		['ECONNABORTED without a timeout text', wrap('ECONNABORTED', 'aborted'), 1200, false],
		['refused', wrap('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 1200, false],
		['no code, whole deadline used', { message: 'aborted' }, 1000, true],
		['no code, early', { message: 'aborted' }, 200, false],
		['not an object', 'aborted', 1000, true],
	];
	it.each(rows)('%s', (_name, error, elapsedMs, expected) => {
		expect(isTimeoutError(error, elapsedMs, 1000)).toBe(expected);
	});
});

describe('maybeCharged: a create that may have been done says so first, with no retry advice', () => {
	it.each([
		[
			{ status: 502, message: 'Bad gateway' },
			'The gateway may have done this work and charged for it: the gateway answered HTTP 502 (Bad gateway)',
		],
		[
			{ status: 500, message: '' },
			'The gateway may have done this work and charged for it: the gateway answered HTTP 500',
		],
		[
			{ status: 502, message: 'The gateway answered HTTP 502' },
			'The gateway may have done this work and charged for it: the gateway answered HTTP 502',
		],
		[
			{ message: 'No answer arrived within Request Timeout (1 s)' },
			'The gateway may have done this work and charged for it: no answer arrived within Request Timeout (1 s)',
		],
	])('%j', (details, message) => {
		const result = maybeCharged({ ...details, hint: 'Retry later.' });
		expect(result.message).toBe(message);
		expect(result.hint).toBe(`${MAYBE_CHARGED_ADVICE} Do not simply run it again.`);
		expect(result.hint).not.toMatch(/retry/i);
	});
	it("takes the operation's own advice", () => {
		expect(maybeCharged({ status: 503, message: 'x' }, 'Look the task up.').hint).toBe(
			'Look the task up. Do not simply run it again.',
		);
	});
});

describe('networkCodeOf: the code of a request without an answer, through the wrapping causes', () => {
	const rows: Array<[string, unknown, string | undefined]> = [
		['on the error', { code: 'ECONNRESET' }, 'ECONNRESET'],
		[
			'in the cause (n8n wraps the client error)',
			{ message: 'x', cause: { code: 'ETIMEDOUT' } },
			'ETIMEDOUT',
		],
		['two levels down', { cause: { cause: { code: 'UND_ERR_SOCKET' } } }, 'UND_ERR_SOCKET'],
		['a certificate code', { cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } }, 'DEPTH_ZERO_SELF_SIGNED_CERT'],
		[
			'an HTTP status word is not a network code',
			{ code: '500', cause: { code: 'ECONNRESET' } },
			'ECONNRESET',
		],
		['none', { message: 'aborted' }, undefined],
		['not an object', 'aborted', undefined],
	];
	it.each(rows)('%s', (_name, error, expected) => {
		expect(networkCodeOf(error)).toBe(expected);
	});
});

describe('errorCause: what an HTTP or stream error says, for the message', () => {
	it.each([
		[
			'message and code',
			Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
			' (aborted, ECONNRESET)',
		],
		[
			'a message that names its code',
			Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
			' (read ECONNRESET)',
		],
		['a code only', Object.assign(new Error(''), { code: 'EPIPE' }), ' (EPIPE)'],
		['a message only', new Error('socket hang up'), ' (socket hang up)'],
		[
			'an error of another realm (a plain object)',
			{ message: 'aborted', code: 'ECONNRESET' },
			' (aborted, ECONNRESET)',
		],
		['nothing said', new Error(''), ''],
		['not an error', undefined, ''],
	])('%s', (_name, error, expected) => {
		expect(errorCause(error)).toBe(expected);
	});
});

describe('operationError: n8n does not replace a message that names a Node error code', () => {
	const message =
		'The gateway may have done this work and charged for it: the connection broke (read ECONNRESET)';
	it('plain NodeOperationError replaces it with retry advice (why operationError exists)', () => {
		expect(new NodeOperationError(node, message).message).toMatch(/You can retry the request immediately/);
	});
	it('operationError keeps it, with the item index and description', () => {
		const error = operationError(node, message, { itemIndex: 3, description: 'Check the account.' });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(message);
		expect(error.description).toBe('Check the account.');
		expect(error.context.itemIndex).toBe(3);
	});
});
