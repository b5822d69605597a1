/** A URL's query may hold a pre-signed token: it is never printed. */
export function printableUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
	} catch {
		return url.length > 80 ? `${url.slice(0, 80)}…` : url;
	}
}

export function originOf(url: string): string | undefined {
	try {
		const { origin } = new URL(url);
		return origin === 'null' ? undefined : origin;
	} catch {
		return undefined;
	}
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
