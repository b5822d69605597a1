/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The TLS certificate the suite's n8n serves https with, made for each run. */
import { join } from 'node:path';

import { run } from './proc';

export interface Certificate {
	key: string;
	cert: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, and `names` (DNS names or IP addresses), made in `dir`. */
export function certificate(dir: string, names: string[] = []): Certificate {
	const key = join(dir, 'key.pem');
	const cert = join(dir, 'cert.pem');
	const alt = [
		'IP:127.0.0.1',
		'DNS:localhost',
		...names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)),
	];
	run('openssl', [
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'2',
		'-keyout',
		key,
		'-out',
		cert,
		'-subj',
		'/CN=127.0.0.1',
		'-addext',
		`subjectAltName=${alt.join(',')}`,
	]);
	return { key, cert };
}
