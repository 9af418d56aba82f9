/**
 * A small least-recently-used cache bounded both by entries and by a total weight (what each
 * entry costs in memory, as its caller measures it): the oldest entries go first when either
 * bound is passed. A Map keeps insertion order, so the first key is always the least recent.
 */
export class Lru<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` unless it alone outweighs the whole cache. */
  set(key: string, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.total -= old.weight;
    }
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, weight });
    this.total += weight;
    for (const [k, entry] of this.map) {
      if (this.map.size <= this.maxEntries && this.total <= this.maxWeight) break;
      this.map.delete(k);
      this.total -= entry.weight;
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.weight;
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}
