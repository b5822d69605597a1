import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** The service API key in the native protocol's header, `x-native-api-key`. Used by Cached Content. */
export class GenerationGatewayNativeKeyApi implements ICredentialType {
	name = 'generationGatewayNativeKeyApi';

	displayName = 'Generation Gateway (Native Key) API';

	icon = { light: 'file:generationGateway.svg', dark: 'file:generationGateway.dark.svg' } as const;

	documentationUrl = 'https://github.com/generation-gateway/n8n-nodes-generation-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://gateway.example.com',
			description: 'The gateway address, without a trailing /v1beta',
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The service API key, sent in the x-native-api-key header',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-native-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	// A body without a model or contents is refused (400) before any cache is billed;
	// only a bad key answers 401 or 403.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1beta/cachedContents',
			method: 'POST',
			body: { displayName: 'credential check' },
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403] },
		},
	};
}
