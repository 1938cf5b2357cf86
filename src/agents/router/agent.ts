import type { Logger } from 'pino';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { confirmEventAddress, eventPageUrl, parseEventUrl, tickerAddress } from '../../data/kalshi/url.js';
import type { ReportStore } from '../../reports/store.js';
import { classifyWithLlm, rewrite } from '../llm/writer.js';
import type { Llm } from '../llm/llm.js';
import { credits, liveEventLine, searchMarkets } from '../markets-search/agent.js';
import { PAYOUT_ASKED } from '../markets-search/distribution.js';
import { levelsAsked } from '../markets-search/asked.js';
import { withPositionSaid } from './hedge.js';
import { EXAMPLE_ASKED, exampleKind, glossaryAnswer, showsKind, termsAnswered, termsAsked } from './glossary.js';
import type { OpenEventsIndex } from '../markets-search/index.js';
import { MODEL_ASKED } from '../markets-search/search.js';
import { TEAM_RECORD, pastResults, settledEventResult, teamResults } from '../markets-search/past-results.js';
import { teamMentions } from '../markets-search/teams.js';
import { eventPage, liveSummary } from '../prediction-markets/summary.js';
import { cited, outcomeOf, readReport } from './report-rows.js';
import type { Agent, AgentEvent, AgentRequest, Answer, Citation, Turn, Usage } from '../types.js';
import { listed, quoteCaller } from '../citations.js';
import { askedAlike } from '../instructed.js';
import { isSvcError } from '../../errors.js';
import { KALSHI_URL, MOVERS_ASKED, classify, discussedEvent, eventsAddressed, eventsOf, groupOf, isGreeting, routedText, seriesPagesNamed, splitQuestion, tickersAddressed, type Route } from './classify.js';
import { feeSaid } from './fee-said.js';
import { PASSING, SIZING, answerFromReport, changesTrade, eventQuestion, outcomesNamed, type EventQuestion } from './event-questions.js';
import { liveSheet, togetherAnswers } from './together.js';
import { CHANCE_SAID, chancesInPercent, pricesInCents } from './trading-answers.js';
import { followedBy, joinParts, questionsOfReport } from './parts.js';
import { aboutAnswer, aboutAsked, withoutAboutTurns } from './about.js';
import { WILL_IT } from '../markets-search/asked.js';
import { acrossEvents, movesAcrossReports } from './across-events.js';
import { WRONG, reportThreads } from './report-threads.js';
import { gapsReply, threadEventsNamed, threadReports } from './follow-gaps.js';
import { eventCarried, thatOne, whyThat } from './carried.js';
import { closingAcross, favouritesAcross, moversAcross } from '../markets-search/across-listed.js';
import { EventSearch } from '../markets-search/search.js';
import type { CompanyIndex } from '../../data/sec/companies.js';
import { clipped, parseSecQuestion } from '../../data/sec/question.js';
import { ENGLISH_ONLY, OUT_OF_SCOPE, looksNonEnglish } from '../../text.js';
import { askedBefore, restateAsked, restated, threadRestated, type RestateForm } from './restate.js';
import { ADVICE_ASKED, JUDGED, LINK_ASKED, MARKET_WORDS, OUTCOME_MEANING, PERCENT_MEANING, RATES_ASKED, leadOf, leadsJoined, notCoveredAnswer, linkedAnswer, percentMeant, sidesText, type Side } from './mixed.js';
import { metricById } from '../../data/sec/metrics.js';
import { FIGURES_DOUBTED, figuresDependOn } from '../figures-doubted.js';

export const ROUTER_ID = 'svc-agent';

export const helpText = (reportCost: number) => `I answer financial research questions, with numbered sources. For example:

- **Company filings**: “What was Apple's revenue in Q3 2024?”, “Microsoft diluted EPS for fiscal 2024”, “Apple vs Microsoft net income, Q2 2024”, “and the quarter before?”. Figures come from SEC EDGAR filings and cite the filing page.
- **Several periods at once**: “Apple revenue and net income for the last 8 quarters”, with growth rates.
- **Prediction markets**: “What are the odds of a Fed cut in December?” finds the open Kalshi events and their current prices. Paste a Kalshi event address (https://kalshi.com/markets/…) for its research report: a stored report is free; \`svc-prediction-markets-agent\` generates a new one (${credits(reportCost)}, Plus plan or above).

Specialised models: \`svc-sec-agent\`, \`svc-financials-agent\`, \`svc-markets-search-agent\`, \`svc-prediction-markets-agent\` (with \`:cache\` and \`:refresh\`). GET /v1/models lists them all.
`;


export interface RouterOptions {
  sec: Agent;
  financials: Agent;
  kalshi: KalshiClient;
  reports: ReportStore;
  index: OpenEventsIndex;
  apiUrl: string;
  /** Credits a generated report costs (SVC_REPORT_COST_CREDITS), said where a report is offered. */
  reportCost: number;
  llm: Llm | null;
  log: Logger;
  /** The companies the filings know, by name and ticker: a question naming one goes to the filings agent. */
  companies?: () => Promise<CompanyIndex>;
  /** Where the SEC figures come from (live or a snapshot), said when asked how fresh the data is. */
  secOrigin?: () => { mode: 'live' | 'snapshot'; recordedAt: Date | null; demo: boolean };
  /** How long the open-events list is kept (SVC_MARKETS_SEARCH_REFRESH_MS), said when asked how fresh the data is. */
  searchRefreshMs?: number;
}

function* answer(whole: Answer, usage?: Usage | null): Generator<AgentEvent> {
  yield { type: 'answer', answer: whole };
  if (usage) yield { type: 'usage', usage };
  yield { type: 'done' };
}

/** A specialist's events, its upstream usage counting the router's own call to the model too. */
async function* withUsage(events: AsyncIterable<AgentEvent>, extra: Usage | null): AsyncGenerator<AgentEvent> {
  for await (const event of events) yield event.type === 'usage' && extra ? { type: 'usage', usage: addUsage(event.usage, extra)! } : event;
}

const addUsage = (a: Usage | null, b: Usage | null): Usage | null => (a && b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : (a ?? b));

/** A run's events gathered into one answer: its text, its citations, its upstream usage, or why it failed (unexpected errors are logged, not shown). */
async function gather(events: AsyncIterable<AgentEvent>, log: Logger): Promise<{ text: string; citations: Citation[]; usage: Usage | null; error: string | null }> {
  let text = '';
  const citations: Citation[] = [];
  let usage: Usage | null = null;
  try {
    for await (const e of events) {
      if (e.type === 'text') text += e.delta;
      else if (e.type === 'citation') citations.push(e.citation);
      else if (e.type === 'answer') (text += e.answer.text), citations.push(...e.answer.citations);
      else if (e.type === 'usage') usage = addUsage(usage, e.usage);
      else if (e.type === 'failed') return { text, citations, usage, error: e.error.message };
    }
  } catch (err) {
    if (isSvcError(err)) return { text, citations, usage, error: err.message };
    log.error({ err }, 'a part of a question failed');
    return { text, citations, usage, error: 'it failed unexpectedly; the error was logged.' };
  }
  return { text, citations, usage, error: null };
}

/**
 * The one outcome each event's latest answer in a thread was about ("- **Hike 25bps**: market …",
 * drawn from its report), by event ticker; none for an event whose answer was about several or none.
 */
function outcomesDiscussed(history: readonly Turn[], tickers: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const turn of [...history].reverse()) {
    if (turn.role !== 'assistant' || !/_From the stored report on /.test(turn.content)) continue;
    const [ticker] = eventsOf(turn.content);
    if (!ticker || !tickers.includes(ticker) || found.has(ticker)) continue;
    const bold = [...new Set([...turn.content.matchAll(/^- \*\*([^*\n]+)\*\*/gm)].map((m) => m[1]!))];
    if (bold.length === 1) found.set(ticker, bold[0]!);
  }
  return found;
}

/** Advice asked about money of one's own ("should I put my savings into bitcoin?"). */
const SAVINGS_ADVICE = /\bshould (?:i|we) (?:put|invest|move|bet|go all in|sell|buy)\b|\b(?:my|our) (?:savings|retirement|401k|pension|nest egg)\b/i;

/** The most open events read (one request each) to rank them by their moves or volume, soonest to settle first. */
const MOVERS_READ = 40;
/** The most open events weighed for a question of the whole board ("best bet on the board?"), from their stored reports. */
const BOARD_READ = 40;

/** A move asked about ("why bitcoin dropped"), which prices show even where news would say why. */
const WHY_MOVED_WORDS = /\b(?:why|how come|drop\w*|fell|fall\w*|ris(?:e|es|ing)|rose|jump\w*|spik\w*|crash\w*|moved?|moving)\b/i;

/** The exchange's fees asked about ("what are kalshi's fees?"), or whether the figures given are net of them ("does that account for fees?"). */
const FEES_ASKED = /\b(?:are there(?: any)?|what are|how (?:much|big|high) are|what(?:'s| is) the|does kalshi (?:charge|take))\s+(?:kalshi'?s?\s+|the\s+|trading\s+)?(?:fees?|commissions?)\b|^\W*(?:and\s+)?(?:what about\s+)?(?:the\s+)?fees?\s*\??\s*$|\b(?:does|do|did|is|are|was|were)\s+(?:that|this|it|those|these|the\s+\w+)\b[^?]{0,30}\b(?:account(?:ing)? for|include|includ\w+|count|net of|after|with|take|factor(?:ed)? in)\b[^?]{0,20}\bfees?\b|\b(?:before|after|net of) fees\s*\?|\bwhat about fees\b|\bincluding fees\b/i;
/** An arbitrage named ("is the arb real after fees?"). */
const ARB_WORDS = /\b(?:arb(?:itrage)?s?|risk[- ]?free|lock(?:ed)? in|free money)\b/i;

/** A source no agent reads asked of; fees asked of an arbitrage are that arbitrage's ("is the arb real after fees?"). */
const outsideAsked = (question: string) => OUTSIDE_SOURCES.test(question) && !(ARB_WORDS.test(question) && !OUTSIDE_SOURCES.test(question.replace(/\bfees?\b/gi, ' ')));

const FEES_ANSWER =
  "Kalshi charges a fee on trades, and what it is is not in anything I read (prices, order books, settled events, contracts' rules), so every cost, payout, profit, expected value and arbitrage I give is before fees: they come off whatever edge a figure shows, and a small edge, a cent or two a contract, can vanish with them. The exchange's fee schedule says what it charges.\n";

/** Another exchange or bookmaker named ("what does polymarket have on btc?"): not read. */
const OTHER_EXCHANGE = /\b(?:polymarket|predictit|betfair|draftkings|fanduel|manifold|smarkets|metaculus)\b/i;

/** Whether trading is allowed somewhere: law, which nothing svc reads says. */
const LEGAL_ASKED = /\b(?:il)?legal(?:ity|ly)?\b|\b(?:allowed|permitted|banned|available) (?:in|to trade in|to use in) (?:my state|[a-z]{3,}(?: [a-z]{3,})?)\b/i;
const LEGAL_ANSWER =
  "Whether you may trade on Kalshi where you are is a legal question I cannot answer: I read the exchange's prices, its settled events and its contracts' rules, not laws, regulators' decisions or court rulings, and the rules on event contracts differ by place and have been contested. Kalshi's own terms say where it offers trading; a lawyer can say what applies to you.\n\nWhat I can do: the odds of an event (“what are the odds of a Fed cut in December?”), a Kalshi event's research report, and company figures from SEC filings.\n";
/** Sources no agent reads: news, injuries, forecasts, polls, social media. */
const OUTSIDE_SOURCES = /\b(?:news|headlines?(?!\s+(?:cpi|inflation|pce|rate|number|figure|print|reading|unemployment|payrolls?)\b)|injur\w*|lineups?|(?:is|are) \w+ playing|weather forecasts?|nws|noaa|forecast (?:high|low)|rumou?rs?|(?<!\b(?:which|what|whose)\s+)polls?(?!\s+(?:average|avg|aggregate|do they|does it|is used|counts?))|polling|twitter|tweets?|reddit|insiders?|leaks?|consensus|economists?'?|press conferences?|speech(?:es)?|testimony|fees?|commissions?|(?:biggest |largest |top )?holders?|who (?:owns|holds)|(?:is|are) (?:it |kalshi |this |betting )?(?:legal|allowed|banned)|legality|(?:analysts?'?|street) (?:forecasts?|estimates?|expectations?|expect\w*))\b/i;

/** A message that only thanks ("thanks!", "thank you so much", "ty", "cheers"). */
const THANKS = /^\s*(?:(?:ok(?:ay)?|great|cool|perfect|awesome|nice)[,!.]?\s+)?(?:thanks?(?: you)?|thx|ty|cheers|much appreciated|appreciate it)(?: (?:so|very) much| a lot| again)?[\s!.]*$/i;

/**
 * svc-agent: the general market-intelligence agent. Sends each question to the specialist
 * that can answer it (see classify) and passes its answer on, citations included. It never
 * spends credits: a Kalshi address gets the stored report when there is one, otherwise a free
 * summary of live prices that names the model that generates a full report.
 */
/**
 * The caller's turns with a long one read by its start and end, as the SEC agent reads it (a
 * question comes before or after what was pasted with it): the router's patterns are tried all
 * along a turn, and on a paste of many kilobytes some take seconds. The very array when none is long.
 */
function longTurnsClipped<T extends Turn>(messages: T[]): T[] {
  if (!messages.some((m) => m.role === 'user' && m.content.length > LONG_TURN_CHARS)) return messages;
  return messages.map((m) => (m.role === 'user' && m.content.length > LONG_TURN_CHARS ? { ...m, content: clippedKeepingLinks(m.content) } : m));
}

/** A long turn by its start and end, with the Kalshi addresses pasted in its middle kept (a few at most): they say what it is about. */
function clippedKeepingLinks(content: string): string {
  const kept = clipped(content);
  const links = [...new Set([...content.matchAll(KALSHI_URLS)].map((m) => m[0]))].filter((link) => !kept.includes(link));
  // (Before it, so a question at its end stays its last words.)
  return links.length ? `${links.slice(0, MAX_KEPT_LINKS).join('\n')}\n${kept}` : kept;
}
const KALSHI_URLS = new RegExp(KALSHI_URL.source, 'gi');
const MAX_KEPT_LINKS = 5;
const LONG_TURN_CHARS = 2000;

/** A follow-up that only names something ("ok and the ai one?", "what about payrolls?", "same for eth"), asking nothing of its own. */
const ELLIPSIS_ONLY = /^\W*(?:(?:ok(?:ay)?|so|alright|right|hmm|now|cool|thanks|thx)\W+)*(?:and|what about|how about|wbu|same (?:for|with)|ditto (?:for|with))\s+(?!(?:[^?]*\s)?(?:what|how|when|why|who|which|will|is|are|does|do|did|can|should|odds|chances?|prices?|spread|ev)\b)[^?.!,;:]{1,40}?\W*$/i;

export function routerAgent(o: RouterOptions): Agent {
  // Outcomes and positions of several events, weighed together (joint chances, a book of positions).
  const together = togetherAnswers(o);
  // The stored reports as a set, the events a thread weighed, one report beyond its table.
  const threads = reportThreads({
    ...o,
    liveSheet: async (ticker) => {
      const event = await o.kalshi.event(ticker);
      if (!event) return null;
      const series = await o.kalshi.series(event.series_ticker).catch(() => null);
      return liveSheet(o, event, series, eventPage(event, series?.title));
    },
  });
  const help: Answer = Object.freeze({ text: helpText(o.reportCost), citations: Object.freeze([]) });
  const welcome: Answer = Object.freeze({ text: "You're welcome. Ask another question whenever you like: a company's figures, the odds of an event, or a Kalshi event's report.\n", citations: Object.freeze([]) });
  async function route(req: AgentRequest, question: string, rule: Route): Promise<{ route: Route; usage: Usage | null }> {
    if (!o.llm || rule.kind === 'kalshi_url') return { route: rule, usage: null };
    const asked = await classifyWithLlm(o.llm, question, req.messages.slice(0, -1), req.signal);
    if (!asked?.kind) return { route: rule, usage: asked?.usage ?? null };
    return { route: { kind: asked.kind, reason: `the language model's reading (rules said ${rule.kind})` }, usage: asked.usage };
  }

  /** The router's own answers, phrased by the LLM when one is configured (grounded; see llm/writer). */
  async function* written(req: AgentRequest, question: string, text: string, citations: Citation[], usage: Usage | null): AsyncGenerator<AgentEvent> {
    if (!o.llm) return yield* answer({ text, citations }, usage);
    yield { type: 'progress', message: 'Writing the answer.' };
    const out = await rewrite(o.llm, question, { text, citations }, req.signal);
    if (out.ok) return yield* answer({ text: out.text, citations: out.citations }, addUsage(usage, out.usage));
    yield* answer({ text: `${text.replace(/\n*$/, '')}\n\n_Note: the language model could not write this answer (${out.why}), so the built-in writer did._\n`, citations }, null);
  }

  async function namesOpenEvent(question: string): Promise<boolean> {
    const search = await o.index.get().catch(() => null);
    const hit = search?.search(question, 1)[0];
    return Boolean(hit && hit.missing.length === 0);
  }

  /**
   * Whether a question's words find an open event other than `own`, and `own` matches fewer of them:
   * two words or more of its title ("nyc high", "arctic sea ice").
   */
  async function namesAnotherEvent(question: string, own: string): Promise<boolean> {
    const search = await o.index.get().catch(() => null);
    const hits = search?.search(question, 5) ?? [];
    const top = hits[0];
    // (One word alone is too little: "when's the release?" in a CPI thread is its release, not the AI one's.)
    if (!top || top.entry.event.event_ticker === own || top.matched < 2) return false;
    return !hits.some((h) => h.entry.event.event_ticker === own && h.matched >= top.matched);
  }

  /**
   * Another event reported in the thread that a question is about: the one whose outcomes it names
   * ("price of hike?" in a thread on the Fed, then Bitcoin), when the event routed to has none of
   * them; or, naming none, the one the last answer was drawn from ("and its spread?" after that
   * answer). Null when it is the event routed to.
   */
  async function reportedEventMeant(history: readonly Turn[], question: string, own: string): Promise<string | null> {
    const addressed = history.filter((t) => t.role === 'user').flatMap((t) => eventsAddressed(t.content));
    const others = [...new Set(addressed.reverse())].filter((t) => t !== own);
    if (!others.length) return null;
    const current = await o.reports.latest(own);
    if (!current || outcomesNamed(question, current).length) return null;
    for (const ticker of others) {
      const report = await o.reports.latest(ticker);
      const named = report ? outcomesNamed(question, report) : [];
      // (Of a one-contract event, its outcome named by its own label: "i hold 100 yes on release" of the AI release's "Release".)
      const rows = report ? readReport(report.text).rows : [];
      const labelled = rows.length === 1 && new RegExp(`\\b${outcomeOf(rows[0]!.outcome).name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(question);
      if (report && named.length && (named.length < rows.length || labelled)) return tickerAddress(ticker);
    }
    const lastAnswer = [...history].reverse().find((t) => t.role === 'assistant')?.content ?? '';
    const last = eventsOf(lastAnswer);
    return last.length === 1 && others.includes(last[0]!) && /^_From the stored report on /m.test(lastAnswer) ? tickerAddress(last[0]!) : null;
  }

  /** Whether a question names a company the filings know ("how'd alphabet do in 2024", "whats aapl trading at rn"). */
  async function namesCompany(question: string): Promise<boolean> {
    const index = await o.companies?.().catch(() => null);
    return Boolean(index && parseSecQuestion(routedText(question), index).companies.some((c) => c.status === 'found' && !c.fuzzy));
  }

  /**
   * The answer for a Kalshi address: the stored report, else a free summary of live prices. Asked
   * something about the event (`aboutEvent`), the part of the report that answers it.
   */
  async function* kalshi(req: AgentRequest, question: string, url: string, usage: Usage | null, meta: boolean, aboutEvent = false): AsyncGenerator<AgentEvent> {
    const address = parseEventUrl(url);
    // "How have the chiefs done at home lately?", then "and the bills away?": a team's games of the series, report or not.
    const team = await teamAsked(req, question, address.eventTicker);
    if (team) return yield* written(req, question, team.text, [...team.citations], usage);
    const stored = await o.reports.latest(address.eventTicker);
    if (stored) {
      if (meta) yield { type: 'meta', meta: { reportCache: 'hit', reportGeneratedAt: new Date(stored.generatedAt).toISOString() } };
      // The address itself is no part of what is asked ("26dec" is no level).
      // A follow-up ("and its price?") may mean the outcome an earlier turn named.
      const earlier = req.messages.slice(0, -1).reverse();
      const asked = routedText(question).replace(new RegExp(KALSHI_URL.source, 'gi'), ' ').replace(/\s+/g, ' ').trim();
      // "What fractional odds? And what would 100 YES contracts cost?": each asked part of the report, one after the other.
      const pieces = aboutEvent ? questionsOfReport(asked) : [];
      // ("… and if I throw 250 on them?": "them" is what the part before it named.)
      const answers = pieces.map((p, i) => answerFromReport(p, stored, i ? [{ role: 'user' as const, content: pieces[i - 1]! }, ...earlier] : earlier));
      if (pieces.length > 1 && answers.every(Boolean)) {
        const joined = joinParts(pieces.map((p, i) => ({ question: p, text: answers[i]!.text, citations: answers[i]!.citations, error: null })));
        return yield* written(req, question, joined.text, [...joined.citations], usage);
      }
      // "What's the NWS forecast high for tomorrow?", "is LeBron playing?", "what are insiders saying, any deal close?":
      // what the report does not read, said so rather than a part of the report a word of it names, or the report again.
      // ("Summarize in one line for a headline", "one line for twitter": a summary, wherever it goes.)
      // (A fee the asker states, "and with fees of 1c?", is no outside source: the trade is worked with it.)
      const outside = aboutEvent && outsideAsked(question) && eventQuestion(asked) !== 'summary' && feeSaid(question) === null && !withPositionSaid(asked, earlier) ? await outsideOf(address.eventTicker, question) : null;
      if (outside) return yield* answer(outside, null);
      const part = aboutEvent ? answerFromReport(asked, stored, earlier) : null;
      if (part) return yield* written(req, question, part.text, [...part.citations], usage);
      return yield* answer(stored, null);
    }
    await confirmEventAddress(address, o.kalshi);
    // Asked by ticker (or a search's find), the address has no slug of its own: the page is named from the series' title.
    // Nothing is yielded before it is read: an event that is not there is a 404, streamed or not, never a failed stream.
    const summary = await liveSummary(o.kalshi, address.eventTicker, address.slug === address.seriesSegment ? null : eventPageUrl(address), o.apiUrl, o.reportCost).catch(async (err: unknown) => {
      // An event gone from the exchange's open list (and a snapshot's) may have settled: what resolved, from the series' record.
      const settled = isSvcError(err) && err.code === 'event_not_found' ? await settledEventResult(o.kalshi, address.eventTicker, o.apiUrl) : null;
      if (settled) return settled;
      throw err;
    });
    if (!('event' in summary)) return yield* answer(summary, usage);
    // ("Who are the biggest holders of the 96k contract?", "what fees will kalshi charge?": beyond the live quotes too.)
    if (aboutEvent && outsideAsked(question) && eventQuestion(routedText(question)) !== 'summary') {
      const outside = await outsideOf(address.eventTicker, question);
      if (outside) return yield* answer(outside, null);
    }
    yield { type: 'progress', message: `No stored report for ${address.eventTicker}; answering from its live prices.` };
    // What only a report says (the model, its gaps, the history) is said to be missing, not answered with prices alone.
    // An event about a model ("New frontier model …"): "model" in the question is its subject, not svc's model.
    const withoutAddress = routedText(question).replace(new RegExp(KALSHI_URL.source, 'gi'), ' ');
    const ofSubject = /\bmodel\b/i.test(summary.event.title) ? withoutAddress.replace(/\bmodels?\b/gi, 'release') : withoutAddress;
    const about = aboutEvent ? eventQuestion(ofSubject) : null;
    // "Where did u get this?" of an event with no report: the exchange's pages its live prices are read from, not the prices again.
    if (about === 'sources' && summary.citations.length) {
      const asOf = /\bas of (\d{4}-\d\d-\d\d \d\d:\d\d UTC)/.exec(summary.text)?.[1];
      const lines = summary.citations.map((c) => `- ${c.name}: ${c.url} [${c.order}]`);
      return yield* answer({ text: `Those prices are Kalshi's own${asOf ? `, as of ${asOf}` : ''}, read from these pages:\n\n${lines.join('\n')}\n\nNothing else is read for them: no news, polls or forecasts. A report (\`svc-prediction-markets-agent\`) adds the model and the series' record, each cited the same way.\n`, citations: summary.citations }, usage);
    }
    const unreported = about === 'model_favourite' || about === 'gap' || about === 'best_trade' || about === 'history' || about === 'method' || about === 'previous';
    // An outcome or level asked of live prices ("odds of a hold?", "which is likeliest?"): those outcomes first, not the list again;
    // what they imply ("the median?", "as moneyline odds?") after them.
    // (Whether it happens, "is a new model going to be released?", is a question of an outcome too.)
    const happens = about === null && WILL_IT.test(withoutAddress);
    let asked = routedText(question).replace(new RegExp(KALSHI_URL.source, 'gi'), ' ');
    // "What do I win?", "convert that to American odds" after "ETH above 3400 tomorrow?": the level asked before is the contract meant.
    if ((PAYOUT_ASKED.test(asked) || about === 'odds_format') && !levelsAsked(asked).length) {
      // (Of the turn just before only: "convert to moneyline" after "whos the fav" is not of a level asked turns earlier.)
      const before = [req.messages.slice(0, -1).reverse().find((m) => m.role === 'user')].find((m) => m && levelsAsked(m.content.replace(new RegExp(KALSHI_URL.source, 'gi'), ' ')).length);
      if (before) asked = `${asked} (${routedText(before.content).replace(new RegExp(KALSHI_URL.source, 'gi'), ' ')})`;
    }
    // The user's earlier turns, latest first (a trade a follow-up only changes, a chance said before).
    const askedBefore = req.messages.slice(0, -1).reverse().flatMap((m) => (m.role === 'user' ? [pricesInCents(chancesInPercent(routedText(m.content)))] : []));
    // What contracts cost and pay ("200 yes on a cut?", "EV on the no side?"), both sides of one, an
    // arbitrage, Kelly on a chance the asker gives: arithmetic on the live quotes, read as a report's
    // would be, with no model; the outcome a follow-up points back to is the one meant. What the
    // rules and dates say ("what if it goes to OT?", "can it close early?") is read so too.
    const fromRules = about === 'resolution' || about === 'closing';
    // ("Bills ML in american odds? and if i throw 250 on them what do i win?": each part, of the quotes.)
    const parted = aboutEvent && questionsOfReport(routedText(withoutAddress)).length > 1;
    // ("What changed since yesterday?": the prices a day ago the exchange lists, beside those now.)
    // (Chances and prices as the trading rules read them: "0.4" is 40%, "45¢" 45c.)
    const traded = pricesInCents(chancesInPercent(asked));
    if (parted || about === 'moves' || about === 'quote' || about === 'arbitrage' || about === 'basics' || about === 'anomalies' || fromRules || (CHANCE_SAID.test(traded) && asked.split(/\s+/).length <= 12) || (about === 'best_trade' && SIZING.test(question) && [traded, ...askedBefore.slice(0, 2)].some((q) => CHANCE_SAID.test(q))) || changesTrade(traded, askedBefore)) {
      const series = await o.kalshi.series(summary.event.series_ticker).catch(() => null);
      const sheet = liveSheet(o, summary.event, series, summary.citations[0]!.url);
      const earlier = req.messages.slice(0, -1).reverse();
      // "Price on 48-51 and when does it close?": each part of the sheet asked, one after the other, as of a report.
      const pieces = questionsOfReport(asked);
      const answers = pieces.length > 1 ? pieces.map((p, i) => answerFromReport(p, sheet, i ? [{ role: 'user' as const, content: pieces[i - 1]! }, ...earlier] : earlier)) : [];
      if (answers.length > 1 && answers.every(Boolean)) {
        const joined = joinParts(pieces.map((p, i) => ({ question: p, text: answers[i]!.text, citations: answers[i]!.citations, error: null })));
        return yield* written(req, question, joined.text, [...joined.citations], usage);
      }
      const part = answerFromReport(asked, sheet, earlier);
      if (part) return yield* written(req, question, part.text, [...part.citations], usage);
    }
    if (happens || about === 'outcome' || about === 'market_favourite' || about === 'market_least' || about === 'expected' || about === 'odds_format' || about === 'overround' || (about === 'quote' && PAYOUT_ASKED.test(question))) {
      const line = liveEventLine(summary.event, asked, 1);
      // "Why is hike priced so high?": prices do not say why; a report adds the series' record and the model.
      const why = /\b(?:why|how come)\b/i.test(question) ? ' Prices say what traders pay, not why: a report adds the series\' record and a model that weighs it against the price, and it reads no news either.' : '';
      const text = `On its live prices (no report is stored for ${address.eventTicker}, so there is no model probability yet; \`svc-prediction-markets-agent\` generates one, ${credits(o.reportCost)}): ${line}\n\nPrices are the mid of the best bid and ask (or the last trade), read as probabilities.${why}\n`;
      return yield* written(req, question, text, summary.citations.slice(0, 1), usage);
    }
    const past = await pastOf(address.eventTicker, withoutAddress, about);
    if (past) return yield* written(req, question, past.text, [...past.citations], usage);
    if (unreported) {
      // The outcomes the question names first, in bold ("the model vs the market on the hold?").
      const line = liveEventLine(summary.event, routedText(question).replace(new RegExp(KALSHI_URL.source, 'gi'), ' '), 1);
      const text = `No report is stored for ${address.eventTicker} yet, so there is no model probability or resolution history to quote: \`svc-prediction-markets-agent\` generates one (${credits(o.reportCost)}). Its live prices meanwhile: ${line}\n\nPrices are the mid of the best bid and ask (or the last trade), read as probabilities.\n`;
      return yield* written(req, question, text, summary.citations.slice(0, 1), usage);
    }
    yield* written(req, question, summary.text, summary.citations, usage);
  }

  /**
   * The best match of each topic a question lists ("the NYC temperature, payrolls and approval markets"), when it lists several;
   * one compared with another counts ("compare the odds of a Fed cut with the CPI market").
   */
  async function topicsNamed(question: string): Promise<string[]> {
    // ("Shutdown odds, model vs market?": the report's model against the market, no second topic.)
    const chunks = question.replace(new RegExp(MODEL_ASKED.source, 'gi'), ' ').split(/,|;|\band\b|\bvs\.?|\bversus\b|\bor\b|\b(?:with|to|against)\b(?<=\bcompar\w*\b.*)/i).filter((c) => EventSearch.terms(c).length);
    if (chunks.length < 2) return [];
    const search = await o.index.get();
    return search.named(chunks).map((n) => n.ticker);
  }

  /**
   * What prediction-market words mean, when that is what is asked ("how do prediction markets
   * work?", "what's the vig?" with no event discussed, "what does 'normalised' mean?" in any
   * thread), or an example asked after such an answer; each worked on the event discussed when it
   * shows the idea, else on an open event that does (a stored report first). Null otherwise.
   */
  async function explain(before: readonly Turn[], question: string): Promise<Answer | null> {
    const discussed = discussedEvent(before);
    let terms = termsAsked(question, discussed !== null);
    // ("What's the bitcoin ladder?" asks for an event, not what a ladder is.)
    // (The words explained, and how a contract pays, name no event: "pay" is no payrolls.)
    const rest = terms.reduce((q, t) => q.replace(new RegExp(t.words.source, 'gi'), ' '), question).replace(/\b(?:markets?|how (?:does|do) (?:it|they) pay)\b/gi, ' ');
    if (terms.length && (await namesOpenEvent(rest))) return null;
    const last = [...before].reverse().find((t) => t.role === 'assistant')?.content ?? '';
    if (!terms.length && EXAMPLE_ASKED.test(question)) terms = termsAnswered(last);
    if (!terms.length) return null;
    const kind = exampleKind(terms);
    const own = discussed ? parseEventUrl(discussed).eventTicker : null;
    const candidates = [...new Set([...(own ? [own] : []), ...(await o.index.get()).everyEvent(12).map((x) => x.event.event_ticker)])];
    const sheets = await Promise.all(candidates.map(async (t) => ({ ticker: t, read: await together.sheetOf(t).catch(() => null) })));
    const shown = sheets.filter((s) => s.read !== null && showsKind(s.read.sheet, kind));
    // The event discussed first; else one with a stored report (it has a model), else any.
    // (Another example asked for is of another event than the last one's.)
    const fresh = EXAMPLE_ASKED.test(question) ? shown.filter((s) => !last.includes(`**${s.read!.sheet.title.replace(/[*_]/g, '')}**`)) : shown;
    const pick = fresh.find((s) => s.ticker === own) ?? fresh.find((s) => !s.read!.sheet.unreported) ?? fresh[0] ?? shown[0];
    return glossaryAnswer(terms, pick?.read?.sheet ?? null);
  }

  /**
   * A team's record in the settled games of a game's series, when asked ("lakers record vs boston
   * historically?"), or right after one ("and the bills away?", "and away?": the team asked before).
   */
  async function teamAsked(req: AgentRequest, question: string, eventTicker: string): Promise<Answer | null> {
    const asked = routedText(question).replace(new RegExp(KALSHI_URL.source, 'gi'), ' ');
    const before = req.messages.slice(0, -1).reverse();
    const lastAnswer = before.find((m) => m.role === 'assistant')?.content ?? '';
    const afterRecord = /^The .{2,40} won \*\*\d+ of \d+\*\*/.test(lastAnswer.trimStart()) && /^\W*(?:and|what about|how about|ok and)\b/i.test(asked) && asked.split(/\s+/).length <= 8;
    if (!afterRecord && !(teamMentions(asked).length && TEAM_RECORD.test(asked))) return null;
    const previous = before.find((m) => m.role === 'user')?.content ?? '';
    // (The team asked before, when none is named now.)
    const read = teamMentions(asked).length ? asked : `${asked} (${teamMentions(previous).map((m) => m.said).join(' ')})`;
    const event = await o.kalshi.event(eventTicker).catch(() => null);
    return event ? teamResults(o.kalshi, event, read, o.apiUrl).catch(() => null) : null;
  }

  /** How the event's series resolved before (the newest settled event, or its record), when that is what is asked; null otherwise. */
  async function pastOf(eventTicker: string, question: string, asked: EventQuestion | null): Promise<Answer | null> {
    if (asked !== 'previous' && asked !== 'history') return null;
    const event = await o.kalshi.event(eventTicker);
    return event ? pastResults(o.kalshi, event, question, asked, o.apiUrl, credits(o.reportCost)) : null;
  }

  /** The open events a question names, with their prices; `context`: the question a follow-up continues ("and of a hold?"). */
  async function* searched(req: AgentRequest, question: string, usage: Usage | null, context?: string): AsyncGenerator<AgentEvent> {
    yield { type: 'progress', message: 'Searching the open Kalshi events.' };
    const found = await searchMarkets(o.kalshi, o.index, question, { reportCost: o.reportCost, context });
    // "Shutdown odds, model vs market?", "what did the Fed do in October?": the one event found
    // has a stored report, which has the model and the series' history.
    const asked = eventQuestion(question);
    // "What fees will kalshi charge me?" after a search found one event: what nothing read about it says, said so of that event.
    // ("Is kalshi legal in texas?" in a thread on an event, which its words do not find: of that event.)
    const discussedTicker = () => {
      const url = discussedEvent(req.messages.slice(0, -1));
      return url ? parseEventUrl(url).eventTicker : null;
    };
    // "Is trading on kalshi legal in new york?": a legal question, of no event; the temperature in NYC is not it.
    if (LEGAL_ASKED.test(question) && !context && !discussedTicker()) return yield* answer({ text: LEGAL_ANSWER, citations: [] }, usage);
    // (Of one event found with a stored report too: "what's the economists' consensus forecast for december CPI?";
    // "any news on why bitcoin dropped?" gets what the exchange shows beside the caveat.)
    const reportedOne = found.found.length === 1 && !WHY_MOVED_WORDS.test(question) && (await o.reports.latest(found.found[0]!)) !== null;
    const outsideTicker = outsideAsked(question) && feeSaid(question) === null ? ((context || reportedOne) && found.found.length === 1 ? found.found[0]! : !found.found.length ? discussedTicker() : null) : null;
    if (outsideTicker) {
      const outside = await outsideOf(outsideTicker, question);
      if (outside) return yield* answer(outside, usage);
    }
    // "Which is the best bet on the board right now?", "biggest edge anywhere?": every open event's stored report, weighed.
    if ((asked === 'best_trade' || asked === 'gap') && !found.found.length && !context) {
      const every = (await o.index.get()).everyEvent(BOARD_READ).map((x) => x.event.event_ticker);
      const across = await acrossEvents(every, (t) => o.reports.latest(t), asked === 'best_trade', o.reportCost);
      if (across.citations.length) return yield* written(req, question, across.text, [...across.citations], usage);
    }
    // (So do an arbitrage, "is there an arbitrage on the cpi ladder?", and an expected value, "EV of buying 100 YES on eth above 3400?".)
    const valued = asked === 'quote' && /\b(?:ev|expected value|max(?:imum)? loss|payoff|payout)\b/i.test(question);
    // ("And with fees of 1c?" after a trade on the event: that trade, the fee added, from its report.)
    const ofReport = MODEL_ASKED.test(question) || valued || feeSaid(question) !== null || ['gap', 'model_favourite', 'best_trade', 'previous', 'history', 'method', 'arbitrage', 'summary'].includes(asked ?? '');
    // "Compare the BTC and ETH markets", "BTC vs ETH, which one is more mispriced?": the events found, weighed from their stored reports.
    const weighing = asked === 'gap' || asked === 'best_trade' || /\b(?:compare|comparison|vs\.?|versus|rank(?:ed|ing)?)\b/i.test(question);
    // "Rank the NYC temperature, payrolls and approval markets by …": each topic named is searched for on its own too.
    const named = weighing ? await topicsNamed(question) : [];
    // "Compare this with the ETH market" after a report: the event discussed is one of those weighed.
    const discussed = weighing && /\b(?:this|that|it)\b/i.test(question) ? discussedEvent(req.messages.slice(0, -1)) : null;
    const current = discussed ? [parseEventUrl(discussed).eventTicker] : [];
    const weighed = [...new Set([...current, ...found.found, ...named])];
    if (weighed.length > 1 && weighing) {
      const across = await acrossEvents(weighed, (t) => o.reports.latest(t), asked === 'best_trade', o.reportCost);
      // The prices beside the weighing: the search's listing when it found them all, else each event's favourite
      // (a listing of one search would say the others match nothing).
      const listing = weighed.length > found.found.length ? await favouritesAcross(o.kalshi, weighed, false) : { text: found.text, citations: found.citations };
      if (across.citations.length || weighed.length > found.found.length) {
        const both = followedBy(listing, across, across.citations.length ? '**Model against market, from the stored reports.** ' : '');
        return yield* written(req, question, both.text, [...both.citations], usage);
      }
    }
    // "Which station is used for the nyc temp one?", "when does the shutdown market close?": its rules and dates, report or not.
    // (Not a date asked of the odds, "will bitcoin be above 100k by end of year".)
    // "EV of 100 yes on eth above 3400 at the ask", "bills ML … if i throw 250 on them what do i get back": of the one event found, worked on its quotes.
    // (So is a chance of one's own, "what if i think the bills are 45%": what buying is worth on it.)
    const chanceOwn = CHANCE_SAID.test(chancesInPercent(question)) && question.split(/\s+/).length <= 12;
    // ("Back to the fed, what was hike trading at a week ago?": its moves, from its report or the exchange's day-ago prices.)
    if ((asked === 'quote' || asked === 'arbitrage' || (asked === 'moves' && !outsideAsked(question)) || chanceOwn) && found.found.length === 1 && !weighing) return yield* kalshi(req, question, tickerAddress(found.found[0]!)!, usage, true, true);
    const whenCloses = asked === 'closing' && /\b(?:when|what time)\b[^?]*\b(?:clos\w*|expir\w*|stop trading|trading (?:stops?|ends?))\b|\bclose early\b/i.test(question);
    if ((asked === 'resolution' || whenCloses) && found.found.length === 1) return yield* kalshi(req, question, tickerAddress(found.found[0]!)!, usage, true, true);
    if (ofReport && found.found.length === 1) {
      if (await o.reports.latest(found.found[0]!)) return yield* kalshi(req, question, tickerAddress(found.found[0]!)!, usage, true, true);
      // "What did CPI print last month?" without a report: the series' settled events say it.
      const past = await pastOf(found.found[0]!, question, asked);
      if (past) return yield* written(req, question, past.text, [...past.citations], usage);
    }
    // The events found that have a stored report: their model is a question away, and the report free.
    const reported = (await Promise.all(found.found.map(async (t) => ((await o.reports.latest(t)) ? t : null)))).filter((t): t is string => t !== null);
    const note = reported.length
      ? `\n${reported.length === 1 ? 'A report is' : 'Reports are'} stored for ${listed(reported)}: ask for ${reported.length === 1 ? 'its' : 'their'} model here (“model vs market?”), or get ${reported.length === 1 ? 'it' : 'them'} whole, free, from \`svc-prediction-markets-agent:cache\`.\n`
      : '';
    // "Ok and the ai one?" opening a conversation: no question before it to carry over, said so, with the event it names and what to ask of it.
    const opening = !context && req.messages.length <= 1 && ELLIPSIS_ONLY.test(routedText(question).trim()) && found.found.length > 0;
    const ask = found.found.length === 1 ? 'Ask what you want to know of it: the odds of an outcome, model vs market, its spread, when it closes.' : 'Say which one you mean, and what you want to know of it.';
    const lead = opening ? `Nothing was asked before this in the conversation, so there is no question to carry over; ${found.found.length === 1 ? 'the event it names' : 'the events it may name'}:\n\n` : '';
    const tail = opening ? `\n${ask}\n` : '';
    // "Any news on why bitcoin dropped?", "should I put my savings into bitcoin?": what cannot be said, before what the exchange shows.
    const caveat = lead || (OTHER_EXCHANGE.test(question)
      ? `I read Kalshi only, not ${OTHER_EXCHANGE.exec(question)![0].replace(/^\w/, (c) => c.toUpperCase())} or other exchanges, so I cannot say what is priced there; what Kalshi shows:\n\n`
      : outsideAsked(question)
      ? 'I read no news or other outside sources, so I cannot say what happened or why; what the exchange shows:\n\n'
      : SAVINGS_ADVICE.test(question)
        ? "I do not give investment advice (what to do with your savings is yours to weigh, ideally with an adviser); the market's prices, for your own judgement:\n\n"
        : '');
    yield* written(req, question, `${caveat}${found.text}${note}${tail}`, found.citations, usage);
  }

  /** What can and cannot be answered about an event under discussion, for a question none of its sources answers; null when the event cannot be read. */
  async function outsideOf(eventTicker: string, question = ''): Promise<Answer | null> {
    const report = await o.reports.latest(eventTicker);
    const event = report ? null : await o.kalshi.event(eventTicker).catch(() => null);
    const title = report?.title ?? event?.title;
    if (!title) return null;
    // "Who are the biggest holders of the hike contract?": who holds is not public; how many are held is, its open interest.
    if (/\bholders?\b|\bwho (?:owns|holds)\b/i.test(question)) {
      const series = event ? await o.kalshi.series(event.series_ticker).catch(() => null) : null;
      const sheet = report ?? (event ? liveSheet(o, event, series, eventPage(event, series?.title)) : null);
      if (sheet) {
        const { rows, contracts } = readReport(sheet.text);
        const named = outcomesNamed(routedText(question).replace(/\bholders?\b/gi, ' '), sheet);
        const shown = (named.length && named.length < rows.length ? named : rows).flatMap((r) => {
          const c = contracts.get(outcomeOf(r.outcome).refs);
          return c ? [`- **${outcomeOf(r.outcome).name}**: ${c.interest} contracts open ${outcomeOf(r.outcome).refs}`] : [];
        });
        if (shown.length) {
          return cited(`Who holds the contracts is not public in anything I read: the exchange shows only how many are held, each contract's open interest (contracts bought and not yet sold or settled), on **${quoteCaller(title)}** (${eventTicker}):\n\n${shown.join('\n')}\n`, sheet.citations);
        }
      }
    }
    const read = report
      ? `its report is built from the exchange's prices and order book, the series' settled events and the contract's rules`
      : `I read its live prices, the series' settled events and the contract's rules (no report is stored for it yet)`;
    return {
      text: `I cannot answer that from what I read about **${quoteCaller(title)}** (${eventTicker}): ${read}, with no news, injury reports, weather forecasts, schedules or other outside sources.\n\nAbout this event I can answer, for example: “where's the edge?”, “how does it resolve?”, “when does it close?”, “how often has the favourite won?”, “what do 100 YES contracts cost and pay?”.\n`,
      citations: [],
    };
  }

  /**
   * "Explain that simply", "summarize in one sentence", "summarize everything we talked about": the
   * earlier question (or each) answered again, then said plainly. Null when there is nothing to restate
   * or another answer covers it (a report's own brief forms, a beginner's explanation of an event).
   */
  async function restatement(req: AgentRequest, question: string, form: RestateForm): Promise<Answer | null> {
    const before = req.messages.slice(0, -1);
    const asked = askedBefore(before);
    if (!asked.length) return null;
    const again = async (i: number) => {
      const got = await gather(router.run({ ...req, messages: before.slice(0, i + 1) }), o.log);
      return got.error ? null : { text: got.text, citations: got.citations };
    };
    if (form === 'thread') {
      const answers = await Promise.all(asked.slice(-8).map(async (a) => ({ question: a.question, answer: await again(a.index) })));
      return threadRestated(answers.flatMap((a) => (a.answer ? [{ question: a.question, answer: a.answer }] : [])));
    }
    const last = asked.at(-1)!;
    // (Answered again rather than read from the thread, which a client may send without its answers.)
    const previous = await again(last.index);
    if (!previous) return null;
    const said = previous.text;
    const event = discussedEvent([{ role: 'assistant', content: said }]) ?? (KALSHI_URL.test(last.question) ? discussedEvent(before.slice(0, last.index + 1)) : null);
    // "Explain like I'm 5" of a whole report is how its market works; of any other answer (a search's
    // listing, an outcome's price, a part of a report), that answer in plain words.
    if (event && eventQuestion(question) === 'basics' && /^#\s/.test(said.trimStart())) return null;
    // A brief form of an event's answer is the report's own ("in one sentence" after the Fed odds), and
    // of company figures the filings agents' own (a table's change, highest and lowest).
    // (Not an answer drawn from two reports, "if the fed hikes what does the cpi market imply": that answer, in one sentence.)
    const ofSeveral = /^_From the stored reports on /m.test(said);
    if (form === 'sentence' && ((event && !ofSeveral) || /^\s*\|/m.test(said) || /^\*\*[^*]+\([A-Z.-]{1,6}\)\*\*:/.test(said.trimStart()))) return null;
    // A whole report: its summary in a reader's words.
    const stored = /^#\s/.test(previous.text.trimStart()) && event ? await o.reports.latest(parseEventUrl(event).eventTicker) : null;
    if (stored) return answerFromReport('in plain words', stored, []);
    return restated(previous, form);
  }

  /**
   * "What would make you wrong?", "can I trust these figures?" naming no event, right after an answer
   * of company figures from the filings (answered again, as a restatement is): what those figures
   * depend on. Null after any other answer (a report's model has its own limits).
   */
  async function figuresDoubted(req: AgentRequest, question: string): Promise<Answer | null> {
    if (!WRONG.test(question) && !FIGURES_DOUBTED.test(question)) return null;
    if (KALSHI_URL.test(question) || (await eventsNamedIn(question.replace(new RegExp(WRONG.source, 'gi'), ' ').replace(new RegExp(FIGURES_DOUBTED.source, 'gi'), ' '))).length) return null;
    const before = req.messages.slice(0, -1);
    const last = askedBefore(before).at(-1);
    if (!last) return null;
    const got = await gather(router.run({ ...req, messages: before.slice(0, last.index + 1) }), o.log);
    if (got.error || eventsOf(got.text).length || /\(Kalshi\)|\bKalshi's\b/.test(got.text)) return null;
    return figuresDependOn({ text: got.text, citations: got.citations });
  }

  /** The companies a question names that the filings know (not a guess at a near name). */
  async function companiesOf(question: string) {
    const index = await o.companies?.().catch(() => null);
    return index ? parseSecQuestion(routedText(question), index) : null;
  }

  /** The open events a question's words name, a search on each of its sides ("the Fed hikes", "the CPI market"). */
  async function eventsNamedIn(text: string): Promise<string[]> {
    const search = await o.index.get().catch(() => null);
    if (!search) return [];
    return [...new Set(sidesText(text).flatMap((s) => search.search(s, 1).filter((h) => h.matched > 0).map((h) => h.entry.event.event_ticker)))];
  }

  /**
   * "Would a shutdown hurt Apple?", "should I buy bitcoin or google?", "if the Fed hikes, what does that
   * mean for the CPI market?": a company and a market (or two markets) joined in a way nothing read
   * links, answered with each side's own facts. Null when the question does not name two such sides.
   */
  async function linked(req: AgentRequest, question: string): Promise<Answer | null> {
    if (!LINK_ASKED.test(question) && !ADVICE_ASKED.test(question)) return null;
    const parsed = await companiesOf(question);
    const found = (parsed?.companies ?? []).flatMap((c) => (c.status === 'found' && !c.fuzzy ? [c] : [])).slice(0, 2);
    const rest = found.reduce((q, c) => q.replace(new RegExp(`\\b${c.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:'s)?`, 'gi'), ' '), routedText(question));
    const tickers = (await eventsNamedIn(rest)).slice(0, 2);
    // "Which one matters more for apple's stock?": the market of the thread.
    const discussed = discussedEvent(req.messages.slice(0, -1));
    // "How exposed is microsoft to interest rates?": a market on rates the thread discussed or a report covers, if any.
    const rates = found.length > 0 && RATES_ASKED.test(question);
    if (rates && !tickers.length) {
      const market = await ratesMarket(req.messages.slice(0, -1));
      if (market) tickers.push(market);
    }
    // ("Should I buy apple stock?" names no market: the thread's is not joined to it.)
    if (!tickers.length && found.length && discussed && LINK_ASKED.test(question)) tickers.push(parseEventUrl(discussed).eventTicker);
    if (!(found.length && tickers.length) && tickers.length < 2 && !rates) return null;
    const figures = parsed?.stated.metrics && parsed.metrics.length ? parsed.metrics.map((m) => metricById(m).label).join(' and ') : null;
    const companies = await Promise.all(
      found.map(async (c): Promise<Side> => {
        // The figures asked of it ("microsoft's margins" of "how does inflation affect microsoft's margins?"), else whether it makes money.
        const own = sidesText(question).find((p) => p.toLowerCase().includes(c.text.toLowerCase()));
        // Rates asked of a company: its debt and what that debt costs it (interest expense), after any other figure asked
        // ("will the fed raising rates affect apple's margins?": its margins first).
        if (rates) {
          const other = (parsed?.stated.metrics ? parsed.metrics : []).filter((m) => m !== 'longTermDebt' && m !== 'interestExpense');
          const words = own?.replace(new RegExp(RATES_ASKED.source, 'gi'), ' ').replace(new RegExp(c.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ').replace(/'s\b|\b(?:its|their|the|a|an|for|of|on|to|in|at|debt|debts|borrowing|loans?|stock|shares?|company|business|so|is|are|will|would)\b|[^a-z\s]/gi, ' ').trim();
          const asks = [...(other.length ? [`${c.company.name} ${other.map((m) => metricById(m).label).join(' and ')}`] : words ? [own!] : []), `${c.company.name} long-term debt`, `${c.company.name} interest expense`];
          const got = await Promise.all(asks.map((content) => gather(o.sec.run({ ...req, messages: [{ role: 'user', content }] }), o.log)));
          return { name: `${c.company.name} (${c.company.ticker})`, source: 'SEC filings', answer: leadsJoined(got.map((g) => ({ text: g.error ?? g.text, citations: g.citations }))) };
        }
        const more = own?.replace(new RegExp(c.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ').replace(/'s\b|\b(?:its|their|the|a|an|for|of|on|to|in|at|stock|stocks|shares?|price|company|business|one|which|more|less|so|buy|sell)\b|[^a-z\s]/gi, ' ').trim();
        const asked = figures ? `${c.company.name} ${figures}` : more ? own! : `is ${c.company.name} profitable?`;
        const got = await gather(o.sec.run({ ...req, messages: [{ role: 'user', content: asked }] }), o.log);
        return { name: `${c.company.name} (${c.company.ticker})`, source: 'SEC filings', answer: leadOf({ text: got.error ?? got.text, citations: got.citations }) };
      }),
    );
    const markets = (
      await Promise.all(
        tickers.map(async (t): Promise<Side | null> => {
          const read = await together.sheetOf(t).catch(() => null);
          const brief = read ? answerFromReport('in one sentence for a trader', read.sheet, []) : null;
          if (!read || !brief) return null;
          // (Live quotes alone have no model to quote beside the market.)
          const text = brief.text.replace(/^\*\*[^*]+\*\*:\s*/, '');
          return { name: read.sheet.title, source: 'Kalshi', answer: { text: read.sheet.unreported ? `${text.replace(/,\s*model NaN%/g, '').replace(/\.?\s*$/, '')} (live prices; no report is stored, so no model).` : text, citations: brief.citations } };
        }),
      )
    ).filter((s): s is Side => s !== null);
    if ((!markets.length && !rates) || markets.length + companies.length < 2 - (rates ? 1 : 0)) return null;
    return linkedAnswer(question, [...companies, ...markets]);
  }

  /** An open market on interest rates (the Fed's decision) that the thread discussed or a stored report covers; null when none. */
  async function ratesMarket(history: readonly Turn[]): Promise<string | null> {
    const search = await o.index.get().catch(() => null);
    const hits = (search?.search('Fed interest rate decision', 3) ?? []).filter((h) => h.matched > 1).map((h) => h.entry.event.event_ticker);
    const said = history.map((t) => t.content).join('\n');
    for (const ticker of hits) if (said.includes(ticker) || (await o.reports.latest(ticker))) return ticker;
    return null;
  }

  /**
   * A turn that leaves a market for a company ("what about apple?", "and apple's earnings per share?"
   * after the Fed odds), or a company for a market ("what about jobs numbers, what do traders expect?"
   * after company figures): where it goes instead of the thread's route; null to keep that.
   */
  async function switched(question: string, rule: Route): Promise<Route | null> {
    const parsed = await companiesOf(question);
    const found = (parsed?.companies ?? []).filter((c) => c.status === 'found' && !c.fuzzy);
    const ofMarket = rule.kind === 'odds' || (rule.kind === 'kalshi_url' && !KALSHI_URL.test(question));
    if (ofMarket && found.length && !MARKET_WORDS.test(question)) {
      const rest = found.reduce((q, c) => q.replace(new RegExp(`\\b${c.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:'s)?`, 'gi'), ' '), routedText(question));
      if (!(await eventsNamedIn(rest)).length) return { kind: 'filings', reason: 'names a company, and no open event' };
    }
    const ofCompany = rule.kind === 'filings' || rule.kind === 'financials' || rule.kind === 'help';
    if (ofCompany && !found.length && MARKET_WORDS.test(question) && (await eventsNamedIn(question)).length) return { kind: 'odds', reason: 'asks what a market expects, and names no company' };
    return null;
  }

  /** "I have $1000. Is Tesla a good company?" of a company the snapshot lacks: no advice, and the companies it has. */
  async function notCovered(req: AgentRequest, question: string): Promise<Answer | null> {
    if (!JUDGED.test(question)) return null;
    const mentions = (await companiesOf(question))?.companies ?? [];
    const unknown = mentions.find((c) => c.status === 'unknown');
    if (!unknown || mentions.some((c) => c.status === 'found')) return null;
    const coverage = await gather(o.sec.run({ ...req, messages: [{ role: 'user', content: 'which companies do you cover?' }] }), o.log);
    return coverage.error ? null : notCoveredAnswer(unknown.text.replace(/^\w/, (c) => c.toUpperCase()), coverage.text);
  }

  /** "What does 58% mean here, is that likely?": the price of the event discussed, in words. */
  async function percentMeaning(before: readonly Turn[], question: string): Promise<Answer | null> {
    // ("What does 16c on hold mean?" is how a contract's price reads: the event's basics.)
    const asked = PERCENT_MEANING.test(question) || (OUTCOME_MEANING.test(question) && eventQuestion(question) !== 'basics');
    const discussed = asked ? discussedEvent(before) : null;
    const read = discussed ? await together.sheetOf(parseEventUrl(discussed).eventTicker).catch(() => null) : null;
    return read ? percentMeant(question, read.sheet) : null;
  }

  /** One part of a question with several, answered by its specialist without the language model's phrasing. */
  function part(req: AgentRequest, question: string, r: Route): AsyncIterable<AgentEvent> {
    const asked: AgentRequest = { ...req, messages: [...req.messages.slice(0, -1), { role: 'user', content: question }] };
    switch (r.kind) {
      case 'filings':
        return o.sec.run(asked);
      case 'financials':
        return o.financials.run(asked);
      case 'odds':
        return searched(asked, question, null);
      default:
        return kalshi(asked, question, r.url!, null, false);
    }
  }

  const NAMED_IN_THREAD = 'names another event reported in the thread';

  // Named, so that a restatement runs this same agent again on an earlier question (not a new one built per turn).
  const router: Agent = {
    id: ROUTER_ID,
    description:
      'General market-intelligence agent: sends a question to the right specialist (SEC filings, multi-period financials, prediction-market odds, Kalshi event reports) and keeps its citations. Never spends credits.',
    async *run(incoming) {
      // Earlier bare tickers read as the events' addresses ("KXFEDDECISION-26DEC", then "what's the edge?").
      // A series page pasted ("https://kalshi.com/markets/kxfeddecision") is asked as the series' events.
      // Exchanges about svc itself ("is this financial advice?") are left out: a later turn follows up what came before them.
      const messages = longTurnsClipped(tickersAddressed(seriesPagesNamed(withoutAboutTurns(incoming.messages))));
      const req = messages === incoming.messages ? incoming : askedAlike({ ...incoming, messages }, incoming);
      const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      // "¿Cuáles son las probabilidades de que la Fed baje tasas?": its words are no topics nor names, so no search runs on them.
      if (looksNonEnglish(question) && !KALSHI_URL.test(question)) return yield* answer({ text: `${ENGLISH_ONLY}\n\n${help.text}`, citations: [] }, null);
      // "Explain that simply", "summarize everything we talked about": the answers before, restated.
      const form = restateAsked(question);
      const again = form ? await restatement(req, question, form) : null;
      if (again) return yield* answer(again, null);
      // "What would make you wrong?", "how reliable are these numbers?" right after company figures: what those depend on.
      const doubted = await figuresDoubted(req, question);
      if (doubted) return yield* answer(doubted, null);
      // Follow-ups in a thread of stored reports answered from their facts ("will hike beat hold?"; see follow-gaps.ts).
      const gap = await gapsReply({ latest: (t) => o.reports.latest(t) }, req.messages.slice(0, -1), question);
      if (gap && 'answer' in gap) return yield* written(req, question, gap.answer.text, [...gap.answer.citations], null);
      if (gap) return yield* kalshi(req, gap.question, gap.url, null, true, true);
      // "And that one?" of the answer before; "and payrolls?" after "whats the shutdown edge?": the question before, carried over (see carried.ts).
      const reported = KALSHI_URL.test(question) ? [] : await threadReports(req.messages.slice(0, -1), (t) => o.reports.latest(t));
      const that = reported.length ? thatOne(req.messages.slice(0, -1), question, reported) : null;
      if (that && 'answer' in that) return yield* written(req, question, that.answer.text, [...that.answer.citations], null);
      const carried = that ?? (reported.length ? (eventCarried(req.messages.slice(0, -1), question, reported) ?? whyThat(req.messages.slice(0, -1), question, reported)) : null);
      if (carried) return yield* kalshi(req, carried.question, tickerAddress(carried.report.eventTicker)!, null, true, true);
      // "Which of my reports has the widest spreads?", "what would make you wrong?", "size both with half-Kelly".
      const onReports = KALSHI_URL.test(question) ? null : await threads.reply(req.messages.slice(0, -1), question);
      if (onReports && 'answer' in onReports) return yield* written(req, question, onReports.answer.text, [...onReports.answer.citations], null);
      if (onReports) return yield* kalshi(req, onReports.question, onReports.url, null, true, onReports.aboutEvent);
      const sides = await linked(req, question);
      if (sides) return yield* answer(sides, null);
      const meant = await percentMeaning(req.messages.slice(0, -1), question);
      if (meant) return yield* answer(meant, null);
      // "I hold 500 YES on BTC above 96k and 300 YES on ETH above 3400, max loss?": positions, together.
      const book = await together.bookOf(req.messages.slice(0, -1), question);
      if (book) return yield* written(req, question, book.text, [...book.citations], null);
      // "Chance both happen?", "lakers win and btc above 92k, both?": outcomes of several events, together.
      const joint = await together.jointOf(req.messages.slice(0, -1), question);
      if (joint) return yield* written(req, question, joint.text, [...joint.citations], null);
      // "What's an implied probability?", "what does 'normalised' mean?": the words explained, worked on an event's prices.
      const explained = await explain(req.messages.slice(0, -1), question);
      if (explained) return yield* answer(explained, null);
      // "Does that account for fees?" of an answer before: no, and why; "what are kalshi's fees?": not read, and what that means.
      // ("Is the arb real after fees?" asks of the arbitrage: answered on the quotes, with what fees it bears.)
      if (FEES_ASKED.test(question) && !ARB_WORDS.test(question)) return yield* answer({ text: `${/^\W*(?:does|do|did|is|are|was|were)\b/i.test(question) && !/\bare there\b/i.test(question) ? 'No. ' : ''}${FEES_ANSWER}`, citations: [] }, null);
      // "Is this financial advice?", "how fresh is your data?", "who made you?": of svc itself, from what this server runs on.
      const about = aboutAsked(question);
      if (about) {
        const source = o.kalshi.source;
        return yield* answer(aboutAnswer(about, { kalshi: { mode: source.mode, recordedAt: source.recordedAt, note: source.note }, sec: o.secOrigin?.() ?? { mode: 'live', recordedAt: null, demo: false }, searchRefreshMs: o.searchRefreshMs ?? 60_000, llm: o.llm !== null }), null);
      }
      const parts = splitQuestion(question);
      if (parts.length > 1) {
        yield { type: 'progress', message: `Answering ${parts.length} questions in one: ${parts.map((p) => p.route.kind).join(', ')}.` };
        const answers = await Promise.all(parts.map(async (p) => ({ question: p.question, ...(await gather(part(req, p.question, p.route), o.log)) })));
        const usage = answers.reduce<Usage | null>((sum, a) => addUsage(sum, a.usage), null);
        return yield* answer(joinParts(answers), usage);
      }
      let rule = classify(question, req.messages.slice(0, -1));
      rule = (await switched(question, rule)) ?? rule;
      const uncovered = rule.kind === 'help' ? await notCovered(req, question) : null;
      if (uncovered) return yield* answer(uncovered, null);
      // A company named with no figure the rules know ("how'd alphabet do in 2024", "analyst price target for MSFT?"): the filings agent answers or says what it does not have.
      if (rule.kind === 'help' && !isGreeting(question) && !THANKS.test(question) && (await namesCompany(question))) rule = { kind: 'filings', reason: 'names a company' };
      // "Is hold undervalued?" in a thread about an event reads as stock advice, but names no company: a question of the event discussed.
      if (rule.kind === 'filings' && /^advice\b/.test(rule.reason) && eventQuestion(question) !== null && !(await namesCompany(question))) {
        const url = discussedEvent(req.messages.slice(0, -1));
        if (url) rule = { kind: 'kalshi_url', url, reason: 'a question of the event discussed, in the words of stock advice', aboutEvent: true };
      }
      // "A cut of any size?" in a thread on a stored report: words no rule knows, naming some of its outcomes, are of that report.
      if (rule.kind === 'help' && !isGreeting(question) && !THANKS.test(question)) {
        const url = discussedEvent(req.messages.slice(0, -1));
        const stored = url ? await o.reports.latest(parseEventUrl(url).eventTicker) : null;
        const named = stored ? outcomesNamed(routedText(question), stored).length : 0;
        if (url && stored && named && named < readReport(stored.text).rows.length) rule = { kind: 'kalshi_url', url, reason: "names outcomes of the thread's stored report", aboutEvent: true };
      }
      // "Can hold overtake hike?", "will hike flip hold?" in a thread on a stored report: two of its outcomes, one passing the other, compared from it.
      if ((rule.kind === 'odds' || rule.kind === 'help') && !rule.events && PASSING.test(routedText(question)) && !KALSHI_URL.test(question)) {
        const url = discussedEvent(req.messages.slice(0, -1));
        const stored = url ? await o.reports.latest(parseEventUrl(url).eventTicker) : null;
        if (url && stored && outcomesNamed(routedText(question), stored).length === 2) rule = { kind: 'kalshi_url', url, reason: "one of the thread's report's outcomes passing another", aboutEvent: true };
      }
      // Words no rule knows may name an open event ("Chiefs vs Bills"): every one of them matching one makes it an odds question.
      if (rule.kind === 'help' && !isGreeting(question) && (await namesOpenEvent(question))) rule = { kind: 'odds', reason: 'names an open Kalshi event' };
      // ("And the spacex one, whats the favourite?", "back to payrolls: the most likely bucket?" in a thread of
      // stored reports: the reported event the question names by its own title's words, whatever was discussed last.)
      if ((rule.kind === 'kalshi_url' || rule.kind === 'odds') && !KALSHI_URL.test(question) && (rule.kind === 'odds' || rule.url)) {
        // (Of the reports the user asked for by address in this thread, not events a search listed; and a question of one event, not "rank the nyc temp, payrolls and approval markets".)
        const addressed = new Set(req.messages.slice(0, -1).filter((t) => t.role === 'user').flatMap((t) => eventsAddressed(t.content)).map((t) => t.toUpperCase()));
        const reports = (await threadReports(req.messages.slice(0, -1), (t) => o.reports.latest(t))).filter((r) => addressed.has(r.eventTicker.toUpperCase()));
        const topics = rule.kind === 'odds' ? new Set((await o.index.get()).named(question.split(/,|;|\band\b|\bor\b|\bvs\.?|\bversus\b/i)).map((n) => n.ticker)) : new Set<string>();
        const own = rule.url ? parseEventUrl(rule.url).eventTicker.toUpperCase() : null;
        // (One report is enough when the event discussed is another, with none stored: "whats the shutdown edge?" after payrolls' address.)
        const elsewhere = reports.some((r) => r.eventTicker.toUpperCase() !== own);
        const named = (reports.length > 1 || rule.kind === 'odds' || elsewhere) && topics.size <= 1 ? threadEventsNamed(question, reports) : [];
        const meant = named.length === 1 ? tickerAddress(named[0]!.eventTicker) : null;
        if (meant && named[0]!.eventTicker.toUpperCase() !== own && (rule.kind === 'kalshi_url' || eventQuestion(routedText(question)) !== null || outcomesNamed(routedText(question), named[0]!).length > 0)) rule = { kind: 'kalshi_url', url: meant, reason: NAMED_IN_THREAD, aboutEvent: true };
      }
      // The thread's event, read from the conversation, unless the question's own words name another
      // open event better ("and arctic sea ice above 10 million sq km?" in a thread on the AI release).
      if (rule.kind === 'kalshi_url' && rule.url && !KALSHI_URL.test(question) && (await namesAnotherEvent(question, parseEventUrl(rule.url).eventTicker))) {
        const asked = [...req.messages].slice(0, -1).reverse().find((m) => m.role === 'user');
        rule = { kind: 'odds', reason: 'names another open event than the one discussed', ...(asked ? { context: asked.content } : {}) };
      }
      // ("Price of hike?" in a thread on the Fed's report, then Bitcoin's: the Fed's, whose outcome it names.)
      if (rule.kind === 'kalshi_url' && rule.url && rule.aboutEvent && !KALSHI_URL.test(question) && rule.reason !== NAMED_IN_THREAD) {
        const meant = await reportedEventMeant(req.messages.slice(0, -1), question, parseEventUrl(rule.url).eventTicker);
        if (meant) rule = { ...rule, url: meant, reason: 'an outcome or answer of another event reported in the thread' };
      }
      // Asking the language model takes a while: a stream opens first (response.in_progress goes out now).
      if (o.llm && rule.kind !== 'kalshi_url') yield { type: 'progress', message: 'Reading the question.' };
      const { route: r, usage } = await route(req, question, rule);
      o.log.debug({ route: r.kind, reason: r.reason, request: req.requestId }, 'routed');
      switch (r.kind) {
        case 'filings': {
          // "Is Amazon a good stock to buy?": whatever the filings say, no advice is given, and said so.
          const judged = JUDGED.test(question) ? await gather(o.sec.run(req), o.log) : null;
          if (judged && !judged.error) return yield* answer({ text: /investment advice/i.test(judged.text) ? judged.text : `I do not give investment advice: whether to buy is yours to weigh. What the filings say:\n\n${judged.text}`, citations: judged.citations }, addUsage(usage, judged.usage));
          yield* withUsage(o.sec.run(req), usage);
          return;
        }
        case 'financials':
          yield* withUsage(o.financials.run(req), usage);
          return;
        case 'odds': {
          // "Which one has more volume?" of the events discussed: those, by how much they trade.
          if (rule.movers && rule.events) {
            // (Their moves over the week, asked of events with stored reports, from those reports.)
            const reported = rule.movers === 'move' ? await movesAcrossReports(rule.events, (t) => o.reports.latest(t), /\b(?:today|24 ?h\w*|day|yesterday|overnight)\b/i.test(question), outcomesDiscussed(req.messages.slice(0, -1), rule.events)) : null;
            if (reported) return yield* written(req, question, reported.text, [...reported.citations], usage);
            const ranked = await moversAcross(o.kalshi, rule.events, rule.movers, rule.events.length, /\bweek(?:ly)?\b|\b7 days\b/i.test(question));
            return yield* written(req, question, ranked.text, [...ranked.citations], usage);
          }
          if (rule.movers) {
            yield { type: 'progress', message: 'Reading the open events\' prices and volumes.' };
            const search = await o.index.get();
            // "Biggest movers in crypto?": those of the topic; with none named, the open events soonest to settle.
            const topic = question.replace(new RegExp(MOVERS_ASKED.source, 'gi'), ' ');
            const tickers = EventSearch.terms(topic).length ? search.search(topic, 10).map((h) => h.entry.event.event_ticker) : search.everyEvent(MOVERS_READ).map((x) => x.event.event_ticker);
            const ranked = await moversAcross(o.kalshi, tickers, rule.movers, 8, /\bweek(?:ly)?\b|\b7 days\b/i.test(question));
            return yield* written(req, question, ranked.text, [...ranked.citations], usage);
          }
          if (rule.events) {
            const asked = eventQuestion(question);
            const live = asked === 'market_favourite' || asked === 'market_least' || asked === 'closing';
            yield { type: 'progress', message: live ? `Reading the ${rule.events.length} events listed.` : `Reading the stored reports of the ${rule.events.length} events listed.` };
            // (The reports the user asked for in this thread are spoken of as such, not as events a search listed.)
            const group = groupOf(rule.events, req.messages.slice(0, -1));
            const across =
              asked === 'closing'
                ? await closingAcross(o.kalshi, rule.events, !/\b(?:first|soonest|earliest|next)\b/i.test(question), group)
                : live
                  ? await favouritesAcross(o.kalshi, rule.events, asked === 'market_least')
                  : await acrossEvents(rule.events, (t) => o.reports.latest(t), asked === 'best_trade', o.reportCost, asked === 'model_favourite', group);
            // No report among them: what their live prices say, beside that no model compares them yet.
            if (!live && !across.citations.length) {
              const both = followedBy(await favouritesAcross(o.kalshi, rule.events, false), across);
              return yield* written(req, question, both.text, [...both.citations], usage);
            }
            return yield* written(req, question, across.text, [...across.citations], usage);
          }
          return yield* searched(req, question, usage, rule.context);
        }
        case 'kalshi_url':
          return yield* kalshi(req, question, r.url!, usage, true, rule.aboutEvent);
        default: {
          // Help is fixed text with no sources: nothing for the model to phrase. Thanks get a word back, not the help again.
          if (THANKS.test(question)) return yield* answer(welcome, null);
          if (OUT_OF_SCOPE.test(question)) return yield* answer({ text: `I only do financial research: company figures from SEC filings and prediction-market odds and reports, each answer with its sources, so I do not write poems, stories, jokes or code, translate, answer general questions, nor book, order or place trades for you (orders are placed on the exchange itself).\n\n${help.text}`, citations: [] }, null);
          // Asked, of an event being discussed, what nothing read about it says ("any injury news?", "the NWS forecast?").
          const event = isGreeting(question) ? null : discussedEvent(req.messages.slice(0, -1));
          const outside = event ? await outsideOf(parseEventUrl(event).eventTicker, question) : null;
          if (outside) return yield* answer(outside, null);
          // (A question in another language was answered before routing.)
          yield* answer(help, null);
        }
      }
    },
  };
  return router;
}
