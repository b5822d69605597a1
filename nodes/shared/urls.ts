/**
 * Addresses as the package shows and compares them. A URL's query string may
 * hold a pre-signed token and is never printed; a credential goes only to the
 * origin (scheme, host and port) of the credential's Base URL.
 */

/** A URL as it may appear in a message: without its query string and fragment. */
export function printableUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
	} catch {
		return url.length > 80 ? `${url.slice(0, 80)}…` : url;
	}
}

/** The origin of an absolute URL (`https://host:port`), or undefined when it is not one. */
export function originOf(url: string): string | undefined {
	try {
		const { origin } = new URL(url);
		return origin === 'null' ? undefined : origin;
	} catch {
		return undefined;
	}
}

/** True for a host name that stays on this machine (plain http is then no risk to a secret). */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}

/** HTTP statuses that redirect to the address in their Location header. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
