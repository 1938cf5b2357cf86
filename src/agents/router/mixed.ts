import type { Answer, Citation } from '../types.js';
import { outcomesNamed, type ReportRead } from './event-questions.js';
import { cited, readReport, outcomeOf, percent, type Row } from './report-rows.js';

// Questions that join a company and a market, or two markets, in a way no data svc reads links:
// "would a shutdown hurt Apple?", "should I buy apple before the fed meeting?", "if the Fed hikes,
// what does that mean for the CPI market?". svc has each side's own figures (a company's filings, an
// event's prices and model) but no model of how one moves the other, and says so before giving them.

/** How one thing bears on another: what a question joining two of them asks. */
export const LINK_ASKED = /\b(?:hurts?|help(?:s|ed)?|affects?|affected|effects? (?:on|of)|impacts?|matters?(?: more)?|mean(?:s)? for|because of|good for|bad for|benefits?|boosts?|drives?|exposed to|exposure to|(?:how )?exposed|vulnerable(?: to)?|at risk (?:from|of)|sensitive to|depends? on|tied to|linked to|correlat\w*|react\w* to|survive|withstand|weather|cope with|enough (?:to|for))\b/i;
/**
 * Interest rates asked about ("will higher rates hurt apple because of its debt?", "how exposed is
 * microsoft to interest rates?", "would a rate hike hurt alphabet?"): of a company, what its debt
 * costs it is the figure beside the debt.
 */
export const RATES_ASKED = /\b(?:interest|borrowing|financing|funding)\s+(?:rates?|costs?)\b|\b(?:higher|lower|rising|falling|high|low|elevated|the)\s+rates\b|\brates?\s+(?:hikes?|cuts?|rises?|increases?|going up|go up|rising|climb\w*)\b|\b(?:the\s+)?fed\s+(?:hikes?|hiking|raises?|raising|cuts?|cutting|tighten\w*)\b/i;

/** Advice asked on what to buy ("should I buy apple before the fed meeting?", "bitcoin or google?"). */
export const ADVICE_ASKED = /\bshould (?:i|we) (?:buy|sell|invest|put|get|go with|pick|choose)\b|\b(?:better|smarter) (?:buy|investment|bet)\b|\bwhich (?:one )?should i\b|\bwhich (?:one )?is (?:safer|riskier|better|a better (?:bet|buy|investment))\b/i;

/** The words of the question about each side, without the asking ("so should I buy … before the …"). */
export function sidesText(question: string): string[] {
  return question
    .replace(new RegExp(LINK_ASKED.source, 'gi'), ' | ')
    .replace(new RegExp(ADVICE_ASKED.source, 'gi'), ' | ')
    .split(/\||,|;|\bor\b|\bvs\.?\b|\bversus\b|\band\b|\bbefore\b|\bif\b|\bwhat\b/i)
    .map((s) => s.trim())
    .filter((s) => /[a-z]{3,}/i.test(s));
}

export interface Side {
  /** "Apple Inc. (AAPL)", "Fed decision in December 2026?". */
  name: string;
  /** Where its figures come from: "SEC filings", "Kalshi". */
  source: string;
  answer: Answer;
}

/** What a company's answer from its filings says first: its lead paragraph, and the table under it if it leads with one. */
export function leadOf(answer: Answer): Answer {
  // (Its name leads the side already: "**Apple Inc. (AAPL)**: net margin …" is said from "net margin".)
  // (So is a table's: "Apple Inc. (AAPL):" above it.)
  const paragraphs = answer.text.trim().replace(/^\*\*[^*]+\([A-Z.-]{1,6}\)\*\*:\s+/, '').split(/\n{2,}/).filter((p) => !/^_?Data:/.test(p) && !/^[^\n|]+\([A-Z.-]{1,6}\):$/.test(p));
  const end = paragraphs.findIndex((p) => /\[\d+\]/.test(p));
  return cited(paragraphs.slice(0, end === -1 ? 1 : Math.min(end + 1, 2)).join('\n\n'), answer.citations);
}

/**
 * The sides' facts under a plain statement that nothing read links them, after a no-advice line
 * where a buy or sell is asked.
 */
export function linkedAnswer(question: string, sides: Side[]): Answer {
  const advice = ADVICE_ASKED.test(question) ? 'I do not give investment advice (whether to buy or sell is yours to weigh, ideally with an adviser), and n' : 'N';
  const markets = sides.filter((s) => s.source === 'Kalshi');
  const companies = sides.filter((s) => s.source !== 'Kalshi');
  // (Of interest rates, what no model says is how rates reach the company's results, through its debt or otherwise.)
  const rates = companies.length && RATES_ASKED.test(question);
  const ratesLink = `no model here links interest rates to ${companies.length > 1 ? 'their' : 'its'} results (what higher rates would cost ${companies.length > 1 ? 'them' : 'it'} depends on terms the figures here do not give: whether the debt pays a fixed or floating rate, when it matures, what cash earns), and I have no stock prices, only ${markets.length ? "each side's" : 'the filings\''} own figures`;
  const link =
    companies.length && !markets.length
      ? `othing I read links interest rates to ${listed(companies.map((c) => c.name))}: ${ratesLink}`
      : companies.length && markets.length
      ? `othing I read links ${listed(markets.map((m) => `“${m.name}”`))} to ${listed(companies.map((c) => c.name))}: ${rates ? ratesLink : "I have no model of how an event's outcome moves a company's results or its share price (no causal or conditional model), and no stock prices, only each side's own figures"}`
      : `othing I read links these events: each is priced on its own, and I have no model of how one outcome changes the other's chances (no conditional prices or causal model), only each market's own figures`;
  const parts = sides.map((s) => ({ head: `**${s.name.replace(/[*_]/g, '')}** (${s.source}):`, answer: s.answer }));
  let text = `${advice}${link}.\n`;
  const citations: Citation[] = [];
  for (const p of parts) {
    const offset = citations.length;
    const body = p.answer.text.trim().replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
    // (A table starts on a line of its own.)
    text += `\n${p.head}${body.startsWith('|') ? '\n\n' : ' '}${body}\n`;
    citations.push(...p.answer.citations.map((c) => ({ ...c, order: c.order + offset })));
  }
  return { text, citations };
}

/**
 * A company's figures asked one after another ("long-term debt", then "interest expense"), their
 * leads in one side: each sentence after the first, its citations numbered on. A figure the filings
 * lack ("… has no interest expense figure, so I cannot give it. Figures I can give …") is said in its
 * first sentence.
 */
export function leadsJoined(answers: Answer[]): Answer {
  let text = '';
  const citations: Citation[] = [];
  for (const a of answers) {
    const lead = leadOf(a);
    const said = /\[\d+\]/.test(lead.text) ? lead.text.trim() : (/^.+?(?<!\b(?:Inc|Corp|Co|Ltd))\.(?=\s+[A-Z]|$)/.exec(lead.text.trim().replace(/\s+\([A-Z.-]{1,6}\)/g, ''))?.[0] ?? lead.text.trim());
    // (A company the snapshot lacks says so once, not once a figure.)
    if (text.includes(said)) continue;
    const offset = citations.length;
    const body = said.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
    // (A table stands apart from the sentences beside it.)
    const apart = /\|\s*$/.test(text) || body.startsWith('|');
    text += `${text ? (apart ? '\n\n' : ' ') : ''}${text ? body.replace(/^[a-z]/, (c) => c.toUpperCase()) : body}`;
    citations.push(...lead.citations.map((c) => ({ ...c, order: c.order + offset })));
  }
  return { text, citations };
}

const listed = (xs: string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** "What does 58% mean here, is that likely?": a chance said in the thread, asked what it means. */
export const PERCENT_MEANING = /\bwhat (?:does|do|would) (?:a |an |the |that |this )?(\d{1,2}(?:\.\d)?)\s*(?:%|percent)(?: chance| probability| price)? (?:mean|tell)\b|\b(?:is|are) (\d{1,2}(?:\.\d)?)\s*(?:%|percent) (?:likely|a lot|high|low|good)\b/i;

/** How a chance reads in words. */
const chanceWords = (p: number) => (p < 10 ? 'very unlikely' : p < 45 ? 'less likely than not' : p <= 55 ? 'about even, a coin flip' : p < 85 ? 'more likely than not' : 'very likely');

/** "What does above 3.0 mean?", "what does 'Hold' mean here?": an outcome of the event discussed, asked what it means. */
export const OUTCOME_MEANING = /\bwhat (?:does|do|would) (?:the |a |an |that |this )?["“'‘]?([^?"”’]{1,40}?)["”'’]? (?:mean|stand for)\b/i;

/**
 * A chance ("58%") or an outcome ("above 3.0") of the event discussed, asked what it means: what
 * its contract pays, what its price says in words, and the model's chance beside it; null when the
 * question names no one outcome of it.
 */
export function percentMeant(question: string, sheet: ReportRead): Answer | null {
  const rows = readReport(sheet.text).rows;
  const m = PERCENT_MEANING.exec(question);
  const said = m ? Number(m[1] ?? m[2]) : null;
  const named = said === null ? outcomesNamed(OUTCOME_MEANING.exec(question)?.[1] ?? '', sheet) : [];
  const row = said !== null ? rows.reduce<Row | null>((best, r) => (Math.abs(r.marketValue - said) < 1 && (!best || Math.abs(r.marketValue - said) < Math.abs(best.marketValue - said)) ? r : best), null) : named.length === 1 ? named[0]! : null;
  if (!row) return null;
  const { name, refs } = outcomeOf(row.outcome);
  const p = Math.round(row.marketValue);
  const model = Number.isFinite(row.modelValue) ? `; the svc model, which also weighs how past events of the series resolved, says ${percent(row.modelValue)}` : '';
  const lead = said !== null ? `${m![1] ?? m![2]}% is the market's price for “${name}” on **${sheet.title.replace(/[*_]/g, '')}**: a contract paying $1 if it happens costs about ${p}¢` : `“${name}” is one outcome of **${sheet.title.replace(/[*_]/g, '')}**, a contract that pays $1 if the result is ${name.toLowerCase()} (as the event's rules define it) and nothing otherwise; it trades at about ${p}¢`;
  return cited(`${lead}, so traders see it as ${chanceWords(p)}, about ${p} in 100${model} ${refs}. It is a price, not a certainty: outcomes at ${p}% fail to happen about ${100 - p} times in 100.\n`, sheet.citations);
}

/** A market's words ("what do traders expect?", "the odds", "priced"): a question for the exchange, not the filings. */
export const MARKET_WORDS = /\b(?:traders?|markets?|odds|bet(?:s|ting)?|chances?|probabilit(?:y|ies)|priced?|pricing|kalshi|prediction)\b/i;

/** A company judged as an investment ("is Tesla a good company?", "should I buy tesla?"). */
export const JUDGED = /\b(?:good|bad|great|solid|safe|smart|strong) (?:company|stock|investment|buy|business|pick)\b|\bshould (?:i|we) (?:buy|invest in|sell)\b|\bworth (?:buying|investing in)\b/i;

/** A company judged that the snapshot does not have: no advice, and which companies it has. */
export function notCoveredAnswer(name: string, coverage: string): Answer {
  const covered = coverage.trim().split(/\n{2,}/)[0]!.replace(/^This snapshot of SEC data has figures for/, 'The snapshot has figures for');
  return { text: `I do not give investment advice, so I cannot say whether to put money into ${name}, and I have no figures to judge it by either: ${name} is not among the companies in this snapshot of SEC data. ${covered}\n`, citations: [] };
}
