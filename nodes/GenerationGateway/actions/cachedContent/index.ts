import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const cachedContent: ResourceModule = {
	value: 'cachedContent',
	name: 'Cached Content',
	description: 'Cache content for reuse by later requests to one model (native key)',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create a cached content',
			description:
				'Cache contents, a system instruction and tools for one model (POST /v1beta/cachedContents)',
			module: create,
		},
	],
};
