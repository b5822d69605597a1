/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Stand-ins for the two n8n-nodes-base nodes our example workflows use:
 * n8n-nodes-base does not install here (see environment.md), and workflows
 * exported from n8n start with "When clicking 'Execute workflow'".
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * n8n-nodes-base.manualTrigger. The real one is a `trigger()` node that emits
 * one empty item; ours has no inputs (so `Workflow.getStartNode()` picks it)
 * and passes on the items the harness put on the execution stack
 * (`RunOptions.input`, default `[{ json: {} }]`), in every execution mode.
 */
export class HarnessManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n (harness stand-in)',
		maxNodes: 1,
		defaults: { name: "When clicking 'Execute workflow'" },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** n8n-nodes-base.noOp: passes its input through unchanged. */
export class HarnessNoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation (harness stand-in)',
		defaults: { name: 'No Operation, do nothing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
