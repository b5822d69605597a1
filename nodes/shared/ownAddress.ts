import type { IDataObject, IExecuteFunctions, Logger } from 'n8n-workflow';

import { BoundedMap } from './boundedMap';
import { isCertificateError, networkCodeOf } from './errors';
import type { Clock } from './time';
import { systemClock } from './time';
import { originOf, printableUrl } from './urls';
import { PROBE_TIMEOUT_MS, VERDICT_FRESH_MS } from './waitClocks';

/**
 * Whether this n8n process can reach n8n's own public address, where the
 * package posts the news of finished tasks (shared/watch.ts) when a callback
 * did not get through. A process that cannot (its Node does not trust the
 * certificate, the name does not resolve inside its container, nothing
 * listens there, n8n's SSRF rules) loses that backstop without a word unless
 * someone says so: n8n's log says why once per cause and process, at warning
 * level, and a wait that begins once it is known says it on the node. A
 * timeout, a broken connection or a proxy's 5xx says nothing certain of it.
 */

export type UnreachableCause = 'certificate' | 'name' | 'refused' | 'ssrf' | 'timeout' | 'other';

export interface Unreachable {
	cause: UnreachableCause;
	/** What happened, in words. */
	said: string;
	/** What to set. */
	fix: string;
}

const FIX: Record<UnreachableCause, string> = {
	certificate:
		"give n8n's Node the certificate authority of that address (NODE_EXTRA_CA_CERTS=/path/to/ca.pem for every n8n process) or serve it with a certificate Node trusts",
	name: "make that host name resolve inside every n8n process's machine or container (a DNS entry, /etc/hosts, docker compose extra_hosts)",
	refused:
		'open that address to n8n itself: from inside every n8n process, the host and port of N8N_WEBHOOK_URL (WEBHOOK_URL) must reach the proxy or n8n',
	ssrf: "allow n8n's own host in n8n's SSRF rules (N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES)",
	timeout:
		'check that a request from inside every n8n process to that address is answered (a firewall that drops it, or n8n too busy to answer)',
	other: 'check that a request from inside every n8n process to that address is answered',
};

/** What an error of a post to n8n's own address (no HTTP answer) says of the set-up. */
export function unreachableCause(error: unknown): Unreachable {
	const code = networkCodeOf(error);
	const message = error instanceof Error ? error.message : String(error);
	const name = (error as { name?: unknown } | undefined)?.name;
	let cause: UnreachableCause = 'other';
	if (isCertificateError(code)) cause = 'certificate';
	else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') cause = 'name';
	else if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') cause = 'refused';
	else if (
		(typeof name === 'string' && /^Ssrf/.test(name)) ||
		/SSRF|restricted IP|blocked hostname/i.test(message)
	)
		cause = 'ssrf';
	else if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || /timeout/i.test(message)) cause = 'timeout';
	return { cause, said: code ? `${message} (${code})` : message, fix: FIX[cause] };
}

/** The causes that turn the package's own news off: the set-up's, not n8n's load. */
const SETUP_CAUSES: ReadonlySet<UnreachableCause> = new Set(['certificate', 'name', 'refused', 'ssrf']);
/** What a proxy answers when n8n behind it does not; n8n's own answers carry a JSON body. */
const PROXY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

export interface PostAnswer {
	/** 0: no answer (refused connection, no answer within the post's timeout). */
	status: number;
	body: unknown;
	/** Why there was no answer. */
	unreachable?: Unreachable;
}

/** Posts `body` to an address of this n8n, as the gateway's callback would: no credential. */
export async function postToOwnAddress(
	ctx: IExecuteFunctions,
	url: string,
	body: IDataObject,
	timeoutMs: number,
): Promise<PostAnswer> {
	try {
		const response = (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			timeout: timeoutMs,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		})) as { statusCode?: number; body?: unknown };
		return { status: Number(response.statusCode ?? 0), body: response.body };
	} catch (error) {
		return { status: 0, body: undefined, unreachable: unreachableCause(error) };
	}
}

/** What an answer says of the set-up: reached (`{}`), out of reach, or nothing certain (undefined). */
export function reachabilityOf(answer: PostAnswer): { unreachable?: Unreachable } | undefined {
	const { status, body, unreachable } = answer;
	if (status === 0) return unreachable && SETUP_CAUSES.has(unreachable.cause) ? { unreachable } : undefined;
	const fromN8n = typeof body === 'object' && body !== null;
	return PROXY_STATUSES.has(status) && !fromN8n ? undefined : {};
}

/** Causes this process has logged, by cause: each once. */
const warned = new Set<UnreachableCause>();
/** The last verdict on each origin this process posted to, for the next wait's hint. */
const lastVerdict = new BoundedMap<string, { at: number; unreachable?: Unreachable }>(64);

/** The line n8n's log gets, once per cause and process. */
export function unreachableLine(url: string, unreachable: Unreachable): string {
	return `Generation Gateway: this n8n process cannot reach n8n's own address ${printableUrl(url)}: ${unreachable.said}. The package's own news of finished video tasks (posted when a callback does not get through) is off from this process until this is fixed: ${unreachable.fix}.`;
}

/** Records what a post to `url` showed, if anything; warns in n8n's log the first time a cause is seen in this process. */
export function noteReachability(logger: Logger, url: string, answer: PostAnswer, now: number): void {
	const verdict = reachabilityOf(answer);
	if (!verdict) return;
	const { unreachable } = verdict;
	lastVerdict.set(originOf(url) ?? url, { at: now, unreachable });
	if (!unreachable || warned.has(unreachable.cause)) return;
	warned.add(unreachable.cause);
	logger.warn(unreachableLine(url, unreachable));
}

/** Probes under way, by origin: waits beginning together share one. */
const probes = new Map<string, Promise<void>>();

/**
 * Whether `url` (an address of this n8n) is out of this process's reach, as
 * far as it knows now: the last fresh verdict, else none, while one probe (a
 * POST of `{}`, shared by waits beginning together) runs in the background
 * for the waits after. Nothing here waits: a wait must not be put to wait late.
 */
export function ownAddressUnreachable(
	ctx: IExecuteFunctions,
	url: string,
	clock: Clock = systemClock,
): Unreachable | undefined {
	const origin = originOf(url) ?? url;
	const known = lastVerdict.get(origin);
	if (known && clock.now() - known.at < VERDICT_FRESH_MS) return known.unreachable;
	if (!probes.has(origin)) {
		const probe = postToOwnAddress(ctx, url, {}, PROBE_TIMEOUT_MS)
			.then((answer) => noteReachability(ctx.logger, url, answer, clock.now()))
			.catch(() => undefined)
			.finally(() => probes.delete(origin));
		probes.set(origin, probe);
	}
	return undefined;
}

/**
 * Whether `url` is an address of this n8n: under its webhook base URL (the
 * REST API's address without its last segment: n8n builds both from
 * N8N_WEBHOOK_URL / WEBHOOK_URL). The package posts nothing anywhere else.
 */
export function isOwnWebhookAddress(ctx: IExecuteFunctions, url: string): boolean {
	let base: URL;
	let address: URL;
	try {
		base = new URL('.', ctx.getRestApiUrl().replace(/\/+$/, ''));
		address = new URL(url);
	} catch {
		return false;
	}
	return address.origin === base.origin && address.pathname.startsWith(base.pathname);
}

/** Forgets every verdict and warning (tests). */
export function forgetReachability(): void {
	warned.clear();
	lastVerdict.clear();
	probes.clear();
}
