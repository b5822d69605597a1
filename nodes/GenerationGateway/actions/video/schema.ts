import { z } from 'zod';

import {
	VIDEO_CALLBACK_URL,
	VIDEO_EXTENSIONS,
	VIDEO_EXTENSION_MEMBERS as EXT,
	VIDEO_FRAME_IMAGES,
	VIDEO_FRAME_IMAGE_URL,
	VIDEO_FRAME_TYPE,
	VIDEO_FRAME_TYPES,
	VIDEO_INPUT_REFERENCES,
	VIDEO_REFERENCE_ROLE,
	VIDEO_REFERENCE_TYPE,
	VIDEO_REFERENCE_URL,
	VIDEO_REFERENCE_VOICE,
	VIDEO_SEED,
} from './wireNames';
import type { MaterialKind, VideoModel } from './catalog';
import { ROLE_KIND } from './catalog';
import { addIssue } from '../../../shared/validation';

/** One zod schema per model: the shapes every family shares, then the model's catalog row. */

const url = z.string().min(1, 'must not be empty');
const frameItem = z.object({
	[VIDEO_FRAME_IMAGE_URL]: url,
	[VIDEO_FRAME_TYPE]: z.enum([VIDEO_FRAME_TYPES.first, VIDEO_FRAME_TYPES.last]),
});
const referenceItem = z
	.object({
		[VIDEO_REFERENCE_TYPE]: z.enum(['image_url', 'video_url', 'audio_url']).optional(),
		[VIDEO_REFERENCE_URL.image]: url.optional(),
		[VIDEO_REFERENCE_URL.video]: url.optional(),
		[VIDEO_REFERENCE_URL.audio]: url.optional(),
		[VIDEO_REFERENCE_ROLE]: z.string().optional(),
		[VIDEO_REFERENCE_VOICE]: z.string().min(1, 'must not be empty').optional(),
	})
	.passthrough();
type ReferenceItem = z.infer<typeof referenceItem>;

/** Undefined when the item carries no URL or several. */
export function referenceKind(item: ReferenceItem): MaterialKind | undefined {
	const kinds = (Object.keys(VIDEO_REFERENCE_URL) as MaterialKind[]).filter(
		(kind) => item[VIDEO_REFERENCE_URL[kind]] !== undefined,
	);
	return kinds.length === 1 ? kinds[0] : undefined;
}

/** A reference without a role is read as `reference_<kind>`. */
const defaultRole = (kind: MaterialKind) => `reference_${kind}`;

const int = (min: number, max: number) =>
	z
		.number()
		.int('must be a whole number')
		.min(min, `must be ${min} to ${max}`)
		.max(max, `must be ${min} to ${max}`);

const extensionSchema = z
	.object({
		[EXT.cameraFixed]: z.boolean().optional(),
		[EXT.watermark]: z.boolean().optional(),
		[EXT.returnLastFrame]: z.boolean().optional(),
		[EXT.referenceTaskType]: z.enum(['auto', 'reference', 'edit', 'extend']).optional(),
		[EXT.outputFormat]: z.enum(['mp4', 'mov']).optional(),
		[EXT.serviceTier]: z.enum(['default', 'flex']).optional(),
		[EXT.level]: int(0, 9).optional(),
	})
	.passthrough();
export type VideoExtensions = z.infer<typeof extensionSchema>;

const baseSchema = z
	.object({
		model: z.string().min(1, 'must not be empty'),
		prompt: z.string().min(1, 'must not be empty'),
		duration: z.number().int('must be a whole number').optional(),
		aspect_ratio: z.string().optional(),
		resolution: z.string().optional(),
		generate_audio: z.boolean().optional(),
		[VIDEO_FRAME_IMAGES]: z.array(frameItem).max(2, 'at most 2 images').optional(),
		[VIDEO_INPUT_REFERENCES]: z.array(referenceItem).optional(),
		[VIDEO_SEED]: int(-1, 2147483647).optional(),
		[VIDEO_CALLBACK_URL]: z
			.string()
			.regex(/^https:\/\//, 'must start with https:// (the gateway calls only https addresses)')
			.optional(),
		[VIDEO_EXTENSIONS]: z.record(z.unknown()).optional(),
	})
	.passthrough();

export type VideoBody = z.infer<typeof baseSchema>;

const list = (values: readonly string[]) => values.join(', ');

/** An edit or extension of a source video has other duration and resolution rules. */
export function isEditTask(model: VideoModel, body: VideoBody): boolean {
	const roles = (body[VIDEO_INPUT_REFERENCES] ?? []).map((item) => item[VIDEO_REFERENCE_ROLE]);
	const taskType = (body[VIDEO_EXTENSIONS] as Record<string, unknown> | undefined)?.[EXT.referenceTaskType];
	return (
		roles.some((role) => role !== undefined && (model.references.editRoles ?? []).includes(role)) ||
		taskType === 'edit' ||
		taskType === 'extend'
	);
}

export function videoBodySchema(model: VideoModel) {
	return baseSchema.superRefine((body, ctx) => {
		const issue = (path: Array<string | number>, message: string) => addIssue(ctx, path, message);
		/** On the References list, or on its item at `index`. */
		const referencesIssue = (message: string, index?: number) =>
			issue(index === undefined ? [VIDEO_INPUT_REFERENCES] : [VIDEO_INPUT_REFERENCES, index], message);
		const name = model.id || 'this model';
		const editing = isEditTask(model, body);

		// Duration: required on vidD; the range depends on the model and on edit/extend.
		if (body.duration === undefined) {
			if (model.durationRequired)
				issue(['duration'], `is required for ${name} (${model.duration.min}-${model.duration.max})`);
		} else {
			const range = (editing && model.editDuration) || model.duration;
			const auto = editing && model.editAutoDuration && body.duration === -1;
			if (!auto && (body.duration < range.min || body.duration > range.max)) {
				const extra = model.editAutoDuration ? '; -1 only for edit or extend tasks' : '';
				issue(
					['duration'],
					`must be ${range.min}-${range.max} seconds for ${name}${editing ? ' when editing or extending' : ''}${extra}`,
				);
			}
		}
		const resolutions = (editing && model.editResolutions) || model.resolutions;
		if (body.resolution !== undefined && !resolutions.includes(body.resolution)) {
			issue(
				['resolution'],
				`${name} accepts ${list(resolutions)}${editing && model.editResolutions ? ' when editing' : ''}`,
			);
		}
		if (body.aspect_ratio !== undefined && !model.aspectRatios.includes(body.aspect_ratio)) {
			issue(['aspect_ratio'], `${name} accepts ${list(model.aspectRatios)}`);
		}
		if (body.generate_audio !== undefined && !model.generateAudio) {
			issue(['generate_audio'], `${name} has no audio switch (audio is decided by the model)`);
		}

		// First/last frames: at most one of each kind; some models take no last frame.
		const frames = body[VIDEO_FRAME_IMAGES] ?? [];
		const firsts = frames.filter((f) => f[VIDEO_FRAME_TYPE] === VIDEO_FRAME_TYPES.first).length;
		const lasts = frames.length - firsts;
		if (firsts > 1 || lasts > 1) issue([VIDEO_FRAME_IMAGES], 'at most one first frame and one last frame');
		if (lasts > 0 && !model.frames.last)
			issue([VIDEO_FRAME_IMAGES], `${name} takes no last frame (first frame only)`);

		// References: item shape, roles, counts per kind and in all.
		const refs = body[VIDEO_INPUT_REFERENCES] ?? [];
		if (refs.length && frames.length) {
			referencesIssue(
				'cannot be combined with first/last frame images (reference mode and frame mode are exclusive)',
			);
		}
		const rules = model.references;
		if (refs.length && rules.max === 0) referencesIssue(`${name} has no reference, edit or extend mode`);
		else if (refs.length > rules.max) referencesIssue(`${name} accepts at most ${rules.max} items`);
		const counts: Record<MaterialKind, number> = { image: 0, video: 0, audio: 0 };
		let sourceVideos = 0;
		refs.forEach((item, index) => {
			const kind = referenceKind(item);
			if (!kind) return referencesIssue('needs exactly one URL (image, video or audio)', index);
			counts[kind]++;
			const type = item[VIDEO_REFERENCE_TYPE];
			if (type !== undefined && type !== VIDEO_REFERENCE_URL[kind]) {
				referencesIssue(`material type "${type}" does not match its ${kind} URL`, index);
			}
			const role = item[VIDEO_REFERENCE_ROLE] ?? defaultRole(kind);
			if (!rules.roles.includes(role)) {
				const given =
					item[VIDEO_REFERENCE_ROLE] === undefined
						? `a ${kind} without a role (read as ${role})`
						: `role "${role}"`;
				referencesIssue(`${name} does not accept ${given}; roles: ${list(rules.roles)}`, index);
			} else if (ROLE_KIND[role] !== kind) {
				referencesIssue(`role "${role}" needs a ${ROLE_KIND[role]} URL, not a ${kind} URL`, index);
			}
			if (role === 'source_video' || role === 'first_clip') sourceVideos++;
			if (item[VIDEO_REFERENCE_VOICE] !== undefined && !(rules.voices && kind === 'audio')) {
				referencesIssue(
					'a preset voice is accepted only on audio items of models with voice references',
					index,
				);
			}
		});
		if (rules.max > 0) {
			for (const kind of Object.keys(counts) as MaterialKind[]) {
				const allowed = rules.perKind[kind] ?? 0;
				if (counts[kind] > allowed) {
					referencesIssue(
						allowed ? `${name} accepts at most ${allowed} ${kind} items` : `${name} accepts no ${kind} items`,
					);
				}
			}
			if (sourceVideos > 1) referencesIssue('at most one source video');
			const withSource = rules.imagesWithSourceVideo;
			if (sourceVideos && withSource !== undefined && counts.image > withSource) {
				referencesIssue(`with a source video ${name} accepts at most ${withSource} images`);
			}
			if (!sourceVideos && refs.length && rules.minImages !== undefined && counts.image < rules.minImages) {
				referencesIssue(`${name} needs at least ${rules.minImages} reference image`);
			}
		}
		if (model.exactlyOnePicture && firsts + lasts + counts.image !== 1) {
			referencesIssue(`${name} needs exactly 1 picture (a first frame or one reference image)`);
		}

		// vidA's extension object: typed members; other families' extension members are not shown.
		const ext = body[VIDEO_EXTENSIONS];
		if (ext !== undefined && model.extensions) {
			const parsed = extensionSchema.safeParse(ext);
			if (!parsed.success) {
				for (const sub of parsed.error.issues) issue([VIDEO_EXTENSIONS, ...sub.path], sub.message);
			}
			const taskType = (ext as Record<string, unknown>)[EXT.referenceTaskType];
			if (rules.max === 0 && (taskType === 'edit' || taskType === 'extend')) {
				issue([VIDEO_EXTENSIONS, EXT.referenceTaskType], `${name} has no edit or extend mode`);
			}
		}
	});
}
