import type { KalshiClient } from '../../data/kalshi/client.js';
import type { KalshiEvent, KalshiSeries } from '../../data/kalshi/types.js';
import type { ReportStore } from '../../reports/store.js';
import { credits } from '../markets-search/agent.js';
import type { OpenEventsIndex } from '../markets-search/index.js';
import { EventSearch } from '../markets-search/search.js';
import { quoteSheet } from '../prediction-markets/quote-sheet.js';
import { eventPage } from '../prediction-markets/summary.js';
import type { Answer, Turn } from '../types.js';
import { OF_THE_BOOK, bookAnswer, positionsListed, positionsSaid, quotedPrice, type Position } from './book.js';
import { KALSHI_URL, eventsOf, routedText } from './classify.js';
import { BOTH_SIDES, type ReportRead } from './event-questions.js';
import { CHANCE_OF_EACH, JOINT_ASKED, JOINT_FOLLOW_UP, JOINT_WORDS, jointAnswer, legListed, legOf, legsListed, type Leg } from './joint.js';
import { outcomeOf, readReport } from './report-rows.js';

// The router's answers about several events at once: the joint chance of outcomes of different
// events (joint.ts) and a book of positions across them (book.ts), each event read from its stored
// report or, without one, its live quotes in a report's shape.

export interface TogetherOptions {
  kalshi: KalshiClient;
  reports: ReportStore;
  index: OpenEventsIndex;
  apiUrl: string;
  reportCost: number;
}

/** An event's live quotes in a report's shape, saying that no report is stored and what generates one. */
export function liveSheet(o: Pick<TogetherOptions, 'kalshi' | 'apiUrl' | 'reportCost'>, event: KalshiEvent, series: KalshiSeries | null, pageUrl: string): ReportRead {
  return { ...quoteSheet(event, series, pageUrl, o.apiUrl, o.kalshi.now()), unreported: `\`svc-prediction-markets-agent\` generates one, ${credits(o.reportCost)}` };
}

/** `jointOf` and `bookOf` of a conversation's turns before the question; each null when the question is not theirs. */
export function togetherAnswers(o: TogetherOptions) {
  /** An event's stored report, else its live quotes in a report's shape; null when the exchange does not list it. */
  async function sheetOf(ticker: string): Promise<{ sheet: ReportRead; category: string | null } | null> {
    const [stored, event] = await Promise.all([o.reports.latest(ticker), o.kalshi.event(ticker).catch(() => null)]);
    const category = event?.category ?? null;
    if (stored) return { sheet: stored, category };
    if (!event) return null;
    const series = await o.kalshi.series(event.series_ticker).catch(() => null);
    return { sheet: liveSheet(o, event, series, eventPage(event, series?.title)), category };
  }

  /**
   * Outcomes of two or more events asked of together ("lakers win and btc above 92k, both?",
   * "chance both happen?" after the Fed and CPI): each event the question names with the outcome
   * its own words say, else the events of the last answers with the outcome each was asked about.
   * Null when fewer than two events' outcomes can be told, or when it is one event's outcomes.
   */
  async function jointOf(before: readonly Turn[], question: string): Promise<Answer | null> {
    // ("What's the chance of a hike AND cpi above 3.2?": outcomes of two events the question names, together.)
    // ("At least one?", "exactly one?", "none?" right after a joint answer: of the same legs.)
    const lastAnswer = [...before].reverse().find((t) => t.role === 'assistant')?.content ?? '';
    const explicit = JOINT_ASKED.test(question) || (/^Joint chance of /.test(lastAnswer.trimStart()) && JOINT_FOLLOW_UP.test(question));
    if ((!explicit && !CHANCE_OF_EACH.test(question)) || BOTH_SIDES.test(question) || KALSHI_URL.test(question)) return null;
    const search = await o.index.get();
    // (The words of asking together name no event: "parlay odds: fed hold + cpi above 3?".)
    const chunks = question
      .replace(JOINT_WORDS, ' ')
      .split(/,|;|:|\band\b|&|\+|\bvs\.?|\bversus\b|\bwith\b/i)
      .filter((c) => EventSearch.terms(c).length);
    const named = search.named(chunks);
    // "A cut and a hold, both?": two outcomes of one event, which exclude each other; no joint of events.
    if (named.length > 1 && new Set(named.map((n) => n.ticker)).size === 1) return null;
    if (!explicit && new Set(named.map((n) => n.ticker)).size < 2) return null;
    const history = explicit ? before : [];
    const discussed: { ticker: string; user: string; answer: string; at: number }[] = [];
    for (let i = history.length - 1, seen = 0; i >= 0 && seen < 4; i--) {
      if (history[i]!.role !== 'assistant') continue;
      seen++;
      const user = history.slice(0, i).reverse().find((m) => m.role === 'user')?.content ?? '';
      eventsOf(history[i]!.content).forEach((ticker, k) => discussed.push({ ticker, user, answer: history[i]!.content, at: i * 100 + k }));
    }
    const listedBefore = history.filter((m) => m.role === 'assistant').slice(-4).reverse().map((m) => legsListed(m.content));
    // (Events the question names itself are all of them, unless it adds them to the thread's: "and eth above 3400 too, all three?".)
    const own = [...new Set(named.map((n) => n.ticker))];
    const adding = /\b(?:too|also|as well|all (?:three|four|3|4))\b/i.test(question);
    const tickers = own.length > 1 && !adding ? own : [...new Set([...own, ...discussed.map((d) => d.ticker)])].slice(0, 6);
    // (Those the question names first, then those discussed, in the order the thread took them up.)
    const order = (t: string) => (named.some((n) => n.ticker === t) ? named.findIndex((n) => n.ticker === t) - 1000 : discussed.find((d) => d.ticker === t)!.at);
    if (tickers.length < 2) return null;
    const wanted = /\b(?:all (?:three|3)|three of them)\b/i.test(question) ? 3 : /\b(?:all (?:four|4)|four of them)\b/i.test(question) ? 4 : /\b(?:both|either|neither|the two|two of them)\b/i.test(question) ? 2 : 4;
    const legs: Leg[] = [];
    const missing: string[] = [];
    for (const ticker of tickers) {
      if (legs.length >= wanted) break;
      const read = await sheetOf(ticker);
      if (!read) continue;
      const { sheet, category } = read;
      const said = named.find((n) => n.ticker === ticker);
      const before = listedBefore.map((l) => l.get(ticker)).find(Boolean);
      const turns = discussed.filter((d) => d.ticker === ticker);
      const leg =
        (said ? legOf(said.text, ticker, sheet) : null) ??
        (before ? legListed(before, ticker, sheet) : null) ??
        turns.map((d) => legOf(routedText(d.user).replace(new RegExp(KALSHI_URL.source, 'gi'), ' '), ticker, sheet)).find(Boolean) ??
        turns.map((d) => /\*\*(YES|NO) on ([^*\n]+)\*\*/.exec(d.answer)).map((m) => (m ? legListed({ side: m[1] as 'YES' | 'NO', names: m[2]! }, ticker, sheet) : null)).find(Boolean) ??
        null;
      // "Odds of both cuts?": two outcomes of one event, not outcomes of several.
      const words = (leg?.rows ?? []).flatMap((r) => outcomeOf(r.outcome).name.toLowerCase().match(/[a-z]{3,}/g) ?? []);
      if (said && leg && leg.rows.length > 1 && words.some((w) => new RegExp(`\\b(?:both|all)(?: of)?(?: the)? ${w}s?\\b`, 'i').test(question))) return null;
      if (leg) legs.push({ ...leg, category });
      else if (said || turns.length) missing.push(ticker);
    }
    // (Asked only "the chance of X and Y", each of them must be told.)
    if (!explicit && (missing.length || legs.length < 2)) return null;
    return legs.length > 1 ? jointAnswer(question, legs.sort((a, b) => order(a.ticker) - order(b.ticker)), missing) : null;
  }

  /**
   * Positions across outcomes and events weighed together: those the question states ("I hold 500
   * YES on BTC above 96k and 300 YES on ETH above 3400, max loss?"), "100 YES on each" of the
   * outcomes a joint answer listed, or, asked of them again ("worst case across all three?"), those
   * a book answer listed. Null when fewer than two are stated and none were listed.
   */
  async function bookOf(before: readonly Turn[], question: string): Promise<Answer | null> {
    if (BOTH_SIDES.test(question) || KALSHI_URL.test(question)) return null;
    const answers = before.filter((m) => m.role === 'assistant').slice(-2).reverse();
    // "Add 200 NO on a fed hike — new worst case?": one position more, to the book of the answer before.
    const book = answers.map((a) => positionsListed(a.content)).find((l) => l.length) ?? [];
    const adding = book.length > 0 && /\b(?:add(?:ing)?|plus|also|on top(?: of)?|another|as well)\b/i.test(question);
    const said = positionsSaid(routedText(question), adding ? 1 : 2);
    const each = /\b(\d[\d,]*)\s+(yes|no)\b[^?]*\b(?:on )?each\b/i.exec(question);
    const legs = each ? answers.map((a) => legsListed(a.content)).find((l) => l.size) : undefined;
    const listed = (!said.length || adding) && !legs && (OF_THE_BOOK.test(question) || adding) ? book : [];
    if (!said.length && !legs?.size && listed.length < 2) return null;
    const positions: Position[] = [];
    const unfound: string[] = [];
    if (legs) {
      for (const [ticker, leg] of legs) {
        const read = await sheetOf(ticker);
        const found = read ? legListed(leg, ticker, read.sheet) : null;
        if (!read || !found || found.rows.length !== 1) continue;
        const count = Number(each![1]!.replace(/,/g, ''));
        const side = each![2]!.toUpperCase() === 'NO' ? (found.side === 'YES' ? 'NO' : 'YES') : found.side;
        const price = quotedPrice(read.sheet, found.rows[0]!, side);
        positions.push({ count, side, words: outcomeOf(found.rows[0]!.outcome).name, paid: null, ticker, sheet: read.sheet, row: found.rows[0]!, price, atQuote: true });
      }
    }
    for (const l of listed) {
      const read = await sheetOf(l.ticker);
      const row = read ? readReport(read.sheet.text).rows.find((r) => outcomeOf(r.outcome).name === l.name) : undefined;
      if (!read || !row) continue;
      const price = l.paid ?? quotedPrice(read.sheet, row, l.side);
      positions.push({ count: l.count, side: l.side, words: l.name, paid: l.paid, ticker: l.ticker, sheet: read.sheet, row, price, atQuote: l.paid === null });
    }
    if (said.length) {
      const search = await o.index.get();
      const discussed = [...new Set(answers.flatMap((a) => eventsOf(a.content)))];
      for (const p of said) {
        // The event its words find, else one discussed whose outcomes they name ("200 hike yes" in a Fed thread).
        const hits = search.named([p.words]).map((n) => n.ticker);
        let placed = false;
        for (const ticker of [...new Set([...hits, ...discussed])]) {
          const read = await sheetOf(ticker);
          if (!read) continue;
          const leg = legOf(p.words, ticker, read.sheet);
          if (!leg || leg.rows.length !== 1) continue;
          // "YES on btc below 92k" of a ladder of "Above" rungs is NO on the rung.
          const side = leg.side === 'NO' ? (p.side === 'YES' ? 'NO' : 'YES') : p.side;
          const price = p.paid ?? quotedPrice(read.sheet, leg.rows[0]!, side);
          positions.push({ ...p, side, ticker, sheet: read.sheet, row: leg.rows[0]!, price, atQuote: p.paid === null });
          placed = true;
          break;
        }
        if (!placed) unfound.push(p.words);
      }
    }
    return positions.length > 1 ? bookAnswer(question, positions, unfound) : null;
  }

  return { jointOf, bookOf, sheetOf };
}
