import type {
	DisplayCondition,
	IDisplayOptions,
	INodeListSearchItems,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	NodeParameterValue,
} from 'n8n-workflow';

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

/**
 * How the form recognises a dated snapshot without a regular expression (n8n
 * runs every `regex` display condition in a sandbox with a watchdog, on every
 * parameter resolution): the ID starts with `<model>-20`. `startsWith` alone on
 * `<model>-` would take `vidB-1.5` for a snapshot of `vidB`.
 */
const SNAPSHOT_PREFIX = '-20';

/** The model a form condition is evaluated with when an ID is not catalogued: matches no condition. */
export const UNCATALOGUED_MODEL = 'uncatalogued model';

type ModelCondition = NodeParameterValue | DisplayCondition;

export interface DisplayForOptions {
	/** Also show the field for IDs the catalog does not know (the generic path). */
	unknown?: boolean;
	/** Further `show` conditions on other parameters (e.g. `{ stream: [true] }`). */
	show?: Record<string, NodeParameterValue[]>;
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
	 * The displayOptions that show a field for the models `audience` selects,
	 * their aliases and dated snapshots (typed IDs too), and with `unknown` for
	 * every ID the catalog does not know. Plain conditions only (values and
	 * `startsWith`): with `unknown` the field is hidden for the catalogued
	 * models outside the audience (and an empty ID) instead.
	 */
	displayFor(audience: (model: M) => boolean, options?: DisplayForOptions): IDisplayOptions;
	/** The model ID the form's conditions see for an ID: its catalogued model, else UNCATALOGUED_MODEL. */
	formModelId(modelId: string): string;
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
	const resolve = (modelId: string) => {
		const id = modelId.trim();
		return byId.get(id) ?? (SNAPSHOT_SUFFIX.test(id) ? byId.get(id.replace(SNAPSHOT_SUFFIX, '')) : undefined);
	};
	/** Each ID and alias of the models, exactly and as a dated snapshot. */
	const conditionsFor = (selected: readonly M[]): ModelCondition[] =>
		selected
			.flatMap((model) => [model.id, ...(model.aliases ?? [])])
			.flatMap((id) => [id, { _cnd: { startsWith: id + SNAPSHOT_PREFIX } }]);
	return {
		models,
		searchListMethod,
		resolve,
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
		displayFor(audience, options = {}) {
			const extra = options.show ?? {};
			if (!options.unknown) {
				return { show: { '/model': conditionsFor(models.filter(audience)), ...extra } };
			}
			const hidden: ModelCondition[] = ['', ...conditionsFor(models.filter((model) => !audience(model)))];
			return { ...(Object.keys(extra).length ? { show: extra } : {}), hide: { '/model': hidden } };
		},
		formModelId(modelId) {
			return resolve(modelId)?.id ?? UNCATALOGUED_MODEL;
		},
	};
}

/**
 * The form's model conditions, made safe for every supported n8n. Older n8n
 * (1.x, 2.0) evaluates a `startsWith` condition by calling the method on the
 * value, so a field whose condition reads `/model` throws when the node has
 * no model (Account → Get Balance, Video → Get), and n8n then fails the
 * node's parameter check before it runs. n8n checks a field's `show` keys in
 * order and stops at the first that does not match, so each option of a
 * collection whose condition reads `/model` first checks the collection's
 * own resource and operation: where those match, the node has a model.
 * Newer n8n shows the same fields either way (the collection is shown only
 * there).
 */
export function scopeModelConditions(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const scope = property.displayOptions?.show;
		const nested = property.options as Array<INodeProperties | INodePropertyCollection> | undefined;
		if (!scope || !Array.isArray(nested) || !['collection', 'fixedCollection'].includes(property.type)) {
			return property;
		}
		const gate: IDisplayOptions['show'] = {};
		for (const key of ['resource', 'operation'] as const) if (scope[key]) gate[`/${key}`] = scope[key];
		const scoped = (option: INodeProperties): INodeProperties => {
			const { show, hide } = option.displayOptions ?? {};
			const readsModel = [show, hide].some((conditions) => conditions && '/model' in conditions);
			if (!readsModel) return option;
			return { ...option, displayOptions: { ...option.displayOptions, show: { ...gate, ...show } } };
		};
		return {
			...property,
			options: nested.map((option) =>
				'values' in option ? { ...option, values: option.values.map(scoped) } : scoped(option),
			),
		};
	});
}
