/**
 * Coalescing write-behind queue: writes enqueued within `delayMs` (by default, one turn of
 * the event loop) are flushed together (one transaction), the latest value per key winning.
 * Used for data whose loss in a crash costs little (stored responses, key last-used times);
 * never for credits, which are written synchronously in their own transactions.
 */
export class WriteBehind<T> {
  readonly #pending = new Map<string, T>();
  #scheduled = false;
  #flushing: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly onError: (err: unknown, count: number) => void,
    private readonly retryMs = 1000,
    private readonly delayMs = 0,
  ) {}

  #schedule(): void {
    this.#scheduled = true;
    if (this.delayMs > 0) setTimeout(() => void this.#run(), this.delayMs).unref();
    else setImmediate(() => void this.#run());
  }

  enqueue(key: string, item: T): void {
    this.#pending.delete(key); // re-insert so the map keeps write order
    this.#pending.set(key, item);
    if (!this.#scheduled && !this.#retryTimer) this.#schedule();
  }

  /** The value waiting to be written under this key, if any. */
  peek(key: string): T | undefined {
    return this.#pending.get(key);
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Resolves once everything enqueued so far is written (or has failed once). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#pending.size) await this.#run();
  }

  async #run(): Promise<void> {
    this.#scheduled = false;
    while (this.#flushing) await this.#flushing;
    if (!this.#pending.size) return;
    const batch = [...this.#pending.entries()];
    this.#flushing = (async () => {
      try {
        await this.write(batch.map(([, v]) => v));
        // Drop only what was written: a newer value enqueued meanwhile stays pending.
        for (const [k, v] of batch) if (this.#pending.get(k) === v) this.#pending.delete(k);
      } catch (err) {
        this.onError(err, batch.length);
        this.#retryTimer ??= setTimeout(() => {
          this.#retryTimer = null;
          void this.#run();
        }, this.retryMs);
        this.#retryTimer.unref();
      }
    })();
    try {
      await this.#flushing;
    } finally {
      this.#flushing = null;
    }
    if (this.#pending.size && !this.#scheduled && !this.#retryTimer) this.#schedule();
  }
}
