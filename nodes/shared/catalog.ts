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
 * The model catalog engine: each resource's `catalog.ts` table drives the form, the
 * zod schema of the model's family and the request builder. Code asks the catalog,
 * never `model.includes(...)`.
 */

export interface CatalogModel {
	id: string;
	name: string;
	/** The request shape the model uses (image variant, video family, ...). */
	family: string;
	aliases?: readonly string[];
	description?: string;
}

/** `imagegen-2-2026-04-21` is a dated snapshot of `imagegen-2`. */
const SNAPSHOT_SUFFIX = /-\d{4}-\d{2}-\d{2}$/;

/**
 * The form's snapshot test without a `regex` condition (n8n sandboxes each one on
 * every resolution); `<model>-` alone would take `vidB-1.5` for a snapshot of `vidB`.
 */
const SNAPSHOT_PREFIX = '-20';

/** What the form's conditions see for an uncatalogued ID: matches none of them. */
export const UNCATALOGUED_MODEL = 'uncatalogued model';

type ModelCondition = NodeParameterValue | DisplayCondition;

export interface DisplayForOptions {
	/** Also show the field for IDs the catalog does not know. */
	unknown?: boolean;
	show?: Record<string, NodeParameterValue[]>;
}

export interface Catalog<M extends CatalogModel> {
	readonly models: readonly M[];
	/** The `methods.listSearch` entry of the form's "From List" mode. */
	readonly searchListMethod: string;
	/** An ID, its alias or a dated snapshot of it. */
	resolve(modelId: string): M | undefined;
	options(): INodePropertyOptions[];
	search(filter?: string): INodeListSearchItems[];
	/**
	 * Shows a field for the models `audience` selects, their aliases and snapshots;
	 * with `unknown`, hides it for the catalogued models outside the audience instead.
	 */
	displayFor(audience: (model: M) => boolean, options?: DisplayForOptions): IDisplayOptions;
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
	const listItem = (model: M) => ({ name: model.name, value: model.id, description: model.description });
	const conditionsFor = (selected: readonly M[]): ModelCondition[] =>
		selected
			.flatMap((model) => [model.id, ...(model.aliases ?? [])])
			.flatMap((id) => [id, { _cnd: { startsWith: id + SNAPSHOT_PREFIX } }]);
	return {
		models,
		searchListMethod,
		resolve,
		options() {
			return models.map(listItem);
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
				.map(listItem);
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
 * Older n8n evaluates `startsWith` by calling it on the value, so a condition on
 * `/model` throws where the node has no model (Account → Get Balance). n8n stops at
 * the first `show` key that fails, so such an option first checks its collection's
 * resource and operation, where a model exists.
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
