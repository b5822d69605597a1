/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/node-usable-as-tool -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The node as n8n offers it to an AI Agent. n8n's server (not n8n-core)
 * turns every `usableAsTool` node into a tool type at load time
 * (`convertNodeToAiTool` in packages/cli): name + `Tool`, no main input, an
 * `ai_tool` output and a "Description" parameter. This is that conversion,
 * plus a test-only agent node that gets the tools through n8n-core's real
 * `getInputConnectionData` (so `createNodeAsTool` and its `$fromAI()` schema
 * build the tool) and calls one with given arguments.
 */
import path from 'node:path';

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IDataObject,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from './additional-data';
import { registerNodeType } from './engine';
import { PACKAGE_ROOT } from './node-types';

export const GATEWAY_TOOL_TYPE = 'n8n-nodes-generation-gateway.generationGatewayTool';
export const TEST_AGENT_TYPE = 'test.toolCallingAgent';

/** The converted type, as n8n's loader builds it from the built node. */
export function gatewayToolType(): INodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { GenerationGateway } = require(
		path.join(PACKAGE_ROOT, 'dist', 'nodes', 'GenerationGateway', 'GenerationGateway.node.js'),
	) as { GenerationGateway: new () => INodeType };
	const node = new GenerationGateway();
	if (!node.description.usableAsTool) throw new Error('The node is not usableAsTool');
	const description: INodeTypeDescription = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		usableAsTool: undefined,
		properties: [
			{
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: node.description.description,
				required: true,
				typeOptions: { rows: 2 },
			},
			...node.description.properties,
		],
	};
	return { description, execute: node.execute!, methods: node.methods };
}

/** What the test agent saw: the tool's name and argument names, and what the call returned or threw. */
export interface ToolCallReport extends IDataObject {
	toolName: string;
	arguments: string[];
	returned?: string;
	thrown?: string;
}

/** Input: items `{toolArgs}`. Calls the first connected tool once per item, like an agent's tool call. */
class ToolCallingAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Calling Agent (test)',
		name: 'toolCallingAgent',
		group: ['transform'],
		version: 1,
		description: 'Calls a connected tool with the arguments of each input item',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (const [index, item] of this.getInputData().entries()) {
			const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, index)) as Array<{
				name: string;
				schema: { shape?: Record<string, unknown> };
				invoke: (args: unknown) => Promise<unknown>;
			}>;
			const [tool] = tools;
			const report: ToolCallReport = { toolName: tool.name, arguments: Object.keys(tool.schema.shape ?? {}) };
			try {
				report.returned = String(await tool.invoke(item.json.toolArgs));
			} catch (error) {
				report.thrown = (error as Error).message;
			}
			out.push({ json: report, pairedItem: { item: index } });
		}
		return [out];
	}
}

/**
 * Start → the test agent, with the node as its tool ("Gateway Tool", these
 * parameters, a credential of type `credential`): input items `{toolArgs}`.
 */
export function agentWorkflow(parameters: Record<string, unknown>, credential: string): WorkflowJson {
	return {
		name: 'agent tool test',
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{ id: 'a', name: 'Agent', type: TEST_AGENT_TYPE, typeVersion: 1, position: [200, 0], parameters: {} },
			{
				id: 't',
				name: 'Gateway Tool',
				type: GATEWAY_TOOL_TYPE,
				typeVersion: 1,
				position: [200, 200],
				parameters: { toolDescription: 'Generates media', ...parameters },
				credentials: { [credential]: { id: '1', name: 'Gateway' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Gateway Tool': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}

export function registerToolTypes(): void {
	registerNodeType(GATEWAY_TOOL_TYPE, gatewayToolType());
	registerNodeType(TEST_AGENT_TYPE, new ToolCallingAgent());
}
