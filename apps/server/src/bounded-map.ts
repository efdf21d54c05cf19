/**
 * A Map of at most `max` entries: setting a new key when it is full drops the oldest one. For the
 * memos of pure functions (a verified token, a derived key, an opened sealed value): their values
 * never go stale, so only their number needs a bound.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#max && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
