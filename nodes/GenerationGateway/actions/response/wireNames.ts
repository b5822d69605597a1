/**
 * Assumed wire names of POST /v1/responses. The interface's members table
 * names the top-level members; what it describes without a name takes the
 * OpenAI Responses name, the protocol the endpoint mirrors. Additional Body
 * Fields (JSON) overrides any of them.
 */
export const RESPONSE_WIRE = {
	/** The summary-generation setting of `reasoning`: OpenAI's `reasoning.generate_summary`. */
	reasoningGenerateSummary: 'generate_summary',
	/** The moderation configuration object: `moderation`, with the moderation model as `model`. */
	moderation: 'moderation',
	moderationModel: 'model',
	/** Input text block: `input_text` with `text` (the interface's example). */
	inputText: 'input_text',
	/** Image input block: OpenAI's `input_image` with `image_url` (a data URL for binary input). */
	inputImage: 'input_image',
	inputImageUrl: 'image_url',
	/** Audio input block: OpenAI's `input_audio` with `input_audio: { data (base64), format }`. */
	inputAudio: 'input_audio',
	/** File input block: OpenAI's `input_file` with `file_data` (a data URL) and `filename`. */
	inputFile: 'input_file',
	inputFileData: 'file_data',
	inputFileName: 'filename',
} as const;

/**
 * Tool kinds the interface lists (function, web search, file search, code
 * interpreter, computer, MCP) and the `type` values OpenAI Responses gives them.
 */
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
