import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue, ZodType } from 'zod';

/**
 * Checks an assembled request body before anything is sent. A refusal names
 * the field as the form shows it (`labels` maps wire names to form labels)
 * and says what the interface accepts, so the user can fix it without
 * reading the gateway's documentation.
 */
export function refusal(node: INode, field: string, problem: string, itemIndex?: number): NodeOperationError {
	return refused(
		new NodeOperationError(node, `${field}: ${problem}`, {
			itemIndex,
			description: 'The request was not sent to the gateway, so no credit was spent.',
		}),
	);
}

/** Marks an error as a refusal before sending (nothing reached the gateway), for isRefusal. */
function refused(error: NodeOperationError): NodeOperationError {
	error.context = { ...error.context, refusedBeforeSending: true };
	return error;
}

/** Whether an error is a refusal of the node's own checks: nothing was sent, nothing charged. */
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

/** Validates `body` with `schema`; throws one NodeOperationError listing every problem found. */
export function assertValid<T>(
	node: INode,
	schema: ZodType<T>,
	body: unknown,
	labels: Record<string, string>,
	itemIndex?: number,
): T {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const problems = result.error.issues.map((issue) => issueText(issue, labels));
	const [first, ...others] = problems;
	return (() => {
		throw refused(
			new NodeOperationError(node, first, {
				itemIndex,
				description: [...others, 'The request was not sent to the gateway, so no credit was spent.'].join(
					'\n',
				),
			}),
		);
	})();
}

/**
 * The model ID a body names, for choosing its rules: only a string counts (the
 * schema then refuses anything else as the Model field). `String(value)` would
 * throw on an object from Additional Body Fields such as `{"toString": []}`.
 */
export function modelIdOf(value: unknown): string {
	return typeof value === 'string' ? value : '';
}

/**
 * Characters as a user and the gateway count them: Unicode code points, so an
 * emoji or any other character outside the Basic Multilingual Plane is one
 * character, not the two UTF-16 units JavaScript's `length` counts. Every
 * length limit of the interface is checked with this.
 */
export const charCount = (text: string): number => [...text].length;

/**
 * Whether a form value means "not set": an empty field, or an expression that
 * yields nothing (`{{ $json.style }}` on an item without `style` gives
 * undefined; a JSON null gives null).
 */
export function isUnset(value: unknown): value is undefined | null | '' {
	return value === undefined || value === null || value === '';
}

/** The value shown in a refusal: JSON, cut to a readable length. */
export function shownValue(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * A number typed in the form or given by an expression: unset (see isUnset)
 * gives undefined; a number, or text holding one ("10", " 7.5 "), gives the
 * number; anything else (text such as "ten", a boolean, an object) is refused
 * before sending, naming the field, instead of being dropped.
 */
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

/** The refusal of a text over a length limit, counted in characters (see charCount). */
export function tooManyChars(max: number, text: string, after = ''): string {
	return `must be at most ${max} characters${after} (has ${charCount(text)})`;
}

/**
 * A node setting typed in the form or given by an expression (a timeout, a
 * concurrency): unset gives `fallback`; a number outside `min`-`max` (or not
 * whole when `integer`) or text that is no number is refused, naming the
 * field, instead of being replaced by the default or clamped.
 */
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
