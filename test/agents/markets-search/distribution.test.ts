import { describe, expect, it } from 'vitest';
import { americanOdds, aboutLevel, decimalOdds, expectedLevel, expectedMove, fractionalOdds, ladderMedian, rateMove } from '../../../src/agents/markets-search/distribution.js';
import { labelRange } from '../../../src/agents/markets-search/asked.js';

const chances = (pairs: [string, number][]) => pairs.map(([label, chance]) => ({ label, range: labelRange(label), chance }));

describe('what prices imply', () => {
  it('the mean and median of exclusive levels, normalised, open ends at their bound', () => {
    // Counts: 2 or fewer, 3, 4, 5 or more; prices add up to 117.5%.
    const launches = expectedLevel(chances([['2 or fewer', 42], ['3', 12.5], ['4', 38], ['5 or more', 25]]))!;
    expect(launches.mean).toBeCloseTo((2 * 42 + 3 * 12.5 + 4 * 38 + 5 * 25) / 117.5, 10);
    // Cumulative 35.7%, 46.4%, 78.7%: the median is 4.
    expect(launches.median).toBe('4');
    expect(launches.openEnded).toBe(true);
    // Closed ranges count at their middle.
    const closed = expectedLevel(chances([['40 to 50', 50], ['50 to 60', 50]]))!;
    expect(closed).toEqual({ mean: 50, median: '40 to 50', openEnded: false });
    // An outcome that is no level: no mean.
    expect(expectedLevel(chances([['Hold', 50], ['Cut 25bps', 50]]))).toBeNull();
  });

  it("a rate decision's outcomes are moves in basis points: the expected change, and a cut's and a hike's chance and size", () => {
    expect(['Hold', 'Cut 25bps', 'Cut more than 25bps', 'Hike >25bps', 'Hike 50 bps', 'No change', 'Cut at least 50bps'].map(rateMove)).toEqual([
      { bps: 0, open: false },
      { bps: -25, open: false },
      { bps: -50, open: true },
      { bps: 50, open: true },
      { bps: 50, open: false },
      { bps: 0, open: false },
      { bps: -50, open: true },
    ]);
    for (const label of ['Above 3.0', 'Cut', 'Shutdown', 'Hike 25%']) expect(rateMove(label), label).toBeNull();
    // The demo's Fed prices, adding up to 110.5%: normalised before anything is weighed.
    const move = expectedMove([['Cut more than 25bps', 33], ['Cut 25bps', 10], ['Hold', 16], ['Hike 25bps', 51.5]].map(([label, chance]) => ({ label: label as string, chance: chance as number })))!;
    expect(move.mean).toBeCloseTo((-50 * 33 - 25 * 10 + 25 * 51.5) / 110.5, 10);
    expect(move.cut!.chance).toBeCloseTo((100 * 43) / 110.5, 10);
    expect(move.cut!.size).toBeCloseTo((50 * 33 + 25 * 10) / 43, 10);
    expect(move.hike).toEqual({ chance: (100 * 51.5) / 110.5, size: 25 });
    expect(move.openEnded).toBe(true);
    // From the largest cut up: 33 + 10 + 16 = 59 of 110.5 reaches half at Hold.
    expect(move.median).toBe('Hold');
    expect(expectedMove([{ label: 'Hold', chance: 60 }, { label: 'Shutdown', chance: 40 }])).toBeNull();
  });

  it("a ladder's median is where the chance of ending above crosses 50%", () => {
    const rungs = (above: number[]) => above.map((p, i) => ({ level: `$${90 + 4 * i}k`, value: 90 + 4 * i, above: p }));
    expect(ladderMedian(rungs([80, 60, 40, 10]))).toBe('between $94k and $98k');
    expect(ladderMedian(rungs([43, 14.5, 4, 5]))).toBe('below $90k');
    expect(ladderMedian(rungs([96, 92.5, 86.5, 61]))).toBe('above $102k');
  });

  it('prices as American and decimal odds', () => {
    expect(americanOdds(62.5)).toBe('−167');
    expect(americanOdds(38.5)).toBe('+160');
    expect(americanOdds(50)).toBe('−100');
    expect(americanOdds(0)).toBe('—');
    expect(decimalOdds(62.5)).toBe('1.60');
    // Fractional odds: the decimal odds less the stake, as the simplest fraction within 1.5%.
    expect(fractionalOdds(62.5)).toBe('3/5');
    expect(fractionalOdds(4)).toBe('24/1');
    expect(fractionalOdds(33)).toBe('2/1');
    expect(fractionalOdds(50)).toBe('1/1');
    expect(fractionalOdds(0)).toBe('—');
    expect(aboutLevel(51.43, ['Below 44°F', '56°F or above'])).toBe('51.4°F');
    expect(aboutLevel(93120.4, ['Above $92,000'])).toBe('$93,120');
    expect(aboutLevel(38_340_000, ['Below $20M', '$20M to $40M'])).toBe('$38.3M');
    expect(aboutLevel(87_048, ['Below 0', '0 to 75k', 'Above 225k'])).toBe('87k');
  });
});
