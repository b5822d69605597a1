import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { binaryPropertyName } from '../../../shared/binary';
import { imageCatalog, imageVariantOf } from './catalog';
import { buildImageBody } from './body';
import { B64_MARKER, readImageResult } from './result';
import { IMAGE_FIELD_LABELS, imageRequestSchema } from './schema';
import type { StreamedImage } from './stream';
import { IMAGE_STREAM_FAILED, ImageStreamCollector, streamedResultJson } from './stream';
import { assembleStream } from '../../../shared/sse';
import { gatewayRequest } from '../../../shared/transport';
import type { ModelForm } from '../../../shared/modelFields';
import { readModelForm } from '../../../shared/modelFields';
import { assertValid, modelIdOf } from '../../../shared/validation';
import { readAdditionalBody, readRequestSettings, withAdditionalBody } from '../descriptions';
import type { OperationModule } from '../types';
import { IMAGE_NOT_SENT, generateFields } from './fields';
import type { ReferenceImageEntry, StoredImage } from './output';
import {
	dataItems,
	downloadImage,
	imageBinary,
	nameImage,
	readReferenceImages,
	storeIncomingImage,
} from './output';

/** Images A, B and C; the answer is read as a stream: JSON image by image (result.ts), SSE folded (stream.ts). */

const PATH = '/v1/images/generations';

const IMAGE_FORM = {
	properties: generateFields,
	catalog: imageCatalog,
	notSent: IMAGE_NOT_SENT,
};

async function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: string,
	form: ModelForm,
): Promise<IDataObject> {
	const { variant } = imageVariantOf(model);
	const entries =
		variant === 'B'
			? []
			: (((form.value('referenceImages', {}) as IDataObject).images ?? []) as ReferenceImageEntry[]);
	const body = buildImageBody({
		model,
		prompt: ctx.getNodeParameter('prompt', itemIndex, '') as string,
		size: form.value('size', ''),
		n: form.value<number | null>('n', null) ?? undefined,
		quality: form.value('quality', ''),
		options: form.collection('options'),
		referenceImages: await readReferenceImages(ctx, itemIndex, entries),
	});
	return withAdditionalBody(body, readAdditionalBody(ctx, itemIndex));
}

async function jsonResultItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	form: ModelForm,
	json: IDataObject,
	images: Array<StoredImage | undefined>,
	request: IDataObject,
	timeoutMs: number,
): Promise<INodeExecutionData> {
	const binary: IBinaryKeyData = {};
	const download = form.value('downloadUrls', true);
	const format = json.output_format ?? request.output_format;
	let next = 0;
	for (const [position, item] of dataItems(json).entries()) {
		const marker = typeof item.b64_json === 'string' ? item.b64_json : undefined;
		delete item.b64_json;
		const stem = `image-${position + 1}`;
		let file: IBinaryData | undefined;
		if (marker?.startsWith(B64_MARKER)) {
			const stored = images[Number(marker.slice(B64_MARKER.length))];
			if (stored) file = nameImage(stored, stem, format);
		} else if (typeof item.url === 'string' && item.url && download) {
			file = await downloadImage(ctx, item.url, position, format, timeoutMs, itemIndex);
		}
		if (!file) continue;
		const property = binaryPropertyName(next++);
		binary[property] = file;
		item.binaryProperty = property;
	}
	return { json, binary: next ? binary : undefined, pairedItem: { item: itemIndex } };
}

async function streamedItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	events: AsyncIterable<Buffer | string>,
	request: IDataObject,
	options: { keepPartials: boolean; timeoutMs: number },
): Promise<INodeExecutionData> {
	const { keepPartials, timeoutMs } = options;
	const collector = new ImageStreamCollector(Number(request.n ?? 1), keepPartials);
	const what = IMAGE_STREAM_FAILED;
	const result = await assembleStream(events, collector, { node: ctx.getNode(), itemIndex, timeoutMs, what });
	const json = streamedResultJson(result);
	const binary: IBinaryKeyData = {};
	const store = async (image: StreamedImage, property: string, stem: string) => {
		const format = image.meta.output_format ?? request.output_format;
		binary[property] = await imageBinary(ctx, image.bytes, stem, format);
		return property;
	};
	for (const [index, image] of result.finals.entries()) {
		const property = await store(image, binaryPropertyName(index), `image-${index + 1}`);
		(json.data as IDataObject[])[index].binaryProperty = property;
	}
	if (keepPartials) {
		json.partial_images = [];
		for (const [index, image] of result.partials.entries()) {
			const stem = `partial-${Number(image.meta.partial_image_index ?? index) + 1}`;
			const binaryProperty = await store(image, binaryPropertyName(index, 'partial'), stem);
			(json.partial_images as IDataObject[]).push({ ...image.meta, binaryProperty });
		}
	}
	return { json, binary, pairedItem: { item: itemIndex } };
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const model = String(this.getNodeParameter('model', itemIndex, '', { extractValue: true }) ?? '');
	const form = readModelForm(this, itemIndex, IMAGE_FORM, model);
	const assembled = await readBody(this, itemIndex, model, form);
	const schema = imageRequestSchema(modelIdOf(assembled.model));
	const body = assertValid(node, schema, assembled, IMAGE_FIELD_LABELS, itemIndex) as IDataObject;
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const options = form.collection('options');

	const response = await gatewayRequest<AsyncIterable<Buffer>>(this, {
		method: 'POST',
		path: PATH,
		body,
		kind: 'create',
		responseType: 'stream',
		timeoutMs,
		itemIndex,
	});
	const contentType = String(response.headers['content-type'] ?? '');
	if (contentType.includes('text/event-stream')) {
		const keepPartials = options.includePartialImages === true;
		return [await streamedItem(this, itemIndex, response.body, body, { keepPartials, timeoutMs })];
	}
	const encoded = response.headers['content-encoding'] !== undefined;
	const length = Number(response.headers['content-length']);
	const { json, images } = await readImageResult(
		node,
		response.body,
		async (image) => await storeIncomingImage(this, response.body, image, body.output_format),
		{ itemIndex, timeoutMs, contentLength: !encoded && Number.isFinite(length) ? length : undefined },
	);
	return [await jsonResultItem(this, itemIndex, form, json as IDataObject, images, body, timeoutMs)];
}

export const generate: OperationModule = { description: generateFields, createsPaidWork: true, execute };
