import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const response: ResourceModule = {
	value: 'response',
	name: 'Response',
	description: 'Generate a response from text, image, audio or file input (bearer token)',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create a response',
			description: 'Generate a response object (POST /v1/responses)',
			module: create,
		},
	],
};
