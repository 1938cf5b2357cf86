import { describe, expect, it } from 'vitest';
import { closedBecause, nextBusinessDay } from '../../../src/data/sec/business-days.js';

describe('SEC business days', () => {
  it.each([
    ['2025-05-10', '2025-05-12', 'a Saturday'],
    ['2025-11-09', '2025-11-10', 'a Sunday'],
    ['2025-08-07', '2025-08-07', null],
    ['2025-11-27', '2025-11-28', 'a federal holiday'], // Thanksgiving
    ['2026-07-03', '2026-07-06', 'a federal holiday'], // July 4 on a Saturday, observed on the Friday
    ['2025-01-20', '2025-01-21', 'a federal holiday'], // Martin Luther King Jr. Day
    ['2025-05-26', '2025-05-27', 'a federal holiday'], // Memorial Day
    ['2027-12-31', '2028-01-03', 'a federal holiday'], // New Year's Day 2028 on a Saturday, observed on the Friday before
  ])('%s → %s (%s)', (day, next, why) => {
    expect(nextBusinessDay(day)).toBe(next);
    expect(closedBecause(day)).toBe(why);
  });
});
