import { describe, expect, it } from 'vitest';
import { isSvcError } from '../../../src/errors.js';
import { KalshiAnswer } from '../../../src/data/kalshi/shape.js';

const read = () => new KalshiAnswer('GET /events/KXTEST-1');

/** The message of the upstream_invalid_response `fn` throws. */
function malformed(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (!isSvcError(err)) throw err;
    expect(err.code).toBe('upstream_invalid_response');
    expect(err.kind).toBe('upstream');
    return err.message;
  }
  throw new Error('expected upstream_invalid_response');
}

const market = (extra: Record<string, unknown> = {}) => ({ ticker: 'KXTEST-1-A', event_ticker: 'KXTEST-1', status: 'active', yes_bid_dollars: '0.4100', ...extra });
const event = (extra: Record<string, unknown> = {}) => ({ event_ticker: 'KXTEST-1', series_ticker: 'KXTEST', title: 'Test?', mutually_exclusive: true, markets: [market()], ...extra });

describe('reading Kalshi answers', () => {
  it('passes well-formed answers through unchanged', () => {
    const e = event({ settlement_sources: [{ name: 'BLS', url: 'https://www.bls.gov/' }] });
    expect(read().event(structuredClone(e), 'event')).toEqual(e);
    const candle = { end_period_ts: 1_790_000_000, price: { close_dollars: '0.41', previous_dollars: null }, volume_fp: '12.00' };
    expect(read().candles([candle], 'candlesticks')).toEqual([candle]);
    const book = { yes_dollars: [['0.40', '100.00']], no_dollars: null };
    expect(read().orderbook(structuredClone(book), 'orderbook_fp')).toEqual(book);
  });

  it('fails on broken structure, naming the request and the path', () => {
    expect(malformed(() => read().event(undefined, 'event'))).toBe(
      'Kalshi answered GET /events/KXTEST-1 with data in an unexpected shape: event is not an object. Try again later.',
    );
    expect(malformed(() => read().event(event({ series_ticker: '' }), 'event'))).toContain('event.series_ticker is not a non-empty string');
    expect(malformed(() => read().event(event({ markets: {} }), 'event'))).toContain('event.markets is not a list');
    expect(malformed(() => read().event(event({ markets: [market(), null] }), 'event'))).toContain('event.markets[1] is not an object');
    expect(malformed(() => read().event(event({ markets: [market({ ticker: 7 })] }), 'event'))).toContain('event.markets[0].ticker is not a non-empty string');
    expect(malformed(() => read().event(event({ mutually_exclusive: 'yes' }), 'event'))).toContain('event.mutually_exclusive is not true or false');
    expect(malformed(() => read().candles([{ end_period_ts: '1790000000' }], 'markets[2].candlesticks'))).toContain('markets[2].candlesticks[0].end_period_ts is not a number');
    expect(malformed(() => read().orderbook({ yes_dollars: [['0.40']] }, 'orderbook_fp'))).toContain('orderbook_fp.yes_dollars[0] is not a [price, count] pair');
    expect(malformed(() => read().series({ ticker: 'KXTEST' }, 'series'))).toContain('series.title is not a string');
  });

  it('drops descriptive fields of the wrong type, as an unreadable price already is', () => {
    const m = read().market(market({ close_time: {}, yes_ask_dollars: ['0.42'], can_close_early: 'no', floor_strike: 'high', rules_primary: null }), 'market');
    expect(m).toEqual(market({ rules_primary: null }));
    const e = read().event(event({ category: 5, mutually_exclusive: null, settlement_sources: [{ name: 'BLS', url: 'javascript:alert(1)' }, { name: 'NBA.com', url: 'https://www.nba.com/' }, 'x'] }), 'event');
    expect(e.category).toBeUndefined();
    expect(e.mutually_exclusive).toBeUndefined();
    expect(e.settlement_sources).toEqual([{ name: 'NBA.com', url: 'https://www.nba.com/' }]);
    const [c] = read().candles([{ end_period_ts: 1, yes_bid: 'x', price: { close_dollars: {} }, volume_fp: [] }], 'candlesticks');
    expect(c).toEqual({ end_period_ts: 1, price: {} });
    expect(read().series({ ticker: 'KXTEST', title: 'Test', tags: ['a', 3], frequency: 9 }, 'series')).toEqual({ ticker: 'KXTEST', title: 'Test', tags: ['a'] });
  });

  it('keeps the readable entries of a list for the search index', () => {
    const r = read();
    expect(r.readable([event(), { event_ticker: 'KXBAD-1' }, null, event({ event_ticker: 'KXTEST-2' })], (e, at) => r.event(e, at), 'events').map((e) => e.event_ticker)).toEqual(['KXTEST-1', 'KXTEST-2']);
  });

  it('reads absent or null lists as empty, and a cursor that is not a string as the end', () => {
    expect(read().list(undefined, 'markets')).toEqual([]);
    expect(read().list(null, 'markets')).toEqual([]);
    expect(read().cursor('')).toBeUndefined();
    expect(read().cursor(42)).toBeUndefined();
    expect(read().cursor('abc')).toBe('abc');
  });
});
