import type { Core } from '../../app.js';
import { isSvcError } from '../../errors.js';
import { secLibrary } from '../../data/sec/index.js';
import type { FactCitation, SecLibrary } from '../../data/sec/library.js';
import { SAME_DATE, asksCoverage, clipped, comparedCompanies, parseSecQuestion, parseWithInstructions, type SecQuestion, type PeriodSpec } from '../../data/sec/question.js';
import type { CompanyRef } from '../../data/sec/types.js';
import type { CompanyIndex } from '../../data/sec/companies.js';
import { extraWeekLength, type FiscalPeriod } from '../../data/sec/calendar.js';
import { shortName } from '../../data/sec/names.js';
import type { ReportedFact } from '../../data/sec/facts.js';
import { metricById, type MetricId } from '../../data/sec/metrics.js';
import type { Agent, AgentEvent, AgentRequest, Answer, Citation, Turn } from '../types.js';
import { OUT_OF_SCOPE } from '../../text.js';
import { CHART_ASKED, withCharts } from '../financials/chart.js';
import { answerValuation, valuationInConversation } from './valuation.js';
import { answerBiggestMove, biggestMoveAsked } from './biggest-move.js';
import { SourceList, listed } from '../citations.js';
import { answerTables, asksOfPeriods, asksTotal, spanAsked, spanOf, tabulable, type Span } from '../financials/table.js';
import { MAX_COMPANIES, planAnswer } from './plan.js';
import { FILINGS_ASKED, FILING_OF_FIGURE, answerFilingOfFigure, answerFilings, citedBefore, latestFilingAsked } from './filings.js';
import { DATA_AGE_ASKED, NEXT_DUE_ASKED, answerFilingDates, filingDatesAsked } from './filing-dates.js';
import { meaningAsked, type MeaningAsked } from './glossary.js';
import { formAsked, plainShape, restated, type FormAsked } from './restate.js';
import { formOfAnswerBefore } from './restate-before.js';
import { ACCELERATION_ASKED, accelerationAnswer, computedAnswer, operationAsked } from './arithmetic.js';
import { periodName } from './format.js';
import { AnswerWriter, QUALITY_ASKED, RATIO_LIST_ASKED, WHY, WHY_NOT_IN_FIGURES, factKey, factsToCite, ratioListText } from './write.js';
import { BREAKDOWN_ASKED, answerBreakdown, answerUnnamedBreakdown, breakdownUnnamed } from './breakdown.js';
import { FOURTH_QUARTER_10Q_ASKED, answerFourthQuarter } from './fourth-quarter.js';
import { WORKING_ASKED, answerWorking } from './working.js';
import { inInstructedForm } from './instructed.js';
import { askedByCaller } from '../instructed.js';
import { plainInstructed } from '../instructions.js';
import { answerSharesBehind, sharesBehindAsked } from './shares-behind.js';
import { askedBefore, whereSaid } from './where-said.js';
import { FIGURES_DOUBTED, WRONG, figuresDependOn } from '../figures-doubted.js';
import { answerOf } from '../citations.js';

export const SEC_AGENT_ID = 'svc-sec-agent';

export function secAgent(core: Core): Agent {
  // Made now, not on first use: it also serves PDFs of filings linked to by another replica.
  const lib = secLibrary(core);
  return {
    id: SEC_AGENT_ID,
    description:
      'Answers questions about companies\' SEC filings (revenue, earnings, EPS, cash flow, balance sheet; by fiscal quarter or year, with year-over-year or quarter-over-quarter change, several companies side by side) from XBRL facts, citing the filing page through a signed PDF link.',
    run: (request) => runSecAgent(lib, request),
  };
}

async function* runSecAgent(lib: SecLibrary, request: AgentRequest): AsyncGenerator<AgentEvent> {
  const asked = clipped([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
  // "What filing is the latest quarter from?", "which 10-Q is that from?": the filing itself, by form, period, date and accession.
  if (FILING_OF_FIGURE.test(asked)) {
    const index = await lib.companyIndex();
    const parsed = parseWithInstructions(request.messages, request.instructions, index);
    const found = (parsed?.companies ?? []).flatMap((c) => (c.status === 'found' ? [c.company] : []));
    if (parsed && found.length) {
      // ("The latest quarter", said: that; "that" after a table of quarters: its latest.)
      const spec = /\b(?:latest|last|most recent|newest)\s+(?:quarter|qtr|period)\b/i.test(asked) ? ({ kind: 'latest', span: 'quarter' } as const) : parsed.period;
      // ("Which filing says that?": "says" is no figure; the figure is the one asked before.)
      const before = parsed.stated.metrics ? null : parseWithInstructions(request.messages.slice(0, -1), request.instructions, index);
      const metric = (parsed.stated.metrics ? parsed.metrics[0] : (before?.metrics[0] ?? parsed.metrics[0])) ?? 'revenue';
      return yield* answerFilingOfFigure(lib, found.slice(0, MAX_COMPANIES).map((company) => ({ company, spec, metric })));
    }
  }
  // ("Show me where it says that": the pages of the answer before; "where in the 10-Q is EPS?": of that figure.)
  if (whereSaid(asked)) return yield* sourcesOnly(answerSec(lib, NEW_SUBJECT.test(asked) ? request : askedBefore(request)));
  yield* sourcesAsked(asked) ? sourcesOnly(answerSec(lib, request)) : CHART_ASKED.test(asked) ? withCharts(answerSec(lib, request)) : answerSec(lib, request);
}

/** What executives said, on a call or anywhere: no filing's figures hold it. */
const SPOKEN = /\b(?:earnings|conference|investor) calls?\b|\btranscripts?\b|\b(?:on|in|during) the call\b|\b(?:ceo|cfo|management|executives?|tim cook|satya nadella|sundar pichai)\b[^?]{0,40}\b(?:say|said|says|think|thinks|mention(?:s|ed)?)\b/i;

/** What a filing says in words ("does the 10-K mention layoffs?", "risk factors", "what did they say about AI in the 10-K"). */
const FILING_WORDS = /\b(?:10-?k|10-?q|8-?k|filings?|annual report|proxy)\b[^?]{0,40}\b(?:mention(?:s|ed)?|says?|said|discuss(?:es|ed)?|talk(?:s|ed)? about|warn(?:s|ed)?|disclose[sd]? anything)\b|\b(?:mention(?:s|ed)?|says?|said|discuss(?:es|ed)?|write|wrote)\b[^?]{0,40}\b(?:in|of) (?:the|its|their|apple's|a) (?:latest |last |recent )?(?:10-?k|10-?q|filings?|annual report)\b|\brisk factors?\b|\bmd&a\b|\blayoffs?\b|\blawsuits?\b|\blitigation\b/i;

/**
 * "What's the source?", "link me the 10-K page", asked of the answer before with nothing new:
 * the filing pages it cites, linked, rather than its figures again.
 */
const SOURCES_ASKED = /\b(?:sources?|cite[sd]?|citations?|links?|url|pdf|where did you get (?:that|this|these|those|it|them)|(?:which|what) (?:filing|page|document)|where (?:is|did|does|do) (?:that|this|it|these|those|the)(?: (?:data|numbers?|figures?|values?))? (?:come|comes|coming) from)\b/i;
const NEW_SUBJECT = /\b(?:revenue|sales|income|profit|margin|eps|earnings|cash|debt|assets|liabilities|equity|expenses?|capex|dividends?|buybacks?|shares|q[1-4]|fy\s*\d|(?:19|20)\d\d)\b/i;
export const sourcesAsked = (asked: string) => SOURCES_ASKED.test(asked) && !NEW_SUBJECT.test(asked);

/** An answer's sources alone, each a link to its page, the [n] markers kept; the answer itself when it cites nothing. */
export async function* sourcesOnly(events: AsyncIterable<AgentEvent>): AsyncGenerator<AgentEvent> {
  let text = '';
  const citations: Citation[] = [];
  for await (const e of events) {
    if (e.type === 'text') text += e.delta;
    else if (e.type === 'citation') citations.push(e.citation);
    else if (e.type === 'answer') (text += e.answer.text), citations.push(...e.answer.citations);
    else if (e.type !== 'done') yield e;
  }
  if (!citations.length) return yield* said(text);
  const cited = new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  const listed = citations.filter((c) => cited.has(c.order)).sort((a, b) => a.order - b.order).map((c, i) => ({ ...c, order: i + 1 }));
  yield { type: 'text', delta: `The figures of that answer come from these filing pages (each link opens the filing at its page):\n\n${listed.map((c) => `- [${c.name}](${c.url}) [${c.order}]`).join('\n')}\n` };
  for (const citation of listed) yield { type: 'citation', citation };
  yield { type: 'done' };
}

/**
 * Follow-ups the SEC agent answers however the thread began, a table of periods included: the
 * working of the answer before, a breakdown by segment or product, the 10-Q of a fourth quarter.
 */
export const askedOfSecAgent = (asked: string) => WORKING_ASKED.test(asked) || BREAKDOWN_ASKED.test(asked) || breakdownUnnamed(asked) || FOURTH_QUARTER_10Q_ASKED.test(asked);

export async function* answerSec(lib: SecLibrary, request: AgentRequest): AsyncGenerator<AgentEvent> {
  const last = clipped([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
  // "Summarize in one sentence", "just the number", "explain like I'm 12": the answer before (or the one asked with it), in that form.
  // (Plain words asked in the caller's instructions, "Explain like I'm 12.", with bullets or one sentence asked here: that shape in plain words.)
  const read = formAsked(last);
  const form = read && !read.plain && plainShape(read.form) && askedByCaller(request) && plainInstructed(request.instructions) ? { ...read, plain: true } : read;
  const restatement = form ? await restatedAnswer(lib, request, form) : null;
  if (restatement) return yield* replayed(restatement);
  const before = form ? await formOfAnswerBefore(request.messages, form, (messages) => answerSec(lib, { ...request, messages })) : null;
  if (before) return yield* replayed(before);
  // "Show the formula you used", "how did you calculate that?": the arithmetic of the answer before, made again.
  if (WORKING_ASKED.test(last)) {
    const earlier = request.messages.slice(0, -1);
    const at = earlier.findLastIndex((m) => m.role === 'user' && !WORKING_ASKED.test(clipped(m.content)));
    if (at >= 0) return yield* answerWorking(answerSec(lib, { ...request, messages: earlier.slice(0, at + 1) }), lib.dataNote());
  }
  // "What would make you wrong?", "how reliable are these numbers?", "can I trust that?": what the figures just given depend on.
  const doubted = doubtAsked(last) ? await figuresDoubted(lib, request) : null;
  if (doubted) return yield* said(doubted.text, doubted.citations);
  // "Write a python script that downloads Apple's 10-K": its words are no figures or companies.
  // "What did Tim Cook say on the earnings call?": what is said is not what is filed.
  if (SPOKEN.test(last)) return yield* said(`I read the figures companies file with the SEC (the XBRL data of their 10-K and 10-Q filings), not earnings calls, transcripts or what executives say. Ask for a figure instead, for example “Apple revenue last quarter” or “Apple gross margin for the last 4 quarters”, each cited to the filing page it comes from.\n`);
  if (OUT_OF_SCOPE.test(last)) return yield* said(`This model answers questions about companies' figures from their SEC filings, each with the filing page it comes from; it does not write code or stories, translate, answer general questions, nor book or order anything. Ask, for example, “What was Apple's revenue in fiscal 2024?”.\n`);
  // The first SEC request comes before any event, so that an unusable source (no User-Agent,
  // EDGAR down) fails the request with its own status instead of inside a started stream.
  const index = await lib.companyIndex();
  // Read as the parser reads it: a long turn's start and end.
  const asked = clipped([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
  if (asksCoverage(asked)) return yield* coverageAnswer(lib, index.size);
  const userTurns = request.messages.filter((m) => m.role === 'user');
  // "What ratios can you compute?": every margin and ratio, listed from the table that defines them.
  if (RATIO_LIST_ASKED.test(last)) {
    const company = parseWithInstructions(request.messages, request.instructions, index)?.companies.find((c) => c.status === 'found');
    const note = lib.dataNote();
    return yield* said(`${ratioListText(company?.status === 'found' ? company.company : null)}\n${note ? `\n_${note}_\n` : ''}`);
  }
  const meaning = meaningAsked(last, userTurns.at(-2)?.content);
  if (meaning) return yield* answerMeaning(lib, request, parseWithInstructions(request.messages.slice(0, -1), request.instructions, index), meaning);
  const parsed = parseWithInstructions(request.messages, request.instructions, index);
  // "List Microsoft's filings", "when was apple's latest 10-Q filed?": the filings themselves.
  const named = parsed?.companies.flatMap((c) => (c.status === 'found' ? [c.company] : [])) ?? [];
  // "When was the latest filed?", "when is the next one due?" after a list of 10-Qs: of that form.
  const filingsAsked = withFormCarried(last, request.messages.slice(0, -1));
  // "When is the next 10-Q due?", "how many days after the quarter end did they file?", "how old is this data?": when filings come.
  if (filingDatesAsked(filingsAsked)) {
    const earlier = request.messages.slice(0, -1);
    if (!named.length) {
      const note = lib.dataNote();
      return yield* said(
        DATA_AGE_ASKED.test(last) && note
          ? `${note.replace(/\.$/, '')}: the figures come from the filings it holds, each answer saying the period and the filing date of every figure. Name a company (“how old is Apple's latest data?”) for its latest filing and how long ago its period ended.\n`
          : `Which company? Name one by ticker or name (“when is Apple's next 10-Q due?”, “how many days after the quarter end did Microsoft file its latest 10-Q?”) and I will reckon it from its filings.\n`,
      );
    }
    // The figures of the answer before, planned again: the periods and filings "this data" means.
    // (Turns about the filings themselves, "when is the next 10-Q due?", are passed over: the figures are those asked before them.)
    const at = earlier.findLastIndex((m) => m.role === 'user' && !filingDatesAsked(clipped(m.content)) && !FILINGS_ASKED.test(clipped(m.content)) && !sourcesAsked(clipped(m.content)));
    const asOf = at >= 0 ? earlier.slice(0, at + 1) : [];
    const previous = asOf.length && !NEXT_DUE_ASKED.test(last) ? await acrossCovered(lib, parseWithInstructions(asOf, request.instructions, index), clipped(asOf.at(-1)!.content), asOf.slice(0, -1)) : null;
    const before = previous && previous.companies.some((c) => c.status === 'found') ? await planAnswer(lib, previous, { progress: () => {} }) : null;
    return yield* answerFilingDates({ lib, companies: named.slice(0, MAX_COMPANIES), asked: filingsAsked, citedBefore: citedBefore(earlier), before });
  }
  // ("Latest 10-K?", "show me Apple's latest 10-Q", naming no figure: that filing, first, and the others.)
  const latestFiling = latestFilingAsked(filingsAsked, Boolean(parsed?.stated.metrics || parsed?.ratios?.length || parsed?.unknownFigures.length)) && !SPOKEN.test(last) && !FILING_WORDS.test(last);
  // ("What were the latest filing dates for all three?": every company covered.)
  const filers = (FILINGS_ASKED.test(filingsAsked) || latestFiling) && !named.length ? ((await acrossCovered(lib, parsed, asked, request.messages.slice(0, -1)))?.companies.flatMap((c) => (c.status === 'found' ? [c.company] : [])) ?? []) : named;
  if ((FILINGS_ASKED.test(filingsAsked) || latestFiling) && filers.length) return yield* answerFilings(lib, filers.slice(0, MAX_COMPANIES), filingsAsked, request.messages.slice(0, -1));
  // "Does the 10-K mention layoffs?" of no company: a filing's words, not its figures (of a company, its key figures say so).
  if (FILING_WORDS.test(last) && !NEW_SUBJECT.test(last) && !parsed?.companies.some((c) => c.status === 'found')) return yield* said(`I read the figures companies file with the SEC (the XBRL data of their 10-K and 10-Q filings), not the filings' text, so I cannot say what a filing says or mentions about a subject (risk factors, layoffs, lawsuits, strategy). Ask for a figure instead, for example “Apple revenue last quarter” or “Microsoft operating expenses for the last 4 quarters”, each cited to the filing page it comes from, where the filing can be read.\n`);
  // "Biggest QoQ jump?" after a figure (or naming one): the quarter of the largest move across the quarters held, cited.
  const move = biggestMoveAsked(last);
  if (move && named.length && parsed && parsed.metrics.length && !parsed.ratios?.length) return yield* answerBiggestMove(lib, named.slice(0, MAX_COMPANIES), parsed.metrics, move);
  // "What is Apple's fiscal year?", "when does Microsoft's fiscal year end?": its calendar, from its filings.
  // ("And Microsoft's?", "what about googl" right after it: that company's calendar too.)
  // (Through other such turns: "and Microsoft's?", then "what about googl".)
  // ("Apple fiscal year", said without a question, asked it too.)
  const calendarTurn = (t: string) => FISCAL_YEAR_ASKED.test(t) || fiscalCalendarNamed(t, parseSecQuestion(t, index));
  // (The cheap test first, and only the last few turns: a parse per turn of a history of thousands took seconds.)
  const turnBefore = userTurns.slice(-CALENDAR_LOOKBACK - 1, -1).map((m) => clipped(m.content)).findLast((t) => !COMPANY_ONLY.test(t) || calendarTurn(t));
  const calendarCarried = Boolean(turnBefore && calendarTurn(turnBefore) && parsed?.stated.companies && !parsed.stated.period && !parsed.unknownFigures.length && COMPANY_ONLY.test(last));
  if ((FISCAL_YEAR_ASKED.test(last) || calendarCarried || fiscalCalendarNamed(last, parsed)) && !/\b(?:most|least|best|worst|highest|lowest|biggest|largest|strongest|weakest)\b/i.test(last) && named.length && !parsed?.stated.metrics && !parsed?.ratios?.length) return yield* answerFiscalYear(lib, named.slice(0, MAX_COMPANIES));
  // "Was that the december quarter?": of the period just answered, yes or no, with its dates.
  const monthAsked = MONTH_QUARTER.exec(last);
  if (monthAsked) {
    const answered = await quarterMonthAnswer(lib, parseWithInstructions(request.messages.slice(0, -1), request.instructions, index), monthAsked[1]!);
    if (answered) return yield* said(answered);
  }
  let question = await acrossCovered(lib, parsed, asked, request.messages.slice(0, -1));
  const elsewhere = askedOfMarkets(asked, question);
  if (elsewhere) return yield* said(elsewhere);
  // "How many shares is that based on?" after EPS: the weighted-average diluted count, or, not in the data, said so and the period-end count labelled.
  if (question?.companies.some((c) => c.status === 'found') && sharesBehindAsked(asked, question, parseWithInstructions(request.messages.slice(0, -1), request.instructions, index))) {
    return yield* answerSharesBehind(lib, question, (q) => answerSecQuestion(lib, q));
  }
  // "Break that down", naming no dimension: the lines the data holds for the figure discussed, or which breakdowns there are.
  if (breakdownUnnamed(asked) && question?.companies.some((c) => c.status === 'found')) {
    const earlier = request.messages.slice(0, -1);
    const at = earlier.findLastIndex((m) => m.role === 'user');
    const before = question.stated.metrics || at < 0 ? null : await acrossCovered(lib, parseWithInstructions(earlier, request.instructions, index), clipped(earlier[at]!.content), earlier.slice(0, at));
    // ("Break it down for Microsoft": the figure before, of the company named.)
    const of = before?.metrics.length ? (question.stated.companies ? { ...before, companies: question.companies } : before) : question;
    return yield* answerUnnamedBreakdown(lib, of, (q) => tableOrFigures(lib, request, q));
  }
  // "Break it down by segment or product": no such figures here; what there is instead.
  // (Naming no figure, it is of the figures asked before: "Apple revenue Q3 2024", "break it down by segment".)
  if (BREAKDOWN_ASKED.test(asked) && question?.companies.some((c) => c.status === 'found')) {
    const earlier = request.messages.slice(0, -1);
    const at = earlier.findLastIndex((m) => m.role === 'user');
    const before = question.stated.metrics || at < 0 ? null : await acrossCovered(lib, parseWithInstructions(earlier, request.instructions, index), clipped(earlier[at]!.content), earlier.slice(0, at));
    return yield* answerBreakdown(lib, before?.metrics.length && !question.stated.companies ? before : question, (q) => tableOrFigures(lib, request, q));
  }
  // "The 10-Q and 10-K numbers for Apple Q4": there is no Q4 10-Q; the quarter is the year less the nine months.
  if (FOURTH_QUARTER_10Q_ASKED.test(asked) && question?.companies.some((c) => c.status === 'found')) return yield* answerFourthQuarter(lib, question, (q) => answerSecQuestion(lib, q));
  question = judgedWhole(withComponents(question, asked, () => parseWithInstructions(request.messages.slice(0, -1), request.instructions, index)), asked);
  // "Average of the three?", "difference?", "how many times higher?" of the figures just given (a table's periods have their own summary lines).
  const operation = operationAsked(asked);
  if (operation && question?.companies.some((c) => c.status === 'found') && !question.stated.metrics && !question.stated.period && !(periodsAsked(request, question) && tabulable(question))) {
    const computed = await computedAnswer(lib, question, operation);
    if (computed) return yield* replayed(computed);
  }
  // "So is growth accelerating?", "is it slowing down?": this period's year-over-year growth against the period before's.
  if (ACCELERATION_ASKED.test(asked) && question?.companies.some((c) => c.status === 'found') && !(periodsAsked(request, question) && tabulable(question))) {
    const accel = await accelerationAnswer(lib, { ...question, metrics: question.metrics.length ? question.metrics : ['revenue'], unknownFigures: [] }, asked);
    if (accel) return yield* replayed(accel);
  }
  const currency = currencyNote(asked);
  if (currency) yield { type: 'text', delta: currency };
  // "Apple P/E at $200": the price is the asker's; the filings give the earnings and the shares.
  const valuation = valuationInConversation(asked, request.messages.slice(0, -1).filter((m) => m.role === 'user').map((m) => clipped(m.content)));
  if (valuation && question?.companies.some((c) => c.status === 'found')) return yield* answerValuation(lib, question, valuation.price, valuation.judged);
  const periods = periodsAsked(request, question);
  if (periods && tabulable(question)) {
    // "What's driving it?" of a table: its figures say what moved, not why.
    if (WHY.test(asked)) yield { type: 'text', delta: `${WHY_NOT_IN_FIGURES} The figures:\n\n` };
    yield* answerTables(lib, question, periods);
  }
  // ("combined?" of two companies' figures, one after the other, adds them: that is a sum of companies.)
  else if (!periods && question && asksOfPeriods(asked) && !question.stated.period && !question.stated.metrics && !question.stated.companies && !(asksTotal(asked) && question.companies.length > 1)) {
    // "combined?" after single figures: nothing shown to add up (the last figure again would read as a total).
    const average = !asksTotal(asked);
    yield {
      type: 'text',
      delta: average
        ? `There is no table of periods here to average: each answer so far was one figure. Ask for the periods together, for example “Apple average quarterly revenue in fiscal 2024” or “Apple revenue for the last 4 quarters, and the average”.\n`
        : `There is no table of periods here to add up: each answer so far was one figure. Ask for the periods together, for example “Apple revenue Q2 2024 and Q3 2024 combined” or “Apple revenue for the last 4 quarters, in total”, and the table gets a Total column.\n`,
    };
    yield { type: 'done' };
  } else {
    // "Answer in one sentence.", "Reply with just the number." in the instructions: the figures in that form, as if the question asked it.
    const shaped = form ? null : await inInstructedForm(lib, question, request, asked);
    yield* shaped ? replayed(shaped) : answerSecQuestion(lib, question);
  }
}

/**
 * "What does EPS stand for?", "whats capex": the meaning, then, when a company is being discussed,
 * its figure, asked as the follow-up the term stands for ("capital expenditure") in the same period.
 */
async function* answerMeaning(lib: SecLibrary, request: AgentRequest, context: SecQuestion | null, meaning: MeaningAsked): AsyncGenerator<AgentEvent> {
  const companies = context?.companies.flatMap((c) => (c.status === 'found' ? [c.company] : [])) ?? [];
  // (A company discussed that has no figures at all gets the meaning alone, not its problem again.)
  const withFigures = meaning.ask !== null && (await Promise.all(companies.map((c) => lib.profile(c)))).some((p) => p.financials);
  if (!meaning.ask || !withFigures) {
    const hint = meaning.ask ? `\n\nAsk it of a company, by ticker or name (“Apple ${meaning.ask(false)}”), for its figures from the filings, each cited.` : '';
    return yield* said(`${meaning.text}${hint}\n`);
  }
  const p = context!.period;
  const year = p?.kind === 'fiscalYear' || p?.kind === 'calendarYear' || ((p?.kind === 'latest' || p?.kind === 'ended') && p.span === 'year');
  yield { type: 'text', delta: `${meaning.text}\n\n` };
  yield* answerSec(lib, { ...request, messages: [...request.messages.slice(0, -1), { role: 'user', content: meaning.ask(year) }] });
}

/**
 * The figures a format request is about, in that form: those of the question asked with it
 * ("Apple's latest quarter: revenue and profit, one line"), or, asking nothing else, those of the
 * question before, read in its own conversation. Null when that is a table of periods (its own
 * summary lines answer it) or no company's figures.
 */
async function restatedAnswer(lib: SecLibrary, request: AgentRequest, form: FormAsked): Promise<AgentEvent[] | null> {
  const earlier = request.messages.slice(0, -1);
  // The turn that asked the figures: a form asked of the answer before it ("one headline number", then "explain like I'm 12") is passed over.
  const before = earlier.map((m, i) => [m, i] as const).filter(([m]) => m.role === 'user' && formAsked(clipped(m.content))?.rest !== '').at(-1);
  if (!form.rest && !before) return null;
  const index = await lib.companyIndex();
  // Read as the conversation stood when those figures were asked.
  // (A turn that asked figures in a form, "… for a general audience", is read without the words of its form.)
  const beforeText = before ? (formAsked(clipped(before[0].content))?.rest ?? clipped(before[0].content)) : '';
  const messages: Turn[] = form.rest ? [...earlier, { role: 'user', content: form.rest }] : [...earlier.slice(0, before![1]), { role: 'user', content: beforeText }];
  const parsed = parseWithInstructions(messages, request.instructions, index);
  const [text, context] = form.rest ? [form.rest, earlier] : [beforeText, earlier.slice(0, before![1])];
  const question = await acrossCovered(lib, parsed, text, context);
  if (!question?.companies.some((c) => c.status === 'found') || valuationInConversation(text, []) || (periodsAsked({ ...request, messages }, question) && tabulable(question))) return null;
  // (The figures are restated, not asked again: a company guessed from a misspelling was said to be so when they were given.)
  const companies = (form.form === 'table' && !form.rest ? comparedCompanies(question) : question.companies).map((c) => (c.status === 'found' ? { ...c, fuzzy: false } : c));
  const thread = form.form === 'table' && !form.rest ? figuresThread(earlier.slice(0, before![1] + 1), request, index) : [];
  return restated(lib, { ...question, companies: companies.slice(0, MAX_COMPANIES) }, form, thread);
}

/**
 * "As a table" after figures asked one after another over periods as well as companies ("Apple net
 * income FY2024", "and Microsoft?", "what about the year before?"): each figure given, a row each,
 * cited. Null when the thread moved no period (the companies' table of one question answers it).
 */
export async function threadTable(lib: SecLibrary, request: AgentRequest): Promise<AgentEvent[] | null> {
  const asked = formAsked(clipped([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''));
  if (asked?.form !== 'table' || asked.rest) return null;
  const earlier = request.messages.slice(0, -1);
  const last = earlier.map((m, i) => [m, i] as const).filter(([m]) => m.role === 'user' && !formAsked(clipped(m.content))).at(-1);
  if (!last) return null;
  const index = await lib.companyIndex();
  const thread = figuresThread(earlier.slice(0, last[1] + 1), request, index);
  const question = parseWithInstructions(earlier.slice(0, last[1] + 1), request.instructions, index);
  // (Two periods asked together, "Q3 2024? And in Q4?": both, a row each.)
  if (!question || (!question.periodsListed && (!thread.length || thread.every((q) => JSON.stringify(q.period) === JSON.stringify(question.period))))) return null;
  return restatedAnswer(lib, request, asked);
}

/** A follow-up that keeps the figure asked and moves only the company or period ("and Microsoft?", "what about the year before?"), not one narrowing to itself ("now just Alphabet"). */
const THREAD_KEPT = (q: SecQuestion) => !q.stated.metrics && (q.stated.period || q.stated.companies) && !/\b(?:just|only|instead)\b/i.test(q.text);

/**
 * The questions of the turns before a thread's last figure that the thread moved from, earliest
 * first: each turn that moved only the company or the period of the one before it goes back to that
 * one ("Apple net income FY2024", "and Microsoft?", "what about the year before?": the first two).
 * Empty when the last turn moved nothing, or asked its figures afresh.
 */
function figuresThread(turns: readonly Turn[], request: AgentRequest, index: CompanyIndex): SecQuestion[] {
  const users = turns.map((m, i) => [m, i] as const).filter(([m]) => m.role === 'user');
  const parse = (i: number) => parseWithInstructions(turns.slice(0, i + 1), request.instructions, index);
  const out: SecQuestion[] = [];
  for (let k = users.length - 1; k > 0 && out.length < MAX_COMPANIES * 2; k--) {
    const q = parse(users[k]![1]);
    if (!q || !THREAD_KEPT(q) || !q.companies.some((c) => c.status === 'found')) break;
    const prior = parse(users[k - 1]![1]);
    if (!prior?.companies.some((c) => c.status === 'found') || !prior.metrics.length || formAsked(clipped(users[k - 1]![0].content))) break;
    out.unshift(prior);
  }
  return out;
}

async function* replayed(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  yield* events;
}

/** "Was that the december quarter?", "is it the june quarter?": of the period answered before. */
const MONTH_QUARTER = /^\W*(?:(?:so|and|wait)\W+)?(?:was|is)\s+(?:that|it|this)\s+(?:the\s+)?(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\s+(?:quarter|qtr)\W*$/i;
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * Whether the quarter answered before ended in the month asked ("the December quarter" is the one
 * ending in December; a 52/53-week quarter ending in the first days of a month counts for the month
 * before), said with its dates; null when the turn before answered no single quarter.
 */
async function quarterMonthAnswer(lib: SecLibrary, before: SecQuestion | null, month: string): Promise<string | null> {
  if (!before?.companies.some((c) => c.status === 'found') || !before.metrics.length) return null;
  const plan = await planAnswer(lib, before, { progress: () => {} });
  const figure = plan.figures.find((f) => f.result.kind === 'value' && f.result.period.kind === 'quarter');
  if (!figure || figure.result.kind !== 'value') return null;
  const p = figure.result.period;
  const end = new Date(`${p.end}T00:00:00Z`);
  const endMonth = (end.getUTCDate() <= 7 ? end.getUTCMonth() + 11 : end.getUTCMonth()) % 12;
  const wanted = MONTH_NAMES.findIndex((m) => m.startsWith(month.toLowerCase().slice(0, 3)));
  const named = `${figure.company.name}'s ${periodName(p, figure.fin.calendar)} (the quarter ended ${p.end})`;
  const text = endMonth === wanted
    ? `**Yes**: ${named} is the ${capitalize(MONTH_NAMES[wanted]!)} quarter.`
    : `**No**: ${named} is the ${capitalize(MONTH_NAMES[endMonth]!)} quarter, not the ${capitalize(MONTH_NAMES[wanted]!)} one.`;
  const note = lib.dataNote();
  const yearEnd = new Date(`${figure.fin.calendar.year(p.fy)?.end ?? p.end}T00:00:00Z`).getUTCMonth();
  return `${text} Its fiscal year ${figure.fin.calendar.isCalendarYear ? 'is the calendar year' : `ends in ${capitalize(MONTH_NAMES[yearEnd]!)}`}.\n${note ? `\n_${note}_\n` : ''}`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A follow-up naming only a company ("and Microsoft's?", "what about googl", "same for Alphabet"). */
const COMPANY_ONLY = /^\W*(?:(?:and|so|ok|okay|now)\W+)*(?:(?:what|how)\s+about|same\s+for|for)?\W*[\w.&'’ -]{1,40}?\W*$/i;

/** The fiscal calendar asked ("what is Apple's fiscal year?", "when does Microsoft's fiscal year end?", "is Alphabet's fiscal year the calendar year?"). */
const FISCAL_YEAR_ASKED = /\b(?:what|when|which|how)\b[^?]{0,40}\bfiscal (?:year|calendar|quarters?)\b(?:[^?]{0,30}\b(?:end|ends|start|starts|begin|begins|run|runs|work|works|mean)\b)?|\bfiscal (?:year|calendar)\b[^?]{0,30}\b(?:end|ends|start|starts|begin|begins)\b|\bis\b[^?]{0,40}\bfiscal year\b[^?]{0,20}\bcalendar year\b/i;

/** What is left of a turn naming only the fiscal calendar, once its companies are taken out: "fiscal year", "fiscal year end", "FY end date", "fiscal calendar". */
const FISCAL_CALENDAR_ONLY = /^\W*(?:(?:and|so|ok|okay|now|the|its|their|what\s+about|how\s+about|show(?:\s+me)?|give\s+me|tell\s+me|for|of)\W+)*(?:(?:fiscal|financial)\s+(?:year|calendar|quarters)(?:[\s-]+(?:end|ends|ending|start|starts|dates?|end\s+dates?|calendar|schedule))?|fy[\s-]*(?:end|ends|ending|end\s+dates?|start|calendar|dates))(?:\W+(?:of|for|please|pls|then))*\W*$/i;

/**
 * The fiscal calendar named without a question word ("apple fiscal year", "MSFT fiscal year end",
 * "fiscal calendar for googl"): nothing but the companies and those words, no period nor figure.
 */
function fiscalCalendarNamed(last: string, parsed: SecQuestion | null): boolean {
  if (!parsed || parsed.stated.period || parsed.stated.metrics || parsed.unknownFigures.length) return false;
  let rest = last;
  for (const mention of parsed.companies) {
    if (!mention.text) continue;
    rest = rest.replace(new RegExp(`${mention.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:'s|’s|'|’)?`, 'i'), ' ');
  }
  return FISCAL_CALENDAR_ONLY.test(rest);
}

/**
 * Each company's fiscal calendar, read from its filings: when its fiscal year ends, its latest fiscal
 * year's and latest quarter's dates, each cited to the filing page that reports a figure for that period.
 */
async function* answerFiscalYear(lib: SecLibrary, companies: readonly CompanyRef[]): AsyncGenerator<AgentEvent> {
  const sources = new SourceList();
  const out: string[] = [];
  for (const company of companies) {
    const { financials: fin } = await lib.profile(company);
    if (!fin) {
      out.push(`**${company.name}${company.ticker ? ` (${company.ticker})` : ''}** has no figures in the data, so its fiscal calendar cannot be read.`);
      continue;
    }
    const cal = fin.calendar;
    const cite = async (p: FiscalPeriod) => {
      const v = fin.value('revenue', p) ?? fin.value('netIncome', p);
      const fact = v?.terms[0]?.fact;
      if (!fact) return '';
      const c = await lib.cite(company, fact);
      return ` ${sources.cite(c.key, c.name, c.url)}`;
    };
    const year = [...cal.years].reverse().find((y) => fin.value('revenue', y) ?? fin.value('netIncome', y));
    const quarter = [...cal.quarters].reverse().find((q) => fin.value('revenue', q) ?? fin.value('netIncome', q));
    const who = `**${company.name}${company.ticker ? ` (${company.ticker})` : ''}**`;
    const kind = cal.isCalendarYear ? 'is the calendar year: it ends on December 31, and its quarters are the calendar quarters' : `ends ${cal.describeYearEnd()}, so it is not the calendar year: its quarters are named for the fiscal year, and fiscal Q1 is not calendar Q1`;
    const parts = [`${who}: its fiscal year ${kind}.`];
    if (year) parts.push(`Its latest fiscal year in the filings, ${periodName(year, cal)}, ran from ${year.start} to ${year.end}${await cite(year)}.`);
    if (quarter && (!year || quarter.end > year.end)) parts.push(`Its latest quarter, ${periodName(quarter, cal)}, ran from ${quarter.start} to ${quarter.end}${await cite(quarter)}.`);
    // A 52/53-week year: the day it ends on, read from its years' ends, each year of the filings with its end.
    const rule = cal.yearEndRule();
    if (rule) {
      const years = [...cal.years].reverse().filter((y) => fin.value('revenue', y) ?? fin.value('netIncome', y)).slice(0, 3);
      const ends: string[] = [];
      for (const y of years) ends.push(`${periodName(y, cal)} on ${y.end}${await cite(y)}`);
      parts.push(`It keeps a 52/53-week year ending on ${rule}, so the day moves: ${ends.join(', ')}${years.some((y) => extraWeekLength(y)) ? ` (${years.filter((y) => extraWeekLength(y)).map((y) => periodName(y, cal)).join(', ')} had 53 weeks)` : ''}.`);
    }
    out.push(parts.join(' '));
  }
  const note = lib.dataNote();
  yield { type: 'text', delta: `${out.join('\n\n')}\n${note ? `\n_${note}_\n` : ''}` };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}

/** Odds and prediction markets, which no filing holds ("what are the odds of a Fed hike in December?"). */
const MARKETS_ASKED = /\b(?:odds|chances?|probabilit(?:y|ies)|kalshi|polymarket|prediction markets?|betting|bet on|wager)\b/i;

/**
 * A question about odds that names no company found nor any figure: which model answers it,
 * instead of reading its words as company names. Null for anything the filings may answer.
 */
export function askedOfMarkets(asked: string, question: SecQuestion | null): string | null {
  if (!MARKETS_ASKED.test(asked) || question?.companies.some((c) => c.status === 'found') || question?.stated.metrics) return null;
  return 'This model answers from companies\' SEC filings, which hold no odds. Ask `svc-agent` (it sends odds questions to the markets search) or `svc-markets-search-agent` for open Kalshi events and their prices, and send an event\'s address to `svc-prediction-markets-agent` for its research report.\n';
}

/** What a figure is the difference of: asked why it is what it is, its parts are shown beside it. */
const COMPONENTS: Partial<Record<MetricId, MetricId[]>> = {
  freeCashFlow: ['operatingCashFlow', 'capitalExpenditure'],
  grossProfit: ['revenue', 'costOfRevenue'],
  operatingIncome: ['grossProfit', 'operatingExpenses'],
};

/**
 * "Why is Microsoft's free cash flow lower?": the filings hold no reasons, but they hold what the
 * figure is made of (operating cash flow less capital expenditure): those figures are added beside it.
 */
export function withComponents(question: SecQuestion | null, asked: string, before: () => SecQuestion | null): SecQuestion | null {
  if (!question || !/^\W*why\b|\bwhy (?:did|does|do|is|was|has|have|were|are)\b|\bhow come\b/i.test(asked)) return question;
  // "Why is Microsoft's lower when its operating cash flow is about the same?" after free cash flow
  // of two companies: a part named is asked of the figure before, of the same companies and period.
  // (The conversation before is parsed only for a "why" question.)
  const previous = question.metrics.length > 0 ? before() : null;
  const ofBefore = previous && question.metrics.every((m) => previous.metrics.some((p) => COMPONENTS[p]?.includes(m)));
  const base = ofBefore ? { ...previous, text: question.text } : question;
  const parts = base.metrics.flatMap((m) => COMPONENTS[m] ?? []);
  if (!parts.length) return question;
  return { ...base, metrics: [...new Set([...base.metrics, ...parts])] };
}

/** What a company is judged on as a whole: growth, the margins down to free cash flow. */
const WHOLE: MetricId[] = ['revenue', 'grossProfit', 'operatingIncome', 'netIncome', 'freeCashFlow'];

/**
 * "Is this a good company?": no verdict, but the figures a judgement would rest on, each against the
 * year before (its latest fiscal year unless one is named): revenue, and the margins down to free cash flow.
 */
export function judgedWhole(question: SecQuestion | null, asked: string): SecQuestion | null {
  if (!question || !QUALITY_ASKED.test(asked) || question.stated.metrics || !question.companies.some((c) => c.status === 'found')) return question;
  return { ...question, metrics: WHOLE, margin: true, comparison: 'yoy', versus: null, ttm: false, period: question.stated.period ? question.period : { kind: 'latest', span: 'year' } };
}

/** Another currency asked for ("in euros"): figures are given as filed, unconverted, and said so first. */
const OTHER_CURRENCY = /\b(?:in|to|into|as)\s+(euros?|eur|pounds?(?: sterling)?|gbp|sterling|yen|jpy|yuan|cny|rmb|renminbi|rupees?|inr|cad|canadian dollars?|aud|australian dollars?|chf|swiss francs?|francs?|won|krw|pesos?|mxn|reais|brl)\b/i;

export function currencyNote(asked: string): string | null {
  const m = OTHER_CURRENCY.exec(asked);
  return m ? `Figures are given in the currency each company files in, as shown, not converted to ${m[1]!.toLowerCase()}: no exchange rate is read here.\n\n` : null;
}

/** A fixed answer: its text (and the sources it cites), then done. */
export async function* said(text: string, citations: readonly Citation[] = []): AsyncGenerator<AgentEvent> {
  yield { type: 'text', delta: text };
  for (const citation of citations) yield { type: 'citation', citation };
  yield { type: 'done' };
}

/** Doubt cast on figures: "what would make you wrong?", "how reliable are these numbers?", "can I trust that?". */
const doubtAsked = (asked: string) => WRONG.test(asked) || FIGURES_DOUBTED.test(asked);
const withoutDoubt = (asked: string) => asked.replace(new RegExp(WRONG.source, 'gi'), ' ').replace(new RegExp(FIGURES_DOUBTED.source, 'gi'), ' ');

/**
 * Doubt cast on figures, answered as the router answers it (see figures-doubted): what the figures
 * depend on (the filing and period each is read from, restatements, the inputs of a derived figure,
 * the fiscal calendar, the data's date), cited. The figures are those the question names with its
 * doubt ("can I trust Apple's FY2024 free cash flow?"), else those of the answer before, answered
 * again from its question (never from text a client sends back). With none to weigh, said so.
 */
async function figuresDoubted(lib: SecLibrary, request: AgentRequest): Promise<Answer | null> {
  const earlier = request.messages.slice(0, -1);
  const last = clipped(request.messages.at(-1)?.content ?? '');
  const index = await lib.companyIndex();
  // Figures named with the doubt: that question, its doubt's words taken out.
  const rest = withoutDoubt(last);
  const own = parseWithInstructions([...earlier, { role: 'user', content: rest }], request.instructions, index);
  const named = Boolean(own?.stated.companies || own?.stated.metrics) && own!.companies.some((c) => c.status === 'found');
  const at = earlier.findLastIndex((m) => m.role === 'user' && !doubtAsked(clipped(m.content)));
  const messages = named ? [...earlier, { role: 'user' as const, content: rest }] : at >= 0 ? earlier.slice(0, at + 1) : null;
  const figures = messages ? await answerOf(answerSec(lib, { ...request, messages })) : null;
  const depends = figures ? figuresDependOn(figures) : null;
  if (depends) return depends;
  // (A doubt naming something the filings hold no figure of is left to the question's own answer.)
  if (named || (own?.unknownFigures.length && own.stated.companies)) return null;
  const note = lib.dataNote();
  return {
    text: `${messages ? 'The answer before gave no figure from the filings' : 'No figure has been given yet'}, so there is nothing of mine to weigh. The figures I give are read from companies' SEC filings (the XBRL data of their 10-K and 10-Q filings), not forecast: each is only as right as the filing it comes from, which is cited with it, and a later restatement or amendment replaces it. Ask for one (“Apple revenue FY2024”), then “how reliable is that?” says what it depends on.\n${note ? `\n_${note}_\n` : ''}`,
    citations: [],
  };
}

/**
 * Several periods, each of them, answered as the financials agent's table (one figure is not
 * what was asked): the quarters of fiscal years ("Apple quarterly revenue in 2024", "each quarter
 * of fiscal 2024"), ranges of years ("2021 to 2024", "between 2022 and 2024"), more quarters than
 * a year's ("Q3 2022 through Q2 2024"), three or more periods named ("FY2022, FY2023 and FY2024"),
 * and "the last 2 quarters", "the past 3 years" (trailing four quarters taken together are TTM,
 * one figure). A follow-up that names no period of its own ("and net income?") keeps them.
 */
const CHANGE = /\b(?:by how much|how much did|increased?|decreased?|grow|grew|change[ds]?|rise|rose|fall|fell|difference|mov(?:e|ed)|how many (?:bps|basis points|percentage points|points))\b/i;

/** Periods asked one by one without saying which: "by quarter", "each quarter", "quarter by quarter", "by year", a trailing "quarterly". */
const EACH_PERIOD = /\b(?:by|each|every|per)\s+(?:fiscal\s+)?(?:quarter|year)\b|\bquarter[- ]by[- ]quarter\b|\byear[- ]by[- ]year\b|\bquarterly\s*(?:please|pls|plz)?\W*$/i;

function periodsAsked(request: AgentRequest, question: SecQuestion | null): Span | null {
  const users = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const span = spanAsked(users, question);
  if (!span) return null;
  // "By how much did net income increase between FY2022 and FY2024?": one change between the two, not a table.
  // (So is "how many bps did apple's gross margin move from fiscal 2023 to fiscal 2024?".)
  // (A range of years, "from 2020 to 2024", stays a table: only two periods next to each other are one change.)
  const from = /\bfrom\b/i.test(users.at(-1) ?? '') && question?.comparison !== 'versus';
  if (question?.stated.comparison && question.comparison && (/\bbetween\b/i.test(users.at(-1) ?? '') || from) && CHANGE.test(users.at(-1) ?? '')) return null;
  // "TTM revenue?" after a table of years: the trailing twelve months, not the years again.
  if (question?.ttm && /\b(?:ttm|ltm|trailing[- ]twelve|(?:last|past) twelve months)\b/i.test(users.at(-1) ?? '') && !spanAsked(users.slice(-1), question)) return null;
  if (span.years) return span;
  // "EMBR free cash flow by quarter", "apple revenue each year": the latest periods, each of them (as svc-agent's table), when no period is said.
  // ("And microsoft?" after it: the same table, of that company.)
  // ("Which year was best?" after it names no periods of its own: the table's turn is the one before.)
  const spanTurn = users.findLast((u) => { const s = spanOf(clipped(u)); return s && !s.unsaid; }) ?? '';
  if (EACH_PERIOD.test(spanTurn) && !question?.stated.period && !question?.ttm) return span;
  // "average of the last four quarters": each of them and their mean, not the trailing twelve months as one figure.
  return span.latest && span.count > 1 && (!question?.ttm || span.summaries?.includes('average')) ? span : null;
}

/** A question's figures as a table of the periods the conversation asked for, when it asked for several; otherwise as figures. */
function tableOrFigures(lib: SecLibrary, request: AgentRequest, question: SecQuestion): AsyncGenerator<AgentEvent> {
  const periods = periodsAsked(request, question);
  return periods && tabulable(question) ? answerTables(lib, question, periods) : answerSecQuestion(lib, question);
}

/** Answers a parsed question (the router calls this with its own parse): progress, text, citations, done. */
export async function* answerSecQuestion(lib: SecLibrary, question: SecQuestion | null): AsyncGenerator<AgentEvent> {
  const progress: string[] = [];
  // planAnswer says what it will read before it reads anything: that note goes out first, so a
  // stream opens (response.created, keep-alives) before the retrieval, however long EDGAR takes.
  const planned = planAnswer(lib, question, { progress: (m) => progress.push(m) });
  planned.catch(() => {}); // awaited below; this only keeps a failure during the first yields from counting as unhandled
  for (const message of progress.splice(0)) yield { type: 'progress', message };
  const plan = await planned;
  for (const message of progress.splice(0)) yield { type: 'progress', message };
  const toCite = factsToCite(plan);
  if (toCite.length) yield { type: 'progress', message: `Finding the cited figures in ${new Set(toCite.map((c) => c.fact.accn)).size} filing(s) and rendering them to PDF` };
  const citations = new Map<string, FactCitation>(await Promise.all(toCite.map(async ({ company, fact }) => [factKey(fact), await citeOrLink(lib, company, fact)] as const)));
  const { text, citations: ordered } = new AnswerWriter(plan, citations, { snapshot: lib.origin.mode === 'snapshot' }).write(lib.dataNote());
  for (const chunk of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) yield { type: 'text', delta: chunk };
  for (const citation of ordered) yield { type: 'citation', citation };
  yield { type: 'done' };
}

/** How many user turns back a form named is carried to a follow-up that names none. */
const FORM_CARRIED_TURNS = 8;

/**
 * A follow-up to a list of filings (or to when one is due) that names no form, "when was the latest filed?",
 * "when is the next one due?": read with the form listed before ("the latest 10-Q"); otherwise as it is.
 */
function withFormCarried(last: string, earlier: readonly Turn[], depth = 0): string {
  const at = earlier.findLastIndex((m) => m.role === 'user');
  // (Read back a few turns at most: a history of thousands of turns is not a call stack as deep.)
  if (at < 0 || depth >= FORM_CARRIED_TURNS || /\b(?:10-?[kq]s?|8-?k|filings?|annual reports?|quarterly reports?)\b/i.test(last)) return last;
  // (The turn before read the same way: "when was the latest filed?", then "when is the next one due?".)
  const prev = withFormCarried(clipped(earlier[at]!.content), earlier.slice(0, at), depth + 1);
  // ("When did apple file its last one?" after "whats a 10-Q": the form just named, asked about.)
  const formNamed = /\b10-?[kq]\b/i.test(prev) && /\b(?:latest|last|most recent|newest|next|upcoming) one\b/i.test(last) && /\b(?:file[sd]?|filing|due|come out|released?)\b/i.test(last);
  if (!FILINGS_ASKED.test(prev) && !filingDatesAsked(prev) && !formNamed) return last;
  const form = /\b10-?k/i.test(prev) ? '10-K' : /\b10-?q/i.test(prev) ? '10-Q' : 'filing';
  return last.replace(/\b((?:the )?(?:latest|last|most recent|newest|next|upcoming))(?: one)?\b/i, `$1 ${form}`);
}

/** "Which company has the highest net margin?", "which of them has the most debt?", "compare all three companies' revenue": asked of every company covered. */
const ACROSS = /\b(?:which|what|who)\b[^?]{0,200}?\b(?:compan(?:y|ies)|of them|of the (?:two|three|four|five|six)|firms?|stocks?)\b[^?]{0,200}?\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|greatest|fastest|slowest)\b|\b(?:which|what|who)\b[^?]{0,200}?\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|greatest|fastest|slowest)\b[^?]{0,200}?\bof (?:them all|all of them|the (?:three|four|five|six|3|4|5|6))\b|\bof the (?:two|three|four|five|2|3|4|5)\b[^?]{0,40}?\b(?:which|what|who)\b[^?]{0,60}?\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|greatest|fastest|slowest)\b|\brank (?:all|every|the) (?:companies|of them)\b|\brank (?:all |the |these |those )?(?:two|three|four|five|2|3|4|5)\b|\b(?:all|the) (?:three|3|four|4|five|5) (?:compan(?:y|ies)|of them)\b|\ball (?:the )?companies\b|\b(?:every|each) company\b|\ball (?:three|four|five|3|4|5)\b(?!\s+(?:quarters?|years?|months?|periods?|figures?|metrics?|ratios?))|\bother (?:two|three|four|2|3|4|companies|ones)\b|\bthe (?:others|rest)\b/i;

/**
 * A question across the companies covered, naming none: a snapshot's companies (a handful), over
 * their latest fiscal years unless a period is said. Live, every XBRL filer is covered, so none are
 * guessed: the answer asks which companies to compare.
 */
export async function acrossCovered(lib: SecLibrary, question: SecQuestion | null, text: string, earlier: readonly Turn[] = []): Promise<SecQuestion | null> {
  if (!question) return question;
  // "Compare the ones you have on net margin" (after a company not covered): every company covered, not the one carried.
  if (COVERED_ONES.test(text)) {
    const recorded = await lib.recordedCompanies();
    if (recorded?.length && recorded.length <= MAX_COMPANIES) return { ...question, companies: recorded.map((company) => ({ status: 'found' as const, text: company.ticker || company.name, company, fuzzy: false })), period: question.period ?? acrossDefaultPeriod(question) };
  }
  const found = question.companies.filter((c) => c.status === 'found').length;
  // "By how much vs the lowest?" after "which company has the highest net margin?": the companies that one ranked.
  // ("Show me the source" after "capex intensity for all three": all three, not the one named before that.)
  // (Turns since that named no company keep them: "its net income", then "what about eps".)
  // (With a company carried from before the ranking, only the turn right before counts.)
  const lastAcross = [...earlier].reverse().filter((t) => t.role === 'user').slice(0, found ? 1 : 6).find((t) => ACROSS.test(clipped(t.content)));
  const ranked = !ACROSS.test(text) && !question.stated.companies && lastAcross !== undefined && !/\b(?:the two|both)\b/i.test(lastAcross.content);
  // "Which is most efficient with its assets?" naming none, after every company was compared and then one of them asked
  // about ("why is apple's so high?", "and ROA?"): the superlative is of them all again, not of the one carried.
  const againAcross = found <= 1 && !question.stated.companies && !ACROSS.test(text) && SUPERLATIVE_WHICH.test(text)
    && [...earlier].reverse().filter((t) => t.role === 'user').slice(0, 6).some((t) => ACROSS.test(clipped(t.content)) && !/\b(?:the two|both)\b/i.test(t.content));
  if (againAcross) {
    const recorded = await lib.recordedCompanies();
    if (recorded?.length && recorded.length <= MAX_COMPANIES) return { ...question, companies: recorded.map((company) => ({ status: 'found' as const, text: company.ticker || company.name, company, fuzzy: false })), period: question.period ?? acrossDefaultPeriod(question) };
  }
  // "Which has the best ROE?" naming no company, with none carried: a superlative of them all.
  const unnamed = !found && !question.companies.length && SUPERLATIVE_WHICH.test(text) && Boolean(question.stated.metrics || question.ratios?.length);
  if (!ACROSS.test(text) && !ranked && !unnamed) return question;
  // "Which is the most levered of the three?" after two of them were last named: all three.
  const counted = /\b(?:of the|all|the) (two|three|four|five|2|3|4|5)\b/i.exec(text)?.[1];
  // "Compare to the other two", "and the others?": every company covered, those named so far among them.
  const others = /\bother (?:two|three|four|2|3|4|compan(?:y|ies)|ones)\b|\bthe (?:others|rest)\b/i.test(text);
  const wanted = others ? found + 1 : counted ? (Number(counted) || ['two', 'three', 'four', 'five'].indexOf(counted.toLowerCase()) + 2) : null;
  // ("Which company had the largest net income in 2024?" after one company's figures: every company, not that one.)
  const oneCarried = found === 1 && !question.stated.companies && /\bcompan(?:y|ies)\b/i.test(text);
  if (found && !ranked && !oneCarried && !(wanted && found < wanted)) return question;
  const recorded = await lib.recordedCompanies();
  if (!recorded?.length || recorded.length > MAX_COMPANIES || (wanted && found && !others && recorded.length !== wanted)) return question;
  // "Its net income", "and the lowest one?" after a ranking: the company it put first, or last.
  const end = ranked ? rankedEnd(text, earlier, recorded) : null;
  const companies = (end ? [end] : recorded).map((company) => ({ status: 'found' as const, text: company.ticker || company.name, company, fuzzy: false }));
  // (Trailing twelve months are to the latest quarter: "compare all three companies' revenue TTM".)
  // ("Cash for the other two at the same date" is at the date of the one answered, whichever period that was.)
  const period = question.period ?? acrossDefaultPeriod(question, !SAME_DATE.test(text));
  // "Cash for the other two at the same date" after Microsoft's: at the date Microsoft's was.
  const before = SAME_DATE.test(text) && !question.sameDateAs ? answeredCompany(earlier, recorded) : null;
  return { ...question, companies, period, ...(before ? { sameDateAs: { company: before, period } } : {}) };
}

/**
 * The period a question across the companies means when it names none: their latest fiscal years
 * for flows ("which company has the highest revenue?"), but a balance is had at a date, so "which
 * company has the most cash?" is the latest balance sheets (an old fiscal year-end would compare
 * balances up to a year stale); trailing twelve months are to the latest quarter.
 */
function acrossDefaultPeriod(question: SecQuestion, balancesLatest = true): PeriodSpec {
  const balances = balancesLatest && question.metrics.length > 0 && !question.ratios?.length && question.metrics.every((id) => metricById(id).type === 'instant');
  return { kind: 'latest', span: question.ttm || balances ? 'quarter' : 'year' };
}

/** How many user turns back a fiscal calendar asked is carried by turns naming only a company ("and Microsoft's?"). */
const CALENDAR_LOOKBACK = 8;

/** The companies covered, pointed at as such ("the ones you have", "all the companies you cover", "every company in the snapshot"). */
const COVERED_ONES = /\b(?:the ones|(?:all )?(?:the )?(?:companies|firms|stocks|tickers)|those|all(?: of them)?|every(?:one| company)|each(?: one)?)\s+(?:(?:that\s+)?you(?:'ve| have)?\s+(?:have|got|cover)|(?:that\s+are\s+)?(?:covered|in (?:the|this|your) (?:snapshot|data(?:\s?set|base)?)))\b/i;

/** The one company the answer before was about: such an answer opens with its name and ticker in bold. */
function answeredCompany(earlier: readonly Turn[], recorded: readonly CompanyRef[]): CompanyRef | null {
  const answer = [...earlier].reverse().find((t) => t.role === 'assistant')?.content ?? '';
  const ticker = /^\*\*[^*\n]+ \(([A-Z][A-Z.-]*)\)\*\*:/.exec(answer)?.[1];
  return recorded.find((c) => c.ticker === ticker) ?? null;
}

/** A superlative asked of companies, not of periods ("which is most efficient with its assets?", not "which quarter was strongest?"). */
const SUPERLATIVE_WHICH = /^(?![^?]*\b(?:quarters?|years?|periods?|months?|halves|half)\b)[^?]*\b(?:which|who|whose|who's|whos)\b[^?]*\b(?:most|least|best|worst|highest|lowest|biggest|largest|smallest|fastest|slowest|strongest|weakest)\b/i;

/** One company pointed at ("its", "that one", "the top one"; "the lowest one", "the bottom one"), not all of them. */
const ONE_OF_RANKING = /\b(?:its|it|it's|that one|this one|the (?:top|first|highest|largest|biggest|best|leader|winner|top one)|the most \w+ one|the (lowest|smallest|bottom|last|worst|least)(?: one| company)?|(lowest|smallest|bottom|worst) one|the least \w+ (one)|(?:the )?(runner[- ]up|second|2nd)(?:'s| one)?)\b/i;

/**
 * The one company a follow-up to a ranking is about: the one the ranking put first (or last, for
 * "the lowest one"), read from its line ("Net margin, highest to lowest: Microsoft 36.0% …, Apple
 * 24.0% …"), when the question points at one; the one company the answer before was about, when it
 * points at none ("is that good?", "what about eps" after "its net income"). Null for them all.
 */
function rankedEnd(text: string, earlier: readonly Turn[], recorded: readonly CompanyRef[]): CompanyRef | null {
  // ("Gap between top and bottom": both ends, all of them.)
  if (/\b(?:them|they|their|each|all|both|those|these|every)\b/i.test(text) || (/\b(?:top|first|highest)\b/i.test(text) && /\b(?:bottom|last|lowest)\b/i.test(text))) return null;
  const answers = earlier.filter((t) => t.role === 'assistant').reverse().map((t) => t.content);
  const pointed = ONE_OF_RANKING.exec(text);
  if (!pointed) return answeredCompany(earlier, recorded);
  // (A ratio's ranking reads "Highest debt-to-equity ratio first: Apple 1.18x, …".)
  // ("Lowest return on equity first: Microsoft …, Apple …", as asked: the top one is still the highest.)
  const found = answers.map((a) => /\b(?:highest to lowest|largest to smallest|(Highest|Lowest) [^:\n]+ first|(lowest to highest|smallest to largest)): ([^\n]+)/.exec(a)).find(Boolean);
  if (!found) return null;
  const line = found[3]!;
  const listed = line.split(/,\s+/).map((part) => recorded.find((c) => part.startsWith(shortName(c.name)))).filter((c): c is CompanyRef => c !== undefined);
  const order = found[1] === 'Lowest' || found[2] ? listed.reverse() : listed;
  return (pointed[4] ? order[1] : pointed[1] || pointed[2] || pointed[3] ? order.at(-1) : order[0]) ?? null;
}

/** Which companies there are figures for: those a snapshot recorded, or every XBRL filer when live. */
export async function* coverageAnswer(lib: SecLibrary, filers: number): AsyncGenerator<AgentEvent> {
  const recorded = await lib.recordedCompanies();
  const example = recorded?.[0] ? `“What was ${recorded[0].ticker || recorded[0].name} revenue in its latest quarter?”` : '“What was Apple\'s revenue in Q3 2024?”';
  const text = recorded
    ? `This snapshot of SEC data has figures for ${recorded.length} compan${recorded.length === 1 ? 'y' : 'ies'}: ${listed(recorded.map((c) => (c.ticker ? `${c.name} (${c.ticker})` : c.name)))}. Ask about any of them by name or ticker, for example ${example}.`
    : `I answer for any company that files XBRL financial data with the SEC: ${filers.toLocaleString('en-US')} filers with a ticker, found by name or ticker (for example ${example}). Companies without XBRL financial data at the SEC have no figures.`;
  const note = lib.dataNote();
  yield { type: 'text', delta: `${text}\n${note ? `\n${note}\n` : ''}` };
  yield { type: 'done' };
}

/** A filing that cannot be fetched right now still gets a citation: EDGAR's own address, saying the page was not located. */
async function citeOrLink(lib: SecLibrary, company: CompanyRef, fact: ReportedFact): Promise<FactCitation> {
  try {
    return await lib.cite(company, fact);
  } catch (err) {
    if (!isSvcError(err) || !['upstream', 'upstream_timeout'].includes(err.kind)) throw err;
    const url = lib.folderUrl(company.cik, fact.accn);
    return { name: `${company.name} Form ${fact.form} filed ${fact.filed} (filing could not be fetched: page not located)`, url, key: url, page: null, filing: null, location: null };
  }
}
