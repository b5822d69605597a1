import type { ImageFormValues } from '../../../nodes/GenerationGateway/actions/image/body';
import { buildImageBody } from '../../../nodes/GenerationGateway/actions/image/body';

/** The request body from the form: the interface's names, only what the model accepts. */

const everyOption = {
	background: 'opaque',
	moderation: 'low',
	output_format: 'webp',
	output_compression: 80,
	stream: true,
	partial_images: 2,
	style: 'natural',
	response_format: 'url',
	user: 'u-1',
	enable_pro: true,
	quality: 'hd',
	prompt_extend: true,
	prompt_extend_mode: 'direct',
	enable_thinking: true,
	negative_prompt: 'blur',
	seed: 7,
	watermark: false,
	includePartialImages: true,
};

const form = (model: string, extra: Partial<ImageFormValues> = {}): ImageFormValues => ({
	model,
	prompt: 'a lighthouse',
	size: '1024x1024',
	n: 2,
	quality: 'high',
	options: everyOption,
	referenceImages: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='],
	...extra,
});

describe('buildImageBody', () => {
	it.each<[string, Record<string, unknown>]>([
		[
			'imagegen-2',
			{
				model: 'imagegen-2',
				prompt: 'a lighthouse',
				size: '1024x1024',
				n: 2,
				quality: 'high',
				user: 'u-1',
				background: 'opaque',
				moderation: 'low',
				output_format: 'webp',
				output_compression: 80,
				stream: true,
				partial_images: 2,
			},
		],
		[
			'legacyimg-3',
			{
				model: 'legacyimg-3',
				prompt: 'a lighthouse',
				size: '1024x1024',
				quality: 'high',
				user: 'u-1',
				style: 'natural',
				response_format: 'url',
			},
		],
		[
			'legacyimg-2',
			{
				model: 'legacyimg-2',
				prompt: 'a lighthouse',
				size: '1024x1024',
				n: 2,
				user: 'u-1',
				response_format: 'url',
			},
		],
		[
			'vendor/imgE-3.0-pro',
			{
				model: 'vendor/imgE-3.0-pro',
				prompt: 'a lighthouse',
				size: '1024x1024',
				prompt_extend: true,
				prompt_extend_mode: 'direct',
				enable_thinking: true,
				negative_prompt: 'blur',
				seed: 7,
				watermark: false,
				response_format: 'url',
				images: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='],
			},
		],
		[
			'my-alias',
			{
				model: 'my-alias',
				prompt: 'a lighthouse',
				size: '1024x1024',
				n: 2,
				enable_pro: true,
				response_format: 'url',
				quality: 'hd',
				images: ['https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='],
			},
		],
	])('%s: exactly the members the model accepts', (model, expected) => {
		expect(buildImageBody(form(model))).toEqual(expected);
	});

	it('keeps legacyimg-3 quality from the form (its list is standard/hd) and checks it later', () => {
		expect(buildImageBody(form('legacyimg-3', { quality: 'hd' })).quality).toBe('hd');
	});

	it('drops partial_images when the request is not streamed', () => {
		const body = buildImageBody(form('imagegen-2', { options: { stream: false, partial_images: 2 } }));
		expect(body).not.toHaveProperty('partial_images');
	});

	it('sends nothing for empty optional fields', () => {
		const body = buildImageBody(
			form('vendor/imgE-3.0-pro', { size: '', options: { negative_prompt: '' }, referenceImages: [] }),
		);
		expect(body).toEqual({ model: 'vendor/imgE-3.0-pro', prompt: 'a lighthouse' });
	});

	it('treats a dated snapshot as its base model and sends the ID as typed', () => {
		const body = buildImageBody(form(' imagegen-2.5-flare-2026-09-08 ', { options: { style: 'vivid' } }));
		expect(body.model).toBe('imagegen-2.5-flare-2026-09-08');
		expect(body).not.toHaveProperty('style');
		expect(body.quality).toBe('high');
	});
});
