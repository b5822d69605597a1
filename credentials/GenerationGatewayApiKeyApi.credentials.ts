import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** The service API key, sent as `x-api-key`. Used by the Message resource. */
export class GenerationGatewayApiKeyApi implements ICredentialType {
	name = 'generationGatewayApiKeyApi';

	displayName = 'Generation Gateway (API Key) API';

	icon = { light: 'file:generationGateway.svg', dark: 'file:generationGateway.dark.svg' } as const;

	documentationUrl = 'https://github.com/generation-gateway/n8n-nodes-generation-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://gateway.example.com',
			description: 'The gateway address, without a trailing /v1',
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The service API key, sent in the x-api-key header',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	// A body without a model or messages is refused (400) before anything is billed;
	// only a bad key answers 401 or 403.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1/messages',
			method: 'POST',
			body: { max_tokens: 0 },
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403] },
		},
	};
}
