import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The layout's one rule (CONTRIBUTING.md, Development): shared code and the trigger
 * import nothing from the action node's resource folders, so a resource can be
 * changed, added or removed in its own folder without touching them.
 */
const nodesDir = join(__dirname, '..', '..', '..', 'nodes');
const actionsDir = join(nodesDir, 'GenerationGateway');

function tsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? tsFiles(join(dir, entry.name))
			: entry.name.endsWith('.ts')
				? [join(dir, entry.name)]
				: [],
	);
}

function relativeImports(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	return [...source.matchAll(/from '(\.[^']*)'/g)].map((match) => resolve(join(file, '..'), match[1]));
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
