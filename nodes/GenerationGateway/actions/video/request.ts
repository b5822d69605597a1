import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readModelForm } from '../../../shared/modelFields';
import { assertValid } from '../../../shared/validation';
import { videoCatalog } from './catalog';
import { generationFields } from './fields';
import { createOptionsField } from './options';
import type { VideoExtensionsInput, VideoInput, VideoReferenceInput } from './body';
import { VIDEO_LABELS, buildVideoBody, videoBodySchema, videoModelFor } from './body';
import { readAdditionalBody, withAdditionalBody } from '../descriptions';

/** Reads the Create form for one item, builds the body, merges Additional Body Fields, checks it all. */
/** The Create form as each item's model sees it: a field the model rejects is refused (shared/modelFields). */
const VIDEO_FORM = { properties: [...generationFields, createOptionsField], catalog: videoCatalog };

export function readVideoBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const model = String(ctx.getNodeParameter('model', itemIndex, '', { extractValue: true }) ?? '').trim();
	const form = readModelForm(ctx, itemIndex, VIDEO_FORM, model);
	const text = (name: string) => String(form.value(name, '') ?? '').trim();
	const duration = Number(ctx.getNodeParameter('duration', itemIndex, 0));
	const audio = text('generateAudio');
	const references = (
		(form.value('references', {}) as IDataObject).reference as IDataObject[] | undefined
	)?.map(
		(ref): VideoReferenceInput => ({
			kind: ref.kind as VideoReferenceInput['kind'],
			url: String(ref.url ?? '').trim(),
			role: String(ref.role ?? '') || undefined,
			voiceId: String(ref.voiceId ?? '').trim() || undefined,
		}),
	);
	const options = form.collection('videoOptions');
	const extensions: VideoExtensionsInput = {
		cameraFixed: options.cameraFixed as boolean | undefined,
		watermark: options.watermark as boolean | undefined,
		returnLastFrame: options.returnLastFrame as boolean | undefined,
		referenceTaskType: options.referenceTaskType as string | undefined,
		outputFormat: options.outputFormat as string | undefined,
		serviceTier: options.serviceTier as string | undefined,
		level: options.level as number | undefined,
	};
	const input: VideoInput = {
		model,
		prompt: String(ctx.getNodeParameter('prompt', itemIndex, '') ?? ''),
		duration: duration === 0 || Number.isNaN(duration) ? undefined : duration,
		aspectRatio: text('aspectRatio') || undefined,
		resolution: text('resolution') || undefined,
		generateAudio: audio === '' ? undefined : audio === 'true',
		firstFrameUrl: text('firstFrameUrl') || undefined,
		lastFrameUrl: text('lastFrameUrl') || undefined,
		references,
		seed: options.seed as number | undefined,
		callbackUrl: String(options.callbackUrl ?? '').trim() || undefined,
		extensions,
	};
	const body = withAdditionalBody(buildVideoBody(input), readAdditionalBody(ctx, itemIndex));
	return assertValid(
		ctx.getNode(),
		videoBodySchema(videoModelFor(String(body.model ?? ''))),
		body,
		VIDEO_LABELS,
		itemIndex,
	) as IDataObject;
}
