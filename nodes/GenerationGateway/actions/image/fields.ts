import type { INodeProperties } from 'n8n-workflow';

import type { ImageModel } from './catalog';
import { IMAGE_MODELS, VARIANT_A_LIMITS, imageCatalog } from './catalog';
import { additionalBodyField, modelListField, scoped } from '../descriptions';
import { accepts, forModels, isVariantC, variantAOnly } from './conditions';
import { imageOptionsField } from './options';
import { field, labelledOptions, valueOptions, withModelDefault } from '../formFields';

/** The form of Image → Generate: each model-dependent field shows for the models that accept it. */

/** Groups variant B models that share a list (sizes or qualities): one field per distinct list. */
function groupBy(pick: (model: ImageModel) => readonly string[] | undefined) {
	const groups = new Map<string, { values: readonly string[]; ids: string[] }>();
	for (const model of IMAGE_MODELS) {
		const values = model.variant === 'B' ? pick(model) : undefined;
		if (!values || values.length < 2) continue;
		const key = values.join('|');
		groups.set(key, { values, ids: [...(groups.get(key)?.ids ?? []), model.id] });
	}
	return [...groups.values()];
}

const listSizeFields: INodeProperties[] = groupBy((m) => (Array.isArray(m.sizes) ? m.sizes : undefined)).map(
	({ values, ids }) => {
		const initial = values.includes('1024x1024') ? '1024x1024' : values[0];
		return field('Size', 'size', 'options', {
			options: valueOptions(values),
			default: initial,
			description: `The sizes ${ids.join(', ')} can produce`,
			displayOptions: forModels((m) => ids.includes(m.id)),
		});
	},
);

// Default "": nothing is sent and the model decides. Also keeps a model chosen by
// expression safe: n8n then shows every Quality list and keeps one default for all.
const qualityFields: INodeProperties[] = groupBy((m) => m.qualities).map(({ values, ids }) =>
	field('Quality', 'quality', 'options', {
		options: withModelDefault(values),
		default: '',
		description: `The qualities ${ids.join(', ')} accept; Model Default sends none`,
		displayOptions: forModels((m) => ids.includes(m.id)),
	}),
);

const freeSize = (m: ImageModel) => m.variant === 'B' && !Array.isArray(m.sizes);

const properties: INodeProperties[] = [
	modelListField(
		imageCatalog.searchListMethod,
		'imagegen-2',
		'The image model: imagegen-* and legacyimg-* use variant B, vendor/imgE-3.0-pro variant C. "By ID" accepts any model ID or alias; an ID this node does not know is sent as typed with the generic fields (variant A). A dated snapshot (e.g. imagegen-2-2026-04-21) behaves as its base model.',
		'imagegen-2-2026-04-21',
	),
	field('Prompt', 'prompt', 'string', {
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description:
			'What to draw. Up to 32000 characters on imagegen models, 4000 on legacyimg-3, 1000 on legacyimg-2.',
	}),
	...listSizeFields,
	field('Size', 'size', 'string', {
		default: '1024x1024',
		placeholder: 'e.g. 1536x1024',
		description:
			'"auto" or WIDTHxHEIGHT: both sides multiples of 16, aspect ratio between 1:3 and 3:1, at most 3840x2160 (longer side 3840, at most 3840×2160 pixels)',
		displayOptions: forModels(freeSize),
	}),
	field('Size', 'size', 'string', {
		default: '',
		placeholder: 'e.g. 2048x1152 (empty: 1024x1024)',
		description:
			'"auto" or WIDTHxHEIGHT; pixel area between 512x512 and 2048x2048, aspect ratio between 1:8 and 8:1. Empty or auto: the gateway uses 1024x1024.',
		displayOptions: forModels(isVariantC),
	}),
	field('Size', 'size', 'string', {
		default: '',
		placeholder: 'e.g. 1024x1024',
		description: '"auto" or WIDTHxHEIGHT. Empty: not sent (the model\'s default).',
		displayOptions: variantAOnly(),
	}),
	...qualityFields,
	field('Number of Images', 'n', 'number', {
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 1,
		description: 'How many images to generate (1 to 10). Each becomes a binary: data, data_1, ...',
		displayOptions: forModels((m) => m.variant === 'B' && m.maxImages > 1),
	}),
	field('Number of Images', 'n', 'number', {
		typeOptions: { minValue: 1, maxValue: VARIANT_A_LIMITS.maxImages },
		default: 1,
		description: 'How many images to generate (1 to 4)',
		displayOptions: variantAOnly(),
	}),
	field('Reference Images', 'referenceImages', 'fixedCollection', {
		typeOptions: { multipleValues: true },
		placeholder: 'Add Reference Image',
		default: {},
		description:
			'Images the model starts from (1 to 5 for the generic path, up to 3 for imgE). A binary property is sent as a data URL (data:MIME-type;base64,...).',
		displayOptions: forModels(isVariantC, { unknown: true }),
		options: [
			{
				displayName: 'Image',
				name: 'images',
				values: [
					field('Source', 'source', 'options', {
						options: labelledOptions({ URL: 'url', 'Binary Property': 'binary' }),
						default: 'url',
					}),
					field('Image URL', 'url', 'string', {
						default: '',
						placeholder: 'https://example.com/input.png',
						displayOptions: { show: { source: ['url'] } },
					}),
					field('Input Binary Field', 'binaryProperty', 'string', {
						default: 'data',
						description: 'The binary property of the input item that holds the image',
						displayOptions: { show: { source: ['binary'] } },
					}),
				],
			},
		],
	}),
	field('Download URL Results', 'downloadUrls', 'boolean', {
		default: true,
		description:
			'Whether to download images the gateway returns by URL into binary properties. The URL stays in the JSON either way.',
		displayOptions: forModels(accepts('response_format'), { unknown: true }),
	}),
	imageOptionsField,
	additionalBodyField,
];

/** Read by the node itself, never sent. */
export const IMAGE_NOT_SENT = ['downloadUrls', 'includePartialImages'];

export const generateFields: INodeProperties[] = scoped('image', 'generate', properties);
