import { invalid } from '../http';

/**
 * The simulator's own reading of POST /v1/images/generations' request rules
 * (written independently of the package's schemas, on purpose: a shared
 * mistake would otherwise pass unnoticed). Each check throws the 400 envelope
 * with the offending member in `param`.
 */

export type Body = Record<string, unknown>;

export const VARIANT_B_MODELS = [
	'imagegen-2.5-sunburst',
	'imagegen-2.5-sunburst-2026-09-08',
	'imagegen-2.5-flare',
	'imagegen-2.5-flare-2026-09-08',
	'imagegen-2',
	'imagegen-2-2026-04-21',
	'imagegen-1.5',
	'imagegen-1',
	'imagegen-1-mini',
	'legacyimg-2',
	'legacyimg-3',
];

const IMAGEGEN_ONLY = [
	'background',
	'moderation',
	'output_format',
	'output_compression',
	'stream',
	'partial_images',
];
const WXH = /^([1-9][0-9]*)x([1-9][0-9]*)$/;

const has = (body: Body, key: string) => body[key] !== undefined;
const isInt = (value: unknown) => typeof value === 'number' && Number.isInteger(value);

function intIn(body: Body, key: string, min: number, max: number): void {
	if (has(body, key) && (!isInt(body[key]) || (body[key] as number) < min || (body[key] as number) > max)) {
		invalid(key, `${key} must be an integer from ${min} to ${max}`);
	}
}

function oneOf(body: Body, key: string, values: string[], nullable = false): void {
	if (!has(body, key) || (nullable && body[key] === null)) return;
	if (!values.includes(body[key] as string)) invalid(key, `${key} must be one of: ${values.join(', ')}`);
}

function bool(body: Body, key: string): void {
	if (has(body, key) && typeof body[key] !== 'boolean') invalid(key, `${key} must be a boolean`);
}

function prompt(body: Body, max = Infinity): void {
	if (typeof body.prompt !== 'string' || body.prompt.length < 1) invalid('prompt', 'prompt is required');
	// Characters as a user and the gateway count them: code points (an emoji is one).
	if ([...body.prompt].length > max)
		invalid('prompt', `prompt must be at most ${max} characters for ${body.model}`);
}

export type Family = 'imagegen-2.5' | 'imagegen-2' | 'imagegen-1' | 'legacyimg-3' | 'legacyimg-2';

export function familyOf(model: string): Family {
	if (model.startsWith('imagegen-2.5')) return 'imagegen-2.5';
	if (model.startsWith('imagegen-2')) return 'imagegen-2';
	if (model.startsWith('imagegen-1')) return 'imagegen-1';
	return model as Family;
}

export function checkVariantB(body: Body): void {
	const model = body.model as string;
	if (!VARIANT_B_MODELS.includes(model))
		invalid('model', `model must be one of: ${VARIANT_B_MODELS.join(', ')}`);
	const family = familyOf(model);
	const imagegen = family.startsWith('imagegen');
	prompt(body, imagegen ? 32000 : family === 'legacyimg-2' ? 1000 : 4000);
	if (family === 'legacyimg-3' && has(body, 'n') && body.n !== 1) invalid('n', 'n must be 1 for legacyimg-3');
	intIn(body, 'n', 1, 10);
	if (!imagegen) {
		for (const key of IMAGEGEN_ONLY)
			if (has(body, key)) invalid(key, `${key} is only supported by imagegen models`);
	}
	if (imagegen && has(body, 'response_format')) {
		invalid(
			'response_format',
			'response_format is not supported by imagegen models: they always return b64_json',
		);
	}
	if (has(body, 'style') && family !== 'legacyimg-3')
		invalid('style', 'style is only supported by legacyimg-3');
	oneOf(body, 'style', ['vivid', 'natural'], true);
	oneOf(body, 'response_format', ['b64_json', 'url']);
	oneOf(body, 'background', ['transparent', 'opaque', 'auto'], true);
	oneOf(body, 'moderation', ['low', 'auto'], true);
	oneOf(body, 'output_format', ['png', 'jpeg', 'webp'], true);
	bool(body, 'stream');
	intIn(body, 'partial_images', 0, 3);
	intIn(body, 'output_compression', 0, 100);
	if (body.background === 'transparent' && body.output_format !== 'png' && body.output_format !== 'webp') {
		invalid('background', 'transparent background requires output_format png or webp');
	}
	if (has(body, 'output_compression') && body.output_format !== 'webp' && body.output_format !== 'jpeg') {
		invalid('output_compression', 'output_compression requires output_format webp or jpeg');
	}
	const qualities: Record<Family, string[]> = {
		'imagegen-2.5': ['auto', 'low', 'medium', 'high', 'xhigh', 'max'],
		'imagegen-2': ['auto', 'low', 'medium', 'high'],
		'imagegen-1': ['auto', 'low', 'medium', 'high'],
		'legacyimg-3': ['standard', 'hd'],
		'legacyimg-2': ['standard'],
	};
	oneOf(body, 'quality', qualities[family], true);
	if (has(body, 'user') && typeof body.user !== 'string') invalid('user', 'user must be a string');
	if (!has(body, 'size')) return;
	const size = body.size as string;
	const listed: Partial<Record<Family, string[]>> = {
		'imagegen-1': ['auto', '1024x1024', '1536x1024', '1024x1536'],
		'legacyimg-3': ['1024x1024', '1792x1024', '1024x1792'],
		'legacyimg-2': ['256x256', '512x512', '1024x1024'],
	};
	const list = listed[family];
	if (list) return oneOf(body, 'size', list);
	if (size === 'auto') return;
	const match = WXH.exec(String(size));
	if (!match) invalid('size', 'size must be auto or WIDTHxHEIGHT');
	const [w, h] = [Number(match[1]), Number(match[2])];
	if (w % 16 || h % 16) invalid('size', 'width and height must be multiples of 16');
	if (w > 3 * h || h > 3 * w) invalid('size', 'aspect ratio must be between 1:3 and 3:1');
	if (Math.max(w, h) > 3840 || w * h > 3840 * 2160) invalid('size', 'size must be at most 3840x2160');
}

export function checkVariantC(body: Body): void {
	if (has(body, 'n')) invalid('n', 'n is not supported for this model family');
	prompt(body);
	if (has(body, 'size')) {
		const size = String(body.size);
		if (!/^(auto|[1-9][0-9]*x[1-9][0-9]*)$/.test(size)) invalid('size', 'size must be auto or WIDTHxHEIGHT');
		const match = WXH.exec(size);
		if (match) {
			const [w, h] = [Number(match[1]), Number(match[2])];
			if (w * h < 512 * 512 || w * h > 2048 * 2048)
				invalid('size', 'pixel area must be between 512x512 and 2048x2048');
			if (w > 8 * h || h > 8 * w) invalid('size', 'aspect ratio must be between 1:8 and 8:1');
		}
	}
	if (has(body, 'images')) {
		if (!Array.isArray(body.images)) invalid('images', 'images must be an array');
		if ((body.images as unknown[]).length > 3) invalid('images', 'at most 3 reference images');
		// Element shape: not shown by the interface. The simulator takes what the package assumes.
		for (const image of body.images as unknown[]) {
			if (typeof image !== 'string' || !image)
				invalid('images', 'each reference image must be a non-empty string');
		}
	}
	for (const key of ['prompt_extend', 'enable_thinking', 'watermark']) bool(body, key);
	oneOf(body, 'prompt_extend_mode', ['direct', 'agent']);
	oneOf(body, 'response_format', ['b64_json', 'url']);
	intIn(body, 'seed', 0, 2147483647);
	if (has(body, 'negative_prompt') && typeof body.negative_prompt !== 'string') {
		invalid('negative_prompt', 'negative_prompt must be a string');
	}
	if (body.enable_thinking === true && body.prompt_extend === false) {
		invalid('prompt_extend', 'prompt_extend cannot be disabled while enable_thinking is true');
	}
	if (body.prompt_extend_mode === 'agent' && Array.isArray(body.images) && body.images.length) {
		invalid('prompt_extend_mode', 'agent mode supports text-to-image only');
	}
}

export function checkVariantA(body: Body): void {
	if (typeof body.model !== 'string' || !body.model) invalid('model', 'model is required');
	if (has(body, 'prompt') && (typeof body.prompt !== 'string' || !body.prompt)) {
		invalid('prompt', 'prompt must not be empty');
	}
	bool(body, 'enable_pro');
	intIn(body, 'n', 1, 4);
	if (has(body, 'size') && !/^(auto|[1-9][0-9]*x[1-9][0-9]*)$/.test(String(body.size))) {
		invalid('size', 'size must be auto or WIDTHxHEIGHT');
	}
	oneOf(body, 'response_format', ['url', 'b64_json']);
	oneOf(body, 'quality', ['standard', 'hd']);
	if (has(body, 'images')) {
		const images = body.images;
		if (!Array.isArray(images) || images.length < 1 || images.length > 5) {
			invalid('images', 'images must have 1 to 5 elements');
		}
		for (const image of images as unknown[]) {
			if (typeof image !== 'string' || !image) invalid('images', 'each image must be a non-empty string');
		}
	}
}
