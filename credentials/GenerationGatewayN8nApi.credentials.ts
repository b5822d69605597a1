import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/** n8n's own public API, from inside n8n, for Video Wait → Recover Waits; the key goes to this address only. */
export class GenerationGatewayN8nApi implements ICredentialType {
	name = 'generationGatewayN8nApi';

	displayName = 'Generation Gateway (Recover Waits) API';

	icon = { light: 'file:generationGateway.svg', dark: 'file:generationGateway.dark.svg' } as const;

	documentationUrl =
		'https://github.com/generation-gateway/n8n-nodes-generation-gateway/blob/main/docs/recover-waits.md';

	properties: INodeProperties[] = [
		{
			displayName: 'n8n Address From Inside',
			name: 'baseUrl',
			type: 'string',
			default: 'http://localhost:5678',
			placeholder: 'http://localhost:5678',
			description:
				'How n8n reaches itself: its own listening address (e.g. http://localhost:5678, or http://n8n:5678 between containers), without /api/v1. Not the public name a proxy serves: it must work from inside every n8n process.',
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'An n8n API key of the owner or an admin (Settings → n8n API → Create an API key), sent as X-N8N-API-KEY',
			required: true,
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				"Whether to connect even when n8n's certificate is not valid for that address (n8n serving https itself, reached as localhost)",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-N8N-API-KEY': '={{$credentials.apiKey}}' } },
	};

	// One execution listed: n8n answers 401 to a bad key, and nothing is changed.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/executions',
			qs: { limit: 1 },
			method: 'GET',
			skipSslCertificateValidation: '={{$credentials.ignoreSslIssues}}',
		},
	};
}
