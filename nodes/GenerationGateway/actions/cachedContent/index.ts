import type { ResourceModule } from '../types';

export const cachedContent: ResourceModule = {
	value: 'cachedContent',
	name: 'Cached Content',
	description: 'Cache content for reuse by later generation requests (native key)',
	// Operations arrive with this resource's issue.
	operations: [],
};
