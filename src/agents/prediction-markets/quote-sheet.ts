import { SourceList } from '../citations.js';
import type { Citation } from '../types.js';
import { SCALE, formatPercent, parseFixed } from '../../data/kalshi/numbers.js';
import type { KalshiEvent, KalshiMarket, KalshiSeries } from '../../data/kalshi/types.js';
import { CONTRACT_HEADER, contractRow, ruleClaims, tenthsSummingTo } from './report.js';
import { STATE_NOTES, labelOf, oneLine, outcomeName, quoteOf, settlementOf, settlementWords } from './research.js';

/** An event's live quotes in a report's shape, with no model; see quoteSheet. */
export interface QuoteSheet {
  title: string;
  eventTicker: string;
  text: string;
  citations: Citation[];
  asOf: string;
}

/**
 * An event's live quotes written in the shape of a report's outcome table (its model cells empty),
 * key claims from its dates and rules, and contract snapshot, so that what a report's prices and
 * rules answer (what contracts cost and pay, both sides of one, an arbitrage; how it resolves, what
 * happens on a tie, when it closes) can be answered before any report is stored: the event and its
 * series read from the exchange, no model, no history.
 */
export function quoteSheet(event: KalshiEvent, series: KalshiSeries | null, pageUrl: string, apiUrl: string, asOf: Date): QuoteSheet {
  const sources = new SourceList();
  const eventCite = () => sources.cite('event', `Kalshi: ${oneLine(event.title)} (event page)`, pageUrl);
  eventCite();
  const cite = (m: KalshiMarket) => sources.cite(`market:${m.ticker}`, `Kalshi market data: ${m.ticker} (${m.yes_sub_title || m.ticker})`, `${apiUrl}/markets/${m.ticker}`);
  const markets = event.markets ?? [];
  const open = markets.filter((m) => !settlementOf(m));
  const quotes = new Map(open.map((m) => [m.ticker, quoteOf(m, undefined)]));
  const priced = open.filter((m) => quotes.get(m.ticker)!.price !== null);
  const sum = priced.reduce((s, m) => s + quotes.get(m.ticker)!.price!, 0);
  // Exclusive outcomes' prices add up to more than 100% (the spread): each is shown as a share of the whole too, as a report does.
  const whole = event.mutually_exclusive && open.length === markets.length && sum > 0 && Math.abs(sum - SCALE) >= 500;
  const shares = new Map(whole ? tenthsSummingTo(priced.map((m) => quotes.get(m.ticker)!.price! / sum), 1000).map((t, i) => [priced[i]!.ticker, t] as const) : []);
  const lines = ['## Outcomes: market prices', '', '| Outcome | Market | Model | Gap | Confidence |', '|---|---|---|---|---|'];
  for (const m of markets) {
    const settled = settlementOf(m);
    const state = Object.hasOwn(STATE_NOTES, m.status) ? `; ${STATE_NOTES[m.status]}` : '';
    const q = quotes.get(m.ticker);
    const share = shares.get(m.ticker);
    const market = settled ? settlementWords(settled) : q?.price == null ? `no price${state}` : `${formatPercent(q.price)} (${q.basis === 'mid' ? 'mid' : 'last trade'}${share === undefined ? '' : `; ${(share / 10).toFixed(1)}% normalised`}${state})`;
    lines.push(`| ${outcomeName(m, event.title).replace(/\|/g, '\\|')} ${cite(m)} | ${market} | — | — | — |`);
  }
  if (event.mutually_exclusive && open.length === markets.length && priced.length) lines.push('', `The outcomes are mutually exclusive: market prices add up to ${formatPercent(sum)}.`);
  // The exchange's dates and rules, as a report states them (no price history is read here).
  const rules = ruleClaims(event, series, markets.map((m) => ({ label: labelOf(m), market: m })), open.length > 0, Math.floor(asOf.getTime() / 1000), {
    event: eventCite,
    market: cite,
    source: (key, name, url) => sources.cite(key, name, url),
  });
  // Each open outcome's price about a day ago, on the basis of its price now (the mid of the book
  // then, or the last trade then), as a report words it: what "what changed since yesterday?" reads.
  const then = open.flatMap((m) => {
    const now = quotes.get(m.ticker)!;
    const [bid, ask] = [parseFixed(m.previous_yes_bid_dollars), parseFixed(m.previous_yes_ask_dollars)];
    const before = now.basis === 'mid' && bid !== null && ask !== null && bid > 0 && ask < SCALE ? Math.round((bid + ask) / 2) : parseFixed(m.previous_price_dollars);
    return now.price !== null && before !== null && before > 0 ? [`${outcomeName(m, event.title)} ${formatPercent(before)} and n/a (now ${formatPercent(now.price)})`] : [];
  });
  const history = then.length ? [`- **Prices 24 hours and 7 days ago:** ${then.join('; ')} ${eventCite()}.`] : [];
  lines.push('', '## Key claims and catalysts', '', ...rules.dates, ...history, ...rules.flips());
  lines.push('', '## Contract snapshot', '', ...CONTRACT_HEADER, ...markets.map((m) => contractRow(m, cite(m))), '');
  return { title: event.title, eventTicker: event.event_ticker, text: `${lines.join('\n')}\n`, citations: sources.list, asOf: asOf.toISOString() };
}
