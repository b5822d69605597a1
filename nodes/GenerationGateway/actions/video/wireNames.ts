/**
 * Assumed wire names of the video resource (see index.ts). The interface
 * names these members of `POST /v1/videos` and of the task callback without
 * their property names. Each follows the unified video API convention that
 * the package follows for video; "Additional Body Fields (JSON)" overrides any of them.
 */

/** First/last-frame list. Reason: the unified video API's name. */
export const VIDEO_FRAME_IMAGES = 'frame_images';
/** URL member of a frame item. Reason: same property as a reference image item. */
export const VIDEO_FRAME_IMAGE_URL = 'image_url';
/** Kind member of a frame item, `first_frame` | `last_frame`. Reason: unified video API name. */
export const VIDEO_FRAME_TYPE = 'frame_type';
export const VIDEO_FRAME_TYPES = { first: 'first_frame', last: 'last_frame' } as const;

/** Reference list. Reason: the unified video API's name. */
export const VIDEO_INPUT_REFERENCES = 'input_references';
/** Material type of an item; its values `image_url`/`video_url`/`audio_url` are the interface's. */
export const VIDEO_REFERENCE_TYPE = 'type';
/** URL members of an item. Reason: the material type values name them. */
export const VIDEO_REFERENCE_URL = { image: 'image_url', video: 'video_url', audio: 'audio_url' } as const;
/** Usage member of an item. Reason: the interface calls it "role" and lists its values. */
export const VIDEO_REFERENCE_ROLE = 'role';
/** Preset voice member of an item (vidB-1.5). Reason: unified video API name. */
export const VIDEO_REFERENCE_VOICE = 'voice_id';

/**
 * A frame or reference taken from an n8n binary goes in the same URL member as
 * a data URL, `data:<mime>;base64,<bytes>`. Reason: the convention the package
 * already uses for image references (image/wireNames.ts); the interface asks
 * for URLs and shows no upload member. This is the text before the base64.
 */
export function videoBinaryDataUrlPrefix(mimeType: string): string {
	return `data:${mimeType};base64,`;
}

/** Random seed. Reason: the interface's Limits table calls it `seed`. */
export const VIDEO_SEED = 'seed';
/** Task callback address. Reason: unified video API name. */
export const VIDEO_CALLBACK_URL = 'callback_url';

/**
 * vidA's upstream extension object. Reason: the unified (OpenAI-compatible)
 * video gateways pass vendor-specific members in `metadata`; the member names
 * below are the upstream vendor's own (fixed camera, watermark, last frame,
 * service tier), so the gateway can forward them untouched.
 */
export const VIDEO_EXTENSIONS = 'metadata';
export const VIDEO_EXTENSION_MEMBERS = {
	cameraFixed: 'camera_fixed',
	watermark: 'watermark',
	returnLastFrame: 'return_last_frame',
	referenceTaskType: 'reference_task_type',
	/** Output container `mp4` | `mov`. */
	outputFormat: 'output_format',
	/** Service level `default` | `flex`. */
	serviceTier: 'service_tier',
	/** The integer 0-9 whose meaning the interface does not show; `priority` is a guess. */
	level: 'priority',
} as const;

/**
 * Where a completed task's media is found inside `data` (its inner fields are
 * not shown). Accepted shapes, first match wins: `data` as a URL string;
 * `data.url` / `data.video_url`; `data.video.url`; `data[0].url` (list of
 * outputs). The record is returned untouched in JSON either way.
 */
export const VIDEO_RESULT_URL_PATHS = ['url', 'video_url', 'video.url', '0.url', '0.video_url'] as const;
