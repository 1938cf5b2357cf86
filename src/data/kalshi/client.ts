import { LRUCache } from 'lru-cache';
import type { DataSource, Query } from '../source.js';
import { KalshiAnswer } from './shape.js';
import type { KalshiCandle, KalshiEvent, KalshiMarket, KalshiOrderbook, KalshiSeries } from './types.js';

/** Pages read of a paged list (1,000 markets each): a series' settled history stops there. */
export const MAX_PAGES = 20;

export interface SettledMarkets {
  /** Markets settled YES or No, live and historical endpoints merged. */
  markets: KalshiMarket[];
  /** Tickers only the historical endpoint served. */
  historical: Set<string>;
  /** False when either endpoint had more pages than MAX_PAGES: the history is the part read. */
  complete: boolean;
}
const BATCH = 50;
const HOUR = 3600;
const DAY = 24 * HOUR;

export interface CandleSeries {
  ticker: string;
  candles: KalshiCandle[];
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/** How long each kind of answer may be reused (Kalshi's own advice: metadata for minutes, quotes not at all, settled data forever). */
const TTL = { series: 10 * 60_000, settled: 5 * 60_000 };

/**
 * Kalshi's public market data, over a DataSource (live or snapshot). Uses the batch endpoints
 * (orderbooks, candlesticks) instead of one request per market, and asks for the settled
 * history from both the live and the historical endpoints (markets settled before the
 * historical cutoff are only on the latter). Series metadata and settled lists are reused for
 * minutes and candles of settled markets indefinitely (bounded), so repeated reports on a
 * series need only the live quotes; events, order books and current candles are always fresh.
 */
export class KalshiClient {
  readonly #cache = new LRUCache<string, { value: Promise<unknown> }>({ max: 5000, ttlAutopurge: false });

  /** `clock` pins "now" (recording a snapshot, tests); by default a snapshot's recording time, else the time. */
  constructor(
    readonly source: DataSource,
    private readonly clock?: () => Date,
  ) {}

  /** Shares one request per key among concurrent callers, and keeps its answer for `ttl` (0: forever). */
  #cached<T>(key: string, ttl: number, load: () => Promise<T>): Promise<T> {
    const hit = this.#cache.get(key);
    if (hit) return hit.value as Promise<T>;
    const value = load();
    this.#cache.set(key, { value }, ttl ? { ttl } : {});
    value.catch(() => this.#cache.delete(key)); // failures are not remembered
    return value;
  }

  now(): Date {
    return this.clock?.() ?? this.source.recordedAt ?? new Date();
  }

  /** The answer's top-level object and its reader, or null for a 404. */
  async #get(path: string, query?: Query): Promise<{ body: Record<string, unknown>; read: KalshiAnswer } | null> {
    const res = await this.source.get<unknown>(path, query);
    if (res.status === 404) return null;
    const read = new KalshiAnswer(`GET ${path}`);
    return { body: read.object(res.body, 'the answer'), read };
  }

  /**
   * The event with its markets, or null when the exchange does not know it. Always fresh, but
   * callers asking at the same time (many requests for one report) share one request.
   */
  event(ticker: string): Promise<KalshiEvent | null> {
    let pending = this.#events.get(ticker);
    if (!pending) {
      pending = this.#event(ticker).finally(() => this.#events.delete(ticker));
      this.#events.set(ticker, pending);
    }
    return pending;
  }

  readonly #events = new Map<string, Promise<KalshiEvent | null>>();

  /** One market, or null when the exchange does not know it (to tell a market's address from an event's). */
  async market(ticker: string): Promise<KalshiMarket | null> {
    const got = await this.#get(`/markets/${encodeURIComponent(ticker)}`);
    return got ? got.read.market(got.body.market, 'market') : null;
  }

  async #event(ticker: string): Promise<KalshiEvent | null> {
    const got = await this.#get(`/events/${encodeURIComponent(ticker)}`, { with_nested_markets: true });
    if (!got) return null;
    const event = got.read.event(got.body.event, 'event');
    if (!event.markets?.length && got.body.markets !== undefined) event.markets = got.read.markets(got.body.markets, 'markets');
    return event;
  }

  series(ticker: string): Promise<KalshiSeries | null> {
    return this.#cached(`series:${ticker}`, TTL.series, async () => {
      const got = await this.#get(`/series/${encodeURIComponent(ticker)}`);
      return got ? got.read.series(got.body.series, 'series') : null;
    });
  }

  /** Markets page by page, up to MAX_PAGES; `complete` false when the exchange still had a next page. */
  async #paged(path: string, query: Query): Promise<{ markets: KalshiMarket[]; complete: boolean }> {
    const out: KalshiMarket[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const got = await this.#get(path, { ...query, cursor });
      if (!got) break;
      out.push(...got.read.markets(got.body.markets, 'markets'));
      cursor = got.read.cursor(got.body.cursor);
      if (!cursor) return { markets: out, complete: true };
    }
    return { markets: out, complete: cursor === undefined };
  }

  /** Every settled market of a series found on the live and historical endpoints, deduplicated by ticker. */
  settledMarkets(seriesTicker: string): Promise<SettledMarkets> {
    return this.#cached(`settled:${seriesTicker}`, TTL.settled, () => this.#settledMarkets(seriesTicker));
  }

  async #settledMarkets(seriesTicker: string): Promise<SettledMarkets> {
    const [live, historical] = await Promise.all([
      this.#paged('/markets', { series_ticker: seriesTicker, status: 'settled', mve_filter: 'exclude', limit: 1000 }),
      this.#paged('/historical/markets', { series_ticker: seriesTicker, mve_filter: 'exclude', limit: 1000 }),
    ]);
    const byTicker = new Map<string, KalshiMarket>();
    const fromHistory = new Set<string>();
    for (const m of historical.markets) {
      byTicker.set(m.ticker, m);
      fromHistory.add(m.ticker);
    }
    for (const m of live.markets) {
      byTicker.set(m.ticker, m);
      fromHistory.delete(m.ticker);
    }
    const markets = [...byTicker.values()].filter((m) => m.result === 'yes' || m.result === 'no');
    return { markets, historical: fromHistory, complete: live.complete && historical.complete };
  }

  /** Every open event (without markets), paged; for the search index. */
  async openEvents(maxPages = 50): Promise<KalshiEvent[]> {
    const out: KalshiEvent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const got = await this.#get('/events', { status: 'open', limit: 200, cursor });
      if (!got) break;
      // For the search index: an unreadable entry is left out rather than failing the whole list.
      out.push(...got.read.readable(got.read.list(got.body.events, 'events'), (e, at) => got.read.event(e, at), 'events'));
      cursor = got.read.cursor(got.body.cursor);
      if (!cursor) break;
    }
    return out;
  }

  /** Every series (titles and categories), for the search index. */
  async allSeries(): Promise<KalshiSeries[]> {
    const got = await this.#get('/series');
    return got ? got.read.readable(got.read.list(got.body.series, 'series'), (s, at) => got.read.series(s, at), 'series') : [];
  }

  async orderbooks(tickers: string[]): Promise<Map<string, KalshiOrderbook>> {
    const out = new Map<string, KalshiOrderbook>();
    await Promise.all(
      chunks(tickers, BATCH).map(async (batch) => {
        const got = await this.#get('/markets/orderbooks', { tickers: batch.join(',') });
        if (!got) return;
        got.read.list(got.body.orderbooks, 'orderbooks').forEach((x, i) => {
          const ob = got.read.object(x, `orderbooks[${i}]`);
          const ticker = got.read.text(ob.ticker, `orderbooks[${i}].ticker`);
          if (ob.orderbook_fp !== undefined && ob.orderbook_fp !== null) out.set(ticker, got.read.orderbook(ob.orderbook_fp, `orderbooks[${i}].orderbook_fp`));
        });
      }),
    );
    return out;
  }

  /** Candlesticks of several markets over one window, `periodMinutes` 1, 60 or 1440. */
  async candlesticks(tickers: string[], window: { start: number; end: number; periodMinutes: 1 | 60 | 1440 }): Promise<Map<string, KalshiCandle[]>> {
    const out = new Map<string, KalshiCandle[]>();
    await Promise.all(
      chunks(tickers, BATCH).map(async (batch) => {
        const got = await this.#get('/markets/candlesticks', {
          market_tickers: batch.join(','),
          start_ts: window.start,
          end_ts: window.end,
          period_interval: window.periodMinutes,
        });
        if (!got) return;
        got.read.list(got.body.markets, 'markets').forEach((x, i) => {
          const m = got.read.object(x, `markets[${i}]`);
          out.set(got.read.text(m.market_ticker, `markets[${i}].market_ticker`), got.read.candles(m.candlesticks, `markets[${i}].candlesticks`));
        });
      }),
    );
    return out;
  }

  /** Hourly candles of every market of a past event around one moment (the pre-close price); settled, so kept. */
  eventCandles(seriesTicker: string, eventTicker: string, start: number, end: number): Promise<Map<string, KalshiCandle[]>> {
    return this.#cached(`event-candles:${eventTicker}:${start}:${end}`, 0, () => this.#eventCandles(seriesTicker, eventTicker, start, end));
  }

  async #eventCandles(seriesTicker: string, eventTicker: string, start: number, end: number): Promise<Map<string, KalshiCandle[]>> {
    const got = await this.#get(`/series/${encodeURIComponent(seriesTicker)}/events/${encodeURIComponent(eventTicker)}/candlesticks`, {
      start_ts: start,
      end_ts: end,
      period_interval: 60,
    });
    const out = new Map<string, KalshiCandle[]>();
    if (!got) return out;
    const candles = got.read.list(got.body.market_candlesticks, 'market_candlesticks');
    got.read.list(got.body.market_tickers, 'market_tickers').forEach((t, i) => {
      out.set(got.read.text(t, `market_tickers[${i}]`), got.read.candles(candles[i], `market_candlesticks[${i}]`));
    });
    return out;
  }

  /** Candles of a market settled before the historical cutoff (only /historical serves them); kept. */
  historicalCandles(ticker: string, start: number, end: number): Promise<KalshiCandle[]> {
    return this.#cached(`historical-candles:${ticker}:${start}:${end}`, 0, () => this.#historicalCandles(ticker, start, end));
  }

  async #historicalCandles(ticker: string, start: number, end: number): Promise<KalshiCandle[]> {
    const got = await this.#get(`/historical/markets/${encodeURIComponent(ticker)}/candlesticks`, {
      start_ts: start,
      end_ts: end,
      period_interval: 60,
    });
    return got ? got.read.candles(got.body.candlesticks, 'candlesticks') : [];
  }
}

export const TIME = { HOUR, DAY };
