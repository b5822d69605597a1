import type { ResourceModule } from '../types';
import { recover } from './recover.operation';

export const videoWait: ResourceModule = {
	value: 'videoWait',
	name: 'Video Wait',
	description: "Create and Wait nodes waiting in n8n's executions",
	operations: [
		{
			value: 'recover',
			name: 'Recover Waits',
			action: 'Recover video waits left behind',
			description:
				"Finds Create and Wait nodes still waiting in n8n's executions and resumes each whose tasks are final (run it on a schedule)",
			module: recover,
		},
	],
};
