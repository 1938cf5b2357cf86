import { describe, expect, it } from 'vitest';
import { formatAmount, formatChange, roughly } from '../../../src/agents/sec/format.js';
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

describe('roughly', () => {
  it('says a share count filed in thousands in billions too; money in billions; nothing for small figures', () => {
    const shares = metric('sharesOutstanding');
    expect(formatAmount(15_116_786_000, 'shares', shares, 3)).toBe('15,116,786 thousand shares');
    expect(roughly(15_116_786_000, 'shares', shares)).toBe('15.12 billion shares');
    expect(roughly(750_000_000, 'shares', shares)).toBeNull();
    expect(roughly(85_777e6, 'USD', metric('revenue'))).toBe('$85.8 billion');
    expect(roughly(1.4, 'USD/shares', metric('dilutedEps'))).toBeNull();
  });
});
