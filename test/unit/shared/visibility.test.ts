import { readFileSync, writeFileSync } from 'node:fs';

import type { VisibilityTable } from './visibility';
import { TABLE_FILE, visibilityTable } from './visibility';

/**
 * The form shows what it showed when the table was recorded: same fields, same
 * option lists, for every catalogued model, its dated snapshot, unknown IDs and
 * a model chosen by expression.
 */

const computed = visibilityTable();
if (process.env.RECORD_VISIBILITY) writeFileSync(TABLE_FILE, JSON.stringify(computed, null, '\t') + '\n');
const recorded = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as VisibilityTable;

describe('form visibility table (n8n displayParameter)', () => {
	it('covers the same scopes and models as the recorded table', () => {
		expect(Object.keys(computed)).toEqual(Object.keys(recorded));
		for (const scope of Object.keys(computed)) {
			expect(Object.keys(computed[scope])).toEqual(Object.keys(recorded[scope]));
		}
	});

	const rows = Object.entries(recorded).flatMap(([scope, models]) =>
		Object.entries(models).map(([model, fields]) => [scope, model, fields] as const),
	);
	it.each(rows)('%s with model %s shows the recorded fields', (scope, model, fields) => {
		expect(computed[scope]?.[model]).toEqual(fields);
	});
});
