/**
 * Which credential each part of the gateway needs: the interface's
 * Authentication table, written once. The node's form, the transport and the
 * simulator all read these tables.
 */

export const BEARER_CREDENTIAL = 'generationGatewayBearerApi';
export const API_KEY_CREDENTIAL = 'generationGatewayApiKeyApi';
export const NATIVE_KEY_CREDENTIAL = 'generationGatewayNativeKeyApi';

export type GatewayCredentialName =
	| typeof BEARER_CREDENTIAL
	| typeof API_KEY_CREDENTIAL
	| typeof NATIVE_KEY_CREDENTIAL;

export type GatewayResource =
	| 'account'
	| 'cachedContent'
	| 'image'
	| 'message'
	| 'response'
	| 'speech'
	| 'video';

/** Resource (as chosen in the form) -> the credential its endpoints accept. */
export const RESOURCE_CREDENTIAL: Record<GatewayResource, GatewayCredentialName> = {
	account: BEARER_CREDENTIAL,
	cachedContent: NATIVE_KEY_CREDENTIAL,
	image: BEARER_CREDENTIAL,
	message: API_KEY_CREDENTIAL,
	response: BEARER_CREDENTIAL,
	speech: BEARER_CREDENTIAL,
	video: BEARER_CREDENTIAL,
};

/** Endpoint path prefix -> credential (the interface's Authentication table). */
export const ENDPOINT_CREDENTIAL: ReadonlyArray<{ prefix: string; credential: GatewayCredentialName }> = [
	{ prefix: '/v1/images/generations', credential: BEARER_CREDENTIAL },
	{ prefix: '/v1/videos', credential: BEARER_CREDENTIAL },
	{ prefix: '/v1/user/balance', credential: BEARER_CREDENTIAL },
	{ prefix: '/v1/responses', credential: BEARER_CREDENTIAL },
	{ prefix: '/v1/audio/speech', credential: BEARER_CREDENTIAL },
	{ prefix: '/v1/messages', credential: API_KEY_CREDENTIAL },
	{ prefix: '/v1beta/cachedContents', credential: NATIVE_KEY_CREDENTIAL },
];

export function credentialForPath(path: string): GatewayCredentialName | undefined {
	return ENDPOINT_CREDENTIAL.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
		?.credential;
}
