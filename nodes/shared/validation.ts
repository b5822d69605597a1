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
	return new NodeOperationError(node, `${field}: ${problem}`, {
		itemIndex,
		description: 'The request was not sent to the gateway, so no credit was spent.',
	});
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
		throw new NodeOperationError(node, first, {
			itemIndex,
			description: [...others, 'The request was not sent to the gateway, so no credit was spent.'].join('\n'),
		});
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
