/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * A body with files (base64Payload.ts) through the shared transport: n8n's
 * HTTP helper gets a fresh Node Readable for every send, with the exact
 * Content-Length, and every send carries the whole body (a create retried
 * after a 429 or a refused connection, a 307/308 within the origin). A send
 * that ends without reading its body closes it, letting its files go. The
 * fake helper reads the body as n8n's client (axios) does: it pipes it.
 */
import { Readable } from 'node:stream';

import type { IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import type { PayloadFile } from '../../../nodes/shared/binary';
import { Base64Payload } from '../../../nodes/shared/base64Payload';
import type { GatewayRequest } from '../../../nodes/shared/transport';
import { gatewayRequest } from '../../../nodes/shared/transport';
import { bytesFrom } from '../../harness/bytes';
import { FakeClock } from './fakeClock';

const node = { name: 'Gateway', type: 'generationGateway' } as INode;

/** What one send does with the body it got, and what it answers. */
type Attempt = {
	read?: boolean;
	status?: number;
	headers?: Record<string, string>;
	error?: unknown;
	/** The answer is a stream left open (a streamed answer still being read). */
	streamedAnswer?: boolean;
};

interface Sent {
	options: IHttpRequestOptions;
	body?: Buffer;
	stream: Readable;
}

function fakeContext(attempts: Attempt[]) {
	const sent: Sent[] = [];
	const answers: Readable[] = [];
	const ctx = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: 'https://gateway.test' }),
		helpers: {
			async httpRequestWithAuthentication(_credential: string, options: IHttpRequestOptions) {
				const attempt = attempts[sent.length];
				const stream = options.body as unknown as Readable;
				const record: Sent = { options, stream };
				sent.push(record);
				if (attempt.read !== false) {
					const pieces: Buffer[] = [];
					for await (const piece of stream) pieces.push(piece as Buffer);
					record.body = Buffer.concat(pieces);
				}
				if (attempt.error) throw attempt.error;
				let body: unknown = {};
				if (attempt.streamedAnswer) {
					const answer = new Readable({ read() {} });
					answers.push(answer);
					body = answer;
				}
				return { statusCode: attempt.status ?? 200, headers: attempt.headers ?? {}, body };
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, sent, answers };
}

const FILE = bytesFrom(70_001, (i) => i * 31);

/** A video create whose first frame is FILE, read in chunks like a store's stream; counts the reads. */
function frameRequest() {
	const reads = { opened: 0, finished: 0 };
	const file: PayloadFile = {
		size: FILE.length,
		async *chunks() {
			reads.opened++;
			try {
				for (let at = 0; at < FILE.length; at += 4096) yield Buffer.from(FILE.subarray(at, at + 4096));
			} finally {
				reads.finished++;
			}
		},
	};
	const payload = new Base64Payload();
	const body = {
		model: 'vidA-2.5',
		frame_images: [{ image_url: payload.embed(file, 'data:image/png;base64,') }],
	};
	const expected = Buffer.from(
		JSON.stringify({
			model: 'vidA-2.5',
			frame_images: [{ image_url: `data:image/png;base64,${FILE.toString('base64')}` }],
		}),
	);
	const request: GatewayRequest = {
		method: 'POST',
		path: '/v1/videos',
		body: payload.requestBody(body),
		kind: 'create',
		timeoutMs: 1000,
	};
	return { request, expected, reads };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
const tick = async () => await new Promise((resolve) => setImmediate(resolve));

describe('gatewayRequest: a body with files is streamed, whole, on every send', () => {
	it('is handed to n8n as a Readable with its exact length, typed as JSON, the bytes JSON.stringify wrote', async () => {
		const { request, expected, reads } = frameRequest();
		const { ctx, sent } = fakeContext([{}]);
		await gatewayRequest(ctx, request, new FakeClock());
		expect(sent).toHaveLength(1);
		expect(sent[0].stream).toBeInstanceOf(Readable);
		expect(sent[0].options.json).toBe(false);
		expect(sent[0].options.headers).toMatchObject({
			'Content-Type': 'application/json',
			'Content-Length': String(expected.length),
		});
		expect(sent[0].body!.equals(expected)).toBe(true);
		expect(reads).toEqual({ opened: 1, finished: 1 });
	});

	it.each([
		['a 429', { read: true, status: 429, headers: { 'retry-after': '1' } }],
		['a refused connection', { read: false, error: refused }],
	])('a create retried after %s sends the whole body again, read afresh', async (_case, first) => {
		const { request, expected, reads } = frameRequest();
		const { ctx, sent } = fakeContext([first, {}]);
		const result = await gatewayRequest(ctx, request, new FakeClock());
		expect(result.status).toBe(200);
		expect(sent).toHaveLength(2);
		expect(sent[0].stream).not.toBe(sent[1].stream);
		expect(sent[1].body!.equals(expected)).toBe(true);
		if (first.read) expect(sent[0].body!.equals(expected)).toBe(true);
		await tick();
		expect(sent[0].stream.destroyed).toBe(true);
		// The refused send never read its body: its file was never opened.
		expect(reads).toEqual(first.read ? { opened: 2, finished: 2 } : { opened: 1, finished: 1 });
	});

	it.each([307, 308])(
		'a %i within the origin sends the whole body again to the new address',
		async (status) => {
			const { request, expected, reads } = frameRequest();
			const { ctx, sent } = fakeContext([{ status, headers: { location: '/v2/videos' } }, {}]);
			const result = await gatewayRequest(ctx, request, new FakeClock());
			expect(result.status).toBe(200);
			expect(sent.map((s) => s.options.url)).toEqual(['/v1/videos', 'https://gateway.test/v2/videos']);
			expect(sent[0].body!.equals(expected)).toBe(true);
			expect(sent[1].body!.equals(expected)).toBe(true);
			expect(sent[1].options.headers).toMatchObject({ 'Content-Length': String(expected.length) });
			expect(reads).toEqual({ opened: 2, finished: 2 });
		},
	);

	it('a send that fails before reading its body closes it; a create that may have arrived is not sent again', async () => {
		const { request } = frameRequest();
		const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const { ctx, sent } = fakeContext([{ read: false, error: reset }]);
		await expect(gatewayRequest(ctx, request, new FakeClock())).rejects.toThrow();
		expect(sent).toHaveLength(1);
		await tick();
		expect(sent[0].stream.destroyed).toBe(true);
	});

	it('a streamed answer that came before the body was read: the body is closed once the answer is', async () => {
		const { request, reads } = frameRequest();
		const { ctx, sent, answers } = fakeContext([{ read: false, streamedAnswer: true }]);
		await gatewayRequest(ctx, { ...request, responseType: 'stream' }, new FakeClock());
		await tick();
		expect(sent[0].stream.destroyed).toBe(false);
		answers[0].destroy();
		await tick();
		expect(sent[0].stream.destroyed).toBe(true);
		expect(reads.opened).toBe(0);
	});
});
