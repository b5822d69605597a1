import type { WorkflowJson } from './additional-data';

/**
 * A workflow of a manual trigger named "Start" followed by one Generation
 * Gateway node: the shape most workflow tests need. `settings` are node
 * settings such as `onError`.
 */
export function gatewayWorkflow(options: {
	nodeName: string;
	parameters: Record<string, unknown>;
	credentials: Record<string, { id: string; name: string }>;
	settings?: Record<string, unknown>;
}): WorkflowJson {
	return {
		name: `${options.nodeName} test`,
		nodes: [
			{
				parameters: {},
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: options.parameters,
				id: 'gateway',
				name: options.nodeName,
				type: 'n8n-nodes-generation-gateway.generationGateway',
				typeVersion: 1,
				position: [220, 0],
				credentials: options.credentials,
				...options.settings,
			},
		],
		connections: { Start: { main: [[{ node: options.nodeName, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}
