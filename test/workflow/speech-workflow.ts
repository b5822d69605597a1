/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The speech example workflow with its speech node's parameters changed, for the speech workflow tests. */
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { loadWorkflowFile } from '../harness';

export const SPEECH_NODE = 'Synthesize Speech';
export const SPEECH_PATH = '/v1/audio/speech';
export const SPEECH_EXAMPLE = join(__dirname, '..', '..', 'examples', 'speech-synthesize.json');

export function speechWorkflow(parameters: IDataObject = {}, settings: IDataObject = {}): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(loadWorkflowFile(SPEECH_EXAMPLE))) as WorkflowJson;
	const node = copy.nodes.find((n) => n.name === SPEECH_NODE)!;
	Object.assign(node.parameters, parameters);
	Object.assign(node, settings);
	return copy;
}
