import type { ResourceModule } from '../types';

export const image: ResourceModule = {
	value: 'image',
	name: 'Image',
	description: 'Generate images from a prompt (variants A, B and C, chosen by model)',
	// Operations arrive with this resource's issue.
	operations: [],
};
