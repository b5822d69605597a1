/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The form's visibility table: for every resource with a model catalog, every
 * catalogued model (and alias), a dated snapshot of each, two IDs the catalogs
 * do not know and a model chosen by expression, which fields n8n's own
 * `NodeHelpers.displayParameter` shows. visibility.test.ts compares it with the
 * recorded table (visibility.table.json) and with the catalogs.
 *
 * Record the table again (only when the form is meant to change, and say why in
 * the commit):
 *   RECORD_VISIBILITY=1 npx jest test/unit/shared/visibility.test.ts
 */
import { join } from 'node:path';

import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { imageCatalog } from '../../../nodes/GenerationGateway/actions/image/catalog';
import { speechCatalog } from '../../../nodes/GenerationGateway/actions/speech/catalog';
import { videoCatalog } from '../../../nodes/GenerationGateway/actions/video/catalog';
import type { Catalog, CatalogModel } from '../../../nodes/shared/catalog';

export const TABLE_FILE = join(__dirname, 'visibility.table.json');

/** The date suffix of the snapshot rows. */
export const SNAPSHOT = '-2026-01-15';

export interface Scope {
	resource: string;
	operation: string;
	catalog: Catalog<CatalogModel>;
	/** Values set inside collections so that options shown only with them are evaluated too. */
	collectionValues: Record<string, INodeParameters>;
}

export const SCOPES: Scope[] = [
	{
		resource: 'image',
		operation: 'generate',
		catalog: imageCatalog as unknown as Catalog<CatalogModel>,
		collectionValues: { options: { stream: true, output_format: 'webp' } },
	},
	{
		resource: 'video',
		operation: 'create',
		catalog: videoCatalog as unknown as Catalog<CatalogModel>,
		collectionValues: {},
	},
	{
		resource: 'video',
		operation: 'createAndWait',
		catalog: videoCatalog as unknown as Catalog<CatalogModel>,
		collectionValues: {},
	},
	{
		resource: 'speech',
		operation: 'synthesize',
		catalog: speechCatalog as unknown as Catalog<CatalogModel>,
		collectionValues: {},
	},
];

/** The model IDs of one scope's rows: catalogued IDs and aliases, their snapshots, unknown IDs, an expression. */
export function modelRows(catalog: Catalog<CatalogModel>): string[] {
	const known = catalog.models.flatMap((m) => [m.id, ...(m.aliases ?? [])]);
	return [
		...known,
		...known.map((id) => id + SNAPSHOT),
		// Unknown: a gateway alias, and a catalogued ID with a non-date suffix.
		'acme/new-model',
		`${catalog.models[0].id}-preview`,
		'={{ $json.model }}',
	];
}

let cached: INodeTypeDescription | undefined;
const nodeDescription = () => (cached ??= new GenerationGateway().description);

/** One field as the table writes it: name, type, and the values of an options list. */
function describe(property: INodeProperties, prefix = ''): string {
	const values =
		property.type === 'options'
			? `[${(property.options as Array<{ value: unknown }>).map((o) => String(o.value)).join(',')}]`
			: '';
	return `${prefix}${property.name}:${property.type}${values}`;
}

/** The part of n8n-workflow that decides what the form shows (the installed one, or an older release). */
export type DisplayHelpers = Pick<typeof NodeHelpers, 'displayParameter'>;

/** The fields shown for a model in one scope (top level, then the options of each shown collection). */
export function shownFields(scope: Scope, model: string, helpers: DisplayHelpers = NodeHelpers): string[] {
	const root: INodeParameters = {
		resource: scope.resource,
		operation: scope.operation,
		model: { __rl: true, mode: 'id', value: model },
		...scope.collectionValues,
	};
	const description = nodeDescription();
	// As in the editor, a parameter not set yet holds its default (e.g. a frame's Source: Image URL).
	for (const property of description.properties) {
		if (!(property.name in root)) root[property.name] = property.default;
	}
	const shown: string[] = [];
	for (const property of description.properties) {
		if (['resource', 'operation', 'model'].includes(property.name)) continue;
		if (!helpers.displayParameter(root, property, null, description)) continue;
		shown.push(describe(property));
		if (property.type !== 'collection') continue;
		const inner = (root[property.name] ?? {}) as INodeParameters;
		for (const option of property.options as INodeProperties[]) {
			if (helpers.displayParameter(inner, option, null, description, root)) {
				shown.push(describe(option, `${property.name}.`));
			}
		}
	}
	return shown;
}

export type VisibilityTable = Record<string, Record<string, string[]>>;

export function visibilityTable(helpers: DisplayHelpers = NodeHelpers): VisibilityTable {
	const table: VisibilityTable = {};
	for (const scope of SCOPES) {
		const rows: Record<string, string[]> = {};
		for (const model of modelRows(scope.catalog)) rows[model] = shownFields(scope, model, helpers);
		table[`${scope.resource}/${scope.operation}`] = rows;
	}
	return table;
}
