import type { Clock } from './clock.js';

/** At most `count` calls in any window of `perMs` milliseconds. */
export interface Rate {
  count: number;
  perMs: number;
}

interface Lane {
  rate: Rate;
  /** How long a slot counts: `perMs` and the margin. */
  windowMs: number;
  /** When the slots still inside the window were handed out, oldest first. */
  taken: number[];
  waiting: Array<() => void>;
  timer: unknown;
}

/**
 * A platform's rate limits, shared by every answer an adapter is streaming. Each post or edit
 * first takes a slot of its kind in its scope (the limit's key: a channel, a workspace…); a
 * scope hands out at most `count` slots in any `perMs` window, and callers wait their turn in
 * order. A sliding window rather than a refilling bucket: a platform that allows 5 calls per
 * 5 s refuses a sixth one second after a burst of five, which a bucket refilling 1/s would send.
 *
 * A slot leaves its window a margin after `perMs` (a tenth of it, at most 250 ms): the platform
 * counts a call when it arrives, and a call sent at the window's edge whose predecessor was slower
 * to arrive would otherwise land in that predecessor's window and be refused.
 */
export class RateBudget<Kind extends string> {
  readonly #lanes = new Map<string, Lane>();

  constructor(
    private readonly rates: Readonly<Record<Kind, Rate>>,
    private readonly clock: Clock,
  ) {}

  /** Resolves when one more call of `kind` in `scope` fits its limit. */
  take(kind: Kind, scope: string): Promise<void> {
    this.#forgetIdle();
    const key = `${kind}\n${scope}`;
    const rate = this.rates[kind];
    const lane = this.#lanes.get(key) ?? { rate, windowMs: rate.perMs + Math.min(250, Math.ceil(rate.perMs / 10)), taken: [], waiting: [], timer: null };
    this.#lanes.set(key, lane);
    const turn = new Promise<void>((resolve) => lane.waiting.push(resolve));
    // Slots are handed out from a clock timer (at once when one is free), never synchronously:
    // the clock alone decides when calls go out, so tests can drive every call with a fake one.
    if (lane.timer === null) this.#serveIn(lane, 0);
    return turn;
  }

  #serveIn(lane: Lane, ms: number): void {
    lane.timer = this.clock.setTimeout(() => {
      lane.timer = null;
      this.#serve(lane);
    }, ms);
  }

  #serve(lane: Lane): void {
    const { rate, windowMs } = lane;
    const now = this.clock.now();
    while (lane.taken.length && lane.taken[0]! <= now - windowMs) lane.taken.shift();
    while (lane.waiting.length && lane.taken.length < rate.count) {
      lane.taken.push(now);
      lane.waiting.shift()!();
    }
    if (lane.waiting.length) this.#serveIn(lane, lane.taken[0]! + windowMs - now);
  }

  /** Drops scopes nobody waits in and whose slots have all left their window. */
  #forgetIdle(): void {
    const now = this.clock.now();
    for (const [key, lane] of this.#lanes) {
      if (!lane.waiting.length && lane.timer === null && (lane.taken.at(-1) ?? -Infinity) <= now - lane.windowMs) this.#lanes.delete(key);
    }
  }
}
