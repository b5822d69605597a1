/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Whether n8n can reach its own address, and what n8n's log and the wait say when it cannot (nodes/shared/ownAddress.ts). */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { UnreachableCause } from '../../../nodes/shared/ownAddress';
import { VERDICT_FRESH_MS } from '../../../nodes/shared/waitClocks';
import {
	forgetReachability,
	isOwnWebhookAddress,
	noteReachability,
	ownAddressUnreachable,
	unreachableCause,
} from '../../../nodes/shared/ownAddress';
import { FakeClock } from './fakeClock';

/** Lets a probe begun in the background settle. */
const settle = async () => await new Promise((resolve) => setImmediate(resolve));
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
/** n8n wraps the client's error; the code is on its cause. */
const wrapped = (inner: Error) => Object.assign(new Error('Request failed'), { cause: inner });

describe('unreachableCause: what a failed post to n8n says of the set-up', () => {
	it.each<[string, unknown, UnreachableCause, RegExp]>([
		[
			'a self-signed certificate',
			coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
			'certificate',
			/NODE_EXTRA_CA_CERTS/,
		],
		[
			'a private CA not given to Node',
			wrapped(coded('unable to verify', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE')),
			'certificate',
			/NODE_EXTRA_CA_CERTS/,
		],
		[
			'a certificate for another name',
			coded('Hostname/IP does not match', 'ERR_TLS_CERT_ALTNAME_INVALID'),
			'certificate',
			/certificate authority/,
		],
		[
			'a name that does not resolve in the container',
			coded('getaddrinfo ENOTFOUND n8n.example.com', 'ENOTFOUND'),
			'name',
			/extra_hosts/,
		],
		['a name lookup that fails for now', coded('getaddrinfo EAI_AGAIN n8n', 'EAI_AGAIN'), 'name', /resolve/],
		[
			'nothing listening',
			wrapped(coded('connect ECONNREFUSED 127.0.0.1:443', 'ECONNREFUSED')),
			'refused',
			/N8N_WEBHOOK_URL/,
		],
		['no route', coded('connect EHOSTUNREACH', 'EHOSTUNREACH'), 'refused', /reach the proxy/],
		[
			"n8n's SSRF rules",
			Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), {
				name: 'SsrfBlockedIpError',
			}),
			'ssrf',
			/N8N_SSRF_ALLOWED_HOSTNAMES/,
		],
		['no answer in time', coded('timeout of 60000ms exceeded', 'ECONNABORTED'), 'timeout', /firewall/],
		['anything else', new Error('socket hang up'), 'other', /answered/],
	])('%s: %s', (_what, error, cause, fix) => {
		const found = unreachableCause(error);
		expect(found.cause).toBe(cause);
		expect(found.fix).toMatch(fix);
		expect(found.said.length).toBeGreaterThan(0);
	});
});

function fakeLogger() {
	const lines: Array<[string, string]> = [];
	const log = (level: string) => (message: string) => lines.push([level, message]);
	return {
		lines,
		logger: { warn: log('warn'), info: log('info'), error: log('error'), debug: log('debug') },
	};
}

describe("noteReachability: n8n's log says why, once per cause and process", () => {
	beforeEach(() => forgetReachability());

	it('warns the first time a cause is seen, never again for it; another cause warns once too', () => {
		const { lines, logger } = fakeLogger();
		const url = 'https://n8n.example.com/webhook-waiting/7/video-wait?signature=secret';
		const failed = (error: Error) => ({ status: 0, body: undefined, unreachable: unreachableCause(error) });
		const cert = failed(coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'));
		for (let post = 0; post < 5; post++) noteReachability(logger as never, url, cert, post);
		noteReachability(logger as never, url, { status: 409, body: { message: 'running already' } }, 10);
		const name = failed(coded('getaddrinfo ENOTFOUND', 'ENOTFOUND'));
		noteReachability(logger as never, url, name, 11);
		noteReachability(logger as never, url, name, 12);
		// A timeout says nothing of the set-up: no warning.
		noteReachability(logger as never, url, failed(coded('timeout of 60000ms exceeded', 'ECONNABORTED')), 13);
		expect(lines.map(([level]) => level)).toEqual(['warn', 'warn']);
		expect(lines[0][1]).toMatch(
			/cannot reach n8n's own address https:\/\/n8n\.example\.com\/webhook-waiting\/7\/video-wait\?…: self-signed certificate/,
		);
		expect(lines[0][1]).toMatch(/NODE_EXTRA_CA_CERTS/);
		// The address's token is never logged.
		expect(lines.join(' ')).not.toContain('secret');
	});
});

describe('ownAddressUnreachable: one probe per origin, its verdict kept for a while', () => {
	beforeEach(() => forgetReachability());

	function probingContext(answer: () => Promise<unknown>) {
		const { lines, logger } = fakeLogger();
		const posts: string[] = [];
		const ctx = {
			logger,
			helpers: {
				httpRequest: async (options: { url: string }) => {
					posts.push(options.url);
					return await answer();
				},
			},
		} as unknown as IExecuteFunctions;
		return { ctx, posts, lines };
	}

	it("n8n's 409 (the execution still runs) is reached; waits beginning together share one probe", async () => {
		const clock = new FakeClock();
		const { ctx, posts, lines } = probingContext(async () => ({ statusCode: 409, body: { code: 409 } }));
		const url = 'https://n8n.example.com/webhook-waiting/1/video-wait';
		const verdicts = [1, 2, 3].map(() => ownAddressUnreachable(ctx, url, clock));
		await settle();
		expect([...verdicts, ownAddressUnreachable(ctx, url, clock)]).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(posts).toHaveLength(1);
		expect(lines).toEqual([]);
	});

	it('an unreachable address: the verdict for every wait after the probe until it is old, then one probe more', async () => {
		const clock = new FakeClock();
		const { ctx, posts, lines } = probingContext(async () => {
			throw coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT');
		});
		const url = (id: number) => `https://n8n.example.com/webhook-waiting/${id}/video-wait`;
		// The first wait does not wait for the probe: it knows nothing yet.
		expect(ownAddressUnreachable(ctx, url(1), clock)).toBeUndefined();
		await settle();
		expect(ownAddressUnreachable(ctx, url(2), clock)?.cause).toBe('certificate');
		clock.time += VERDICT_FRESH_MS - 1;
		expect(ownAddressUnreachable(ctx, url(3), clock)?.cause).toBe('certificate');
		expect(posts).toHaveLength(1);
		clock.time += 1;
		expect(ownAddressUnreachable(ctx, url(4), clock)).toBeUndefined();
		await settle();
		expect(ownAddressUnreachable(ctx, url(5), clock)?.cause).toBe('certificate');
		expect(posts).toHaveLength(2);
		// Logged once for the process.
		expect(lines.filter(([level]) => level === 'warn')).toHaveLength(1);
	});
});

describe("ownAddressUnreachable: only a cause of the set-up turns the package's own news off", () => {
	beforeEach(() => forgetReachability());

	function answering(answer: () => Promise<unknown>) {
		const { lines, logger } = fakeLogger();
		const posts: string[] = [];
		const ctx = {
			logger,
			helpers: {
				httpRequest: async (options: { url: string }) => {
					posts.push(options.url);
					return await answer();
				},
			},
		} as unknown as IExecuteFunctions;
		return { ctx, posts, lines };
	}
	const answer = (statusCode: number, body: unknown) => async () => ({ statusCode, body, headers: {} });
	const failure = (error: Error) => async () => await Promise.reject(error);

	// [what the probe met, the verdict the next wait gets, probes by then (2: no verdict, probed again), warnings]
	it.each<[string, () => Promise<unknown>, UnreachableCause | undefined, number, number]>([
		[
			"n8n's 409 (the execution still runs)",
			answer(409, { code: 409, message: 'The execution "1" is running already.' }),
			undefined,
			1,
			0,
		],
		[
			"n8n's own 503 (its database busy)",
			answer(503, { code: 503, message: 'Database is not ready!' }),
			undefined,
			1,
			0,
		],
		[
			"a proxy's 502 (n8n behind it not answering)",
			answer(502, '<html><body>502 Bad Gateway</body></html>'),
			undefined,
			2,
			0,
		],
		["a proxy's 504", answer(504, 'upstream request timeout'), undefined, 2, 0],
		[
			'a certificate',
			failure(coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')),
			'certificate',
			1,
			1,
		],
		['a name', failure(coded('getaddrinfo ENOTFOUND n8n.example.com', 'ENOTFOUND')), 'name', 1, 1],
		[
			'nothing listening',
			failure(coded('connect ECONNREFUSED 127.0.0.1:443', 'ECONNREFUSED')),
			'refused',
			1,
			1,
		],
		[
			"n8n's SSRF rules",
			failure(Object.assign(new Error('restricted IP address'), { name: 'SsrfBlockedIpError' })),
			'ssrf',
			1,
			1,
		],
		[
			'no answer in time (n8n busy)',
			failure(coded('timeout of 10000ms exceeded', 'ECONNABORTED')),
			undefined,
			2,
			0,
		],
		['a connection that broke', failure(new Error('socket hang up')), undefined, 2, 0],
	])('%s', async (_what, probeMeets, cause, probes, warnings) => {
		const clock = new FakeClock();
		const { ctx, posts, lines } = answering(probeMeets);
		const url = (id: number) => `https://n8n.example.com/webhook-waiting/${id}/video-wait`;
		void ownAddressUnreachable(ctx, url(1), clock);
		await settle();
		clock.time += 1_000;
		expect((await ownAddressUnreachable(ctx, url(2), clock))?.cause).toBe(cause);
		await settle();
		expect(posts).toHaveLength(probes);
		expect(lines.filter(([level]) => level === 'warn')).toHaveLength(warnings);
	});

	it('never delays the wait: a probe n8n does not answer leaves the wait without a verdict at once', async () => {
		const { ctx, posts } = answering(async () => await new Promise(() => undefined));
		const first = Promise.resolve(
			ownAddressUnreachable(ctx, 'https://n8n.example.com/webhook-waiting/1/video-wait'),
		);
		const outcome = await Promise.race([first.then(() => 'answered'), settle().then(() => 'held')]);
		expect(outcome).toBe('answered');
		expect(await first).toBeUndefined();
		expect(posts).toHaveLength(1);
	});
});

describe("isOwnWebhookAddress: the package posts only under this n8n's webhook URL", () => {
	const ctxAt = (restApiUrl: string) => ({ getRestApiUrl: () => restApiUrl }) as unknown as IExecuteFunctions;
	it.each<[string, string, boolean]>([
		['https://n8n.example.com/rest', 'https://n8n.example.com/webhook/abc/video-task?secret=s', true],
		['https://n8n.example.com/rest/', 'https://n8n.example.com/webhook/abc/video-task?secret=s', true],
		['https://example.com/n8n/rest', 'https://example.com/n8n/webhook/abc/video-task?secret=s', true],
		['https://example.com/n8n/rest', 'https://example.com/other/webhook/abc/video-task?secret=s', false],
		[
			'https://n8n.example.com/rest',
			'https://evil.example/n8n.example.com/webhook/abc/video-task?secret=s',
			false,
		],
		['https://n8n.example.com/rest', 'https://n8n.example.com:8443/webhook/abc/video-task?secret=s', false],
		['https://n8n.example.com/rest', 'http://n8n.example.com/webhook/abc/video-task?secret=s', false],
		['not a url', 'https://n8n.example.com/webhook/abc/video-task?secret=s', false],
	])('n8n at %s, address %s: %s', (rest, url, own) => {
		expect(isOwnWebhookAddress(ctxAt(rest), url)).toBe(own);
	});
});
