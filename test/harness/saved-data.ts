/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Data as a database keeps it: written once, and each load a fresh copy that nothing done to an earlier
 * copy reaches. The harness's waiting-webhook route loads a waiting execution's data this way for every
 * callback, as n8n does (resume.ts).
 *
 * What is saved is the data put through v8's serializer, as it was when saved: what the serializer does
 * not keep (a class) is gone from every load, an object held in two places stays one object. A load of
 * data made only of plain objects, arrays, dates and primitives is a walk that makes new objects and
 * arrays and shares the strings (immutable, so no load sees another's); any other data is deserialized
 * afresh from the saved bytes.
 */
import { deserialize, serialize } from 'node:v8';

// The walk's globals, held in local names: in jest's usual test context (Node before 22.8) each read of
// a global goes through the context's interceptors, which made the walk about four times slower.
const { keys } = Object;
const { isArray } = Array;
const NewDate = Date;
const NewArray = Array;
const objectToString = Object.prototype.toString;
const toStringTag = (value: object) => objectToString.call(value);

/**
 * The objects `value` holds in more than one place (a cycle included), or undefined when it holds
 * anything but plain objects, arrays, dates and primitives.
 */
function heldTwice(
	value: unknown,
	seen = new Set<object>(),
	twice = new Set<object>(),
): Set<object> | undefined {
	if (typeof value !== 'object' || value === null) return twice;
	if (seen.has(value)) return twice.add(value);
	seen.add(value);
	const tag = toStringTag(value);
	if (tag === '[object Date]') return twice;
	if (tag !== '[object Object]' && tag !== '[object Array]') return undefined;
	for (const key of keys(value)) {
		// An own `__proto__` would set the copy's prototype instead of a key.
		if (key === '__proto__') return undefined;
		if (!heldTwice((value as Record<string, unknown>)[key], seen, twice)) return undefined;
	}
	return twice;
}

/**
 * A copy of plain data: new objects, arrays and dates, one copy of each object held twice (`twice`,
 * its copies in `copies`); holes and strings kept.
 */
function copyPlain(value: unknown, twice: ReadonlySet<object>, copies: Map<object, unknown>): unknown {
	if (typeof value !== 'object' || value === null) return value;
	const held = twice.has(value);
	if (held && copies.has(value)) return copies.get(value);
	const source = value as Record<string, unknown>;
	const date = toStringTag(value) === '[object Date]';
	const copy = (
		date ? new NewDate((value as Date).getTime()) : isArray(value) ? new NewArray(value.length) : {}
	) as Record<string, unknown>;
	if (held) copies.set(value, copy);
	if (!date) for (const key of keys(source)) copy[key] = copyPlain(source[key], twice, copies);
	return copy;
}

export class SavedData<T> {
	/** The saved data when it is plain, copied for each load, and the objects it holds twice. */
	private readonly plain: unknown;

	private readonly twice: ReadonlySet<object> = new Set();

	/** The saved bytes otherwise, deserialized for each load. */
	private readonly bytes: Buffer | undefined;

	constructor(data: T) {
		const bytes = serialize(data);
		const saved: unknown = deserialize(bytes);
		const twice = heldTwice(saved);
		if (twice) [this.plain, this.twice] = [saved, twice];
		else this.bytes = bytes;
	}

	/** A fresh copy of the data as saved. */
	load(): T {
		return (this.bytes ? deserialize(this.bytes) : copyPlain(this.plain, this.twice, new Map())) as T;
	}
}
