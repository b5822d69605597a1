// The npm registry reachable here lacks the other platforms' builds of some
// optional native packages (e.g. @unrs/resolver-binding-darwin-x64), so npm
// leaves them out of package-lock.json and `npm ci` then refuses the lock as
// out of sync. This adds a lock entry (with its os/cpu, so npm skips it on
// this platform) for every optional dependency the lock names but lacks.
// Run after any `npm install`: node scripts/lock-optional-stubs.js [path/to/package-lock.json]
// (default: the package's own lock; the e2e suite's locks are e2e/package-lock.json and
// e2e/n8n/package-lock.json).
const fs = require('fs');
const path = require('path');

const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'package-lock.json'));
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const platform = (name) => {
	const parts = name.split('/').pop().split('-');
	const os = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony', 'sunos', 'netbsd', 'openbsd', 'aix'].find((o) => parts.includes(o));
	const cpu = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'].find((c) => parts.includes(c));
	return { os, cpu };
};
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
	for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const base = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
		const hoisted = `node_modules/${dep}`;
		if (lock.packages[base] || lock.packages[hoisted]) continue;
		const { os, cpu } = platform(dep);
		if (!os || !cpu) continue;
		lock.packages[hoisted] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, os: [os], cpu: [cpu] };
		added++;
	}
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`lock-optional-stubs: added ${added} entr${added === 1 ? 'y' : 'ies'}\n`);
