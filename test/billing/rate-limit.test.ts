import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter, SqlRateLimiter, WINDOW_MS } from '../../src/billing/rate-limit.js';
import { openStore } from '../../src/store/db.js';

describe('MemoryRateLimiter', () => {
  it('says when the requests counted now have left the minute (never more than the minute), never before a refused one may retry', () => {
    const limiter = new MemoryRateLimiter();
    const start = 1_000 * WINDOW_MS;
    const now = start + 14_000;
    for (let i = 0; i < 5; i++) expect(limiter.take('k', 5, now).allowed).toBe(true);
    const refused = limiter.take('k', 5, now);
    expect(refused.allowed).toBe(false);
    // This window's requests leave the one-minute window a minute after the last of them (now).
    expect(refused.resetSeconds).toBe(60);
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(refused.retryAfterSeconds);
    // In the next window, the request just made leaves a minute from now (the header is never more than the window).
    const next = limiter.take('k', 5, start + WINDOW_MS + 50_000);
    expect(next.allowed).toBe(true);
    expect(next.resetSeconds).toBe(60);
  });
});

describe('SqlRateLimiter', () => {
  it('does not remember a window that just ended: a request another replica began in it still counts', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-rate-'));
    const store = await openStore({ dataDir });
    try {
      const [a, b] = [new SqlRateLimiter(store.db), new SqlRateLimiter(store.db)];
      const start = 1_000 * WINDOW_MS;
      for (let i = 0; i < 8; i++) expect((await a.take('k', 10, start + 50_000)).allowed).toBe(true);
      // Just after the boundary: 8 weigh from the last window, so 2 more fit.
      const after = start + WINDOW_MS + 10;
      expect((await b.take('k', 10, after)).allowed).toBe(true);
      // Two requests replica A began before the boundary are counted in the old window after that.
      for (let i = 0; i < 2; i++) expect((await a.take('k', 10, start + WINDOW_MS - 1)).allowed).toBe(true);
      // Now 10 weigh from the last window (plus 1 in this one): B must not admit on a remembered 8.
      expect((await b.take('k', 10, after + 10)).allowed).toBe(false);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
