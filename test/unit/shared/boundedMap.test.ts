/** What a process remembers between requests stays bounded (nodes/shared/boundedMap.ts). */
import { BoundedMap } from '../../../nodes/shared/boundedMap';

describe('BoundedMap', () => {
	it('keeps at most max entries, dropping the oldest set', () => {
		const map = new BoundedMap<string, number>(3);
		for (const [index, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, index);
		expect([...map.keys()]).toEqual(['c', 'd', 'e']);
	});

	it('setting a key again makes it the newest', () => {
		const map = new BoundedMap<string, number>(3);
		map.set('a', 1).set('b', 2).set('c', 3).set('a', 4).set('d', 5);
		expect([...map.entries()]).toEqual([
			['c', 3],
			['a', 4],
			['d', 5],
		]);
	});

	it('passes over pinned entries and the one just set; holds more than max only while nothing else can go', () => {
		const pinned = new Set(['a', 'b']);
		const map = new BoundedMap<string, number>(2, (_value, key) => pinned.has(key));
		map.set('a', 1).set('b', 2).set('c', 3);
		expect([...map.keys()]).toEqual(['a', 'b', 'c']);
		map.set('d', 4);
		expect([...map.keys()]).toEqual(['a', 'b', 'd']);
		pinned.delete('a');
		map.set('e', 5);
		expect([...map.keys()]).toEqual(['b', 'e']);
	});

	it('dropWhere drops the entries that are over, keeps the rest in order', () => {
		const map = new BoundedMap<string, number>(10);
		for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, index);
		map.dropWhere((value) => value % 2 === 0);
		expect([...map.keys()]).toEqual(['b', 'd']);
	});
});
