/**
 * Wire names the interface does not give for POST /v1beta/cachedContents: the
 * Gemini API's, the protocol it mirrors (docs/assumed-field-names.md). Additional
 * Body Fields (JSON) overrides any of them.
 */
export const CACHED_CONTENT_WIRE = {
	toolConfig: 'toolConfig',
	functionCallingConfig: 'functionCallingConfig',
	mode: 'mode',
	allowedFunctionNames: 'allowedFunctionNames',
	declarationName: 'name',
	declarationBehavior: 'behavior',
	parametersJsonSchema: 'parametersJsonSchema',
	responseJsonSchema: 'responseJsonSchema',
	inlineData: 'inlineData',
	fileData: 'fileData',
	/** A turn's Binary Properties become an `inlineData` part. */
	inlineMimeType: 'mimeType',
	inlineBase64: 'data',
} as const;
