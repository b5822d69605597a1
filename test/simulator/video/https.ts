/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A local https listener with the checked-in, test-only self-signed
 * certificate (test-cert.pem / test-key.pem, CN=localhost, 127.0.0.1): the
 * stand-in for an n8n instance reachable over https, which the simulator's
 * callbacks require, and whose certificate n8n in this process trusts. Each
 * request's JSON body and query go to `onRequest`.
 */
export interface HttpsReceiver {
	url: string;
	/** TLS connections accepted so far (a caller that keeps its connections opens fewer than its requests). */
	readonly connections: number;
	stop(): Promise<void>;
}

export type ReceivedRequest = {
	path: string;
	query: Record<string, string>;
	body: unknown;
	method?: string;
	headers?: Record<string, string | string[] | undefined>;
};

let trusted = false;

/**
 * This process's TLS clients (n8n's among them) trust the test certificate from
 * now on, as a real n8n trusts its own public certificate: the package posts to
 * its own resume URL and trigger address.
 */
function trustTestCertificate(): void {
	// Node 20 (the unit tests' floor) cannot: only the workflow tests, on Node 24, need it.
	if (trusted || typeof tls.setDefaultCACertificates !== 'function') return;
	trusted = true;
	const cert = readFileSync(join(__dirname, 'test-cert.pem'), 'utf8');
	tls.setDefaultCACertificates([...tls.getCACertificates('default'), cert]);
}

/**
 * `untrusted`: a second self-signed certificate nobody in the process trusts,
 * for a server n8n must refuse.
 */
export async function startHttpsReceiver(
	onRequest: (
		request: ReceivedRequest,
	) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>,
	{ untrusted = false }: { untrusted?: boolean } = {},
): Promise<HttpsReceiver> {
	trustTestCertificate();
	const name = untrusted ? 'untrusted' : 'test';
	const server: Server = createServer(
		{
			key: readFileSync(join(__dirname, `${name}-key.pem`)),
			cert: readFileSync(join(__dirname, `${name}-cert.pem`)),
		},
		(req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const url = new URL(req.url ?? '/', 'https://127.0.0.1');
				let body: unknown;
				try {
					body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
				} catch {
					body = undefined;
				}
				onRequest({
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					body,
					method: req.method,
					headers: req.headers,
				}).then(
					(answer) => {
						res.writeHead(answer.status, { ...answer.headers, 'Content-Type': 'application/json' });
						res.end(JSON.stringify(answer.body ?? {}));
					},
					(error: Error) => {
						res.writeHead(500, { 'Content-Type': 'application/json' });
						res.end(JSON.stringify({ error: error.message }));
					},
				);
			});
		},
	);
	let connections = 0;
	server.on('secureConnection', () => connections++);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		get connections() {
			return connections;
		},
		// Keep-alive connections of callers would outlive close() and hold the test worker open.
		stop: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
