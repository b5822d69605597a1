/**
 * A Map that keeps at most `max` entries, for what a process remembers
 * between requests: setting a key makes it the newest, and past `max` the
 * oldest goes first. `dropWhere` drops entries that are over (expired).
 */
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(readonly max: number) {
		super();
	}

	override set(key: K, value: V): this {
		super.delete(key);
		super.set(key, value);
		while (this.size > this.max) super.delete(this.keys().next().value as K);
		return this;
	}

	dropWhere(isOver: (value: V, key: K) => boolean): void {
		for (const [key, value] of this) if (isOver(value, key)) this.delete(key);
	}
}
