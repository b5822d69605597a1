/**
 * Assumed wire names of POST /v1/messages. The interface names `model`,
 * `max_tokens`, `messages` and `system`, and describes the optional members
 * without their property names. These are the names of the protocol the
 * endpoint mirrors (Anthropic Messages), where it publishes one; the rest
 * are marked "no published name". Additional Body Fields (JSON) overrides any.
 */
export const MESSAGE_WIRE = {
	/** A picture from a binary: Anthropic's image block `{type: "image", source: {type: "base64", media_type, data}}`. */
	imageBlock: 'image',
	/** A PDF from a binary: Anthropic's document block, same `source` shape. */
	documentBlock: 'document',
	/** The `source` of both, and its kind, MIME type and base64 members. */
	blockSource: 'source',
	base64Source: 'base64',
	sourceMediaType: 'media_type',
	sourceData: 'data',
	/** Streaming flag: Anthropic's `stream`. */
	stream: 'stream',
	/** Custom stop sequences: Anthropic's `stop_sequences` (array of strings). */
	stopSequences: 'stop_sequences',
	/** Temperature: Anthropic's `temperature`. */
	temperature: 'temperature',
	/** Nucleus sampling: Anthropic's `top_p`. */
	topP: 'top_p',
	/** Top-k sampling: Anthropic's `top_k`. */
	topK: 'top_k',
	/** Extended thinking configuration: Anthropic's `thinking` object with `type`. */
	thinking: 'thinking',
	/** Token budget of `enabled` thinking: Anthropic's `thinking.budget_tokens`. */
	thinkingBudget: 'budget_tokens',
	/** Thinking display setting: Anthropic's `thinking.display`. */
	thinkingDisplay: 'display',
	/**
	 * Unmatched thinking blocks setting (`error` / `drop_block`): no published
	 * name; kept inside `thinking` next to `display`, where the interface lists it.
	 */
	thinkingUnmatched: 'unmatched_blocks',
	/** Tool definitions: Anthropic's `tools` (`name`, `description`, `input_schema`, `type`). */
	tools: 'tools',
	/** A tool's input JSON Schema: Anthropic's `input_schema`. */
	toolInputSchema: 'input_schema',
	/** Tool choice: Anthropic's `tool_choice` object (`type` auto/any/tool/none, `name` for `tool`). */
	toolChoice: 'tool_choice',
	/** Output configuration with the effort level: Anthropic's `output_config.effort`. */
	outputConfig: 'output_config',
	effort: 'effort',
	/** Service level (`auto`, `standard_only`): Anthropic's `service_tier`. */
	serviceTier: 'service_tier',
	/** Speed mode (`standard`, `fast`): Anthropic's `speed`. */
	speed: 'speed',
	/** Code execution container or its identifier: Anthropic's `container` (object or string). */
	container: 'container',
	/** Context management: Anthropic's `context_management` (object, e.g. `edits`). */
	contextManagement: 'context_management',
	/** Diagnostics: `diagnostics`, the name the Message resource uses for what it returns. */
	diagnostics: 'diagnostics',
	/** Fallback credit token: Anthropic's top-level `fallback_credit_token`. */
	fallbackCreditToken: 'fallback_credit_token',
	/** Model fallback: Anthropic's `fallbacks`, a list of `{ model }` tried in order. */
	fallbacks: 'fallbacks',
	/** Geographic inference preference: Anthropic's `inference_geo` (string). */
	inferenceGeo: 'inference_geo',
} as const;
