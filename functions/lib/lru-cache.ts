/**
 * A map that forgets a least recently used entry past `capacity`, by the second-chance (clock)
 * approximation of LRU: a hit only marks its entry as used, instead of moving it to the back of
 * the map (a delete and a set on every hit, which made a warm cache hit cost more than the rest of
 * a board request). Eviction takes the oldest entry not used since it was last passed over.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; used: boolean }>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    const existing = this.entries.get(key);
    if (existing !== undefined) {
      existing.value = value;
      return;
    }
    // Room is made before the new entry goes in, so it can never be the one evicted.
    while (this.entries.size >= this.capacity) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, { value: V; used: boolean }];
      this.entries.delete(oldestKey);
      if (oldest.used) {
        // Used since it was last passed over: a second chance at the back, unmarked.
        oldest.used = false;
        this.entries.set(oldestKey, oldest);
      }
    }
    this.entries.set(key, { value, used: false });
  }
}
