import type { ResourceModule } from '../types';

export const response: ResourceModule = {
	value: 'response',
	name: 'Response',
	description: 'Generate a response object from text, image, audio or file input',
	// Operations arrive with this resource's issue.
	operations: [],
};
