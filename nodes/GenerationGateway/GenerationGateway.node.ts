import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialDescriptions, nodeProperties, nodeWebhooks } from './actions/resources';
import { routeWebhook, router } from './actions/router';
import { listSearch } from './methods/listSearch';

export class GenerationGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Generation Gateway',
		name: 'generationGateway',
		icon: { light: 'file:generationGateway.svg', dark: 'file:generationGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Generate images, videos, speech and text through the Generation Gateway',
		defaults: {
			name: 'Generation Gateway',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialDescriptions(),
		// Video Create and Wait's callback mode: the wait's own address calls webhook() below.
		webhooks: nodeWebhooks(),
		properties: nodeProperties(),
	};

	methods = {
		listSearch,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await routeWebhook.call(this);
	}
}
