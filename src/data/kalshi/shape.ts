import { SvcError } from '../../errors.js';
import type { KalshiCandle, KalshiEvent, KalshiMarket, KalshiOrderbook, KalshiSeries } from './types.js';

// Kalshi's answers are read into the shapes the reports rely on here, at the client's edge, so a
// changed or broken answer is a clear 502 naming what was wrong instead of a TypeError deep in a
// report. The rule: structure must hold (an object where one is expected, lists that are lists,
// the identifying tickers and titles present); a descriptive field of the wrong type is dropped,
// as an unreadable price already is (parseFixed), and the report shows it as missing.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const MARKET_TEXT = [
  'event_ticker', 'market_type', 'title', 'yes_sub_title', 'no_sub_title', 'status', 'result', 'open_time', 'close_time',
  'expected_expiration_time', 'latest_expiration_time', 'occurrence_datetime', 'settlement_ts', 'settlement_value_dollars',
  'expiration_value', 'yes_bid_dollars', 'yes_ask_dollars', 'no_bid_dollars', 'no_ask_dollars', 'last_price_dollars',
  'previous_yes_bid_dollars', 'previous_yes_ask_dollars', 'previous_price_dollars', 'volume_fp', 'volume_24h_fp',
  'open_interest_fp', 'early_close_condition', 'strike_type', 'rules_primary', 'rules_secondary',
] as const;
const EVENT_TEXT = ['sub_title', 'category', 'strike_date', 'last_updated_ts'] as const;
const SERIES_TEXT = ['category', 'frequency', 'contract_url', 'contract_terms_url'] as const;
const OHLC_TEXT = ['open_dollars', 'low_dollars', 'high_dollars', 'close_dollars', 'mean_dollars', 'previous_dollars'] as const;

/** Reads one answer (`what`: the request, for the message); every check names the path it failed at. */
export class KalshiAnswer {
  constructor(readonly what: string) {}

  malformed(at: string, expected: string): SvcError {
    return new SvcError('upstream', {
      code: 'upstream_invalid_response',
      message: `Kalshi answered ${this.what} with data in an unexpected shape: ${at} is not ${expected}. Try again later.`,
    });
  }

  object(v: unknown, at: string): Json {
    if (!isObject(v)) throw this.malformed(at, 'an object');
    return v;
  }

  /** A list; absent or null reads as empty. */
  list(v: unknown, at: string): unknown[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw this.malformed(at, 'a list');
    return v;
  }

  text(v: unknown, at: string): string {
    if (typeof v !== 'string' || !v) throw this.malformed(at, 'a non-empty string');
    return v;
  }

  /** The entries of a list that `read` accepts; the others are left out. */
  readable<T>(items: unknown[], read: (item: unknown, at: string) => T, at: string): T[] {
    const out: T[] = [];
    items.forEach((item, i) => {
      try {
        out.push(read(item, `${at}[${i}]`));
      } catch {
        // unreadable: skipped
      }
    });
    return out;
  }

  /** A paging cursor: a string, or the end. */
  cursor(v: unknown): string | undefined {
    return typeof v === 'string' && v ? v : undefined;
  }

  market(v: unknown, at: string): KalshiMarket {
    const m = this.object(v, at);
    this.text(m.ticker, `${at}.ticker`);
    dropUnless(m, MARKET_TEXT, isTextOrNull);
    dropUnless(m, ['can_close_early'], (x) => typeof x === 'boolean');
    dropUnless(m, ['floor_strike', 'cap_strike'], (x) => x === null || (typeof x === 'number' && Number.isFinite(x)));
    return m as unknown as KalshiMarket;
  }

  markets(v: unknown, at: string): KalshiMarket[] {
    return this.list(v, at).map((m, i) => this.market(m, `${at}[${i}]`));
  }

  /** An event, with its markets when they came nested. */
  event(v: unknown, at: string): KalshiEvent {
    const e = this.object(v, at);
    this.text(e.event_ticker, `${at}.event_ticker`);
    this.text(e.series_ticker, `${at}.series_ticker`);
    if (typeof e.title !== 'string') throw this.malformed(`${at}.title`, 'a string');
    if (e.mutually_exclusive === null) delete e.mutually_exclusive;
    if (e.mutually_exclusive !== undefined && typeof e.mutually_exclusive !== 'boolean') throw this.malformed(`${at}.mutually_exclusive`, 'true or false');
    dropUnless(e, EVENT_TEXT, isTextOrNull);
    if (e.markets !== undefined) e.markets = this.markets(e.markets, `${at}.markets`);
    if (e.settlement_sources !== undefined) e.settlement_sources = sources(e.settlement_sources);
    return e as unknown as KalshiEvent;
  }

  series(v: unknown, at: string): KalshiSeries {
    const s = this.object(v, at);
    this.text(s.ticker, `${at}.ticker`);
    if (typeof s.title !== 'string') throw this.malformed(`${at}.title`, 'a string');
    dropUnless(s, SERIES_TEXT, isTextOrNull);
    if (s.tags !== undefined) s.tags = Array.isArray(s.tags) ? s.tags.filter((t) => typeof t === 'string') : [];
    if (s.settlement_sources !== undefined) s.settlement_sources = sources(s.settlement_sources);
    return s as unknown as KalshiSeries;
  }

  candles(v: unknown, at: string): KalshiCandle[] {
    return this.list(v, at).map((x, i) => {
      const c = this.object(x, `${at}[${i}]`);
      if (typeof c.end_period_ts !== 'number' || !Number.isFinite(c.end_period_ts)) throw this.malformed(`${at}[${i}].end_period_ts`, 'a number');
      for (const side of ['yes_bid', 'yes_ask', 'price'] as const) {
        if (c[side] === undefined) continue;
        if (!isObject(c[side])) delete c[side];
        else dropUnless(c[side], OHLC_TEXT, isPriceOrNull);
      }
      dropUnless(c, ['volume_fp', 'open_interest_fp'], isPriceOrNull);
      return c as unknown as KalshiCandle;
    });
  }

  orderbook(v: unknown, at: string): KalshiOrderbook {
    const book = this.object(v, at);
    for (const side of ['yes_dollars', 'no_dollars'] as const) {
      if (book[side] === undefined || book[side] === null) continue;
      this.list(book[side], `${at}.${side}`).forEach((level, i) => {
        if (!Array.isArray(level) || level.length < 2 || !isPrice(level[0]) || !isPrice(level[1])) {
          throw this.malformed(`${at}.${side}[${i}]`, 'a [price, count] pair');
        }
      });
    }
    return book as KalshiOrderbook;
  }
}

const isPrice = (x: unknown) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
const isPriceOrNull = (x: unknown) => x === null || isPrice(x);
const isTextOrNull = (x: unknown) => x === null || typeof x === 'string';

function dropUnless(o: Json, keys: readonly string[], ok: (x: unknown) => boolean): void {
  for (const k of keys) if (o[k] !== undefined && !ok(o[k])) delete o[k];
}

/** Settlement sources: the readable ones (a name and an http(s) address, which become citations) are kept. */
function sources(v: unknown): { name: string; url: string }[] {
  if (!Array.isArray(v)) return [];
  return v.filter((s): s is { name: string; url: string } => isObject(s) && typeof s.name === 'string' && typeof s.url === 'string' && /^https?:\/\//i.test(s.url));
}
