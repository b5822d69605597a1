/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The image example workflow with its node's parameters changed, for the image workflow tests. */
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { loadWorkflowFile } from '../harness';

export const IMAGE_NODE = 'Generate Cover Images';
export const IMAGE_PATH = '/v1/images/generations';
export const IMAGE_EXAMPLE = join(__dirname, '..', '..', 'examples', 'image-scheduled-generation.json');

/**
 * The example, started by the manual trigger instead of its schedule (as the
 * demo does), with `parameters` replacing the image node's (resource and
 * operation kept) and `settings` set on the node (e.g. onError).
 */
export function imageWorkflow(parameters: IDataObject, settings: IDataObject = {}): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(loadWorkflowFile(IMAGE_EXAMPLE))) as WorkflowJson;
	const trigger = copy.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger')!;
	Object.assign(trigger, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	const node = copy.nodes.find((n) => n.name === IMAGE_NODE)!;
	node.parameters = { resource: 'image', operation: 'generate', ...parameters };
	Object.assign(node, settings);
	return copy;
}

/** A resource-locator value as the editor stores it. */
export const model = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });
