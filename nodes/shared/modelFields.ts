import type { IDataObject, IExecuteFunctions, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { Catalog, CatalogModel } from './catalog';
import { UNCATALOGUED_MODEL } from './catalog';
import { isUnset, refusal, shownValue } from './validation';

/**
 * The form as the model resolved for one item sees it: n8n shows every field when
 * the model comes from an expression, so each item re-evaluates the `model`
 * conditions with the catalog's model. A field that model does not accept is
 * refused when set away from its default, else read as not set.
 */

const MODEL_KEYS = ['model', '/model'];

interface Gated {
	property: INodeProperties;
	/** Its model conditions only; undefined: every model accepts it. */
	gate?: INodeProperties;
}

interface Plan {
	/** A name may have one definition per model group. */
	fields: Map<string, Gated[]>;
	collections: Map<string, Map<string, Gated[]>>;
}

const sameValue = (a: unknown, b: unknown) =>
	a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

function modelGate(property: INodeProperties): INodeProperties | undefined {
	const pick = (part?: IDataObject) => {
		const entries = Object.entries(part ?? {}).filter(([key]) => MODEL_KEYS.includes(key));
		return entries.length ? Object.fromEntries(entries) : undefined;
	};
	const show = pick(property.displayOptions?.show as IDataObject | undefined);
	const hide = pick(property.displayOptions?.hide as IDataObject | undefined);
	if (!show && !hide) return undefined;
	return { ...property, displayOptions: { show, hide } } as INodeProperties;
}

function byName(properties: INodeProperties[]): Map<string, Gated[]> {
	const map = new Map<string, Gated[]>();
	for (const property of properties) {
		if (property.type === 'notice' || property.name === 'model') continue;
		map.set(property.name, [...(map.get(property.name) ?? []), { property, gate: modelGate(property) }]);
	}
	return map;
}

const plans = new WeakMap<INodeProperties[], Plan>();

function planOf(properties: INodeProperties[]): Plan {
	let plan = plans.get(properties);
	if (!plan) {
		const collections = new Map<string, Map<string, Gated[]>>();
		for (const property of properties) {
			if (property.type !== 'collection') continue;
			const options = byName(property.options as INodeProperties[]);
			if ([...options.values()].flat().some((option) => option.gate)) collections.set(property.name, options);
		}
		plan = { fields: byName(properties), collections };
		plans.set(properties, plan);
	}
	return plan;
}

interface ModelFormSpec {
	properties: INodeProperties[];
	catalog: Pick<Catalog<CatalogModel>, 'formModelId'>;
	/** Fields the node reads itself and never sends (e.g. "Download URL Results"): never refused. */
	notSent?: readonly string[];
}

export interface ModelForm {
	value<T>(name: string, fallback: T): T;
	collection(name: string): IDataObject;
}

export function readModelForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	form: ModelFormSpec,
	modelId: string,
): ModelForm {
	const { properties, catalog, notSent = [] } = form;
	const plan = planOf(properties);
	const formModel = catalog.formModelId(modelId);
	const root: INodeParameters = { model: formModel };
	const accepts = (definitions: Gated[], values: INodeParameters) =>
		definitions.some(({ gate }) => !gate || NodeHelpers.displayParameter(values, gate, null, null, root));
	const atDefault = (definitions: Gated[], value: unknown) =>
		definitions.some(({ property }) => sameValue(property.default, value));
	const who = () => {
		const id = modelId.trim();
		if (formModel === UNCATALOGUED_MODEL) {
			return `the model "${id}" (not in this node's catalog, so only the generic fields apply)`;
		}
		return id === formModel ? `the model "${id}"` : `the model "${id}" (read as ${formModel})`;
	};
	const refuse = (definitions: Gated[], value: unknown): never => {
		throw refusal(
			ctx.getNode(),
			definitions[0].property.displayName,
			`${who()} does not accept this field, and it is set to ${shownValue(value)}. Leave it at its default or choose a model that accepts it.`,
			itemIndex,
		);
	};

	const saved = ctx.getNode().parameters;
	const dropped = new Set<string>();
	for (const [name, definitions] of plan.fields) {
		if (!definitions.some(({ gate }) => gate) || accepts(definitions, root)) continue;
		dropped.add(name);
		if (saved[name] === undefined || notSent.includes(name)) continue;
		const value = ctx.getNodeParameter(name, itemIndex) as unknown;
		if (!isUnset(value) && !atDefault(definitions, value)) refuse(definitions, value);
	}
	const collections = new Map<string, IDataObject>();
	for (const [name, options] of plan.collections) {
		if (dropped.has(name)) continue;
		const values = ctx.getNodeParameter(name, itemIndex, {}) as IDataObject;
		const kept: IDataObject = {};
		for (const [key, value] of Object.entries(values ?? {})) {
			if (isUnset(value)) continue;
			const definitions = options.get(key);
			if (!definitions || accepts(definitions, values as INodeParameters)) kept[key] = value;
			else if (!notSent.includes(key) && !atDefault(definitions, value)) refuse(definitions, value);
		}
		collections.set(name, kept);
	}

	return {
		value<T>(name: string, fallback: T): T {
			if (dropped.has(name)) return fallback;
			const value = ctx.getNodeParameter(name, itemIndex, fallback as never) as T;
			return isUnset(value) ? fallback : value;
		},
		collection(name: string): IDataObject {
			if (dropped.has(name)) return {};
			const kept = collections.get(name);
			if (kept) return kept;
			const values = (ctx.getNodeParameter(name, itemIndex, {}) ?? {}) as IDataObject;
			return Object.fromEntries(Object.entries(values).filter(([, value]) => !isUnset(value)));
		},
	};
}
