import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { VideoModel } from './catalog';
import type { DisplayForOptions } from '../../../shared/catalog';
import { GENERIC_VIDEO_MODEL, videoCatalog } from './catalog';
import { modelListField } from '../descriptions';
import { field, labelledOptions, withModelDefault } from '../formFields';

/** The video form, built from the catalog: a field appears only for the models that accept it. */

/** Also shown for an uncatalogued ID when the generic rules accept it. */
export const forModels = (predicate: (model: VideoModel) => boolean, show?: DisplayForOptions['show']) =>
	videoCatalog.displayFor(predicate, { unknown: predicate(GENERIC_VIDEO_MODEL), show });

const FRAME_SOURCES = labelledOptions({ 'Image URL': 'url', 'Input Binary Field': 'binary' });

/** One options field per distinct value list; free text otherwise. */
function enumFields(
	name: 'aspectRatio' | 'resolution',
	displayName: string,
	valuesOf: (model: VideoModel) => readonly string[],
	description: string,
): INodeProperties[] {
	const groups = new Map<string, readonly string[]>();
	for (const model of videoCatalog.models) groups.set(valuesOf(model).join('|'), valuesOf(model));
	const lists = [...groups].map(([key, values]) =>
		field(displayName, name, 'options', {
			options: withModelDefault(values),
			default: '',
			description,
			displayOptions: videoCatalog.displayFor((model) => valuesOf(model).join('|') === key),
		}),
	);
	const free = field(displayName, name, 'string', {
		default: '',
		description: `${description} (sent as typed for a model this node does not know)`,
		displayOptions: videoCatalog.displayFor(() => false, { unknown: true }),
	});
	return [...lists, free];
}

function durationSummary(model: VideoModel): string {
	const { min, max } = model.duration;
	const parts = [`${min} to ${max} seconds`];
	if (model.editDuration) {
		parts.push(`${model.editDuration.min} to ${model.editDuration.max} when extending a video`);
	}
	if (model.editAutoDuration)
		parts.push('-1 in an edit or extend task lets the model follow the input video');
	return parts.join('; ');
}

export function durationOptions(model: VideoModel): INodePropertyOptions[] {
	const seconds: INodePropertyOptions[] = [];
	for (let value = Math.max(model.duration.min, 1); value <= model.duration.max; value++) {
		seconds.push({ name: String(value), value });
	}
	return [
		...(model.durationRequired
			? []
			: [{ name: 'Model Default', value: '', description: 'No duration is sent: the model chooses' }]),
		...seconds,
		...(model.editAutoDuration || model.duration.min < 0
			? [
					{
						name: '-1 (Edit or Extend: Follow the Input Video)',
						value: -1,
						description: 'Only for a task that edits or extends a source video',
					},
				]
			: []),
	];
}

/** The shortest, cheapest length. */
export const requiredDurationDefault = (model: VideoModel) => model.duration.min;

/**
 * One Duration list per distinct range. Not `required`: with the model as an
 * expression n8n shows every list, and a required one would stop other models'
 * items. The generic list comes last, so an expression's value is Model Default.
 */
function durationFields(): INodeProperties[] {
	const groups = new Map<string, VideoModel[]>();
	for (const model of videoCatalog.models) {
		const key = JSON.stringify(durationOptions(model));
		groups.set(key, [...(groups.get(key) ?? []), model]);
	}
	/** "vidC-1.1, vidC-1.0: 3 to 15 seconds. vidB: ..." */
	const ranges = (models: VideoModel[]) => {
		const bySummary = new Map<string, string[]>();
		for (const model of models) {
			const summary = durationSummary(model);
			bySummary.set(summary, [...(bySummary.get(summary) ?? []), model.id]);
		}
		return [...bySummary].map(([summary, ids]) => `${ids.join(', ')}: ${summary}`).join('. ');
	};
	const listFor = (models: VideoModel[], sample: VideoModel): INodeProperties => {
		const opening = sample.durationRequired ? requiredDurationDefault(sample) : '';
		return field('Duration (Seconds)', 'duration', 'options', {
			options: durationOptions(sample),
			default: opening,
			description: sample.durationRequired
				? `${ranges(models)}. Required: the model has no default duration.`
				: `${ranges(models)}. Model Default sends none and the model chooses.`,
			displayOptions: videoCatalog.displayFor((m) => models.includes(m)),
		});
	};
	const lists = [...groups.values()].map((models) => listFor(models, models[0]));
	const generic: INodeProperties = {
		...listFor([], GENERIC_VIDEO_MODEL),
		description:
			'For a model this node does not know: 1 to 30 seconds, or -1 in an edit or extend task (the gateway judges its own range). Model Default sends none and the model chooses.',
		displayOptions: videoCatalog.displayFor(() => false, { unknown: true }),
	};
	const required = lists.filter((list) => typeof list.default === 'number');
	return [...required, ...lists.filter((list) => !required.includes(list)), generic];
}

export const modelField: INodeProperties = modelListField(
	videoCatalog.searchListMethod,
	'vidA-2.5',
	'The video model. "By ID" accepts any model ID, alias or dated snapshot; an ID this node does not know is sent as typed with the generic fields.',
);

export const generationFields: INodeProperties[] = [
	modelField,
	field('Prompt', 'prompt', 'string', {
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: 'What the video shows (or, when editing, what to change)',
	}),
	...durationFields(),
	...enumFields('aspectRatio', 'Aspect Ratio', (m) => m.aspectRatios, 'Frame shape of the video'),
	...enumFields(
		'resolution',
		'Resolution',
		(m) => m.resolutions,
		'Output resolution (vidC-1.0 editing accepts 720p and 1080p only)',
	),
	field('Generate Audio', 'generateAudio', 'options', {
		options: labelledOptions({ 'Model Default': '', On: 'true', Off: 'false' }),
		default: '',
		description:
			'Whether the video gets a soundtrack. The default depends on the model and the upstream account.',
		displayOptions: forModels((m) => m.generateAudio),
	}),
	field('First Frame Source', 'firstFrameSource', 'options', {
		options: FRAME_SOURCES,
		default: 'url',
		description:
			'Where the first frame comes from: an address, or a binary of the input item (e.g. the image a previous step generated), sent as a data URL',
		displayOptions: forModels((m) => m.frames.first),
	}),
	field('First Frame Image URL', 'firstFrameUrl', 'string', {
		default: '',
		description:
			'Image the video starts from. Cannot be combined with References (frame mode and reference mode are exclusive).',
		displayOptions: forModels((m) => m.frames.first, { firstFrameSource: ['url'] }),
	}),
	field('First Frame Input Binary Field', 'firstFrameBinary', 'string', {
		default: 'data',
		description:
			'Binary property of the input item holding the first frame (an image). Cannot be combined with References.',
		displayOptions: forModels((m) => m.frames.first, { firstFrameSource: ['binary'] }),
	}),
	field('Last Frame Source', 'lastFrameSource', 'options', {
		options: FRAME_SOURCES,
		default: 'url',
		description: 'Where the last frame comes from: an address, or a binary of the input item',
		displayOptions: forModels((m) => m.frames.last),
	}),
	field('Last Frame Image URL', 'lastFrameUrl', 'string', {
		default: '',
		description: 'Image the video ends on',
		displayOptions: forModels((m) => m.frames.last, { lastFrameSource: ['url'] }),
	}),
	field('Last Frame Input Binary Field', 'lastFrameBinary', 'string', {
		default: 'data',
		description: 'Binary property of the input item holding the last frame (an image)',
		displayOptions: forModels((m) => m.frames.last, { lastFrameSource: ['binary'] }),
	}),
	field('References', 'references', 'fixedCollection', {
		typeOptions: { multipleValues: true },
		placeholder: 'Add Reference',
		default: {},
		description:
			'Reference material (reference mode). Limits: vidA-2.5 50, vidA-2.0 15; vidB 7 pictures (vidB-1.5: 1 picture + up to 3 voices; vidB: 1 source video to extend); vidC 1-9 images (vidC-1.0 editor: 1 source video + up to 5 images); vidD-h3 9 images, 3 videos, 3 audios.',
		displayOptions: forModels((m) => m.references.max > 0),
		options: [
			{
				displayName: 'Reference',
				name: 'reference',
				values: [
					field('Input Binary Field', 'binaryProperty', 'string', {
						default: 'data',
						description: 'Binary property of the input item holding the image, video or audio file',
						displayOptions: { show: { source: ['binary'] } },
					}),
					field('Material Type', 'kind', 'options', {
						options: labelledOptions({ Image: 'image', Video: 'video', Audio: 'audio' }),
						default: 'image',
					}),
					field('Preset Voice ID', 'voiceId', 'string', {
						default: '',
						description: 'Only for audio items on models with voice references (vidB-1.5)',
					}),
					field('Role', 'role', 'options', {
						options: labelledOptions({
							'First Clip (Extend)': 'first_clip',
							'Inferred From Material Type': '',
							'Reference Audio': 'reference_audio',
							'Reference Image': 'reference_image',
							'Reference Video': 'reference_video',
							'Source Video (Edit)': 'source_video',
						}),
						default: '',
						description:
							'How the model uses the item. vidA:	all five;	vidB:	reference image, source video, first clip, reference audio;	vidC:	reference image, source video;	vidD:	reference image/video/audio.',
					}),
					field('Source', 'source', 'options', {
						options: labelledOptions({ URL: 'url', 'Input Binary Field': 'binary' }),
						default: 'url',
						description:
							'An address, or a binary of the input item (sent as a data URL;	its MIME type must match the Material Type)',
					}),
					field('URL', 'url', 'string', {
						default: '',
						description: 'Address of the image, video or audio file',
						displayOptions: { show: { source: ['url'] } },
					}),
				],
			},
		],
	}),
];
