import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Used for images, videos, speech, responses, the balance and the trigger's confirmation. */
export class GenerationGatewayBearerApi implements ICredentialType {
	name = 'generationGatewayBearerApi';

	displayName = 'Generation Gateway (Bearer Token) API';

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
			displayName: 'Auth Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The account auth token, sent as "Authorization: Bearer &lt;token&gt;"',
			required: true,
		},
	];

	// A function, not an expression template: the package reads video tasks after its execution
	// has put itself to wait, when n8n no longer evaluates expressions for that execution.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.token ?? '')}` },
		};
	}

	// The balance read spends no credit and answers 401 to a bad token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1/user/balance',
			method: 'GET',
			headers: { 'Content-Type': 'none' },
		},
	};
}
