import type { KalshiClient } from '../../data/kalshi/client.js';
import { parseEventUrl, tickerAddress } from '../../data/kalshi/url.js';
import type { Report, ReportStore } from '../../reports/store.js';
import { closingAcross, moversAcross } from '../markets-search/across-listed.js';
import type { OpenEventsIndex } from '../markets-search/index.js';
import { credits } from '../markets-search/agent.js';
import type { Answer, Citation, Turn } from '../types.js';
import { WRONG } from '../figures-doubted.js';
import { acrossEvents } from './across-events.js';
import { discussedEvent, eventsAddressed, eventsOf, groupOf } from './classify.js';
import { SIZING, answerFromReport, eventQuestion, outcomesNamed, type ReportRead } from './event-questions.js';
import { threadEventsNamed, threadReports } from './follow-gaps.js';
import { joinParts } from './parts.js';
import { changedText, spreadShareText, timingText, wrongText } from './report-facts.js';
import { feesText, locksOf, locksSideBySide, setsText, stepsText } from './report-locks.js';
import { cited, dollars, money, outcomeOf, readReport } from './report-rows.js';
import { rankedTrades, tradeSaid } from './trading-answers.js';

// Questions about the stored reports as a set ("which of my reports has the widest spreads?"), about
// the several events a thread compared ("size both with half-Kelly", "which resolves first?"), and
// about one report beyond its table ("what would make you wrong?", "what changed since the report?",
// "how do I lock that in, step by step?"). Each is answered from the reports, or not at all (null).

export interface ReportThreadsOptions {
  reports: ReportStore;
  index: OpenEventsIndex;
  kalshi: KalshiClient;
  /** Credits a generated report costs, said where one is offered. */
  reportCost: number;
  /** An event's live quotes in a report's shape; null when it cannot be read. */
  liveSheet: (ticker: string) => Promise<ReportRead | null>;
}

/** An answer, or the event (and the question to ask of it) the question is about. */
export type ThreadReply = { answer: Answer } | { url: string; question: string; aboutEvent: boolean };

const LIST_REPORTS = /\b(?:what|which) reports (?:do (?:i|we|you) have|are (?:stored|saved|there|available)|have (?:i|we) (?:generated|run|made|bought))\b|\blist (?:all )?(?:my|the|our) (?:stored |saved )?reports\b|\b(?:show|list) (?:me )?(?:all )?my reports\b/i;
const TRADED_MOST = /\b(?:volume|traded|liquid\w*|open interest|busiest|most active)\b/i;
const MOVED_MOST = /\b(?:moved|moving|moves|movers?|swung|changed)\b/i;
const MY_REPORTS = /\b(?:across|among|in|of|over)\s+(?:all\s+)?(?:the\s+)?(?:stored\s+|saved\s+)?reports\b|^\W*which (?:of the )?reports? (?:has|have|is|are|shows?|gives?|offers?|looks?)\b|\b(?:my|our|the stored|stored|saved)\s+(?:(?:\d+|two|three|four|five|six)\s+)?reports\b|\b(?:all|each|every|any|across|among)\s+(?:of\s+)?(?:my|our|the)\s+(?:(?:\d+|two|three|four|five|six)\s+)?reports\b/i;
const PER_DOLLAR = /\bper (?:dollar|\$1?(?!\d)|buck)\b|\b(?:return|edge|ev|value) on (?:the )?(?:stake|capital|money)\b|\bbang for (?:the|your) buck\b/i;
const SPREADS = /\bspreads?\b/i;
const TIGHTEST = /\b(?:tight\w*|narrow\w*|smallest|lowest|cheapest to trade)\b/i;
export { WRONG };
const SINCE_REPORT = /\b(?:changed?|moved?|different|new|happened|updates?)\b[^?]{0,30}\bsince (?:the|your|this|that|my|its|it was|you)\b[^?]{0,12}\b(?:report|snapshot|analysis|generated|written|ran)\b|\bis (?:the|this|that) report (?:still )?(?:current|up to date|fresh|stale)\b/i;
const ENTRY_TIMING = /^\W*(?:(?:and|ok|so)\s+)?(?:what about\s+)?(?:the\s+)?(?:timing|entry timing)\W*$|\bwhen (?:should|do|would|could|to) (?:i|we)?\s*(?:enter|buy|get in|trade|bet|place|put it on|take (?:it|the trade))\b|\b(?:enter|buy|get in|trade|bet)\b[^?]{0,25}\bnow or (?:later|wait|closer|nearer|after|before|at)\b|\bnow or (?:closer|nearer|later|wait)\b|\bwait or (?:buy|enter|get in|trade)\b|\b(?:buy|enter|get in|trade) now or wait\b|\bbest time to (?:enter|buy|get in|trade)\b/i;
const WHICH_FIRST = /\bwhich\b[^?]{0,30}\b(?:resolves?|settles?|closes?|ends?|expires?|is decided|finish(?:es)?)\s+(?:first|sooner|earlier|soonest|next|last|later)\b|\bwhat(?:'s| is) the timing\b|\bin what order\b[^?]{0,30}\b(?:resolve|settle|close)/i;
const CORRELATED = /^\W*(?:(?:so|and|ok|okay|but)\W+)*(?:are|is|do|does|how)\b[^?]{0,60}\b(?:correlated|correlation|linked|connected|move together)\b/i;
const RESOLVES_CASE = /^\W*(?:(?:and|but|ok|so)\W+)?(?:what )?(?:if|when) (?:it|that|this|they|the market|the outcome) (?:resolves?|settles?|ends?|comes in|goes|closes)\s+(yes|no)\W*$/i;
const SIDE_SWAP = /^\W*(?:(?:and|ok|so|now)\W+)?(?:what about |how about |same for |and for )?(?:buying\s+)?(yes|no)\s+(?:on\s+)?(.{2,40}?)\W*$/i;
// (Words apart by at most 200 characters: an unbounded gap is tried from every "%" of a long paste, quadratic in its length.)
const SPREAD_SHARE = /\bspread\b[^?]{0,200}\b(?:percent(?:age)?|%|relative|of the (?:mid|price))|\b(?:percent(?:age)?|%)[^?]{0,200}\bspread\b/i;
const LOCK_STEPS = /\bstep[- ]by[- ]step\b|\bwalk me through\b|\bhow (?:do|can|would|should) (?:i|we|you|one) (?:lock|do|execute|trade|put on|set up|capture|exploit|play|take advantage of)\b|\bhow to (?:lock|execute|trade|capture|exploit|play)\b/i;
const SETS_ASKED = /\bhow (?:many|much)\b[^?]{0,40}\b(?:at|on) (?:the )?(?:best|those|these|quoted|current) (?:prices?|quotes?)\b|\bprofit per (?:set|pair)\b|\bhow many (?:sets?|pairs?)\b/i;
const LOCK_WORDS = /\barb(?:itrage)?s?\b|\block(?:ed)?[- ]in\b|\bcross(?:ed|es|ing)?\b|\bout of order\b|\b(?:sets?|pairs?)\b/i;
/** An answer that gave a lock-in (an arbitrage, its steps or sets, a crossed ladder's pair). */
const LOCK_ANSWER = /^Yes, on the (?:report's|live) quotes|^To lock in the |\block(?:ed)? in per (?:pair|set)|\bprofit per (?:pair|set)\b|\*\*Arbitrage on these quotes:\*\*/m;
const OVERALL = /\b(?:add|adds|added|sum|sums|summed|total|totals)\b[^?]{0,25}\b(?:more than|over|above|less than|under|below)\s*100\s*%|\bmispriced overall\b|\boverall\b[^?]{0,20}\bmispriced\b/i;
/** The thread's report asked for whole: "give me the full report", "show me the report". */
const WHOLE_REPORT = /^\W*(?:(?:ok|okay|so|now|then|pls|please)\W+)*(?:can you |could you )?(?:show|give|send|get|pull up|open|display|let me see)(?: me)? (?:the|its|that|this)\s+(?:full |whole |complete |entire )?report(?: again)?(?:,? please| pls)?\W*$/i;
const SHOW_REPORT = /\b(?:show|give|send|get|pull up|open|see|display|let me see|read)\b[^?]{0,15}\breport\b|\breport (?:on|for|about)\b/i;
/** A report's subject: the words before "report" ("the shutdown report") or after "report on" ("a report on the NYC temperature market"). */
const REPORT_OF = /\b(?:the|a|my|your)\s+((?:[\w$.'-]+\s+){1,3}?)report\b|\breport\s+(?:on|for|about)\s+([^?.!,;:]{2,60})/i;
/** A trade asked for ("best trade", "EV"), not the largest gap. */
const tradeAsked = (question: string) => eventQuestion(question) === 'best_trade' || /\b(?:ev|expected value|(?:best|better) (?:trade|bet|buy))\b/i.test(question);
/** Several events at once: "both", "each", "them". */
const SEVERAL = /\b(?:both|each|either|them|those|these|all (?:of )?(?:them|those|these|the (?:events|markets|reports))|which (?:of|one))\b/i;

const STOP = new Set(['the', 'and', 'for', 'what', 'whats', 'would', 'could', 'make', 'makes', 'you', 'wrong', 'call', 'view', 'model', 'report', 'reports', 'market', 'markets', 'event', 'events', 'on', 'about', 'with', 'this', 'that', 'show', 'give', 'me', 'in', 'my', 'how', 'do', 'trade', 'is', 'are', 'prices', 'price', 'cross', 'over', 'above', 'below', 'under', 'crossed', 'worth', 'it', 'vs', 'versus']);

/** A part of an answer joined with others under its event's title, citing only what its text does. */
function partOf(report: ReportRead, answer: { text: string; citations: readonly Citation[] }) {
  const own = cited(answer.text, answer.citations);
  return { question: report.title.replace(/[*_]/g, ''), text: own.text, citations: own.citations, error: null };
}

/** Parts under their titles, every paragraph kept (an arbitrage's "Yes, on the report's quotes:" leads its own part), citations renumbered in order. */
function underTitles(parts: { question: string; text: string; citations: readonly Citation[] }[]): Answer {
  const citations: Citation[] = [];
  const sections = parts.map((p) => {
    const offset = citations.length;
    citations.push(...p.citations.map((c) => ({ ...c, order: c.order + offset })));
    return `### ${p.question}\n\n${p.text.trim().replace(/\[(\d+)\]/g, (m, n: string) => (p.citations.some((c) => c.order === Number(n)) ? `[${Number(n) + offset}]` : m))}`;
  });
  return { text: `${sections.join('\n\n')}\n`, citations };
}

/** "+$0.067", "−$2.12": small amounts to the tenth of a cent. */
const signed = (x: number) => `${x >= 0 ? '+' : '−'}$${Math.abs(x).toFixed(Math.abs(x) < 0.1 ? 3 : 2)}`;

export function reportThreads(o: ReportThreadsOptions) {
  const pageOf = (report: ReportRead, ticker: string): string => report.citations.find((c) => /^https:\/\/kalshi\.com\/markets\//.test(c.url))?.url.split('#')[0] ?? tickerAddress(ticker) ?? `https://kalshi.com/markets/${ticker.toLowerCase()}`;

  /** The open events with a stored report, in the board's order. */
  async function storedReports(): Promise<{ ticker: string; report: Report }[]> {
    const every = (await o.index.get()).everyEvent(40).map((x) => x.event.event_ticker);
    const read = await Promise.all(every.map(async (ticker) => ({ ticker, report: await o.reports.latest(ticker) })));
    return read.filter((x): x is { ticker: string; report: Report } => x.report !== null);
  }

  /** The one open event a text names ("the Fed call", "the NYC temperature market"), by its words or, failing that, one word of them. */
  async function eventNamed(text: string): Promise<string | null> {
    const search = await o.index.get();
    const whole = search.search(text, 1)[0];
    if (whole && whole.missing.length === 0) return whole.entry.event.event_ticker;
    const words = (text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []).filter((w) => !STOP.has(w));
    const hits = new Set(words.flatMap((w) => search.search(w, 1).filter((h) => h.missing.length === 0).map((h) => h.entry.event.event_ticker)));
    return hits.size === 1 ? [...hits][0]! : null;
  }

  /** The stored reports of these events, each with its ticker. */
  async function reportsOfTickers(tickers: readonly string[]): Promise<{ ticker: string; report: ReportRead }[]> {
    const read = await Promise.all(tickers.map(async (ticker) => ({ ticker, report: await o.reports.latest(ticker) })));
    return read.flatMap((x) => (x.report ? [{ ticker: x.ticker, report: { ...x.report, eventTicker: x.ticker } as ReportRead }] : []));
  }

  /** The events a question lists as reports ("the Fed, CPI and payrolls reports"), when it lists two or more. */
  async function reportsNamed(question: string): Promise<string[]> {
    // "Compare the CPI report with the payrolls report": each named beside its own "report".
    const each = [...question.matchAll(new RegExp(REPORT_OF.source, 'gi'))];
    if (each.length > 1) {
      const named = [...new Set((await Promise.all(each.map((m) => reportOf(m[0])))).filter((t): t is string => t !== null))];
      if (named.length > 1) return named;
    }
    const before = /^(.*?)\breports\b/i.exec(question)?.[1];
    if (!before || MY_REPORTS.test(question)) return [];
    const clause = (before.split(/[.?!:;]/).pop() ?? '').replace(/^\s*(?:(?:now|ok|so|please|pls)\s+)*(?:compare|rank|weigh|show|give me|check|look at|across|between|of)?\s*(?:the|both|my)?\s*/i, '');
    const chunks = clause.split(/,|\band\b|\bor\b|&|\bvs\.?|\bversus\b/i).map((c) => c.trim()).filter(Boolean);
    if (chunks.length < 2) return [];
    const named = [...new Set((await o.index.get()).named(chunks).map((n) => n.ticker))];
    return named.length === chunks.length ? named : [];
  }

  /** The stored reports, each with its title and time. */
  function listed(found: { ticker: string; report: Report }[]): Answer {
    const citations: Citation[] = [];
    const lines = found.map(({ ticker, report }, i) => {
      citations.push({ order: i + 1, name: `Kalshi: ${report.title}`, url: pageOf(report, ticker) });
      return `${i + 1}. **${report.title.replace(/[*_]/g, '')}** (${ticker}) [${i + 1}]: as of ${report.asOf.slice(0, 16).replace('T', ' ')} UTC`;
    });
    return { text: `${found.length} ${found.length === 1 ? 'report is' : 'reports are'} stored, free to read here or from \`svc-prediction-markets-agent:cache\`:\n\n${lines.join('\n')}\n\nAsk across them (“which of my reports has the best expected value per dollar?”) or of one (“show me the ${found[0]!.report.title.split(/\s+/)[0]!.toLowerCase()} report”).\n`, citations };
  }

  /** The event a question names as a report's subject: "the shutdown report", "a report on the NYC temperature market". */
  async function reportOf(question: string): Promise<string | null> {
    if (MY_REPORTS.test(question)) return null;
    const said = REPORT_OF.exec(question);
    const subject = (said?.[1] ?? said?.[2] ?? '').replace(/\b(?:the|a|an|my|your|this|that|full|whole|latest|stored|market|event|kalshi)\b/gi, ' ').trim();
    return subject ? eventNamed(subject) : null;
  }

  /** The events the thread last weighed together: those of the latest of the last answers that has several. */
  function eventsWeighed(before: readonly Turn[]): string[] {
    const answers = before.filter((t) => t.role === 'assistant').slice(-4).reverse();
    return answers.map((t) => eventsOf(t.content)).find((e) => e.length > 1) ?? [];
  }

  /** Each report's spreads, the widest first. */
  function spreadsAcross(found: { ticker: string; report: ReportRead }[], tightest = false): Answer {
    const citations: Citation[] = [];
    const ranked = found
      .map(({ ticker, report }) => {
        const { rows, contracts } = readReport(report.text);
        const spreads = rows.flatMap((r) => {
          const c = contracts.get(outcomeOf(r.outcome).refs);
          const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
          return bid !== null && ask !== null ? [{ name: outcomeOf(r.outcome).name, spread: Math.round((ask - bid) * 100) }] : [];
        });
        return { ticker, report, spreads, widest: Math.max(...spreads.map((s) => s.spread)), mean: spreads.reduce((a, s) => a + s.spread, 0) / (spreads.length || 1) };
      })
      .filter((x) => x.spreads.length)
      .sort((a, b) => (tightest ? a.widest - b.widest || a.mean - b.mean : b.widest - a.widest || b.mean - a.mean));
    const lines = ranked.map((x, i) => {
      citations.push({ order: i + 1, name: `Kalshi: ${x.report.title}`, url: pageOf(x.report, x.ticker) });
      const widest = x.spreads.filter((s) => s.spread === x.widest).map((s) => s.name);
      return `${i + 1}. **${x.report.title.replace(/[*_]/g, '')}** (${x.ticker}) [${i + 1}]: widest **${x.widest}¢** (${widest.join(', ')}), ${x.mean.toFixed(1)}¢ on average over ${x.spreads.length} contract${x.spreads.length === 1 ? '' : 's'}: ${x.spreads.map((s) => `${s.name} ${s.spread}¢`).join('; ')}`;
    });
    if (!lines.length) return { text: 'None of the stored reports shows a bid and an ask to measure a spread on.\n', citations: [] };
    return { text: `The bid-ask spreads in each of the ${ranked.length} stored reports, the ${tightest ? 'tightest' : 'widest'} first (each as of its report's time):\n\n${lines.join('\n')}\n\nA spread is what buying at the ask and selling at the bid costs at once; an edge smaller than it is eaten by it.\n`, citations };
  }

  /** Each report's best trade by expected value per dollar staked (EV over the price paid), the best first. */
  function perDollarAcross(found: { ticker: string; report: ReportRead }[]): Answer {
    const citations: Citation[] = [];
    const ranked = found
      .flatMap(({ ticker, report }) => {
        const { rows, contracts } = readReport(report.text);
        const best = rankedTrades(rows, contracts).sort((a, b) => b.ev / b.paid - a.ev / a.paid)[0];
        return best ? [{ ticker, report, best, perDollar: best.ev / best.paid }] : [];
      })
      .sort((a, b) => b.perDollar - a.perDollar);
    const lines = ranked.map((x, i) => {
      citations.push({ order: i + 1, name: `Kalshi: ${x.report.title}`, url: pageOf(x.report, x.ticker) });
      return `${i + 1}. **${x.report.title.replace(/[*_]/g, '')}** (${x.ticker}) [${i + 1}]: ${tradeSaid(x.best).replace(/\s*(?:\[\d+\])+$/, '')}, so **${signed(x.perDollar)} per $1 staked** (${x.perDollar >= 0 ? '+' : '−'}${Math.abs(100 * x.perDollar).toFixed(1)}%)${x.perDollar <= 0 ? ': no contract has a positive expected value there' : ''}`;
    });
    if (!lines.length) return { text: 'None of these reports has a quoted trade to value.\n', citations: [] };
    const top = ranked[0]!;
    const head = top.perDollar > 0 ? `By expected value per dollar staked, the best is in **${top.report.title.replace(/[*_]/g, '')}** [1]: ${top.best.side} on ${outcomeOf(top.best.r.outcome).name} at $${top.best.paid.toFixed(2)}, ${signed(top.perDollar)} per $1 staked.` : 'No report has a trade with a positive expected value on its model.';
    return { text: `${head}\n\nEach report's best trade per dollar staked (the expected value of a $1 contract divided by its price), the best first:\n\n${lines.join('\n')}\n\nA cheap contract turns a small edge into a large one per dollar, and loses its whole price more often. On each report's quotes, as of its time, before fees; the model's arithmetic, not investment advice.\n`, citations };
  }

  /** Each event's stake at the sizing asked (Kelly, a bankroll), on its best trade; $0 where no trade has a positive EV. */
  function sizedAcross(question: string, found: { ticker: string; report: ReportRead }[]): Answer {
    const parts = found.map(({ report }) => {
      const { rows, contracts } = readReport(report.text);
      const best = rankedTrades(rows, contracts)[0];
      if (!best || best.ev <= 0) {
        return partOf(report, { text: `**$0**: no contract has a positive expected value on the model at the report's prices${best ? `; the best is ${tradeSaid(best)}` : ''}, so Kelly stakes nothing.`, citations: report.citations });
      }
      const sized = answerFromReport(`${question.replace(/\b(?:both|each|all|every|them|those|these)\b/gi, ' ')} (${best.side} on ${outcomeOf(best.r.outcome).name})`, report);
      return partOf(report, sized ?? { text: `The best trade is ${tradeSaid(best)}.`, citations: report.citations });
    });
    return joinParts(parts);
  }

  /** What the reports say about how and when each event resolves, with no correlation figure (none is estimated). */
  function correlationAcross(found: { ticker: string; report: ReportRead }[]): Answer {
    const parts = found.map(({ report }) => {
      const body = [...readReport(report.text).sections.entries()].find(([h]) => h.startsWith('key claims'))?.[1] ?? '';
      const rules = body.split('\n').filter((l) => /^- \*\*(?:Trading closes|How it resolves|Resolution source|Could flip the outcome)/.test(l));
      return partOf(report, { text: rules.join('\n') || 'Its report quotes no rules.', citations: report.citations });
    });
    const joined = joinParts(parts);
    const titles = found.map((f) => `**${f.report.title.replace(/[*_]/g, '')}**`).join(' and ');
    const head = `Nothing I read estimates how ${titles} move together: each report models its own event alone, from its own prices and record, so there is no correlation figure to give, and none is assumed here. What the rules say about how and when each resolves, which is where one event can touch the other (a delayed release, its resolution source):`;
    const tail = 'What cannot be known from this data: whether one event will happen before or because of the other, or how their prices would move together; the rules above only say how each settles if it does.';
    return { text: `${head}\n\n${joined.text.trim()}\n\n${tail}\n`, citations: joined.citations };
  }

  /** "And if it resolves NO?" after a position's P&L: what the position pays then. */
  function resolvedCase(lastAnswer: string, outcome: 'YES' | 'NO'): Answer | null {
    const held = /(\d[\d,]*) (YES|NO) contracts at \$(\d+(?:\.\d+)?) cost \$([\d,]+(?:\.\d+)?)/.exec(lastAnswer);
    if (!held) return null;
    const [n, side, price] = [Number(held[1]!.replace(/,/g, '')), held[2]!, Number(held[3])];
    const paid = n * price;
    const name = /\*\*([^*\n]+)\*\*/.exec(lastAnswer)?.[1];
    const on = name ? ` on **${name}**` : '';
    const text =
      side === outcome
        ? `If it resolves ${outcome}, the ${n.toLocaleString('en-US')} ${side} contracts${on} pay $1 each: **$${money(n)}** for the $${money(paid)} paid, a profit of **$${money(n - paid)}** before fees.`
        : `If it resolves ${outcome}, the ${n.toLocaleString('en-US')} ${side} contracts${on} pay nothing: you lose the **$${money(paid)}** paid (${n.toLocaleString('en-US')} × $${price.toFixed(2)}), before fees. That is the most the position can lose.`;
    return { text: `${text}\n`, citations: [] };
  }

  /** "And YES on Hike 25bps?" after a trade's question on another side or outcome: that question again, of this side and outcome. */
  function swapped(question: string, before: readonly Turn[], report: ReportRead): string | null {
    const said = SIDE_SWAP.exec(question);
    const asked = [...before].reverse().find((t) => t.role === 'user')?.content;
    if (!said || !asked || !['quote', 'best_trade'].includes(eventQuestion(asked) ?? '') || !/\b(?:yes|no)\b/i.test(asked)) return null;
    const named = outcomesNamed(said[2]!, report);
    if (named.length !== 1) return null;
    const was = outcomesNamed(asked, report);
    let again = asked.replace(/\b(?:yes|no)\b/gi, said[1]!.toUpperCase());
    for (const r of was) again = again.replace(new RegExp(outcomeOf(r.outcome).name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), outcomeOf(named[0]!.outcome).name);
    return was.length ? again : `${again.replace(/[?.!\s]+$/, '')} (${outcomeOf(named[0]!.outcome).name})?`;
  }

  /** "How do I lock that in?" where the quotes lock nothing in: the arbitrage check, which says why. */
  const noLock = (sheet: ReportRead): Answer => answerFromReport('is there an arbitrage?', sheet) ?? { text: 'These quotes lock nothing in.\n', citations: [] };

  /** Of an event with no stored report: its live quotes' lock-ins, and that there is no model to be wrong yet. */
  async function unreported(question: string, ticker: string, aboutLocks: boolean): Promise<ThreadReply | null> {
    const asksLock = (LOCK_STEPS.test(question) || (SETS_ASKED.test(question) && !/\d/.test(question))) && aboutLocks;
    if (!asksLock && !WRONG.test(question)) return null;
    const sheet = await o.liveSheet(ticker).catch(() => null);
    if (!sheet) return null;
    if (asksLock) return { answer: (LOCK_STEPS.test(question) ? stepsText(sheet) : setsText(sheet)) ?? noLock(sheet) };
    const title = sheet.title.replace(/[*_]/g, '');
    return { answer: { text: `No report is stored for **${title}** (${ticker}), so there is no model view to be wrong about yet: its live prices are the market's alone. \`svc-prediction-markets-agent\` generates one (${credits(o.reportCost)}), with the model's fit on the series' record, the base rates it weighs against the price and the rules that could flip the outcome; "what would make you wrong?" then answers from it.\n`, citations: [] } };
  }

  /** Questions of one event's report (named, or the thread's). */
  async function ofOne(before: readonly Turn[], question: string, url: string, named: boolean): Promise<ThreadReply | null> {
    const ticker = parseEventUrl(url).eventTicker;
    const report = await o.reports.latest(ticker);
    const lastAnswer = [...before].reverse().find((t) => t.role === 'assistant')?.content ?? '';
    const aboutLocks = LOCK_WORDS.test(question) || LOCK_ANSWER.test(lastAnswer);
    if (!report) return unreported(question, ticker, aboutLocks);
    const sheet: ReportRead = { ...report, eventTicker: ticker };
    const caseAsked = RESOLVES_CASE.exec(question);
    if (caseAsked) {
      const answer = resolvedCase(lastAnswer, caseAsked[1]!.toUpperCase() as 'YES' | 'NO');
      if (answer) return { answer };
    }
    const again = swapped(question, before, sheet);
    if (again) return { url, question: again, aboutEvent: true };
    if (SPREAD_SHARE.test(question)) {
      const rows = outcomesNamed(question, sheet);
      const answer = spreadShareText(sheet, rows.length ? rows : readReport(sheet.text).rows);
      if (answer) return { answer };
    }
    if (WRONG.test(question)) return { answer: wrongText(sheet) };
    if (SINCE_REPORT.test(question)) return { answer: changedText(report, await o.liveSheet(ticker).catch(() => null)) };
    if (ENTRY_TIMING.test(question)) return { answer: timingText(sheet) };
    // "What are fees going to do to that 5 cents?" after a lock-in: what they must stay under.
    // ("Does that account for fees?" is a yes or no, answered as such elsewhere.)
    // ("Is the arb real after fees?" asks it of the lock-in, whatever came before.)
    const arbAsked = /\b(?:arb(?:itrage)?s?|risk[- ]?free|lock(?:ed)?[- ]ins?|locked in|free money)\b/i.test(question);
    if (/\bfees?\b/i.test(question) && ((!/^\W*(?:does|do|did|is|are|was|were)\b/i.test(question) && LOCK_ANSWER.test(lastAnswer)) || arbAsked)) {
      const fees = feesText(sheet);
      if (fees) return { answer: fees };
    }
    if (LOCK_STEPS.test(question) && aboutLocks) return { answer: stepsText(sheet) ?? noLock(sheet) };
    // ("… the locked profit on 100?": a count of one's own is the arbitrage answer's.)
    if (SETS_ASKED.test(question) && !/\d/.test(question) && aboutLocks && locksOf(sheet).length) return { answer: setsText(sheet)! };
    if (OVERALL.test(question)) {
      const overround = answerFromReport('what is the overround?', sheet);
      const locks = setsText(sheet);
      if (overround) return { answer: locks ? joinParts([{ question: 'The sum of the prices', ...overround, error: null }, { question: 'Locked in on these quotes', ...locks, error: null }]) : overround };
    }
    // "Show me the shutdown report", "in the CPI report, …": that report, or the part of it asked.
    if (named) {
      const rest = question.replace(new RegExp(`(?:\\b(?:in|on|from|per|of|for|according to)\\s+)?(?:${REPORT_OF.source})[,:]?`, 'i'), ' ').replace(/\s+/g, ' ').trim();
      return { url, question: rest, aboutEvent: eventQuestion(rest) !== null };
    }
    return null;
  }

  /** Across the stored reports: "which of my reports has the widest spreads?", "rank my four reports by edge per dollar". */
  async function acrossStored(question: string): Promise<Answer> {
    const found = await storedReports();
    if (!found.length) return { text: 'No report is stored yet: `svc-prediction-markets-agent` generates one from a Kalshi event address.\n', citations: [] };
    const tickers = found.map((f) => f.ticker);
    if (LIST_REPORTS.test(question)) return listed(found);
    if (TRADED_MOST.test(question) || (MOVED_MOST.test(question) && !SPREADS.test(question))) return moversAcross(o.kalshi, tickers, TRADED_MOST.test(question) ? 'volume' : 'move', found.length, /\bweek(?:ly)?\b|\b7 days\b/i.test(question));
    if (SPREADS.test(question)) return spreadsAcross(found, TIGHTEST.test(question));
    if (PER_DOLLAR.test(question)) return perDollarAcross(found);
    if (SIZING.test(question)) return sizedAcross(question, await reportsOfTickers(tickers));
    if (WHICH_FIRST.test(question)) return closingAcross(o.kalshi, tickers, /\b(?:last|later)\b/i.test(question));
    return acrossEvents(tickers, (t) => o.reports.latest(t), tradeAsked(question), o.reportCost, !tradeAsked(question) && eventQuestion(question) === 'model_favourite');
  }

  /** "Compare the Fed, CPI and payrolls reports: where is the biggest edge?": those events' reports, weighed. */
  async function acrossNamed(question: string, tickers: string[], group = 'events listed'): Promise<Answer> {
    if (PER_DOLLAR.test(question)) return perDollarAcross(await reportsOfTickers(tickers));
    if (SPREADS.test(question)) return spreadsAcross(await reportsOfTickers(tickers), TIGHTEST.test(question));
    return acrossEvents(tickers, (t) => o.reports.latest(t), tradeAsked(question), o.reportCost, !tradeAsked(question) && eventQuestion(question) === 'model_favourite', group);
  }

  /** Of the several events a thread weighed ("size both", "which resolves first?", "which of them has an arbitrage?"); null when the question is not of them all. */
  async function acrossWeighed(question: string, weighed: string[], group = 'events listed'): Promise<Answer | null> {
    if (PER_DOLLAR.test(question)) return perDollarAcross(await reportsOfTickers(weighed));
    if (SPREADS.test(question) && /\b(?:which|widest|wider|tightest|narrowest|rank|compare|each)\b/i.test(question)) return spreadsAcross(await reportsOfTickers(weighed), TIGHTEST.test(question));
    if (SIZING.test(question) && SEVERAL.test(question)) return sizedAcross(question, await reportsOfTickers(weighed));
    if (WHICH_FIRST.test(question)) return closingAcross(o.kalshi, weighed, /\b(?:last|later)\b/i.test(question), group);
    // "What would make you wrong on each of those?": each one's view, limits and what could flip it.
    if (WRONG.test(question) && SEVERAL.test(question)) {
      const found = await reportsOfTickers(weighed);
      if (found.length > 1) {
        const each = underTitles(found.map(({ report }) => partOf(report, wrongText(report, true))));
        return { text: `What would have to be true for the model to be wrong, from each report (the view at stake, the model's limits, what could flip the outcome):\n\n${each.text}`, citations: each.citations };
      }
    }
    if (CORRELATED.test(question)) {
      const found = await reportsOfTickers(weighed);
      if (found.length > 1) return correlationAcross(found);
    }
    // "Which of them has an arbitrage?": each one's, report or live quotes.
    if (eventQuestion(question) === 'arbitrage' && SEVERAL.test(question)) {
      const sheets = await Promise.all(weighed.map(async (t) => (await o.reports.latest(t).then((r) => (r ? ({ ...r, eventTicker: t } as ReportRead) : null))) ?? (await o.liveSheet(t).catch(() => null))));
      const parts = sheets.flatMap((s) => (s ? [partOf(s, answerFromReport('is there an arbitrage?', s) ?? { text: 'No quotes to check.', citations: [] })] : []));
      if (parts.length > 1) return underTitles(parts);
    }
    return null;
  }

  async function reply(before: readonly Turn[], question: string): Promise<ThreadReply | null> {
    if (MY_REPORTS.test(question) || LIST_REPORTS.test(question)) return { answer: await acrossStored(question) };
    const several = await reportsNamed(question);
    if (several.length > 1) return { answer: await acrossNamed(question, several) };
    // "Which is more mispriced, sea ice or spacex?": the thread's reported events it names, weighed.
    const inThread = ['gap', 'best_trade', 'model_favourite'].includes(eventQuestion(question) ?? '') || /\b(?:compare|which (?:is|one|of)|vs\.?|versus)\b/i.test(question) ? threadEventsNamed(question, (await threadReports(before, (t) => o.reports.latest(t))).filter((r) => before.some((t) => t.role === 'user' && eventsAddressed(t.content).some((e) => e.toUpperCase() === r.eventTicker.toUpperCase())))) : [];
    if (inThread.length > 1) return { answer: await acrossNamed(question, inThread.map((r) => r.eventTicker), groupOf(inThread.map((r) => r.eventTicker), before)) };
    const weighed = eventsWeighed(before);
    const across = weighed.length > 1 ? await acrossWeighed(question, weighed, groupOf(weighed, before)) : null;
    if (across) return { answer: across };
    // "Which resolves first, the Fed or CPI?": the events it names, by closing time.
    if (WHICH_FIRST.test(question) && weighed.length < 2) {
      const named = (await o.index.get()).named(question.replace(WHICH_FIRST, ' ').split(/,|;|\band\b|\bor\b|\bvs\.?|\bversus\b/i)).map((n) => n.ticker);
      if (new Set(named).size > 1) return { answer: await closingAcross(o.kalshi, [...new Set(named)], /\b(?:last|later)\b/i.test(question)) };
      // ("Which closes first?" naming none, in a thread of several events asked for by address: those events.)
      const addressed = [...new Set(before.filter((t) => t.role === 'user').flatMap((t) => eventsAddressed(t.content)).map((t) => t.toUpperCase()))];
      if (!named.length && addressed.length > 1) return { answer: await closingAcross(o.kalshi, addressed, /\b(?:last|later)\b/i.test(question), 'reports in this conversation') };
    }
    // The event meant: one named with "report" ("show me the shutdown report"), else the thread's.
    const reportNamed = await reportOf(question);
    const discussed = discussedEvent(before);
    // "Is that worth it vs the CPI crossed prices?": the thread's lock-in beside the one of the event named.
    if (discussed && LOCK_WORDS.test(question) && /\b(?:vs\.?|versus|compared? (?:to|with)|against|or)\b/i.test(question)) {
      const other = await eventNamed(question);
      const own = parseEventUrl(discussed).eventTicker;
      if (other && other !== own) {
        const sheets = (await reportsOfTickers([own, other])).map((x) => x.report);
        if (sheets.length === 2 && sheets.some((s) => locksOf(s).length)) return { answer: locksSideBySide(sheets) };
      }
    }
    if (reportNamed && (SHOW_REPORT.test(question) || (await o.reports.latest(reportNamed)))) {
      const url = tickerAddress(reportNamed)!;
      const answered = await ofOne(before, question, url, true);
      if (answered) return answered;
      // No report stored: the live summary, which says how one is generated.
      return { url, question, aboutEvent: false };
    }
    if (discussed && !reportNamed && WHOLE_REPORT.test(question) && (await o.reports.latest(parseEventUrl(discussed).eventTicker))) return { url: discussed, question, aboutEvent: false };
    // "What would make you wrong on the Fed call?", "is the Fed event mispriced overall?": the event it names, else the thread's.
    const beyondTable = [WRONG, SINCE_REPORT, ENTRY_TIMING, OVERALL, SPREAD_SHARE, LOCK_STEPS].filter((k) => k.test(question));
    if (beyondTable.length) {
      const named = await eventNamed(beyondTable.reduce((q, k) => q.replace(new RegExp(k.source, 'gi'), ' '), question));
      const url = named ? tickerAddress(named)! : discussed;
      if (url) return ofOne(before, question, url, false);
    }
    return discussed ? ofOne(before, question, discussed, false) : null;
  }

  return { reply };
}
