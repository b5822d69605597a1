import type { IExecuteFunctions, Logger } from 'n8n-workflow';

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
 * level, and a wait that begins while it lasts says it on the node.
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

/** Causes this process has logged, by cause: each once. */
const warned = new Set<UnreachableCause>();
/** The last verdict on each origin this process posted to, for the next wait's hint. */
const lastVerdict = new BoundedMap<string, { at: number; unreachable?: Unreachable }>(64);

/** The line n8n's log gets, once per cause and process. */
export function unreachableLine(url: string, unreachable: Unreachable): string {
	return `Generation Gateway: this n8n process cannot reach n8n's own address ${printableUrl(url)}: ${unreachable.said}. The package's own news of finished video tasks (posted when a callback does not get through) is off from this process until this is fixed: ${unreachable.fix}.`;
}

/** Records what a post to `url` showed; warns in n8n's log the first time a cause is seen in this process. */
export function noteReachability(
	logger: Logger,
	url: string,
	unreachable: Unreachable | undefined,
	now: number,
): void {
	const origin = originOf(url) ?? url;
	lastVerdict.set(origin, { at: now, unreachable });
	if (!unreachable || warned.has(unreachable.cause)) return;
	warned.add(unreachable.cause);
	logger.warn(unreachableLine(url, unreachable));
}

/** Probes under way, by origin: waits beginning together share one. */
const probes = new Map<string, Promise<Unreachable | undefined>>();

/**
 * Whether `url` (an address of this n8n) is out of this process's reach:
 * the last verdict if fresh, else one probe (a POST of `{}`, shared by waits
 * beginning together). Any HTTP answer counts as reached; n8n answers a
 * wait's address 409 while the execution runs, without running any node.
 */
export async function ownAddressUnreachable(
	ctx: IExecuteFunctions,
	url: string,
	clock: Clock = systemClock,
): Promise<Unreachable | undefined> {
	const origin = originOf(url) ?? url;
	const known = lastVerdict.get(origin);
	if (known && clock.now() - known.at < VERDICT_FRESH_MS) return known.unreachable;
	let probe = probes.get(origin);
	if (!probe) {
		probe = ctx.helpers
			.httpRequest({
				method: 'POST',
				url,
				body: {},
				json: true,
				timeout: PROBE_TIMEOUT_MS,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
			})
			.then(
				() => undefined,
				(error: unknown) => unreachableCause(error),
			)
			.then((unreachable) => {
				noteReachability(ctx.logger, url, unreachable, clock.now());
				return unreachable;
			})
			.finally(() => probes.delete(origin));
		probes.set(origin, probe);
	}
	return await probe;
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
