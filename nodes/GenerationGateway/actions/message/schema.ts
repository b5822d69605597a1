import { z } from 'zod';

import { MESSAGE_WIRE as W } from './wireNames';
import { addIssue } from '../../../shared/validation';

/** Checks an assembled message body; members the schema does not name pass to the gateway. */

export const MAX_MESSAGES = 100_000;
export const MIN_THINKING_BUDGET = 1024;

const jsonObject = z.record(z.unknown());
/** A turn: role `user` or `assistant` (a `system` role gets a hint), content text or blocks. */
const turn = z
	.object({
		role: z.string({ required_error: 'every turn needs a role' }),
		content: z.union([z.string(), z.array(z.unknown())], {
			errorMap: () => ({ message: 'content must be text or a list of content blocks' }),
		}),
	})
	.passthrough()
	.superRefine((value, ctx) => {
		if (value.role === 'system') {
			addIssue(
				ctx,
				['role'],
				'system-role messages are not supported: put the system prompt in the System field',
			);
		} else if (value.role !== 'user' && value.role !== 'assistant') {
			addIssue(ctx, ['role'], `role must be "user" or "assistant", not "${value.role}"`);
		}
		if (!Array.isArray(value.content)) return;
		if (!value.content.length) addIssue(ctx, ['content'], 'a content block list must not be empty');
		value.content.forEach((entry, index) => {
			const type = (entry as { type?: unknown } | null)?.type;
			if (typeof entry !== 'object' || entry === null || typeof type !== 'string' || !type) {
				addIssue(ctx, ['content', index], 'every content block must be an object with a "type"');
			}
		});
	});

/** `enabled` carries a budget; the discriminator keeps the error on the member that is wrong. */
const thinking = z.discriminatedUnion(
	'type',
	[
		z
			.object({
				type: z.literal('enabled'),
				[W.thinkingBudget]: z
					.number({ required_error: 'enabled thinking needs a token budget' })
					.int('must be a whole number')
					.min(MIN_THINKING_BUDGET, `must be at least ${MIN_THINKING_BUDGET}`),
			})
			.passthrough(),
		z.object({ type: z.literal('adaptive') }).passthrough(),
		z.object({ type: z.literal('disabled') }).passthrough(),
	],
	{ errorMap: () => ({ message: 'type must be enabled, adaptive or disabled' }) },
);

const thinkingSettings = z
	.object({
		[W.thinkingDisplay]: z
			.enum(['summarized', 'omitted', 'updates'], {
				errorMap: () => ({ message: 'must be summarized, omitted or updates' }),
			})
			.nullish(),
		[W.thinkingUnmatched]: z
			.enum(['error', 'drop_block'], { errorMap: () => ({ message: 'must be error or drop_block' }) })
			.nullish(),
	})
	.passthrough();

const unit = (label: string) =>
	z.number().min(0, `${label} must be between 0 and 1`).max(1, `${label} must be between 0 and 1`);

const tool = z
	.object({
		name: z.string().min(1, 'every tool needs a name'),
		description: z.string().optional(),
		[W.toolInputSchema]: jsonObject.optional(),
		type: z.string().optional(),
	})
	.passthrough()
	.refine((value) => value.type !== undefined || value[W.toolInputSchema] !== undefined, {
		message: `a custom tool (no "type") needs an input JSON Schema (${W.toolInputSchema})`,
	});

const toolChoice = z
	.object({ type: z.enum(['auto', 'any', 'tool', 'none']), name: z.string().optional() })
	.passthrough()
	.refine((value) => value.type !== 'tool' || !!value.name, {
		message: 'tool choice "tool" needs the name of the tool to use',
		path: ['name'],
	});

export const messageBodySchema = z
	.object({
		model: z.string().trim().min(1, 'enter a model ID'),
		max_tokens: z.number().int('must be a whole number').min(0, 'must be 0 or more'),
		messages: z
			.array(turn, { invalid_type_error: 'must be a list of turns, each with role and content' })
			.min(1, 'add at least one turn')
			.max(MAX_MESSAGES, `at most ${MAX_MESSAGES} messages`),
		system: z.string().optional(),
		[W.stream]: z.boolean().optional(),
		[W.stopSequences]: z.array(z.string().min(1, 'a stop sequence must not be empty')).optional(),
		[W.temperature]: unit('temperature').optional(),
		[W.topP]: unit('top_p').optional(),
		[W.topK]: z.number().int('must be a whole number').min(0, 'must be 0 or more').optional(),
		[W.thinking]: thinking.and(thinkingSettings).nullable().optional(),
		[W.tools]: z.array(tool, { invalid_type_error: 'must be a list of tool definitions' }).optional(),
		[W.toolChoice]: toolChoice.optional(),
		[W.outputConfig]: z
			.object({ [W.effort]: z.enum(['low', 'medium', 'high']).optional() })
			.passthrough()
			.optional(),
		[W.serviceTier]: z.enum(['auto', 'standard_only']).optional(),
		[W.speed]: z.enum(['standard', 'fast']).optional(),
		[W.container]: z.union([z.string().min(1), jsonObject]).optional(),
		[W.contextManagement]: jsonObject.optional(),
		[W.diagnostics]: jsonObject.optional(),
		[W.fallbackCreditToken]: z.string().min(1).optional(),
		[W.fallbacks]: z.array(z.object({ model: z.string().min(1) }).passthrough()).optional(),
		[W.inferenceGeo]: z.string().min(1).optional(),
	})
	.passthrough()
	.superRefine((body, ctx) => {
		// Thinking tokens count toward max_tokens, so the budget must leave room for the reply.
		const config = body[W.thinking] as { type?: string; [key: string]: unknown } | null | undefined;
		const budget = config?.[W.thinkingBudget];
		if (config?.type === 'enabled' && typeof budget === 'number' && budget >= body.max_tokens) {
			const message = `must be below Max Tokens (${body.max_tokens}): thinking tokens count toward it`;
			addIssue(ctx, [W.thinking, W.thinkingBudget], message);
		}
	});

export const MESSAGE_LABELS: Record<string, string> = {
	model: 'Model',
	max_tokens: 'Max Tokens',
	messages: 'Conversation',
	system: 'System',
	[W.stream]: 'Stream',
	[W.stopSequences]: 'Stop Sequences',
	[W.temperature]: 'Temperature',
	[W.topP]: 'Top P',
	[W.topK]: 'Top K',
	[W.thinking]: 'Thinking',
	[`${W.thinking}.${W.thinkingBudget}`]: 'Thinking Budget Tokens',
	[`${W.thinking}.${W.thinkingDisplay}`]: 'Thinking Display',
	[`${W.thinking}.${W.thinkingUnmatched}`]: 'Unmatched Thinking Blocks',
	[W.tools]: 'Tools (JSON)',
	[W.toolChoice]: 'Tool Choice',
	[`${W.toolChoice}.name`]: 'Tool Name',
	[`${W.outputConfig}.${W.effort}`]: 'Effort',
	[W.serviceTier]: 'Service Tier',
	[W.speed]: 'Speed',
	[W.container]: 'Container',
	[W.contextManagement]: 'Context Management (JSON)',
	[W.diagnostics]: 'Diagnostics (JSON)',
	[W.fallbackCreditToken]: 'Fallback Credit Token',
	[W.fallbacks]: 'Fallback Models',
	[W.inferenceGeo]: 'Inference Geography',
};
