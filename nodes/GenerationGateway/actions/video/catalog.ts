import type { CatalogModel } from '../../../shared/catalog';
import { defineCatalog } from '../../../shared/catalog';

/** The video models of POST /v1/videos as data; nothing else knows a model by name. */

export type VideoFamily = 'vidA' | 'vidB' | 'vidC' | 'vidD';
export type MaterialKind = 'image' | 'video' | 'audio';

export interface Range {
	min: number;
	max: number;
}

export interface ReferenceRules {
	/** 0: no reference mode. */
	max: number;
	/** An absent kind is not accepted. */
	perKind: Partial<Record<MaterialKind, number>>;
	roles: readonly string[];
	/** Roles that make the task an edit or an extension of a source video. */
	editRoles?: readonly string[];
	imagesWithSourceVideo?: number;
	minImages?: number;
	voices?: boolean;
}

export interface VideoModel extends CatalogModel {
	family: VideoFamily;
	duration: Range;
	durationRequired?: boolean;
	editDuration?: Range;
	/** Edit/extend tasks may send -1 ("let the model decide from the input"). */
	editAutoDuration?: boolean;
	resolutions: readonly string[];
	editResolutions?: readonly string[];
	aspectRatios: readonly string[];
	generateAudio: boolean;
	seed: boolean;
	frames: { first: boolean; last: boolean };
	references: ReferenceRules;
	/** Exactly one picture (frame or reference image). */
	exactlyOnePicture?: boolean;
	extensions: boolean;
}

const VID_A_RATIOS = ['adaptive', '16:9', '9:16', '1:1', '4:3', '3:4', '21:9'] as const;
const VID_A_ROLES = ['reference_image', 'reference_video', 'reference_audio', 'source_video', 'first_clip'];
const VID_B_RATIOS = ['2:3', '3:2', '1:1', '9:16', '16:9'] as const;
const VID_B_ROLES = ['reference_image', 'source_video', 'first_clip', 'reference_audio'];
/** What every vidB model shares. */
const VID_B = {
	family: 'vidB',
	aspectRatios: VID_B_RATIOS,
	generateAudio: false,
	seed: false,
	extensions: false,
} as const;
const VID_C_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '4:5', '5:4', '21:9', '9:21'] as const;
const VID_C_ROLES = ['reference_image', 'source_video'];
const VID_D_RATIOS = ['adaptive', '21:9', '16:9', '4:3', '1:1', '3:4', '9:16'] as const;
const VID_D_ROLES = ['reference_image', 'reference_video', 'reference_audio'];

const vidA = (id: string, duration: Range, resolutions: string[], referenceMax: number): VideoModel => ({
	id,
	name: id,
	family: 'vidA',
	duration,
	// The mini model has no edit or extend mode.
	editAutoDuration: referenceMax > 0,
	resolutions,
	aspectRatios: VID_A_RATIOS,
	generateAudio: true,
	seed: true,
	frames: { first: true, last: true },
	references: {
		max: referenceMax,
		perKind: referenceMax ? { image: referenceMax, video: referenceMax, audio: referenceMax } : {},
		roles: VID_A_ROLES,
		editRoles: ['source_video', 'first_clip'],
	},
	extensions: true,
});

export const VIDEO_MODELS: readonly VideoModel[] = [
	vidA('vidA-2.5', { min: 4, max: 30 }, ['480p', '720p', '1080p'], 50),
	vidA('vidA-2.0', { min: 4, max: 15 }, ['480p', '720p', '1080p', '4K'], 15),
	vidA('vidA-2.0-mini', { min: 4, max: 15 }, ['480p', '720p'], 0),
	{
		...VID_B,
		id: 'vidB-1.5-fast',
		name: 'vidB-1.5-fast',
		description: 'Unofficial high-speed channel',
		duration: { min: 6, max: 30 },
		resolutions: ['480p', '720p'],
		frames: { first: true, last: true },
		references: { max: 7, perKind: { image: 7 }, roles: VID_B_ROLES },
	},
	{
		...VID_B,
		id: 'vidB-1.5',
		name: 'vidB-1.5',
		duration: { min: 1, max: 15 },
		resolutions: ['480p', '720p', '1080p'],
		frames: { first: true, last: false },
		references: { max: 4, perKind: { image: 1, audio: 3 }, roles: VID_B_ROLES, voices: true },
		exactlyOnePicture: true,
	},
	{
		...VID_B,
		id: 'vidB',
		name: 'vidB',
		duration: { min: 1, max: 15 },
		// "vidB extension 1-10": a source video makes the task an extension.
		editDuration: { min: 1, max: 10 },
		resolutions: ['480p', '720p'],
		frames: { first: true, last: false },
		references: {
			max: 7,
			perKind: { image: 7, video: 1 },
			roles: VID_B_ROLES,
			editRoles: ['source_video', 'first_clip'],
		},
	},
	...(['vidC-1.1', 'vidC-1.0'] as const).map(
		(id): VideoModel => ({
			id,
			name: id,
			family: 'vidC',
			duration: { min: 3, max: 15 },
			resolutions: ['480p', '720p', '1080p'],
			editResolutions: id === 'vidC-1.0' ? ['720p', '1080p'] : undefined,
			aspectRatios: VID_C_RATIOS,
			generateAudio: false,
			seed: true,
			frames: { first: true, last: false },
			references: {
				max: 9,
				perKind: id === 'vidC-1.0' ? { image: 9, video: 1 } : { image: 9 },
				roles: VID_C_ROLES,
				editRoles: id === 'vidC-1.0' ? ['source_video'] : undefined,
				imagesWithSourceVideo: 5,
				minImages: 1,
			},
			extensions: false,
		}),
	),
	{
		id: 'vidD-h3',
		name: 'vidD-h3',
		family: 'vidD',
		duration: { min: 4, max: 15 },
		durationRequired: true,
		resolutions: ['768p', '2K'],
		aspectRatios: VID_D_RATIOS,
		generateAudio: false,
		seed: false,
		frames: { first: true, last: true },
		references: { max: 15, perKind: { image: 9, video: 3, audio: 3 }, roles: VID_D_ROLES },
		extensions: false,
	},
];

export const videoCatalog = defineCatalog(VIDEO_MODELS, 'searchVideoModels');

/** For an uncatalogued model ID: the union of the families; the gateway judges. */
export const GENERIC_VIDEO_MODEL: VideoModel = {
	id: '',
	name: 'Other model',
	family: 'vidA',
	duration: { min: -1, max: 30 },
	resolutions: ['480p', '720p', '1080p', '4K', '768p', '2K'],
	aspectRatios: [...new Set([...VID_A_RATIOS, ...VID_B_RATIOS, ...VID_C_RATIOS, ...VID_D_RATIOS])],
	generateAudio: true,
	seed: true,
	frames: { first: true, last: true },
	references: {
		max: 50,
		perKind: { image: 50, video: 50, audio: 50 },
		roles: [...new Set([...VID_A_ROLES, ...VID_B_ROLES, ...VID_C_ROLES, ...VID_D_ROLES])],
		voices: true,
	},
	extensions: true,
};

/** A role on the wrong kind of URL is refused. */
export const ROLE_KIND: Record<string, MaterialKind> = {
	reference_image: 'image',
	reference_video: 'video',
	reference_audio: 'audio',
	source_video: 'video',
	first_clip: 'video',
};
