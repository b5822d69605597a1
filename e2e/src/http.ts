/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** A small HTTP(S) client for n8n's REST API; n8n's certificate is made at run time, so it is not verified. */
import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';

const insecure = new Agent({ rejectUnauthorized: false, keepAlive: false });

export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	text(): string;
	json<T = unknown>(): T;
}

export async function http(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
	const target = new URL(url);
	const payload =
		options.body === undefined
			? undefined
			: Buffer.isBuffer(options.body)
				? options.body
				: Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
	const headers: Record<string, string> = { ...(options.headers ?? {}) };
	if (payload) {
		headers['content-type'] ??= 'application/json';
		headers['content-length'] = String(payload.length);
	}
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	return await new Promise<Answer>((resolve, reject) => {
		const req = send(
			target,
			{
				method: options.method ?? 'GET',
				headers,
				agent: target.protocol === 'https:' ? insecure : undefined,
				timeout: options.timeoutMs ?? 60_000,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					const body = Buffer.concat(chunks);
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body,
						text: () => body.toString('utf8'),
						json: <T>() => JSON.parse(body.toString('utf8')) as T,
					});
				});
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`${options.method ?? 'GET'} ${url}: no answer in time`)));
		req.on('error', reject);
		req.end(payload);
	});
}

/** A call of n8n's REST API with a login cookie: its `data`; throws on a status >= 400 unless `allow` lists it. */
export async function restCall<T = unknown>(
	base: string,
	cookie: string,
	request: { method: string; path: string; body?: unknown; allow?: number[]; timeoutMs?: number },
): Promise<T> {
	const { method, path } = request;
	const answer = await http(`${base}/rest${path}`, {
		method,
		body: request.body,
		headers: cookie ? { cookie } : {},
		timeoutMs: request.timeoutMs ?? 60_000,
	});
	if (answer.status >= 400 && !(request.allow ?? []).includes(answer.status)) {
		throw new Error(`${method} /rest${path} -> ${answer.status}: ${answer.text().slice(0, 500)}`);
	}
	const text = answer.text();
	const parsed = (text ? JSON.parse(text) : {}) as { data?: T };
	return parsed.data ?? (parsed as T);
}

/** Sets up the owner account on n8n's first start, then signs in: the `n8n-auth` cookie. */
export async function signIn(base: string, owner: { email: string; password: string }): Promise<string> {
	const settings = await restCall<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(base, '', {
		method: 'GET',
		path: '/settings',
	});
	if (settings.userManagement?.showSetupOnFirstLoad !== false) {
		await restCall(base, '', { method: 'POST', path: '/owner/setup', body: owner, allow: [400] });
	}
	const answer = await http(`${base}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: owner.email, password: owner.password },
	});
	if (answer.status !== 200)
		throw new Error(`sign-in failed: ${answer.status} ${answer.text().slice(0, 300)}`);
	const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
	const auth = cookies.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
	if (!auth) throw new Error('sign-in gave no n8n-auth cookie');
	return auth;
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
	const { createServer } = await import('node:net');
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}
