/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Result downloads (shared/download.ts), row by row: what the file host did
 * on each attempt -> the file stored, or the message, and how many requests
 * were made. A fake n8n context stands in for the HTTP helper and the binary
 * store (the workflow tests run the same paths over real HTTP in
 * video-paid-results.test.ts); bodies are real Node streams.
 */
import { Readable } from 'node:stream';

import type { IBinaryData, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DownloadContext } from '../../../nodes/shared/download';
import { DOWNLOAD_DEADLINE_FACTOR, downloadToBinary } from '../../../nodes/shared/download';
import { useVirtualTime } from '../../harness/virtual-time';

// Silence, the total deadline, back-off and the trickling hosts all on virtual time: no real waits.
useVirtualTime();

const node = { name: 'Gateway', type: 'generationGateway' } as INode;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

/** What the host does on one attempt. */
type Host =
	| { status: number; body?: Buffer; headers?: Record<string, string>; trickle?: number; stallAfter?: number }
	| { error: string; code?: string };

/** A body that sends `bytes` all at once, or `trickle` bytes every 20 ms, or stops after `stallAfter` bytes. */
function body(bytes: Buffer, trickle?: number, stallAfter?: number): Readable {
	let sent = 0;
	let timer: NodeJS.Timeout | undefined;
	return new Readable({
		read() {
			if (timer) return;
			if (!trickle && stallAfter === undefined) {
				this.push(bytes);
				this.push(null);
				return;
			}
			if (stallAfter !== undefined) {
				this.push(bytes.subarray(0, stallAfter));
				timer = setTimeout(() => undefined, 60_000); // silent, until closed
				return;
			}
			timer = setInterval(() => {
				this.push(bytes.subarray(sent, sent + trickle!));
				sent += trickle!;
				if (sent >= bytes.length) {
					clearInterval(timer);
					this.push(null);
				}
			}, 20);
		},
		destroy(error, callback) {
			clearInterval(timer);
			clearTimeout(timer);
			callback(error);
		},
	});
}

function fakeContext(hosts: Host[], cancel?: AbortController) {
	const sent: IHttpRequestOptions[] = [];
	const bodies: Readable[] = [];
	const ctx: DownloadContext = {
		getNode: () => node,
		getExecutionCancelSignal: () => cancel?.signal,
		helpers: {
			async httpRequest(options: IHttpRequestOptions) {
				sent.push(options);
				const host = hosts[Math.min(sent.length, hosts.length) - 1];
				if ('error' in host) throw Object.assign(new Error(host.error), { code: host.code });
				const stream = body(host.body ?? Buffer.alloc(0), host.trickle, host.stallAfter);
				bodies.push(stream);
				const length = host.body && !host.trickle ? { 'content-length': String(host.body.length) } : {};
				return { statusCode: host.status, headers: { ...length, ...host.headers }, body: stream };
			},
			// The store reads the stream to its end, as n8n's filesystem mode does.
			async prepareBinaryData(data: Buffer | Readable, fileName?: string, mimeType?: string) {
				const parts: Buffer[] = [];
				if (Buffer.isBuffer(data)) parts.push(data);
				else for await (const part of data) parts.push(part as Buffer);
				const bytes = Buffer.concat(parts);
				return { data: bytes.toString('base64'), bytes: bytes.length, fileName, mimeType } as IBinaryData;
			},
		} as unknown as DownloadContext['helpers'],
	};
	return { ctx, sent, bodies };
}

const request = (url = 'https://files.example/v/1.png?X-Signature=s3cr3t&Expires=1') => ({
	url,
	itemIndex: 2,
	what: 'the video of task video_1',
	advice: 'Run Video → Wait for Completion with task ID video_1.',
	silenceMs: 300,
	name: (head: Buffer, contentType?: string) => ({
		fileName: head[0] === 0x89 ? 'f.png' : 'f.bin',
		mimeType: contentType ?? 'application/octet-stream',
	}),
});

/** The download's result or error, the requests sent, the bodies given, and the virtual time it took. */
async function outcome(hosts: Host[], url?: string) {
	const { ctx, sent, bodies } = fakeContext(hosts);
	const started = Date.now();
	try {
		const result = await downloadToBinary(ctx, request(url));
		return { result, sent, bodies, elapsed: Date.now() - started };
	} catch (error) {
		return { error: error as NodeOperationError, sent, bodies, elapsed: Date.now() - started };
	}
}

const WHERE = 'Could not download the video of task video_1 from https://files.example/v/1.png?…';

describe('downloadToBinary: stored files', () => {
	it.each<[string, Host[], number]>([
		['a plain 200', [{ status: 200, body: PNG }], 1],
		['503, then 200', [{ status: 503 }, { status: 200, body: PNG }], 2],
		[
			'429 with Retry-After 0, then 200',
			[
				{ status: 429, headers: { 'retry-after': '0' } },
				{ status: 200, body: PNG },
			],
			2,
		],
		[
			'a reset connection, then 200',
			[
				{ error: 'read ECONNRESET', code: 'ECONNRESET' },
				{ status: 200, body: PNG },
			],
			2,
		],
		[
			'a body cut short of its Content-Length, then 200',
			[
				{ status: 200, body: PNG, headers: { 'content-length': '999' } },
				{ status: 200, body: PNG },
			],
			2,
		],
		[
			'a body that stalls past Request Timeout, then 200',
			[
				{ status: 200, body: PNG, stallAfter: 20 },
				{ status: 200, body: PNG },
			],
			2,
		],
	])('%s: the whole file, named from its first bytes (%#)', async (_name, hosts, requests) => {
		const { result, error, sent } = await outcome(hosts);
		expect(error).toBeUndefined();
		expect(Buffer.from(result!.binary.data, 'base64').equals(PNG)).toBe(true);
		expect(result!.binary.fileName).toBe('f.png');
		expect(result!.attempts).toBe(requests);
		expect(sent).toHaveLength(requests);
	});

	it('sends a plain GET with no credential, Request Timeout as silence and a signal to stop it', async () => {
		const { sent } = await outcome([
			{ status: 200, body: PNG, headers: { 'content-type': 'image/png; x=1' } },
		]);
		expect(sent[0]).toMatchObject({ method: 'GET', encoding: 'stream', timeout: 300 });
		expect(sent[0].headers).toBeUndefined();
		expect(sent[0].abortSignal).toBeDefined();
	});

	it('passes the Content-Type on without its parameters', async () => {
		const { result } = await outcome([
			{ status: 200, body: PNG, headers: { 'content-type': 'image/png; x=1' } },
		]);
		expect(result!.contentType).toBe('image/png');
		expect(result!.binary.mimeType).toBe('image/png');
	});
});

describe('downloadToBinary: failures name the file, the host without its query, the cause and what to do', () => {
	it.each<[string, Host[], RegExp, number]>([
		[
			'404: final at once',
			[{ status: 404, body: Buffer.from('no such key') }],
			/: the file host answered HTTP 404: no such key$/,
			1,
		],
		[
			'403 whose text echoes the signature: the signature is not printed',
			[{ status: 403, body: Buffer.from('bad signature s3cr3t for key v/1.png') }],
			/: the file host answered HTTP 403: bad signature … for key v\/1\.png$/,
			1,
		],
		['503 three times', [{ status: 503 }], /: the file host answered HTTP 503$/, 3],
		[
			'reset three times',
			[{ error: 'read ECONNRESET', code: 'ECONNRESET' }],
			/: the connection failed \(read ECONNRESET\)$/,
			3,
		],
		[
			'refused three times',
			[{ error: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' }],
			/: the connection failed \(connect ECONNREFUSED 127\.0\.0\.1:9\)$/,
			3,
		],
		[
			'a Retry-After longer than a minute',
			[{ status: 429, headers: { 'retry-after': '120' } }],
			/: the file host answered HTTP 429$/,
			1,
		],
		['an empty file', [{ status: 200, body: Buffer.alloc(0) }], /: the file host sent an empty file$/, 1],
		[
			'stalling every time',
			[{ status: 200, body: PNG, stallAfter: 20 }],
			/: nothing arrived for longer than Request Timeout \(0\.3 s\), after 20 bytes$/,
			3,
		],
	])('%s', async (_name, hosts, cause, requests) => {
		const { error, sent } = await outcome(hosts);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message.startsWith(`${WHERE}: `)).toBe(true);
		expect(error!.message).toMatch(cause);
		expect(`${error!.message} ${error!.description}`).not.toContain('s3cr3t');
		expect(error!.description).toContain('Run Video → Wait for Completion with task ID video_1.');
		if (requests > 1) expect(error!.description).toContain(`Tried ${requests} times.`);
		expect(error!.context.itemIndex).toBe(2);
		expect(sent).toHaveLength(requests);
	});

	it('a host trickling bytes is stopped at the total deadline, with how much had arrived; not retried', async () => {
		const big = Buffer.concat([PNG, Buffer.alloc(100_000)]);
		const { error, sent, bodies, elapsed } = await outcome([{ status: 200, body: big, trickle: 16 }]);
		expect(elapsed).toBe(300 * DOWNLOAD_DEADLINE_FACTOR);
		expect(error!.message).toMatch(
			new RegExp(
				`: it took longer than ${(300 * DOWNLOAD_DEADLINE_FACTOR) / 1000} s in all \\(${DOWNLOAD_DEADLINE_FACTOR} x Request Timeout\\), after \\d+ bytes$`,
			),
		);
		expect(sent).toHaveLength(1);
		expect(bodies[0].destroyed).toBe(true);
	});

	it('Stop while the file arrives ends the download at once, closing the body; not retried', async () => {
		const cancel = new AbortController();
		const big = Buffer.concat([PNG, Buffer.alloc(100_000)]);
		const { ctx, sent, bodies } = fakeContext([{ status: 200, body: big, trickle: 16 }], cancel);
		const started = Date.now();
		const running = downloadToBinary(ctx, { ...request(), silenceMs: 60_000 }).catch((e: unknown) => e);
		await new Promise((resolve) => setTimeout(resolve, 100));
		cancel.abort();
		const error = (await running) as NodeOperationError;
		expect(Date.now() - started).toBe(100);
		expect(error.message).toBe(`${WHERE}: the execution was stopped`);
		expect(sent).toHaveLength(1);
		expect(bodies[0].destroyed).toBe(true);
	});

	it.each(['file:///etc/passwd', 'ftp://files.example/v.mp4', 'data:video/mp4;base64,AAAA', 'not a url'])(
		'%s: only http(s) is fetched; nothing is requested',
		async (url) => {
			const { error, sent } = await outcome([{ status: 200, body: PNG }], url);
			expect(error!.message).toMatch(/: only http and https addresses are downloaded$/);
			expect(sent).toHaveLength(0);
		},
	);
});
