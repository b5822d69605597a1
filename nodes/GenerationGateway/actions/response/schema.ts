import { z } from 'zod';

import { RESPONSE_TOOL_TYPES, RESPONSE_WIRE as W } from './wireNames';
import { addIssue, atMostChars, oneOf } from '../../../shared/validation';

/** Checks an assembled response body; members the schema does not name pass to the gateway. */

export const MAX_SAFETY_IDENTIFIER = 64;

export const RESPONSE_INCLUDE = [
	'web_search_call.action.sources',
	'code_interpreter_call.outputs',
	'computer_call_output.output.image_url',
	'file_search_call.results',
	'message.input_image.image_url',
	'message.output_text.logprobs',
	'reasoning.encrypted_content',
] as const;
export const REASONING_EFFORT = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export const REASONING_SUMMARY = ['auto', 'concise', 'detailed'] as const;
export const REASONING_CONTEXT = ['auto', 'current_turn', 'all_turns'] as const;
export const RESPONSE_SERVICE_TIERS = [
	'auto',
	'default',
	'flex',
	'scale',
	'priority',
	'fast',
	'ultrafast',
] as const;

const int = () => z.number().int('must be a whole number');
const between = (min: number, max: number) =>
	z.number().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`);

/** An input item: a message ({role, content}) or another item kind identified by its `type`. */
const inputItem = z
	.object({ role: z.string().min(1).optional(), type: z.string().optional(), content: z.unknown() })
	.passthrough()
	.superRefine((item, ctx) => {
		if (item.role === undefined) {
			if (!item.type) addIssue(ctx, [], 'every input item needs a role or a type');
			return;
		}
		if (typeof item.content === 'string') return;
		if (!Array.isArray(item.content))
			return addIssue(ctx, ['content'], 'content must be text or a list of blocks');
		item.content.forEach((block, index) => {
			const type = (block as { type?: unknown } | null)?.type;
			if (typeof type !== 'string' || !type) addIssue(ctx, ['content', index], 'every block needs a "type"');
		});
	});

const tool = z
	.object({ type: oneOf(RESPONSE_TOOL_TYPES), name: z.string().optional() })
	.passthrough()
	.refine((value) => value.type !== 'function' || !!value.name, {
		message: 'a function tool needs a name',
		path: ['name'],
	});

export const responseBodySchema = z
	.object({
		model: z.string().trim().min(1, 'enter a model ID'),
		input: z
			.union([z.string(), z.array(inputItem)], {
				errorMap: () => ({ message: 'must be text or a list of input items' }),
			})
			.optional(),
		instructions: z.string().optional(),
		previous_response_id: z.string().min(1).optional(),
		conversation: z.union([z.string().min(1), z.record(z.unknown())]).optional(),
		background: z.boolean().optional(),
		include: z.array(oneOf(RESPONSE_INCLUDE)).optional(),
		max_output_tokens: int().min(1, 'must be 1 or more').optional(),
		max_tool_calls: int().min(0, 'must be 0 or more').optional(),
		parallel_tool_calls: z.boolean().optional(),
		prompt_cache_key: z.string().optional(),
		prompt_cache_retention: z.enum(['in_memory', '24h']).optional(),
		reasoning: z
			.object({
				effort: oneOf(REASONING_EFFORT).optional(),
				summary: oneOf(REASONING_SUMMARY).optional(),
				[W.reasoningGenerateSummary]: oneOf(REASONING_SUMMARY).optional(),
				context: oneOf(REASONING_CONTEXT).optional(),
				mode: z.string().min(1).optional(),
			})
			.passthrough()
			.optional(),
		safety_identifier: atMostChars(z.string(), MAX_SAFETY_IDENTIFIER).optional(),
		service_tier: oneOf(RESPONSE_SERVICE_TIERS).optional(),
		store: z.boolean().optional(),
		stream: z.boolean().optional(),
		temperature: between(0, 2).optional(),
		top_p: between(0, 1).optional(),
		tools: z.array(tool).optional(),
		tool_choice: z
			.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.string() }).passthrough()], {
				errorMap: () => ({ message: 'must be none, auto or required' }),
			})
			.optional(),
		top_logprobs: int().min(0, 'must be between 0 and 20').max(20, 'must be between 0 and 20').optional(),
		truncation: z.enum(['auto', 'disabled']).optional(),
		user: z.string().optional(),
		[W.moderation]: z.record(z.unknown()).optional(),
	})
	.passthrough()
	.refine((body) => body.previous_response_id === undefined || body.conversation === undefined, {
		message: 'cannot be combined with Previous Response ID: use one of the two',
		path: ['conversation'],
	});
