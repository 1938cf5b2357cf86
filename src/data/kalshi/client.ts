import { LRUCache } from 'lru-cache';
import { SvcError } from '../../errors.js';
import type { DataSource, Query } from '../source.js';
import type { KalshiCandle, KalshiEvent, KalshiMarket, KalshiOrderbook, KalshiSeries } from './types.js';

const MAX_PAGES = 20;
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

  async #get<T>(path: string, query?: Query): Promise<T | null> {
    const res = await this.source.get<T>(path, query);
    return res.status === 404 ? null : res.body;
  }

  /** The event with its markets, or null when the exchange does not know it. */
  async event(ticker: string): Promise<KalshiEvent | null> {
    const body = await this.#get<{ event: KalshiEvent; markets?: KalshiMarket[] }>(`/events/${encodeURIComponent(ticker)}`, { with_nested_markets: true });
    if (!body?.event) return null;
    const event = body.event;
    if (!event.markets?.length && body.markets?.length) event.markets = body.markets;
    if (!event.series_ticker) throw new SvcError('upstream', { code: 'upstream_invalid_response', message: `Kalshi returned event ${ticker} without its series.` });
    return event;
  }

  series(ticker: string): Promise<KalshiSeries | null> {
    return this.#cached(`series:${ticker}`, TTL.series, async () => (await this.#get<{ series: KalshiSeries }>(`/series/${encodeURIComponent(ticker)}`))?.series ?? null);
  }

  async #paged(path: string, query: Query): Promise<KalshiMarket[]> {
    const out: KalshiMarket[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await this.#get<{ markets?: KalshiMarket[]; cursor?: string }>(path, { ...query, cursor });
      out.push(...(body?.markets ?? []));
      cursor = body?.cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }

  /** Every settled market of a series found on the live and historical endpoints, deduplicated by ticker. */
  settledMarkets(seriesTicker: string): Promise<{ markets: KalshiMarket[]; historical: Set<string> }> {
    return this.#cached(`settled:${seriesTicker}`, TTL.settled, () => this.#settledMarkets(seriesTicker));
  }

  async #settledMarkets(seriesTicker: string): Promise<{ markets: KalshiMarket[]; historical: Set<string> }> {
    const [live, historical] = await Promise.all([
      this.#paged('/markets', { series_ticker: seriesTicker, status: 'settled', mve_filter: 'exclude', limit: 1000 }),
      this.#paged('/historical/markets', { series_ticker: seriesTicker, mve_filter: 'exclude', limit: 1000 }),
    ]);
    const byTicker = new Map<string, KalshiMarket>();
    const fromHistory = new Set<string>();
    for (const m of historical) {
      byTicker.set(m.ticker, m);
      fromHistory.add(m.ticker);
    }
    for (const m of live) {
      byTicker.set(m.ticker, m);
      fromHistory.delete(m.ticker);
    }
    const markets = [...byTicker.values()].filter((m) => m.result === 'yes' || m.result === 'no');
    return { markets, historical: fromHistory };
  }

  /** Every open event (without markets), paged; for the search index. */
  async openEvents(maxPages = 50): Promise<KalshiEvent[]> {
    const out: KalshiEvent[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const body = await this.#get<{ events?: KalshiEvent[]; cursor?: string }>('/events', { status: 'open', limit: 200, cursor });
      out.push(...(body?.events ?? []));
      cursor = body?.cursor || undefined;
      if (!cursor) break;
    }
    return out;
  }

  /** Every series (titles and categories), for the search index. */
  async allSeries(): Promise<KalshiSeries[]> {
    return (await this.#get<{ series?: KalshiSeries[] }>('/series'))?.series ?? [];
  }

  async orderbooks(tickers: string[]): Promise<Map<string, KalshiOrderbook>> {
    const out = new Map<string, KalshiOrderbook>();
    await Promise.all(
      chunks(tickers, BATCH).map(async (batch) => {
        const body = await this.#get<{ orderbooks?: { ticker: string; orderbook_fp?: KalshiOrderbook }[] }>('/markets/orderbooks', { tickers: batch.join(',') });
        for (const ob of body?.orderbooks ?? []) if (ob.orderbook_fp) out.set(ob.ticker, ob.orderbook_fp);
      }),
    );
    return out;
  }

  /** Candlesticks of several markets over one window, `periodMinutes` 1, 60 or 1440. */
  async candlesticks(tickers: string[], window: { start: number; end: number; periodMinutes: 1 | 60 | 1440 }): Promise<Map<string, KalshiCandle[]>> {
    const out = new Map<string, KalshiCandle[]>();
    await Promise.all(
      chunks(tickers, BATCH).map(async (batch) => {
        const body = await this.#get<{ markets?: { market_ticker: string; candlesticks?: KalshiCandle[] }[] }>('/markets/candlesticks', {
          market_tickers: batch.join(','),
          start_ts: window.start,
          end_ts: window.end,
          period_interval: window.periodMinutes,
        });
        for (const m of body?.markets ?? []) out.set(m.market_ticker, m.candlesticks ?? []);
      }),
    );
    return out;
  }

  /** Hourly candles of every market of a past event around one moment (the pre-close price); settled, so kept. */
  eventCandles(seriesTicker: string, eventTicker: string, start: number, end: number): Promise<Map<string, KalshiCandle[]>> {
    return this.#cached(`event-candles:${eventTicker}:${start}:${end}`, 0, () => this.#eventCandles(seriesTicker, eventTicker, start, end));
  }

  async #eventCandles(seriesTicker: string, eventTicker: string, start: number, end: number): Promise<Map<string, KalshiCandle[]>> {
    const body = await this.#get<{ market_tickers?: string[]; market_candlesticks?: KalshiCandle[][] }>(
      `/series/${encodeURIComponent(seriesTicker)}/events/${encodeURIComponent(eventTicker)}/candlesticks`,
      { start_ts: start, end_ts: end, period_interval: 60 },
    );
    const out = new Map<string, KalshiCandle[]>();
    (body?.market_tickers ?? []).forEach((t, i) => out.set(t, body?.market_candlesticks?.[i] ?? []));
    return out;
  }

  /** Candles of a market settled before the historical cutoff (only /historical serves them); kept. */
  historicalCandles(ticker: string, start: number, end: number): Promise<KalshiCandle[]> {
    return this.#cached(`historical-candles:${ticker}:${start}:${end}`, 0, () => this.#historicalCandles(ticker, start, end));
  }

  async #historicalCandles(ticker: string, start: number, end: number): Promise<KalshiCandle[]> {
    const body = await this.#get<{ candlesticks?: KalshiCandle[] }>(`/historical/markets/${encodeURIComponent(ticker)}/candlesticks`, {
      start_ts: start,
      end_ts: end,
      period_interval: 60,
    });
    return body?.candlesticks ?? [];
  }
}

export const TIME = { HOUR, DAY };
