import { invalid } from '../http';
import { checkMediaUrl } from '../media/inline';

/**
 * The simulator's own reading of "POST /v1/videos" (written apart from the
 * package's schemas on purpose, so a shared mistake cannot hide). Throws the
 * 400 error envelope with the offending member in `param`.
 */

interface Rules {
	durations: [number, number];
	editDurations?: [number, number];
	autoWhenEditing?: boolean;
	durationRequired?: boolean;
	resolutions: string[];
	editResolutions?: string[];
	ratios: string[];
	audioSwitch: boolean;
	lastFrame: boolean;
	refMax: number;
	kinds: { image?: number; video?: number; audio?: number };
	roles: string[];
	editRoles: string[];
	voices?: boolean;
	onePicture?: boolean;
	imagesWithSource?: number;
	minImages?: number;
}

const A_RATIOS = ['adaptive', '16:9', '9:16', '1:1', '4:3', '3:4', '21:9'];
const A_ROLES = ['reference_image', 'reference_video', 'reference_audio', 'source_video', 'first_clip'];
const B_RATIOS = ['2:3', '3:2', '1:1', '9:16', '16:9'];
const B_ROLES = ['reference_image', 'source_video', 'first_clip', 'reference_audio'];
const C_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '21:9', '9:21'];
const C_ROLES = ['reference_image', 'source_video'];

const vidA = (max: number, resolutions: string[], refMax: number): Rules => ({
	durations: [4, max],
	autoWhenEditing: refMax > 0,
	resolutions,
	ratios: A_RATIOS,
	audioSwitch: true,
	lastFrame: true,
	refMax,
	kinds: { image: refMax, video: refMax, audio: refMax },
	roles: A_ROLES,
	editRoles: ['source_video', 'first_clip'],
});
const vidC = (editor: boolean): Rules => ({
	durations: [3, 15],
	resolutions: ['480p', '720p', '1080p'],
	editResolutions: editor ? ['720p', '1080p'] : undefined,
	ratios: C_RATIOS,
	audioSwitch: false,
	lastFrame: false,
	refMax: 9,
	kinds: editor ? { image: 9, video: 1 } : { image: 9 },
	roles: C_ROLES,
	editRoles: editor ? ['source_video'] : [],
	imagesWithSource: 5,
	minImages: 1,
});

export const MODELS: Record<string, Rules> = {
	'vidA-2.5': vidA(30, ['480p', '720p', '1080p'], 50),
	'vidA-2.0': vidA(15, ['480p', '720p', '1080p', '4K'], 15),
	'vidA-2.0-mini': vidA(15, ['480p', '720p'], 0),
	'vidB-1.5-fast': {
		durations: [6, 30],
		resolutions: ['480p', '720p'],
		ratios: B_RATIOS,
		audioSwitch: false,
		lastFrame: true,
		refMax: 7,
		kinds: { image: 7 },
		roles: B_ROLES,
		editRoles: [],
	},
	'vidB-1.5': {
		durations: [1, 15],
		resolutions: ['480p', '720p', '1080p'],
		ratios: B_RATIOS,
		audioSwitch: false,
		lastFrame: false,
		refMax: 4,
		kinds: { image: 1, audio: 3 },
		roles: B_ROLES,
		editRoles: [],
		voices: true,
		onePicture: true,
	},
	vidB: {
		durations: [1, 15],
		editDurations: [1, 10],
		resolutions: ['480p', '720p'],
		ratios: B_RATIOS,
		audioSwitch: false,
		lastFrame: false,
		refMax: 7,
		kinds: { image: 7, video: 1 },
		roles: B_ROLES,
		editRoles: ['source_video', 'first_clip'],
	},
	'vidC-1.1': vidC(false),
	'vidC-1.0': vidC(true),
	'vidD-h3': {
		durations: [4, 15],
		durationRequired: true,
		resolutions: ['768p', '2K'],
		ratios: ['adaptive', '21:9', '16:9', '4:3', '1:1', '3:4', '9:16'],
		audioSwitch: false,
		lastFrame: true,
		refMax: 15,
		kinds: { image: 9, video: 3, audio: 3 },
		roles: ['reference_image', 'reference_video', 'reference_audio'],
		editRoles: [],
	},
};

const KIND_ROLE: Record<string, string> = {
	image: 'reference_image',
	video: 'reference_video',
	audio: 'reference_audio',
};
const ROLE_NEEDS: Record<string, string> = {
	reference_image: 'image',
	reference_video: 'video',
	reference_audio: 'audio',
	source_video: 'video',
	first_clip: 'video',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
	!!v && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * A member's value as text for a message or a lookup. `String()` throws for an
 * object such as `{"toString": []}` (the request would end in a 500, not the 400
 * it deserves); JSON never does.
 */
const shown = (value: unknown): string => (typeof value === 'string' ? value : String(JSON.stringify(value)));

/** The model's id without a dated snapshot suffix. */
export function baseModel(id: string): string {
	return id.replace(/-\d{4}-\d{2}-\d{2}$/, '');
}

export function validateVideoCreate(body: unknown): void {
	if (!isObject(body)) invalid('body', 'The body must be a JSON object');
	const model = body.model;
	// Own members only: "toString" or "constructor" are not models.
	if (typeof model !== 'string' || !Object.hasOwn(MODELS, baseModel(model))) {
		invalid(
			'model',
			`Unknown video model: ${shown(model)}; known: ${Object.keys(MODELS).join(', ')}`,
			'model_not_found',
		);
	}
	const rules = MODELS[baseModel(model)];
	if (typeof body.prompt !== 'string' || body.prompt.length < 1)
		invalid('prompt', 'prompt must be a non-empty string');

	const frames = body.frame_images;
	const refs = body.input_references;
	if (frames !== undefined && !Array.isArray(frames))
		invalid('frame_images', 'frame_images must be an array');
	if (refs !== undefined && !Array.isArray(refs))
		invalid('input_references', 'input_references must be an array');
	const frameList = (frames ?? []) as unknown[];
	const refList = (refs ?? []) as unknown[];
	if (frameList.length && refList.length) {
		invalid('input_references', 'Reference mode cannot be mixed with first/last-frame mode', 'mode_conflict');
	}

	const meta = body.metadata;
	const taskType = isObject(meta) ? meta.reference_task_type : undefined;
	const editing =
		refList.some((r) => isObject(r) && rules.editRoles.includes(shown(r.role))) ||
		taskType === 'edit' ||
		taskType === 'extend';

	if (body.duration === undefined) {
		if (rules.durationRequired) invalid('duration', 'duration is required for this model');
	} else {
		const [min, max] = (editing && rules.editDurations) || rules.durations;
		const ok =
			isInt(body.duration) &&
			((body.duration >= min && body.duration <= max) ||
				(editing && rules.autoWhenEditing && body.duration === -1));
		if (!ok) invalid('duration', `duration must be an integer ${min}-${max} for ${model}`);
	}
	const resolutions = (editing && rules.editResolutions) || rules.resolutions;
	if (body.resolution !== undefined && !resolutions.includes(shown(body.resolution))) {
		invalid('resolution', `resolution must be one of ${resolutions.join(', ')} for ${model}`);
	}
	if (body.aspect_ratio !== undefined && !rules.ratios.includes(shown(body.aspect_ratio))) {
		invalid('aspect_ratio', `aspect_ratio must be one of ${rules.ratios.join(', ')}`);
	}
	if (body.generate_audio !== undefined && (!rules.audioSwitch || typeof body.generate_audio !== 'boolean')) {
		invalid('generate_audio', `generate_audio is not accepted by ${model}`);
	}
	if (body.seed !== undefined && (!isInt(body.seed) || body.seed < -1 || body.seed > 2147483647)) {
		invalid('seed', 'seed must be an integer -1 to 2147483647');
	}
	if (
		body.callback_url !== undefined &&
		(typeof body.callback_url !== 'string' || !body.callback_url.startsWith('https://'))
	) {
		invalid('callback_url', 'callback_url must start with https://');
	}

	if (frameList.length > 2) invalid('frame_images', 'at most 2 frame images');
	const kinds = frameList.map((f) => (isObject(f) ? f.frame_type : undefined));
	for (const f of frameList) {
		if (!isObject(f) || typeof f.image_url !== 'string' || !f.image_url)
			invalid('frame_images', 'each frame needs image_url');
		checkMediaUrl('frame_images', String(f.image_url), 'image');
		if (f.frame_type !== 'first_frame' && f.frame_type !== 'last_frame')
			invalid('frame_images', 'frame_type must be first_frame or last_frame');
	}
	if (new Set(kinds).size !== kinds.length) invalid('frame_images', 'at most one frame of each kind');
	if (!rules.lastFrame && kinds.includes('last_frame'))
		invalid('frame_images', `${model} does not take a last frame`);

	if (refList.length > rules.refMax)
		invalid('input_references', `${model} accepts at most ${rules.refMax} references`);
	const count: Record<string, number> = { image: 0, video: 0, audio: 0 };
	let sources = 0;
	for (const ref of refList) {
		if (!isObject(ref)) invalid('input_references', 'each reference must be an object');
		const present = ['image', 'video', 'audio'].filter((k) => ref[`${k}_url`] !== undefined);
		if (present.length !== 1)
			invalid('input_references', 'each reference carries exactly one of image_url, video_url, audio_url');
		const kind = present[0];
		if (typeof ref[`${kind}_url`] !== 'string' || !ref[`${kind}_url`])
			invalid('input_references', `${kind}_url must be a non-empty string`);
		checkMediaUrl('input_references', String(ref[`${kind}_url`]), kind);
		if (ref.type !== undefined && ref.type !== `${kind}_url`)
			invalid('input_references', `type ${shown(ref.type)} does not match ${kind}_url`);
		const role = ref.role === undefined ? KIND_ROLE[kind] : shown(ref.role);
		if (!rules.roles.includes(role) || ROLE_NEEDS[role] !== kind)
			invalid('input_references', `role ${role} is not accepted here`);
		if (ref.voice_id !== undefined && (!rules.voices || kind !== 'audio'))
			invalid('input_references', 'voice_id is not supported');
		if (role === 'source_video' || role === 'first_clip') sources++;
		count[kind]++;
	}
	for (const kind of Object.keys(count)) {
		if (count[kind] > (rules.kinds[kind as 'image'] ?? 0))
			invalid('input_references', `too many ${kind} references for ${model}`);
	}
	if (sources > 1) invalid('input_references', 'at most one source video');
	if (sources && rules.imagesWithSource !== undefined && count.image > rules.imagesWithSource)
		invalid('input_references', 'too many images for editing');
	if (!sources && refList.length && rules.minImages && count.image < rules.minImages)
		invalid('input_references', 'at least one reference image');
	if (rules.onePicture && count.image + frameList.length !== 1)
		invalid('input_references', `${model} needs exactly one picture`);

	if (meta !== undefined && !isObject(meta)) invalid('metadata', 'metadata must be an object');
	if (isObject(meta) && baseModel(model).startsWith('vidA')) {
		const enumOf = (key: string, values: unknown[]) => {
			if (meta[key] !== undefined && !values.includes(meta[key]))
				invalid(`metadata.${key}`, `${key} must be one of ${values.join(', ')}`);
		};
		for (const key of ['camera_fixed', 'watermark', 'return_last_frame']) enumOf(key, [true, false]);
		enumOf('reference_task_type', ['auto', 'reference', 'edit', 'extend']);
		enumOf('output_format', ['mp4', 'mov']);
		enumOf('service_tier', ['default', 'flex']);
		if (meta.priority !== undefined && !(isInt(meta.priority) && meta.priority >= 0 && meta.priority <= 9))
			invalid('metadata.priority', 'priority must be 0-9');
		if (rules.refMax === 0 && (taskType === 'edit' || taskType === 'extend'))
			invalid('metadata.reference_task_type', `${model} cannot edit or extend`);
	}
}
