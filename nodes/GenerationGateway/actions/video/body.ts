import type { IDataObject } from 'n8n-workflow';
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
import { GENERIC_VIDEO_MODEL, videoCatalog } from './catalog';
import type { VideoExtensions } from './schema';

/** The video body from the form's values, without n8n; schema.ts checks it against the model's row. */

export interface VideoReferenceInput {
	kind: MaterialKind;
	url: string;
	role?: string;
	voiceId?: string;
}

/** vidA's extension members under their form names, typed as schema.ts checks them. */
export type VideoExtensionsInput = { [name in keyof typeof EXT]?: VideoExtensions[(typeof EXT)[name]] };

export interface VideoInput {
	model: string;
	prompt: string;
	duration?: number;
	aspectRatio?: string;
	resolution?: string;
	generateAudio?: boolean;
	firstFrameUrl?: string;
	lastFrameUrl?: string;
	references?: VideoReferenceInput[];
	seed?: number;
	callbackUrl?: string;
	extensions?: VideoExtensionsInput;
}

export const VIDEO_LABELS: Record<string, string> = {
	model: 'Model',
	prompt: 'Prompt',
	duration: 'Duration (Seconds)',
	aspect_ratio: 'Aspect Ratio',
	resolution: 'Resolution',
	generate_audio: 'Generate Audio',
	[VIDEO_FRAME_IMAGES]: 'First/Last Frame Images',
	[VIDEO_INPUT_REFERENCES]: 'References',
	[VIDEO_SEED]: 'Seed',
	[VIDEO_CALLBACK_URL]: 'Callback URL',
	[VIDEO_EXTENSIONS]: 'vidA Extensions',
	[`${VIDEO_EXTENSIONS}.${EXT.cameraFixed}`]: 'vidA Extensions: Fixed Camera',
	[`${VIDEO_EXTENSIONS}.${EXT.watermark}`]: 'vidA Extensions: Watermark',
	[`${VIDEO_EXTENSIONS}.${EXT.returnLastFrame}`]: 'vidA Extensions: Return Last Frame',
	[`${VIDEO_EXTENSIONS}.${EXT.referenceTaskType}`]: 'vidA Extensions: Reference Task Type',
	[`${VIDEO_EXTENSIONS}.${EXT.outputFormat}`]: 'vidA Extensions: Output Container',
	[`${VIDEO_EXTENSIONS}.${EXT.serviceTier}`]: 'vidA Extensions: Service Level',
	[`${VIDEO_EXTENSIONS}.${EXT.level}`]: 'vidA Extensions: Upstream Integer (0-9)',
};

const put = (body: IDataObject, key: string, value: unknown) => {
	if (value !== undefined && value !== '') body[key] = value as IDataObject[string];
};

export function buildVideoBody(input: VideoInput): IDataObject {
	const body: IDataObject = { model: input.model.trim(), prompt: input.prompt };
	put(body, 'duration', input.duration);
	put(body, 'aspect_ratio', input.aspectRatio);
	put(body, 'resolution', input.resolution);
	put(body, 'generate_audio', input.generateAudio);
	const frames = (['first', 'last'] as const).flatMap((which) => {
		const url = input[`${which}FrameUrl`];
		return url ? [{ [VIDEO_FRAME_IMAGE_URL]: url, [VIDEO_FRAME_TYPE]: VIDEO_FRAME_TYPES[which] }] : [];
	});
	if (frames.length) body[VIDEO_FRAME_IMAGES] = frames;
	if (input.references?.length) {
		body[VIDEO_INPUT_REFERENCES] = input.references.map((ref) => {
			const item: IDataObject = {
				[VIDEO_REFERENCE_TYPE]: VIDEO_REFERENCE_URL[ref.kind],
				[VIDEO_REFERENCE_URL[ref.kind]]: ref.url,
			};
			put(item, VIDEO_REFERENCE_ROLE, ref.role);
			put(item, VIDEO_REFERENCE_VOICE, ref.voiceId);
			return item;
		});
	}
	put(body, VIDEO_SEED, input.seed);
	put(body, VIDEO_CALLBACK_URL, input.callbackUrl);
	const metadata: IDataObject = {};
	for (const [name, wire] of Object.entries(EXT)) {
		put(metadata, wire, input.extensions?.[name as keyof VideoExtensionsInput]);
	}
	if (Object.keys(metadata).length) body[VIDEO_EXTENSIONS] = metadata;
	return body;
}

export function videoModelFor(modelId: string): VideoModel {
	return videoCatalog.resolve(modelId) ?? GENERIC_VIDEO_MODEL;
}
