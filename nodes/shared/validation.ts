import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';
import type { ZodIssue, ZodType } from 'zod';

const NOT_SENT = 'The request was not sent to the gateway, so no credit was spent.';

/** A refusal before sending names the field as the form shows it and says what is accepted. */
export function refusal(node: INode, field: string, problem: string, itemIndex?: number): NodeOperationError {
	return refused(node, `${field}: ${problem}`, itemIndex);
}

/** `more` lists further problems in the description. */
function refused(node: INode, message: string, itemIndex?: number, more: string[] = []): NodeOperationError {
	const description = [...more, NOT_SENT].join('\n');
	const error = new NodeOperationError(node, message, { itemIndex, description });
	error.context = { ...error.context, refusedBeforeSending: true };
	return error;
}

export function isRefusal(error: unknown): boolean {
	return error instanceof NodeOperationError && error.context?.refusedBeforeSending === true;
}

function issueText(issue: ZodIssue, labels: Record<string, string>): string {
	const path = issue.path.map(String);
	const known = [...path]
		.map((_, n) => path.slice(0, path.length - n).join('.'))
		.find((key) => labels[key] !== undefined);
	const label = known !== undefined ? labels[known] : path.join('.') || 'Request';
	const rest = known !== undefined ? path.slice(known.split('.').length) : [];
	const where = rest.length
		? ` (${rest.map((part) => (/^\d+$/.test(part) ? `#${Number(part) + 1}` : part)).join(' ')})`
		: '';
	return `${label}${where}: ${issue.message}`;
}

/** Throws one error listing every problem; `labels` maps wire names to form labels. */
export function assertValid<T>(
	node: INode,
	schema: ZodType<T>,
	body: unknown,
	labels: Record<string, string>,
	itemIndex?: number,
): T {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const [first, ...others] = result.error.issues.map((issue) => issueText(issue, labels));
	throw refused(node, first, itemIndex, others);
}

export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** `String(value)` would throw on an object such as `{"toString": []}` from Additional Body Fields. */
export function modelIdOf(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/** Code points, as users and the gateway count: an emoji is one character, not two UTF-16 units. */
export const charCount = (text: string): number => [...text].length;

/** An empty field, or an expression that yields nothing (`{{ $json.style }}` without `style`). */
export function isUnset(value: unknown): value is undefined | null | '' {
	return value === undefined || value === null || value === '';
}

export function shownValue(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Accepts a number or text holding one (" 7.5 "); anything else is refused, not dropped. */
export function formNumber(
	node: INode,
	field: string,
	value: unknown,
	itemIndex?: number,
): number | undefined {
	if (isUnset(value)) return undefined;
	const trimmed = typeof value === 'string' ? value.trim() : value;
	if (trimmed === '') return undefined;
	const number =
		typeof trimmed === 'number'
			? trimmed
			: typeof trimmed === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)
				? Number(trimmed)
				: Number.NaN;
	if (!Number.isFinite(number)) {
		throw refusal(node, field, `${shownValue(value)} is not a number`, itemIndex);
	}
	return number;
}

export function tooManyChars(max: number, text: string, after = ''): string {
	return `must be at most ${max} characters${after} (has ${charCount(text)})`;
}

/** `text` limited to `max` characters as users count them; `after` follows the limit in the message. */
export function atMostChars(text: z.ZodString, max: number, after = '') {
	return text.refine(
		(value) => charCount(value) <= max,
		(value) => ({ message: tooManyChars(max, value, after) }),
	);
}

/** A refinement's own problem at `path` (relative to the value refined). */
export function addIssue(ctx: z.RefinementCtx, path: Array<string | number>, message: string): void {
	ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
}

/** One of `values`; anything else reads "must be one of a, b, c". */
export function oneOf<T extends readonly [string, ...string[]]>(values: T) {
	return z.enum(values, { message: `must be one of ${values.join(', ')}` });
}

/** A node setting (a timeout, a concurrency) out of range is refused, not clamped. */
export function formSetting(
	node: INode,
	field: string,
	value: unknown,
	rule: { min?: number; above?: number; max: number; integer?: boolean; fallback: number },
	itemIndex?: number,
): number {
	const number = formNumber(node, field, value, itemIndex);
	if (number === undefined) return rule.fallback;
	if (rule.integer && !Number.isInteger(number)) {
		throw refusal(node, field, `must be a whole number (got ${number})`, itemIndex);
	}
	const low = rule.above !== undefined ? number <= rule.above : number < (rule.min ?? -Infinity);
	if (low || number > rule.max) {
		const range =
			rule.above !== undefined
				? `more than ${rule.above} and at most ${rule.max}`
				: `${rule.min} to ${rule.max}`;
		throw refusal(node, field, `must be ${range} (got ${number})`, itemIndex);
	}
	return number;
}
