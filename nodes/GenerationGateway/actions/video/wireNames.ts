/**
 * Wire names the interface does not give for `POST /v1/videos` and its callback,
 * taken from the unified video API; docs/assumed-field-names.md lists them with
 * their reasons. Additional Body Fields (JSON) overrides any of them.
 */

export const VIDEO_FRAME_IMAGES = 'frame_images';
export const VIDEO_FRAME_IMAGE_URL = 'image_url';
export const VIDEO_FRAME_TYPE = 'frame_type';
export const VIDEO_FRAME_TYPES = { first: 'first_frame', last: 'last_frame' } as const;

export const VIDEO_INPUT_REFERENCES = 'input_references';
export const VIDEO_REFERENCE_TYPE = 'type';
export const VIDEO_REFERENCE_URL = { image: 'image_url', video: 'video_url', audio: 'audio_url' } as const;
export const VIDEO_REFERENCE_ROLE = 'role';
export const VIDEO_REFERENCE_VOICE = 'voice_id';

/** A file from an n8n binary goes in the URL member as a data URL: the interface has no upload member. */
export function videoBinaryDataUrlPrefix(mimeType: string): string {
	return `data:${mimeType};base64,`;
}

export const VIDEO_SEED = 'seed';
export const VIDEO_CALLBACK_URL = 'callback_url';

/** vidA's vendor members go in `metadata` under the vendor's own names, for the gateway to forward. */
export const VIDEO_EXTENSIONS = 'metadata';
export const VIDEO_EXTENSION_MEMBERS = {
	cameraFixed: 'camera_fixed',
	watermark: 'watermark',
	returnLastFrame: 'return_last_frame',
	referenceTaskType: 'reference_task_type',
	outputFormat: 'output_format',
	serviceTier: 'service_tier',
	/** The integer 0-9 whose meaning the interface does not show; `priority` is a guess. */
	level: 'priority',
} as const;

/** Where a completed task's media URL is found inside `data` (not shown by the interface); first match wins. */
export const VIDEO_RESULT_URL_PATHS = ['url', 'video_url', 'video.url', '0.url', '0.video_url'] as const;
