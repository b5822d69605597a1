import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as assumedNames from '../../../nodes/shared/assumedNames';

/**
 * The module and the manual agree: every wire name kept in
 * nodes/shared/assumedNames/ appears in README.md's "Assumed field names".
 */
const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const start = readme.indexOf('## Assumed field names');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));

function wireNames(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(wireNames);
	if (value && typeof value === 'object') return Object.values(value).flatMap(wireNames);
	return []; // functions build values from names listed elsewhere
}

const names = Object.entries(assumedNames).flatMap(([exported, value]) =>
	wireNames(value).map((name) => [exported, name] as const),
);

describe('README lists every assumed wire name', () => {
	it('finds the section', () => {
		expect(start).toBeGreaterThan(0);
		expect(names.length).toBeGreaterThan(40);
	});

	it.each(names)('%s: %s', (_exported, name) => {
		// A dotted path may be listed by its last member under its parent's row.
		const listed = section.includes(name) || section.includes(name.split('.').pop()!);
		expect(listed).toBe(true);
	});
});
