/** Workflows of the trigger's tests: the trigger (secret set, bearer credential) and a No-Op after it; a Video → Create that calls it back. */
import type { WorkflowJson } from '../harness';
import { gatewayWorkflow } from '../harness';

export const TRIGGER = 'Video Finished';
export const SECRET = 'a-long-test-secret';

export function triggerWorkflow(parameters: object = {}): WorkflowJson {
	return {
		name: 'trigger test',
		nodes: [
			{
				id: 't',
				name: TRIGGER,
				type: 'n8n-nodes-generation-gateway.generationGatewayTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'hook-1',
				parameters: { secret: SECRET, ...parameters },
				credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
			},
			{
				id: 'n',
				name: 'Next',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
	} as WorkflowJson;
}

/** Manual trigger → Video → Create (node "Create") with `callbackUrl` as its Callback URL. */
export function createWithCallback(prompt: string, callbackUrl: string): WorkflowJson {
	return gatewayWorkflow({
		nodeName: 'Create',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: { __rl: true, mode: 'id', value: 'vidC-1.1' },
			prompt,
			duration: 3,
			videoOptions: { callbackUrl },
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
	});
}
