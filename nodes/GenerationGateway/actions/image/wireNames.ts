/**
 * Assumed wire names of the image resource (see index.ts). Image generation
 * variant B mirrors the OpenAI Images API, so its unnamed stream events follow
 * OpenAI's image-generation streaming events; variant C's reference element
 * follows variant A's documented `images` (array of string).
 */

/**
 * Variant C `images` element: the interface says "the shape of an element is
 * not shown". Assumed: a plain string (an https URL or a data URL), the shape
 * variant A documents for the same member on the same path.
 */
export function imageVariantCReference(url: string): unknown {
	return url;
}

/**
 * A reference image taken from an n8n binary property is sent as a data URL
 * `data:<mime>;base64,<bytes>`: variant A documents only "array of string", and
 * a data URL is the string form of an image the OpenAI-style APIs accept.
 */
export function imageBinaryAsDataUrl(mimeType: string, base64: string): string {
	return `data:${mimeType};base64,${base64}`;
}

/**
 * SSE event types of a streamed variant B request (`stream: true`): the
 * interface says "event types: not shown". Assumed: OpenAI's image-generation
 * streaming events. The type is read from the data's `type` member, else from
 * the `event:` line.
 */
export const IMAGE_STREAM_PARTIAL_EVENT = 'image_generation.partial_image';
/** The final image of a stream; a stream without it is refused (see stream.ts). */
export const IMAGE_STREAM_COMPLETED_EVENT = 'image_generation.completed';
/** An error reported inside the stream (OpenAI sends `{type:"error", error:{message}}`). */
export const IMAGE_STREAM_ERROR_EVENT = 'error';

/** Base64 image of a partial or completed stream event (OpenAI's name, same as the JSON result). */
export const IMAGE_STREAM_B64_MEMBER = 'b64_json';
/** Position of a partial image among the `partial_images` requested (OpenAI's name). */
export const IMAGE_STREAM_PARTIAL_INDEX_MEMBER = 'partial_image_index';
/** Unix time of a stream event (OpenAI's name; the JSON result calls it `created`). */
export const IMAGE_STREAM_CREATED_MEMBER = 'created_at';
