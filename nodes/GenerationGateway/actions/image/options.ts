import type { INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../descriptions';

import { VARIANT_A_LIMITS, VARIANT_B_ENUMS, VARIANT_C_LIMITS } from './catalog';
import { accepts, forModels, isVariantC, variantAOnly } from './conditions';
import { field, valueOptions } from '../formFields';

/** Option names are the wire names, except includePartialImages, which the node reads itself. */
export const imageOptionsField: INodeProperties = optionsCollection([
	field('Background', 'background', 'options', {
		options: valueOptions(VARIANT_B_ENUMS.background),
		default: 'auto',
		description: 'Transparent needs Output Format png or webp (a preview capability on imagegen-2)',
		displayOptions: forModels(accepts('background')),
	}),
	field('Include Partial Images', 'includePartialImages', 'boolean', {
		default: false,
		description:
			'Whether to output the intermediate images of a stream as extra binaries (partial, partial_1, ...)',
		displayOptions: forModels(accepts('stream'), { show: { stream: [true] } }),
	}),
	field('Moderation', 'moderation', 'options', {
		options: valueOptions(VARIANT_B_ENUMS.moderation),
		default: 'auto',
		displayOptions: forModels(accepts('moderation')),
	}),
	field('Negative Prompt', 'negative_prompt', 'string', {
		default: '',
		description: 'Content to avoid',
		displayOptions: forModels(isVariantC),
	}),
	field('Output Compression', 'output_compression', 'number', {
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 100,
		description: 'Compression level 0-100, only with Output Format jpeg or webp',
		displayOptions: forModels(accepts('output_compression'), {
			show: { output_format: [...VARIANT_B_ENUMS.compressibleFormats] },
		}),
	}),
	field('Output Format', 'output_format', 'options', {
		options: valueOptions(VARIANT_B_ENUMS.outputFormat),
		default: 'png',
		displayOptions: forModels(accepts('output_format')),
	}),
	field('Partial Images', 'partial_images', 'number', {
		typeOptions: { minValue: 0, maxValue: 3 },
		default: 2,
		description: 'How many intermediate images the stream sends (0-3)',
		displayOptions: forModels(accepts('partial_images'), { show: { stream: [true] } }),
	}),
	field('Pro Mode', 'enable_pro', 'boolean', {
		default: false,
		description: 'Whether to send enable_pro (generic path)',
		displayOptions: variantAOnly(),
	}),
	field('Prompt Extend', 'prompt_extend', 'boolean', {
		default: true,
		description: 'Whether the gateway rewrites the prompt (required while Thinking is on)',
		displayOptions: forModels(isVariantC),
	}),
	field('Prompt Extend Mode', 'prompt_extend_mode', 'options', {
		options: [
			{ name: 'Direct', value: 'direct', description: 'Text-to-image and image-to-image' },
			{ name: 'Agent', value: 'agent', description: 'Text-to-image only (no reference images)' },
		],
		default: 'direct',
		displayOptions: forModels(isVariantC),
	}),
	field('Quality', 'quality', 'options', {
		options: valueOptions(VARIANT_A_LIMITS.qualities),
		default: 'standard',
		displayOptions: variantAOnly(),
	}),
	field('Response Format', 'response_format', 'options', {
		options: [
			{ name: 'Base64', value: 'b64_json', description: 'Sent as b64_json' },
			{ name: 'URL', value: 'url' },
		],
		default: 'b64_json',
		description:
			'How the gateway returns the image. imgE always returns Base64; imagegen models do not take this option.',
		displayOptions: forModels((m) => accepts('response_format')(m) || isVariantC(m), { unknown: true }),
	}),
	field('Seed', 'seed', 'number', {
		typeOptions: { minValue: VARIANT_C_LIMITS.seed.min, maxValue: VARIANT_C_LIMITS.seed.max },
		default: 0,
		description: 'Improves reproducibility (0 to 2147483647; no pixel-level guarantee)',
		displayOptions: forModels(isVariantC),
	}),
	field('Stream', 'stream', 'boolean', {
		default: false,
		description:
			'Whether to stream the generation (SSE). The node still outputs the final image; add Include Partial Images to keep the intermediate ones.',
		displayOptions: forModels(accepts('stream')),
	}),
	field('Style', 'style', 'options', {
		options: valueOptions(VARIANT_B_ENUMS.style),
		default: 'vivid',
		displayOptions: forModels(accepts('style')),
	}),
	field('Thinking', 'enable_thinking', 'boolean', {
		default: false,
		description: 'Whether to enable thinking; effective only with Prompt Extend on',
		displayOptions: forModels(isVariantC),
	}),
	field('User', 'user', 'string', {
		default: '',
		description: 'Unique end-user identifier for abuse monitoring',
		displayOptions: forModels((m) => m.variant === 'B'),
	}),
	field('Watermark', 'watermark', 'boolean', {
		default: false,
		description: 'Whether to add a watermark at the bottom right',
		displayOptions: forModels(isVariantC),
	}),
]);
