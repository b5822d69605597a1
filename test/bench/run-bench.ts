/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * `npm run bench`: runs every scenario in test/bench/scenarios/ (or the ones
 * named on the command line) and prints its figures. Figures only: nothing
 * here asserts a time, because machines here are shared and noisy
 * (machines here are shared); change notes quote these numbers.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

type Scenario = { title?: string; run(): Promise<Record<string, string | number>> };

async function main() {
	const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
	const dir = join(__dirname, 'scenarios');
	const files = readdirSync(dir)
		.filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
		.sort()
		.filter((f) => !only.length || only.some((o) => f.includes(o)));
	let failed = 0;
	for (const file of files) {
		const scenario = (await import(join(dir, file))) as Scenario;
		const name = file.replace(/\.ts$/, '');
		process.stdout.write(`\n== ${name}${scenario.title ? `: ${scenario.title}` : ''}\n`);
		try {
			const figures = await scenario.run();
			for (const [key, value] of Object.entries(figures)) process.stdout.write(`  ${key}: ${value}\n`);
		} catch (error) {
			failed++;
			process.stdout.write(`  FAILED: ${(error as Error).stack ?? error}\n`);
		}
	}
	process.exitCode = failed ? 1 : 0;
}

void main();
