import { z } from 'zod';

import { CACHED_CONTENT_WIRE as W } from './wireNames';
import { addIssue, atMostChars } from '../../../shared/validation';

/** Checks an assembled cached-content body; members the schema does not name pass to the gateway. */

export const MAX_DISPLAY_NAME = 128;
export const FUNCTION_CALLING_MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;
/** Modes under which allowed function names may be given. */
const NAMES_ALLOWED_WITH = ['ANY', 'VALIDATED'];

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const part = z
	.record(z.unknown())
	.refine((value) => Object.keys(value).length > 0, {
		message: 'a part must carry text or another part kind',
	})
	.refine((value) => value.text === undefined || typeof value.text === 'string', {
		message: 'text must be a string',
		path: ['text'],
	});

const declaration = z
	.object({
		[W.declarationName]: z
			.string({ required_error: 'every function declaration needs a name' })
			.min(1, 'every function declaration needs a name'),
		description: z.string().optional(),
		[W.declarationBehavior]: z.enum(['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING']).optional(),
	})
	.passthrough()
	.refine((d) => d.parameters === undefined || d[W.parametersJsonSchema] === undefined, {
		message: `parameters and ${W.parametersJsonSchema} cannot both be set`,
	})
	.refine((d) => d.response === undefined || d[W.responseJsonSchema] === undefined, {
		message: `response and ${W.responseJsonSchema} cannot both be set`,
	});

export const cachedContentBodySchema = z
	.object({
		model: z
			.string()
			.regex(/^models\/[^/]+$/, 'must be a model ID (sent as models/{model}, one segment after the slash)'),
		contents: z
			.array(
				z
					.object({
						role: z.enum(['user', 'model'], { errorMap: () => ({ message: 'role must be user or model' }) }),
						parts: z
							.array(part, { required_error: 'every turn needs parts' })
							.min(1, 'every turn needs at least one part'),
					})
					.passthrough(),
				{ invalid_type_error: 'must be a list of turns, each with role and parts' },
			)
			.min(1, 'add at least one turn'),
		systemInstruction: z
			.object({ parts: z.array(z.object({ text: z.string() }).passthrough()).min(1, 'needs text') })
			.passthrough()
			.optional(),
		tools: z
			.array(
				z
					.object({
						functionDeclarations: z.array(declaration).min(1, 'at least one function declaration').optional(),
					})
					.passthrough(),
			)
			.optional(),
		[W.toolConfig]: z
			.object({
				[W.functionCallingConfig]: z
					.object({
						[W.mode]: z.enum(FUNCTION_CALLING_MODES).optional(),
						[W.allowedFunctionNames]: z.array(z.string()).optional(),
					})
					.passthrough()
					.optional(),
			})
			.passthrough()
			.optional(),
		ttl: z
			.string()
			.regex(/^\d+(\.\d{1,9})?s$/, 'must be seconds like "3600s" (up to 9 fraction digits)')
			.optional(),
		expireTime: z.string().regex(RFC3339, 'must be an RFC 3339 time, e.g. 2026-01-31T12:00:00Z').optional(),
		displayName: atMostChars(z.string(), MAX_DISPLAY_NAME).optional(),
	})
	.passthrough()
	.superRefine((body, ctx) => {
		if (body.ttl !== undefined && body.expireTime !== undefined) {
			addIssue(ctx, ['expireTime'], 'set either a TTL or an expire time, not both');
		}
		const seen = new Set<string>();
		for (const tool of body.tools ?? []) {
			for (const name of (tool.functionDeclarations ?? []).map((d) => String(d.name))) {
				if (seen.has(name)) addIssue(ctx, ['tools'], `the function name "${name}" is declared twice`);
				seen.add(name);
			}
		}
		const config = body[W.toolConfig]?.[W.functionCallingConfig];
		const names = config?.[W.allowedFunctionNames];
		if (!names?.length) return;
		const path = [W.toolConfig, W.functionCallingConfig, W.allowedFunctionNames];
		if (!NAMES_ALLOWED_WITH.includes(String(config?.[W.mode]))) {
			addIssue(ctx, path, 'only allowed with the function-calling mode ANY or VALIDATED');
		}
		const unknown = names.filter((name) => !seen.has(name));
		if (unknown.length) addIssue(ctx, path, `not declared as functions: ${unknown.join(', ')}`);
	});

export const CACHED_CONTENT_LABELS: Record<string, string> = {
	model: 'Model',
	contents: 'Contents',
	systemInstruction: 'System Instruction',
	tools: 'Function Declarations (JSON)',
	[`${W.toolConfig}.${W.functionCallingConfig}.${W.mode}`]: 'Function Calling Mode',
	[`${W.toolConfig}.${W.functionCallingConfig}.${W.allowedFunctionNames}`]: 'Allowed Function Names',
	ttl: 'TTL (Seconds)',
	expireTime: 'Expire Time',
	displayName: 'Display Name',
};
