import { randomUUID } from 'node:crypto';

import { invalid, sendError, sendJson } from '../http';
import type { ImageFormat } from '../image/render';
import { renderImage } from '../image/render';
import type { Body } from '../image/rules';
import { checkVariantA, checkVariantB, checkVariantC, familyOf } from '../image/rules';
import type { Simulator } from '../server';
import type { Route, RouteContext } from '../types';

/**
 * POST /v1/images/generations with its three variants (chosen by `model`),
 * real PNG/JPEG/WebP bytes, URL results served from /cdn/images/<file> (no
 * credential, like a pre-signed storage URL) and the SSE mode of the
 * imagegen models (OpenAI's image-generation stream events).
 */

export interface ImageSimState {
	/** Files behind the URLs the gateway returned. */
	files: Map<string, { bytes: Buffer; mimeType: string }>;
	/** Whether the account has the `imgE-3.0-pro` alias configured (variant C short name). */
	imgEAlias: boolean;
	/** Random, incompressible PNG pixels (memory benchmark). */
	noise: boolean;
}

export function imageState(sim: Simulator): ImageSimState {
	let state = sim.state.get('image') as ImageSimState | undefined;
	if (!state) {
		state = { files: new Map(), imgEAlias: true, noise: false };
		sim.state.set('image', state);
	}
	return state;
}

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const USAGE = {
	total_tokens: 1100,
	input_tokens: 100,
	output_tokens: 1000,
	input_tokens_details: { text_tokens: 100, image_tokens: 0 },
};

function dimensions(size: unknown): [number, number] {
	const match = /^(\d+)x(\d+)$/.exec(String(size ?? ''));
	return match ? [Number(match[1]), Number(match[2])] : [1024, 1024];
}

interface Plan {
	count: number;
	size: string;
	format: ImageFormat;
	transparent: boolean;
	asUrl: boolean;
}

function draw(sim: Simulator, body: Body, plan: Plan, index: number, salt = ''): Buffer {
	const [width, height] = dimensions(plan.size);
	const seed = `${String(body.prompt)}#${index}${salt}#${String(body.seed ?? '')}`;
	return renderImage({
		width,
		height,
		format: plan.format,
		transparent: plan.transparent,
		seed,
		noise: imageState(sim).noise,
	});
}

function item(sim: Simulator, body: Body, plan: Plan, index: number): Record<string, unknown> {
	const bytes = draw(sim, body, plan, index);
	if (!plan.asUrl) return { b64_json: bytes.toString('base64') };
	const file = `${randomUUID()}.${plan.format === 'jpeg' ? 'jpg' : plan.format}`;
	imageState(sim).files.set(file, { bytes, mimeType: MIME[plan.format] });
	return { url: `${sim.url}/cdn/images/${file}` };
}

const actualSize = (size: unknown) => (size === undefined || size === 'auto' ? '1024x1024' : String(size));
const actualQuality = (quality: unknown) =>
	quality === 'low' || quality === 'high'
		? quality
		: quality === 'xhigh' || quality === 'max'
			? 'high'
			: 'medium';

async function variantB(ctx: RouteContext, body: Body): Promise<void> {
	checkVariantB(body);
	const family = familyOf(body.model as string);
	const imagegen = family.startsWith('imagegen');
	const format = ((body.output_format as ImageFormat | null) ?? 'png') as ImageFormat;
	const plan: Plan = {
		count: (body.n as number) ?? 1,
		size: actualSize(body.size ?? (imagegen ? 'auto' : '1024x1024')),
		format: imagegen ? format : 'png',
		transparent: body.background === 'transparent',
		asUrl: body.response_format === 'url',
	};
	const created = Math.floor(Date.now() / 1000);
	const meta = imagegen
		? {
				background: plan.transparent ? 'transparent' : 'opaque',
				output_format: plan.format,
				quality: actualQuality(body.quality),
				size: plan.size,
			}
		: { output_format: 'png', quality: (body.quality as string) ?? 'standard', size: plan.size };
	if (body.stream === true) {
		const events: Array<{ event: string; data: unknown }> = [];
		for (let i = 0; i < ((body.partial_images as number) ?? 0); i++) {
			const bytes = draw(ctx.sim, body, plan, 0, `~partial${i}`);
			const data = {
				type: 'image_generation.partial_image',
				b64_json: bytes.toString('base64'),
				created_at: created,
				partial_image_index: i,
				...meta,
			};
			events.push({ event: data.type, data });
		}
		for (let index = 0; index < plan.count; index++) {
			const data = {
				type: 'image_generation.completed',
				b64_json: draw(ctx.sim, body, plan, index).toString('base64'),
				created_at: created,
				...meta,
				usage: USAGE,
			};
			events.push({ event: data.type, data });
		}
		return await ctx.sim.streamSse(ctx, events);
	}
	const data = Array.from({ length: plan.count }, (_, index) => ({
		...item(ctx.sim, body, plan, index),
		...(family === 'legacyimg-3' ? { revised_prompt: `A detailed picture of ${String(body.prompt)}` } : {}),
	}));
	sendJson(ctx.res, 200, { created, data, ...meta, ...(imagegen ? { usage: USAGE } : {}) });
}

function variantC(ctx: RouteContext, body: Body): void {
	checkVariantC(body);
	const size = actualSize(body.size);
	// "The result is always Base64", whatever response_format says.
	const plan: Plan = { count: 1, size, format: 'png', transparent: false, asUrl: false };
	const created = Math.floor(Date.now() / 1000);
	sendJson(ctx.res, 200, {
		created,
		background: 'opaque',
		data: [{ ...item(ctx.sim, body, plan, 0), index: 0 }],
		output_format: 'png',
		size,
	});
}

function variantA(ctx: RouteContext, body: Body): void {
	checkVariantA(body);
	const size = actualSize(body.size);
	// The interface's example value for response_format is `url`: the simulator answers with URLs by default.
	const plan: Plan = {
		count: (body.n as number) ?? 1,
		size,
		format: 'png',
		transparent: false,
		asUrl: body.response_format !== 'b64_json',
	};
	const data = Array.from({ length: plan.count }, (_, index) => ({
		...item(ctx.sim, body, plan, index),
		index,
		revised_prompt: String(body.prompt ?? ''),
	}));
	sendJson(ctx.res, 200, {
		created: Math.floor(Date.now() / 1000),
		data,
		model: body.model,
		size,
		output_format: 'png',
		quality: (body.quality as string) ?? 'standard',
		background: 'opaque',
		usage: { total_tokens: 0 },
	});
}

export const imageRoutes: Route[] = [
	{
		method: 'POST',
		path: '/v1/images/generations',
		async handle(ctx) {
			const body = ctx.body;
			if (!body || typeof body !== 'object' || Array.isArray(body))
				invalid('body', 'The request body must be a JSON object');
			const request = body as Body;
			const model = request.model;
			if (typeof model !== 'string' || !model) invalid('model', 'model is required');
			if (/^(imagegen|legacyimg)-/.test(model)) return await variantB(ctx, request);
			if (model === 'vendor/imgE-3.0-pro' || (model === 'imgE-3.0-pro' && imageState(ctx.sim).imgEAlias)) {
				return variantC(ctx, request);
			}
			if (/imgE/.test(model)) invalid('model', `Unknown imgE model "${model}" (use vendor/imgE-3.0-pro)`);
			return variantA(ctx, request);
		},
	},
	{
		method: 'GET',
		path: /^\/cdn\/images\/(?<file>[^/]+)$/,
		handle({ res, params, sim }) {
			const file = imageState(sim).files.get(params.file);
			if (!file) return sendError(res, 404, 'No such image', { code: 'not_found' });
			res.writeHead(200, { 'Content-Type': file.mimeType, 'Content-Length': file.bytes.length });
			res.end(file.bytes);
		},
	},
];
