/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESOURCES } from '../../../nodes/GenerationGateway/actions/resources';
import { VIDEO_CALLBACK_ID, VIDEO_CALLBACK_STATUS } from '../../../nodes/shared/videoTask';

/**
 * The modules and the manual agree: every wire name kept in a resource's
 * `actions/<resource>/wireNames.ts` (and the callback names the trigger shares,
 * in `nodes/shared/videoTask.ts`) appears in the manual's page docs/assumed-field-names.md.
 */
const root = join(__dirname, '..', '..', '..');
const page = readFileSync(join(root, 'docs', 'assumed-field-names.md'), 'utf8');
const actions = join(root, 'nodes', 'GenerationGateway', 'actions');
const wireModules = RESOURCES.map((r) => join(actions, r.value, 'wireNames.ts')).filter((f) => existsSync(f));
const assumedNames: Record<string, unknown> = {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	...Object.assign({}, ...wireModules.map((file) => require(file))),
	VIDEO_CALLBACK_ID,
	VIDEO_CALLBACK_STATUS,
};
const start = page.indexOf('# Assumed field names');
const section = page.slice(start);

function wireNames(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(wireNames);
	if (value && typeof value === 'object') return Object.values(value).flatMap(wireNames);
	return []; // functions build values from names listed elsewhere
}

const names = Object.entries(assumedNames).flatMap(([exported, value]) =>
	wireNames(value).map((name) => [exported, name] as const),
);

describe('the manual lists every assumed wire name', () => {
	it('finds the section and every resource folder with wire names', () => {
		expect(start).toBe(0);
		expect(wireModules.length).toBe(6);
		expect(names.length).toBeGreaterThan(40);
	});

	it.each(names)('%s: %s', (_exported, name) => {
		// A dotted path may be listed by its last member under its parent's row.
		const listed = section.includes(name) || section.includes(name.split('.').pop()!);
		expect(listed).toBe(true);
	});
});
