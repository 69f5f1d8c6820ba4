/**
 * The front's stores (stored pages, kept answers): a Map whose least recently used entry
 * goes first when it is full. Using an entry only writes a small counter into it: moving it
 * to the end of the Map on every hit (delete and set again, with the request's new key
 * string) made each answer leave young objects hanging off old ones, which the garbage
 * collector then promoted to the old generation: about 5 MB a second under load, and the
 * RSS that goes with it (docs/performance.md).
 */
export type Used = { used: number };

/** Small integers stay unboxed in V8: the counter starts again before it would need a heap number. */
const TICK_MAX = 2 ** 30 - 1;

export class KeptMap<V extends Used> {
  private readonly map = new Map<string, V>();
  private tick = 0;

  get size(): number {
    return this.map.size;
  }

  /** The entry, without marking it used. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  /** Marks an entry as just used. */
  touch(entry: V): void {
    if (this.tick >= TICK_MAX) this.renumber();
    entry.used = ++this.tick;
  }

  set(key: string, entry: V): void {
    this.touch(entry);
    this.map.set(key, entry);
  }

  delete(key: string): V | undefined {
    const entry = this.map.get(key);
    if (entry) this.map.delete(key);
    return entry;
  }

  /** The key of the entry used longest ago (a scan: it runs only when the store is full). */
  oldest(): string | undefined {
    let oldestKey: string | undefined;
    let oldestUse = Infinity;
    for (const [key, entry] of this.map) {
      if (entry.used < oldestUse) {
        oldestUse = entry.used;
        oldestKey = key;
      }
    }
    return oldestKey;
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  clear(): void {
    this.map.clear();
  }

  /** Gives the entries 1, 2, 3… in their order of use, so the counter can start low again. */
  private renumber(): void {
    const byUse = [...this.map.values()].sort((a, b) => a.used - b.used);
    byUse.forEach((entry, n) => (entry.used = n + 1));
    this.tick = byUse.length;
  }
}
