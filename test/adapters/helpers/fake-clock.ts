import type { Clock } from '../../../adapters/shared/clock.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock that moves only when the test says so: timers fire, in order, inside `advance`. */
export class FakeClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #ids = 0;

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: ++this.#ids, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Moves time forward by `ms`, firing due timers; lets promise callbacks run between them, and
   * `between` (waiting for whatever the last timer set off) when given.
   */
  async advance(ms: number, between?: () => Promise<void>): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settle();
      await between?.();
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
    await settle();
    await between?.();
  }
}

/** Lets queued promise callbacks (and a few rounds of the ones they queue) run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
