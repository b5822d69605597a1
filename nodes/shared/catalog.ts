import type { DisplayCondition, INodeListSearchItems, INodePropertyOptions } from 'n8n-workflow';

/**
 * The model catalog engine: each resource with models keeps its table in
 * `actions/<resource>/catalog.ts`, built with defineCatalog, which
 * drives the form (which fields a model shows), validation (the zod schema
 * for the model's family) and the request builder. Code asks the catalog,
 * never `model.includes(...)`.
 */

export interface CatalogModel {
	/** The model ID as the gateway names it (the base model for snapshots). */
	id: string;
	/** Label in the model list. */
	name: string;
	/** The request shape the model uses (image variant, video family, ...). */
	family: string;
	/** Other IDs that behave exactly as this model (aliases). */
	aliases?: readonly string[];
	description?: string;
}

/** `imagegen-2-2026-04-21` is a dated snapshot of `imagegen-2`: a date suffix YYYY-MM-DD. */
const SNAPSHOT_SUFFIX = /-\d{4}-\d{2}-\d{2}$/;

function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface Catalog<M extends CatalogModel> {
	readonly models: readonly M[];
	/** The node's `methods.listSearch` entry that lists these models in the form's "From List" mode. */
	readonly searchListMethod: string;
	/** The catalogued model for an ID, its alias or a dated snapshot of it. */
	resolve(modelId: string): M | undefined;
	/** Options for the form's model list. */
	options(): INodePropertyOptions[];
	/** The model list of a resourceLocator's "From List" mode, filtered by what the user typed. */
	search(filter?: string): INodeListSearchItems[];
	/**
	 * A displayOptions condition matching every ID (with snapshots and aliases)
	 * of the models selected by `predicate`; works on typed IDs too.
	 */
	showFor(predicate: (model: M) => boolean): DisplayCondition[];
	/** Condition matching any ID that the catalog does not know (the generic path). */
	uncatalogued(): DisplayCondition[];
}

export function defineCatalog<M extends CatalogModel>(
	models: readonly M[],
	searchListMethod: string,
): Catalog<M> {
	const byId = new Map<string, M>();
	for (const model of models) {
		byId.set(model.id, model);
		for (const alias of model.aliases ?? []) byId.set(alias, model);
	}
	const idPattern = (ids: string[]) => `^(${ids.map(escapeRegex).join('|')})(-\\d{4}-\\d{2}-\\d{2})?$`;
	return {
		models,
		searchListMethod,
		resolve(modelId) {
			const id = modelId.trim();
			return (
				byId.get(id) ?? (SNAPSHOT_SUFFIX.test(id) ? byId.get(id.replace(SNAPSHOT_SUFFIX, '')) : undefined)
			);
		},
		options() {
			return models.map((model) => ({
				name: model.name,
				value: model.id,
				description: model.description,
			}));
		},
		search(filter) {
			const needle = (filter ?? '').trim().toLowerCase();
			return models
				.filter(
					(model) =>
						!needle ||
						[model.id, model.name, ...(model.aliases ?? [])].some((text) =>
							text.toLowerCase().includes(needle),
						),
				)
				.map((model) => ({ name: model.name, value: model.id, description: model.description }));
		},
		showFor(predicate) {
			const ids = models.filter(predicate).flatMap((model) => [model.id, ...(model.aliases ?? [])]);
			if (!ids.length) return [];
			return [{ _cnd: { regex: idPattern(ids) } }];
		},
		uncatalogued() {
			// Shown when the typed ID matches no catalogued model: the negative
			// lookahead keeps the rule in one place.
			const ids = models.flatMap((model) => [model.id, ...(model.aliases ?? [])]);
			return [{ _cnd: { regex: `^(?!${idPattern(ids).slice(1, -1)}$).+$` } }];
		},
	};
}
