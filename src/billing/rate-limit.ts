import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../store/schema.js';

export const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until every request counted now has left the one-minute window: at most 60 (the
   * window), however the estimate below weights the previous minute.
   */
  resetSeconds: number;
  /** When refused: seconds until one more request would be allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `keyId` if it fits in `limit` requests per minute (synchronously when the counters are in memory). */
  take(keyId: string, limit: number, now?: number): RateDecision | Promise<RateDecision>;
  /** Forgets windows that can no longer matter. */
  prune(now?: number): Promise<void>;
}

/**
 * Sliding-window estimate: the previous minute's count, weighted by how much of it still
 * overlaps the last 60 s, plus this minute's count. A request is allowed while the estimate
 * stays within the limit; `cap` is the most the current window may reach right now.
 */
function capFor(limit: number, previous: number, now: number, windowStart: number): number {
  const overlap = 1 - (now - windowStart) / WINDOW_MS;
  return Math.floor(limit - previous * overlap + 1e-9);
}

function decide(limit: number, previous: number, current: number, allowed: boolean, now: number, windowStart: number): RateDecision {
  const cap = capFor(limit, previous, now, windowStart);
  // A request leaves the window a minute after it was made: this window's requests (the latest
  // made by now) by now + 1 min, the previous window's by the end of this one. The estimate fades
  // this window's count out over the next one, but the header promises the window, never more.
  const wholeAt = current > 0 ? now + WINDOW_MS : previous > 0 ? windowStart + WINDOW_MS : now;
  const resetSeconds = Math.min(WINDOW_MS / 1000, Math.max(1, Math.ceil((wholeAt - now) / 1000)));
  let retryAfterSeconds = 0;
  if (!allowed) {
    // The first whole second at which the estimate leaves room for one more request.
    for (let t = 1; t <= 2 * WINDOW_MS / 1000; t++) {
      const at = now + t * 1000;
      const start = Math.floor(at / WINDOW_MS) * WINDOW_MS;
      const [p, c] = start === windowStart ? [previous, current] : start === windowStart + WINDOW_MS ? [current, 0] : [0, 0];
      if (c < capFor(limit, p, at, start)) {
        retryAfterSeconds = t;
        break;
      }
    }
  }
  return { allowed, limit, remaining: Math.max(0, cap - current), resetSeconds, retryAfterSeconds };
}

/** One process's counters: exact when this process is the only one (SQLite deployments). */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new LRUCache<string, { start: number; previous: number; current: number }>({ max: 200_000 });

  take(keyId: string, limit: number, now = Date.now()): RateDecision {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let w = this.#windows.get(keyId);
    if (!w || w.start !== start) {
      const previous = w && w.start === start - WINDOW_MS ? w.current : 0;
      w = { start, previous, current: 0 };
      this.#windows.set(keyId, w);
    }
    const allowed = w.current < capFor(limit, w.previous, now, start);
    if (allowed) w.current++;
    return decide(limit, w.previous, w.current, allowed, now, start);
  }

  async prune(): Promise<void> {}
}

/**
 * Counters shared by every replica through the database: one conditional upsert per request
 * increments the window only while it is under its cap, so replicas never admit more than the
 * limit between them.
 */
/** How long after a window ends its count may still grow (requests in flight on other replicas). */
const SETTLE_MS = 5_000;

export class SqlRateLimiter implements RateLimiter {
  // Closed windows never change again: remember their counts.
  readonly #closed = new LRUCache<string, number>({ max: 200_000 });

  constructor(private readonly db: Kysely<Database>) {}

  async #previous(keyId: string, start: number, now: number): Promise<number> {
    const key = `${keyId}@${start}`;
    const cached = this.#closed.get(key);
    if (cached !== undefined) return cached;
    const row = await this.db.selectFrom('rate_limit_windows').select('count').where('key_id', '=', keyId).where('window_start', '=', start).executeTakeFirst();
    const count = row ? Number(row.count) : 0;
    // Just after a window ends, requests another replica began in it may still be counted there:
    // remembered that early, its count would stay too low for the whole next window.
    if (now >= start + WINDOW_MS + SETTLE_MS) this.#closed.set(key, count);
    return count;
  }

  async take(keyId: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const previous = await this.#previous(keyId, start - WINDOW_MS, now);
    const cap = capFor(limit, previous, now, start);
    if (cap > 0) {
      const row = await this.db
        .insertInto('rate_limit_windows')
        .values({ key_id: keyId, window_start: start, count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'window_start'])
            .doUpdateSet((eb) => ({ count: eb('rate_limit_windows.count', '+', 1) }))
            .where('rate_limit_windows.count', '<', cap),
        )
        .returning('count')
        .executeTakeFirst();
      if (row) return decide(limit, previous, Number(row.count), true, now, start);
    }
    const current = await this.db.selectFrom('rate_limit_windows').select('count').where('key_id', '=', keyId).where('window_start', '=', start).executeTakeFirst();
    return decide(limit, previous, current ? Number(current.count) : 0, false, now, start);
  }

  async prune(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('rate_limit_windows').where('window_start', '<', now - 3 * WINDOW_MS).execute();
  }
}

/** `1m30s`-style durations, as OpenAI's x-ratelimit-reset-* headers use. */
export function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m ? `${m}m${s}s` : `${s}s`;
}
