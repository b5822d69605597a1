/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P7: zero runtime dependencies; the packed size; the time to load every
 * node and credential module the package declares (each in a fresh Node
 * process, so nothing is already cached).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const title = 'package: runtime dependencies, packed size, module load time';

const root = join(__dirname, '..', '..', '..');

export async function run(): Promise<Record<string, string | number>> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the checkout's package.json, read as n8n reads it
	const pkg = require(join(root, 'package.json')) as {
		dependencies?: Record<string, string>;
		n8n: { nodes: string[]; credentials: string[] };
	};
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const modules = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	const script = `
		const { performance } = require('node:perf_hooks');
		const t0 = performance.now();
		require('n8n-workflow');
		const start = performance.now();
		for (const file of ${JSON.stringify(modules.map((m) => join(root, m)))}) {
			const exported = require(file);
			for (const Class of Object.values(exported)) new Class();
		}
		process.stdout.write(JSON.stringify([start - t0, performance.now() - start]));
	`;
	const runs = Array.from(
		{ length: 5 },
		() =>
			JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })) as number[],
	);
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[2];
	return {
		'runtime dependencies': Object.keys(pkg.dependencies ?? {}).length,
		'packed size (kB)': (packed[0].size / 1024).toFixed(1),
		'unpacked size (kB)': (packed[0].unpackedSize / 1024).toFixed(1),
		files: packed[0].entryCount,
		'modules loaded': modules.length,
		'require n8n-workflow (peer, loaded by n8n anyway), median of 5 fresh processes (ms)': median(
			runs.map((r) => r[0]),
		).toFixed(1),
		'then load + instantiate every node and credential module (ms)': median(runs.map((r) => r[1])).toFixed(1),
	};
}
