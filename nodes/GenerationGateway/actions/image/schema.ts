import { z } from 'zod';

import type { FreeSizeRule, ImageModel, ImageModelParameter } from './catalog';
import { addIssue, atMostChars } from '../../../shared/validation';
import { formLabels } from '../descriptions';
import { IMAGE_NOT_SENT, generateFields } from './fields';
import {
	IMAGE_MODEL_PARAMETERS,
	VARIANT_A_LIMITS,
	VARIANT_B_ENUMS,
	VARIANT_C_LIMITS,
	imageVariantOf,
	modelsAccepting,
} from './catalog';

/** One zod schema per variant, from the model's catalog entry; unnamed members pass to the gateway. */

const UNLABELLED = new Set(['options', 'additionalBodyFields', ...IMAGE_NOT_SENT]);
/** Option names are the wire names; Reference Images is sent as `images`. */
export const IMAGE_FIELD_LABELS = formLabels(generateFields, (name) =>
	UNLABELLED.has(name) ? undefined : name === 'referenceImages' ? 'images' : name,
);

const SIZE_PATTERN = /^(auto|[1-9][0-9]*x[1-9][0-9]*)$/;
const SIZE_PATTERN_TEXT = 'must be "auto" or WIDTHxHEIGHT, e.g. 1024x1024';

type Body = Record<string, unknown>;

const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

const enumOf = (values: readonly string[]) =>
	z.string().refine((value) => values.includes(value), { message: `must be one of ${oneOf(values)}` });

const intRange = ({ min, max }: { min: number; max: number }) =>
	z
		.number({ invalid_type_error: 'must be a whole number' })
		.int('must be a whole number')
		.min(min, `must be between ${min} and ${max}`)
		.max(max, `must be between ${min} and ${max}`);

/** A size checked by a function that lists its problems. */
const sizeOf = (problemsOf: (size: string) => string[]) =>
	z.string().superRefine((size, ctx) => problemsOf(size).forEach((problem) => addIssue(ctx, [], problem)));

/** "1536x1024" -> [1536, 1024]; undefined for "auto" or anything else. */
function parseSize(size: string): [number, number] | undefined {
	const match = /^([1-9][0-9]*)x([1-9][0-9]*)$/.exec(size);
	return match ? [Number(match[1]), Number(match[2])] : undefined;
}

function freeSizeProblems(size: string, rule: FreeSizeRule): string[] {
	if (size === 'auto') return [];
	const dims = parseSize(size);
	if (!dims) return [SIZE_PATTERN_TEXT];
	const [width, height] = dims;
	const problems: string[] = [];
	if (width % rule.multipleOf || height % rule.multipleOf) {
		problems.push(`both sides must be multiples of ${rule.multipleOf} (got ${size})`);
	}
	if (Math.max(width, height) > rule.maxRatio * Math.min(width, height)) {
		problems.push(`the aspect ratio must be between 1:${rule.maxRatio} and ${rule.maxRatio}:1 (got ${size})`);
	}
	if (Math.max(width, height) > rule.maxLongSide || width * height > rule.maxPixels) {
		problems.push(`must be at most 3840x2160 (longer side 3840, ${rule.maxPixels} pixels; got ${size})`);
	}
	return problems;
}

function variantCSizeProblems(size: string): string[] {
	if (!SIZE_PATTERN.test(size)) return [SIZE_PATTERN_TEXT];
	const dims = parseSize(size);
	if (!dims) return [];
	const [width, height] = dims;
	const problems: string[] = [];
	const area = width * height;
	if (area < VARIANT_C_LIMITS.minPixels || area > VARIANT_C_LIMITS.maxPixels) {
		problems.push(`the pixel area must be between 512x512 and 2048x2048 (got ${size})`);
	}
	if (Math.max(width, height) > VARIANT_C_LIMITS.maxRatio * Math.min(width, height)) {
		problems.push(`the aspect ratio must be between 1:8 and 8:1 (got ${size})`);
	}
	return problems;
}

function variantBSchema(model: ImageModel) {
	const accepts = (parameter: ImageModelParameter) => model.parameters.includes(parameter);
	const sizes = model.sizes;
	const size = Array.isArray(sizes)
		? enumOf(sizes)
		: sizeOf((value) => freeSizeProblems(value, sizes as FreeSizeRule));
	const prompt = atMostChars(
		z.string({ required_error: 'is required' }).min(1, 'must not be empty'),
		model.promptMaxLength ?? Infinity,
		` for ${model.id}`,
	);
	return z
		.object({
			model: z.string(),
			prompt,
			n:
				model.maxImages === 1
					? z.literal(1, { errorMap: () => ({ message: `must be 1 for ${model.id}` }) })
					: intRange({ min: 1, max: model.maxImages }),
			quality: enumOf(model.qualities).nullable(),
			size,
			user: z.string(),
			background: enumOf(VARIANT_B_ENUMS.background).nullable(),
			moderation: enumOf(VARIANT_B_ENUMS.moderation).nullable(),
			output_format: enumOf(VARIANT_B_ENUMS.outputFormat).nullable(),
			output_compression: intRange(VARIANT_B_ENUMS.outputCompression),
			partial_images: intRange(VARIANT_B_ENUMS.partialImages),
			stream: z.boolean({ invalid_type_error: 'must be true or false' }),
			response_format: enumOf(VARIANT_B_ENUMS.responseFormat),
			style: enumOf(VARIANT_B_ENUMS.style).nullable(),
		})
		.partial()
		.required({ model: true, prompt: true })
		.passthrough()
		.superRefine((body: Body, ctx) => {
			// The per-model table: a member outside the model's row is invalid.
			for (const parameter of IMAGE_MODEL_PARAMETERS) {
				if (body[parameter] !== undefined && !accepts(parameter)) {
					const who = modelsAccepting(parameter);
					const only = parameter === 'response_format' ? 'legacyimg models' : who.join(', ');
					addIssue(ctx, [parameter], `${model.id} does not accept it (only ${only})`);
				}
			}
			if (body.background === 'transparent' && accepts('background')) {
				const format = body.output_format;
				if (!VARIANT_B_ENUMS.transparentFormats.includes(format as 'png')) {
					addIssue(ctx, ['background'], 'transparent requires Output Format "png" or "webp"');
				}
			}
			if (body.output_compression !== undefined && accepts('output_compression')) {
				if (!VARIANT_B_ENUMS.compressibleFormats.includes(body.output_format as 'jpeg')) {
					addIssue(ctx, ['output_compression'], 'applies only with Output Format "webp" or "jpeg"');
				}
			}
		});
}

function variantCSchema(model: ImageModel) {
	return z
		.object({
			model: z.string(),
			prompt: z.string({ required_error: 'is required' }).min(1, 'must not be empty'),
			size: sizeOf(variantCSizeProblems),
			images: z.array(z.unknown()).max(VARIANT_C_LIMITS.referenceImages.max, 'at most 3 images'),
			prompt_extend: z.boolean({ invalid_type_error: 'must be true or false' }),
			prompt_extend_mode: enumOf(VARIANT_C_LIMITS.promptExtendModes),
			enable_thinking: z.boolean({ invalid_type_error: 'must be true or false' }),
			negative_prompt: z.string(),
			seed: intRange(VARIANT_C_LIMITS.seed),
			watermark: z.boolean({ invalid_type_error: 'must be true or false' }),
			response_format: enumOf(VARIANT_C_LIMITS.responseFormats),
		})
		.partial()
		.required({ model: true, prompt: true })
		.passthrough()
		.superRefine((body: Body, ctx) => {
			if (body.n !== undefined) {
				addIssue(ctx, ['n'], `${model.id} does not take a number of images: the gateway rejects "n" for it`);
			}
			if (body.enable_thinking === true && body.prompt_extend === false) {
				addIssue(ctx, ['prompt_extend'], 'cannot be turned off while Thinking is on (Thinking needs it)');
			}
			const hasImages = Array.isArray(body.images) && body.images.length > 0;
			if (body.prompt_extend_mode === 'agent' && hasImages) {
				addIssue(
					ctx,
					['prompt_extend_mode'],
					'"agent" works for text-to-image only: remove the reference images or use "direct"',
				);
			}
		});
}

function variantASchema() {
	return z
		.object({
			model: z.string().min(1, 'must not be empty'),
			prompt: z.string().min(1, 'must not be empty'),
			enable_pro: z.boolean({ invalid_type_error: 'must be true or false' }),
			n: intRange({ min: 1, max: VARIANT_A_LIMITS.maxImages }),
			size: z.string().regex(SIZE_PATTERN, SIZE_PATTERN_TEXT),
			response_format: enumOf(VARIANT_A_LIMITS.responseFormats),
			quality: enumOf(VARIANT_A_LIMITS.qualities),
			images: z
				.array(z.string({ invalid_type_error: 'must be a URL string' }).min(1, 'must not be empty'))
				.min(VARIANT_A_LIMITS.referenceImages.min, 'needs 1 to 5 images when set')
				.max(VARIANT_A_LIMITS.referenceImages.max, 'at most 5 images'),
		})
		.partial()
		.required({ model: true })
		.passthrough();
}

/** Built once per model: a zod schema keeps no state between checks. */
const schemaByModel = new WeakMap<ImageModel, z.ZodType<Body>>();
let variantA: z.ZodType<Body> | undefined;

export function imageRequestSchema(modelId: string): z.ZodType<Body> {
	const { variant, model } = imageVariantOf(modelId);
	// Variants B and C come from a catalog entry (imageVariantOf), so `model` is set for them.
	if (!model || (variant !== 'B' && variant !== 'C')) {
		variantA ??= variantASchema() as unknown as z.ZodType<Body>;
		return variantA;
	}
	let schema = schemaByModel.get(model);
	if (!schema) {
		schema = (variant === 'B' ? variantBSchema(model) : variantCSchema(model)) as unknown as z.ZodType<Body>;
		schemaByModel.set(model, schema);
	}
	return schema;
}
