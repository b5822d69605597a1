import type { ResourceModule } from '../types';
import { create } from './create.operation';

export const message: ResourceModule = {
	value: 'message',
	name: 'Message',
	description: 'Generate a message from a conversation (x-api-key)',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create a message',
			description: 'Generate the next assistant message of a conversation (POST /v1/messages)',
			module: create,
		},
	],
};
