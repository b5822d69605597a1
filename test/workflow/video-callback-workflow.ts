/** The workflow of the callback-mode tests: manual trigger → Video (Create and Wait) → NoOp. */
import type { WorkflowJson } from '../harness';

export const VIDEO_NODE = 'Video';

/**
 * `credentialId`: a test on a simulator of its own gives its own id (a gateway of its own), so no
 * credential copy the package keeps for another test's webhooks is used.
 */
export function videoCallbackWorkflow(
	parameters: object = {},
	settings: object = {},
	credentialId = '1',
): WorkflowJson {
	return {
		name: 'video callback test',
		nodes: [
			{
				id: 't',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '5d1f2c3a-0b1e-4a51-9c2d-7e8f9a0b1c2d',
				name: VIDEO_NODE,
				type: 'n8n-nodes-generation-gateway.generationGateway',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					resource: 'video',
					operation: 'createAndWait',
					model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
					prompt: '={{ $json.prompt }}',
					duration: 5,
					requestOptions: { maxConcurrency: 3 },
					...parameters,
				},
				credentials: { generationGatewayBearerApi: { id: credentialId, name: 'Gateway' } },
				...settings,
			},
			{
				id: 'n',
				name: 'After',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [400, 0],
				parameters: {},
			},
		],
		connections: {
			Start: { main: [[{ node: VIDEO_NODE, type: 'main', index: 0 }]] },
			[VIDEO_NODE]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
	} as WorkflowJson;
}

export const promptItems = (prompts: string[]) => prompts.map((prompt, n) => ({ json: { prompt, n } }));
