/**
 * A video reference row shows the member its Source picks (URL or
 * Input Binary Field), and n8n keeps only that one when it saves the row
 * (NodeHelpers.getNodeParameters, as the editor does). A row saved before
 * binaries existed has no Source and stays a URL row.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';

const description = new GenerationGateway().description;

function savedRows(rows: INodeParameters[]): INodeParameters[] {
	const values = {
		resource: 'video',
		operation: 'create',
		model: { __rl: true, mode: 'list', value: 'vidD-h3' },
		prompt: 'p',
		references: { reference: rows },
	} as unknown as INodeParameters;
	const saved = NodeHelpers.getNodeParameters(
		description.properties,
		values,
		false,
		false,
		null,
		description,
	);
	return ((saved?.references as INodeParameters).reference as INodeParameters[]) ?? [];
}

describe('video reference row: Source picks the member shown and saved', () => {
	it.each([
		[
			'Input Binary Field',
			{ kind: 'audio', source: 'binary', binaryProperty: 'narration', url: 'https://x/a.mp3' },
			{ kind: 'audio', source: 'binary', binaryProperty: 'narration' },
		],
		[
			'URL',
			{ kind: 'video', source: 'url', url: 'https://x/c.mp4', binaryProperty: 'clip' },
			{ kind: 'video', url: 'https://x/c.mp4' },
		],
		['no Source (saved before binaries)', { url: 'https://x/old.png' }, { url: 'https://x/old.png' }],
	])('%s', (_case, row, saved) => {
		expect(savedRows([row as INodeParameters])).toEqual([saved]);
	});
});
