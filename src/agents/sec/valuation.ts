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

/** A share price said: "$200", "at 200 dollars", "a share price of 185.50", "if the stock trades at 200". */
const PRICE = /\$\s?(\d[\d,]*(?:\.\d+)?)(?!\s*(?:billion|million|bn|m|b|k)\b)|\b(\d[\d,]*(?:\.\d+)?)\s*(?:dollars|usd)\b|\b(?:price|priced|trading|trades?|stock|shares?)\s+(?:of|at|is|=)\s+\$?(\d[\d,]*(?:\.\d+)?)\b/i;

/** The valuation a question asks, with the share price it gives (null when it gives none); null when it asks none. */
export function valuationAsked(text: string): { price: number | null } | null {
  if (!VALUATION_ASKED.test(text)) return null;
  const m = PRICE.exec(text);
  const price = m ? Number((m[1] ?? m[2] ?? m[3])!.replace(/,/g, '')) : null;
  return { price: price !== null && price > 0 && Number.isFinite(price) ? price : null };
}

const money = (x: number, digits = 2) => `$${x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;

/**
 * Each company's P/E at the price given, on diluted EPS summed over its last four reported
 * quarters, with the earnings yield, and its market capitalisation on the latest share count;
 * every figure cited. Without a price, what the filings give and how to ask.
 */
export async function* answerValuation(lib: SecLibrary, question: SecQuestion, price: number | null): AsyncGenerator<AgentEvent> {
  const sources = new SourceList();
  const lines: string[] = [];
  const cited = async (company: Parameters<SecLibrary['cite']>[0], v: MetricValue) => {
    const refs = await Promise.all(v.terms.map(async (t) => {
      const c = await lib.cite(company, t.fact);
      return sources.cite(c.key, c.name, c.url);
    }));
    return [...new Set(refs)].join('');
  };
  for (const mention of question.companies.filter((c) => c.status === 'found').slice(0, 3)) {
    if (mention.status !== 'found') continue;
    const { company, financials } = await lib.profile(mention.company);
    const name = `**${company.name} (${company.ticker})**`;
    if (!financials) {
      lines.push(`${name}: no XBRL financial data to value it on.`);
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
      const refs = [...new Set((await Promise.all(four.map((v) => cited(company, v)))).join('').match(/\[\d+\]/g))].join('');
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
  const text =
    price === null
      ? `A P/E or a market capitalisation needs a share price, which SEC filings do not hold (this service has no stock quotes): ask with one, for example “Apple P/E at $200”. What the filings give:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
      : `${lines.join('\n\n')}\n\nThe share price, ${money(price)}, is the one asked about, not a quote. Twelve-month EPS is the sum of the four quarters' diluted EPS, each on its own quarter's share count, so it is close to, not exactly, the EPS of those twelve months.\n`;
  const note = lib.dataNote();
  const out = `${text}${note ? `\n${note}\n` : ''}`;
  for (const chunk of out.match(/[^\n]*\n|[^\n]+$/g) ?? []) yield { type: 'text', delta: chunk };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}
