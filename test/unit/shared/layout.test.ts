/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The layout's one rule (CONTRIBUTING.md, Development): shared code and the trigger
 * import nothing from the action node's resource folders, so a resource can be
 * changed, added or removed in its own folder without touching them.
 */
const repoRoot = join(__dirname, '..', '..', '..');
const nodesDir = join(repoRoot, 'nodes');
const actionsDir = join(nodesDir, 'GenerationGateway');
const e2eDir = join(repoRoot, 'e2e');

/** The .ts files under `dir`, but for the folders named in `skip` (installed modules). */
function tsFiles(dir: string, skip: string[] = []): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? skip.includes(entry.name)
				? []
				: tsFiles(join(dir, entry.name), skip)
			: entry.name.endsWith('.ts')
				? [join(dir, entry.name)]
				: [],
	);
}

/** The files a file imports by a relative path: `from './x'` and the e2e suite's lazy `import('./x')`. */
function relativeImports(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	return [...source.matchAll(/(?:from |import\()'(\.[^']*)'/g)].map((match) =>
		resolve(join(file, '..'), match[1]),
	);
}

const outside = [
	...tsFiles(join(nodesDir, 'shared')),
	...tsFiles(join(nodesDir, 'GenerationGatewayTrigger')),
];

describe('layout', () => {
	it('finds the shared and trigger files', () => {
		expect(outside.length).toBeGreaterThan(10);
	});

	it.each(outside.map((file) => [relative(nodesDir, file), file]))(
		'%s imports nothing from the action node',
		(_name, file) => {
			const upward = relativeImports(file).filter((target) => target.startsWith(actionsDir + '/'));
			expect(upward.map((target) => relative(nodesDir, target))).toEqual([]);
		},
	);
});

/** The file a relative import names: `x.ts`, or `x/index.ts` for a folder. */
function importedFile(target: string): string | undefined {
	return [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** The package's import graph: each file and the files it imports. */
function importGraph(files: string[]): Map<string, string[]> {
	return new Map(
		files.map((file) => [
			file,
			relativeImports(file)
				.map(importedFile)
				.filter((target): target is string => target !== undefined),
		]),
	);
}

/**
 * Every import cycle of a graph, each as its files in order (type imports count: a cycle of
 * types still ties two files together, and a value import added later makes it a load-order
 * trap, where one module sees the other half-initialised).
 */
function importCycles(edges: Map<string, string[]>): string[][] {
	const cycles: string[][] = [];
	const done = new Set<string>();
	const visit = (file: string, path: string[]) => {
		const at = path.indexOf(file);
		if (at >= 0) {
			cycles.push(path.slice(at));
			return;
		}
		if (done.has(file)) return;
		for (const target of edges.get(file) ?? []) visit(target, [...path, file]);
		done.add(file);
	};
	for (const file of edges.keys()) visit(file, []);
	return cycles;
}

describe('imports', () => {
	const graph = importGraph(tsFiles(nodesDir));

	it('reads every import of the package', () => {
		expect(graph.size).toBeGreaterThan(40);
		expect(graph.get(join(nodesDir, 'shared', 'base64Payload.ts'))).toContain(
			join(nodesDir, 'shared', 'binary.ts'),
		);
		expect(graph.get(join(nodesDir, 'GenerationGateway', 'actions', 'router.ts'))).toContain(
			join(nodesDir, 'GenerationGateway', 'actions', 'resources.ts'),
		);
	});

	it('finds a cycle when there is one', () => {
		const edges = new Map([
			['a', ['b']],
			['b', ['c', 'd']],
			['c', ['a']],
			['d', []],
		]);
		expect(importCycles(edges)).toEqual([['a', 'b', 'c']]);
		expect(
			importCycles(
				new Map([
					['a', ['b']],
					['b', []],
				]),
			),
		).toEqual([]);
	});

	it('has no import cycle in nodes/', () => {
		const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(nodesDir, file)));
		expect(cycles).toEqual([]);
	});
});

describe('imports of the e2e suite, its benches and tools', () => {
	// e2e/node_modules holds the suite's tools, e2e/n8n/<version>/node_modules the n8n installs.
	const graph = importGraph(tsFiles(e2eDir, ['node_modules', 'n8n']));

	it('reads every import, lazy ones too', () => {
		expect(graph.size).toBeGreaterThan(15);
		expect(graph.get(join(e2eDir, 'src', 'main.ts'))).toContain(join(e2eDir, 'src', 'browser.ts'));
	});

	it('has no import cycle in e2e/', () => {
		const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(e2eDir, file)));
		expect(cycles).toEqual([]);
	});
});
