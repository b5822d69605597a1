/**
 * Assumed wire names of POST /v1beta/cachedContents. The interface names the
 * top-level members, `parts[].text`, `functionDeclarations` and `parameters` /
 * `response`; the rest take the Gemini API names (the native protocol this
 * endpoint mirrors). Additional Body Fields (JSON) overrides any of them.
 */
export const CACHED_CONTENT_WIRE = {
	/** The tool configuration shared by all tools: Gemini's `toolConfig`. */
	toolConfig: 'toolConfig',
	/** Its function-calling part: Gemini's `toolConfig.functionCallingConfig`. */
	functionCallingConfig: 'functionCallingConfig',
	/** Function-calling mode: Gemini's `functionCallingConfig.mode`. */
	mode: 'mode',
	/** Allowed function names: Gemini's `functionCallingConfig.allowedFunctionNames`. */
	allowedFunctionNames: 'allowedFunctionNames',
	/** Function declaration members: Gemini's `name`, `description`, `behavior`. */
	declarationName: 'name',
	declarationBehavior: 'behavior',
	/** The JSON-Schema variants of `parameters` / `response`: Gemini's `parametersJsonSchema` / `responseJsonSchema`. */
	parametersJsonSchema: 'parametersJsonSchema',
	responseJsonSchema: 'responseJsonSchema',
	/** Part kinds other than text (JSON mode only): Gemini's `inlineData` {mimeType, data}, `fileData` {mimeType, fileUri}, `functionCall`, `functionResponse`, `executableCode`, `codeExecutionResult`, `thought`, `thoughtSignature`. */
	inlineData: 'inlineData',
	fileData: 'fileData',
	/** Members of an `inlineData` part, which a turn's Binary Properties become: Gemini's `mimeType` and `data` (base64). */
	inlineMimeType: 'mimeType',
	inlineBase64: 'data',
} as const;
