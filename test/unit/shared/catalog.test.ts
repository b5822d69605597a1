import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { UNCATALOGUED_MODEL, defineCatalog } from '../../../nodes/shared/catalog';

const catalog = defineCatalog(
	[
		{ id: 'imagegen-2', name: 'imagegen-2', family: 'B' },
		{ id: 'legacyimg-3', name: 'legacyimg-3', family: 'B' },
		{ id: 'vendor/imgE-3.0-pro', name: 'imgE 3.0 Pro', family: 'C', aliases: ['imgE-3.0-pro'] },
	],
	'searchTestModels',
);

/** Whether n8n shows a field with these displayOptions when the model is `model`. */
const shows = (displayOptions: IDisplayOptions, model: string, other: Record<string, unknown> = {}) =>
	NodeHelpers.displayParameter(
		{ model: { __rl: true, mode: 'id', value: model }, ...other } as never,
		{ displayName: 'F', name: 'f', type: 'string', default: '', displayOptions } as INodeProperties,
		null,
		null,
	);

/** Every `_cnd` operator used in displayOptions. */
const operators = (value: unknown): string[] =>
	Array.isArray(value)
		? value.flatMap(operators)
		: value && typeof value === 'object'
			? [...Object.keys((value as { _cnd?: object })._cnd ?? {}), ...Object.values(value).flatMap(operators)]
			: [];

describe('catalog', () => {
	it.each([
		['imagegen-2', 'imagegen-2'],
		['imagegen-2-2026-04-21', 'imagegen-2'],
		[' imagegen-2 ', 'imagegen-2'],
		['imgE-3.0-pro', 'vendor/imgE-3.0-pro'],
		['vendor/imgE-3.0-pro', 'vendor/imgE-3.0-pro'],
		['imagegen-2-beta', undefined],
		['imagegen-20', undefined],
		['some-other-model', undefined],
	])('resolve(%p) -> %p', (id, expected) => {
		expect(catalog.resolve(id)?.id).toBe(expected);
	});

	it.each<[string, boolean, boolean, boolean]>([
		// model, shown for C, for C or unknown, for unknown only
		['vendor/imgE-3.0-pro', true, true, false],
		['imgE-3.0-pro', true, true, false],
		['imgE-3.0-pro-2026-04-21', true, true, false],
		['imgEx3.0-pro', false, true, true],
		['imagegen-2', false, false, false],
		['imagegen-2-2026-04-21', false, false, false],
		['imagegen-20', false, true, true],
		// The form reads `<id>-20…` as a snapshot (no regex to check the date); the run refuses what
		// imagegen-2's fields set, since the node resolves this ID as unknown (formModelId below).
		['imagegen-2-20xx', false, false, false],
		['imagegen-2-beta', false, true, true],
		['my-alias', false, true, true],
		['', false, false, false],
		['={{ $json.model }}', true, true, true],
	])('displayFor with model %p: C %p, C or unknown %p, unknown only %p', (model, c, cOrUnknown, unknown) => {
		const isC = (m: { family: string }) => m.family === 'C';
		expect(shows(catalog.displayFor(isC), model)).toBe(c);
		expect(shows(catalog.displayFor(isC, { unknown: true }), model)).toBe(cOrUnknown);
		expect(
			shows(
				catalog.displayFor(() => false, { unknown: true }),
				model,
			),
		).toBe(unknown);
	});

	it('displayFor adds the further show conditions', () => {
		const display = catalog.displayFor((m) => m.id === 'imagegen-2', { show: { stream: [true] } });
		expect(shows(display, 'imagegen-2', { stream: true })).toBe(true);
		expect(shows(display, 'imagegen-2', { stream: false })).toBe(false);
		const unknown = catalog.displayFor(() => false, { unknown: true, show: { stream: [true] } });
		expect(shows(unknown, 'my-alias', { stream: true })).toBe(true);
		expect(shows(unknown, 'my-alias', { stream: false })).toBe(false);
		expect(shows(unknown, 'imagegen-2', { stream: true })).toBe(false);
	});

	it('displayFor uses plain conditions only (no sandboxed regex)', () => {
		const all = [
			catalog.displayFor((m) => m.family === 'B'),
			catalog.displayFor((m) => m.family === 'B', { unknown: true }),
		];
		expect([...new Set(operators(all))]).toEqual(['startsWith']);
	});

	it.each([
		['imagegen-2-2026-04-21', 'imagegen-2'],
		['imgE-3.0-pro', 'vendor/imgE-3.0-pro'],
		['imagegen-2-20xx', UNCATALOGUED_MODEL],
		['my-alias', UNCATALOGUED_MODEL],
	])('formModelId(%p) -> %p', (id, expected) => {
		expect(catalog.formModelId(id)).toBe(expected);
	});

	it.each([
		['', ['imagegen-2', 'legacyimg-3', 'vendor/imgE-3.0-pro']],
		['IMG', ['legacyimg-3', 'vendor/imgE-3.0-pro']],
		['legacy', ['legacyimg-3']],
		['3.0 pro', ['vendor/imgE-3.0-pro']],
		['nothing-like-it', []],
	])('search(%p) lists the models whose ID, name or alias contains it', (filter, ids) => {
		expect(catalog.search(filter).map((item) => item.value)).toEqual(ids);
	});

	it('options list every catalogued model once', () => {
		expect(catalog.options().map((o) => o.value)).toEqual([
			'imagegen-2',
			'legacyimg-3',
			'vendor/imgE-3.0-pro',
		]);
	});
});
