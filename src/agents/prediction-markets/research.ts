import { quoteCaller } from '../citations.js';
import { SvcError, notFound } from '../../errors.js';
import { KalshiClient, TIME, type SettledMarkets } from '../../data/kalshi/client.js';
import { formatDollars, parseFixed } from '../../data/kalshi/numbers.js';
import type { KalshiCandle, KalshiEvent, KalshiMarket, KalshiOrderbook, KalshiSeries } from '../../data/kalshi/types.js';
import type { Observation } from './model.js';

/** How long before close the "pre-close" price is taken, for history and calibration alike. */
export const PRE_CLOSE_HOURS = 24;
/** Most recent settled events whose pre-close prices are fetched. */
const HISTORY_EVENTS = 12;
/** Requests allowed for candles of markets only /historical serves (one request per market). */
const HISTORICAL_CANDLE_BUDGET = 16;

export interface Quote {
  /** Millionths of a dollar; null when that side has no orders. */
  bid: number | null;
  ask: number | null;
  /** The price the model reads: the mid of a two-sided quote, else the last trade. */
  price: number | null;
  basis: 'mid' | 'last' | 'none';
}

export interface MarketView {
  market: KalshiMarket;
  /** The outcome as the report names it (see outcomeName). */
  label: string;
  /** The outcome's label as the series shares it: what base rates and the calibration group by. */
  type: string;
  quote: Quote;
  /** Daily candles of the last 7 days and hourly candles of the last 25 hours. */
  daily: KalshiCandle[];
  hourly: KalshiCandle[];
}

export interface PastMarket {
  ticker: string;
  label: string;
  won: boolean;
  /** Price PRE_CLOSE_HOURS before close (millionths), when candles were available. */
  preClose: number | null;
}

export interface PastEvent {
  eventTicker: string;
  closeTs: number;
  markets: PastMarket[];
  historical: boolean;
  /** Whether its markets' prices before close were fetched (the most recent events only). */
  priced: boolean;
}

export interface Research {
  event: KalshiEvent;
  series: KalshiSeries | null;
  asOf: Date;
  markets: MarketView[];
  /** Settled events of the series, newest first (those with pre-close prices first in line). */
  history: PastEvent[];
  /** Settled markets seen in the whole history (for base rates). */
  settledCount: number;
  /** False when the series had more settled markets than the client pages through. */
  historyComplete: boolean;
  /** Every settled market with its outcome (base rates), priced ones also feed the calibration. */
  settled: { type: string; outcome: 0 | 1; eventTicker: string; closeTs: number }[];
  observations: Observation[];
  requestsMade: number;
}

/**
 * Exchange text on one line (a line break would break a heading, a bullet or a table row), a `[n]`
 * in it written `[n\\]` so it cannot pass for a citation marker.
 */
export const oneLine = (s: string) => quoteCaller(s.replace(/\s+/g, ' ').trim());

/** The label of an outcome, shared across the series' events: what base rates group by. */
export const labelOf = (m: KalshiMarket) => oneLine(m.yes_sub_title || m.title || m.ticker);

/** A game's "Away team" of "Lakers at Celtics on …" is the Lakers: the team is said beside the label. */
export function withTeam(label: string, title: string): string {
  const game = /^(.+?) at (.+?)(?: on |:|\?|$)/i.exec(title);
  const side = /^(away|home) team$/i.exec(label)?.[1]?.toLowerCase();
  return game && side ? `${label} (${(side === 'away' ? game[1] : game[2])!.trim()})` : label;
}

/** An outcome of this event as a reader needs it named: its label, with the team where the label is only a side. */
export const outcomeName = (m: KalshiMarket, eventTitle: string) => withTeam(labelOf(m), oneLine(eventTitle));

/** Market states worth saying next to a price (`status` from the exchange). */
export const STATE_NOTES: Record<string, string> = {
  inactive: 'trading paused',
  closed: 'trading closed, awaiting the result',
  disputed: 'result disputed',
  initialized: 'not yet open',
};

/** How the exchange settled a market (its `result`); null while undecided. */
export type Settlement = { kind: 'yes' } | { kind: 'no' } | { kind: 'scalar'; payout: number | null };

export function settlementOf(m: KalshiMarket): Settlement | null {
  if (m.result === 'yes' || m.result === 'no') return { kind: m.result };
  if (m.result === 'scalar') return { kind: 'scalar', payout: parseFixed(m.settlement_value_dollars) };
  return null;
}

/** "resolved YES", "resolved NO", "settled at $0.37 a YES contract". */
export function settlementWords(s: Settlement): string {
  if (s.kind === 'yes') return 'resolved YES';
  if (s.kind === 'no') return 'resolved NO';
  return s.payout === null ? 'settled (scalar)' : `settled at ${formatDollars(s.payout)} a YES contract`;
}

const closeOf = (m: KalshiMarket) => Date.parse(m.close_time ?? '') / 1000;

/** A series' settled events closed by `now`, newest first, each with its markets; the event `except` (the one asked about) never counts. */
export function settledEvents(settled: SettledMarkets, except: string, now: number): { ticker: string; markets: KalshiMarket[]; closeTs: number; historical: boolean }[] {
  const byEvent = new Map<string, KalshiMarket[]>();
  for (const m of settled.markets) {
    if (m.event_ticker === except) continue;
    byEvent.set(m.event_ticker, [...(byEvent.get(m.event_ticker) ?? []), m]);
  }
  return [...byEvent.entries()]
    .map(([ticker, ms]) => ({ ticker, markets: ms, closeTs: Math.max(...ms.map(closeOf)), historical: ms.some((m) => settled.historical.has(m.ticker)) }))
    .filter((e) => Number.isFinite(e.closeTs) && e.closeTs <= now)
    .sort((a, b) => b.closeTs - a.closeTs);
}

/** Best bids are last in Kalshi's ascending lists; the YES ask is 1 − the best NO bid. */
export function quoteOf(market: KalshiMarket, book: KalshiOrderbook | undefined): Quote {
  let bid: number | null = null;
  let ask: number | null = null;
  if (book && (book.yes_dollars || book.no_dollars)) {
    const bestYes = book.yes_dollars?.at(-1);
    const bestNo = book.no_dollars?.at(-1);
    bid = bestYes ? parseFixed(bestYes[0]) : null;
    ask = bestNo ? 1_000_000 - (parseFixed(bestNo[0]) ?? 1_000_000) : null;
  } else {
    bid = parseFixed(market.yes_bid_dollars);
    ask = parseFixed(market.yes_ask_dollars);
    // "0.0000" bid with "1.0000" ask means no quotes, not certainty either way.
    if (bid === 0) bid = null;
    if (ask === 1_000_000) ask = null;
  }
  if (bid !== null && ask !== null && ask > bid) return { bid, ask, price: Math.round((bid + ask) / 2), basis: 'mid' };
  const last = parseFixed(market.last_price_dollars);
  return { bid, ask, price: last !== null && last > 0 ? last : null, basis: last !== null && last > 0 ? 'last' : 'none' };
}

/**
 * The price of the candle closing at or before `ts`: the trade close, else the quote mid; or, to be
 * set against a price now that is a mid, the quote mid first (a move is measured on one basis).
 */
export function priceBefore(candles: readonly KalshiCandle[], ts: number, prefer: 'trade' | 'mid' = 'trade'): number | null {
  const c = [...candles].filter((x) => x.end_period_ts <= ts).sort((x, y) => y.end_period_ts - x.end_period_ts)[0];
  if (!c) return null;
  const traded = parseFixed(c.price?.close_dollars);
  // As for a market: a 0 bid or a 1 ask is no quote on that side, and one side alone is no price.
  const bid = parseFixed(c.yes_bid?.close_dollars);
  const ask = parseFixed(c.yes_ask?.close_dollars);
  const mid = bid !== null && bid > 0 && ask !== null && ask < 1_000_000 && ask > bid ? Math.round((bid + ask) / 2) : null;
  return prefer === 'mid' ? (mid ?? traded) : (traded ?? mid);
}

/**
 * Which markets of old settled events (served one market per request) get candles, within a request
 * budget: first each event's winners, newest first, which is all the history table shows; then,
 * with what is left, the other markets of whole events, newest first, so they feed the calibration too.
 */
export function historicalCandlePlan(events: readonly { ticker: string; markets: readonly KalshiMarket[] }[], budget: number): Map<string, KalshiMarket[]> {
  const plan = new Map<string, KalshiMarket[]>();
  let left = budget;
  for (const e of events) {
    const winners = e.markets.filter((m) => m.result === 'yes');
    if (winners.length > left) continue;
    plan.set(e.ticker, winners);
    left -= winners.length;
  }
  for (const e of events) {
    const chosen = plan.get(e.ticker);
    const others = e.markets.filter((m) => !chosen?.includes(m));
    if (!chosen || others.length > left) continue;
    plan.set(e.ticker, [...chosen, ...others]);
    left -= others.length;
  }
  return plan;
}

/** An event listed without markets: nothing to report on (and nothing is charged for it). */
/**
 * The 404 for an event the exchange does not have. Replayed from a snapshot, it is the snapshot
 * that lacks it (a settled or later event may well exist on Kalshi): said so, with how to add it.
 */
export function eventNotFound(client: KalshiClient, eventTicker: string): SvcError {
  const recorded = client.source.mode === 'snapshot' ? client.source.recordedAt?.toISOString().slice(0, 10) : null;
  return notFound(
    'event_not_found',
    recorded
      ? `The Kalshi snapshot in use (recorded ${recorded}) has no event '${eventTicker}': offline, only the events it recorded can be read. Record it with \`svc snapshot record <event url>\`, or run with the live Kalshi API.`
      : `Kalshi has no event '${eventTicker}'. Check the address: it should be the page of an event on kalshi.com.`,
    'input',
  );
}

export const noMarkets = (eventTicker: string) =>
  new SvcError('unprocessable', {
    code: 'event_has_no_markets',
    message: `Kalshi lists no markets for '${eventTicker}' yet, so there is nothing to report on; nothing was charged. Send the address again once its markets are listed.`,
    param: 'input',
  });

/** Everything one report needs, fetched with independent requests in parallel. */
export async function research(client: KalshiClient, eventTicker: string): Promise<Research> {
  let requests = 0;
  const count = <T>(p: Promise<T>) => {
    requests++;
    return p;
  };
  const event = await count(client.event(eventTicker));
  if (!event) throw eventNotFound(client, eventTicker);
  const now = Math.floor(client.now().getTime() / 1000);
  const markets = event.markets ?? [];
  if (!markets.length) throw noMarkets(eventTicker);
  const tickers = markets.map((m) => m.ticker);

  const [series, settled, books, daily, hourly] = await Promise.all([
    count(client.series(event.series_ticker)),
    count(client.settledMarkets(event.series_ticker)),
    count(client.orderbooks(tickers)),
    count(client.candlesticks(tickers, { start: now - 8 * TIME.DAY, end: now, periodMinutes: 1440 })),
    count(client.candlesticks(tickers, { start: now - 25 * TIME.HOUR, end: now, periodMinutes: 60 })),
  ]);

  const pastEvents = settledEvents(settled, event.event_ticker, now);

  const historicalWanted = historicalCandlePlan(pastEvents.slice(0, HISTORY_EVENTS).filter((e) => e.historical), HISTORICAL_CANDLE_BUDGET);
  const priced = await Promise.all(
    pastEvents.slice(0, HISTORY_EVENTS).map(async (e): Promise<PastEvent> => {
      const at = e.closeTs - PRE_CLOSE_HOURS * TIME.HOUR;
      const window = { start: at - 2 * TIME.HOUR, end: at };
      let candles = new Map<string, KalshiCandle[]>();
      if (!e.historical) {
        candles = await count(client.eventCandles(event.series_ticker, e.ticker, window.start, window.end));
      } else {
        const wanted = historicalWanted.get(e.ticker) ?? [];
        const fetched = await Promise.all(wanted.map((m) => count(client.historicalCandles(m.ticker, window.start, window.end)).then((c) => [m.ticker, c] as const)));
        candles = new Map(fetched);
      }
      return {
        eventTicker: e.ticker,
        closeTs: e.closeTs,
        historical: e.historical,
        priced: true,
        markets: e.markets.map((m) => ({ ticker: m.ticker, label: labelOf(m), won: m.result === 'yes', preClose: priceBefore(candles.get(m.ticker) ?? [], at) })),
      };
    }),
  );
  const history: PastEvent[] = [
    ...priced,
    ...pastEvents.slice(HISTORY_EVENTS).map((e) => ({
      eventTicker: e.ticker,
      closeTs: e.closeTs,
      historical: e.historical,
      priced: false,
      markets: e.markets.map((m) => ({ ticker: m.ticker, label: labelOf(m), won: m.result === 'yes', preClose: null })),
    })),
  ];

  // Only events priced in full feed the calibration, so no outcome is over-represented.
  const observations: Observation[] = priced
    .filter((e) => e.markets.every((m) => m.preClose !== null))
    .flatMap((e) => e.markets.map((m) => ({ eventTicker: e.eventTicker, closeTs: e.closeTs, type: m.label, price: m.preClose! / 1_000_000, outcome: m.won ? 1 : 0 }) as Observation));

  return {
    event,
    series,
    asOf: client.now(),
    markets: markets.map((m) => ({ market: m, label: outcomeName(m, event.title), type: labelOf(m), quote: quoteOf(m, books.get(m.ticker)), daily: daily.get(m.ticker) ?? [], hourly: hourly.get(m.ticker) ?? [] })),
    history,
    settledCount: settled.markets.length,
    historyComplete: settled.complete,
    settled: history.flatMap((e) => e.markets.map((m) => ({ type: m.label, outcome: (m.won ? 1 : 0) as 0 | 1, eventTicker: e.eventTicker, closeTs: e.closeTs }))),
    observations,
    requestsMade: requests,
  };
}
