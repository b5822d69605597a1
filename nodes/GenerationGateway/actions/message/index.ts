import type { ResourceModule } from '../types';

export const message: ResourceModule = {
	value: 'message',
	name: 'Message',
	description: 'Generate a message from a conversation (x-api-key)',
	// Operations arrive with this resource's issue.
	operations: [],
};
