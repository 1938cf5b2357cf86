import { describe, expect, it } from 'vitest';
import { atLevel, byStrike, coverOfSide, labelRange, levelsAsked, negated, rangeOfMarket, settlesAt, sideAsked, sideIncludesLevel, whenAsked } from '../../../src/agents/markets-search/asked.js';
import type { KalshiEvent, KalshiMarket } from '../../../src/data/kalshi/types.js';

const NOW = Date.parse('2026-11-19T15:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('the date a question asks about', () => {
  it.each([
    ['will bitcoin be above 100k by end of year', 'at the end of 2026', '2026-12-15', '2027-01-08'],
    ['btc at year-end 2027', 'at the end of 2027', '2027-12-15', '2028-01-08'],
    ['fed decision in december', 'in December 2026', '2026-12-01', '2027-01-01'],
    ['fed decision in january', 'in January 2027', '2027-01-01', '2027-02-01'],
    ['cpi for march 2027', 'in March 2027', '2027-03-01', '2027-04-01'],
    ['recession in 2027', 'in 2027', '2027-01-01', '2028-01-08'],
    ['recession next year', 'in 2027', '2027-01-01', '2028-01-08'],
    // Asked in the past tense: the month's last occurrence, not its next.
    ['what did the Fed do in October?', 'in October 2026', '2026-10-01', '2026-11-01'],
    ['how did CPI come in for September?', 'in September 2026', '2026-09-01', '2026-10-01'],
    ['what was the fed decision in december?', 'in December 2025', '2025-12-01', '2026-01-01'],
  ])('%s → %s', (query, said, from, to) => {
    const when = whenAsked(query, NOW)!;
    expect(when.said).toBe(said);
    expect(iso(when.from).slice(0, 10)).toBe(from);
    expect(iso(when.to).slice(0, 10)).toBe(to);
  });

  it('today and tomorrow are UTC days with half a day either side; a week is the seven days ahead, said with its dates; a weekend its Saturday and Sunday', () => {
    const today = whenAsked('nyc temperature today', NOW)!;
    expect([today.said, iso(today.from), iso(today.to)]).toEqual(['today (2026-11-19)', '2026-11-18T12:00:00.000Z', '2026-11-20T12:00:00.000Z']);
    const tomorrow = whenAsked('bitcoin tomorrow', NOW)!;
    expect([tomorrow.said, iso(tomorrow.from), iso(tomorrow.to)]).toEqual(['tomorrow (2026-11-20)', '2026-11-19T12:00:00.000Z', '2026-11-21T12:00:00.000Z']);
    // 2026-11-19 is a Thursday.
    const week = whenAsked('spacex launches this week', NOW)!;
    expect([week.said, iso(week.to)]).toEqual(['this week (to 2026-11-26)', '2026-11-27T00:00:00.000Z']);
    const weekend = whenAsked('any sports markets this weekend?', NOW)!;
    expect([weekend.said, iso(weekend.from), iso(weekend.to)]).toEqual(['this weekend (2026-11-21 and 2026-11-22)', '2026-11-20T12:00:00.000Z', '2026-11-23T12:00:00.000Z']);
    const next = whenAsked('what closes next week?', NOW)!;
    expect([next.said, iso(next.from), iso(next.to)]).toEqual(['next week (2026-11-23 to 2026-11-29)', '2026-11-22T12:00:00.000Z', '2026-11-30T12:00:00.000Z']);
    // Asked on a Monday, next week starts the Monday after.
    expect(whenAsked('next week', Date.parse('2026-11-23T09:00:00Z'))!.said).toBe('next week (2026-11-30 to 2026-12-06)');
    // Asked on a Sunday, this weekend is that one.
    expect(whenAsked('this weekend', Date.parse('2026-11-22T09:00:00Z'))!.said).toBe('this weekend (2026-11-21 and 2026-11-22)');
  });

  it('a weekday is its next occurrence, today included; "next" said on that day is a week on', () => {
    // 2026-11-19 is a Thursday.
    const friday = whenAsked('will bitcoin be above 100k on friday?', NOW)!;
    expect([friday.said, iso(friday.from), iso(friday.to)]).toEqual(['on Friday (2026-11-20)', '2026-11-19T12:00:00.000Z', '2026-11-21T12:00:00.000Z']);
    expect(whenAsked('nyc high thursday', NOW)!.said).toBe('on Thursday (2026-11-19)');
    expect(whenAsked('nyc high next thursday', NOW)!.said).toBe('on Thursday (2026-11-26)');
    expect(whenAsked('bitcoin on monday', NOW)!.said).toBe('on Monday (2026-11-23)');
  });

  it('names no date when the question says none (a topic word is not a date)', () => {
    for (const q of ['odds of a Fed cut', 'bitcoin price', 'Chiefs vs Bills', 'may the Lakers win', 'CPI above 3%']) expect(whenAsked(q, NOW)).toBeNull();
  });

  it('an event settles on its strike date, else when its last market closes', () => {
    const markets = [{ close_time: '2026-12-01T00:00:00Z' }, { close_time: '2026-12-03T00:00:00Z' }] as KalshiMarket[];
    expect(settlesAt({ strike_date: '2026-12-15T15:00:00Z', markets } as KalshiEvent)).toBe(Date.parse('2026-12-15T15:00:00Z'));
    expect(settlesAt({ strike_date: null, markets } as KalshiEvent)).toBe(Date.parse('2026-12-03T00:00:00Z'));
    expect(settlesAt({ markets: [] } as unknown as KalshiEvent)).toBeNull();
  });
});

describe('the levels a question names', () => {
  it.each([
    ['bitcoin above 100k', [100_000]],
    ['bitcoin above $120,000 tomorrow', [120_000]],
    ['btc over $95k or 1.2m', [95_000, 1_200_000]],
    ['cpi above 2.8%', [2.8]],
    ['nyc high above 60 degrees', [60]],
    ['bitcoin over 105000', [105_000]],
    // A shorter number said with a direction is a level; a count of times is not.
    ['ETH above 3500', [3500]],
    ['cpi over 3', [3]],
    ['will the fed cut at least 2 times', []],
    ['more than 4 launches', [4]],
    ['fewer than 3 launches this week', [3]],
    ['exactly 4?', [4]],
    ['what about 6 or more?', [6]],
    ['2 or fewer', [2]],
    // Years, counts and rate moves are not levels.
    ['fed cut 25bps in december 2026', []],
    ['top 3 ai lab by 2027', []],
  ])('%s → %j', (query, values) => {
    expect(levelsAsked(query).map((l) => l.value)).toEqual(values);
  });

  it('says each level the way its kind is written', () => {
    expect(levelsAsked('above 100k, 2.8% or 60°F').map((l) => l.said)).toEqual(['$100,000', '2.8%', '60°']);
  });

  it('a market is at a level when its strike is it (to a cent, as Kalshi writes 99,999.99) or its range holds it', () => {
    const above = { strike_type: 'greater', floor_strike: 99_999.99 } as KalshiMarket;
    expect(atLevel(above, 100_000)).toBe(true);
    expect(atLevel(above, 96_000)).toBe(false);
    expect(atLevel({ strike_type: 'less', cap_strike: 44 } as KalshiMarket, 44)).toBe(true);
    expect(atLevel({ strike_type: 'between', floor_strike: 48, cap_strike: 51 } as KalshiMarket, 50)).toBe(true);
    expect(atLevel({ strike_type: 'custom' } as KalshiMarket, 50)).toBe(false);
    // Custom strikes say their range in the label only.
    expect(atLevel({ strike_type: 'custom', yes_sub_title: '48°F to 51°F' } as KalshiMarket, 50)).toBe(true);
    expect(atLevel({ strike_type: 'custom', yes_sub_title: '56°F or above' } as KalshiMarket, 60)).toBe(true);
    expect(atLevel({ strike_type: 'custom', yes_sub_title: 'Below 44°F' } as KalshiMarket, 50)).toBe(false);
    expect(atLevel({ strike_type: 'custom', yes_sub_title: 'Hold' } as KalshiMarket, 25)).toBe(false);
    expect(byStrike([{ floor_strike: 3 }, { cap_strike: 1 }, { strike_type: 'custom' }] as KalshiMarket[]).map((m) => m.floor_strike ?? m.cap_strike)).toEqual([1, 3]);
  });
});

describe('one side of a level among exclusive ranges', () => {
  const TEMPS = ['Below 44°F', '44°F to 47°F', '48°F to 51°F', '52°F to 55°F', '56°F or above'];
  const PAYROLLS = ['Below 0', '0 to 75k', '75k to 150k', '150k to 225k', 'Above 225k'];
  const cover = (labels: string[], level: number, side: 'above' | 'below') => coverOfSide(labels, labelRange, level, side);

  it('reads sizes glued to a label\'s numbers', () => {
    expect(labelRange('150k to 225k')).toEqual({ from: 150_000, to: 225_000 });
    expect(labelRange('Above 225k')).toEqual({ from: 225_000, to: null, fromExcluded: true });
    expect(labelRange('Above 1.5M')).toEqual({ from: 1_500_000, to: null, fromExcluded: true });
    expect(labelRange('48°F to 51°F')).toEqual({ from: 48, to: 51 });
  });

  it('reads a count\'s outcomes: "2 or fewer", a number alone, "5 or more"', () => {
    expect(labelRange('2 or fewer')).toEqual({ from: null, to: 2 });
    expect(labelRange('3')).toEqual({ from: 3, to: 3 });
    expect(labelRange('Exactly 4')).toEqual({ from: 4, to: 4 });
    expect(labelRange('5 or more')).toEqual({ from: 5, to: null });
    expect(labelRange('Release')).toBeNull();
    expect(cover(['2 or fewer', '3', '4', '5 or more'], 3, 'above')).toEqual({ whole: ['3', '4', '5 or more'], split: null });
    expect(cover(['2 or fewer', '3', '4', '5 or more'], 3, 'below')).toEqual({ whole: ['2 or fewer', '3'], split: null });
  });

  it('tells a side that includes its level from one that starts past it', () => {
    for (const q of ['at least 3', '5 or more', 'no more than 2', 'at most 4', '2 or fewer']) expect(sideIncludesLevel(q), q).toBe(true);
    for (const q of ['more than 4', 'fewer than 3', 'above 60', 'below 2%']) expect(sideIncludesLevel(q), q).toBe(false);
    expect(['6 or more', '2 or fewer', 'not fewer than 3'].map(sideAsked)).toEqual(['above', 'below', 'above']);
  });

  it('is the outcomes wholly on that side, and the one the level falls inside', () => {
    // "Above 60" is only part of "56°F or above": at most its price, not its price.
    expect(cover(TEMPS, 60, 'above')).toEqual({ whole: [], split: '56°F or above' });
    expect(cover(TEMPS, 50, 'below')).toEqual({ whole: ['Below 44°F', '44°F to 47°F'], split: '48°F to 51°F' });
    expect(cover(TEMPS, 44, 'below')).toEqual({ whole: ['Below 44°F'], split: null });
    expect(cover(TEMPS, 56, 'above')).toEqual({ whole: ['56°F or above'], split: null });
    expect(cover(PAYROLLS, 200_000, 'above')).toEqual({ whole: ['Above 225k'], split: '150k to 225k' });
    expect(cover(PAYROLLS, 0, 'below')).toEqual({ whole: ['Below 0'], split: null });
    // A ladder of one-sided rungs, or outcomes that are not ranges: not this question.
    expect(cover(['Above $92,000', 'Above $96,000'], 94_000, 'above')).toBeNull();
    expect(cover(['Hold', 'Cut 25bps'], 25, 'above')).toBeNull();
  });

  it("takes a market's strikes before its label", () => {
    expect(rangeOfMarket({ strike_type: 'between', floor_strike: 48, cap_strike: 51, yes_sub_title: 'x' } as KalshiMarket)).toEqual({ from: 48, to: 51 });
    expect(rangeOfMarket({ strike_type: 'greater', floor_strike: 56 } as KalshiMarket)).toEqual({ from: 56, to: null, fromExcluded: true });
    expect(rangeOfMarket({ strike_type: 'less', cap_strike: 44 } as KalshiMarket)).toEqual({ from: null, to: 44, toExcluded: true });
  });

  it('knows a question asking for an outcome not to happen from a bound said with a negation', () => {
    for (const q of ["what's the chance they don't hike?", 'chance bitcoin does not end above 100k', 'odds there is no government shutdown', "it won't happen", 'odds it never closes above 3%']) expect(negated(q), q).toBe(true);
    for (const q of ['no more than 3 launches', 'not less than 2%', 'will the fed cut or not', 'odds of a cut', 'whether it happens']) expect(negated(q), q).toBe(false);
    expect(sideAsked('not less than 2%')).toBe('above');
    expect(sideAsked('payrolls come in negative')).toBe('below');
    // "Beat 100k" is above it; "top 3" is no side.
    expect(sideAsked('will payrolls beat 100k')).toBe('above');
    expect(levelsAsked('will payrolls beat 100k').map((l) => l.value)).toEqual([100_000]);
    expect(sideAsked('top 3 ai lab')).toBeNull();
    expect(levelsAsked('payrolls come in negative')).toEqual([{ value: 0, said: '0' }]);
    expect(levelsAsked('payrolls above 200k')).toEqual([{ value: 200_000, said: '$200,000', plain: '200k' }]);
  });
});
