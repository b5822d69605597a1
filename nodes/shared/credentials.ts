/** Which credential each part of the gateway needs: the form and the transport read one table. */

export const BEARER_CREDENTIAL = 'generationGatewayBearerApi';
/** n8n's own public API, for Video Wait → Recover Waits: never sent to the gateway. */
export const N8N_API_CREDENTIAL = 'generationGatewayN8nApi';
const API_KEY_CREDENTIAL = 'generationGatewayApiKeyApi';
const NATIVE_KEY_CREDENTIAL = 'generationGatewayNativeKeyApi';

const GATEWAY_ENDPOINTS = [
	{ resource: 'account', credential: BEARER_CREDENTIAL, prefixes: ['/v1/user/balance'] },
	{ resource: 'cachedContent', credential: NATIVE_KEY_CREDENTIAL, prefixes: ['/v1beta/cachedContents'] },
	{ resource: 'image', credential: BEARER_CREDENTIAL, prefixes: ['/v1/images/generations'] },
	{ resource: 'message', credential: API_KEY_CREDENTIAL, prefixes: ['/v1/messages'] },
	{ resource: 'response', credential: BEARER_CREDENTIAL, prefixes: ['/v1/responses'] },
	{ resource: 'speech', credential: BEARER_CREDENTIAL, prefixes: ['/v1/audio/speech'] },
	{ resource: 'video', credential: BEARER_CREDENTIAL, prefixes: ['/v1/videos'] },
	// n8n's own API, not the gateway's: no gateway path is sent with it.
	{ resource: 'videoWait', credential: N8N_API_CREDENTIAL, prefixes: [] },
] as const;

export type GatewayResource = (typeof GATEWAY_ENDPOINTS)[number]['resource'];
export type GatewayCredentialName = (typeof GATEWAY_ENDPOINTS)[number]['credential'];

export const RESOURCE_CREDENTIAL = Object.fromEntries(
	GATEWAY_ENDPOINTS.map(({ resource, credential }) => [resource, credential]),
) as Record<GatewayResource, GatewayCredentialName>;

const ENDPOINT_CREDENTIAL: ReadonlyArray<{ prefix: string; credential: GatewayCredentialName }> =
	GATEWAY_ENDPOINTS.flatMap(({ credential, prefixes }) => prefixes.map((prefix) => ({ prefix, credential })));

export function credentialForPath(path: string): GatewayCredentialName | undefined {
	return ENDPOINT_CREDENTIAL.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
		?.credential;
}
