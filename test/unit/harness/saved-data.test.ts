/**
 * The harness's saved data (test/harness/saved-data.ts), as the waiting-webhook route loads a waiting
 * execution for each callback: every load equals the data as it was saved, and nothing done to one
 * load, or to the data after it was saved, reaches another load.
 */
import { SavedData } from '../../harness/saved-data';

class Task {
	constructor(readonly id: string) {}
}

/** Two places holding one object. */
function heldTwice() {
	const shared = { id: 'held twice' };
	return { first: shared, second: shared };
}

/** An object that holds itself. */
function cycle() {
	const task: Record<string, unknown> = { id: 'a' };
	task.self = task;
	return { task };
}

/** An array with holes (1, 2 and the last, 4) and a named member. */
function sparse(): unknown[] {
	const list: unknown[] = ['first'];
	list[3] = 'fourth';
	list.length = 5;
	(list as unknown as { note: string }).note = 'kept';
	return list;
}

interface Row {
	name: string;
	data: () => Record<string, unknown>;
	/** The load, when it differs from the data saved. */
	loads?: Record<string, unknown>;
	/** Changes a load deeply. */
	change: (load: Record<string, unknown>) => void;
	/**
	 * What is compared: the data itself, or, for what v8's deserializer makes in Node's own realm (a
	 * Map, a byte array, an error), their contents.
	 */
	view?: (data: Record<string, unknown>) => unknown;
}

const same = (row: Row, load: unknown, expected: Record<string, unknown>) =>
	expect(row.view ? row.view(load as Record<string, unknown>) : load).toEqual(
		row.view ? row.view(expected) : expected,
	);

const rows: Row[] = [
	{
		name: 'plain objects, arrays and primitives',
		data: () => ({ items: [{ json: { id: 'a', n: 1, done: true, none: null } }], text: 'x'.repeat(500) }),
		change: (load) => ((load.items as Array<{ json: { id: string } }>)[0].json.id = 'changed'),
	},
	{
		name: 'a date',
		data: () => ({ waitTill: new Date('2026-11-29T15:00:00.000Z'), at: [new Date(0)] }),
		change: (load) => (load.waitTill as Date).setTime(1),
	},
	{
		name: 'an array with holes and a named member',
		data: () => ({ list: sparse() }),
		change: (load) => ((load.list as string[])[0] = 'changed'),
	},
	{
		name: 'integer-like keys',
		data: () => ({ answers: { b: 1, 200: 2, a: 3, 503: 4 } }),
		change: (load) => ((load.answers as Record<string, number>)[200] = 0),
	},
	{
		name: 'an object held in two places',
		data: heldTwice,
		change: (load) => ((load.first as { id: string }).id = 'changed'),
	},
	{
		name: 'an object that holds itself',
		data: cycle,
		change: (load) => ((load.task as { id: string }).id = 'changed'),
	},
	{
		name: 'a Map, a byte array and an error',
		data: () => ({
			map: new Map([['k', { v: 1 }]]),
			bytes: new Uint8Array([1, 2]),
			error: new Error('kept'),
		}),
		change: (load) => ((load.map as Map<string, { v: number }>).get('k')!.v = 2),
		view: ({ map, bytes, error }) => ({
			map: [...(map as Map<string, unknown>)],
			bytes: [...(bytes as Uint8Array)],
			error: (error as Error).message,
		}),
	},
	{
		name: 'a class instance (saved as its fields)',
		data: () => ({ task: new Task('t1') }),
		loads: { task: { id: 't1' } },
		change: (load) => ((load.task as { id: string }).id = 'changed'),
	},
	{
		name: 'an own __proto__ key',
		data: () => JSON.parse('{"__proto__": {"polluted": true}, "id": "a"}') as Record<string, unknown>,
		change: (load) => (load.id = 'changed'),
	},
];

describe('SavedData', () => {
	it.each(rows)('$name: each load equals the data as saved', (row) => {
		const saved = new SavedData(row.data());
		const first = saved.load();
		same(row, first, row.loads ?? row.data());
		same(row, saved.load(), first);
	});

	it.each(rows)('$name: a change to one load reaches no later load', (row) => {
		const saved = new SavedData(row.data());
		row.change(saved.load());
		same(row, saved.load(), row.loads ?? row.data());
	});

	it.each(rows)('$name: a change to the data after it was saved reaches no load', (row) => {
		const original = row.data();
		const saved = new SavedData(original);
		row.change(original);
		same(row, saved.load(), row.loads ?? row.data());
	});

	it('keeps the holes of an array and its named member', () => {
		const list = new SavedData({ list: sparse() }).load().list as unknown[];
		expect(list).toHaveLength(5);
		expect([0, 1, 2, 3, 4].map((index) => index in list)).toEqual([true, false, false, true, false]);
		expect((list as unknown as { note: string }).note).toBe('kept');
	});

	it('keeps an object held in two places as one object', () => {
		const load = new SavedData(heldTwice()).load();
		expect(load.first).toBe(load.second);
	});

	it('keeps an object that holds itself as one object', () => {
		const { task } = new SavedData(cycle()).load() as { task: { self: unknown } };
		expect(task.self).toBe(task);
	});

	it('loads an own __proto__ key as a key, not as the prototype', () => {
		const load = new SavedData(JSON.parse('{"__proto__": {"polluted": true}}') as object).load();
		expect(Object.keys(load)).toEqual(['__proto__']);
		expect((load as { polluted?: boolean }).polluted).toBeUndefined();
	});
});
