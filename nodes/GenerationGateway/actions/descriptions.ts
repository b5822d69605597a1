import type { IDataObject, IExecuteFunctions, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import type { GatewayResource } from '../../shared/credentials';
import { formSetting, refusal } from '../../shared/validation';
import { field } from './formFields';
import { readJsonParameter, splitList } from './jsonParameter';

/** displayOptions that scope a field to one resource and operation. */
function showFor(resource: GatewayResource, operation: string | string[]) {
	return { show: { resource: [resource], operation: Array.isArray(operation) ? operation : [operation] } };
}

export function scoped(
	resource: GatewayResource,
	operation: string | string[],
	properties: INodeProperties[],
): INodeProperties[] {
	const scope = showFor(resource, operation).show;
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...scope, ...property.displayOptions?.show },
		},
	}));
}

/** "Additional Body Fields (JSON)": members the form lacks, merged last into the body. */
export const additionalBodyField: INodeProperties = {
	displayName: 'Additional Body Fields (JSON)',
	name: 'additionalBodyFields',
	type: 'json',
	default: '{}',
	description:
		'Extra members sent in the request body, merged last: they override any field above with the same name. Use it for members this form does not have yet.',
};

export function readAdditionalBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const value = readJsonParameter(
		ctx,
		'additionalBodyFields',
		'Additional Body Fields (JSON)',
		itemIndex,
		'{}',
	);
	if (value === undefined || value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw refusal(
			ctx.getNode(),
			'Additional Body Fields (JSON)',
			'must be a JSON object, e.g. {"user": "abc"}',
			itemIndex,
		);
	}
	return value as IDataObject;
}

export function withAdditionalBody(body: IDataObject, additional: IDataObject): IDataObject {
	return { ...body, ...additional };
}

/** The Model field of a resource without a model list: an ID typed as the gateway names it. */
export function modelIdField(example: string, description: string): INodeProperties {
	return field('Model', 'model', 'string', {
		required: true,
		default: '',
		placeholder: `e.g. ${example}`,
		description,
	});
}

/** A collection of optional settings ("Add Option"); `options` unless named otherwise. */
export function optionsCollection(options: INodeProperties[], name = 'options', displayName = 'Options') {
	return { displayName, name, type: 'collection', placeholder: 'Add Option', default: {}, options } as const;
}

/** The Model field of a catalogued resource: a searchable list, or any ID typed "By ID". */
export function modelListField(
	searchListMethod: string,
	value: string,
	description: string,
	example = value,
): INodeProperties {
	return field('Model', 'model', 'resourceLocator', {
		default: { mode: 'list', value },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: `e.g. ${example}` },
		],
	});
}

/** Wire path -> form label, so a refusal names the field the user sees; `wireOf` undefined: not sent. */
export function formLabels(
	properties: INodeProperties[],
	wireOf: (name: string) => string | undefined,
): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const property of properties.flatMap((p) => [
		p,
		...(p.type === 'collection' ? (p.options as INodeProperties[]) : []),
	])) {
		const wire = wireOf(property.name);
		if (wire !== undefined) labels[wire] = property.displayName;
	}
	return labels;
}

/** Node-wide request settings, read once by the router and the transport. */
export const requestOptionsField: INodeProperties = optionsCollection(
	[
		field('Max Concurrent Requests', 'maxConcurrency', 'number', {
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 1,
			description:
				'How many input items are sent to the gateway at the same time. Output keeps the input order. Raise it for large batches; lower it if the gateway answers 429.',
		}),
		field('Request Timeout (Seconds)', 'timeoutSeconds', 'number', {
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 300,
			description:
				'Deadline for one request to the gateway. Generations that take longer fail with a timeout (and are not sent again automatically).',
		}),
	],
	'requestOptions',
	'Request Options',
);

interface RequestSettings {
	maxConcurrency: number;
	timeoutMs: number;
}

/** A webhook (a video callback resuming the node) has no items: it reads the parameters as they stand. */
export function readRequestSettings(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex = 0,
): RequestSettings {
	const options = (
		'getInputData' in ctx
			? ctx.getNodeParameter('requestOptions', itemIndex, {})
			: ctx.getNodeParameter('requestOptions', {})
	) as IDataObject;
	const node = ctx.getNode();
	const at = 'getInputData' in ctx ? itemIndex : undefined;
	const maxConcurrency = formSetting(
		node,
		'Request Options → Max Concurrent Requests',
		options?.maxConcurrency,
		{ min: 1, max: 50, integer: true, fallback: 1 },
		at,
	);
	const timeoutSeconds = formSetting(
		node,
		'Request Options → Request Timeout (Seconds)',
		options?.timeoutSeconds,
		{ min: 1, max: 3600, fallback: 300 },
		at,
	);
	return { maxConcurrency, timeoutMs: timeoutSeconds * 1000 };
}

/** A sortable list of turns, each a role and a text (plus `extraValues`, e.g. attached binaries). */
export function conversationField(options: {
	displayName: string;
	name: string;
	/** The name of one entry, e.g. `turn` (the collection's key in the saved parameters). */
	entry: string;
	entryDisplayName: string;
	roles: Array<{ name: string; value: string }>;
	show: Record<string, string[]>;
	textRows: number;
	description?: string;
	extraValues?: INodeProperties[];
}): INodeProperties {
	const firstRole = options.roles[0].value;
	const extraDefaults = Object.fromEntries(
		(options.extraValues ?? []).map((value) => [value.name, value.default]),
	);
	return field(options.displayName, options.name, 'fixedCollection', {
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: `Add ${options.entryDisplayName}`,
		default: { [options.entry]: [{ role: firstRole, text: '', ...extraDefaults }] },
		displayOptions: { show: options.show },
		description: options.description,
		options: [
			{
				name: options.entry,
				displayName: options.entryDisplayName,
				values: [
					field('Role', 'role', 'options', { options: options.roles, default: firstRole }),
					field('Text', 'text', 'string', { typeOptions: { rows: options.textRows }, default: '' }),
					...(options.extraValues ?? []),
				],
			},
		],
	});
}

/** A conversationField's turns as typed, each attached binary property read by `readFile`. */
export async function readConversation(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: { name: string; entry: string; displayName: string },
	readFile: (binaryProperty: string, label: string, role: unknown) => Promise<IDataObject>,
): Promise<Array<{ role: unknown; text: string; files: IDataObject[] }>> {
	const parameter = ctx.getNodeParameter(field.name, itemIndex, {}) as IDataObject;
	const turns = [];
	for (const [n, turn] of ((parameter[field.entry] as IDataObject[] | undefined) ?? []).entries()) {
		const files: IDataObject[] = [];
		for (const name of splitList(turn.binaryProperties, true)) {
			files.push(await readFile(name, `${field.displayName} (#${n + 1} Binary Properties)`, turn.role));
		}
		turns.push({ role: turn.role, text: String(turn.text ?? ''), files });
	}
	return turns;
}

export function binaryPropertiesValue(description: string): INodeProperties {
	return field('Binary Properties', 'binaryProperties', 'string', {
		default: '',
		placeholder: 'e.g. data, data_1',
		description,
	});
}
