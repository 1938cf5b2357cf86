import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, SqlRateLimiter, WINDOW_MS, formatDuration, type RateDecision, type RateLimiter } from '../../src/billing/rate-limit.js';
import { openStore, type Store } from '../../src/store/db.js';
import { describeBackends, dropTestSchemas, freshPostgres } from '../helpers/backends.js';

afterAll(() => dropTestSchemas());

const W0 = 5_000 * WINDOW_MS;

/** A small seeded generator (mulberry32), so a failure names a history that can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A burst at the very start of a minute still weighed a minute later (the estimate spreads the
// previous minute's requests evenly over it): x-ratelimit-reset-requests said 1m0s, and a client
// that waited that long was refused until 61 s after its burst.
describe('a client that waits x-ratelimit-reset-requests is admitted (injected clock)', () => {
  it('a burst at the start of a minute: the refusal says 1m0s, and a request 60 s later is admitted with the whole limit free', () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 60; i++) expect(limiter.take('k', 60, W0 + 100).allowed).toBe(true);
    const refused = limiter.take('k', 60, W0 + 200);
    expect([refused.allowed, formatDuration(refused.resetSeconds)]).toEqual([false, '1m0s']);
    const later = limiter.take('k', 60, W0 + 200 + refused.resetSeconds * 1000);
    expect(later.allowed).toBe(true);
    // Every request of the burst has left the last minute: the whole limit, less this one.
    expect(later.remaining).toBe(59);
  });

  it('the same for a limit of one and a burst in the first millisecond; refused until then, not after', () => {
    const limiter = new MemoryRateLimiter();
    expect(limiter.take('k', 1, W0).allowed).toBe(true);
    const refused = limiter.take('k', 1, W0 + 30_000);
    expect([refused.allowed, refused.resetSeconds, refused.retryAfterSeconds]).toEqual([false, 30, 30]);
    // Just before the minute is up it still weighs; at the minute it does not.
    expect(new MemoryRateLimiter().take('x', 1, W0).allowed).toBe(true);
    const again = new MemoryRateLimiter();
    again.take('k', 1, W0);
    expect(again.take('k', 1, W0 + WINDOW_MS - 1).allowed).toBe(false);
    expect(again.take('k', 1, W0 + WINDOW_MS).allowed).toBe(true);
  });

  /**
   * Random histories (requests at random times over a few minutes, limits 1 to 12): after every
   * decision, the same history replayed under a new key and then one request after resetSeconds
   * (and, when refused, after retryAfterSeconds) admits it.
   */
  async function holdsFor(make: (key: string) => RateLimiter, seeds: number, steps: number): Promise<void> {
    for (let seed = 1; seed <= seeds; seed++) {
      const next = random(seed);
      const limit = 1 + Math.floor(next() * 12);
      const times: number[] = [];
      let t = W0 + Math.floor(next() * WINDOW_MS);
      for (let i = 0; i < steps; i++) {
        // Mostly bursts (same millisecond or close), sometimes a pause of up to 40 s.
        t += next() < 0.7 ? Math.floor(next() * 50) : Math.floor(next() * 40_000);
        times.push(t);
      }
      const replay = async (key: string, upTo: number): Promise<{ limiter: RateLimiter; last: RateDecision }> => {
        const limiter = make(key);
        let last: RateDecision | undefined;
        for (const at of times.slice(0, upTo + 1)) last = await limiter.take(key, limit, at);
        return { limiter, last: last! };
      };
      for (let i = 0; i < steps; i++) {
        const key = `s${seed}-${i}`;
        const { limiter, last } = await replay(`${key}-r`, i);
        expect(last.resetSeconds).toBeLessThanOrEqual(60);
        const after = await limiter.take(`${key}-r`, limit, times[i]! + last.resetSeconds * 1000);
        expect(after.allowed, `seed ${seed}, limit ${limit}, step ${i} at +${times[i]! - W0} ms: waited ${last.resetSeconds}s`).toBe(true);
        if (!last.allowed) {
          expect(last.retryAfterSeconds).toBeLessThanOrEqual(last.resetSeconds);
          const { limiter: again } = await replay(`${key}-a`, i);
          expect((await again.take(`${key}-a`, limit, times[i]! + last.retryAfterSeconds * 1000)).allowed, `seed ${seed} step ${i}: Retry-After ${last.retryAfterSeconds}s`).toBe(true);
        }
      }
    }
  }

  it('in memory, over random histories', async () => {
    // One limiter (its table is large to make): every replay has keys of its own.
    const shared = new MemoryRateLimiter();
    await holdsFor(() => shared, 60, 40);
  });

  describeBackends('in the database', (backend) => {
    let store: Store;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-rate-wait-'));
      store = await openStore({ dataDir, databaseUrl: backend.name === 'postgres' ? await freshPostgres() : '' });
    });
    afterAll(async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('a burst at the start of a minute: admitted after the advertised reset', async () => {
      const limiter = new SqlRateLimiter(store.db);
      for (let i = 0; i < 5; i++) expect((await limiter.take('burst', 5, W0 + 100)).allowed).toBe(true);
      const refused = await limiter.take('burst', 5, W0 + 200);
      expect([refused.allowed, refused.resetSeconds]).toEqual([false, 60]);
      const later = await new SqlRateLimiter(store.db).take('burst', 5, W0 + 200 + 60_000);
      expect([later.allowed, later.remaining]).toEqual([true, 4]);
    });

    it('over random histories', async () => {
      const shared = new SqlRateLimiter(store.db);
      await holdsFor(() => shared, 5, 20);
    }, 120_000);
  });
});
