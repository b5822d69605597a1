/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Bench P16 (p16.ts): the server its workflows post to, which counts what reached a workflow. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the workflows tell the bench: resume URLs of waiting Wait nodes, task ids that reached the end. */
export async function startCollector() {
	const resumeUrls: string[] = [];
	const seen = new Map<string, number>();
	const firstSeenAt = new Map<string, number>();
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
			if (req.url === '/resume') resumeUrls.push(body.url);
			else {
				seen.set(body.id, (seen.get(body.id) ?? 0) + 1);
				if (!firstSeenAt.has(body.id)) firstSeenAt.set(body.id, Date.now());
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		resumeUrls,
		seen,
		firstSeenAt,
		reset: () => {
			resumeUrls.length = 0;
			seen.clear();
			firstSeenAt.clear();
		},
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export type Collector = Awaited<ReturnType<typeof startCollector>>;
