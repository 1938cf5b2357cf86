import { SourceList, listed, utcMinute as utc } from '../citations.js';
import type { Citation } from '../types.js';
import { SCALE, formatCount, formatDollars, formatPercent, parseFixed } from '../../data/kalshi/numbers.js';
import { MAX_PAGES } from '../../data/kalshi/client.js';
import type { KalshiEvent, KalshiMarket, KalshiSeries } from '../../data/kalshi/types.js';
import { PRIOR_STRENGTH, baseRates, fitCalibration, modelEvent, monotoneLadder, samples, type Calibration, type OutcomeModel, type Strike } from './model.js';
import { PRE_CLOSE_HOURS, STATE_NOTES, oneLine, priceBefore, settlementOf, settlementWords, type MarketView, type Research } from './research.js';
import { eventPage } from './summary.js';
import { ladderLock, ladderLockLine, ladderLockWords } from './ladder-lock.js';

export interface ReportContext {
  /** Base URL of the Kalshi API the data came from, for data citations. */
  apiUrl: string;
  /** 'live', or when a snapshot: its recording time. */
  source: { mode: 'live' } | { mode: 'snapshot'; recordedAt: Date; note?: string };
}

export interface ReportBody {
  title: string;
  seriesTicker: string;
  text: string;
  citations: Citation[];
  asOf: string;
}

/** Points to one decimal; a change that rounds to nothing has no sign ("0.0 pts", not "−0.0 pts"). */
const pts = (x: number) => {
  const tenths = Math.round(Math.abs(x) * 1000);
  return tenths === 0 ? '0.0 pts' : `${x > 0 ? '+' : '−'}${(tenths / 10).toFixed(1)} pts`;
};
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** A fitted coefficient to two decimals, with the report's minus sign and no "−0.00". */
const coefficient = (x: number) => (Math.round(x * 100) === 0 ? '0.00' : `${x < 0 ? '−' : ''}${Math.abs(x).toFixed(2)}`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Shares in tenths of a percent that add up to `total` tenths exactly (largest remainders), so a
 * column of percentages said to sum to 100% does: 59.0 + 13.7 + 6.5 + 5.0 + 15.8, never 100.1.
 */
export function tenthsSummingTo(values: readonly number[], total: number): number[] {
  const exact = values.map((v) => v * 1000);
  const floors = exact.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((v, i) => ({ i, rest: v - floors[i]! })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors;
}
const day = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);
const decided = (m: KalshiMarket) => settlementOf(m) !== null;
const resolvedYes = (m: KalshiMarket) => settlementOf(m)?.kind === 'yes';


const cell = (s: string) => oneLine(s).replace(/\|/g, '\\|');

function confidence(view: MarketView, calibration: Calibration, spreadMicro: number | null): { level: 'high' | 'medium' | 'low'; why: string } {
  let score = 0;
  const whys: string[] = [];
  if (calibration.n >= 40) score += 2;
  else if (calibration.n >= 15) score += 1;
  whys.push(`${calibration.n} settled markets in the fit`);
  if (view.quote.basis === 'mid' && spreadMicro !== null && spreadMicro <= 20_000) {
    score += 1;
    whys.push(`${formatDollars(spreadMicro)} spread`);
  } else if (view.quote.basis !== 'mid') {
    score -= 1;
    whys.push('no two-sided quote');
  } else whys.push(`wide ${formatDollars(spreadMicro!)} spread`);
  const vol24 = parseFixed(view.market.volume_24h_fp) ?? 0;
  if (vol24 >= 1000 * SCALE) score += 1;
  // A price nobody has traded at is a quote, not a consensus: never more than low.
  if (parseFixed(view.market.volume_fp) === 0) {
    score = Math.min(score, 0);
    whys.push('never traded');
  }
  // A fit on fewer than 40 settled markets can move prices by points it cannot vouch for: never high.
  return { level: score >= 3 && calibration.n >= 40 ? 'high' : score >= 1 ? 'medium' : 'low', why: whys.join(', ') };
}

/** Sentences of the rules that can flip the outcome: conditions, exceptions, delays, revisions. */
/** A market's place on a ladder of strikes ("above 2.8"), from the exchange's strike fields. */
export function strikeOf(m: KalshiMarket): Strike | null {
  if ((m.strike_type === 'greater' || m.strike_type === 'greater_or_equal') && typeof m.floor_strike === 'number') return { direction: 'above', value: m.floor_strike };
  if ((m.strike_type === 'less' || m.strike_type === 'less_or_equal') && typeof m.cap_strike === 'number') return { direction: 'below', value: m.cap_strike };
  return null;
}

/** Pairs of a ladder the market prices out of order: the higher "above" strike priced above the lower one. */
function crossedRungs(views: readonly MarketView[]): [MarketView, MarketView][] {
  const out: [MarketView, MarketView][] = [];
  for (const direction of ['above', 'below'] as const) {
    const rungs = views
      .map((v) => ({ v, s: strikeOf(v.market) }))
      .filter((x) => x.s?.direction === direction && x.v.quote.price !== null)
      .sort((a, b) => (direction === 'above' ? a.s!.value - b.s!.value : b.s!.value - a.s!.value));
    for (let i = 1; i < rungs.length; i++) if (rungs[i]!.v.quote.price! > rungs[i - 1]!.v.quote.price!) out.push([rungs[i - 1]!.v, rungs[i]!.v]);
  }
  return out;
}

/** The main rule's sentences that are not decisive clauses (those are quoted apart), cut at a sentence within ~400 characters. */
function resolutionTerms(market: KalshiMarket): string | null {
  const decisive = new Set(decisiveClauses(market));
  const sentences = (market.rules_primary ?? '').split(/(?<=\.)\s+/).map((x) => x.trim()).filter((x) => x && !decisive.has(x) && !EARLY_CLOSE.test(x));
  let out = '';
  for (const sentence of sentences) {
    if (out && out.length + sentence.length > 400) break;
    out = out ? `${out} ${sentence}` : sentence;
  }
  return out ? oneLine(out) : null;
}

const EARLY_CLOSE = /\bclos\w*\s+early\b/i;

/** A market's rule sentences, each once. */
function ruleSentences(market: KalshiMarket): string[] {
  const text = [market.rules_primary, market.rules_secondary, market.early_close_condition].filter(Boolean).join(' ');
  return [...new Set(text.split(/(?<=\.)\s+/).map((s) => s.trim()).filter(Boolean))];
}

function decisiveClauses(market: KalshiMarket): string[] {
  // The primary and secondary rules often repeat a sentence: each is said once.
  const sentences = ruleSentences(market);
  // "Closes early once the outcome is determined" changes when trading ends, not who wins: said with the dates.
  return sentences.filter((s) => !EARLY_CLOSE.test(s) && /\b(?:unless|delay\w*|postpon\w*|does not count|do not count|counts|revision|revised|first release|tie[sd]?|early|cancel\w*|(?:no|not)\b[^.]{0,40}\bpublished|final)\b/i.test(s));
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec';
/** "December 9, 2026", "Dec 16", "16 December 2026". */
const MONTH_DATE = new RegExp(`\\b(?:(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)?(?:, \\d{4})?|\\d{1,2} (?:${MONTHS})\\.?(?: \\d{4})?)\\b`, 'g');

function move(view: MarketView, hoursAgo: number, now: number): number | null {
  const [current, then] = [view.quote.price, priceThen(view, hoursAgo, now)];
  return current === null || then === null ? null : (current - then) / SCALE;
}

/** An outcome's price `hoursAgo` before `now` (millionths), on the basis of its price now: a mid then for a mid now, a trade for a last trade. */
function priceThen(view: MarketView, hoursAgo: number, now: number): number | null {
  const candles = hoursAgo <= 25 ? view.hourly : view.daily;
  return priceBefore(candles, now - hoursAgo * 3600, view.quote.basis === 'mid' ? 'mid' : 'trade');
}

/**
 * How often the pre-close favourite won, over events priced in full. An event whose two leading
 * outcomes were priced the same had no favourite: it is counted apart, not as a win or a loss.
 */
export function favouriteRecord(events: readonly { markets: readonly { won: boolean; preClose: number | null }[] }[]): { won: number; events: number; tied: number } {
  let won = 0;
  let clear = 0;
  for (const e of events) {
    const ranked = [...e.markets].sort((a, b) => b.preClose! - a.preClose!);
    if (ranked.length >= 2 && ranked[0]!.preClose === ranked[1]!.preClose) continue;
    clear++;
    if (ranked[0]?.won) won++;
  }
  return { won, events: clear, tied: events.length - clear };
}

// "3" alone reads as a number, not as the outcome "3 launches".
const named = (label: string) => (/^[\d.,%$€£ -]+$/.test(label) ? `the outcome **${label}**` : `**${label}**`);

/** What an event whose every outcome is decided came to, in one sentence (no closing period). */
function settledSummary(markets: readonly MarketView[]): string {
  const yes = markets.filter((v) => resolvedYes(v.market)).map((v) => named(v.label));
  const no = markets.filter((v) => settlementOf(v.market)?.kind === 'no').length;
  const scalar = markets.flatMap((v) => {
    const s = settlementOf(v.market);
    return s?.kind === 'scalar' ? [`${named(v.label)} ${settlementWords(s)}`] : [];
  });
  const parts: string[] = [];
  if (yes.length) parts.push(yes.length === markets.length && yes.length > 1 ? 'every outcome resolved YES' : `${listed(yes)} resolved YES`);
  parts.push(...scalar);
  if (no) parts.push(no === markets.length ? (no === 1 ? 'its one outcome resolved NO' : 'every outcome resolved NO') : `the other ${no === 1 ? 'one' : no} resolved NO`);
  return `This event is decided, so there is no price left to compare the model with: ${parts.join('; ')}`;
}

/** Writes the research report: Markdown with numbered citations. Deterministic for the same data. */
/** The contract snapshot's header: the exchange's own figures, one row per contract. */
export const CONTRACT_HEADER = ['| Contract | Bid | Ask | Spread | Size at bid / ask | Last | Volume | 24h volume | Open interest |', '|---|---|---|---|---|---|---|---|---|'];

/** A contract's row of the snapshot, exact as the exchange reports it; `cite`: its citation marker. */
export function contractRow(m: KalshiMarket, cite: string): string {
  // A $0 bid or a $1 ask is the exchange's way of saying that side has no orders.
  const rawBid = parseFixed(m.yes_bid_dollars);
  const rawAsk = parseFixed(m.yes_ask_dollars);
  const bid = rawBid === null || rawBid === 0 ? null : rawBid;
  const ask = rawAsk === null || rawAsk === SCALE ? null : rawAsk;
  const last = parseFixed(m.last_price_dollars);
  const num = (s: string | undefined) => (parseFixed(s) === null ? '—' : formatCount(parseFixed(s)!));
  const spread = bid !== null && ask !== null ? formatDollars(ask - bid) : bid === null && ask === null ? 'no quotes' : 'one-sided';
  // How many contracts the best bid and ask are good for (a side with no orders has none).
  const size = (price: number | null, fp: string | undefined) => (price === null ? '—' : num(fp));
  return `| ${m.ticker} ${cite} | ${bid === null ? '—' : formatDollars(bid)} | ${ask === null ? '—' : formatDollars(ask)} | ${spread} | ${size(bid, m.yes_bid_size_fp)} / ${size(ask, m.yes_ask_size_fp)} | ${last === null ? '—' : formatDollars(last)} | ${num(m.volume_fp)} | ${num(m.volume_24h_fp)} | ${num(m.open_interest_fp)} |`;
}

/** How key claims cite: the event page, a market's data, another source (a settlement source, the contract terms). */
export interface ClaimCiter {
  event(): string;
  market(m: KalshiMarket): string;
  source(key: string, name: string, url: string): string;
}

/**
 * What the exchange's dates and rules say of an event, as a report's key claims: when trading
 * closes (and whether it may close early), when the event itself is due, the dates the rules name,
 * how it resolves, its resolution source and full rules (`dates`); and the clauses that could flip
 * an outcome (`flips`, written after the price moves, so cited in reading order). `live`: some
 * outcome is still undecided. `now`: Unix seconds.
 */
export function ruleClaims(event: KalshiEvent, series: KalshiSeries | null, markets: readonly { label: string; market: KalshiMarket }[], live: boolean, now: number, cite: ClaimCiter): { dates: string[]; flips: () => string[] } {
  const dates: string[] = [];
  const first = markets[0]?.market;
  if (first?.close_time) {
    const close = Date.parse(first.close_time) / 1000;
    const days = (close - now) / 86400;
    dates.push(
      `- **Trading closes** ${utc(new Date(close * 1000))} (${days >= 0 ? `in ${days < 1 ? plural(Math.max(1, Math.round(days * 24)), 'hour') : plural(Math.round(days), 'day')}` : 'already closed'})${first.expected_expiration_time ? `; expected resolution ${utc(new Date(first.expected_expiration_time))}` : ''}${first.latest_expiration_time ? `, at the latest ${utc(new Date(first.latest_expiration_time))}` : ''} ${cite.event()}.`,
    );
  }
  const early = first ? ruleSentences(first).find((x) => EARLY_CLOSE.test(x)) : undefined;
  if (early && live) dates.push(`- **Trading may close early:** “${early}” ${cite.market(first!)}`);
  // What the event is about happens at its strike date (or a market's occurrence time), which can differ from the close.
  const occurs = event.strike_date ?? markets.find((v) => v.market.occurrence_datetime)?.market.occurrence_datetime ?? null;
  const closes = first?.close_time ? Date.parse(first.close_time) / 1000 : NaN;
  if (occurs && !Number.isNaN(Date.parse(occurs)) && !(Math.abs(Date.parse(occurs) / 1000 - closes) < 3600)) {
    const at = Date.parse(occurs) / 1000;
    dates.push(`- **The event itself** ${at >= now ? 'is due' : 'was due'} ${utc(new Date(at * 1000))} (its strike date) ${cite.event()}.`);
  }
  const ruleDates = [...new Set([...(first?.rules_primary ?? '').matchAll(MONTH_DATE)].map((x) => x[0]))];
  if (ruleDates.length) dates.push(`- **Dates named in the rules:** ${ruleDates.join(', ')} ${cite.market(first!)}.`);
  // How an outcome resolves, in the exchange's words (the sentences not quoted below as able to flip it).
  const terms = first && live ? resolutionTerms(first) : null;
  if (terms) dates.push(`- **How it resolves** (${markets.length > 1 ? `as written for ${markets[0]!.label}` : 'the rules'}): “${terms}” ${cite.market(first!)}`);
  const settlementSources = [...(series?.settlement_sources ?? []), ...(event.settlement_sources ?? [])].filter((x, i, all) => all.findIndex((y) => y.url === x.url) === i);
  if (settlementSources.length) {
    dates.push(`- **Resolution source:** ${settlementSources.map((x) => `${x.name} ${cite.source(`settle:${x.url}`, `${x.name} (settlement source)`, x.url)}`).join('; ')}.`);
  }
  if (series?.contract_terms_url) dates.push(`- **Full rules:** the contract terms ${cite.source('terms', `Kalshi contract terms: ${event.series_ticker}`, series.contract_terms_url)}.`);
  const flips = () => {
    const clauses = first && live ? decisiveClauses(first) : [];
    const out = clauses.slice(0, 4).map((c) => `- **Could flip the outcome:** “${c}” ${cite.market(first!)}`);
    if (event.mutually_exclusive && clauses.length) out.push('  (Each outcome has the same rules with its own range.)');
    return out;
  };
  return { dates, flips };
}

export function writeReport(r: Research, ctx: ReportContext): ReportBody {
  const sources = new SourceList();
  const { event } = r;
  const seriesTicker = event.series_ticker;
  const now = Math.floor(r.asOf.getTime() / 1000);
  // The page is built from the exchange's data, not the address asked with: the report is shared by everyone who asks.
  const eventCite = () => sources.cite('event', `Kalshi: ${oneLine(event.title)} (event page)`, eventPage(event, r.series?.title));
  const marketCite = (m: KalshiMarket) => sources.cite(`market:${m.ticker}`, `Kalshi market data: ${m.ticker} (${m.yes_sub_title || m.ticker})`, `${ctx.apiUrl}/markets/${m.ticker}`);
  const historyCite = () => sources.cite('history', `Kalshi settled markets: ${seriesTicker} series`, `${ctx.apiUrl}/markets?series_ticker=${seriesTicker}&status=settled`);
  // Markets settled before the exchange's historical cutoff are served by /historical alone.
  const olderHistoryCite = () =>
    r.history.some((e) => e.historical) ? ` ${sources.cite('history-old', `Kalshi historical settled markets: ${seriesTicker} series`, `${ctx.apiUrl}/historical/markets?series_ticker=${seriesTicker}`)}` : '';

  // The model, outcome by outcome.
  const calibration = fitCalibration(samples(r.observations, r.settled));
  const rates = baseRates(r.settled);
  // An outcome already decided (a range ruled out before the event closes) is not modelled, and in
  // a mutually exclusive event the live outcomes share what the decided ones left.
  const live = r.markets.filter((v) => !decided(v.market));
  const priced = live.filter((v) => v.quote.price !== null);
  const decidedYes = r.markets.filter((v) => resolvedYes(v.market)).length;
  const models = new Map<string, OutcomeModel>();
  modelEvent(
    priced.map((v) => ({ type: v.type, price: v.quote.price! / SCALE })),
    calibration,
    rates,
    event.mutually_exclusive,
    Math.max(0, 1 - decidedYes),
  ).forEach((m, i) => models.set(priced[i]!.market.ticker, m));
  // A ladder of strikes ("above 2.6", "above 2.8") is held in order, whatever the prices say.
  const crossed = event.mutually_exclusive ? [] : crossedRungs(priced);
  // A ladder's crossed quotes as a trade: YES on a rung and NO on one inside it, for less than the $1 one of them pays.
  const ladder = !event.mutually_exclusive && priced.filter((v) => strikeOf(v.market)).length > 1;
  const rungLock = ladder ? ladderLock(priced, (v) => strikeOf(v.market)) : null;
  if (!event.mutually_exclusive) {
    const held = monotoneLadder(priced.map((v) => models.get(v.market.ticker)!.model), priced.map((v) => strikeOf(v.market)));
    priced.forEach((v, i) => models.set(v.market.ticker, { ...models.get(v.market.ticker)!, model: held[i]! }));
  }
  // Prices of mutually exclusive outcomes add up to more than 100% (the spread, the exchange's
  // edge): the model, which sums to 100%, is compared with them scaled to share the same mass.
  const priceSum = priced.reduce((sum, v) => sum + v.quote.price! / SCALE, 0);
  // Once an outcome of a mutually exclusive event resolved YES the others can only resolve No:
  // their quotes are compared as they stand, not scaled to share nothing.
  const mass = Math.max(0, 1 - decidedYes);
  const normalised = event.mutually_exclusive && priceSum > 0 && mass > 0 && Math.abs(priceSum - mass) >= 0.0005;
  const marketProb = (v: MarketView) => (normalised ? (v.quote.price! / SCALE / priceSum) * mass : v.quote.price! / SCALE);
  // What the report shows, in tenths of a percent: shares of a whole add up to it exactly, and
  // each gap is the difference of the two figures on its row.
  const shownModel = new Map<string, number>();
  const shownMarket = new Map<string, number>();
  // Every priced outcome is modelled (modelEvent above).
  const tenths = (values: number[], whole: boolean) => (whole ? tenthsSummingTo(values, Math.round(mass * 1000)) : values.map((x) => Math.round(x * 1000)));
  tenths(priced.map((v) => models.get(v.market.ticker)!.model), event.mutually_exclusive).forEach((t, i) => shownModel.set(priced[i]!.market.ticker, t));
  tenths(priced.map(marketProb), normalised).forEach((t, i) => shownMarket.set(priced[i]!.market.ticker, t));
  const modelOf = (v: MarketView) => shownModel.get(v.market.ticker)! / 1000;
  // Against the exact price when it is shown as is (it may have more decimals than one).
  const gapOf = (v: MarketView) => (shownModel.has(v.market.ticker) ? modelOf(v) - (normalised ? shownMarket.get(v.market.ticker)! / 1000 : marketProb(v)) : null);
  const marketWords = (v: MarketView) => `${formatPercent(v.quote.price!)} (${v.quote.basis === 'mid' ? 'mid' : 'last trade'}${normalised ? `; ${pct(shownMarket.get(v.market.ticker)! / 1000)} normalised` : ''})`;

  // Citations are numbered as they are written, so the text is built strictly in reading order.
  const lines: string[] = [];
  const seriesName = r.series?.title ?? seriesTicker;
  lines.push(`# ${oneLine(event.title)}`, '');
  lines.push(`**Series:** ${seriesName} (${seriesTicker}) · **Event:** ${event.event_ticker} ${eventCite()} · **As of:** ${utc(r.asOf)}  `);
  lines.push(
    `**Data source:** ${
      ctx.source.mode === 'live'
        ? `Kalshi Trade API, live ${historyCite()}`
        : `Kalshi data from a snapshot recorded ${utc(ctx.source.recordedAt)} (${ctx.source.note ? `${ctx.source.note}; ` : ''}offline, not live prices) ${historyCite()}`
    }`,
    '',
  );

  /**
   * The takeaway's trade when the largest gap is none: the contract with the best expected value
   * on the model at the quotes (YES at the ask, NO at 1 minus the bid), and any lock-in the
   * quotes of exclusive outcomes offer.
   */
  const tradeableWords = () => {
    const trades = priced.flatMap((v) => {
      const chance = modelOf(v);
      const { bid, ask } = v.quote;
      return [
        ...(ask !== null && ask > 0 ? [{ v, side: 'YES', paid: ask, chance, ev: chance - ask / SCALE }] : []),
        ...(bid !== null && bid > 0 ? [{ v, side: 'NO', paid: SCALE - bid, chance: 1 - chance, ev: bid / SCALE - chance }] : []),
      ];
    });
    const best = trades.sort((a, b) => b.ev - a.ev)[0];
    const bids = priced.map((v) => v.quote.bid);
    const locked = event.mutually_exclusive && live.length === r.markets.length && live.length > 1 && priced.length === live.length && bids.every((b): b is number => b !== null) ? bids.reduce((a, b) => a + b, 0) - SCALE : 0;
    const lock = locked > 0 ? `; NO on every outcome locks in ${Math.round((locked / SCALE) * 100)}¢ whatever happens` : rungLock ? `; ${ladderLockWords(rungLock)}` : '';
    return best && Math.round(best.ev * 1000) > 0
      ? `At the quoted prices the model's best buy is ${best.side} on ${named(best.v.label)} at ${formatDollars(best.paid)} against its ${pct(best.chance)}, +$${best.ev.toFixed(3)} per $1 contract before fees${lock} ${marketCite(best.v.market)}.`
      : `At the quoted prices no contract has a positive expected value on the model${lock}.`;
  };

  // Key takeaway.
  const ranked = priced.map((v) => ({ v, gap: gapOf(v)! })).sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap));
  const winner = event.mutually_exclusive ? r.markets.find((v) => resolvedYes(v.market)) : undefined;
  lines.push('## Key takeaway', '');
  if (winner) {
    const stale = priced.filter((v) => v.quote.price! > 0);
    lines.push(
      `This event is decided: **${winner.label}** resolved YES, so every other outcome can only resolve No${stale.length ? `; quotes still standing for them (up to ${formatPercent(Math.max(...stale.map((v) => v.quote.price!)))}) are stale` : ''} ${marketCite(winner.market)}.`,
      '',
    );
  } else if (!live.length) {
    lines.push(`${settledSummary(r.markets)} ${eventCite()}.`, '');
  } else if (!ranked.length) {
    const done = r.markets.length - live.length;
    lines.push(
      `${done ? `${plural(done, 'outcome')} of this event ${done === 1 ? 'is' : 'are'} already decided, and no outcome still open has a price yet` : 'No outcome of this event has a price yet'} (no quotes and no trades), so there is nothing to compare the model with ${eventCite()}.`,
      '',
    );
  } else {
    const top = ranked[0]!;
    const model = modelOf(top.v);
    const price = top.v.quote.price! / SCALE;
    // Against the other outcomes (the normalised share) and against its own price the model can
    // disagree in direction: then the gap is no trade, and the takeaway names the one that is.
    const relativeOnly = normalised && (top.gap > 0 ? model <= price : model >= price);
    // A function: citations are numbered as they are written, so only the wording used may cite.
    const verdict = () => relativeOnly
      ? `, but at its price of ${formatPercent(top.v.quote.price!)} ${top.gap > 0 ? 'YES' : 'NO'} is no buy on the model ${marketCite(top.v.market)}. ${tradeableWords()}`
      : `. On this model the outcome looks ${top.gap > 0 ? 'cheap: the model gives it more' : 'dear: the model gives it less'} than its price ${marketCite(top.v.market)}.${ladder ? ` ${tradeableWords()}` : ''}`;
    lines.push(
      Math.round(Math.abs(top.gap) * 1000) < 20
        ? ranked.length === 1
          ? `Model and market agree within 2 points: the model gives ${named(top.v.label)} ${pct(model)} against a market ${marketWords(top.v)}, ${pts(top.gap)} ${marketCite(top.v.market)}.`
          : `Model and market agree within 2 points on every outcome; the largest gap is ${named(top.v.label)} at ${pct(model)} against a market ${marketWords(top.v)}, ${pts(top.gap)} ${marketCite(top.v.market)}.`
        : `${ranked.length === 1 ? 'The model and the market differ on' : 'The largest gap is'} ${named(top.v.label)}: the model says ${pct(model)}, the market ${marketWords(top.v)}, ${pts(top.gap)}${normalised ? ' against its normalised share' : ''}${verdict()}`,
      '',
    );
  }

  // Outcomes.
  lines.push('## Outcomes: model vs market', '');
  lines.push('| Outcome | Market | Model | Gap | Confidence |', '|---|---|---|---|---|');
  for (const v of r.markets) {
    const settled = settlementOf(v.market);
    if (settled) {
      lines.push(`| ${cell(v.label)} ${marketCite(v.market)} | ${settlementWords(settled)}${v.market.status ? ` (${cell(v.market.status)})` : ''} | — | — | — (decided) |`);
      continue;
    }
    const m = models.get(v.market.ticker);
    const spread = v.quote.bid !== null && v.quote.ask !== null ? v.quote.ask - v.quote.bid : null;
    const state = Object.hasOwn(STATE_NOTES, v.market.status) ? `; ${STATE_NOTES[v.market.status]}` : '';
    const market = v.quote.price === null ? `no price${state}` : `${formatPercent(v.quote.price)} (${v.quote.basis === 'mid' ? 'mid' : 'last trade'}${normalised ? `; ${pct(shownMarket.get(v.market.ticker)! / 1000)} normalised` : ''}${state})`;
    const conf = m ? confidence(v, calibration, spread) : { level: 'low', why: 'no price to calibrate' };
    lines.push(`| ${cell(v.label)} ${marketCite(v.market)} | ${market} | ${m ? pct(modelOf(v)) : '—'} | ${m ? pts(gapOf(v)!) : '—'} | ${conf.level} (${conf.why}) |`);
  }
  if (crossed.length) {
    const pairs = crossed.map(([low, high]) => `${high.label} at ${formatPercent(high.quote.price!)} against ${low.label} at ${formatPercent(low.quote.price!)}`);
    lines.push(
      '',
      `The market prices its strikes out of order: ${pairs.join('; ')}, though YES on the first implies YES on the second. The model holds the ladder in order, averaging the outcomes where prices cross.`,
    );
    if (rungLock) lines.push('', ladderLockLine(rungLock));
  }
  if (event.mutually_exclusive && live.length) {
    const sum = priced.reduce((s, v) => s + v.quote.price!, 0);
    const scaled = normalised ? ` Each gap is measured against the market price normalised, scaled so that the prices too add up to ${pct(mass)}.` : '';
    const others = r.markets.length - live.length;
    lines.push(
      '',
      (live.length < r.markets.length
        ? `The outcomes are mutually exclusive: the ${live.length === 1 ? 'one' : live.length} still open ${live.length === 1 ? 'has a market price' : 'have market prices adding up to'} ${formatPercent(sum)} and ${live.length === 1 ? 'a model probability' : 'model probabilities adding up to'} ${pct(mass)}; the other ${others === 1 ? 'one is' : `${others} are`} already decided.`
        : `The outcomes are mutually exclusive: market prices add up to ${formatPercent(sum)}, model probabilities to 100%.`) + scaled,
    );
    // Quotes that lock in a profit whatever happens: exactly one outcome resolves YES.
    if (live.length === r.markets.length && live.length > 1) {
      const [bids, asks] = [live.map((v) => v.quote.bid), live.map((v) => v.quote.ask)];
      const n = live.length;
      // How many sets the best prices are good for: the thinnest leg's size (NO is bought from the YES bids, YES from the asks).
      const sets = (side: 'bid' | 'ask') => {
        const sizes = live.map((v) => parseFixed(side === 'bid' ? v.market.yes_bid_size_fp : v.market.yes_ask_size_fp));
        return sizes.every((x): x is number => x !== null) ? `the best prices are good for ${formatCount(Math.min(...sizes))} sets (the contract snapshot has each size), more filling at worse prices` : 'the report does not show how many contracts are offered at those prices';
      };
      if (bids.every((b): b is number => b !== null) && bids.reduce((a, b) => a + b, 0) > SCALE) {
        const cost = n * SCALE - bids.reduce((a, b) => a + b, 0);
        lines.push('', `**Arbitrage on these quotes:** NO on every outcome, each at 1 minus its YES bid, costs ${formatDollars(cost)} and pays $${n - 1} (every outcome but the winner pays), ${Math.round((((n - 1) * SCALE - cost) / SCALE) * 100)}¢ locked in before fees; ${sets('bid')}.`);
      }
      if (asks.every((a): a is number => a !== null) && asks.reduce((a, b) => a + b, 0) < SCALE) {
        const cost = asks.reduce((a, b) => a + b, 0);
        lines.push('', `**Arbitrage on these quotes:** YES on every outcome at the ask costs ${formatDollars(cost)} for the $1 the winner pays, ${Math.round(((SCALE - cost) / SCALE) * 100)}¢ before fees if one of them must resolve YES; ${sets('ask')}.`);
      }
    }
  }
  lines.push('');

  // Catalysts.
  lines.push('## Key claims and catalysts', '');
  const rules = ruleClaims(event, r.series, r.markets, live.length > 0, now, { event: eventCite, market: marketCite, source: (key, name, url) => sources.cite(key, name, url) });
  lines.push(...rules.dates);
  const moves = live
    .map((v) => ({ v, day: move(v, 24, now), week: move(v, 7 * 24, now) }))
    .filter((x) => x.day !== null || x.week !== null)
    .sort((a, b) => Math.abs(b.week ?? b.day ?? 0) - Math.abs(a.week ?? a.day ?? 0));
  for (const x of moves.slice(0, 3)) {
    if (Math.abs(x.week ?? 0) < 0.02 && Math.abs(x.day ?? 0) < 0.02) continue;
    lines.push(`- **Price move, ${x.v.label}:** ${x.day === null ? 'n/a' : pts(x.day)} over 24 hours, ${x.week === null ? 'n/a' : pts(x.week)} over 7 days ${marketCite(x.v.market)}.`);
  }
  // Each outcome's price then, beside its price now: what "the hike price a week ago?" is answered from.
  const then = live.flatMap((v) => {
    const [day, week] = [priceThen(v, 24, now), priceThen(v, 7 * 24, now)];
    const was = (p: number | null) => (p === null ? 'n/a' : formatPercent(p));
    return v.quote.price !== null && (day !== null || week !== null) ? [`${v.label} ${was(day)} and ${was(week)} (now ${formatPercent(v.quote.price)})`] : [];
  });
  if (then.length) lines.push(`- **Prices 24 hours and 7 days ago:** ${then.join('; ')} ${eventCite()}.`);
  if (!live.length) lines.push(`- **Trading is over:** every outcome is decided, so no price move or rule can change the result ${eventCite()}.`);
  else if (!moves.length) lines.push(`- **No price history yet:** the exchange has no candlesticks for the last week (the markets may have opened recently) ${eventCite()}.`);
  else if (!moves.some((x) => Math.abs(x.week ?? 0) >= 0.02 || Math.abs(x.day ?? 0) >= 0.02)) lines.push(`- **Prices are steady:** no outcome moved 2 points or more over the last day or week ${eventCite()}.`);
  for (const v of live) {
    const vol24 = parseFixed(v.market.volume_24h_fp);
    const days = v.daily.filter((c) => c.end_period_ts < now - 86400).map((c) => parseFixed(c.volume_fp) ?? 0);
    if (vol24 === null || days.length < 3) continue;
    const avg = days.reduce((s, x) => s + x, 0) / days.length;
    if (avg > 0 && vol24 >= 2 * avg) {
      lines.push(`- **Volume surge, ${v.label}:** ${formatCount(vol24)} contracts in 24 hours, ${(vol24 / avg).toFixed(1)}× the daily average of the previous ${days.length} days ${marketCite(v.market)}.`);
    }
  }
  lines.push(...rules.flips(), '');

  // History.
  lines.push(`## Resolution history (${seriesTicker})`, '');
  if (!r.history.length) {
    lines.push(`No settled events were found for this series ${historyCite()}, so the model rests on the market price alone.`, '');
  } else {
    lines.push(`| Event | Closed | Resolved YES | Its price ${PRE_CLOSE_HOURS} h before close |`, '|---|---|---|---|');
    // Every settled event found; prices before close are fetched for the most recent ones only.
    for (const e of r.history) {
      const winners = e.markets.filter((m) => m.won);
      const price = !e.priced ? 'not fetched' : winners.map((w) => (w.preClose === null ? 'no price' : formatPercent(w.preClose))).join(', ');
      lines.push(`| ${e.eventTicker} | ${day(e.closeTs)} | ${winners.length ? cell(winners.map((w) => w.label).join(', ')) : 'none'} | ${winners.length ? price : '—'} |`);
    }
    if (r.history.some((e) => e.priced && e.markets.some((m) => m.won && m.preClose === null))) {
      lines.push('', `“No price”: the exchange's candlesticks show no trade and no two-sided quote for it in the two hours before that time.`);
    }
    const priced = r.history.filter((e) => e.priced).length;
    if (priced < r.history.length) {
      lines.push('', `Prices before close were fetched for the ${priced} most recent events; all ${r.history.length} count in the base rates below.`);
    }
    if (!r.historyComplete) {
      lines.push('', `The exchange lists more settled markets for this series than were read (the first ${MAX_PAGES} pages of each list): the history and base rates cover the ${formatCount(r.settledCount * SCALE)} read.`);
    }
    const rateLines = [...rates.entries()].sort((a, b) => b[1].cases - a[1].cases).slice(0, 8).map(([type, br]) => `${type}: ${br.wins} of ${br.cases} (${pct(br.wins / br.cases)})`);
    lines.push('', `**Base rates** (how often each outcome resolved YES, ${r.settled.length} settled markets in ${r.history.length} events): ${rateLines.join('; ')} ${historyCite()}${olderHistoryCite()}.`);
    const complete = r.history.filter((e) => e.markets.length && e.markets.every((m) => m.preClose !== null));
    if (event.mutually_exclusive) {
      const { won: fav, events: clear, tied } = favouriteRecord(complete);
      const tiedNote = tied ? `; ${tied} event${tied > 1 ? 's' : ''} with two outcomes tied for favourite left out` : '';
      lines.push('', clear ? `**Market accuracy:** the favourite ${PRE_CLOSE_HOURS} h before close won ${fav} of ${clear} events with prices (${pct(fav / clear)}${tiedNote}; an event counts when every one of its outcomes had a price then, not only the winner shown above).` : '**Market accuracy:** no past event has complete pre-close prices and a single favourite.');
    } else {
      const calls = complete.flatMap((e) => e.markets).filter((m) => m.preClose !== 500_000);
      const right = calls.filter((m) => m.preClose! > 500_000 === m.won).length;
      lines.push('', calls.length ? `**Market accuracy:** contracts priced above 50% ${PRE_CLOSE_HOURS} h before close resolved YES, and those below it NO, in ${right} of ${calls.length} cases (${pct(right / calls.length)}).` : '**Market accuracy:** no past market has a pre-close price.');
    }
    lines.push('');
  }

  // Contract snapshot: the exchange's own figures.
  lines.push('## Contract snapshot', '');
  lines.push(...CONTRACT_HEADER);
  for (const v of r.markets) lines.push(contractRow(v.market, marketCite(v.market)));
  lines.push('');

  // Method.
  const slope = calibration.b;
  const noWinnerRule = r.markets.some((v) => /\b(?:tie|ties|tied|draw|no winner)\b[^.]*\bNo\b|\bNo\b[^.]*\b(?:tie|tied|draw)\b/i.test(`${v.market.rules_primary ?? ''} ${v.market.rules_secondary ?? ''}`));
  const baseUse =
    calibration.n === 0
      ? 'no history, so base rates are not used'
      : calibration.c > 0.05
        ? `c = ${coefficient(calibration.c)}: in this series an outcome's base rate has carried information the price missed, so it moves the model`
        : `c = ${coefficient(calibration.c)}: base rates have not added information beyond the price in this series, so they barely move the model`;
  lines.push('## Method and caveats', '');
  lines.push(
    `- **Market price** is the mid of the best bid and ask in the order book (the YES ask is 1 minus the best NO bid); when one side is empty, the last trade, marked "last trade".`,
    `- **Model probability.** Prediction markets tend to overprice longshots and underprice favourites, and an outcome's track record can add what the price misses. On ${calibration.n} settled markets of this series, priced ${PRE_CLOSE_HOURS} hours before close, we fitted P(yes) = σ(a + b·logit(price) + c·w·(logit(base rate) − logit(price))), where the base rate is how often that outcome resolved YES in the series (leaving out the market's own event) and w = cases/(cases + 10) discounts thin records. The fit is pulled towards "the price is right" (a = 0, b = 1, c = 0) with the weight of ${PRIOR_STRENGTH} observations. It gives a = ${coefficient(calibration.a)}, b = ${coefficient(slope)}${
      calibration.n === 0 ? ' (no history: the model equals the price)' : slope > 1.02 ? ' (prices in this series have been too close to 50%, so the model pushes them outwards)' : slope < 0.98 ? ' (prices in this series have been too extreme, so the model pulls them in)' : ' (prices in this series have been well calibrated)'
    }, and ${baseUse}${event.mutually_exclusive ? `. The probabilities are then normalised to sum to 100%, as at most one outcome can win${noWinnerRule ? ' (the rules let every outcome resolve No, for example on a tie; that case is taken as negligible)' : ''}` : priced.some((v) => strikeOf(v.market)) ? '. Outcomes on a ladder of strikes are then held in order (a higher "above" strike is never the likelier), averaging any that cross' : ''}. \`svc backtest --series ${seriesTicker}\` scores this model against the market on the series' settled markets.`,
    `- **Gap** is model minus market, in percentage points${event.mutually_exclusive ? ` (when the prices of mutually exclusive outcomes add up to more or less than 100%, as bid-ask spreads make them, minus the price normalised to a share of 100%, so that a gap is not the overround)` : ''}; **confidence** reflects the size of the history, the spread and the trading volume.`,
    `- **Caveats:** the model sees prices and outcomes, not news; a short history or a changed rulebook weakens it; prices move after this report${ctx.source.mode === 'snapshot' ? `, and this report was built from data recorded on ${utc(ctx.source.recordedAt)}${ctx.source.note ? ` (${ctx.source.note})` : ''}, not live prices` : ''}. This is research, not investment advice.`,
  );

  return { title: event.title, seriesTicker, text: `${lines.join('\n').trim()}\n`, citations: sources.list, asOf: r.asOf.toISOString() };
}
