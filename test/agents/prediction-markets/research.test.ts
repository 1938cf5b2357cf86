import { describe, expect, it } from 'vitest';
import { historicalCandlePlan, priceBefore } from '../../../src/agents/prediction-markets/research.js';
import type { KalshiCandle, KalshiMarket } from '../../../src/data/kalshi/types.js';

const ohlc = (close: string | null) => ({ close_dollars: close });
const candle = (end: number, over: Partial<KalshiCandle>): KalshiCandle => ({ end_period_ts: end, ...over });

describe('priceBefore', () => {
  it('takes the last trade of the latest candle closing at or before the time', () => {
    const candles = [candle(100, { price: ohlc('0.4000') }), candle(200, { price: ohlc('0.4500') }), candle(300, { price: ohlc('0.9000') })];
    expect(priceBefore(candles, 250)).toBe(450_000);
    expect(priceBefore(candles, 50)).toBeNull();
  });

  it('falls back to the mid of a two-sided quote', () => {
    expect(priceBefore([candle(100, { price: ohlc(null), yes_bid: ohlc('0.3000'), yes_ask: ohlc('0.3400') })], 100)).toBe(320_000);
  });

  it('set against a mid now, takes the mid then (a move on one basis), else the trade', () => {
    const quoted = candle(100, { price: ohlc('0.5000'), yes_bid: ohlc('0.4400'), yes_ask: ohlc('0.4800') });
    expect(priceBefore([quoted], 100)).toBe(500_000);
    expect(priceBefore([quoted], 100, 'mid')).toBe(460_000);
    expect(priceBefore([candle(100, { price: ohlc('0.5000'), yes_bid: ohlc('0.0000'), yes_ask: ohlc('0.4800') })], 100, 'mid')).toBe(500_000);
  });

  it.each([
    ['no quotes at all (0 bid, 1 ask)', '0.0000', '1.0000'],
    ['only an ask', '0.0000', '0.0600'],
    ['only a bid', '0.9400', '1.0000'],
    ['a missing side', null, '0.0600'],
  ])('has no price when the candle has no trade and %s', (_what, bid, ask) => {
    expect(priceBefore([candle(100, { price: ohlc(null), yes_bid: ohlc(bid), yes_ask: ohlc(ask) })], 100)).toBeNull();
  });
});

describe('historicalCandlePlan', () => {
  const event = (ticker: string, markets: number, winners: number[]) => ({
    ticker,
    markets: Array.from({ length: markets }, (_, i) => ({ ticker: `${ticker}-${i}`, result: winners.includes(i) ? 'yes' : 'no' }) as KalshiMarket),
  });
  const tickers = (plan: Map<string, KalshiMarket[]>) => Object.fromEntries([...plan].map(([e, ms]) => [e, ms.map((m) => m.ticker)]));

  it("prices every event's winners first, then whole events newest first with what is left", () => {
    const events = [event('E1', 4, [2]), event('E2', 4, [0]), event('E3', 4, [1]), event('E4', 4, [3]), event('E5', 4, [0])];
    const plan = historicalCandlePlan(events, 12);
    // 5 winners, then 7 left: E1's other three and E2's other three, not E3's (one short).
    expect(tickers(plan)).toEqual({ E1: ['E1-2', 'E1-0', 'E1-1', 'E1-3'], E2: ['E2-0', 'E2-1', 'E2-2', 'E2-3'], E3: ['E3-1'], E4: ['E4-3'], E5: ['E5-0'] });
    expect([...plan.values()].flat()).toHaveLength(11);
  });

  it('never goes over the budget; an event whose winners do not fit is left unpriced', () => {
    const plan = historicalCandlePlan([event('L1', 5, [0, 1, 2]), event('L2', 3, [0, 1]), event('L3', 2, [0])], 4);
    expect(tickers(plan)).toEqual({ L1: ['L1-0', 'L1-1', 'L1-2'], L3: ['L3-0'] });
  });
});
