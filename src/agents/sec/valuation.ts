import type { FiscalPeriod } from '../../data/sec/calendar.js';
import type { MetricValue } from '../../data/sec/facts.js';
import type { SecLibrary } from '../../data/sec/library.js';
import type { SecQuestion } from '../../data/sec/question.js';
import { SourceList } from '../citations.js';
import type { AgentEvent } from '../types.js';

// Valuation at a share price the asker gives ("Apple P/E at $200"): SEC filings hold earnings and
// share counts, never a stock price, so the price is theirs and the answer says so.

/** P/E, earnings yield, market capitalisation: figures of a price and the filings together. */
export const VALUATION_ASKED = /\b(?:p\/?e(?:\s+ratio)?|pe ratio|price[- ]to[- ]earnings|earnings multiple|market (?:cap|capitali[sz]ation)|mkt cap|earnings yield)\b/i;

/**
 * Whether a stock is cheap asked ("is msft cheap?", "is apple expensive at $200?"): a judgement of
 * its price against its earnings. ("Overvalued" is advice asked, answered with the key figures.)
 */
export const VALUE_JUDGED = /\b(?:cheap(?:er|est)?|expensive|pricey|overpriced|underpriced|a bargain|(?:good|better|best) value)\b/i;

/** A share price said: "$200", "at 200 dollars", "a share price of 185.50", "if the stock trades at 200", "that 210 price". */
const PRICE = /\$\s?(\d[\d,]*(?:\.\d+)?)(?!\s*(?:billion|million|bn|m|b|k)\b)|\b(\d[\d,]*(?:\.\d+)?)\s*(?:dollars|usd)\b|\b(?:price|priced|trading|trades?|stock|shares?)\s+(?:of|at|is|=)\s+\$?(\d[\d,]*(?:\.\d+)?)\b|\b(\d[\d,]*(?:\.\d+)?)\s+(?:share\s+|stock\s+)?price\b/i;
/** In a follow-up to a valuation, a bare "at 390" is a share price too. */
const AT_PRICE = /\bat\s+\$?(\d[\d,]*(?:\.\d+)?)\b(?!\s*(?:%|percent|x\b|times))/i;
/** "At that price", "the same price": the price said before. */
const THAT_PRICE = /\b(?:that|same|this|the previous|the earlier)\s+(?:\d[\d,.]*\s+)?(?:share\s+|stock\s+)?price\b/i;

const priceIn = (text: string, pattern: RegExp = PRICE): number | null => {
  const m = pattern.exec(text);
  const price = m ? Number(m.slice(1).find((g) => g !== undefined)!.replace(/,/g, '')) : null;
  return price !== null && price > 0 && Number.isFinite(price) ? price : null;
};

/** The valuation a question asks, with the share price it gives (null when it gives none); null when it asks none. */
export function valuationAsked(text: string): { price: number | null } | null {
  if (!VALUATION_ASKED.test(text)) return null;
  // ("its p/e at 200": beside a valuation asked, a bare "at 200" is the price.)
  return { price: priceIn(text) ?? priceIn(text, AT_PRICE) };
}

/**
 * The valuation the last question asks, read with the conversation: "what about msft at 390?"
 * after "apple p/e at $210?" is Microsoft's P/E at $390, and "apple's market cap at that price?"
 * uses the price said before. A price is never carried over unasked: it belongs to its company.
 */
export function valuationInConversation(asked: string, earlierAsked: readonly string[]): { price: number | null; judged?: boolean } | null {
  if (!VALUATION_ASKED.test(asked) && VALUE_JUDGED.test(asked)) return { price: priceIn(asked) ?? priceIn(asked, AT_PRICE), judged: true };
  const said = valuationAsked(asked);
  const before = earlierAsked.at(-1);
  // A short follow-up with a price of its own, or "that price", continues a valuation.
  const own = priceIn(asked) ?? priceIn(asked, AT_PRICE);
  const followsOne = before !== undefined && valuationAsked(before) !== null && asked.trim().split(/\s+/).length <= 10 && (own !== null || THAT_PRICE.test(asked));
  if (!said && !followsOne) return null;
  const price = said?.price ?? priceIn(asked) ?? (followsOne ? own : null);
  if (price !== null || !THAT_PRICE.test(asked)) return { price };
  // "At that price": the latest price said in the conversation.
  for (const earlier of [...earlierAsked].reverse()) {
    const found = priceIn(earlier) ?? (valuationAsked(earlier) ? priceIn(earlier, AT_PRICE) : null);
    if (found !== null) return { price: found };
  }
  return { price: null };
}

const money = (x: number, digits = 2) => `$${x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;

/**
 * Each company's P/E at the price given, on diluted EPS summed over its last four reported
 * quarters, with the earnings yield, and its market capitalisation on the latest share count;
 * every figure cited. Without a price, what the filings give and how to ask.
 */
export async function* answerValuation(lib: SecLibrary, question: SecQuestion, price: number | null, judged = false): AsyncGenerator<AgentEvent> {
  const sources = new SourceList();
  const lines: string[] = [];
  const cited = async (company: Parameters<SecLibrary['cite']>[0], v: MetricValue) => {
    // (One term after another, so that sources are numbered in the order they are said.)
    const refs: string[] = [];
    for (const t of v.terms) {
      const c = await lib.cite(company, t.fact);
      refs.push(sources.cite(c.key, c.name, c.url));
    }
    return [...new Set(refs)].join('');
  };
  for (const mention of question.companies.filter((c) => c.status === 'found').slice(0, 3)) {
    if (mention.status !== 'found') continue;
    const { company, financials } = await lib.profile(mention.company);
    const name = `**${company.name} (${company.ticker})**`;
    if (!financials) {
      // (In a snapshot, a company it does not hold: said as the filings agent says it elsewhere.)
      lines.push(`${name}: ${lib.dataNote() ? 'not in this snapshot of SEC data, so no figures to value it on' : 'no XBRL financial data to value it on'}.`);
      continue;
    }
    const label = (q: FiscalPeriod) => (q.kind === 'quarter' ? `${financials.calendar.isCalendarYear ? '' : 'fiscal '}Q${q.q} ${q.fy}` : `fiscal ${q.fy}`);
    const quarters = financials.calendar.quarters.filter((q) => financials.value('dilutedEps', q));
    const last = quarters.at(-1);
    const four = last ? [0, 1, 2, 3].map((k) => financials.calendar.shiftQuarter(last, -k)).map((q) => (q ? financials.value('dilutedEps', q) : null)) : [];
    const shares = financials.series('sharesOutstanding', 'quarter').at(-1) ?? null;
    const parts: string[] = [];
    if (last && four.every((v): v is MetricValue => v !== null)) {
      const eps = four.reduce((sum, v) => sum + v.value, 0);
      const each: string[] = [];
      for (const v of four) each.push(await cited(company, v));
      const refs = [...new Set(each.join('').match(/\[\d+\]/g))].join('');
      const epsSaid = `diluted EPS of ${money(eps)} over the four quarters to ${label(last)} ${refs}`;
      if (price === null) parts.push(epsSaid);
      else if (eps <= 0) parts.push(`no P/E: ${epsSaid}, not positive`);
      else parts.push(`P/E **${(price / eps).toFixed(1)}x** on ${epsSaid} (earnings yield ${((100 * eps) / price).toFixed(1)}%)`);
    } else parts.push(`no diluted EPS for four quarters in a row in its filings, so no twelve-month P/E`);
    if (shares) {
      const count = `${(shares.value / 1e6).toLocaleString('en-US', { maximumFractionDigits: 0 })} million shares outstanding at ${shares.asOf ?? shares.period.end} ${await cited(company, shares)}`;
      parts.push(price === null ? count : `market capitalisation about **${money((price * shares.value) / 1e9, 0)} billion** on ${count}`);
    }
    lines.push(`${name}${price === null ? '' : ` at ${money(price)} a share`}: ${parts.join('; ')}.`);
  }
  const verdict = judged ? 'Whether a stock is cheap or dear is a judgement of its price against what the company earns, and I give no investment advice. ' : '';
  const text =
    verdict +
    (price === null
      ? judged && lines.length > 1
        ? `Which of them is cheaper needs each one's share price, set against what it earns (a P/E) or the shares it has (a market capitalisation), and SEC filings hold no share price (this service has no stock quotes): ask with a price for each, for example “Apple P/E at $200”. What the filings give toward it:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
        : `A P/E or a market capitalisation needs a share price, which SEC filings do not hold (this service has no stock quotes): ask with one, for example “Apple P/E at $200”. What the filings give:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
      : `${lines.join('\n\n')}\n\nThe share price, ${money(price)}, is the one asked about, not a quote. Twelve-month EPS is the sum of the four quarters' diluted EPS, each on its own quarter's share count, so it is close to, not exactly, the EPS of those twelve months.\n`);
  const note = lib.dataNote();
  const out = `${text}${note ? `\n${note}\n` : ''}`;
  for (const chunk of out.match(/[^\n]*\n|[^\n]+$/g) ?? []) yield { type: 'text', delta: chunk };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}
