import type { IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { refusal } from '../../shared/validation';

/** n8n hands a `json` field over as text or, from an expression, as a value; empty text is "not set". */
export function readJsonParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	fallback: unknown = undefined,
): unknown {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	if (typeof raw !== 'string') return raw;
	if (!raw.trim()) return undefined;
	const parsed = jsonParse<unknown>(raw, { fallbackValue: Symbol.for('invalid') });
	if (parsed === Symbol.for('invalid')) {
		throw refusal(ctx.getNode(), label, 'is not valid JSON', itemIndex);
	}
	return parsed;
}

/** Splits a list typed one per line (or comma-separated when `commas`), dropping empty entries. */
export function splitList(value: unknown, commas = false): string[] {
	if (Array.isArray(value)) return value.map(String).filter(Boolean);
	if (typeof value !== 'string') return [];
	return value
		.split(commas ? /[\n,]/ : /\n/)
		.map((entry) => (commas ? entry.trim() : entry.replace(/\r$/, '')))
		.filter((entry) => entry !== '');
}
