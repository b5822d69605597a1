import type { INode } from 'n8n-workflow';
import type { ZodType } from 'zod';

import {
	CACHED_CONTENT_LABELS,
	MAX_DISPLAY_NAME,
	cachedContentBodySchema,
} from '../../../nodes/GenerationGateway/actions/cachedContent/schema';
import {
	IMAGE_FIELD_LABELS,
	imageRequestSchema,
} from '../../../nodes/GenerationGateway/actions/image/schema';
import {
	MAX_SAFETY_IDENTIFIER,
	responseBodySchema,
} from '../../../nodes/GenerationGateway/actions/response/schema';
import { RESPONSE_LABELS } from '../../../nodes/GenerationGateway/actions/response/options';
import { SPEECH_LABELS, speechBodySchema } from '../../../nodes/GenerationGateway/actions/speech/schema';
import { SPEECH_LIMITS } from '../../../nodes/GenerationGateway/actions/speech/catalog';
import {
	assertValid,
	charCount,
	formNumber,
	formSetting,
	isRefusal,
	isUnset,
} from '../../../nodes/shared/validation';

/**
 * The value rules every form field follows: an empty field or an expression
 * that yields nothing is "not set"; a number typed as text is read as the
 * number; anything else that should be a number is refused, naming the field,
 * never dropped or replaced; text lengths count characters (code points), so an
 * emoji is one character everywhere.
 */

const node: INode = {
	id: 'n',
	name: 'Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const outcome = (read: () => unknown): unknown => {
	try {
		return { value: read() };
	} catch (error) {
		return { refused: (error as Error).message, marked: isRefusal(error) };
	}
};

describe('isUnset: what "not set" means', () => {
	it.each<[string, unknown, boolean]>([
		['undefined (an expression on a missing key)', undefined, true],
		['null (a JSON null)', null, true],
		['empty text', '', true],
		['0', 0, false],
		['false', false, false],
		['a space', ' ', false],
		['an empty object', {}, false],
	])('%s', (_name, value, unset) => {
		expect(isUnset(value)).toBe(unset);
	});
});

describe('formNumber: a number from the form or an expression', () => {
	const field = 'Duration (Seconds)';
	it.each<[string, unknown, unknown]>([
		['nothing: undefined', undefined, { value: undefined }],
		['nothing: null', null, { value: undefined }],
		['nothing: empty text', '', { value: undefined }],
		['nothing: blanks', '  ', { value: undefined }],
		['a number', 10, { value: 10 }],
		['0 is a number (judged by the field rules)', 0, { value: 0 }],
		['-1', -1, { value: -1 }],
		['a fraction', 7.5, { value: 7.5 }],
		['text holding a number', '10', { value: 10 }],
		['text with blanks around a number', ' 12 ', { value: 12 }],
		['a negative number as text', '-1', { value: -1 }],
		['a fraction as text', '2.5', { value: 2.5 }],
		['text', 'ten', { refused: 'Duration (Seconds): "ten" is not a number', marked: true }],
		['a number with a unit', '10s', { refused: 'Duration (Seconds): "10s" is not a number', marked: true }],
		['hexadecimal', '0x10', { refused: 'Duration (Seconds): "0x10" is not a number', marked: true }],
		['exponent', '1e3', { refused: 'Duration (Seconds): "1e3" is not a number', marked: true }],
		['NaN', Number.NaN, { refused: 'Duration (Seconds): null is not a number', marked: true }],
		['Infinity', Infinity, { refused: 'Duration (Seconds): null is not a number', marked: true }],
		['a boolean', true, { refused: 'Duration (Seconds): true is not a number', marked: true }],
		['an object', { s: 1 }, { refused: 'Duration (Seconds): {"s":1} is not a number', marked: true }],
		['a list', [10], { refused: 'Duration (Seconds): [10] is not a number', marked: true }],
	])('%s', (_name, value, expected) => {
		expect(outcome(() => formNumber(node, field, value, 0))).toEqual(expected);
	});
});

describe('formSetting: a setting with a range, never clamped or replaced', () => {
	const concurrency = { min: 1, max: 50, integer: true, fallback: 1 };
	const minutes = { above: 0, max: 120, fallback: 15 };
	const field = 'Request Options → Max Concurrent Requests';
	it.each<[string, unknown, typeof concurrency | typeof minutes, unknown]>([
		['unset gives the default', undefined, concurrency, { value: 1 }],
		['empty gives the default', '', concurrency, { value: 1 }],
		['in range', 3, concurrency, { value: 3 }],
		['text in range', '3', concurrency, { value: 3 }],
		['the top of the range', 50, concurrency, { value: 50 }],
		['above the range', 51, concurrency, { refused: `${field}: must be 1 to 50 (got 51)`, marked: true }],
		['below the range', 0, concurrency, { refused: `${field}: must be 1 to 50 (got 0)`, marked: true }],
		['not whole', 2.5, concurrency, { refused: `${field}: must be a whole number (got 2.5)`, marked: true }],
		['text', 'ten', concurrency, { refused: `${field}: "ten" is not a number`, marked: true }],
		['a fraction above 0', 0.02, minutes, { value: 0.02 }],
		[
			'0 where more than 0 is needed',
			0,
			minutes,
			{ refused: `${field}: must be more than 0 and at most 120 (got 0)`, marked: true },
		],
		[
			'above the top',
			121,
			minutes,
			{ refused: `${field}: must be more than 0 and at most 120 (got 121)`, marked: true },
		],
	])('%s', (_name, value, rule, expected) => {
		expect(outcome(() => formSetting(node, field, value, rule, 0))).toEqual(expected);
	});
});

/**
 * Every length limit of the interface, at and over the limit, in emoji (two
 * UTF-16 units each: a count in UTF-16 units would refuse the rows at the
 * limit) and in plain letters.
 */
const emoji = (n: number) => '🎬'.repeat(n);
const letters = (n: number) => 'a'.repeat(n);

interface LimitRow {
	field: string;
	limit: number;
	schema: ZodType;
	labels: Record<string, string>;
	body: (text: string) => Record<string, unknown>;
	/** What the refusal adds after "must be at most N characters". */
	after?: string;
}

const imageRow = (model: string, limit: number): LimitRow => ({
	field: `Prompt (${model})`,
	limit,
	schema: imageRequestSchema(model),
	labels: IMAGE_FIELD_LABELS,
	body: (prompt) => ({ model, prompt }),
	after: ` for ${model}`,
});
const speech = { model: 'vendor/audioF-3.1-tts-flash', voice: 'narrator_v3.1', input: 'Hi' };

const LIMITS: LimitRow[] = [
	imageRow('legacyimg-2', 1000),
	imageRow('legacyimg-3', 4000),
	imageRow('imagegen-2', 32000),
	imageRow('imagegen-2.5-sunburst', 32000),
	{
		field: 'Text',
		limit: SPEECH_LIMITS.maxInputChars,
		schema: speechBodySchema,
		labels: SPEECH_LABELS,
		body: (input) => ({ ...speech, input }),
	},
	{
		field: 'Instructions',
		limit: SPEECH_LIMITS.maxInstructionsChars,
		schema: speechBodySchema,
		labels: SPEECH_LABELS,
		body: (instructions) => ({ ...speech, instructions }),
	},
	{
		field: 'Display Name',
		limit: MAX_DISPLAY_NAME,
		schema: cachedContentBodySchema,
		labels: CACHED_CONTENT_LABELS,
		body: (displayName) => ({
			model: 'models/cache-model-1',
			contents: [{ role: 'user', parts: [{ text: 'x' }] }],
			displayName,
		}),
	},
	{
		field: 'Safety Identifier',
		limit: MAX_SAFETY_IDENTIFIER,
		schema: responseBodySchema,
		labels: RESPONSE_LABELS,
		body: (safety_identifier) => ({ model: 'resp-model-1', input: 'Hello', safety_identifier }),
	},
];

const verdict = (row: LimitRow, text: string) =>
	outcome(() => assertValid(node, row.schema, row.body(text), row.labels, 0)) as {
		value?: unknown;
		refused?: string;
	};

const label = (row: LimitRow) => row.field.replace(/ \(.*\)$/, '');

describe.each(LIMITS.map((row) => [row.field, row] as const))('characters of %s', (_field, row) => {
	it.each([
		['emoji', emoji],
		['letters', letters],
	] as const)('%s: at the limit sent, one over refused with the count in characters', (_kind, make) => {
		expect(verdict(row, make(row.limit)).refused).toBeUndefined();
		expect(verdict(row, make(row.limit + 1)).refused).toBe(
			`${label(row)}: must be at most ${row.limit} characters${row.after ?? ''} (has ${row.limit + 1})`,
		);
	});

	it('counts an emoji as one character (JavaScript counts two units)', () => {
		const text = emoji(row.limit);
		expect([text.length, charCount(text)]).toEqual([2 * row.limit, row.limit]);
	});
});
