import type { IDataObject } from 'n8n-workflow';

import { imageVariantCReference } from './wireNames';
import type { ImageVariant } from './catalog';
import { imageVariantOf } from './catalog';

/**
 * Builds the request body of POST /v1/images/generations from the form, with
 * exactly the interface's member names. Only members the chosen model accepts
 * are copied (the catalog decides), so a value left over from another model is
 * never sent; "Additional Body Fields (JSON)" is merged after this and the
 * result is checked by schema.ts.
 */

export interface ImageFormValues {
	model: string;
	prompt: string;
	/** '' or undefined: not sent (the gateway's default). */
	size?: string;
	n?: number;
	/** Variant B quality (top-level field); '' or undefined: not sent. */
	quality?: string;
	/** The "Options" collection, keyed by wire name. */
	options: IDataObject;
	/** Reference images as strings (URLs or data URLs), variants A and C. */
	referenceImages: string[];
}

/** Optional members read from "Options" per variant (B adds the model's own table row). */
const OPTION_MEMBERS: Record<ImageVariant, readonly string[]> = {
	A: ['enable_pro', 'response_format', 'quality'],
	B: ['user'],
	C: [
		'prompt_extend',
		'prompt_extend_mode',
		'enable_thinking',
		'negative_prompt',
		'seed',
		'watermark',
		'response_format',
	],
};

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';

export function buildImageBody(values: ImageFormValues): IDataObject {
	const { variant, model } = imageVariantOf(values.model);
	const body: IDataObject = { model: values.model.trim(), prompt: values.prompt };
	if (isSet(values.size)) body.size = values.size;

	const members = [...OPTION_MEMBERS[variant], ...(model?.parameters ?? [])];
	if (variant === 'B') {
		// legacyimg-3 takes only n = 1: the field is hidden and nothing is sent.
		if (isSet(values.n) && model!.maxImages > 1) body.n = values.n;
		// legacyimg-2 has a single quality ("standard"): nothing to choose, nothing sent.
		if (isSet(values.quality) && model!.qualities.length > 1) body.quality = values.quality;
	}
	if (variant === 'A' && isSet(values.n)) body.n = values.n;
	for (const member of members) {
		if (isSet(values.options[member])) body[member] = values.options[member];
	}
	// partial_images only means something in a streamed response.
	if (variant === 'B' && body.stream !== true) delete body.partial_images;

	if (values.referenceImages.length) {
		if (variant === 'A') body.images = [...values.referenceImages];
		if (variant === 'C') body.images = values.referenceImages.map(imageVariantCReference) as IDataObject[];
	}
	return body;
}
