import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter, WINDOW_MS } from '../../src/billing/rate-limit.js';

describe('MemoryRateLimiter', () => {
  it('says the limit is whole again only when no counted request still weighs, never before a refused one may retry', () => {
    const limiter = new MemoryRateLimiter();
    const start = 1_000 * WINDOW_MS;
    const now = start + 14_000;
    for (let i = 0; i < 5; i++) expect(limiter.take('k', 5, now).allowed).toBe(true);
    const refused = limiter.take('k', 5, now);
    expect(refused.allowed).toBe(false);
    // This window's requests weigh on the next window too: whole again 46 s + 60 s from now.
    expect(refused.resetSeconds).toBe(106);
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(refused.retryAfterSeconds);
    // In the next window only the previous one's requests weigh: whole again when it ends.
    const next = limiter.take('k', 5, start + WINDOW_MS + 50_000);
    expect(next.allowed).toBe(true);
    expect(next.resetSeconds).toBe(70);
  });
});
