import { describe, expect, it } from 'vitest';
import { formatCount, formatDollars, formatFixed, formatPercent, parseFixed } from '../../../src/data/kalshi/numbers.js';

describe('fixed-point numbers', () => {
  it('parses dollars and counts exactly, without float drift', () => {
    expect(parseFixed('0.5600')).toBe(560_000);
    expect(parseFixed('0.715')).toBe(715_000);
    expect(parseFixed('0.123456')).toBe(123_456);
    expect(parseFixed('850.64')).toBe(850_640_000);
    expect(parseFixed('412877.00')).toBe(412_877_000_000);
    expect(parseFixed('0.1')! + parseFixed('0.2')!).toBe(parseFixed('0.3'));
    expect(parseFixed('')).toBeNull();
    expect(parseFixed(undefined)).toBeNull();
    expect(parseFixed('abc')).toBeNull();
    expect(parseFixed('1e5')).toBeNull();
  });

  it('formats exactly what it parsed', () => {
    expect(formatDollars(parseFixed('0.7100')!)).toBe('$0.71');
    expect(formatDollars(parseFixed('0.7150')!)).toBe('$0.715');
    expect(formatDollars(parseFixed('1.0000')!)).toBe('$1.00');
    expect(formatPercent(parseFixed('0.7200')!)).toBe('72.0%');
    expect(formatPercent(Math.round((parseFixed('0.71')! + parseFixed('0.72')!) / 2))).toBe('71.5%');
    expect(formatCount(parseFixed('412877.00')!)).toBe('412,877');
    expect(formatCount(parseFixed('1250.5')!)).toBe('1,250.5');
    expect(formatCount(parseFixed('850.64')!)).toBe('850.64');
    expect(formatFixed(-1_500_000)).toBe('-1.5');
  });
});
