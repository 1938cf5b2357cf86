import { describe, expect, it } from 'vitest';
import { priceBefore } from '../../../src/agents/prediction-markets/research.js';
import type { KalshiCandle } from '../../../src/data/kalshi/types.js';

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

  it.each([
    ['no quotes at all (0 bid, 1 ask)', '0.0000', '1.0000'],
    ['only an ask', '0.0000', '0.0600'],
    ['only a bid', '0.9400', '1.0000'],
    ['a missing side', null, '0.0600'],
  ])('has no price when the candle has no trade and %s', (_what, bid, ask) => {
    expect(priceBefore([candle(100, { price: ohlc(null), yes_bid: ohlc(bid), yes_ask: ohlc(ask) })], 100)).toBeNull();
  });
});
