import type { INodeProperties, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';

/**
 * The form shows exactly what the chosen model accepts: n8n's own
 * displayParameter evaluates the catalog-driven conditions for each model.
 */

const description = new GenerationGateway().description;
const fields = description.properties.filter((p) =>
	(p.displayOptions?.show?.resource as string[] | undefined)?.includes('image'),
);
const options = fields.find((p) => p.name === 'options')!.options as INodeProperties[];

function visible(model: string) {
	const values: INodeParameters = {
		resource: 'image',
		operation: 'generate',
		model: { __rl: true, mode: 'id', value: model },
		options: { stream: true, output_format: 'webp' },
	};
	const shown = fields.filter((p) => NodeHelpers.displayParameter(values, p, null, description));
	const describe = (p: INodeProperties) =>
		p.type === 'options' && p.name !== 'model'
			? `${p.name}[${(p.options as Array<{ value: string }>).map((o) => o.value).join(',')}]`
			: `${p.name}:${p.type}`;
	return {
		fields: shown
			.map(describe)
			.filter((f) => !/^(model|prompt|additionalBodyFields|operation|options)\b/.test(f)),
		options: options
			.filter((p) =>
				NodeHelpers.displayParameter(values.options as INodeParameters, p, null, description, values),
			)
			.map((p) => p.name)
			.sort(),
	};
}

const IMAGEGEN_OPTIONS = [
	'background',
	'includePartialImages',
	'moderation',
	'output_compression',
	'output_format',
	'partial_images',
	'stream',
	'user',
];
const C_OPTIONS = [
	'enable_thinking',
	'negative_prompt',
	'prompt_extend',
	'prompt_extend_mode',
	'response_format',
	'seed',
	'watermark',
];

describe('image form', () => {
	it.each<[string, string[], string[]]>([
		[
			'imagegen-2.5-sunburst',
			['size:string', 'quality[,auto,low,medium,high,xhigh,max]', 'n:number'],
			IMAGEGEN_OPTIONS,
		],
		[
			'imagegen-2.5-flare-2026-09-08',
			['size:string', 'quality[,auto,low,medium,high,xhigh,max]', 'n:number'],
			IMAGEGEN_OPTIONS,
		],
		['imagegen-2', ['size:string', 'quality[,auto,low,medium,high]', 'n:number'], IMAGEGEN_OPTIONS],
		[
			'imagegen-1-mini',
			['size[auto,1024x1024,1536x1024,1024x1536]', 'quality[,auto,low,medium,high]', 'n:number'],
			IMAGEGEN_OPTIONS,
		],
		[
			'legacyimg-3',
			['size[1024x1024,1792x1024,1024x1792]', 'quality[,standard,hd]', 'downloadUrls:boolean'],
			['response_format', 'style', 'user'],
		],
		[
			'legacyimg-2',
			['size[256x256,512x512,1024x1024]', 'n:number', 'downloadUrls:boolean'],
			['response_format', 'user'],
		],
		['vendor/imgE-3.0-pro', ['size:string', 'referenceImages:fixedCollection'], C_OPTIONS],
		['imgE-3.0-pro', ['size:string', 'referenceImages:fixedCollection'], C_OPTIONS],
		[
			'my-gateway-alias',
			['size:string', 'n:number', 'referenceImages:fixedCollection', 'downloadUrls:boolean'],
			['enable_pro', 'quality', 'response_format'],
		],
	])('%s shows %j and the options %j', (model, expectedFields, expectedOptions) => {
		const { fields: shown, options: shownOptions } = visible(model);
		expect(shown).toEqual(expectedFields);
		expect(shownOptions).toEqual(expectedOptions);
	});

	it('shows one field per name for any model (no duplicates on screen)', () => {
		for (const model of ['imagegen-2', 'legacyimg-3', 'vendor/imgE-3.0-pro', 'x']) {
			const names = visible(model).fields.map((f) => f.replace(/[[:].*$/, ''));
			expect(new Set(names).size).toBe(names.length);
		}
	});
});
