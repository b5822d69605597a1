import type { ResourceModule } from '../types';

export const video: ResourceModule = {
	value: 'video',
	name: 'Video',
	description: 'Asynchronous video generation tasks',
	// Operations arrive with this resource's issue.
	operations: [],
};
