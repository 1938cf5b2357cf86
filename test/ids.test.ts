import { describe, expect, it } from 'vitest';
import { newId, randomToken } from '../src/ids.js';

describe('ids', () => {
  it('are base62 of the asked length, with the prefix', () => {
    for (const length of [1, 10, 22, 32, 64, 100]) expect(randomToken(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
    expect(newId('resp_', 32)).toMatch(/^resp_[0-9A-Za-z]{32}$/);
  });

  it('do not repeat, and use the whole alphabet about evenly', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const t = randomToken(22);
      seen.add(t);
      for (const c of t) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(seen.size).toBe(20_000);
    expect(counts.size).toBe(62);
    const expected = (20_000 * 22) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.06);
  });
});
