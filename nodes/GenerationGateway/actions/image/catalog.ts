import type { CatalogModel } from '../../../shared/catalog';
import { defineCatalog } from '../../../shared/catalog';

/**
 * The image models of POST /v1/images/generations as data, read by the form, schema.ts
 * and body.ts. Variant B: `imagegen` and `legacyimg`; C: `imgE`; A: any other ID.
 */

export type ImageVariant = 'A' | 'B' | 'C';

const IMAGEGEN_PARAMETERS = [
	'background',
	'moderation',
	'output_format',
	'output_compression',
	'stream',
	'partial_images',
] as const;

/** Members of variant B that only some models accept (the table's last column). */
export const IMAGE_MODEL_PARAMETERS = [...IMAGEGEN_PARAMETERS, 'style', 'response_format'] as const;
export type ImageModelParameter = (typeof IMAGE_MODEL_PARAMETERS)[number];

/** Free WIDTHxHEIGHT sizes of `imagegen-2` and `imagegen-2.5`. */
export interface FreeSizeRule {
	multipleOf: number;
	/** Longest side / shortest side. */
	maxRatio: number;
	/** "At most 3840x2160": the longer side and the pixel count. */
	maxLongSide: number;
	maxPixels: number;
}

export interface ImageModel extends CatalogModel {
	family: 'imagegen' | 'legacyimg' | 'imgE';
	variant: 'B' | 'C';
	/** Undefined: no documented maximum. */
	promptMaxLength?: number;
	sizes: readonly string[] | FreeSizeRule;
	/** Empty: the member is not sent. */
	qualities: readonly string[];
	/** 0: the gateway rejects `n` for the model. */
	maxImages: number;
	parameters: readonly ImageModelParameter[];
}

const IMAGEGEN_FREE_SIZE: FreeSizeRule = {
	multipleOf: 16,
	maxRatio: 3,
	maxLongSide: 3840,
	maxPixels: 3840 * 2160,
};

const IMAGEGEN_QUALITIES = ['auto', 'low', 'medium', 'high'] as const;

const imagegen = (
	id: string,
	sizes: ImageModel['sizes'],
	qualities: readonly string[],
	description: string,
): ImageModel => ({
	id,
	name: id,
	family: 'imagegen',
	variant: 'B',
	promptMaxLength: 32000,
	sizes,
	qualities,
	maxImages: 10,
	parameters: IMAGEGEN_PARAMETERS,
	description,
});

export const IMAGE_MODELS: readonly ImageModel[] = [
	...(['imagegen-2.5-sunburst', 'imagegen-2.5-flare'] as const).map((id) =>
		imagegen(
			id,
			IMAGEGEN_FREE_SIZE,
			[...IMAGEGEN_QUALITIES, 'xhigh', 'max'],
			'Variant B. Any WIDTHxHEIGHT up to 3840x2160; qualities up to max',
		),
	),
	imagegen(
		'imagegen-2',
		IMAGEGEN_FREE_SIZE,
		IMAGEGEN_QUALITIES,
		'Variant B. Any WIDTHxHEIGHT up to 3840x2160; transparent background is a preview capability',
	),
	...(['imagegen-1.5', 'imagegen-1', 'imagegen-1-mini'] as const).map((id) =>
		imagegen(
			id,
			['auto', '1024x1024', '1536x1024', '1024x1536'],
			IMAGEGEN_QUALITIES,
			'Variant B. Sizes 1024x1024, 1536x1024, 1024x1536 or auto',
		),
	),
	{
		id: 'legacyimg-3',
		name: 'legacyimg-3',
		family: 'legacyimg',
		variant: 'B',
		promptMaxLength: 4000,
		sizes: ['1024x1024', '1792x1024', '1024x1792'],
		qualities: ['standard', 'hd'],
		maxImages: 1,
		parameters: ['style', 'response_format'],
		description: 'Variant B. One image per request; style vivid or natural; Base64 or URL',
	},
	{
		id: 'legacyimg-2',
		name: 'legacyimg-2',
		family: 'legacyimg',
		variant: 'B',
		promptMaxLength: 1000,
		sizes: ['256x256', '512x512', '1024x1024'],
		qualities: ['standard'],
		maxImages: 10,
		parameters: ['response_format'],
		description: 'Variant B. Sizes 256x256, 512x512, 1024x1024; Base64 or URL',
	},
	{
		id: 'vendor/imgE-3.0-pro',
		name: 'vendor/imgE-3.0-pro',
		// The short name works only for accounts with an alias configured.
		aliases: ['imgE-3.0-pro'],
		family: 'imgE',
		variant: 'C',
		sizes: [],
		qualities: [],
		maxImages: 0,
		parameters: [],
		description: 'Variant C. Prompt rewriting, negative prompt, seed, watermark, up to 3 reference images',
	},
];

export const imageCatalog = defineCatalog(IMAGE_MODELS, 'searchImageModels');

export function imageVariantOf(modelId: string): { variant: ImageVariant; model?: ImageModel } {
	const model = imageCatalog.resolve(modelId);
	return model ? { variant: model.variant, model } : { variant: 'A' };
}

export const VARIANT_A_LIMITS = {
	maxImages: 4,
	referenceImages: { min: 1, max: 5 },
	qualities: ['standard', 'hd'],
	responseFormats: ['url', 'b64_json'],
} as const;

export const VARIANT_C_LIMITS = {
	referenceImages: { max: 3 },
	seed: { min: 0, max: 2147483647 },
	minPixels: 512 * 512,
	maxPixels: 2048 * 2048,
	maxRatio: 8,
	promptExtendModes: ['direct', 'agent'],
	responseFormats: ['b64_json', 'url'],
} as const;

/** Variant B's enums that do not depend on the model. */
export const VARIANT_B_ENUMS = {
	background: ['transparent', 'opaque', 'auto'],
	transparentFormats: ['png', 'webp'],
	moderation: ['low', 'auto'],
	outputFormat: ['png', 'jpeg', 'webp'],
	compressibleFormats: ['webp', 'jpeg'],
	outputCompression: { min: 0, max: 100 },
	partialImages: { min: 0, max: 3 },
	responseFormat: ['b64_json', 'url'],
	style: ['vivid', 'natural'],
} as const;

/** For messages like "only legacyimg-3 accepts it". */
export function modelsAccepting(parameter: ImageModelParameter): string[] {
	return IMAGE_MODELS.filter((model) => model.parameters.includes(parameter)).map((model) => model.id);
}
