import { LRUCache } from 'lru-cache';

/**
 * Memoises async loads by key: concurrent callers share one load, results stay in an LRU
 * (with the options given: ttl, max, maxSize), and failures are not remembered.
 */
export class AsyncCache<V extends {}> {
  readonly #done: LRUCache<string, V>;
  readonly #inflight = new Map<string, Promise<V>>();

  constructor(options: LRUCache.Options<string, V, unknown>) {
    this.#done = new LRUCache<string, V>(options);
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.#done.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          this.#done.set(key, value);
          return value;
        })
        .finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  clear(): void {
    this.#done.clear();
  }
}
