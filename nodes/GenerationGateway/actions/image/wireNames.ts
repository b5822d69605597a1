/**
 * Wire names the interface does not give for images (docs/assumed-field-names.md):
 * variant B's stream events are OpenAI's; variant C's reference element is the
 * plain string variant A documents for the same member.
 */

export function imageVariantCReference(url: string): unknown {
	return url;
}

/** Variant A documents only "array of string": a data URL is the string form of an image. */
export function imageBinaryAsDataUrl(mimeType: string, base64: string): string {
	return `data:${mimeType};base64,${base64}`;
}

export const IMAGE_STREAM_PARTIAL_EVENT = 'image_generation.partial_image';
export const IMAGE_STREAM_COMPLETED_EVENT = 'image_generation.completed';
export const IMAGE_STREAM_ERROR_EVENT = 'error';

export const IMAGE_STREAM_B64_MEMBER = 'b64_json';
export const IMAGE_STREAM_PARTIAL_INDEX_MEMBER = 'partial_image_index';
/** The JSON result calls it `created`. */
export const IMAGE_STREAM_CREATED_MEMBER = 'created_at';
