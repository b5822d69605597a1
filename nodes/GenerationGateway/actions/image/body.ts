import type { IDataObject } from 'n8n-workflow';

import { imageVariantCReference } from './wireNames';
import type { ImageVariant } from './catalog';
import { imageVariantOf } from './catalog';
import { isUnset } from '../../../shared/validation';

/** Copies only members the chosen model accepts, so a value left from another model is never sent. */

export interface ImageFormValues {
	model: string;
	prompt: string;
	/** '' or undefined: not sent (the gateway's default). */
	size?: string;
	n?: number;
	quality?: string;
	/** Keyed by wire name. */
	options: IDataObject;
	/** URLs or data URLs. */
	referenceImages: string[];
}

/** Variant B adds the model's own table row. */
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

const isSet = (value: unknown) => !isUnset(value);

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
