/**
 * Wire names the interface does not give for POST /v1/messages: those of the
 * protocol it mirrors (Anthropic Messages); docs/assumed-field-names.md lists them.
 * Additional Body Fields (JSON) overrides any.
 */
export const MESSAGE_WIRE = {
	/** `{type: "image", source: {type: "base64", media_type, data}}`; a PDF is a `document` block. */
	imageBlock: 'image',
	documentBlock: 'document',
	blockSource: 'source',
	base64Source: 'base64',
	sourceMediaType: 'media_type',
	sourceData: 'data',
	stream: 'stream',
	stopSequences: 'stop_sequences',
	temperature: 'temperature',
	topP: 'top_p',
	topK: 'top_k',
	thinking: 'thinking',
	thinkingBudget: 'budget_tokens',
	thinkingDisplay: 'display',
	/** No published name: kept inside `thinking`, where the interface lists it. */
	thinkingUnmatched: 'unmatched_blocks',
	tools: 'tools',
	toolInputSchema: 'input_schema',
	toolChoice: 'tool_choice',
	outputConfig: 'output_config',
	effort: 'effort',
	serviceTier: 'service_tier',
	speed: 'speed',
	container: 'container',
	contextManagement: 'context_management',
	diagnostics: 'diagnostics',
	fallbackCreditToken: 'fallback_credit_token',
	fallbacks: 'fallbacks',
	inferenceGeo: 'inference_geo',
} as const;
