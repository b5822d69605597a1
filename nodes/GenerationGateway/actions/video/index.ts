import type { ResourceModule } from '../types';
import { videoCatalog } from './catalog';
import { create } from './create.operation';
import { createAndWait } from './createAndWait.operation';
import { get } from './get.operation';
import { waitForCompletion } from './waitForCompletion.operation';

export const video: ResourceModule = {
	value: 'video',
	name: 'Video',
	description: 'Asynchronous video generation tasks',
	operations: [
		{
			value: 'createAndWait',
			name: 'Create and Wait',
			action: 'Create a video and wait for it',
			description: 'Creates a video task and waits until it is completed, failed, cancelled or expired',
			module: createAndWait,
		},
		{
			value: 'create',
			name: 'Create',
			action: 'Create a video task',
			description: 'Creates a video task and returns its ID and status at once (HTTP 202)',
			module: create,
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a video task',
			description: 'Returns the current record of a video task',
			module: get,
		},
		{
			value: 'waitForCompletion',
			name: 'Wait for Completion',
			action: 'Wait for a video task to finish',
			description: 'Waits for an existing task (by ID) to reach a final status',
			module: waitForCompletion,
		},
	],
	catalog: videoCatalog,
};
