import type { ResourceModule } from '../types';

export const speech: ResourceModule = {
	value: 'speech',
	name: 'Speech',
	description: 'Synthesize speech as one audio file',
	// Operations arrive with this resource's issue.
	operations: [],
};
