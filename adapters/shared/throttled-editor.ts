import { sleep, type Clock } from './clock.js';

/** How a platform's errors read: a rate limit's wait, and errors no retry can fix. */
export interface EditErrors {
  /** Milliseconds to wait when `err` is a rate limit (429 with its Retry-After), else null. */
  retryAfterMs(err: unknown): number | null;
  /** The message is gone or the token expired: retrying cannot help. */
  isPermanent(err: unknown): boolean;
  /** The message itself no longer exists (someone deleted it): a permanent error that a new message gets round. */
  isGone?(err: unknown): boolean;
}

export interface ThrottledEditorOptions extends EditErrors {
  apply(text: string): Promise<void>;
  /**
   * Waits for a slot of the platform's rate budget, shared with the other answers (RateBudget).
   * The text of an edit is chosen once it has its slot, so updates that arrive meanwhile go
   * along: waiting means fewer intermediate edits, never a queue of stale ones.
   */
  takeSlot?(): Promise<void>;
  /** At most one edit per interval (measured from the start of the previous one). */
  intervalMs: number;
  clock: Clock;
  /** What the message shows already, and since when. */
  initial: { text: string; at: number };
  /** How often the final edit is tried on errors other than rate limits. */
  finalAttempts?: number;
  onError?(err: unknown): void;
  /** An edit was refused for good (a permanent error, `err`): the message is not edited again. */
  onBroken?(err: unknown): void;
}

const MAX_RATE_LIMITED = 30;

/**
 * Streams text into one message by editing it: at most one edit per interval, each after a slot
 * of the shared rate budget, always with the latest text (intermediate versions are dropped), one
 * edit in flight at a time, identical text never re-sent, rate limits honoured. The final edit is
 * retried until it lands. An edit refused by a permanent error (no access, the message is gone) is
 * the last one: the message is never tried again.
 */
export class ThrottledEditor {
  #applied: string;
  #wanted: string;
  #inFlight: Promise<void> | null = null;
  #timer: unknown = null;
  /** No edit may start before this time (interval or Retry-After). */
  #notBefore: number;
  /** No more updates are taken (finishing or closed). */
  #stopped = false;
  /** No more edits at all. */
  #closed = false;
  /** A permanent error refused an edit. */
  #broken = false;
  #edits = 0;

  constructor(private readonly options: ThrottledEditorOptions) {
    this.#applied = options.initial.text;
    this.#wanted = options.initial.text;
    this.#notBefore = options.initial.at + options.intervalMs;
  }

  /** The text the message is known to show. */
  get applied(): string {
    return this.#applied;
  }

  /** An edit was refused by a permanent error: the message cannot be edited any more. */
  get broken(): boolean {
    return this.#broken;
  }

  /** Edits made so far (the initial post not counted). */
  get edits(): number {
    return this.#edits;
  }

  /** Asks for `text` to be shown; coalesced with other updates until the next edit may start. */
  update(text: string): void {
    if (this.#stopped) return;
    this.#wanted = text;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped || this.#inFlight || this.#timer !== null || this.#wanted === this.#applied) return;
    const { clock } = this.options;
    this.#timer = clock.setTimeout(
      () => {
        this.#timer = null;
        this.#start();
      },
      Math.max(0, this.#notBefore - clock.now()),
    );
  }

  #start(): void {
    if (this.#stopped || this.#inFlight || this.#wanted === this.#applied) return;
    this.#inFlight = this.#editToLatest()
      .catch((err) => {
        if (this.options.retryAfterMs(err) !== null) return;
        this.options.onError?.(err);
        // Never again (a 401/403 retried in a loop counts towards Discord's invalid-request ban).
        if (this.options.isPermanent(err)) this.#break(err);
      })
      .finally(() => {
        this.#inFlight = null;
        this.#schedule();
      });
  }

  async #editToLatest(): Promise<void> {
    await this.options.takeSlot?.();
    // While this waited, `finish` may have made the final text the wanted one: it is sent now.
    if (this.#closed || this.#wanted === this.#applied) return;
    await this.#attempt(this.#wanted);
  }

  async #attempt(text: string): Promise<void> {
    const { clock } = this.options;
    this.#notBefore = clock.now() + this.options.intervalMs;
    this.#edits++;
    try {
      await this.options.apply(text);
      this.#applied = text;
    } catch (err) {
      const wait = this.options.retryAfterMs(err);
      if (wait !== null) this.#notBefore = Math.max(this.#notBefore, clock.now() + wait);
      throw err;
    }
  }

  /**
   * Shows `text` for good: waits for the edit in flight, then edits (respecting the interval
   * and any Retry-After) until it lands. Resolves false only when the message cannot be edited
   * any more (a permanent error, or every attempt failed).
   */
  async finish(text: string): Promise<boolean> {
    this.#stopped = true;
    this.#wanted = text;
    if (this.#timer !== null) this.options.clock.clearTimeout(this.#timer);
    this.#timer = null;
    await this.#inFlight;
    const { clock } = this.options;
    const attempts = this.options.finalAttempts ?? 8;
    for (let failures = 0, rateLimited = 0; ; ) {
      if (text === this.#applied) return true;
      if (this.#broken) return false;
      await sleep(clock, this.#notBefore - clock.now());
      await this.options.takeSlot?.();
      try {
        await this.#attempt(text);
        return true;
      } catch (err) {
        // #attempt moved #notBefore past the wait; a limit that never lifts ends like any failure.
        if (this.options.retryAfterMs(err) !== null && ++rateLimited < MAX_RATE_LIMITED) continue;
        this.options.onError?.(err);
        if (this.options.isPermanent(err)) {
          this.#break(err);
          return false;
        }
        if (++failures >= attempts) return false;
        this.#notBefore = Math.max(this.#notBefore, clock.now() + Math.min(30_000, 1000 * 2 ** (failures - 1)));
      }
    }
  }

  #break(err: unknown): void {
    this.#broken = true;
    this.close();
    this.options.onBroken?.(err);
  }

  /** Stops editing (the message is being removed or abandoned). */
  close(): void {
    this.#stopped = true;
    this.#closed = true;
    if (this.#timer !== null) this.options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
