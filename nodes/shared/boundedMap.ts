/**
 * A Map of at most `max` entries, for what a process remembers between requests: setting a key makes it
 * the newest, and past `max` the oldest goes first, passing over the entry just set and those `pinned`
 * keeps (the map then holds more until one can go). `dropWhere` drops entries that are over (expired).
 */
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(
		readonly max: number,
		private readonly pinned?: (value: V, key: K) => boolean,
	) {
		super();
	}

	override set(key: K, value: V): this {
		super.delete(key);
		super.set(key, value);
		for (const [oldKey, oldValue] of this) {
			if (this.size <= this.max) break;
			if (oldKey !== key && !this.pinned?.(oldValue, oldKey)) super.delete(oldKey);
		}
		return this;
	}

	dropWhere(isOver: (value: V, key: K) => boolean): void {
		for (const [key, value] of this) if (isOver(value, key)) this.delete(key);
	}
}
