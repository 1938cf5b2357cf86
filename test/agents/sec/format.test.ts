import { describe, expect, it } from 'vitest';
import { formatChange } from '../../../src/agents/sec/format.js';
import { METRICS } from '../../../src/data/sec/metrics.js';

const metric = (id: string) => METRICS.find((m) => m.id === id)!;

describe('formatChange', () => {
  it('gives the change with its sign and rate; a rate too small for one decimal keeps its direction', () => {
    expect(formatChange(85_777e6, 81_797e6, 'USD', metric('revenue'), 6)).toBe('+$3,980 million (+4.9%)');
    expect(formatChange(93_736e6, 99_803e6, 'USD', metric('netIncome'), 6)).toBe('-$6,067 million (-6.1%)');
    // 7,437 against 7,434 million shares is +0.04%, not "+0.0%".
    expect(formatChange(7_437e6, 7_434e6, 'shares', metric('sharesOutstanding'), 6)).toMatch(/\(\+0\.04%\)$/);
    expect(formatChange(10_000_001, 10_000_000, 'USD', metric('revenue'), 0)).toMatch(/\(\+<0\.01%\)$/);
    expect(formatChange(5e6, 5e6, 'USD', metric('revenue'), 6)).toMatch(/^±/);
  });
});
