import type { ResourceModule } from '../types';
import { speechCatalog } from './catalog';
import { synthesize } from './synthesize.operation';

export const speech: ResourceModule = {
	value: 'speech',
	name: 'Speech',
	description: 'Synthesize speech as one audio file',
	operations: [
		{
			value: 'synthesize',
			name: 'Synthesize',
			action: 'Synthesize speech',
			description: 'Reads text aloud and returns one audio file (MP3, PCM, WAV or Opus)',
			module: synthesize,
		},
	],
	catalog: speechCatalog,
};
