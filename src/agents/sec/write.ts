import type { Citation } from '../../agents/types.js';
import { listed, quoteCaller } from '../citations.js';
import { extraWeekLength, monthsIn, type FiscalPeriod } from '../../data/sec/calendar.js';
import { roundLike, sumOfQuarters, type FactTerm, type MetricValue, type ReportedFact } from '../../data/sec/facts.js';
import type { FactCitation } from '../../data/sec/library.js';
import { METRICS, metricById, wasOf, type MetricDef, type MetricId } from '../../data/sec/metrics.js';
import type { CompanyRef } from '../../data/sec/types.js';
import { daysBetween } from '../../data/sec/dates.js';
import { describeSpec } from '../../data/sec/resolve.js';
import { possessive, shortName } from '../../data/sec/names.js';
import { AGAINST_FIGURE, BURN_ASKED, NON_GAAP, PARTS_OF_TOTAL, SHAREHOLDER_RETURNS, type SecQuestion } from '../../data/sec/question.js';
import { RATIOS, ratioById, ratioCatalogue, ratioCatalogueText } from '../../data/sec/ratios.js';
export { RATIO_LIST_ASKED } from '../../data/sec/ratios.js';
import { ENGLISH_ONLY, looksNonEnglish } from '../../text.js';
import { GROWTH_FROM_NEGATIVE, balanceDate, capitalise, formatAmount, formatChange, periodName, periodWithEnd, roughly, uncapitalise } from './format.js';
import { formatRatio, ratioNote, type RatioFigure, type RatioMissing, type RatioValue } from './ratios.js';
import { MEANINGS } from './glossary.js';
import { ADVICE, ANNUALIZE_ASKED, MAX_COMPANIES, coverage, shareLabel, type CalendarCompared, type Compared, type CalendarQuarterValue, type Figure, type FigureResult, type Plan } from './plan.js';

export const factKey = (f: ReportedFact) => `${f.accn}|${f.taxonomy}:${f.concept}|${f.start ?? ''}|${f.end}|${f.unit}`;

/** Every fact the answer will cite, with the company whose filing it is in. */
export function factsToCite(plan: Plan): { company: CompanyRef; fact: ReportedFact }[] {
  const out = new Map<string, { company: CompanyRef; fact: ReportedFact }>();
  const add = (company: CompanyRef, value: MetricValue | null) => {
    for (const t of value?.terms ?? []) out.set(factKey(t.fact), { company, fact: t.fact });
  };
  for (const f of plan.figures) {
    if (f.result.kind === 'calendar-year') {
      for (const q of f.result.quarters) add(f.company, q.value);
      add(f.company, f.result.compared?.total ?? null);
    } else if (f.result.kind === 'value') {
      add(f.company, f.result.value);
      add(f.company, f.result.compared?.value ?? null);
      add(f.company, f.alsoCompared?.value ?? null);
    }
    add(f.company, f.revenue ?? null);
    add(f.company, f.comparedRevenue ?? null);
    for (const q of [...(f.ttm ?? []), ...(f.ttmPrior ?? []), ...(f.ttmRevenue ?? []), ...(f.ttmPriorRevenue ?? []), ...(f.annualBasis?.ttm ?? [])]) add(f.company, q.value);
    add(f.company, f.annualBasis?.year?.value ?? null);
    for (const q of f.burnBasis?.ttm ?? []) add(f.company, q.value);
    add(f.company, f.burnBasis?.cash ?? null);
    add(f.company, f.nearest ?? null);
  }
  for (const c of plan.cross) {
    add(c.company, c.value);
    add(c.company, c.revenue ?? null);
  }
  for (const r of plan.ratios) {
    for (const v of [r.current, r.compared]) if (v?.kind === 'value') for (const x of [v.numerator, v.less, v.denominator, v.opening]) add(r.company, x);
  }
  return [...out.values()];
}

const who = (c: CompanyRef) => (c.ticker ? `${c.name} (${c.ticker})` : c.name);
const its = (c: CompanyRef) => possessive(shortName(c.name));
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const HELP_METRICS = METRICS.map((m) => m.label).join(', ');
const EXAMPLES = ['"What was Apple\'s revenue in Q3 2024?"', '"MSFT diluted EPS for the quarter ended March 31, 2024, year over year"', '"Compare Apple and Alphabet net income last quarter"'];

/** Why a figure asked for cannot be given, by what it is. */
/** A question about people, words or events of a filing rather than a figure ("Who is Apple's CEO?", "What did Microsoft say about AI?"). */
/**
 * "… faster than Tesla's": the name after "than" is another company's (a capitalised word that is
 * not this company's, nor a period such as "Q1" or "FY2023"), whether or not it was found.
 */
function comparesOtherCompany(text: string, company: CompanyRef): boolean {
  const name = /\bthan\s+(?:that of\s+|those of\s+)?([A-Z][A-Za-z0-9.&-]+)/.exec(text)?.[1]?.replace(/'s$/, '').toLowerCase();
  if (!name || /^(?:q[1-4]|fy\d*|h[12]|i|january|february|march|april|may|june|july|august|september|october|november|december|last|the|a|an|in|its|it|that|this|expected)$/.test(name)) return false;
  return !(company.name.toLowerCase().startsWith(name) || company.ticker.toLowerCase() === name);
}

/** A question asking for a reason ("why?", "why did net income fall?"). */
export const WHY_NOT_IN_FIGURES = "The figures show what changed, not why: the reasons are in what the filing says in words (its management's discussion and analysis), which I do not read.";
export const WHY = /^\W*why\b|\bwhy (?:did|does|do|is|was|has|have|were|are)\b|\bwhat(?:'s| is| was)? (?:drove|drives|driving|caused|causes|explains|behind)\b|\breasons? (?:for|behind)\b/i;
const NOT_A_FIGURE = /\b(?:who|ceo|cfo|chief \w+ officer|chair(?:man|woman|person)?|founders?|founded|headquarter\w*|employees|headcount|risk factors?|risks|say|says|said|mention\w*|discuss\w*|strategy|competitors?|lawsuits?|litigation|guidance|outlook|when (?:did|does|will) \S+ (?:file|report)|filed on|list|links?)\b/i;

/** A sum of the companies' figures asked for. */
const COMBINED = /\b(?:combined|together|in total|total of|sum of|added up|add(?:ing)? up|altogether)\b/i;

/** "Q5 2024", "0Q": said as a quarter, and none is. */

/** Size asked of companies ("which 1 is bigger lol", "who's larger?"), and words asking growth instead. */
const SIZE_ASKED = /\b(?:bigger|biggest|larger|largest|greater|greatest|more\s+(?:revenue|sales|income|profit|cash|debt|assets)|(?:which|who)(?:'s|\s+is|\s+has)?\s+(?:the\s+)?(?:big|large)\w*)\b/i;
const GROWTH_ASKED = /\b(?:grow\w*|grew|growth|faster|fastest|slower|slowest|quick\w*|yoy|y\/y|qoq|q\/q|increase\w*|rise|rose|risen|change[ds]?|gain\w*|expand\w*|accelerat\w*)\b/i;
const GROWTH_WORDS = /\b(?:grow|grows|grew|grown|growing|increase[ds]?|increasing|rise|rises|rose|risen|rising|gain(?:ed|s)?|improve[ds]?|go up|went up|higher|larger|bigger|expand(?:s|ed)?|widen(?:s|ed)?)\b/i;
const DECLINE_WORDS = /\b(?:decline[ds]?|declining|fall|falls|fell|fallen|falling|drop(?:s|ped)?|decrease[ds]?|decreasing|shrink|shrinks|shrank|shrunk|go down|went down|lower|smaller|worsen(?:ed|s)?|contract(?:s|ed)?|narrow(?:s|ed)?|compress(?:es|ed)?)\b/i;
/** A company judged as a whole ("is this a good company?", "is Apple a good business?", "how good is Microsoft?"). */
export const QUALITY_ASKED = /\b(?:is|are) (?:this|that|it|they|these|those|\w+(?:'s)?|\w+ and \w+) (?:a |an )?(?:good|great|bad|solid|strong|quality|healthy|well[- ]run|decent|high[- ]quality) (?:compan(?:y|ies)|business(?:es)?|firms?)\b|\bhow (?:good|healthy|strong) (?:a (?:company|business) )?is (?:this|that|it|\w+)\b|\bhow healthy is\b/i;
/** A figure judged ("is that good?", "is it high?", "is this healthy?"). */
// ("Is 32% good?", "is $40 billion a lot?": the figure just given, said back.)
const JUDGED = /^\W*(?:(?:so|and|ok)\W+)?(?:is|are|was|were) (?:that|it|this|those|these|they|(?:about |around )?\$?\d[\d,.]*\s*(?:%|percent|x|times|[bm]n?|billion|million)?) (?:good|bad|high|low|healthy|strong|weak|ok|okay|normal|decent|impressive|a lot|too (?:high|low)|sustainable|sensible|reasonable|worrying|concerning)\b/i;

/** A figure held against its industry ("is that high for the industry?"), which the filings of a few companies do not give. */
const INDUSTRY = /\b(?:industry|sector|peer group|peers? average|the average company)\b/i;
/** How far apart the figures ranked are ("by how much vs the lowest, in points", "the gap between the top and bottom"). */
/** A ratio of two figures asked ("how many times higher", "3x bigger?", "what multiple of"). */
const TIMES_ASKED = /\bhow many times\b|\b(?:\d+(?:\.\d+)?\s*x|times)\s+(?:higher|bigger|larger|more|greater|faster|as (?:high|big|large|much))\b|\bwhat multiple\b|\bmultiple of\b|\bratio between\b/i;

/** " (1.42 times as high)" of two positive figures, when a ratio was asked; '' otherwise. */
function timesOver(high: number, low: number, asked: boolean, what = 'high'): string {
  if (!asked || !(low > 0) || !(high > 0)) return '';
  const x = high / low;
  return `, **${x >= 10 ? x.toFixed(1) : x.toFixed(2)} times** as ${what}`;
}

/** One amount less another ("so fcf minus net income?", "fcf less net income"). */
const MINUS_ASKED = /\b(?:minus|less|subtract(?:ed)?|take away)\b(?!\s+than\b)/i;

/** A quarter's (or a span's) amount asked at a yearly pace ("annualize that", "run rate"). */

const SPREAD_ASKED = /\b(?:by how much|how much (?:more|less|higher|lower|bigger|smaller)|difference|gap|spread|vs\.? the (?:lowest|highest|smallest|largest|bottom|top)|in (?:percentage )?points)\b/i;
/** A rate a change is held against ("grow faster than 10%", "more than 5 percent", "by less than 2%"): its words and number. */
const THRESHOLD_RATE = /\b((?:faster|more|higher|greater|quicker|slower|less|lower)\s+than|over|above|at least|under|below)\s+(\d+(?:\.\d+)?)\s*(?:%|percent\b)/i;
const BELOW_RATE = /^(?:slower|less|lower)\b|^(?:under|below)$/i;
/** An order asked of a ranking ("rank them", "highest first", "sorted lowest to highest"). */
const ORDER_ASKED = /\brank(?:ed|ing|s)?\b|\b(?:order(?:ed)?|sort(?:ed)?)\b|\b(?:highest|largest|biggest|best|top|lowest|smallest|least|worst|bottom)\s+(?:first|to\s+(?:the\s+)?(?:highest|largest|biggest|best|top|lowest|smallest|least|worst|bottom))\b|\b(?:a|de)scending\b/i;
/** The lowest asked first ("lowest first", "from smallest to largest", "ascending"). */
const ASCENDING = /\b(?:lowest|smallest|least|worst|bottom)\s+(?:first|to\s+(?:the\s+)?(?:highest|largest|biggest|best|top|most))\b|\bascending\b/i;
/** A question answered yes or no ("Did …", "Has …", "Is …"). */
const YES_NO = /^\s*(?:did|does|do|has|have|had|is|was|were|are)\b/i;

/**
 * A difference of two percentages, unrounded, in points rounded once ("23.6 percentage points"),
 * with its basis points when asked for them ("(2,356 bps)"); `signed`: a change, "+0.8 …".
 */
function pointsApart(points: number, bps: boolean, signed = false): string {
  const sign = !signed ? '' : points > 0 ? '+' : points < 0 ? '-' : '';
  const inBps = Math.round(Math.abs(points) * 100);
  // A move under 0.05 points reads "+0.0": its basis points say it.
  if (signed && Math.abs(points) < 0.05) return `${sign}${inBps} bps`;
  return `${sign}${Math.abs(points).toFixed(1)} percentage points${bps ? ` (${sign}${inBps.toLocaleString('en-US')} bps)` : ''}`;
}
const NO_QUARTER = /^(?:f?q[05-9]|[05-9]q)\b/i;
/** "… faster than Microsoft's", "… more than Apple": a comparison of the first company named with another. */
const COMPARED_THAN = /\b(faster|slower|more|less|higher|lower|bigger|larger|smaller|greater|fewer|better|worse)\b[^?]*?\bthan\b/i;

/** `catalogue`: the margins and ratios computed here are listed after it. */
const UNKNOWN_WHY: { pattern: RegExp; why: string; catalogue?: true }[] = [
  {
    pattern: /\b(?:risks?|risk factors?|strategy|outlook|guid(?:e|ed|es|ing|ance)|competitors?|competition|litigation|lawsuits?|discussion)\b/i,
    why: "it is what a filing says in words (its risk factors, business or management's discussion), not a figure of its financial statements; I read the figures only",
  },
  {
    pattern: new RegExp(`${NON_GAAP}|excluding|\\bex[- ]`, 'i'),
    why: 'it is a non-GAAP measure the company defines itself, outside its audited statements, so it is not in the XBRL financial data I read; I give GAAP figures only',
  },
  {
    pattern: new RegExp(`\\b${PARTS_OF_TOTAL}\\b`, 'i'),
    why: "it is one part of the company's total (a product, service, segment or region), broken down in the notes to its financial statements; I read the company-wide figures of its XBRL financial data",
  },
  { pattern: /\b(?:news|headlines?|case|suit|probe|investigation|ruling|trial)\b/i, why: 'news and events are not figures in SEC filings; I read the figures companies report, and a case shows in them only as what it costs' },
  { pattern: /outstanding|turnover|conversion cycle/i, why: 'it is not computed here; it comes from inventory, receivables or payables over revenue or cost of revenue, and of those I give inventory, revenue and cost of revenue' },
  { pattern: /expectation|estimate|forecast|consensus/i, why: "analysts' estimates are forecasts made outside the company, not figures in its SEC filings; I give what the company reported" },
  { pattern: /ebitda/i, why: 'EBITDA is not a GAAP figure, so companies do not report it in their XBRL financial data (it is usually computed as operating income plus depreciation and amortization)' },
  { pattern: /^ebit$|earnings before interest/i, why: 'EBIT is not tagged as such in XBRL financial data; operating income is the closest reported figure' },
  {
    pattern: /return on|^ro(?:i|ic|ce|tce)$|cash ratio|coverage/i,
    why: 'it is a ratio of figures I do not read (such as invested capital, or marketable securities and receivables broken out by the company)',
    catalogue: true,
  },
  // Not "marketable securities" or "sales and marketing", which are lines of the statements.
  { pattern: /\bprice|\btrading at\b|\bmarket (?:cap|value|capitali[sz]ation|share)\b|valuation|enterprise value|p\/e|pe ratio|\byield\b/i, why: 'it is market data, not a figure in SEC filings' },
];

/** "I do not have a figure called "EBITDA": …", for figures asked for that are not among the metrics. */
export function unknownFigureText(text: string): string {
  if (NO_QUARTER.test(text)) return `There is no quarter "${quoteCaller(text)}": a fiscal year has four, Q1 to Q4. Ask for one of them, or for the fiscal year; without one, the latest period is given.`;
  const known = UNKNOWN_WHY.find((u) => u.pattern.test(text));
  const why = known?.why ?? 'it is not among the figures I read from companies\' XBRL financial data';
  // (The ratios computed instead, listed from the table that defines them.)
  return `I do not have a figure called "${quoteCaller(text)}": ${why}.${known?.catalogue ? ` What I compute from the figures I read: ${ratioCatalogueText()}` : ''}`;
}

/** "What is a quick ratio?", "explain debt to equity": asked what a ratio is, of no company. */
const DEFINE = /\b(?:what(?:'s| is| are| does)|explain|define|definition|meaning|means?|how (?:is|do you) (?:it )?(?:calculated|computed|worked out))\b/i;

/** How each ratio asked for is computed, when the question asks what it is and names no company. */
const MEANING_ASKED = /\b(?:(?:mean|means|meaning|definition|define)\b|how (?:is|are|do you|does one|do they) (?:it|that|this|they|those|\w+) (?:calculated|computed|worked out|derived)\b|how (?:to|do you|do i) (?:calculate|compute) (?:it|that|this)\b|what(?:'s| is| are) (?:a |an )?(?:free cash flow|fcf|gross profit|operating income|net income|eps|capex|capital expenditures?|operating cash flow|buybacks?|book value)\b(?!\s+(?:of|for|at|in)\b))/i;

/** Lines defining the figures a question asks the meaning of ("whats free cash flow mean, im new to this"), or null. */
export function meaningsOf(question: SecQuestion | null): string | null {
  if (!question || !MEANING_ASKED.test(question.text)) return null;
  // "What does ROE actually mean?": what the ratio tells, in plain words, before the figures it is made of.
  const ratios = (question.ratios ?? []).map((id) => `- **${capitalise(ratioById(id).label)}** tells ${ratioById(id).means}.`);
  // "How is it computed?" after operating margin: the margin's formula, then what its numerator is.
  const margined = (id: MetricId) => {
    const share = question.margin ? shareLabel(metricById(id)) : null;
    return share?.margin ? `- **${capitalise(share.label)}** is ${metricById(id).label} divided by revenue for the same period, as a percentage (${metricById(id).label} ÷ revenue × 100): how much of each dollar of sales is left as ${metricById(id).label}. ${capitalise(metricById(id).label)} is ${MEANINGS[id]}.` : null;
  };
  const lines = ratios.length ? ratios : question.metrics.flatMap((id) => { const m = margined(id); return m ? [m] : MEANINGS[id] ? [`- **${capitalise(metricById(id).label)}** is ${MEANINGS[id]}.`] : []; });
  return lines.length ? lines.join('\n') : null;
}

function definitions(question: SecQuestion | null): string | null {
  const meanings = meaningsOf(question);
  if (meanings && !question!.companies.some((c) => c.status === 'found')) return `${meanings}\n\nAsk it of a company, by ticker or name (“Apple ${(question!.margin ? shareLabel(metricById(question!.metrics[0]!)) : null)?.label ?? metricById(question!.metrics[0]!).label}”), for its figures from the filings, each cited.`;
  if (!question?.ratios?.length || question.companies.some((c) => c.status === 'found') || !DEFINE.test(question.text)) return null;
  const lines = question.ratios.map((id) => {
    const r = ratioById(id);
    return `- **${r.label.charAt(0).toUpperCase()}${r.label.slice(1)}**: ${r.describe}; it tells ${r.means}. Companies do not report it in their financial statements; it is computed here from the figures they file.`;
  });
  return `${lines.join('\n')}\n\nAsk it of a company, by ticker or name (“Apple ${ratioById(question.ratios[0]!).label}”), for its value from the filings, each figure cited.`;
}


/** Every margin and ratio computed here, each with how, from the tables that define them. */
export function ratioListText(company: CompanyRef | null): string {
  const c = ratioCatalogue();
  const example = company ? shortName(company.name) : 'Apple';
  return [
    'I compute these from the figures companies file with the SEC (none is reported as such; each answer cites the figures it divides):',
    '',
    `- **Margins**, each a figure over the same period's revenue: ${c.margins.join(', ')}.`,
    ...RATIOS.map((r) => `- **${capitalise(r.label)}**: ${r.describe}.`),
    '',
    `Over the trailing twelve months ("TTM", the four quarters summed): ${c.twelveMonths.join(', ')}. Any of them can be asked over a quarter, a fiscal or calendar year, as a trend over periods ("${example} debt-to-equity trend over the last 3 years"), against an earlier period, or across companies ("which has the best ROE?").`,
    'Not computed: ratios of figures I do not read (return on invested capital, the cash ratio, days sales outstanding) and anything needing a share price (P/E, EV/EBITDA, dividend yield).',
    '',
    `For example: "${example} ROE TTM", "${example} FCF conversion FY2024", "${example} operating margin TTM vs a year earlier".`,
  ].join('\n');
}

/** The help text for a question that names no company. */
function helpText(unrecognised: boolean, unknownFigures: string[] = []): string {
  return [
    ...unknownFigures.map(unknownFigureText),
    unrecognised ? 'I could not tell which company you are asking about.' : 'Which company do you mean?',
    'Name it by ticker (AAPL) or by name (Apple), and I will answer from its SEC filings, citing the filing page.',
    '',
    `I can answer: ${HELP_METRICS}, any of these amounts as a share of revenue, and the margins and ratios computed from them; for a fiscal quarter ("Q3 2024"), the quarter ended on a date, a fiscal year, a calendar year ("calendar 2024"), the first half, nine months or year to date ("H1 2024", "YTD"), the quarters of a year ("quarterly revenue in 2024"), or the latest period; with year-over-year or quarter-over-quarter change; for several companies side by side.`,
    '',
    `Computed from the figures: ${ratioCatalogueText()}`,
    '',
    `For example: ${EXAMPLES.join('; ')}.`,
  ].join('\n');
}

/**
 * Writes the answer in Markdown: each figure with its unit, scale, period (with the period's
 * end date, in the company's fiscal terms), form and filing date, each cited; derived figures
 * with their formula; and, in plain words, what could not be answered and what is available.
 */
export class AnswerWriter {
  readonly #plan: Plan;
  readonly #citations: Map<string, FactCitation>;
  readonly #numbers = new Map<string, number>();
  readonly #cited: Citation[] = [];
  readonly #snapshot: boolean;

  constructor(plan: Plan, citations: Map<string, FactCitation>, options: { snapshot?: boolean } = {}) {
    this.#plan = plan;
    this.#citations = citations;
    this.#snapshot = options.snapshot ?? false;
  }

  /** `[n]` for a fact, numbering sources in order of first use (a page shared by two facts is one source). */
  #ref(fact: ReportedFact): string {
    const c = this.#citations.get(factKey(fact));
    if (!c) return '';
    let n = this.#numbers.get(c.key);
    if (n === undefined) {
      n = this.#cited.length + 1;
      this.#numbers.set(c.key, n);
      this.#cited.push({ order: n, name: c.name, url: c.url });
    }
    return `[${n}]`;
  }

  #refs(value: MetricValue): string {
    return [...new Set(value.terms.map((t) => this.#ref(t.fact)))].join('');
  }

  #scale(value: MetricValue): number | null {
    // "In billions please": amounts (not per-share figures) in the scale asked.
    const asked = this.#plan.question?.scale;
    if (asked && !/\//.test(value.unit)) return asked;
    return this.#citations.get(factKey(value.terms[0]!.fact))?.location?.scale ?? null;
  }

  #amount(figure: Pick<Figure, 'metric'>, value: MetricValue): string {
    const text = formatAmount(value.value, value.unit, figure.metric, this.#scale(value));
    return figure.metric.id === 'dilutedEps' ? text.replace(/ per share$/, ' per diluted share') : figure.metric.id === 'basicEps' ? text.replace(/ per share$/, ' per basic share') : text;
  }

  /** "Form 10-Q filed 2024-08-02". */
  #filedAs(fact: ReportedFact): string {
    const filing = this.#citations.get(factKey(fact))?.filing;
    return `Form ${filing?.form ?? fact.form} filed ${filing?.filingDate ?? fact.filed}`;
  }

  #term(figure: Pick<Figure, 'metric'>, t: FactTerm): string {
    return `${t.role} ${formatAmount(t.fact.value, t.fact.unit, figure.metric, this.#citations.get(factKey(t.fact))?.location?.scale ?? null)} (${this.#filedAs(t.fact)}) ${this.#ref(t.fact)}`;
  }

  /** Where a value's figures were filed, for a table's source column. */
  #sources(value: MetricValue): string {
    return [...new Set(value.terms.map((t) => this.#filedAs(t.fact)))].join('; ');
  }

  /** How a derived value was obtained, with each term cited. */
  /** A derived value's terms with their signs: "fiscal year 2024 $… [1] minus nine months ended … [2]". */
  #terms(figure: Pick<Figure, 'metric'>, value: MetricValue): string {
    return value.terms.map((t, i) => `${i === 0 ? '' : t.sign < 0 ? ' minus ' : ' plus '}${this.#term(figure, t)}`).join('');
  }

  #derivation(figure: Pick<Figure, 'metric'>, value: MetricValue): string {
    const terms = this.#terms(figure, value);
    const q4 = value.period.kind === 'quarter' && value.period.q === 4 && value.terms.length === 2 && value.terms[0]!.role.startsWith('fiscal year');
    const why = q4
      ? ' (Q4 is not filed on its own: it is the fiscal year less the first nine months)'
      : value.period.kind === 'span' && value.derivation === sumOfQuarters(value.period.quarters)
        ? ` (the filings give no figure for these ${monthsIn(value.period.quarters)} months as a whole: the sum of their quarters${value.period.q === 4 && value.terms.some((t) => t.role.startsWith('fiscal year')) ? ', Q4 being the fiscal year less the first nine months' : ''})`
        : value.period.kind === 'quarter' && value.terms.some((t) => /months ended/.test(t.role) && !/three months/.test(t.role))
          ? ' (the filings give this figure year to date only)'
          : '';
    const approximate = value.approximate ? ' Per-share figures derived this way are approximate, because share counts differ between the periods.' : '';
    const restatement = value.restatedFrom
      ? ` One of these figures was restated after it was first reported (Form ${value.restatedFrom.form} filed ${value.restatedFrom.filed}): from the figures as first reported this was ${formatAmount(value.restatedFrom.value, value.unit, METRICS.find((m) => m.id === value.metric)!, this.#scale(value))}, and the latest figures are used.`
      : '';
    return `Derived as ${terms}${why}.${approximate}${restatement}`;
  }

  /** Where a reported (not derived) figure is printed. */
  #source(value: MetricValue): string {
    const t = value.terms[0]!;
    const c = this.#citations.get(factKey(t.fact));
    const printed = c?.location?.rowLabel ? ` as "${c.location.rowLabel}"` : '';
    const page = c?.page ? ` on page ${c.page}` : '';
    const form = c?.filing?.form ?? t.fact.form;
    const filed = c?.filing?.filingDate ?? t.fact.filed;
    let text = `Source: Form ${form} filed ${filed} (accession ${t.fact.accn})${printed}${page} ${this.#ref(t.fact)}; XBRL concept ${t.fact.taxonomy}:${t.fact.concept}.`;
    if (value.restatedFrom) text += ` First reported as ${formatAmount(value.restatedFrom.value, value.unit, METRICS.find((m) => m.id === value.metric)!, this.#scale(value))} in Form ${value.restatedFrom.form} filed ${value.restatedFrom.filed}, and restated since: the latest figure is shown.`;
    if (value.asOf) text += ` This is the cover-page count as of ${value.asOf} (near the filing date), not a count at the period end.`;
    return text;
  }

  #comparison(figure: Figure, result: Extract<Figure['result'], { kind: 'value' }>, c: Compared | null | undefined): string | null {
    if (!c) return null;
    const label = c.kind === 'versus' ? 'Compared with' : c.kind === 'yoy' ? 'Year over year' : result.period.kind === 'span' ? `Against the ${monthsIn(result.period.quarters)} months before` : 'Quarter over quarter';
    const versus = this.#plan.question?.versus;
    const wanted = c.period ? periodWithEnd(c.period, figure.fin.calendar) : c.kind === 'versus' && versus ? describeSpec(versus) : 'the prior period';
    if (!c.period || !c.value) return `${label}: no ${figure.metric.label} for ${wanted} to compare with.`;
    const change = formatChange(result.value.value, c.value.value, result.value.unit, figure.metric, this.#scale(result.value));
    const question = this.#plan.question;
    const qoqOfYear =
      result.period.kind === 'year' && question?.comparison === 'qoq'
        ? ' (a fiscal year has no previous quarter: compared with the previous year)'
        : result.period.kind === 'year' && question?.alsoQoq
          ? ' (a fiscal year has no previous quarter, so there is no quarter-over-quarter change)'
          : '';
    const source = c.value.derivation ? '' : ` (${this.#filedAs(c.value.terms[0]!.fact)})`;
    // A margin answered leads with the percentage: the amount compared is named ("gross profit for fiscal year 2023 was …"), not left to the period.
    const named = question?.margin && shareLabel(figure.metric) ? `${figure.metric.label} ` : '';
    const then = figure.metric.type === 'instant' ? `${balanceDate(c.period, figure.fin.calendar)}, ${figure.metric.plural ? 'they were' : 'it was'}` : named ? `${named}for ${periodWithEnd(c.period, figure.fin.calendar)} ${wasOf(figure.metric)}` : `${periodWithEnd(c.period, figure.fin.calendar)} was`;
    return `${label}${qoqOfYear}: ${then} ${this.#amount(figure, c.value)}${source} ${this.#refs(c.value)}; change ${change}.${c !== result.compared ? this.#marginThen(figure, result, c) : ''}${c.value.derivation ? ` That figure is derived: ${this.#derivation(figure, c.value).replace(/^Derived as /, '')}` : ''}`;
  }

  /** " The operating margin then was 45.5%: +0.2 percentage points (+21 bps) since.": the margin's own change against a second period asked ("qoq and yoy"). */
  #marginThen(figure: Figure, result: Extract<Figure['result'], { kind: 'value' }>, c: Compared): string {
    const share = shareLabel(figure.metric);
    const revenue = c.period ? figure.fin.value('revenue', c.period) : null;
    if (!share?.margin || !this.#plan.question?.margin || !c.value || !revenue || revenue.value <= 0 || !figure.revenue || figure.revenue.value <= 0) return '';
    const [now, then] = [(100 * result.value.value) / figure.revenue.value, (100 * c.value.value) / revenue.value];
    return ` The ${share.label} then was ${then.toFixed(1)}% (on revenue of ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, revenue)}): ${Math.round((now - then) * 100) === 0 ? 'unchanged' : pointsApart(now - then, true, true)} since.`;
  }

  /** "Gross margin: 45.9% of revenue (… revenue $85,777 million [2])", when a margin or share of revenue was asked for. */
  /** A figure as a percentage of its period's revenue, when a margin or share of revenue is asked and the revenue is known. */
  /** Of trailing twelve months asked: the four quarters' figure and revenue, summed; null otherwise. */
  #ttmShare(figure: Figure): { value: MetricValue; revenue: MetricValue } | null {
    const [ttm, revenue] = [figure.ttm, figure.ttmRevenue];
    if (!this.#plan.question?.ttm || ttm?.length !== 4 || revenue?.length !== 4 || [...ttm, ...revenue].some((q) => !q.value)) return null;
    return { value: this.#ttmSum(ttm), revenue: this.#ttmSum(revenue) };
  }

  /** Of trailing twelve months asked with a change: the earlier four quarters' figure and revenue, summed; null when one has no figure. */
  #ttmPriorShare(figure: Figure): { value: MetricValue; revenue: MetricValue } | null {
    const [prior, revenue] = [figure.ttmPrior, figure.ttmPriorRevenue];
    if (!this.#plan.question?.ttm || prior?.length !== 4 || revenue?.length !== 4 || [...prior, ...revenue].some((q) => !q.value)) return null;
    return { value: this.#ttmSum(prior), revenue: this.#ttmSum(revenue) };
  }

  #sharePercent(figure: Figure): number | null {
    // Beside a trailing-twelve-month figure, its twelve months' share, not the last quarter's.
    const twelve = shareLabel(figure.metric) ? this.#ttmShare(figure) : null;
    if (twelve && twelve.revenue.value > 0) return (100 * twelve.value.value) / twelve.revenue.value;
    const r = figure.result;
    const value = r.kind === 'value' ? r.value : r.kind === 'calendar-year' ? r.total : null;
    if (!value || !figure.revenue || figure.revenue.value <= 0 || !shareLabel(figure.metric)) return null;
    return (100 * value.value) / figure.revenue.value;
  }

  #margin(figure: Figure): string | null {
    const share = shareLabel(figure.metric);
    const r = figure.result;
    if (figure.revenue === undefined || !share) return null;
    let shown: { period: string; value: MetricValue; prior: { period: string; value: MetricValue } | null };
    if (r.kind === 'value') {
      const c = r.compared;
      shown = { period: periodName(r.period, figure.fin.calendar), value: r.value, prior: c?.period && c.value ? { period: periodName(c.period, figure.fin.calendar), value: c.value } : null };
    } else if (r.kind === 'calendar-year' && r.total) {
      const c = r.compared;
      shown = { period: `calendar year ${r.year}`, value: r.total, prior: c?.total ? { period: c.fiscal ? periodName(c.fiscal, figure.fin.calendar) : `calendar year ${c.year}`, value: c.total } : null };
    } else return null;
    const label = share.label;
    const twelve = this.#ttmShare(figure);
    if (twelve && twelve.revenue.value > 0) {
      return `${capitalise(label)}, trailing twelve months: **${((100 * twelve.value.value) / twelve.revenue.value).toFixed(1)}%** of revenue (the twelve months to ${shown.period}: revenue ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, twelve.revenue)}, the sum of the four quarters).`;
    }
    const revenue = figure.revenue;
    const period = shown.period;
    if (!revenue || revenue.value <= 0) return `${capitalise(label)}: no revenue is reported for ${period}, so no ${share.margin ? 'margin' : 'share of revenue'} can be given.`;
    const percent = (100 * shown.value.value) / revenue.value;
    const line = `${capitalise(label)}: **${percent.toFixed(1)}%** of revenue (${period} revenue ${this.#revenue(revenue)})`;
    const prior = shown.prior;
    const priorRevenue = figure.comparedRevenue;
    if (!prior || priorRevenue === undefined) return `${line}.`;
    const priorPeriod = prior.period;
    if (!priorRevenue || priorRevenue.value <= 0) return `${line}; no revenue is reported for ${priorPeriod} to compare with.`;
    const priorPercent = (100 * prior.value.value) / priorRevenue.value;
    const change = Math.round((percent - priorPercent) * 100) === 0 ? 'unchanged' : pointsApart(percent - priorPercent, this.#bpsAsked(), true);
    return `${line}; ${priorPeriod}: ${priorPercent.toFixed(1)}% (revenue ${this.#revenue(priorRevenue)}); ${change}.`;
  }

  /** "$85,777 million, Form 10-Q filed 2024-08-02 [2]": revenue as the denominator of a share. */
  #revenue(revenue: MetricValue): string {
    const base = { metric: METRICS.find((m) => m.id === 'revenue')! };
    const source = revenue.derivation ? `derived as ${this.#terms(base, revenue)}` : `${this.#filedAs(revenue.terms[0]!.fact)} ${this.#refs(revenue)}`;
    return `${this.#amount(base, revenue)}, ${source}`;
  }

  /**
   * Debt asked for as a whole ("total debt", "debt load") is answered with long-term debt, the
   * figure companies tag: said so, with what it leaves out, so it is not taken for all borrowing.
   */
  #debtScope(figure: Figure, value: MetricValue): string | null {
    const asked = this.#plan.question?.text ?? '';
    if (figure.metric.id !== 'longTermDebt' || /\b(?:long[- ]?term|non-?current|term)\s+debt\b/i.test(asked) || !/\b(?:debt|borrowings)\b/i.test(asked)) return null;
    const noncurrent = value.terms.every((t) => t.fact.concept === 'LongTermDebtNoncurrent');
    return `This is long-term debt${noncurrent ? ' due after one year (the non-current part)' : ''}, the debt figure the filings tag: ${noncurrent ? 'its current portion and ' : ''}short-term borrowings such as commercial paper are not included, so it is less than all of the company's borrowing.`;
  }

  /** "Trailing twelve months to 2025-03-29: $391,035 million, the sum of …", when asked for. */
  #ttm(figure: Figure): string | null {
    if (figure.ttmNot) return `Trailing twelve months: ${figure.ttmNot}.`;
    const quarters = figure.ttm;
    if (!quarters?.length || figure.result.kind !== 'value') return null;
    const cal = figure.fin.calendar;
    const end = quarters.at(-1)!.quarter.end;
    const missing = quarters.length < 4 ? ['the quarters before'] : quarters.filter((q) => !q.value).map((q) => periodName(q.quarter, cal));
    if (missing.length) return `Trailing twelve months to ${end}: not available, because ${missing.join(', ')} ${missing.length > 1 || /^the quarters\b/.test(missing[0] ?? '') ? 'have' : 'has'} no ${figure.metric.label} in the filings.`;
    const sum = this.#ttmSum(quarters);
    const parts = (qs: NonNullable<Figure['ttm']>) => qs.map((q) => `${periodName(q.quarter, cal)} ${this.#amount(figure, q.value!)}${q.value!.derivation ? ' (derived)' : ''} ${this.#refs(q.value!)}`).join(', ');
    const approximate = figure.metric.unit === 'perShare' ? ' This is approximate: per-share figures of different quarters rest on different share counts.' : '';
    const range = (qs: NonNullable<Figure['ttm']>) => `${periodName(qs[0]!.quarter, cal)} to ${periodName(qs.at(-1)!.quarter, cal)}, ended ${qs.at(-1)!.quarter.end}`;
    // A change asked for with TTM is the change of the twelve months, not of their last quarter; it
    // comes first, the sums after it.
    const prior = figure.ttmPrior;
    const priorGaps = prior ? (prior.length < 4 ? ['the quarters before'] : prior.filter((q) => !q.value).map((q) => periodName(q.quarter, cal))) : [];
    const earlier = this.#plan.question?.comparison === 'qoq' ? 'a quarter earlier' : 'a year earlier';
    let text: string;
    if (prior && !priorGaps.length) {
      const before = this.#ttmSum(prior);
      text =
        `Trailing twelve months (${range(quarters)}): **${this.#amount(figure, sum)}**, change **${formatChange(sum.value, before.value, sum.unit, figure.metric, this.#scale(sum))}** from ${this.#amount(figure, before)} ${earlier} (${range(prior)}). ` +
        `The sum of ${parts(quarters)}; ${earlier}, of ${parts(prior)}.${approximate}`;
    } else {
      text = `Trailing twelve months (${range(quarters)}): **${this.#amount(figure, sum)}**, the sum of ${parts(quarters)}.${approximate}`;
      if (prior) text += ` ${capitalise(earlier)}: not available, because ${priorGaps.join(', ')} ${priorGaps.length > 1 || /^the quarters\b/.test(priorGaps[0] ?? '') ? 'have' : 'has'} no ${figure.metric.label} in the filings.`;
    }
    // A margin asked for with TTM: the twelve months' figure over their revenue.
    const revenue = figure.ttmRevenue;
    const share = shareLabel(figure.metric);
    if (revenue && share && revenue.length === 4) {
      const base = { metric: METRICS.find((m) => m.id === 'revenue')! };
      if (revenue.some((q) => !q.value)) text += ` ${capitalise(share.label)} over the twelve months: not available, because a quarter has no revenue in the filings.`;
      else {
        const total = this.#ttmSum(revenue);
        const revenueParts = revenue.map((q) => `${periodName(q.quarter, cal)} ${this.#amount(base, q.value!)} ${this.#refs(q.value!)}`).join(', ');
        text += ` ${capitalise(share.label)} over the twelve months: **${((100 * sum.value) / total.value).toFixed(1)}%** of revenue of ${this.#amount(base, total)} (the sum of ${revenueParts}).`;
        // With a change asked: the earlier twelve months' margin, on their own revenue, each quarter cited.
        const before = this.#ttmPriorShare(figure);
        const priorRevenue = figure.ttmPriorRevenue;
        if (before && priorRevenue && before.revenue.value > 0) {
          const priorParts = priorRevenue.map((q) => `${periodName(q.quarter, cal)} ${this.#amount(base, q.value!)} ${this.#refs(q.value!)}`).join(', ');
          text += ` ${capitalise(earlier)}: **${((100 * before.value.value) / before.revenue.value).toFixed(1)}%** of revenue of ${this.#amount(base, before.revenue)} (the sum of ${priorParts}).`;
        } else if (prior && priorRevenue) text += ` ${capitalise(share.label)} ${earlier}: not available, because a quarter has no ${figure.metric.label} or revenue in the filings.`;
      }
    }
    return text;
  }

  /** "operating margin over the trailing twelve months (…) was **31.8%** (derived): operating income of … over revenue of …", when a margin is asked with TTM; null otherwise. */
  #ttmMarginLine(figure: Figure): string | null {
    const share = shareLabel(figure.metric);
    const twelve = this.#plan.question?.margin && share?.margin ? this.#ttmShare(figure) : null;
    const quarters = figure.ttm;
    if (!share || !twelve || twelve.revenue.value <= 0 || !quarters?.length) return null;
    const cal = figure.fin.calendar;
    const range = `${periodName(quarters[0]!.quarter, cal)} to ${periodName(quarters.at(-1)!.quarter, cal)}, ended ${quarters.at(-1)!.quarter.end}`;
    const revenue = { metric: METRICS.find((m) => m.id === 'revenue')! };
    const now = (100 * twelve.value.value) / twelve.revenue.value;
    const line = `${share.label} over the trailing twelve months (${range}) was **${now.toFixed(1)}%** (derived): ${figure.metric.label} of ${this.#amount(figure, twelve.value)} over revenue of ${this.#amount(revenue, twelve.revenue)}, each the sum of the four quarters`;
    // "Operating margin TTM vs a year earlier": the twelve months before too, and how far the margin moved, in points of the unrounded margins.
    const before = this.#ttmPriorShare(figure);
    const prior = figure.ttmPrior;
    if (!before || !prior?.length || before.revenue.value <= 0) return `${line}.`;
    const then = (100 * before.value.value) / before.revenue.value;
    const earlier = this.#plan.question?.comparison === 'qoq' ? 'a quarter earlier' : 'a year earlier';
    const priorRange = `${periodName(prior[0]!.quarter, cal)} to ${periodName(prior.at(-1)!.quarter, cal)}, ended ${prior.at(-1)!.quarter.end}`;
    const moved = Math.round((now - then) * 100) === 0 ? 'unchanged' : pointsApart(now - then, this.#bpsAsked(), true);
    return `${line}; ${earlier}, over the twelve months ${priorRange}, it was **${then.toFixed(1)}%** (derived): ${figure.metric.label} of ${this.#amount(figure, before.value)} over revenue of ${this.#amount(revenue, before.revenue)}. Change: **${moved}** (derived).`;
  }

  #ttmSum(quarters: NonNullable<Figure['ttm']>): MetricValue {
    const values = quarters.map((q) => q.value!);
    return { ...values.at(-1)!, value: roundLike(values.reduce((sum, v) => sum + v.value, 0), ...values.map((v) => v.value)) };
  }

  #fiscalNote(figure: Figure, period: FiscalPeriod | null): string | null {
    const cal = figure.fin.calendar;
    if (cal.isCalendarYear) return null;
    const span = period ? `: ${periodName(period, cal)} ran from ${period.start} to ${period.end}` : ', and its quarters are named for that fiscal year';
    return `${its(figure.company)} fiscal year ends ${cal.describeYearEnd()}${span}.`;
  }

  #available(figure: Figure): string {
    const cov = coverage(figure.fin, figure.metric.id);
    return cov ? `Available for ${shortName(figure.company.name)}: ${figure.metric.label} for ${cov}.` : '';
  }

  #reportedMetrics(figure: Pick<Figure, 'company' | 'fin'>): string {
    const list = METRICS.filter((m) => figure.fin.reports(m.id)).map((m) => m.label);
    return list.length ? `Figures I can give for ${shortName(figure.company.name)}: ${list.join(', ')}.` : '';
  }

  /** Figures asked for that are not among the metrics, said plainly, with what each company's filings do give. */
  #unknownFigures(): string[] {
    const { figures, companies } = this.#plan.unknown;
    if (!figures.length || !this.#plan.question?.companies.length) return [];
    return [...figures.map(unknownFigureText), ...companies.map((c) => this.#reportedMetrics(c)).filter(Boolean)];
  }

  /** What a figure that could not be given is missing, and what is there instead. */
  #missing(figure: Figure): string {
    const said = this.#missingOnly(figure);
    const near = figure.nearest;
    if (!near) return said;
    // What there is instead: the nearest period's figure, cited, never put in the place of the one asked.
    const when = figure.metric.type === 'instant' ? `at the end of ${periodWithEnd(near.period, figure.fin.calendar)}` : `for ${periodWithEnd(near.period, figure.fin.calendar)}`;
    return `${said} The nearest period with a figure: ${its(figure.company)} ${figure.metric.label} ${when} ${wasOf(figure.metric)} **${this.#amount(figure, near)}** ${this.#refs(near)}${near.derivation ? ' (derived)' : ''} (${near.derivation ? near.derivation.replace(/\.$/, '') : this.#filedAs(near.terms[0]!.fact)}).`;
  }

  /** Figures one company's data does not have, said together: what it has is listed once. */
  #notReportedTogether(figures: Figure[]): string {
    const first = figures[0]!;
    const names = figures.map((f) => f.metric.label);
    const labels = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
    return (
      this.#snapshot
        ? `The XBRL financial data recorded for ${who(first.company)} in this snapshot has no ${labels} figures, so I cannot give them. ${this.#reportedMetrics(first)}`
        : `${who(first.company)} does not report ${labels} in its XBRL financial data, so I cannot give those figures. ${this.#reportedMetrics(first)}`
    ).trim();
  }

  #missingOnly(figure: Figure): string {
    const r = figure.result;
    switch (r.kind) {
      case 'not-reported':
        // A snapshot holds what was recorded, not all the company reports: the claim is about the data.
        return (
          this.#snapshot
            ? `The XBRL financial data recorded for ${who(figure.company)} in this snapshot has no ${figure.metric.label} figure, so I cannot give it. ${this.#reportedMetrics(figure)}`
            : `${who(figure.company)} does not report ${figure.metric.label} in its XBRL financial data, so I cannot give that figure. ${this.#reportedMetrics(figure)}`
        ).trim();
      case 'no-period':
        return `${its(figure.company)} filings have no ${figure.metric.label} for ${r.wanted}. ${this.#available(figure)}`.trim();
      case 'no-value':
        {
          // Later than anything the filings report (the calendar reckons quarters and years still under way).
          const through = (figure.fin.latest(figure.metric.id, 'quarter') ?? figure.fin.latest(figure.metric.id, 'year'))?.period;
          const projected = r.period.kind === 'year' && r.period.projected;
          if (projected || (through && r.period.end > through.end)) {
            const upTo = through ? `the ${through.kind === 'year' ? 'year' : 'quarter'} ended ${through.end}` : 'an earlier period';
            return `${who(figure.company)} has not reported ${periodName(r.period, figure.fin.calendar)} yet: its filings go up to ${upTo}${projected ? `, and that year ends about ${r.period.end}` : ''}. ${this.#available(figure)}`.trim();
          }
        }
        // Not "reported no cash": that reads as a balance of zero. The data lacks the figure.
        return (
          this.#snapshot
            ? `The XBRL financial data recorded for ${who(figure.company)} in this snapshot has no ${figure.metric.label} for ${periodWithEnd(r.period, figure.fin.calendar)}. ${this.#available(figure)}`
            : `${its(figure.company)} XBRL financial data has no ${figure.metric.label} for ${periodWithEnd(r.period, figure.fin.calendar)}. ${this.#available(figure)}`
        ).trim();
      case 'calendar-year': {
        const missing = r.quarters.filter((q) => !q.value).map((q) => (q.quarter ? `${periodWithEnd(q.quarter, figure.fin.calendar)} has no ${figure.metric.label} in the filings` : `the filings have no quarter ending in calendar Q${q.calendarQuarter} ${r.year}`));
        return `${its(figure.company)} ${figure.metric.label} for calendar year ${r.year} cannot be given: it is the sum of the four fiscal quarters ending in ${r.year}, and ${missing.join('; ')}. ${this.#available(figure)}`.trim();
      }
      default:
        return '';
    }
  }

  /** "Fiscal Q3 2024 (quarter ended 2024-03-31): $61,858 million (Form 10-Q filed 2024-04-25) [1]", a quarter of a calendar-year sum. */
  #calendarQuarter(figure: Figure, q: CalendarQuarterValue): string {
    const v = q.value!;
    const how = v.derivation ? `, ${this.#derivation(figure, v).replace(/^Derived/, 'derived').replace(/\.$/, '')}` : ` (${this.#filedAs(v.terms[0]!.fact)}) ${this.#refs(v)}`;
    return `${capitalise(periodWithEnd(q.quarter!, figure.fin.calendar))}: ${this.#amount(figure, v)}${how}`;
  }

  /** A calendar year summed from fiscal quarters: the total, then each quarter with its source. */
  #calendarYear(figure: Figure, r: Extract<FigureResult, { kind: 'calendar-year' }>): string[] {
    const total = r.total!;
    const rough = this.#scale(total) === 9 ? null : roughly(total.value, total.unit, figure.metric);
    const approximate = total.approximate ? ' Per-share figures added up across quarters are approximate, because share counts differ between the quarters.' : '';
    const [first, last] = [r.quarters[0]!.quarter!, r.quarters[3]!.quarter!];
    const cal = figure.fin.calendar;
    // Built in reading order: sources are numbered as they are first cited.
    const lines = [
      `**${who(figure.company)}**: ${figure.metric.label} for calendar year ${r.year} ${wasOf(figure.metric)} **${this.#amount(figure, total)}**${rough ? ` (about ${rough})` : ''} ${this.#refs(total)}, the sum of the four fiscal quarters ending in ${r.year}.${approximate}`,
      '',
      ...r.quarters.map((q) => `- ${this.#calendarQuarter(figure, q)}`),
    ];
    const margin = this.#margin(figure);
    if (margin) lines.push(`- ${margin}`);
    // Asked for a margin: the percentage leads, as it does for a fiscal period.
    const share = this.#plan.question?.margin ? shareLabel(figure.metric) : null;
    const revenue = figure.revenue;
    if (share && revenue && revenue.value > 0) {
      const label = share.margin ? share.label : `${figure.metric.label} as a share of revenue`;
      lines.unshift(`**${who(figure.company)}**: ${label} for calendar year ${r.year} was **${((100 * total.value) / revenue.value).toFixed(1)}%**: ${figure.metric.label} of ${this.#amount(figure, total)} over revenue of ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, revenue)}, each the sum of the four fiscal quarters ending in ${r.year}.`, '');
    }
    const compared = this.#calendarComparison(figure, r);
    if (compared) lines.push(`- ${compared}`);
    lines.push(`- ${its(figure.company)} fiscal year ends ${cal.describeYearEnd()}, so calendar ${r.year} is not one of its fiscal years: its quarters ending in ${r.year}, ${periodName(first, cal)} to ${periodName(last, cal)}, ran from ${first.start} to ${last.end}.`);
    const longer = this.#extraWeekCalendarNote(figure, r);
    if (longer) lines.push(`- ${longer}`);
    return lines;
  }

  /** A calendar year's sum holding a 14-week quarter, or compared with one that does (see #extraWeekNote). */
  #extraWeekCalendarNote(figure: Figure, r: Extract<FigureResult, { kind: 'calendar-year' }>): string | null {
    if (figure.metric.type !== 'duration' || figure.metric.averaged) return null;
    const cal = figure.fin.calendar;
    const longIn = (year: number) => cal.quarters.find((q) => q.end.startsWith(`${year}-`) && extraWeekLength(q));
    const said = (q: FiscalPeriod) => `${periodName(q, cal)}, of ${extraWeekLength(q)} weeks, one more than usual`;
    const own = longIn(r.year);
    if (own) return `Calendar ${r.year}'s quarters include ${said(own)}, which adds to the sum${r.compared?.total && !r.compared.fiscal ? ' and to the change against it' : ''}.`;
    const earlier = r.compared?.total && !r.compared.fiscal ? longIn(r.compared.year) : undefined;
    return earlier ? `Calendar ${r.compared!.year}'s quarters include ${said(earlier)}, so the change from it understates the trend by about that week.` : null;
  }

  /** "Year over year: calendar year 2023 was $… (the sum of its four fiscal quarters, each cited); change …". */
  #calendarComparison(figure: Figure, r: Extract<FigureResult, { kind: 'calendar-year' }>): string | null {
    const c = r.compared;
    if (!c || !r.total) return null;
    const qoq = this.#plan.question?.comparison === 'qoq' ? ' (a calendar year has no previous quarter: compared with the year before)' : '';
    const label = this.#plan.question?.comparison === 'versus' ? 'Compared with' : 'Year over year';
    if (c.fiscal || this.#plan.question?.versus?.kind === 'fiscalYear') return this.#againstFiscalYear(figure, r.total, c, label);
    if (!c.total) return `${label}${qoq}: no ${figure.metric.label} for calendar year ${c.year} to compare with, because a fiscal quarter ending in it has no figure in the filings.`;
    const change = formatChange(r.total.value, c.total.value, r.total.unit, figure.metric, this.#scale(r.total));
    const named = this.#plan.question?.margin && shareLabel(figure.metric) ? `${figure.metric.label} for ` : '';
    return `${label}${qoq}: ${named}calendar year ${c.year} ${named ? wasOf(figure.metric) : 'was'} ${this.#amount(figure, c.total)} ${this.#refs(c.total)}, the sum of the four fiscal quarters ending in ${c.year} (derived as ${this.#terms(figure, c.total)}); change ${change}.`;
  }

  /** "Compared with: fiscal year 2024 (year ended 2024-09-28) was $… (Form 10-K filed …) [5]; change …", a calendar year against a fiscal year. */
  #againstFiscalYear(figure: Figure, total: MetricValue, c: CalendarCompared, label: string): string {
    if (!c.fiscal || !c.total) return `${label}: no ${figure.metric.label} for fiscal year ${c.year} to compare with.`;
    const change = formatChange(total.value, c.total.value, total.unit, figure.metric, this.#scale(total));
    const source = c.total.derivation ? ` (derived as ${this.#terms(figure, c.total)})` : ` (${this.#filedAs(c.total.terms[0]!.fact)}) ${this.#refs(c.total)}`;
    const named = this.#plan.question?.margin && shareLabel(figure.metric) ? `${figure.metric.label} for ` : '';
    return `${label}: ${named}${periodWithEnd(c.fiscal, figure.fin.calendar)} ${named ? wasOf(figure.metric) : 'was'} ${this.#amount(figure, c.total)}${source}; change ${change}.`;
  }

  #single(figure: Figure): string[] {
    const r = figure.result;
    if (r.kind === 'calendar-year' && r.total) return this.#calendarYear(figure, r);
    if (r.kind !== 'value') return [this.#missing(figure)];
    const v = r.value;
    const rough = this.#scale(v) === 9 ? null : roughly(v.value, v.unit, figure.metric);
    const ttm = this.#ttm(figure);
    // Asked for the trailing twelve months: they are the answer, their last quarter a detail.
    const ttmFirst = ttm !== null && figure.ttm?.length === 4 && figure.ttm.every((q) => q.value) && !figure.ttmNot;
    // A balance is taken at a date ("total assets at the end of fiscal 2024 were"); an amount is over a period.
    const when = figure.metric.type === 'instant' ? balanceDate(r.period, figure.fin.calendar) : `for ${periodWithEnd(r.period, figure.fin.calendar)}`;
    // A figure no filing prints (free cash flow, a fourth quarter) is said to be derived where it is given, not only in its note.
    const derived = v.derivation ? ' (derived)' : '';
    // Two periods asked together ("revenue in Q3 2024 and Q4 2024", "Q3 2024? And in Q4?"): both are the answer, the earlier first, each cited.
    const q = this.#plan.question;
    const earlier = r.compared?.period && r.compared.value && q?.periodsListed && !ttm && !q.margin && !ANNUALIZE_ASKED.test(q.text) ? { period: r.compared.period, value: r.compared.value } : null;
    const earlierWhen = earlier ? (figure.metric.type === 'instant' ? balanceDate(earlier.period, figure.fin.calendar) : `for ${periodWithEnd(earlier.period, figure.fin.calendar)}`) : '';
    const bothLead = earlier ? `${figure.metric.label} ${earlierWhen} ${wasOf(figure.metric)} **${this.#amount(figure, earlier.value)}** ${this.#refs(earlier.value)}${earlier.value.derivation ? ' (derived)' : ''}, and ${when} ` : null;
    const quarterLine = bothLead
      ? `${bothLead}**${this.#amount(figure, v)}** ${this.#refs(v)}${derived}.`
      : `${figure.metric.label} ${when} ${wasOf(figure.metric)} **${this.#amount(figure, v)}**${rough ? ` (about ${rough})` : ''} ${this.#refs(v)}${derived}.`;
    // Asked for a margin or a share of revenue: the percentage is the answer, the amount its numerator.
    const share = this.#plan.question?.margin && !ttmFirst ? shareLabel(figure.metric) : null;
    const revenue = figure.revenue;
    const shareLine =
      share && revenue && revenue.value > 0
        ? `${share.margin ? share.label : `${figure.metric.label} as a share of revenue`} ${when} was **${((100 * v.value) / revenue.value).toFixed(1)}%**${this.#shareThen(figure, r, (100 * v.value) / revenue.value)}: ${figure.metric.label} of ${this.#amount(figure, v)} ${this.#refs(v)}${derived} over revenue of ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, revenue)} ${this.#refs(revenue)}${revenue.derivation ? ' (derived)' : ''}.`
        : null;
    // "Annualize that": a quarter's amount times four (a half's times two), as a run rate.
    const perYear = r.period.kind === 'quarter' ? 4 : r.period.kind === 'span' ? 4 / r.period.quarters : null;
    // ("Annualize that EPS": a quarter's per-share figure the same way, a simple annualization set against the twelve months and the year.)
    const perShare = figure.metric.unit === 'perShare' && r.period.kind === 'quarter';
    const annualized =
      ANNUALIZE_ASKED.test(this.#plan.question?.text ?? '') && perYear && figure.metric.type === 'duration' && (figure.metric.unit === 'money' || perShare) && !ttmFirst && !shareLine
        ? `${figure.metric.label} ${when}, ${perShare ? 'simply annualized' : 'annualized'}, is **${this.#amount(figure, { ...v, value: v.value * perYear })}** (derived): ${this.#amount(figure, v)} ${this.#refs(v)} times ${perYear === 4 ? 'four' : perYear === 2 ? 'two' : perYear.toFixed(2)}. ${perShare ? 'A simple annualization (the quarter times four), not a forecast: seasonality, growth and changes in the share count are not taken out.' : 'A run rate, not a forecast: seasonality and growth within the year are not taken out.'}`
        : null;
    // A margin asked over the trailing twelve months is the answer: the sums of the quarters are its working.
    const ttmMargin = ttmFirst ? this.#ttmMarginLine(figure) : null;
    const lines = ttmMargin && ttm
      ? [`**${who(figure.company)}**: ${ttmMargin}`, '', `- Working: ${figure.metric.label}, ${ttm.replace(/^Trailing/, 'trailing').replace(/\*\*/g, '')}`]
      : ttmFirst
      ? [`**${who(figure.company)}**: ${figure.metric.label}, ${ttm.replace(/^Trailing/, 'trailing')}`]
      : shareLine
        ? [`**${who(figure.company)}**: ${shareLine}`]
        : annualized
          ? [`**${who(figure.company)}**: ${annualized}`]
          : [`**${who(figure.company)}**: ${quarterLine}`];
    if (annualized) lines.push('', `- The quarter${r.period.kind === 'span' ? 's' : ''} alone: ${quarterLine}`, ...this.#againstAnnualized(figure, v.value * (perYear ?? 4)));
    if (r.note) lines.push(`(${capitalise(r.note)}.)`);
    const verdict = this.#burn(figure, r) ?? this.#verdict(figure, r);
    if (verdict) lines.unshift(verdict, '');
    if (!ttmMargin) lines.push('');
    if (ttmFirst) lines.push(`- The last of those quarters: ${quarterLine}`);
    lines.push(`- ${v.derivation ? this.#derivation(figure, v) : this.#source(v)}`);
    const scope = this.#debtScope(figure, v);
    if (scope) lines.push(`- ${scope}`);
    const margin = ttmMargin ? null : this.#margin(figure);
    if (margin) lines.push(`- ${margin}`);
    if (ttm && !ttmFirst) lines.push(`- ${ttm}`);
    for (const c of [r.compared, figure.alsoCompared]) {
      const cmp = this.#comparison(figure, r, c);
      if (cmp) lines.push(`- ${cmp}`);
    }
    const fiscal = this.#fiscalNote(figure, r.period);
    if (fiscal) lines.push(`- ${fiscal}`);
    const longer = this.#extraWeekNote(figure, r.period, [r.compared, figure.alsoCompared]);
    if (longer) lines.push(`- ${longer}`);
    return lines;
  }

  /**
   * A per-share figure annualized, set against what the filings give for a year: the sum of the four
   * quarters to it (approximate, share counts differ) and its fiscal year (or the last one filed).
   */
  #againstAnnualized(figure: Figure, annual: number): string[] {
    const basis = figure.annualBasis;
    if (!basis || figure.result.kind !== 'value') return [];
    const cal = figure.fin.calendar;
    const like = figure.result.value;
    const amount = (value: number) => this.#amount(figure, { ...like, value: Math.round(value * 100) / 100 });
    const set = (value: number) => {
      const gap = annual - value;
      return Math.abs(gap) < 0.005 ? 'the same' : `${amount(Math.abs(gap))} (${Math.abs((100 * gap) / value).toFixed(1)}%) ${gap > 0 ? 'above' : 'below'} it`;
    };
    const out: string[] = [];
    const known = basis.ttm.length === 4 && basis.ttm.every((q) => q.value);
    if (known) {
      const sum = basis.ttm.reduce((total, q) => total + q.value!.value, 0);
      const parts = basis.ttm.map((q) => `${periodName(q.quarter, cal)} ${this.#amount(figure, q.value!)}${q.value!.derivation ? ' (derived)' : ''} ${this.#refs(q.value!)}`).join(', ');
      out.push(`- Trailing twelve months to ${basis.ttm.at(-1)!.quarter.end}: ${amount(sum)} (derived, approximate: the sum of ${parts}); the annualized figure is ${set(sum)}.`);
    } else {
      const gaps = basis.ttm.length < 4 ? ['the quarters before'] : basis.ttm.filter((q) => !q.value).map((q) => periodName(q.quarter, cal));
      out.push(`- Trailing twelve months: not available, because ${gaps.join(', ')} ${gaps.length > 1 || /^the quarters\b/.test(gaps[0] ?? '') ? 'have' : 'has'} no ${figure.metric.label} in the filings.`);
    }
    const year = basis.year;
    if (year) out.push(`- ${capitalise(periodWithEnd(year.period, cal))} as filed: ${this.#amount(figure, year.value)}${year.value.derivation ? ' (derived)' : ''} ${this.#refs(year.value)}; the annualized figure is ${set(year.value.value)}.`);
    return out;
  }

  /** ", against 7.8% for fiscal year 2023 (+0.2 percentage points)": a share of revenue compared, said in the answer's first sentence. */
  #shareThen(figure: Figure, r: Extract<FigureResult, { kind: 'value' }>, now: number): string {
    const c = r.compared;
    const before = figure.comparedRevenue;
    if (!c?.period || !c.value || !before || before.value <= 0) return '';
    const then = (100 * c.value.value) / before.value;
    const moved = Math.round((now - then) * 100) === 0 ? 'unchanged' : pointsApart(now - then, this.#bpsAsked(), true);
    return `, against ${then.toFixed(1)}% for ${periodName(c.period, figure.fin.calendar)} (${moved})`;
  }

  /**
   * "What is Apple's cash burn?": free cash flow below zero is the burn, said first with its pace a
   * month, the twelve months' burn to it, the cash at the period's end and the months of runway it
   * gives ("how long is their runway?" leads with those months); above zero, none, said first.
   */
  #burn(figure: Figure, r: Extract<FigureResult, { kind: 'value' }>): string | null {
    const q = this.#plan.question;
    if (figure.metric.id !== 'freeCashFlow' || !(q?.burn || BURN_ASKED.test(q?.text ?? ''))) return null;
    const v = r.value;
    const cal = figure.fin.calendar;
    const when = `${periodWithEnd(r.period, cal)}`;
    const money = (value: number) => this.#amount(figure, { ...v, value });
    const amount = money(Math.abs(v.value));
    const months = r.period.kind === 'year' ? 12 : r.period.kind === 'quarter' ? 3 : 3 * r.period.quarters;
    // A month's pace to one decimal of the scale the figure is stated in ("$16 million", "$15.2 million").
    const unit = 10 ** ((this.#scale(v) ?? 6) - 1);
    const perMonth = (total: number) => money(Math.round(Math.abs(total) / months / unit) * unit);
    const runwayAsked = Boolean(q?.runway);
    const basis = figure.burnBasis;
    const ttm = basis?.ttm.length === 4 && basis.ttm.every((x) => x.value) ? basis.ttm : null;
    const ttmSum = ttm ? ttm.reduce((total, x) => total + x.value!.value, 0) : null;
    const cash = basis?.cash ?? null;
    if (v.value >= 0) {
      // "Is it burning cash?": yes or no, first; a runway asked of a company burning none has none to measure.
      const answer = YES_NO.test(q?.text ?? '') ? '**No**: ' : runwayAsked ? `**No runway to measure**: ` : '';
      // The twelve months to it too, cited: one quarter's cash generated is not yet a year without a burn.
      const sumOf = ttm ? ttm.map((x) => `${periodName(x.quarter, cal)} ${x.value!.value < 0 ? '-' : '+'}${money(Math.abs(x.value!.value))} ${this.#refs(x.value!)}`).join(', ') : '';
      const twelve = ttmSum === null
        ? ''
        : ttmSum >= 0
          ? ` Over the trailing twelve months (the four quarters to ${ttm!.at(-1)!.quarter.end}) its free cash flow was **+${money(ttmSum)}** (derived, the sum of ${sumOf}): it does not burn cash.`
          : ` Over the trailing twelve months (the four quarters to ${ttm!.at(-1)!.quarter.end}), though, it burned ${money(Math.abs(ttmSum))} (derived, the sum of ${sumOf}).`;
      const held = runwayAsked && cash ? ` Its cash and cash equivalents ${balanceDate(r.period, cal)} were ${money(cash.value)} ${this.#refs(cash)}, not being run down by operations.` : '';
      return answer + `${capitalise(shortName(figure.company.name))} did not burn cash in ${when}: its free cash flow (operating cash flow minus capital expenditure) was **+${amount}** ${this.#refs(v)} (derived), cash generated rather than used.${twelve}${held}`;
    }
    const answer = YES_NO.test(q?.text ?? '') ? '**Yes**: ' : '';
    const lines: string[] = [];
    const monthly = Math.abs(v.value) / months;
    lines.push(`${capitalise(its(figure.company))} cash burn for ${when} was **${amount}** ${this.#refs(v)} (derived), about **${perMonth(v.value)} a month**: its free cash flow (operating cash flow minus capital expenditure) was negative by that much.`);
    let twelveMonthly: number | null = null;
    if (ttm && ttmSum !== null) {
      const parts = ttm.map((x) => `${periodName(x.quarter, cal)} ${money(x.value!.value)} ${this.#refs(x.value!)}`).join(', ');
      if (ttmSum < 0) {
        twelveMonthly = Math.abs(ttmSum) / 12;
        lines.push(`- Trailing twelve months to ${ttm.at(-1)!.quarter.end}: burned **${money(Math.abs(ttmSum))}** (derived), about ${money(Math.round(twelveMonthly / unit) * unit)} a month; free cash flow each quarter: ${parts}.`);
      } else lines.push(`- Trailing twelve months to ${ttm.at(-1)!.quarter.end}: free cash flow was +${money(ttmSum)} (derived), no burn over the year; each quarter: ${parts}.`);
    }
    if (cash && cash.value > 0) {
      const at = (perMonthBurn: number) => (cash.value / perMonthBurn).toFixed(1);
      const pace = r.period.kind === 'quarter' ? "the latest quarter's" : 'that';
      const atTwelve = twelveMonthly ? `, or about ${at(twelveMonthly)} months at the trailing twelve months' pace` : '';
      lines.push(`- Cash and cash equivalents ${balanceDate(r.period, cal)}: **${money(cash.value)}** ${this.#refs(cash)}: a runway of about **${at(monthly)} months** at ${pace} pace${atTwelve} (derived: cash over the monthly burn), if the burn held and no cash were raised; marketable securities, which I do not read, and any financing would lengthen it.`);
      // "How long is their runway?": the months first.
      if (runwayAsked) {
        lines.unshift(`**About ${at(monthly)} months of runway** at ${pace} burn${atTwelve}: ${its(figure.company)} cash and cash equivalents of ${money(cash.value)} ${this.#refs(cash)} ${balanceDate(r.period, cal)}, over its cash burn of ${amount} in ${periodName(r.period, cal)} (${perMonth(v.value)} a month) ${this.#refs(v)} (derived).`, '');
        return lines.join('\n');
      }
    } else lines.push(`- Runway: no cash and cash equivalents ${balanceDate(r.period, cal)} in the filings, so no months of runway can be computed.`);
    return answer + lines.join('\n');
  }

  /**
   * The direction a question asks about, answered before the figure: "Did net income grow?" gets
   * **Yes** or **No**, "How much did it grow?" the change, and "How much did revenue decline?" when
   * it rose says it did not.
   */
  #verdict(figure: Figure, r: Extract<FigureResult, { kind: 'value' }>): string | null {
    // ("And Microsoft's?" after "did it grow?": asked as that question was.)
    const text = this.#plan.question?.askedAs ?? this.#plan.question?.text ?? '';
    const c = r.compared;
    if (!c?.period || !c.value) return null;
    const [up, down] = [GROWTH_WORDS.test(text), DECLINE_WORDS.test(text)];
    // "How did it change?": no direction presumed, the change told first all the same.
    // "Did it expand or contract?": either way asked, the way it went told, no yes or no.
    // ("How many bps did gross margin move?" too.)
    // (So does "same for MSFT" after "how many bps did it move?": the basis points asked for are kept.)
    // ("Apple revenue growth FY2024": the growth asked is the change, told first.)
    const neutral = (!up && !down && (/\b(?:change[ds]?|mov(?:e|es|ed)|growth|how many (?:bps|basis points|percentage points|points))\b/i.test(text) || this.#bpsAsked())) || (up && down && /\bor\b/i.test(text));
    if (up === down && !neutral) return null;
    const claimed = neutral ? null : up ? 'up' : down ? 'down' : null;
    // Asked of a margin ("did the gross margin improve?"): the margin's move, in points.
    const share = this.#plan.question?.margin ? shareLabel(figure.metric) : null;
    const [revenue, before] = [figure.revenue, figure.comparedRevenue];
    // (Of trailing twelve months asked with a change: the twelve months' margins, not their last quarters'.)
    const [ttmShareNow, ttmShareBefore] = share ? [this.#ttmShare(figure), this.#ttmPriorShare(figure)] : [null, null];
    const ttmPoints = ttmShareNow && ttmShareBefore && ttmShareNow.revenue.value > 0 && ttmShareBefore.revenue.value > 0 ? (100 * ttmShareNow.value.value) / ttmShareNow.revenue.value - (100 * ttmShareBefore.value.value) / ttmShareBefore.revenue.value : null;
    const points = ttmPoints ?? (share && revenue && before && revenue.value > 0 && before.value > 0 ? (100 * r.value.value) / revenue.value - (100 * c.value.value) / before.value : null);
    if (share && points === null) return null;
    // Trailing twelve months asked for: their change against the four quarters before, not the last quarter's.
    const total = (qs: { value: MetricValue | null }[] | undefined) => (qs?.length && qs.every((q) => q.value) ? qs.reduce((a, q) => a + q.value!.value, 0) : null);
    const [ttmNow, ttmBefore] = share ? [null, null] : [total(figure.ttm), total(figure.ttmPrior)];
    const twelve = ttmPoints !== null || (ttmNow !== null && ttmBefore !== null);
    const [now, then] = ttmNow !== null && ttmBefore !== null ? [ttmNow, ttmBefore] : [r.value.value, c.value.value];
    // (A margin that moved less than a basis point is unchanged.)
    const diff = points !== null ? Math.round(points * 100) : now - then;
    const actual = diff > 0 ? 'up' : diff < 0 ? 'down' : 'flat';
    // "How many bps?": the points in basis points too, both from the unrounded margins.
    const by = points !== null ? pointsApart(points, this.#bpsAsked(), true) : formatChange(now, then, r.value.unit, figure.metric, this.#scale(r.value));
    const moved = actual === 'flat' ? 'was unchanged' : `${actual === 'up' ? 'rose' : 'fell'}, ${by},`;
    const against = c.kind === 'yoy' ? 'year over year' : c.kind === 'qoq' ? 'quarter over quarter' : `against ${periodName(c.period, figure.fin.calendar)}`;
    const what = `${its(figure.company)} ${twelve ? 'trailing-twelve-month ' : ''}${share?.margin ? share.label : figure.metric.label} ${moved} ${against}`.replace(/,$/, '');
    const when = twelve ? `the twelve months to the end of ${periodName(r.period, figure.fin.calendar)}` : periodName(r.period, figure.fin.calendar);
    // "Did Microsoft's revenue grow faster than Meta's?" with no figures for Meta: no verdict on one company alone.
    if (COMPARED_THAN.test(text) && (comparesOtherCompany(text, figure.company) || (this.#plan.question?.companies.length ?? 0) > 1) && !this.#plan.figures.some((f) => f.company.cik !== figure.company.cik && f.result.kind === 'value')) {
      return `**Cannot say**: there is no figure for the other company to compare with (see below). ${capitalise(what)} (${when}).`;
    }
    if (claimed && YES_NO.test(text)) return `**${actual === claimed ? 'Yes' : 'No'}**: ${what} (${when}).`;
    // "How much did it grow?": the change first; asked of a fall that was a rise, said so.
    return `${claimed && actual !== claimed ? `It did not ${claimed === 'up' ? 'grow' : 'decline'}: ` : ''}${what} (${when}).`;
  }

  /**
   * A 52/53-week filer's 14-week quarter or 53-week year (Apple's fiscal Q1 2023 and fiscal 2023)
   * holds a week more than the others: its amounts run higher, and changes against it are skewed.
   */
  #extraWeekNote(figure: Figure, period: FiscalPeriod, compared: (Compared | null | undefined)[]): string | null {
    if (figure.metric.type !== 'duration' || figure.metric.averaged || figure.fin.calendar.isCalendarYear) return null;
    const cal = figure.fin.calendar;
    const extra = (p: FiscalPeriod | null | undefined): string | null => {
      const weeks = p ? extraWeekLength(p) : null;
      return p && weeks ? `${periodName(p, cal)} had ${weeks} weeks, one more than usual` : null;
    };
    const own = extra(period);
    const earlier = compared.filter((c): c is Compared => Boolean(c?.period && c.value)).map((c) => extra(c.period));
    if (own) return `${capitalise(own)}, which adds to its amounts${earlier.some((e) => !e) ? ' and to the change against a period of the usual length' : ''}.`;
    const parts = earlier.filter((e): e is string => e !== null).map((e) => `${capitalise(e)}, so the change from it understates the trend by about that week.`);
    return parts.length ? parts.join(' ') : null;
  }

  #table(figures: Figure[]): string[] {
    const comparison = figures.some((f) => (f.result.kind === 'value' || f.result.kind === 'calendar-year') && f.result.compared);
    // A margin asked of several companies ("operating margin, Apple vs Microsoft") is a column of the table, not only a note under it.
    const shares = figures.map((f) => this.#sharePercent(f));
    const shareOf = figures.flatMap((f, i) => (shares[i] === null ? [] : [shareLabel(f.metric)!]));
    const shareLabels = [...new Set(shareOf.map((l) => l.label))];
    // One margin names its column ("Gross margin"); an expense's share of revenue is that ("% of revenue"), not the expense again.
    const shareHead = shareLabels.length === 1 && shareOf[0]!.margin ? capitalise(shareLabels[0]!) : shareLabels.length ? '% of revenue' : null;
    const head = ['Company', 'Figure', 'Period', 'Value', ...(shareHead ? [shareHead] : []), ...(comparison ? ['Prior period', 'Prior value', 'Change'] : []), 'Filed in'];
    const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
    const notes: string[] = [];
    const scopes = new Map<string, string[]>();
    for (const f of figures) {
      const r = f.result;
      const row = [who(f.company), capitalise(f.metric.label)];
      if (r.kind === 'calendar-year' && r.total) {
        row.push(`calendar year ${r.year}`, `${this.#amount(f, r.total)} ${this.#refs(r.total)} (sum of four quarters)`);
        const c = r.compared;
        const priorLabel = c?.fiscal ? periodWithEnd(c.fiscal, f.fin.calendar) : c && this.#plan.question?.versus?.kind === 'fiscalYear' ? `fiscal year ${c.year}` : c ? `calendar year ${c.year}` : '—';
        if (comparison && c?.total) row.push(priorLabel, `${this.#amount(f, c.total)} ${this.#refs(c.total)}${c.fiscal ? '' : ' (sum of four quarters)'}`, formatChange(r.total.value, c.total.value, r.total.unit, f.metric, this.#scale(r.total)));
        else if (comparison) row.push(priorLabel, c ? 'not reported' : '—', '—');
        row.push(this.#sources(r.total) + (c?.total ? ` (prior: ${this.#sources(c.total)})` : ''));
        notes.push(`${who(f.company)} ${f.metric.label}, calendar year ${r.year}: the sum of ${r.quarters.map((q) => this.#calendarQuarter(f, q)).join('; ')}.`);
        if (c?.total && (!c.fiscal || c.total.derivation)) notes.push(`${who(f.company)} ${f.metric.label}, ${c.fiscal ? periodName(c.fiscal, f.fin.calendar) : `calendar year ${c.year}`}: derived as ${this.#terms(f, c.total)}.`);
        const margin = this.#margin(f);
        if (margin) notes.push(`${who(f.company)} ${uncapitalise(margin)}`);
      } else if (r.kind === 'value') {
        // Asked for the trailing twelve months: the table shows them, their quarters in the note below.
        const twelve = !comparison && f.ttm?.length === 4 && f.ttm.every((q) => q.value) && !f.ttmNot ? this.#ttmSum(f.ttm) : null;
        if (twelve) row.push(`twelve months to ${periodWithEnd(r.period, f.fin.calendar)}`, `${this.#amount(f, twelve)} ${this.#refs(twelve)} (sum of four quarters)`);
        else row.push(periodWithEnd(r.period, f.fin.calendar), `${this.#amount(f, r.value)} ${this.#refs(r.value)}${r.value.derivation ? ' (derived)' : ''}`);
        if (r.value.derivation) notes.push(`${who(f.company)} ${f.metric.label}, ${periodName(r.period, f.fin.calendar)}: ${this.#derivation(f, r.value)}`);
        if (r.value.restatedFrom || r.value.asOf) notes.push(`${who(f.company)} ${f.metric.label}: ${this.#source(r.value)}`);
        if (r.note) notes.push(`${who(f.company)}: ${r.note}.`);
        const scope = this.#debtScope(f, r.value);
        if (scope) scopes.set(scope, [...(scopes.get(scope) ?? []), who(f.company)]);
        const margin = this.#margin(f);
        if (margin) notes.push(`${who(f.company)} ${uncapitalise(margin)}`);
        const ttm = this.#ttm(f);
        if (ttm) notes.push(`${who(f.company)} ${f.metric.label}, ${uncapitalise(ttm)}`);
        if (comparison) {
          const c = r.compared;
          if (c?.period && c.value) {
            row.push(periodWithEnd(c.period, f.fin.calendar), `${this.#amount(f, c.value)} ${this.#refs(c.value)}${c.value.derivation ? ' (derived)' : ''}`, formatChange(r.value.value, c.value.value, r.value.unit, f.metric, this.#scale(r.value)));
            if (c.value.derivation) notes.push(`${who(f.company)} ${f.metric.label}, ${periodName(c.period, f.fin.calendar)}: ${this.#derivation(f, c.value)}`);
          } else row.push(c?.period ? periodWithEnd(c.period, f.fin.calendar) : '—', 'not reported', '—');
        }
        const also = this.#comparison(f, r, f.alsoCompared);
        if (also) notes.push(`${who(f.company)} ${f.metric.label}, ${uncapitalise(also)}`);
        const prior = r.compared?.value ? ` (prior: ${this.#sources(r.compared.value)})` : '';
        row.push(this.#sources(r.value) + prior);
      } else {
        const period = r.kind === 'no-value' ? periodWithEnd(r.period, f.fin.calendar) : r.kind === 'no-period' ? r.wanted : r.kind === 'calendar-year' ? `calendar year ${r.year}` : '—';
        row.push(period, r.kind === 'not-reported' ? 'not reported' : 'no figure');
        if (comparison) row.push('—', '—', '—');
        row.push('—');
        // Several figures a company's data lacks are said in one note, with what it has once ("buybacks and dividends").
        const unreported = r.kind === 'not-reported' && !f.nearest ? figures.filter((g) => g.company.cik === f.company.cik && g.result.kind === 'not-reported' && !g.nearest) : [];
        if (unreported.length > 1) {
          if (unreported[0] === f) notes.push(this.#notReportedTogether(unreported));
        } else notes.push(this.#missing(f));
      }
      if (shareHead) row.splice(4, 0, shares[figures.indexOf(f)] === null ? '—' : `${shares[figures.indexOf(f)]!.toFixed(1)}%`);
      lines.push(`| ${row.map(cell).join(' | ')} |`);
    }
    // What "debt" means here is said once for all the companies it is true of, not once each.
    const companiesShown = new Set(figures.map((f) => f.company.cik)).size;
    for (const [scope, companies] of scopes) notes.push(companies.length > 1 && companies.length === companiesShown ? `For each company: ${uncapitalise(scope)}` : `${listed(companies)}: ${scope}`);
    // A note true of every figure of a company (its December quarter's fiscal name) is said once.
    if (notes.length) lines.push('', ...[...new Set(notes)].map((n) => `- ${n}`));
    return lines;
  }

  /**
   * "Which one expanded more?" of a margin across companies and two periods: the companies by how
   * far their margin moved, the one asked about first; null unless that is asked.
   */
  #marginChangeRanked(figures: Figure[], text: string): string | null {
    const q = this.#plan.question;
    if (!q?.margin || !q.comparison || !/\b(?:which|who)\b/i.test(text) || !/\b(?:expand\w*|widen\w*|improv\w*|grew|grow\w*|rose|increas\w*|contract\w*|narrow\w*|shr[ai]nk\w*|fell|declin\w*|more|most|less|least)\b/i.test(text)) return null;
    const moved = figures.flatMap((f) => {
      const r = f.result;
      const share = shareLabel(f.metric);
      if (r.kind !== 'value' || !share || !f.revenue || !f.comparedRevenue || !r.compared?.value || f.revenue.value <= 0 || f.comparedRevenue.value <= 0) return [];
      const [now, then] = [(100 * r.value.value) / f.revenue.value, (100 * r.compared.value.value) / f.comparedRevenue.value];
      return [{ f, share, now, then, change: now - then }];
    });
    if (moved.length < 2 || new Set(moved.map((m) => m.f.metric.id)).size > 1) return null;
    const shrank = /\b(?:contract\w*|narrow\w*|shr[ai]nk\w*|fell|declin\w*|less|least)\b/i.test(text);
    const ranked = [...moved].sort((a, b) => (shrank ? a.change - b.change : b.change - a.change));
    const said = (m: (typeof ranked)[number]) => `${its(m.f.company)} ${m.then.toFixed(1)}% to ${m.now.toFixed(1)}% (${pointsApart(m.change, this.#bpsAsked(), true)})`;
    const [top, ...rest] = ranked;
    const way = shrank ? 'contracted' : 'expanded';
    if (shrank ? top!.change >= 0 : top!.change <= 0) return `**Neither ${top!.share.label} ${way}**: ${ranked.map(said).join(', ')}.`;
    return `**${its(top!.f.company)} ${top!.share.label} ${way} more**: ${said(top!)}, against ${rest.map(said).join(', ')}.`;
  }

  /**
   * What a figure is compared on between companies: the margin when one was asked for, the change
   * when growth was, the trailing twelve months when those were, else the amount itself.
   */
  /**
   * "Total liabilities as a % of total assets?": of two figures asked of each company for one
   * period, the first as a share of the second, from the values in the table.
   */
  /**
   * "So fcf minus net income?": of two amounts asked of each company for one period, the first less
   * the second, from the values in the table.
   */
  #differencesOf(figures: Figure[]): string[] {
    const ids = this.#plan.question?.metrics ?? [];
    const text = this.#plan.question?.text ?? '';
    if (AGAINST_FIGURE.test(text) && ids.length === 2 && !this.#plan.question?.stated.companies) return this.#setAgainst(figures, ids as [MetricId, MetricId]);
    // "Apple operating cash flow vs net income FY2024": two figures of one company set against each other in one question,
    // and in the follow-ups naming no figure ("and Microsoft?").
    if (ids.length === 2 && (this.#plan.question?.against || (/\b(?:vs\.?|versus|compared\s+(?:to|with)|against|relative\s+to)\s/i.test(text) && new Set(figures.map((f) => f.company.cik)).size === 1))) return this.#setAgainst(figures, ids as [MetricId, MetricId]);
    if (!MINUS_ASKED.test(text) || ids.length !== 2) return [];
    const out: string[] = [];
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const [a, b] = ids.map((id) => figures.find((f) => f.company.cik === cik && f.metric.id === id));
      if (a?.result.kind !== 'value' || b?.result.kind !== 'value' || a.metric.unit !== 'money' || b.metric.unit !== 'money') continue;
      if (a.result.period.end !== b.result.period.end || a.result.value.unit !== b.result.value.unit) continue;
      const [x, y] = [a.result.value, b.result.value];
      const amount = (v: number) => formatAmount(v, x.unit, a.metric, this.#scale(x));
      out.push(`- ${capitalise(its(a.company))} ${a.metric.label} less its ${b.metric.label} for ${periodWithEnd(a.result.period, a.fin.calendar)}: ${amount(x.value)} ${this.#refs(x)} − ${amount(y.value)} ${this.#refs(y)} = **${amount(x.value - y.value)}**.`);
    }
    return out;
  }

  /**
   * "What's Microsoft's operating leverage?": its degree, operating income's growth over revenue's between the
   * periods compared, each figure cited; or why it cannot be given. One line per company.
   */
  #operatingLeverage(figures: Figure[]): string[] {
    if (!this.#plan.question?.operatingLeverage) return [];
    const out: string[] = [];
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const [income, revenue] = (['operatingIncome', 'revenue'] as const).map((id) => figures.find((f) => f.company.cik === cik && f.metric.id === id));
      if (!income || !revenue) continue;
      const name = `${its(income.company)} degree of operating leverage`;
      const [a, b] = [income.result, revenue.result];
      if (a.kind !== 'value' || b.kind !== 'value' || a.period.end !== b.period.end) {
        out.push(`${capitalise(name)} cannot be computed: ${a.kind !== 'value' ? 'operating income' : 'revenue'} is missing for the period (see below).`);
        continue;
      }
      const [ca, cb] = [a.compared, b.compared];
      const when = periodWithEnd(a.period, income.fin.calendar);
      if (!ca?.value || !cb?.value || !ca.period || ca.period.end !== cb.period?.end) {
        out.push(`${capitalise(name)} for ${when} cannot be computed: it needs operating income and revenue for an earlier period too, and the filings give ${!ca?.value ? 'no operating income' : 'no revenue'} for it.`);
        continue;
      }
      const against = ca.kind === 'qoq' ? 'quarter over quarter' : ca.kind === 'yoy' ? 'year over year' : `against ${periodName(ca.period, income.fin.calendar)}`;
      const shown = (f: Figure, v: MetricValue) => `${this.#amount(f, v)} ${this.#refs(v)}${v.derivation ? ' (derived)' : ''}`;
      const grew = (now: MetricValue, then: MetricValue, f: Figure) => `${formatChange(now.value, then.value, now.unit, f.metric, this.#scale(now)).replace(/^.*\(([^)]*)\)$/, '$1')}, from ${shown(f, then)} to ${shown(f, now)}`;
      const [gi, gr] = [(a.value.value - ca.value.value) / Math.abs(ca.value.value), (b.value.value - cb.value.value) / Math.abs(cb.value.value)];
      const working = `operating income ${grew(a.value, ca.value, income)}, against revenue ${grew(b.value, cb.value, revenue)}`;
      if (ca.value.value <= 0 || a.value.value <= 0) {
        out.push(`${capitalise(name)} for ${when} is not meaningful: operating income was not positive in ${a.value.value <= 0 ? 'it' : periodName(ca.period, income.fin.calendar)}, so its growth is no measure of leverage. The figures: ${working}.`);
        continue;
      }
      if (Math.abs(gr) < 0.0005) {
        out.push(`${capitalise(name)} for ${when} cannot be computed: revenue was unchanged ${against}, and the degree divides by its growth. The figures: ${working}.`);
        continue;
      }
      const degree = gi / gr;
      const meaning = gr > 0
        ? gi > gr
          ? `operating income grew faster than revenue: costs grew more slowly than sales`
          : gi >= 0
            ? `operating income grew more slowly than revenue: costs grew faster than sales`
            : `operating income fell while revenue grew: costs grew faster than sales`
        : gi < gr
          ? `operating income fell faster than revenue`
          : gi <= 0
            ? `operating income fell more slowly than revenue`
            : `operating income grew while revenue fell`;
      out.push(`**${capitalise(name)}** for ${when}, ${against}: **${degree.toFixed(2)}x** (derived: operating income growth over revenue growth): ${working}; ${meaning}.`);
    }
    if (!out.length) return [];
    out.push(`_Degree of operating leverage is computed here as the percentage change in operating income over the percentage change in revenue between the same two periods; above 1, operating income moves more than revenue. Companies do not report it in their financial statements._`);
    // (Of one company, the answer's first sentence; of several, a line each.)
    return out.length === 2 ? out : out.map((l, i) => (i < out.length - 1 ? `- ${l}` : l));
  }

  /** "Compared to its cash?" after its debt: which is larger and by how much, at the same date or over the same period. */
  #setAgainst(figures: Figure[], [first, second]: [MetricId, MetricId]): string[] {
    const out: string[] = [];
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const [a, b] = [first, second].map((id) => figures.find((f) => f.company.cik === cik && f.metric.id === id));
      if (a?.result.kind !== 'value' || b?.result.kind !== 'value' || a.metric.unit !== b.metric.unit || a.result.period.end !== b.result.period.end || a.result.value.unit !== b.result.value.unit) continue;
      const [x, y] = [a.result.value, b.result.value];
      const amount = (v: number) => formatAmount(v, x.unit, a.metric, this.#scale(x));
      const when = a.metric.type === 'instant' && b.metric.type === 'instant' ? balanceDate(a.result.period, a.fin.calendar) : `for ${periodWithEnd(a.result.period, a.fin.calendar)}`;
      const gap = x.value - y.value;
      const by = gap === 0 ? 'the same as' : `**${amount(Math.abs(gap))}**${y.value > 0 ? ` (${((100 * Math.abs(gap)) / y.value).toFixed(1)}%)` : ''} ${gap > 0 ? 'more than' : 'less than'}`;
      const times = y.value > 0 && x.value > 0 ? `; ${(x.value / y.value).toFixed(2)} times as much` : '';
      // ("Vs operating cash flow" after capex: the part as a share of the whole, in percent.)
      const share = y.value > 0 && x.value > 0 && x.value < y.value && a.metric.unit === 'money' ? `: ${a.metric.label} ${wasOf(a.metric)} **${((100 * x.value) / y.value).toFixed(1)}%** of ${b.metric.label}` : '';
      out.push(`${capitalise(its(a.company))} ${a.metric.label} ${when}, ${amount(x.value)} ${this.#refs(x)}, ${wasOf(a.metric)} ${by} its ${b.metric.label}, ${amount(y.value)} ${this.#refs(y)}${times}${share}.`);
    }
    return out;
  }

  /**
   * "How much did Apple return to shareholders?": dividends paid plus share repurchases, the total first,
   * for each company; or that it cannot be given, and which of the two is missing.
   */
  #returnedToShareholders(figures: Figure[]): string[] {
    if (!SHAREHOLDER_RETURNS.test(this.#plan.question?.text ?? '')) return [];
    const out: string[] = [];
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const [paid, bought] = (['dividendsPaid', 'shareRepurchases'] as const).map((id) => figures.find((f) => f.company.cik === cik && f.metric.id === id));
      if (!paid || !bought) continue;
      const [a, b] = [paid.result, bought.result];
      if (a.kind === 'value' && b.kind === 'value' && a.period.end === b.period.end && a.value.unit === b.value.unit) {
        const amount = (v: number) => formatAmount(v, a.value.unit, paid.metric, this.#scale(a.value));
        out.push(`- ${capitalise(shortName(paid.company.name))} returned **${amount(a.value.value + b.value.value)}** to shareholders for ${periodWithEnd(a.period, paid.fin.calendar)} (derived): dividends paid ${amount(a.value.value)} ${this.#refs(a.value)} plus share repurchases ${amount(b.value.value)} ${this.#refs(b.value)}.`);
        continue;
      }
      const missing = [paid, bought].filter((f) => f.result.kind !== 'value').map((f) => f.metric.label);
      const data = this.#snapshot ? `the XBRL financial data recorded for it in this snapshot` : 'its XBRL financial data';
      const lacks = missing.length ? `${data} has no ${missing.join(' and no ')} figure${missing.length > 1 ? 's' : ''} for the period` : 'its dividends paid and share repurchases are for different periods';
      out.push(`- The total ${shortName(paid.company.name)} returned to shareholders (dividends paid plus share repurchases) cannot be given: ${lacks}.`);
    }
    // (Of one company, the answer's first sentence.)
    return out.length === 1 ? [out[0]!.replace(/^- /, '')] : out;
  }

  #sharesOf(figures: Figure[]): string[] {
    const ids = this.#plan.question?.metrics ?? [];
    if (!this.#plan.question?.shareOf || ids.length !== 2 || ids[1] === 'revenue') return [];
    const out: string[] = [];
    const shown: { company: CompanyRef; percent: number }[] = [];
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const [part, whole] = ids.map((id) => figures.find((f) => f.company.cik === cik && f.metric.id === id));
      if (part?.result.kind !== 'value' || whole?.result.kind !== 'value' || !part.result.value || !whole.result.value || whole.result.value.value <= 0) continue;
      if (part.result.period.end !== whole.result.period.end) continue;
      const [a, b] = [part.result.value, whole.result.value];
      shown.push({ company: part.company, percent: (100 * a.value) / b.value });
      out.push(`- ${capitalise(its(part.company))} ${part.metric.label} ${wasOf(part.metric)} **${((100 * a.value) / b.value).toFixed(1)}%** of its ${whole.metric.label} ${part.metric.type === 'instant' ? balanceDate(part.result.period, part.fin.calendar) : `for ${periodWithEnd(part.result.period, part.fin.calendar)}`}: ${formatAmount(a.value, a.unit, part.metric, this.#scale(a))} ${this.#refs(a)} over ${formatAmount(b.value, b.unit, whole.metric, this.#scale(b))} ${this.#refs(b)}.`);
    }
    // Of two companies: how far apart, in points of the shares as shown.
    if (shown.length === 2 && shown[0]!.percent.toFixed(1) !== shown[1]!.percent.toFixed(1)) {
      const [high, low] = [...shown].sort((x, y) => y.percent - x.percent) as [(typeof shown)[number], (typeof shown)[number]];
      out.push(`- ${capitalise(its(high.company))} is ${pointsApart(high.percent - low.percent, this.#bpsAsked())} higher than ${its(low.company)}${timesOver(high.percent, low.percent, this.#timesAsked())}.`);
    }
    return out;
  }

  /**
   * A figure of one company as weighed against another's: its amount, share of revenue or growth,
   * shown as said, and `cite`, the sources of every figure it is computed from (numbered when called).
   */
  #measure(f: Figure): { value: number; shown: string; end: string; period: string; kind: 'amount' | 'share' | 'growth'; unit: string; raw: MetricValue; cite: () => string } | null {
    const r = f.result;
    if (r.kind !== 'value' && r.kind !== 'calendar-year') return null;
    const value = r.kind === 'value' ? r.value : r.total;
    if (!value) return null;
    const [period, end] = r.kind === 'value' ? [periodWithEnd(r.period, f.fin.calendar), r.period.end] : [`calendar year ${r.year}`, `${r.year}-12-31`];
    const q = this.#plan.question;
    const sources = (...values: (MetricValue | null | undefined)[]) => () => [...new Set(values.filter((v): v is MetricValue => Boolean(v)).map((v) => this.#refs(v)))].join('');
    const quarters = (qs: Figure['ttm']) => (qs ?? []).map((t) => t.value);
    const prior = r.kind === 'value' ? r.compared?.value : r.compared?.total;
    const base = { end, period, unit: value.unit, raw: value, cite: sources(value) };
    if (q?.margin && shareLabel(f.metric)) {
      // With TTM, the twelve months' margin.
      const twelve = q.ttm && f.ttm?.length === 4 && f.ttmRevenue?.length === 4 && [...f.ttm, ...f.ttmRevenue].every((t) => t.value) ? { value: this.#ttmSum(f.ttm), revenue: this.#ttmSum(f.ttmRevenue) } : null;
      if (q.ttm && !twelve) return null;
      const [amount, revenue] = twelve ? [twelve.value, twelve.revenue] : [value, f.revenue];
      if (!revenue || revenue.value <= 0) return null;
      const share = (100 * amount.value) / revenue.value;
      const cite = twelve ? sources(...quarters(f.ttm), ...quarters(f.ttmRevenue)) : sources(value, revenue);
      return { ...base, value: share, shown: `${share.toFixed(1)}%`, kind: 'share', cite, ...(twelve ? { period: `the twelve months to ${period}` } : {}) };
    }
    // "Which is bigger?" after growth rates: the sizes weighed, not the growth carried from before.
    if (q?.comparison && !(SIZE_ASKED.test(q.text) && !GROWTH_ASKED.test(q.text))) {
      // With TTM, the twelve months' growth over the twelve before, not their last quarter's.
      const full = (qs: Figure['ttm']) => qs?.length === 4 && qs.every((t) => t.value);
      if (q.ttm && full(f.ttm) && full(f.ttmPrior)) {
        const [now, before] = [this.#ttmSum(f.ttm!), this.#ttmSum(f.ttmPrior!)];
        if (before.value <= 0) return null;
        const growth = (100 * (now.value - before.value)) / before.value;
        const rounded = Number(growth.toFixed(1));
        return { ...base, raw: now, value: growth, shown: `${rounded > 0 ? '+' : rounded < 0 ? '-' : '±'}${Math.abs(rounded).toFixed(1)}%`, kind: 'growth', period: `the twelve months to ${period}`, cite: sources(...quarters(f.ttm), ...quarters(f.ttmPrior)) };
      }
      if (!prior || prior.value <= 0) return null;
      const growth = (100 * (value.value - prior.value)) / prior.value;
      const rounded = Number(growth.toFixed(1));
      return { ...base, value: growth, shown: `${rounded > 0 ? '+' : rounded < 0 ? '-' : '±'}${Math.abs(rounded).toFixed(1)}%`, kind: 'growth', cite: sources(value, prior) };
    }
    if (q?.ttm && f.ttm) {
      if (f.ttm.length !== 4 || f.ttm.some((t) => !t.value)) return null;
      const sum = this.#ttmSum(f.ttm);
      return { ...base, value: sum.value, shown: this.#amount(f, sum), kind: 'amount', raw: sum, period: `the twelve months to ${period}`, cite: sources(...quarters(f.ttm)) };
    }
    return { ...base, value: value.value, shown: this.#amount(f, value), kind: 'amount' };
  }

  /**
   * Between companies, per figure, on the measure asked for (see #measure): by how much the first
   * exceeds the second ("Apple's revenue was $145,913 million (59.5%) more than Microsoft's",
   * "Microsoft's gross margin was 23.6 percentage points higher"), or with more companies,
   * highest to lowest.
   */
  #differences(figures: Figure[], cite = false): string[] {
    const out: string[] = [];
    // ("Is Apple's margin higher than Microsoft's?" leads with the verdict: each company's figure cited in it.)
    const c = (s: { cite: () => string }) => (cite ? ` ${s.cite()}` : '');
    for (const metric of [...new Set(figures.map((f) => f.metric))]) {
      const shown = figures.flatMap((f) => {
        const m = f.metric === metric ? this.#measure(f) : null;
        return m ? [{ figure: f, ...m }] : [];
      });
      // Amounts in different currencies are not compared.
      if (shown.length < 2 || new Set(shown.map((s) => s.unit)).size > 1 || new Set(shown.map((s) => s.kind)).size > 1) continue;
      const kind = shown[0]!.kind;
      const ranked = [...shown].sort((a, b) => b.value - a.value);
      // Periods ending together need no names; others are named with their ends, and said to be months apart.
      const ends = ranked.map((s) => s.end).sort();
      const apart = daysBetween(ends[0]!, ends.at(-1)!);
      const samePeriod = apart <= 10;
      const monthsApart = apart >= 45 ? `; the periods end ${ranked.length > 2 ? 'up to ' : ''}${Math.round(apart / 30.44)} months apart` : '';
      const twelve = this.#plan.question?.ttm && (kind !== 'growth' || shown.every((x) => x.period.startsWith('the twelve months'))) ? 'trailing-twelve-month ' : '';
      // (A share that is no margin by name, "R&D as a share of revenue", says so.)
      const share = kind === 'share' ? shareLabel(metric)! : null;
      const label = `${twelve}${share ? (share.margin ? share.label : `${share.label} as a share of revenue`) : kind === 'growth' ? `${metric.label} growth` : metric.label}`;
      const named = (s: (typeof ranked)[number], what = '') => `${its(s.figure.company)}${what}${samePeriod ? '' : ` for ${s.period}`}`;
      const [high, low] = [ranked[0]!, ranked.at(-1)!];
      // "combined revenue", "together", "in total": the sum, before how they differ. Per-share figures do not add up.
      // (Of growth rates asked before, the amounts they grew to.)
      if ((kind === 'amount' || kind === 'growth') && COMBINED.test(this.#plan.question?.text ?? '')) {
        const sum = formatAmount(shown.reduce((a, x) => a + x.raw.value, 0), high.unit, metric, this.#scale(high.raw));
        if (!/per share$/.test(sum)) out.push(`${capitalise(kind === 'growth' ? metric.label : label)} of ${shown.map((x) => shortName(x.figure.company.name)).join(' and ')} together${samePeriod ? '' : ', each for its period in the table'}: ${sum}${monthsApart}.`);
      }
      // Latest figures months apart are compared on periods ending together instead, below the table.
      // (Asked which is bigger, the latest figures themselves are weighed first all the same.)
      const aligned = !samePeriod && ranked.length === 2 && kind === 'amount' && this.#plan.cross.some((c) => c.reason === 'latest' && c.metric === metric && c.value);
      if (aligned) {
        // (Asked which is bigger, "which is bigger?", "who's larger?": the latest figures answer it, the like-for-like after.)
        // (Not of balances: a balance at a later date is no answer to who holds more at the same date.)
        if (high.raw.value !== low.raw.value && metric.type === 'duration' && SIZE_ASKED.test(this.#plan.question?.text ?? '')) {
          const amount = formatAmount(high.raw.value - low.raw.value, high.unit, metric, this.#scale(high.raw)).replace(/ per share$/, '');
          out.push(`${this.#thanVerdict(high.figure.company)}Of the latest figures, ${its(high.figure.company)} ${label} for ${high.period}, ${high.shown}, ${wasOf(metric)} ${amount} more than ${its(low.figure.company)} for ${low.period}, ${low.shown}${monthsApart}, so they are compared on periods ending together below.`);
        }
        continue;
      }
      // "Rank Apple and Microsoft by net margin, lowest first": two ranked too, in the order asked, before how far apart they are.
      const text = this.#plan.question?.text ?? '';
      if (ranked.length > 2 || ORDER_ASKED.test(text)) {
        const ascending = ASCENDING.test(text);
        const order = ascending ? [...ranked].reverse() : ranked;
        const way = kind === 'amount' ? (ascending ? 'smallest to largest' : 'largest to smallest') : ascending ? 'lowest to highest' : 'highest to lowest';
        out.push(`${capitalise(label)}, ${way}: ${order.map((s) => `${shortName(s.figure.company.name)} ${s.shown}${samePeriod ? '' : ` for ${s.period}`}`).join(', ')}${monthsApart}.`);
      }
      if (ranked.length > 2) {
        // "By how much vs the lowest?": the two ends apart.
        if (SPREAD_ASKED.test(this.#plan.question?.text ?? '') && high.value !== low.value) {
          const apartBy =
            kind === 'amount'
              ? `${formatAmount(high.raw.value - low.raw.value, high.unit, metric, this.#scale(high.raw)).replace(/ per share$/, '')}${low.raw.value > 0 ? ` (${(Math.round(((high.raw.value - low.raw.value) / low.raw.value) * 1000) / 10).toFixed(1)}%)` : ''} more than`
              : `${pointsApart(high.value - low.value, this.#bpsAsked())} above`;
          out.push(`The ${kind === 'amount' ? 'largest' : 'highest'}, ${its(high.figure.company)} ${high.shown}, is ${apartBy} the ${kind === 'amount' ? 'smallest' : 'lowest'}, ${its(low.figure.company)} ${low.shown}${timesOver(kind === 'amount' ? high.raw.value : high.value, kind === 'amount' ? low.raw.value : low.value, this.#timesAsked(), kind === 'amount' ? 'large' : 'high')}.`);
        }
      } else if (kind === 'amount' ? high.value === low.value : high.shown === low.shown) {
        out.push(`${capitalise(named(high, ` ${label}`))} and ${named(low)} were the same${monthsApart}.`);
      } else if (kind === 'amount') {
        const diff = high.raw.value - low.raw.value;
        const amount = formatAmount(diff, high.unit, metric, this.#scale(high.raw)).replace(/ per share$/, '');
        const share = low.raw.value > 0 ? ` (${(Math.round((diff / low.raw.value) * 1000) / 10).toLocaleString('en-US', { minimumFractionDigits: 1 })}%)` : '';
        const each = cite ? [`, ${high.shown}${c(high)},`, `, ${low.shown}${c(low)}`] : ['', ''];
        out.push(`${this.#thanVerdict(high.figure.company)}${capitalise(named(high, ` ${label}`))}${each[0]} ${wasOf(metric)} ${amount}${share} more than ${named(low)}${each[1]}${timesOver(high.raw.value, low.raw.value, this.#timesAsked(), 'large')}${monthsApart}.`);
      } else {
        // From the unrounded shares or growth rates, rounded once (69.764% less 46.206% is 23.6 points, 2,356 bps).
        out.push(`${this.#thanVerdict(high.figure.company)}${capitalise(named(high, ` ${label}`))}, ${high.shown}${c(high)}, was ${pointsApart(high.value - low.value, this.#bpsAsked())} higher than ${named(low)}, ${low.shown}${c(low)}${timesOver(high.value, low.value, this.#timesAsked())}${monthsApart}.`);
      }
    }
    return out;
  }

  /**
   * "Did both Apple and Microsoft grow revenue last year?" ("did all three…", "did either…", "did
   * any of them…"): yes or no of the companies together, then each one's change, cited to the two
   * figures it is between; a margin's in points. Null when not asked so, or when a company has no
   * change to tell (the table says why).
   */
  #eachMoved(figures: Figure[]): string | null {
    const q = this.#plan.question;
    const text = q?.askedAs ?? q?.text ?? '';
    const companies = [...new Set(figures.map((f) => f.company.cik))];
    if (companies.length < 2 || !YES_NO.test(text)) return null;
    // ("Did Apple and Microsoft grow revenue more than 10%?": every company named, held against that rate.)
    const threshold = THRESHOLD_RATE.exec(text);
    const quantifier = /\b(both|all|each|every|either|any|neither|none)\b/i.exec(text)?.[1]?.toLowerCase() ?? (threshold && q?.stated.companies ? 'all' : undefined);
    const [up, down] = threshold ? [!BELOW_RATE.test(threshold[1]!), BELOW_RATE.test(threshold[1]!)] : [GROWTH_WORDS.test(text), DECLINE_WORDS.test(text)];
    if (!quantifier || up === down || (!threshold && COMPARED_THAN.test(text))) return null;
    const rate = threshold ? Number(threshold[2]) : null;
    const metrics = [...new Set(figures.map((f) => f.metric))];
    if (metrics.length !== 1) return null;
    const metric = metrics[0]!;
    const share = q?.margin ? shareLabel(metric) : null;
    if (share && rate !== null) return null;
    const moves: { name: string; change: number; said: string }[] = [];
    for (const f of figures) {
      const r = f.result;
      const c = r.kind === 'value' ? r.compared : null;
      if (r.kind !== 'value' || !c?.period || !c.value) return null;
      const cal = f.fin.calendar;
      const when = `${periodName(r.period, cal)} against ${periodName(c.period, cal)}`;
      const refs = [...new Set([this.#refs(r.value), this.#refs(c.value)])].join('');
      if (share) {
        const [now, then] = [f.revenue, f.comparedRevenue];
        if (!now || !then || now.value <= 0 || then.value <= 0) return null;
        const points = (100 * r.value.value) / now.value - (100 * c.value.value) / then.value;
        const cites = [...new Set([refs, this.#refs(now), this.#refs(then)])].join('');
        moves.push({ name: shortName(f.company.name), change: Math.round(points * 100), said: `${shortName(f.company.name)} ${((100 * c.value.value) / then.value).toFixed(1)}% to ${((100 * r.value.value) / now.value).toFixed(1)}%, ${pointsApart(points, this.#bpsAsked(), true)} (${when}) ${cites}` });
      } else {
        // (Against a rate asked: how far above it or below it, in percent of the figure before.)
        const change = rate !== null ? (c.value.value > 0 ? (100 * (r.value.value - c.value.value)) / c.value.value - rate : NaN) : r.value.value - c.value.value;
        if (Number.isNaN(change)) return null;
        moves.push({ name: shortName(f.company.name), change, said: `${shortName(f.company.name)} ${formatChange(r.value.value, c.value.value, r.value.unit, metric, this.#scale(r.value))}, ${this.#amount(f, c.value)} to ${this.#amount(f, r.value)} (${when}) ${refs}` });
      }
    }
    const claimed = up ? 1 : -1;
    const movers = moves.filter((m) => Math.sign(m.change) === claimed);
    const verb = rate !== null ? `${up ? 'grew' : 'grew less than'}` : up ? (share ? 'rose' : 'grew') : 'fell';
    const what = share ? `their ${share.label}` : rate !== null ? `${metric.label} ${up ? 'more than ' : ''}${rate}%` : `${metric.label}`;
    const n = moves.length;
    const all = n === 2 ? 'both' : `all ${n}`;
    const none = n === 2 ? 'neither' : 'none';
    let yes: boolean;
    let said: string;
    if (quantifier === 'neither' || quantifier === 'none') {
      yes = movers.length === 0;
      said = yes ? `${none} ${verb === 'grew' ? 'grew' : verb} ${what}` : `${listed(movers.map((m) => m.name))} ${verb} ${what}`;
    } else if (quantifier === 'either' || quantifier === 'any') {
      yes = movers.length > 0;
      said = yes ? `${movers.length === n ? all : listed(movers.map((m) => m.name))} ${verb} ${what}` : `${none} ${verb} ${what}`;
    } else {
      yes = movers.length === n;
      said = yes ? `${all} ${verb} ${what}` : movers.length ? `only ${listed(movers.map((m) => m.name))} ${verb} ${what}` : `${none} ${verb} ${what}`;
    }
    return `**${yes ? 'Yes' : 'No'}**: ${said}. ${moves.map((m) => m.said).join('; ')}.`;
  }

  /**
   * "**Yes**: " or "**No**: " before how two companies differ, when the question asked it of the
   * first one named ("Did Apple's revenue grow faster than Microsoft's?"); '' otherwise.
   */
  /** Whether basis points were asked for ("by how many bps"), in this question or one it follows up. */
  #bpsAsked(): boolean {
    return Boolean(this.#plan.question?.bps);
  }

  /** Whether a ratio of the figures was asked ("how many times higher"), in this question. */
  #timesAsked(): boolean {
    return TIMES_ASKED.test(this.#plan.question?.text ?? '');
  }

  #thanVerdict(higher: CompanyRef): string {
    const q = this.#plan.question;
    const text = q?.askedAs ?? q?.text ?? '';
    const way = COMPARED_THAN.exec(text);
    const subject = q?.companies.find((c) => c.status === 'found');
    // ("Faster than 10%": held against a rate, not against the other company.)
    if (!YES_NO.test(text) || !way || subject?.status !== 'found' || THRESHOLD_RATE.test(text)) return '';
    const up = !/^(?:slower|less|lower|smaller|fewer|worse)$/i.test(way[1]!);
    return (subject.company.cik === higher.cik) === up ? '**Yes**: ' : '**No**: ';
  }

  #cross(): string[] {
    return this.#plan.cross.map((c) => {
      const ref = `${its(c.reference.company)} ${periodName(c.reference.period, c.reference.fin.calendar).replace(/^the /, '')} ended ${c.reference.period.end}`;
      // A margin asked for is given for that quarter too, over its own revenue.
      const share = shareLabel(c.metric);
      const margin = share && c.value && c.revenue && c.revenue.value > 0 ? `${share.margin ? share.label : 'share of revenue'} **${((100 * c.value.value) / c.revenue.value).toFixed(1)}%**, ` : '';
      const over = margin ? ` over revenue of ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, c.revenue!)} ${this.#refs(c.revenue!)}` : '';
      const value = c.value
        ? `${margin}${c.metric.label} ${this.#amount(c, c.value)} ${this.#refs(c.value)}${c.value.derivation ? ` (derived: ${c.value.derivation})` : ''}${over}`
        : `no ${c.metric.label} reported for it`;
      const closest = `${its(c.company)} ${c.period.kind === 'year' ? 'fiscal year' : c.period.kind === 'quarter' ? 'quarter' : 'quarters'} closest in time ${c.period.kind === 'span' ? 'are' : 'is'} ${periodWithEnd(c.period, c.fin.calendar)}: ${value}.`;
      if (c.reason === 'calendarQuarter') {
        const spec = this.#plan.question!.period as Extract<NonNullable<Plan['question']>['period'], { kind: 'fiscalQuarter' }>;
        return `If calendar Q${spec.q} ${spec.fy} was meant (the quarter ending ${c.period.end}), that is ${its(c.company)} ${periodWithEnd(c.period, c.fin.calendar)}: ${value}.`;
      }
      if (c.reason !== 'latest') return `Fiscal calendars differ: ${ref}; ${closest}`;
      // The latest figures end months apart: compared again on periods ending together.
      const other = this.#plan.figures.find((f) => f.company.cik === c.reference.company.cik && f.metric === c.metric && f.result.kind === 'value');
      const theirs = other?.result.kind === 'value' ? other.result.value : null;
      let verdict = '';
      if (theirs && c.value && !margin && theirs.unit === c.value.unit) {
        const [hi, lo] = c.value.value >= theirs.value ? [c, other!] : [other!, c];
        const [hiValue, loValue] = c.value.value >= theirs.value ? [c.value, theirs] : [theirs, c.value];
        const diff = formatAmount(hiValue.value - loValue.value, hiValue.unit, c.metric, this.#scale(hiValue)).replace(/ per share$/, '');
        verdict = hiValue.value === loValue.value ? ` On periods ending together, the two were the same.` : ` On periods ending together, ${its(hi.company)} ${c.metric.label} ${wasOf(c.metric)} ${diff} more than ${its(lo.company)}.`;
      }
      return `The latest figures end at different dates, so they are not like for like: ${ref}; ${closest}${verdict}`;
    });
  }

  #problems(): string[] {
    const out: string[] = [];
    for (const u of this.#plan.unresolved) {
      if (u.status === 'ambiguous') {
        const names = u.candidates.slice(0, 8).map(who).join('; ');
        out.push(`"${quoteCaller(u.text)}" matches several SEC filers: ${names}${u.candidates.length > 8 ? `; and ${u.candidates.length - 8} more` : ''}. Which one do you mean? Ask again with its full name or ticker.`);
      } else {
        const suggestions = u.suggestions.length ? ` Did you mean: ${u.suggestions.map(who).join('; ')}?` : '';
        // Written as a ticker ("TSLA"), it was one: asking for the ticker would not help.
        const ticker = /^\$?[A-Z]{1,5}(?:[.-][A-Z])?$/.test(u.text.trim());
        // A snapshot holds the filers it recorded, not every one.
        const among = this.#snapshot ? 'in this snapshot of SEC data' : 'among SEC filers';
        const hint = this.#snapshot ? ` A snapshot has only the companies recorded in it: ask “which companies do you cover?” for those (an operator adds one with \`svc snapshot record-sec TICKER\`).` : ticker ? '' : ' Try its ticker symbol, e.g. AAPL.';
        out.push(`I could not find a company ${ticker ? 'with the ticker' : 'called'} "${quoteCaller(u.text)}" ${among} (searched by ticker and by name), so I have no figures for it.${suggestions}${hint}`);
      }
    }
    if (this.#plan.omitted.length) {
      out.push(`I answer for up to ${MAX_COMPANIES} companies at a time, so I left out ${this.#plan.omitted.map(who).join('; ')}: ask about them separately.`);
    }
    for (const c of this.#plan.withoutFacts) {
      out.push(
        this.#snapshot
          ? `${who(c)} is not in this snapshot of SEC data, so I have no figures for it: ask “which companies do you cover?” for those it has (an operator adds one with \`svc snapshot record-sec ${c.ticker || c.cik}\`).`
          : `${who(c)} has no XBRL financial data at the SEC (no company facts), so I cannot give exact figures from its filings.`,
      );
    }
    return out;
  }

  /** The whole answer, and its citations in order. */
  /** The ratio's figures over a period: "net income of $93,736 million [1] over average shareholders' equity of $59,548 million, the mean of …". */
  #ratioWorking(r: RatioFigure, v: RatioValue): string {
    const [num, den] = [metricById(r.ratio.numerator), metricById(r.ratio.denominator)];
    const amount = (metric: MetricDef, value: MetricValue) => {
      // "14,939,315 thousand shares" reads better with "about 14.94 billion shares" beside it.
      const about = metric.unit === 'shares' ? roughly(value.value, value.unit, metric) : null;
      // (A figure computed from filed ones, free cash flow or a sum of quarters, is marked where it is given:
      // a sum of quarters as the table of its figures marks it, "(sum of four quarters)".)
      // (A span across fiscal years, twelve months to a quarter or a calendar year, is never filed as such.)
      const summed = value.period.kind === 'span' && value.derivation && (value.derivation === sumOfQuarters(value.period.quarters) || value.period.q !== value.period.quarters) ? ` (sum of ${['', 'one', 'two', 'three', 'four'][value.period.quarters]} quarters)` : null;
      return `${this.#amount({ metric }, value)}${about ? ` (about ${about})` : ''} ${this.#refs(value)}${summed ?? (value.derivation ? ' (derived)' : '')}`;
    };
    const date = (p: FiscalPeriod) => p.end;
    // Written (and so numbered) in reading order.
    const lessOf = r.ratio.less ? metricById(r.ratio.less) : null;
    // "total current assets of … less inventories of …, $146,076 million,"
    const top = `${num.label} of ${amount(num, v.numerator)}${lessOf && v.less ? ` less ${lessOf.label} of ${amount(lessOf, v.less)}, ${this.#amount({ metric: num }, { ...v.numerator, value: v.numerator.value - v.less.value })},` : ''}`;
    if (r.ratio.kind === 'difference') return `${top} minus ${den.label} of ${amount(den, v.denominator)}`;
    if (r.ratio.averaged && v.opening) {
      const mean = { ...v.denominator, value: (v.opening.value + v.denominator.value) / 2 };
      return `${top} over average ${den.label} of ${this.#amount({ metric: den }, mean)}, the mean of ${amount(den, v.opening)} at ${date(v.opening.period)} and ${amount(den, v.denominator)} at ${date(v.period)}`;
    }
    if (r.ratio.averaged) return `${top} over ${den.label} at the end of the period, ${amount(den, v.denominator)} (no balance is reported for its start, so this is not an average)`;
    return `${top} over ${den.label} of ${amount(den, v.denominator)}`;
  }

  #ratioValue(r: RatioFigure, v: RatioValue): string {
    const x = v.value!;
    if (r.ratio.kind !== 'difference') return formatRatio(r.ratio, x, v.numerator.unit);
    const metric = metricById(r.ratio.numerator);
    const about = roughly(x, v.numerator.unit, metric);
    // Net debt below zero is net cash, said so.
    const netCash = r.ratio.id === 'netDebt' && x < 0 ? `, a net cash position of ${this.#amount({ metric }, { ...v.numerator, value: -x })}` : '';
    return `${this.#amount({ metric }, { ...v.numerator, value: x })}${about ? ` (about ${about})` : ''}${netCash}`;
  }

  /** The change of a ratio: points for a percentage, the difference otherwise. */
  #ratioChange(r: RatioFigure, now: RatioValue, then: RatioValue): string {
    const d = now.value! - then.value!;
    const sign = d > 0 ? '+' : d < 0 ? '-' : '±';
    if (r.ratio.kind === 'percent') return `${sign}${Math.abs(100 * d).toFixed(1)} points`;
    if (r.ratio.kind === 'times') return `${sign}${Math.abs(d).toFixed(2)}x`;
    // ("-$21,663 million (about -$21.7 billion)": the rounded amount keeps the sign too.)
    return `${sign}${this.#ratioValue(r, { ...now, value: Math.abs(d) }).replace('(about ', `(about ${sign === '±' ? '' : sign}`)}`;
  }

  #ratioWhen(r: RatioFigure, p: FiscalPeriod): string {
    const balances = metricById(r.ratio.numerator).type === 'instant';
    // ("FCF conversion calendar 2024" of a June fiscal year: the four fiscal quarters ending in it.)
    const year = p.kind === 'span' ? r.calendarYears?.[p.end] : undefined;
    if (year !== undefined) return `for calendar year ${year}, ${periodWithEnd(p, r.fin.calendar)}`;
    return balances ? balanceDate(p, r.fin.calendar) : `for ${periodWithEnd(p, r.fin.calendar)}`;
  }

  /** Why a ratio has no value: which figure is missing, or why dividing means nothing. */
  #ratioMissing(r: RatioFigure, v: RatioValue | RatioMissing): string {
    if (v.kind === 'missing') {
      const labels = v.missing.map((id) => metricById(id).label);
      return `cannot be computed${v.period ? ` ${this.#ratioWhen(r, v.period)}` : ''}: the filings give no ${labels.join(' or ')}${v.period ? ' for it' : ' for the period asked'}`;
    }
    return `is not meaningful ${this.#ratioWhen(r, v.period)}: ${this.#ratioWorking(r, v)}, and a ratio over a negative or zero ${metricById(r.ratio.denominator).label} means nothing`;
  }

  /** The ratios asked for, one line per company, then how they were computed. */
  #ratioLines(): string[] {
    const lines: string[] = [];
    const text = this.#plan.question?.text ?? '';
    const orderAsked = ORDER_ASKED.test(text);
    const ascending = ASCENDING.test(text);
    // A ranking asked ("rank them by ROE, lowest first"): the companies in that order, each ratio's, so that its sources are numbered as read.
    const valueOf = (r: RatioFigure) => (r.current.kind === 'value' && r.current.value !== null ? r.current.value : null);
    const kinds = [...new Set(this.#plan.ratios.map((r) => r.ratio))];
    const shown = orderAsked
      ? [...this.#plan.ratios].sort((a, b) => {
          const byRatio = kinds.indexOf(a.ratio) - kinds.indexOf(b.ratio);
          const [x, y] = [valueOf(a), valueOf(b)];
          return byRatio || (x === null || y === null ? (x === null ? 1 : 0) - (y === null ? 1 : 0) : ascending ? x - y : y - x);
        })
      : this.#plan.ratios;
    for (const r of shown) {
      const name = `${its(r.company)} ${r.ratio.label}`;
      const v = r.current;
      if (v.kind === 'missing' || v.value === null) {
        lines.push(`- ${capitalise(name)} ${this.#ratioMissing(r, v)}.`);
        continue;
      }
      let line = `- **${capitalise(name)}** ${this.#ratioWhen(r, v.period)}: **${this.#ratioValue(r, v)}**`;
      // A return over part of a year, also as a year's.
      if (r.ratio.averaged && v.period.kind !== 'year' && !(v.period.kind === 'span' && v.period.quarters === 4)) {
        const quarters = v.period.kind === 'quarter' ? 1 : v.period.quarters;
        line += r.ratio.kind === 'percent' ? ` (about ${(400 * (v.value / quarters)).toFixed(1)}% annualised)` : ` (about ${(4 * (v.value / quarters)).toFixed(2)}x annualised)`;
      }
      line += `: ${this.#ratioWorking(r, v)}.`;
      // Turnover said as days held too: 365 days over the turns of a year.
      if (r.ratio.id === 'inventoryTurnover' && v.value > 0) {
        const yearly = v.period.kind === 'year' ? v.value : 4 * (v.value / (v.period.kind === 'quarter' ? 1 : v.period.quarters));
        line += ` That is about **${(365 / yearly).toFixed(1)} days** of inventory held (365 divided by the turns of a year).`;
      }
      const c = r.compared;
      if (c?.kind === 'value' && c.value !== null) {
        const endOnly = r.ratio.averaged && !c.opening ? ` (over the ${metricById(r.ratio.denominator).label} at its end: none is reported for its start)` : '';
        line += ` ${capitalise(this.#ratioWhen(r, c.period))}: ${this.#ratioValue(r, c)}${endOnly}; change **${this.#ratioChange(r, v, c)}**.`;
      }
      else if (c) line += ` ${capitalise(r.ratio.label)} ${this.#ratioMissing(r, c)}.`;
      lines.push(line);
    }
    // "Which is most liquid?", "whos the riskiest": the company each ratio puts at that end, first.
    lines.unshift(...this.#ratioVerdicts());
    // "Is that up or down?" of one ratio at two periods: the direction leads.
    const asked = this.#plan.question?.askedAs ?? this.#plan.question?.text ?? '';
    const one = this.#plan.ratios.length === 1 ? this.#plan.ratios[0]! : null;
    const [nowR, thenR] = [one?.current, one?.compared];
    if (one && (GROWTH_WORDS.test(asked) || DECLINE_WORDS.test(asked) || /\b(?:up|down)\b/i.test(asked)) && nowR?.kind === 'value' && nowR.value !== null && thenR?.kind === 'value' && thenR.value !== null) {
      const d = nowR.value - thenR.value;
      lines.unshift(`**${d > 0 ? 'Up' : d < 0 ? 'Down' : 'Unchanged'}**: ${its(one.company)} ${one.ratio.label} was ${this.#ratioValue(one, nowR)} ${this.#ratioWhen(one, nowR.period)}, against ${this.#ratioValue(one, thenR)} ${this.#ratioWhen(one, thenR.period)} (change ${this.#ratioChange(one, nowR, thenR)}).`, '');
    }
    // Several companies: ranked, when each has a value.
    // ("Rank them by ROE, lowest first": the ranking asked leads, in the order asked, each value cited.)
    const rankings: string[] = [];
    for (const ratio of new Set(this.#plan.ratios.map((r) => r.ratio))) {
      const ranked = this.#plan.ratios.filter((r) => r.ratio === ratio);
      const values = ranked.flatMap((r) => (r.current.kind === 'value' && r.current.value !== null ? [{ r, v: r.current }] : []));
      if (values.length > 1 && values.length === ranked.length) {
        values.sort((a, b) => b.v.value! - a.v.value!);
        const order = ascending ? [...values].reverse() : values;
        const cite = (r: RatioFigure, v: RatioValue) => (orderAsked ? ` ${[...new Set([v.numerator, ...(v.less ? [v.less] : []), ...(v.opening ? [v.opening] : []), v.denominator].map((x) => this.#refs(x)))].join('')}` : '');
        const line = `- ${ascending ? 'Lowest' : 'Highest'} ${ratio.label} first: ${order.map(({ r, v }) => `${shortName(r.company.name)} ${this.#ratioValue(r, v)}${cite(r, v)}`).join(', ')}.`;
        if (orderAsked) rankings.push(line);
        else lines.push(line);
        // "How many times higher is Alphabet's than Microsoft's?": the highest over the lowest.
        const [top, bottom] = [values[0]!, values.at(-1)!];
        const times = timesOver(top.v.value!, bottom.v.value!, this.#timesAsked());
        if (times) lines.push(`- ${capitalise(its(top.r.company))} ${ratio.label}, ${this.#ratioValue(top.r, top.v)}, is ${times.slice(2)} as ${its(bottom.r.company)}, ${this.#ratioValue(bottom.r, bottom.v)}.`);
      }
    }
    if (rankings.length) lines.unshift(...rankings, '');
    if (lines.length) lines.push('', `_${ratioNote(this.#plan.ratios.map((r) => r.ratio))}_`);
    return lines;
  }

  /**
   * Of several companies asked "which …" at an end ("which is most liquid?", "whos the riskiest",
   * "who has the highest D/E?"): the company at that end of each ratio, with the others' values.
   * Risk and liquidity read each ratio its own way: the riskier has more debt and less liquidity.
   */
  #ratioVerdicts(): string[] {
    const text = this.#plan.question?.text ?? '';
    if (!/\b(?:which|who|whos|who's|whose)\b/i.test(text)) return [];
    const risky = /\b(?:riski(?:er|est)|more risky|most risky|(?:more|most) (?:levered|leveraged|indebted)|(?:less|least) liquid)\b/i.test(text);
    const safe = /\b(?:saf(?:er|est)|less risky|least risky|(?:less|least) (?:levered|leveraged|indebted)|(?:more|most) liquid)\b/i.test(text);
    const high = /\b(?:highest|most|largest|biggest|best|higher|more)\b/i.test(text);
    const low = /\b(?:lowest|least|smallest|worst|lower|less)\b/i.test(text);
    const out: string[] = [];
    for (const ratio of new Set(this.#plan.ratios.map((r) => r.ratio))) {
      const values = this.#plan.ratios.filter((r) => r.ratio === ratio).flatMap((r) => (r.current.kind === 'value' && r.current.value !== null ? [{ r, v: r.current }] : []));
      if (values.length < 2) continue;
      // Liquidity is safety; debt is risk.
      const liquidity = ratio.id === 'currentRatio' || ratio.id === 'quickRatio' || ratio.id === 'workingCapital';
      const debt = ratio.id === 'debtToEquity' || ratio.id === 'debtToAssets' || ratio.id === 'liabilitiesToEquity' || ratio.id === 'netDebt';
      // "Who has the most net cash?": net cash is net debt below zero, so the most of it is the lowest net debt.
      const netCash = ratio.id === 'netDebt' && /\bnet[- ]cash\b/i.test(text) && !risky && !safe;
      const asked = risky || safe ? (liquidity ? (risky ? -1 : 1) : debt ? (risky ? 1 : -1) : 0) : high !== low ? (high ? 1 : -1) : 0;
      const way = netCash ? -asked : asked;
      if (!way) continue;
      const ordered = [...values].sort((a, b) => way * (b.v.value! - a.v.value!));
      const [top, ...rest] = ordered;
      // Each side said as what it is: "net cash of $12,583 million", "net debt of $11,324 million".
      const position = (r: RatioFigure, v: RatioValue) => `${v.value! < 0 ? 'net cash' : 'net debt'} of ${this.#amount({ metric: metricById(r.ratio.numerator) }, { ...v.numerator, value: Math.abs(v.value!) })}`;
      // Of two companies the comparative ("Apple has the higher debt-to-equity ratio"); of three or more the superlative.
      const two = ordered.length === 2;
      const end = netCash ? `${asked > 0 ? (two ? 'more' : 'most') : two ? 'less' : 'least'} net cash, ${position(top!.r, top!.v)},` : `${way > 0 ? (two ? 'higher' : 'highest') : two ? 'lower' : 'lowest'} ${ratio.label}, ${this.#ratioValue(top!.r, top!.v)},`;
      out.push(`**${shortName(top!.r.company.name)}** has the ${end} against ${rest.map(({ r, v }) => `${shortName(r.company.name)} ${netCash ? position(r, v) : this.#ratioValue(r, v)}`).join(' and ')}.`);
    }
    return out.length ? [...out, ''] : [];
  }

  /**
   * What the figures of a "why" or "is it good?" question show, company by company: each margin now
   * and a period before (a direction the question presumed corrected), and each line's change set
   * against revenue's, costs growing faster than revenue named: the drivers visible in the numbers.
   */
  #whatFiguresShow(figures: Figure[]): string[] {
    const text = this.#plan.question?.text ?? '';
    const presumed = DECLINE_WORDS.test(text) && !GROWTH_WORDS.test(text) ? 'down' : GROWTH_WORDS.test(text) && !DECLINE_WORDS.test(text) ? 'up' : null;
    const out: string[] = [];
    const pct = (a: number, b: number) => `${Math.abs((100 * (a - b)) / Math.abs(b)).toFixed(1)}%`;
    // How a line's change stands against revenue's: faster or slower, or the other way.
    const against = (g: number, rev: number) => (g < 0 && rev >= 0 ? 'while revenue grew' : g >= 0 && rev < 0 ? 'while revenue fell' : Math.abs(g - rev) < 0.0005 ? 'in step with revenue' : `${g > rev ? 'faster' : 'slower'} than revenue`);
    const growth = (a: number, b: number) => (a - b) / Math.abs(b);
    for (const cik of new Set(figures.map((f) => f.company.cik))) {
      const own = figures.filter((f) => f.company.cik === cik);
      const changed = own.flatMap((f) => {
        const r = f.result;
        return r.kind === 'value' && r.compared?.period && r.compared.value && r.compared.value.value !== 0 ? [{ f, r, now: r.value, then: r.compared.value, before: r.compared.period }] : [];
      });
      if (!changed.length) continue;
      const name = shortName(own[0]!.company.name);
      const cal = own[0]!.fin.calendar;
      const { r: r0, before } = changed[0]!;
      const span = `${periodName(r0.period, cal)} against ${periodName(before, cal)}`;
      const rows: string[] = [];
      const margins = new Map<string, 'up' | 'down' | 'flat'>();
      // Revenue's own change: the yardstick.
      const rev = changed.find((c) => c.f.metric.id === 'revenue');
      const marginOf = changed.find((c) => c.f.revenue && c.f.comparedRevenue);
      const revNow = rev?.now ?? marginOf?.f.revenue ?? null;
      const revThen = rev?.then ?? marginOf?.f.comparedRevenue ?? null;
      const revGrowth = revNow && revThen && revThen.value > 0 ? growth(revNow.value, revThen.value) : null;
      if (revNow && revThen && revGrowth !== null) rows.push(`- Revenue ${revGrowth >= 0 ? 'grew' : 'fell'} ${pct(revNow.value, revThen.value)} (${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, revThen)} ${this.#refs(revThen)} to ${this.#amount({ metric: METRICS.find((m) => m.id === 'revenue')! }, revNow)} ${this.#refs(revNow)}).`);
      for (const c of changed) {
        if (c.f.metric.id === 'revenue') continue;
        const share = shareLabel(c.f.metric);
        const g = growth(c.now.value, c.then.value);
        const derived = c.now.derivation ? ' (derived)' : '';
        const move = `${c.f.metric.label} ${g >= 0 ? 'grew' : 'fell'} ${pct(c.now.value, c.then.value)} ${this.#refs(c.now)}${this.#refs(c.then)}${derived}`;
        const cost = !share?.margin && c.f.metric.unit === 'money' && c.f.metric.type === 'duration';
        let line = capitalise(move);
        if (revGrowth !== null && c.f.metric.unit === 'money' && c.f.metric.type === 'duration') {
          line += `, ${against(g, revGrowth)}`;
          // A cost's share of revenue moves the margins: up weighs on them, down lifts them.
          if (cost && Math.abs(g - revGrowth) >= 0.0005) line += g > revGrowth ? ': a cost rising faster than revenue, which weighs on the margins' : ': a cost taking a smaller share of revenue, which lifts the margins';
        }
        // A margin's level then and now, in points, a presumed direction corrected.
        if (share?.margin && c.f.revenue && c.f.comparedRevenue && c.f.revenue.value > 0 && c.f.comparedRevenue.value > 0) {
          const [m1, m0] = [(100 * c.now.value) / c.f.revenue.value, (100 * c.then.value) / c.f.comparedRevenue.value];
          const way = Math.round((m1 - m0) * 10) === 0 ? 'flat' : m1 > m0 ? 'up' : 'down';
          const said = `${share.label} ${way === 'flat' ? 'held at' : way === 'up' ? 'rose' : 'fell'} ${way === 'flat' ? `${m1.toFixed(1)}%` : `from ${m0.toFixed(1)}% to ${m1.toFixed(1)}% (${m1 >= m0 ? '+' : ''}${(m1 - m0).toFixed(1)} percentage points)`}`;
          // (The direction presumed is of the margin asked about, the first; of all of them when "margins" were.)
          const asked = margins.size === 0 || /\bmargins\b/i.test(text);
          const wrong = presumed && asked && way !== presumed ? `${capitalise(share.label)} did not ${presumed === 'down' ? 'fall' : 'rise'}: ${said.replace(share.label, 'it')}` : capitalise(said);
          line = `${wrong}; ${move}`;
          if (revGrowth !== null) line += `, ${against(g, revGrowth)}`;
          margins.set(c.f.metric.id, way);
        }
        rows.push(`- ${line}.`);
      }
      // Operating margin one way and net margin the other: the difference lies below operating income.
      const [operating, net] = [margins.get('operatingIncome'), margins.get('netIncome')];
      if (operating && net && operating !== net && operating !== 'flat' && net !== 'flat') rows.push(`- Net margin ${net === 'down' ? 'fell' : 'rose'} while operating margin ${operating === 'down' ? 'fell' : 'rose'}: the difference lies below operating income (other income and expense, income taxes), which these figures do not break down.`);
      out.push(`**${name}**, ${span}:`, ...rows);
    }
    return out;
  }

  /** Whether a change given is measured from a figure below zero (a loss, a burn): its percentage is over that figure's size. */
  #fromNegative(figures: Figure[]): boolean {
    const sum = (qs: Figure['ttm']) => (qs?.length === 4 && qs.every((q) => q.value) ? qs.reduce((total, q) => total + q.value!.value, 0) : null);
    return figures.some((f) => {
      const r = f.result;
      if (r.kind === 'calendar-year') return Boolean(r.total && r.compared?.total && r.compared.total.value < 0);
      if (r.kind !== 'value' || f.metric.unit === 'shares') return false;
      // (A margin answered is compared in points; the amount's change is said under it all the same.)
      if (this.#plan.question?.ttm && sum(f.ttm) !== null && (sum(f.ttmPrior) ?? 0) < 0) return true;
      return [r.compared, f.alsoCompared].some((c) => c?.value && c.value.value < 0 && c.value.value !== r.value.value);
    });
  }

  write(dataNote: string | null): { text: string; citations: Citation[] } {
    const plan = this.#plan;
    const lines: string[] = [];
    for (const g of plan.guessed) lines.push(`(Taking "${quoteCaller(g.text)}" to mean ${who(g.company)}.)`, '');
    const ratios = this.#ratioLines();
    // "Which is riskier?": no verdict on the investment, only what the balance sheets say.
    // "Is that good?": a judgement, left to the asker, with how to put the figure in context.
    if ((ratios.length || plan.figures.length) && JUDGED.test(plan.question?.text ?? ''))
      lines.push(
        `Whether that is good is a judgement I leave to you: the filings give the figure, below.${INDUSTRY.test(plan.question?.text ?? '') ? ' I read companies\' own filings, not industry averages.' : ''} For context, ask how it compares with other companies (“vs Apple and Microsoft”) or over time (“and the year before?”, “for the last 4 years”).`,
        '',
      );
    if (ratios.length && ADVICE.test(plan.question?.text ?? '')) lines.push(`I do not give investment advice, such as which stock is the riskier buy. What the balance sheets say of leverage and liquidity, each figure cited, for your own judgement:`, '');
    if (ratios.length) lines.push(...ratios, '');
    const figures = plan.figures;
    const problems = this.#problems();
    const said = this.#unknownFigures();
    // A period that does not exist ("Q5 2024") is said before the figure given in its place.
    // (So is a figure that is all the turn asked, "and per share?" after revenue: that there is none is the answer.)
    const onlyUnknown = Boolean(plan.question && !plan.question.stated.metrics && plan.question.unknownFigures.length);
    const first = said.filter((u) => u.startsWith('There is no quarter') || onlyUnknown);
    const unknown = said.filter((u) => !first.includes(u));
    if (first.length && figures.length) lines.push(...first, '');
    else unknown.unshift(...first);
    // Another language's words are not figures or names: said once, instead of a line for each.
    const foreign = looksNonEnglish(plan.question?.text ?? '');
    if (foreign) {
      unknown.splice(0, unknown.length, ENGLISH_ONLY);
      problems.splice(0, problems.length, ...problems.filter((p) => !p.startsWith('I could not find a company')));
    }
    // "Is this a good company?": no verdict and no advice; what the figures show, and what they cannot.
    const quality = figures.length > 0 && QUALITY_ASKED.test(plan.question?.text ?? '');
    if (quality) {
      lines.push(`Whether it is a good company, or a good investment, is a judgement I leave to you: I give no investment advice. What its filings' figures show:`, '');
      lines.push(...this.#whatFiguresShow(figures), '');
      lines.push(`What the figures cannot tell: the share price and what the market already expects, the company's competitive position, the quality of its management, or what comes next; the filing's words (its business description, risk factors and management's discussion) speak to some of these, and I do not read them. The figures, each cited:`, '');
    }
    // "Why did it fall?": the figures say what changed; the reasons are in words this agent does not read.
    if (figures.length && WHY.test(plan.question?.text ?? '') && !quality) {
      // What the figures do show: the moves of the margins asked about and of the lines behind them.
      // (One amount alone, "why did net income fall?", has its change said by the verdict line: nothing to set it against.)
      const shown = figures.length > 1 || plan.question?.margin ? this.#whatFiguresShow(figures) : [];
      if (shown.length) lines.push(`What the figures show:`, '', ...shown, '');
      // A figure that is the difference of two others ("free cash flow") is shown with them: what it is made of.
      const parts = figures.some((f) => ['operatingCashFlow', 'capitalExpenditure', 'costOfRevenue', 'operatingExpenses'].includes(f.metric.id));
      lines.push(`${WHY_NOT_IN_FIGURES} ${parts ? 'The figures, with what the figure asked about is made of:' : 'The figures:'}`, '');
    }
    // "Whats free cash flow mean?" of a company: what it is, then its figures.
    const meaning = figures.length ? meaningsOf(plan.question) : null;
    if (meaning) lines.push(meaning, '');
    // "Whats EPS mean, im new to this" after a company it has no figures for: the meaning, not that company's problem again.
    const meantOnly = !figures.length && plan.question && !plan.question.stated.companies ? meaningsOf(plan.question) : null;
    if (meantOnly) problems.splice(0, problems.length), unknown.splice(0, unknown.length);
    const defined = meantOnly ? `${meantOnly}\n\nAsk it of a company, by ticker or name (“Apple ${(plan.question!.margin ? shareLabel(metricById(plan.question!.metrics[0]!)) : null)?.label ?? metricById(plan.question!.metrics[0]!).label}”), for its figures from the filings, each cited.` : !figures.length && !problems.length && !unknown.length ? definitions(plan.question) : null;
    if (defined) {
      lines.push(defined);
    } else if (!figures.length && !problems.length && !unknown.length && ADVICE.test(plan.question?.text ?? '')) {
      // "What's the best stock to buy?": no advice, and what can be asked instead.
      lines.push(`I do not give investment advice, such as which stock to buy or sell. Name a company, by ticker or name, and I give the key figures from its filings, each citing the page it comes from, for your own judgement: for example “should I buy Apple?” or “Apple vs Microsoft net margin”.`);
    } else if (!figures.length && !problems.length && !unknown.length) {
      lines.push(helpText(Boolean(plan.question?.metrics.length || plan.question?.period || plan.question?.unknownFigures.length), plan.question?.unknownFigures));
    } else if (figures.length === 1) {
      lines.push(...this.#single(figures[0]!));
    } else if (figures.length > 1) {
      const companies = new Set(figures.map((f) => f.company.cik)).size;
      const period = plan.question?.period;
      const latest = !period || period.kind === 'latest';
      const offTopic = plan.keyFigures ? NOT_A_FIGURE.exec(plan.question?.text ?? '') : null;
      if (plan.keyFigures && ADVICE.test(plan.question?.text ?? '')) lines.push(`I do not give investment advice, such as whether to buy or sell a stock. The key figures from the company's filings are below, each citing the page it comes from, for your own judgement.`, '');
      else if (offTopic) lines.push(`I answer from the figures of companies' financial statements in their SEC filings (XBRL data), not from what a filing says in words or who runs a company, so I cannot answer that (ask "list its filings" for the filings themselves); the key figures are below, each citing the page of the filing it comes from.`, '');
      const intro = plan.keyFigures
        ? `Key figures${latest ? ' from the latest filings' : ''}${companies > 1 ? ', side by side' : ''}:`
        : ratios.length
          ? `The figures ${plan.ratios.length > 1 ? 'they are' : 'it is'} computed from${companies > 1 ? ', side by side (each company in its own fiscal terms)' : ''}:`
          : companies > 1
            ? `${capitalise([...new Set(figures.map((f) => (plan.question?.margin && shareLabel(f.metric)?.margin ? `${shareLabel(f.metric)!.label} (${f.metric.label} over revenue)` : f.metric.label)))].join(' and '))}, side by side (each company in its own fiscal terms):`
            : `${who(figures[0]!.company)}:`;
      const text = plan.question?.text ?? '';
      // "Which is bigger, Apple or Microsoft?" asks for no figure: the key figures are weighed against each other.
      const weighed = companies > 1 && (!plan.keyFigures || /\b(?:bigger|larger|smaller|biggest|largest|smallest)\b/i.test(text)) && !ratios.length;
      // "Which company has the highest net margin?": the ranking is the answer, before the figures.
      // So is "and by net margin?" after a ranking: ranked by another figure.
      // ("Which grew faster?", "who has the higher margin?": of two, the comparative asks the same, answered first.)
      // ("Difference in points?", "by how much?" after the companies' figures: how far apart they are, first.)
      const ranking = weighed && (/\b(?:highest|lowest|most|least|largest|biggest|smallest|best|worst|greatest|fastest|slowest|rank\w*)\b|^\s*(?:and\s+|now\s+|what about\s+|how about\s+)?by\s+\w/i.test(text) || /^\W*(?:(?:so|and|ok|but)\W+)?(?:which|who|whose|who's|whos)\b[^?]*\b(?:faster|slower|higher|lower|bigger|larger|smaller|greater|more|less|better|worse)\b/i.test(text) || (SPREAD_ASKED.test(text) && !plan.question?.stated.metrics));
      // "Is Apple's gross margin higher than Microsoft's?", "Did Apple grow faster than Microsoft?": the verdict leads, each company's figure cited in it.
      const verdictFirst = weighed && !ranking && YES_NO.test(plan.question?.askedAs ?? text) && COMPARED_THAN.test(plan.question?.askedAs ?? text) && !THRESHOLD_RATE.test(plan.question?.askedAs ?? text);
      const differences = ranking || verdictFirst ? this.#differences(figures, verdictFirst).map((d) => `- ${d}`) : [];
      // "Did both Apple and Microsoft grow revenue?": yes or no of every company, each one's change cited.
      const everyOne = this.#eachMoved(figures);
      const widened = this.#marginChangeRanked(figures, text);
      // "How about Microsoft and Alphabet?" after a cash burn: whether each burns cash, first.
      const burns = figures.flatMap((f) => (f.result.kind === 'value' ? [this.#burn(f, f.result)] : [])).filter((b): b is string => b !== null);
      const leverage = this.#operatingLeverage(figures);
      const shares = [...(leverage.length ? [...leverage.slice(0, -1), '', leverage.at(-1)!] : []), ...burns.map((b) => `- ${b}`), ...this.#returnedToShareholders(figures), ...this.#sharesOf(figures), ...this.#differencesOf(figures)];
      lines.push(...(everyOne ? [everyOne, ''] : []), ...(verdictFirst && differences.length ? [...differences, ''] : []), ...(widened ? [widened, ''] : []), ...(shares.length ? [...shares, ''] : []), intro, '', ...(differences.length && !verdictFirst ? [...differences, ''] : []), ...this.#table(figures));
      if (weighed && !ranking && !verdictFirst) {
        const after = this.#differences(figures);
        if (after.length) lines.push(...(lines.at(-1)?.startsWith('- ') ? [] : ['']), ...after.map((d) => `- ${d}`));
      }
      const fiscal = [...new Map(figures.map((f) => [f.company.cik, f])).values()].map((f) => this.#fiscalNote(f, null)).filter((n): n is string => n !== null);
      // A 53-week year or 14-week quarter in the table (or compared with) is said under it too, once per company.
      const weeks = [
        ...new Set(
          figures.flatMap((f) => {
            const r = f.result;
            const note = r.kind === 'value' ? this.#extraWeekNote(f, r.period, [r.compared, f.alsoCompared]) : null;
            return note ? [`For ${shortName(f.company.name)}, ${uncapitalise(note)}`] : [];
          }),
        ),
      ];
      if (fiscal.length || weeks.length) lines.push(...(lines.at(-1)?.startsWith('- ') ? [] : ['']), ...[...fiscal, ...weeks].map((n) => `- ${n}`));
    }
    // A change measured from a figure below zero ("EMBR net income Q3 2024 vs a year ago") has its percentage said as the tables say it.
    if (this.#fromNegative(figures)) lines.push('', GROWTH_FROM_NEGATIVE);
    const cross = this.#cross();
    // (Each its own paragraph: lines one under another run together in Markdown.)
    if (cross.length) lines.push(...cross.flatMap((c) => ['', c]));
    if (unknown.length) lines.push(...(lines.length ? [''] : []), ...unknown);
    if (problems.length) lines.push(...(lines.length ? [''] : []), ...problems);
    if (dataNote && (figures.length || problems.length || unknown.length)) lines.push('', `_${dataNote}_`);
    return { text: lines.join('\n').replace(/\n{3,}/g, '\n\n').trim(), citations: this.#cited };
  }
}
