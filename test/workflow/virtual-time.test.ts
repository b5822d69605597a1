/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The contract of the workflow tests' virtual time (test/harness/virtual-time.ts): virtual time
 * passes only when everything waits for a timer, never while a connection opens, a TLS handshake
 * runs, a request or answer is on its way, an end of stream is on its way or a file is read; and
 * then it jumps to the next timer at once. Real sockets, real files; only the clock is virtual.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { useVirtualTime } from '../harness/virtual-time';
import { startHttpsReceiver } from '../simulator/video/https';

useVirtualTime();

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One request; resolves with the answer's status and body, or rejects with the connection's error. */
async function send(
	url: string,
	options: RequestOptions = {},
): Promise<{ status: number; body: string; endedAt: number }> {
	const target = new URL(url);
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	return await new Promise((resolve, reject) => {
		const req = send(
			target,
			{ agent: false, rejectUnauthorized: false, ...options },
			(res: IncomingMessage) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (body += chunk));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body, endedAt: Date.now() }));
			},
		);
		req.on('error', reject);
		req.end();
	});
}

/** A plain http server answering each request with `answer` (real sockets on loopback). */
async function httpServer(answer: (path: string) => Promise<{ status: number; body: string } | 'hang up'>) {
	const server = createServer((req, res) => {
		void answer(req.url ?? '/').then((result) => {
			if (result === 'hang up') req.socket.destroy();
			else res.writeHead(result.status).end(result.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		stop: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

describe('virtual time (test/harness/virtual-time.ts)', () => {
	it('an answer given after a 30 s pause comes 30 s later on the clock, at once', async () => {
		const server = await httpServer(async () => (await sleep(30_000), { status: 200, body: 'late' }));
		try {
			const sent = Date.now();
			const answer = await send(server.url);
			expect(answer).toMatchObject({ status: 200, body: 'late' });
			expect(answer.endedAt - sent).toBe(30_000);
		} finally {
			await server.stop();
		}
	});

	it('no time passes while a request and an 8 MB answer are on their way: a 1 ms timer fires after them', async () => {
		const body = 'x'.repeat(8 * 1024 * 1024);
		const order: string[] = [];
		const server = await httpServer(async () => (order.push('request'), { status: 200, body }));
		try {
			const sent = Date.now();
			const timer = sleep(1).then(() => order.push('timer'));
			const answer = await send(server.url);
			order.push('answer');
			await timer;
			expect(answer.body.length).toBe(body.length);
			expect(answer.endedAt).toBe(sent);
			expect(order).toEqual(['request', 'answer', 'timer']);
		} finally {
			await server.stop();
		}
	});

	it('over https: no time passes during the handshake and the request; a 7.5 s pause of the receiver is 7.5 s', async () => {
		const order: string[] = [];
		const receiver = await startHttpsReceiver(async () => {
			order.push('request');
			await sleep(7_500);
			return { status: 200, body: { ok: true } };
		});
		try {
			const sent = Date.now();
			void sleep(1).then(() => order.push('timer'));
			const answer = await send(`${receiver.url}/hook`, { method: 'POST' });
			expect(answer.status).toBe(200);
			expect(order).toEqual(['request', 'timer']);
			expect(answer.endedAt - sent).toBe(7_500);
		} finally {
			await receiver.stop();
		}
	});

	it('a connection the server breaks fails the request before a 1 ms timer fires', async () => {
		const order: string[] = [];
		const server = await httpServer(async () => 'hang up');
		try {
			void sleep(1).then(() => order.push('timer'));
			await expect(send(server.url)).rejects.toThrow(/socket hang up|ECONNRESET/);
			order.push('failed');
			await sleep(1);
			expect(order).toEqual(['failed', 'timer']);
		} finally {
			await server.stop();
		}
	});

	it('no time passes while a file is read', async () => {
		const order: string[] = [];
		const started = Date.now();
		void sleep(1).then(() => order.push('timer'));
		const read = await readFile(join(__dirname, '..', '..', 'package-lock.json'));
		order.push('read');
		expect(read.length).toBeGreaterThan(0);
		expect(Date.now()).toBe(started);
		await sleep(1);
		expect(order).toEqual(['read', 'timer']);
	});
});
