/** A small LRU map: Map keeps insertion order, so re-inserting on read makes the first key the oldest. */
export class Lru<K, V> {
  private map = new Map<K, V>();
  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('LRU capacity must be ≥ 1');
  }
  get(k: K): V | undefined {
    const v = this.map.get(k);
    if (v === undefined) return undefined;
    this.map.delete(k);
    this.map.set(k, v);
    return v;
  }
  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
  has(k: K): boolean {
    return this.map.has(k);
  }
  get size(): number {
    return this.map.size;
  }
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
