import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readModelForm } from '../../../shared/modelFields';
import { Base64Payload, withPayload } from '../../../shared/base64Payload';
import { mediaOfType, readBinaryFile } from '../../../shared/binary';
import { assertValid, formNumber, modelIdOf } from '../../../shared/validation';
import { videoCatalog } from './catalog';
import { generationFields } from './fields';
import { createOptionsField } from './options';
import type { VideoExtensionsInput, VideoInput, VideoReferenceInput } from './body';
import { VIDEO_LABELS, buildVideoBody, videoModelFor } from './body';
import { videoBodySchema } from './schema';
import { VIDEO_EXTENSION_MEMBERS, videoBinaryDataUrlPrefix } from './wireNames';
import { readAdditionalBody, withAdditionalBody } from '../descriptions';

const MATERIAL_NAMES = { image: 'an image', video: 'a video', audio: 'an audio file' } as const;

export const videoMaterial = (kind: VideoReferenceInput['kind']) => ({
	expected: MATERIAL_NAMES[kind] ?? MATERIAL_NAMES.image,
	accepts: mediaOfType(kind in MATERIAL_NAMES ? kind : 'image'),
});

const VIDEO_FORM = { properties: [...generationFields, createOptionsField], catalog: videoCatalog };

export async function readVideoBody(ctx: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const model = String(ctx.getNodeParameter('model', itemIndex, '', { extractValue: true }) ?? '').trim();
	const form = readModelForm(ctx, itemIndex, VIDEO_FORM, model);
	const text = (name: string) => String(form.value(name, '') ?? '').trim();
	const payload = new Base64Payload();
	/** A placeholder in the body; the base64 is written in only when the request is sent. */
	const binaryDataUrl = async (property: string, field: string, kind: VideoReferenceInput['kind']) => {
		const file = await readBinaryFile(ctx, itemIndex, property, { field, ...videoMaterial(kind) });
		return payload.embed(file, videoBinaryDataUrlPrefix(file.mimeType));
	};
	const frame = async (which: 'first' | 'last', label: string) =>
		text(`${which}FrameSource`) === 'binary'
			? await binaryDataUrl(text(`${which}FrameBinary`), `${label} Input Binary Field`, 'image')
			: text(`${which}FrameUrl`) || undefined;
	// Model Default (empty) is not sent; text that is no number ("ten") is refused, never dropped.
	const duration = formNumber(ctx.getNode(), VIDEO_LABELS.duration, form.value('duration', ''), itemIndex);
	const audio = text('generateAudio');
	const rows = (form.value('references', {}) as IDataObject).reference as IDataObject[] | undefined;
	const references: VideoReferenceInput[] | undefined = rows && [];
	for (const [position, ref] of (rows ?? []).entries()) {
		const kind = (ref.kind ?? 'image') as VideoReferenceInput['kind'];
		const field = `References (#${position + 1} Input Binary Field)`;
		references?.push({
			kind,
			url:
				ref.source === 'binary'
					? await binaryDataUrl(String(ref.binaryProperty ?? ''), field, kind)
					: String(ref.url ?? '').trim(),
			role: String(ref.role ?? '') || undefined,
			voiceId: String(ref.voiceId ?? '').trim() || undefined,
		});
	}
	const options = form.collection('videoOptions');
	// The options are named as the extension members; schema.ts checks their values.
	const extensions = Object.fromEntries(
		Object.keys(VIDEO_EXTENSION_MEMBERS).map((name) => [name, options[name]]),
	) as VideoExtensionsInput;
	const input: VideoInput = {
		model,
		prompt: String(ctx.getNodeParameter('prompt', itemIndex, '') ?? ''),
		duration,
		aspectRatio: text('aspectRatio') || undefined,
		resolution: text('resolution') || undefined,
		generateAudio: audio === '' ? undefined : audio === 'true',
		firstFrameUrl: await frame('first', 'First Frame'),
		lastFrameUrl: await frame('last', 'Last Frame'),
		references,
		seed: options.seed as number | undefined,
		callbackUrl: String(options.callbackUrl ?? '').trim() || undefined,
		extensions,
	};
	const body = withAdditionalBody(buildVideoBody(input), readAdditionalBody(ctx, itemIndex));
	const checked = assertValid(
		ctx.getNode(),
		videoBodySchema(videoModelFor(modelIdOf(body.model))),
		body,
		VIDEO_LABELS,
		itemIndex,
	) as IDataObject;
	return withPayload(checked, payload);
}
