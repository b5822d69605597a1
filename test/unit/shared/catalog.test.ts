import { defineCatalog } from '../../../nodes/shared/catalog';

const catalog = defineCatalog(
	[
		{ id: 'imagegen-2', name: 'imagegen-2', family: 'B' },
		{ id: 'legacyimg-3', name: 'legacyimg-3', family: 'B' },
		{ id: 'vendor/imgE-3.0-pro', name: 'imgE 3.0 Pro', family: 'C', aliases: ['imgE-3.0-pro'] },
	],
	'searchTestModels',
);

const regexOf = (conditions: ReturnType<typeof catalog.showFor>) =>
	new RegExp((conditions[0] as { _cnd: { regex: string } })._cnd.regex);

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

	it('showFor matches the selected models, their aliases and dated snapshots, nothing else', () => {
		const regex = regexOf(catalog.showFor((m) => m.family === 'C'));
		expect(regex.test('vendor/imgE-3.0-pro')).toBe(true);
		expect(regex.test('imgE-3.0-pro')).toBe(true);
		expect(regex.test('imgEx3.0-pro')).toBe(false);
		expect(regex.test('imagegen-2')).toBe(false);
		const b = regexOf(catalog.showFor((m) => m.id === 'imagegen-2'));
		expect(b.test('imagegen-2-2026-04-21')).toBe(true);
		expect(b.test('imagegen-2.5-flare')).toBe(false);
	});

	it('uncatalogued matches any ID the catalog does not know', () => {
		const regex = regexOf(catalog.uncatalogued());
		expect(regex.test('my-alias')).toBe(true);
		expect(regex.test('imagegen-20')).toBe(true);
		expect(regex.test('imagegen-2')).toBe(false);
		expect(regex.test('imagegen-2-2026-04-21')).toBe(false);
		expect(regex.test('imgE-3.0-pro')).toBe(false);
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
