import { sql, type Kysely } from 'kysely';
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
 *
 * The weighting spreads the previous minute's requests evenly over it, but they may all have come
 * early in it: a burst in the first second of a minute still weighed a minute later, so a client
 * that waited the 60 s x-ratelimit-reset-requests promised was refused for one more second. So the
 * previous minute weighs nothing once a minute has passed since its latest request (`previousLast`;
 * unknown, its window's end), when every request it counted has left the last minute.
 */
function capFor(limit: number, previous: number, previousLast: number | null, now: number, windowStart: number): number {
  if (previous === 0 || now >= (previousLast ?? windowStart - 1) + WINDOW_MS) return limit;
  const overlap = 1 - (now - windowStart) / WINDOW_MS;
  return Math.floor(limit - previous * overlap + 1e-9);
}

/** One key's counts: this minute's window and the one before it, each with when its latest request was counted. */
interface Counts {
  windowStart: number;
  previous: number;
  previousLast: number | null;
  current: number;
  currentLast: number | null;
}

function decide(limit: number, c: Counts, allowed: boolean, now: number): RateDecision {
  const { windowStart, previous, previousLast, current, currentLast } = c;
  const cap = capFor(limit, previous, previousLast, now, windowStart);
  // A request leaves the window a minute after it was made: this window's latest by then (it is in
  // the next window, where this one's count weighs nothing from then on, see capFor), the previous
  // window's latest a minute after it. That is when a client that waits is admitted again.
  const wholeAt = current > 0 ? (currentLast ?? now) + WINDOW_MS : previous > 0 ? (previousLast ?? windowStart - 1) + WINDOW_MS : now;
  const resetSeconds = Math.min(WINDOW_MS / 1000, Math.max(1, Math.ceil((wholeAt - now) / 1000)));
  let retryAfterSeconds = 0;
  if (!allowed) {
    // The first whole second at which the estimate leaves room for one more request.
    for (let t = 1; t <= 2 * WINDOW_MS / 1000; t++) {
      const at = now + t * 1000;
      const start = Math.floor(at / WINDOW_MS) * WINDOW_MS;
      const [p, pLast, n] =
        start === windowStart ? [previous, previousLast, current] : start === windowStart + WINDOW_MS ? [current, currentLast, 0] : [0, null, 0];
      if (n < capFor(limit, p, pLast, at, start)) {
        retryAfterSeconds = t;
        break;
      }
    }
  }
  return { allowed, limit, remaining: Math.max(0, cap - current), resetSeconds, retryAfterSeconds };
}

/** One process's counters: exact when this process is the only one (SQLite deployments). */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new LRUCache<string, Counts>({ max: 200_000 });

  take(keyId: string, limit: number, now = Date.now()): RateDecision {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let w = this.#windows.get(keyId);
    if (!w || w.windowStart !== start) {
      const last = w && w.windowStart === start - WINDOW_MS ? w : null;
      w = { windowStart: start, previous: last?.current ?? 0, previousLast: last?.currentLast ?? null, current: 0, currentLast: null };
      this.#windows.set(keyId, w);
    }
    const allowed = w.current < capFor(limit, w.previous, w.previousLast, now, start);
    if (allowed) {
      w.current++;
      w.currentLast = Math.max(w.currentLast ?? now, now);
    }
    return decide(limit, w, allowed, now);
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
  readonly #closed = new LRUCache<string, { count: number; last: number | null }>({ max: 200_000 });

  constructor(private readonly db: Kysely<Database>) {}

  async #previous(keyId: string, start: number, now: number): Promise<{ count: number; last: number | null }> {
    const key = `${keyId}@${start}`;
    const cached = this.#closed.get(key);
    if (cached !== undefined) return cached;
    const row = await this.db.selectFrom('rate_limit_windows').select(['count', 'last_at']).where('key_id', '=', keyId).where('window_start', '=', start).executeTakeFirst();
    const counted = row ? { count: Number(row.count), last: row.last_at === null ? null : Number(row.last_at) } : { count: 0, last: null };
    // Just after a window ends, requests another replica began in it may still be counted there:
    // remembered that early, its count would stay too low for the whole next window.
    if (now >= start + WINDOW_MS + SETTLE_MS) this.#closed.set(key, counted);
    return counted;
  }

  async take(keyId: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const before = await this.#previous(keyId, start - WINDOW_MS, now);
    const counts = (current: number, currentLast: number | null): Counts => ({ windowStart: start, previous: before.count, previousLast: before.last, current, currentLast });
    const cap = capFor(limit, before.count, before.last, now, start);
    if (cap > 0) {
      const row = await this.db
        .insertInto('rate_limit_windows')
        .values({ key_id: keyId, window_start: start, count: 1, last_at: now })
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'window_start'])
            .doUpdateSet(() => ({
              count: sql<number>`rate_limit_windows.count + 1`,
              // The latest, whichever replica's request was counted last.
              last_at: sql<number>`CASE WHEN rate_limit_windows.last_at IS NULL OR rate_limit_windows.last_at < excluded.last_at THEN excluded.last_at ELSE rate_limit_windows.last_at END`,
            }))
            .where('rate_limit_windows.count', '<', cap),
        )
        .returning(['count', 'last_at'])
        .executeTakeFirst();
      if (row) return decide(limit, counts(Number(row.count), row.last_at === null ? now : Number(row.last_at)), true, now);
    }
    const current = await this.db.selectFrom('rate_limit_windows').select(['count', 'last_at']).where('key_id', '=', keyId).where('window_start', '=', start).executeTakeFirst();
    return decide(limit, counts(current ? Number(current.count) : 0, current?.last_at == null ? null : Number(current.last_at)), false, now);
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
