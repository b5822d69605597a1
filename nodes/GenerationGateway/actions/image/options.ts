import type { INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../descriptions';

import { VARIANT_A_LIMITS, VARIANT_B_ENUMS, VARIANT_C_LIMITS } from './catalog';
import { accepts, forModels, isVariantC, label, variantAOnly } from './conditions';

/** Option names are the wire names, except includePartialImages, which the node reads itself. */
export const imageOptionsField: INodeProperties = optionsCollection([
	{
		displayName: 'Background',
		name: 'background',
		type: 'options',
		options: VARIANT_B_ENUMS.background.map(label),
		default: 'auto',
		description: 'Transparent needs Output Format png or webp (a preview capability on imagegen-2)',
		displayOptions: forModels(accepts('background')),
	},
	{
		displayName: 'Include Partial Images',
		name: 'includePartialImages',
		type: 'boolean',
		default: false,
		description:
			'Whether to output the intermediate images of a stream as extra binaries (partial, partial_1, ...)',
		displayOptions: forModels(accepts('stream'), { show: { stream: [true] } }),
	},
	{
		displayName: 'Moderation',
		name: 'moderation',
		type: 'options',
		options: VARIANT_B_ENUMS.moderation.map(label),
		default: 'auto',
		displayOptions: forModels(accepts('moderation')),
	},
	{
		displayName: 'Negative Prompt',
		name: 'negative_prompt',
		type: 'string',
		default: '',
		description: 'Content to avoid',
		displayOptions: forModels(isVariantC),
	},
	{
		displayName: 'Output Compression',
		name: 'output_compression',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 100,
		description: 'Compression level 0-100, only with Output Format jpeg or webp',
		displayOptions: forModels(accepts('output_compression'), {
			show: { output_format: [...VARIANT_B_ENUMS.compressibleFormats] },
		}),
	},
	{
		displayName: 'Output Format',
		name: 'output_format',
		type: 'options',
		options: VARIANT_B_ENUMS.outputFormat.map(label),
		default: 'png',
		displayOptions: forModels(accepts('output_format')),
	},
	{
		displayName: 'Partial Images',
		name: 'partial_images',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 3 },
		default: 2,
		description: 'How many intermediate images the stream sends (0-3)',
		displayOptions: forModels(accepts('partial_images'), { show: { stream: [true] } }),
	},
	{
		displayName: 'Pro Mode',
		name: 'enable_pro',
		type: 'boolean',
		default: false,
		description: 'Whether to send enable_pro (generic path)',
		displayOptions: variantAOnly(),
	},
	{
		displayName: 'Prompt Extend',
		name: 'prompt_extend',
		type: 'boolean',
		default: true,
		description: 'Whether the gateway rewrites the prompt (required while Thinking is on)',
		displayOptions: forModels(isVariantC),
	},
	{
		displayName: 'Prompt Extend Mode',
		name: 'prompt_extend_mode',
		type: 'options',
		options: [
			{ name: 'Direct', value: 'direct', description: 'Text-to-image and image-to-image' },
			{ name: 'Agent', value: 'agent', description: 'Text-to-image only (no reference images)' },
		],
		default: 'direct',
		displayOptions: forModels(isVariantC),
	},
	{
		displayName: 'Quality',
		name: 'quality',
		type: 'options',
		options: VARIANT_A_LIMITS.qualities.map(label),
		default: 'standard',
		displayOptions: variantAOnly(),
	},
	{
		displayName: 'Response Format',
		name: 'response_format',
		type: 'options',
		options: [
			{ name: 'Base64', value: 'b64_json', description: 'Sent as b64_json' },
			{ name: 'URL', value: 'url' },
		],
		default: 'b64_json',
		description:
			'How the gateway returns the image. imgE always returns Base64; imagegen models do not take this option.',
		displayOptions: forModels((m) => accepts('response_format')(m) || isVariantC(m), { unknown: true }),
	},
	{
		displayName: 'Seed',
		name: 'seed',
		type: 'number',
		typeOptions: { minValue: VARIANT_C_LIMITS.seed.min, maxValue: VARIANT_C_LIMITS.seed.max },
		default: 0,
		description: 'Improves reproducibility (0 to 2147483647; no pixel-level guarantee)',
		displayOptions: forModels(isVariantC),
	},
	{
		displayName: 'Stream',
		name: 'stream',
		type: 'boolean',
		default: false,
		description:
			'Whether to stream the generation (SSE). The node still outputs the final image; add Include Partial Images to keep the intermediate ones.',
		displayOptions: forModels(accepts('stream')),
	},
	{
		displayName: 'Style',
		name: 'style',
		type: 'options',
		options: VARIANT_B_ENUMS.style.map(label),
		default: 'vivid',
		displayOptions: forModels(accepts('style')),
	},
	{
		displayName: 'Thinking',
		name: 'enable_thinking',
		type: 'boolean',
		default: false,
		description: 'Whether to enable thinking; effective only with Prompt Extend on',
		displayOptions: forModels(isVariantC),
	},
	{
		displayName: 'User',
		name: 'user',
		type: 'string',
		default: '',
		description: 'Unique end-user identifier for abuse monitoring',
		displayOptions: forModels((m) => m.variant === 'B'),
	},
	{
		displayName: 'Watermark',
		name: 'watermark',
		type: 'boolean',
		default: false,
		description: 'Whether to add a watermark at the bottom right',
		displayOptions: forModels(isVariantC),
	},
]);
