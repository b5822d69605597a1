import type { ResourceModule } from '../types';
import { imageCatalog } from './catalog';
import { generate } from './generate.operation';

export const image: ResourceModule = {
	value: 'image',
	name: 'Image',
	description: 'Generate images from a prompt (variants A, B and C, chosen by model)',
	operations: [
		{
			value: 'generate',
			name: 'Generate',
			action: 'Generate an image',
			description:
				'Creates images from a prompt; each image becomes a binary (data, data_1, ...) with the metadata in JSON',
			module: generate,
		},
	],
	catalog: imageCatalog,
};
