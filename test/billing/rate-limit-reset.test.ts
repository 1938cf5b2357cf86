import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, SqlRateLimiter, WINDOW_MS, formatDuration, type RateLimiter } from '../../src/billing/rate-limit.js';
import { openStore, type Store } from '../../src/store/db.js';
import { startService, type TestService } from '../helpers/service.js';

/** `1m0s`, `45s` back to seconds. */
const seconds = (header: string) => {
  const m = /^(?:(\d+)m)?(\d+)s$/.exec(header);
  if (!m) throw new Error(`not a duration: ${header}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
};

// x-ratelimit-reset-requests said up to 2m0s for a one-minute window (the estimate weighs this
// minute's requests into the next one): a client waiting for it waited twice as long as needed.
describe('x-ratelimit-reset-requests never exceeds the one-minute window', () => {
  let dataDir: string;
  let store: Store;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-rate-reset-'));
    store = await openStore({ dataDir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sweep = async (limiter: RateLimiter, limit: number) => {
    const start = 2_000 * WINDOW_MS;
    let most = 0;
    // Bursts at every 7 s across three windows, allowed and refused alike.
    for (let t = 0; t < 3 * WINDOW_MS; t += 7_000) {
      for (let i = 0; i < limit + 2; i++) {
        const d = await limiter.take(`k${limit}`, limit, start + t);
        expect(d.resetSeconds).toBeGreaterThanOrEqual(1);
        expect(d.resetSeconds, `t=${t}`).toBeLessThanOrEqual(WINDOW_MS / 1000);
        most = Math.max(most, d.resetSeconds);
      }
    }
    return most;
  };

  it('in memory and in the database, for small and large limits, reaching the window but never beyond', async () => {
    for (const limit of [1, 5, 100]) {
      expect(await sweep(new MemoryRateLimiter(), limit)).toBe(60);
      expect(await sweep(new SqlRateLimiter(store.db), limit)).toBe(60);
    }
    expect(formatDuration(60)).toBe('1m0s');
  });

  it('after an allowed request, a minute; refused with only the last window counting, until that window is out', () => {
    const limiter = new MemoryRateLimiter();
    const start = 3_000 * WINDOW_MS;
    expect(limiter.take('k', 1, start + 59_000).resetSeconds).toBe(60);
    // Next window, 1 s in: the previous window's request still weighs, so the second is refused;
    // what counts now (the request at 59 s) is out of the last minute 58 s later, and that is when
    // a retry fits.
    const refused = limiter.take('k', 1, start + WINDOW_MS + 1_000);
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(58);
    expect(refused.retryAfterSeconds).toBe(58);
  });
});

describe('the header on the wire', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ env: { SVC_RATE_LIMIT_FREE: '3' } });
  });
  afterAll(() => svc.close());

  it('is at most 1m0s on allowed and refused requests, and Retry-After is given when refused', async () => {
    const { apiKey } = await svc.account({ plan: 'free' });
    const replies: Response[] = [];
    for (let i = 0; i < 5; i++) replies.push(await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${apiKey}` } }));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    for (const r of replies) {
      const reset = seconds(r.headers.get('x-ratelimit-reset-requests')!);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(Number(replies[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
