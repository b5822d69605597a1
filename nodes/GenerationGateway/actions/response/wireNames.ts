/**
 * Wire names the interface does not give for POST /v1/responses: OpenAI Responses',
 * the protocol it mirrors (docs/assumed-field-names.md). Additional Body Fields
 * (JSON) overrides any of them.
 */
export const RESPONSE_WIRE = {
	reasoningGenerateSummary: 'generate_summary',
	moderation: 'moderation',
	moderationModel: 'model',
	inputText: 'input_text',
	inputImage: 'input_image',
	inputImageUrl: 'image_url',
	inputAudio: 'input_audio',
	inputFile: 'input_file',
	inputFileData: 'file_data',
	inputFileName: 'filename',
} as const;

export const RESPONSE_TOOL_TYPES = [
	'function',
	'web_search',
	'web_search_preview',
	'file_search',
	'code_interpreter',
	'computer',
	'computer_use_preview',
	'mcp',
] as const;
