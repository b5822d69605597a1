import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { BEARER_CREDENTIAL } from '../shared/credentials';
import { TERMINAL_STATUSES, TRIGGER_PATH, VIDEO_STATUSES } from '../shared/videoTask';
import { handleTaskCallback } from './webhook';

/** Starts a workflow when the gateway calls a video task's callback address; the checks are in webhook.ts. */
export class GenerationGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Generation Gateway Trigger',
		name: 'generationGatewayTrigger',
		icon: { light: 'file:generationGateway.svg', dark: 'file:generationGateway.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '=Video task callbacks',
		// n8n's node panel shows both nodes as one entry with this description: it says what
		// the package does, then what this trigger does.
		description:
			'Generate images, videos, speech and text through the Generation Gateway, and start workflows when a video task finishes',
		defaults: { name: 'Generation Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: BEARER_CREDENTIAL,
				required: true,
				displayOptions: { show: { confirm: [true] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: TRIGGER_PATH,
			},
		],
		// The editor draws the credential above the last field its displayOptions name: that
		// field comes first, so the credential heads the form with its toggle right under it.
		properties: [
			{
				displayName: 'Confirm With the Gateway',
				name: 'confirm',
				type: 'boolean',
				default: true,
				description:
					"Whether to read the task with GET /v1/videos/{ID} and emit the gateway's record instead of the caller's claim (needs the bearer credential)",
			},
			{
				displayName:
					"Paste this node's Production URL followed by <code>?secret=</code> and your secret into the Callback URL of a Video → Create node. n8n must be reachable over https for the gateway to call it. For tasks that node creates, n8n also posts the news itself if the gateway's callback does not get through; for tasks created elsewhere, a callback n8n drops while busy starts nothing unless the gateway sends it again.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				required: true,
				description:
					'A long random string. Requests whose "secret" query parameter does not match get HTTP 401 and start nothing.',
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				options: VIDEO_STATUSES.map((status) => ({ name: status, value: status })),
				default: [...TERMINAL_STATUSES],
				description: 'Task statuses that start the workflow; other callbacks are answered and ignored',
			},
		],
	};

	webhookMethods = {
		default: {
			// No registration endpoint exists (the address travels with each task): activation
			// only checks that a secret is set, since an open URL would accept anyone.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const secret = String(this.getNodeParameter('secret', '') ?? '');
				if (secret.length < 8) {
					throw new NodeOperationError(this.getNode(), 'Secret: set at least 8 characters before activating');
				}
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleTaskCallback(this);
	}
}
