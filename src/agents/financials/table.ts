import { quoteCaller } from '../citations.js';
import { extraWeekLength, type FiscalCalendar, type FiscalPeriod } from '../../data/sec/calendar.js';
import type { CompanyFinancials, MetricValue } from '../../data/sec/facts.js';
import type { FactCitation, SecLibrary } from '../../data/sec/library.js';
import { metricById, type MetricDef, type MetricId } from '../../data/sec/metrics.js';
import { AGAINST_FIGURE, BURN_ASKED, askingSentence, quarterRange, type SecQuestion } from '../../data/sec/question.js';
import { ratioById, type RatioDef } from '../../data/sec/ratios.js';
import type { CompanyRef } from '../../data/sec/types.js';
import { shortName } from '../../data/sec/names.js';
import { GROWTH_FROM_NEGATIVE, SCALE_WORD, capitalise, formatAmount, formatChange } from '../sec/format.js';
import { shareLabel } from '../sec/plan.js';
import { formatRatio, ratioAt, ratioNote } from '../sec/ratios.js';
import { meaningsOf, unknownFigureText } from '../sec/write.js';
import { SourceList } from '../citations.js';
import type { AgentEvent } from '../types.js';

/**
 * Several periods of companies' figures as tables, with growth rates, every column cited: what
 * svc-financials-agent answers, and svc-sec-agent for the quarters of a year.
 */

const MAX_COMPANIES = 3;
const MAX_PERIODS = 12;
const NUMBER_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

export interface Span {
  kind: 'quarter' | 'year';
  /** The most periods shown: the latest ones (of the fiscal years asked for, when given). */
  count: number;
  /** Fiscal years asked for ("2021 to 2024", "each quarter of fiscal 2024", "since 2022"); `to` absent: up to the latest. */
  years?: { from: number; to?: number };
  /** Counted back from the latest, as said: "last 8 quarters", "past five years". */
  latest?: boolean;
  /** Quarters asked for, as fiscal year × 4 + quarter, both ends in ("Q3 2022 through Q2 2024"). */
  quarters?: { from: number; to: number };
  /** The periods added up as well ("combined", "in total", "sum of"): a Total column. */
  total?: boolean;
  /** Fiscal years named one by one for a total ("FY2022 and FY2024 combined"): only those are shown and added. */
  only?: number[];
  /** Counted back from the latest, this many periods earlier ("and the year before?" after the last 4 quarters: 4). */
  back?: number;
  /** Said above the table, per figure: the change from the first period to the last, its compound yearly rate, the average. */
  summaries?: Summary[];
  /** The periods were not said, only the unit ("which quarter was best?"): the latest by default, or a table's before it. */
  unsaid?: boolean;
  /** A yes/no question about the change ("grown more than 50%?", "doubled?"): the percentage it is held against. */
  threshold?: Threshold;
}

export interface Threshold {
  above: boolean;
  percent: number;
  said: string;
}

const THRESHOLD = /\b(more than|over|above|at least|less than|under|below|at most)\s+(\d+(?:\.\d+)?)\s*(?:%|percent\b)/;

/** "more than 50%" → above 50; "doubled" → at least 100. */
function thresholdOf(t: string): Threshold | undefined {
  const m = THRESHOLD.exec(t);
  if (m) return { above: ['more than', 'over', 'above', 'at least'].includes(m[1]!), percent: Number(m[2]), said: `${m[1]} ${m[2]}%` };
  if (/\bdoubled?\b/.test(t)) return { above: true, percent: 100, said: 'doubled' };
  return undefined;
}

/**
 * What is said of the periods above the table: the change from the first to the last ('change',
 * with its compound yearly rate: 'cagr'), the average figure, the average year-over-year growth,
 * and the periods with the highest and lowest figure ('extremes') or growth ('fastest').
 */
export type Summary = 'change' | 'cagr' | 'average' | 'averageGrowth' | 'extremes' | 'fastest' | 'apart';

// ("What's the opex trend?": the trend is the change.)
const CHANGE_ASKED = /\b(?:by how much|how much did|trend(?:s|ed|ing)?|trajectory|increase[ds]?|decrease[ds]?|grow|grows|grew|grown|growing|growth|change[ds]?|rise|rose|risen|fall|fell|fallen|declined?|drop(?:ped)?|difference|gain(?:ed)?)\b/;
const CAGR_ASKED = /\bcagr\b|\bcompound(?:ed)?\s+(?:annual\s+)?growth\b|\bannual(?:i[sz]ed)?\s+growth(?:\s+rate)?\b|\bgrowth\s+rate\s+(?:per|a)\s+year\b|\b(?:per|a)\s+year\s+on\s+average\b/;
// Not "weighted average shares", a figure of its own.
// "Mean" as the verb ("what does free cash flow mean?") asks for a meaning, not an average.
const AVERAGE_ASKED = /(?<!weighted[- ])\b(?:average|avg)\b|\bmean\b(?!\s*(?:[?,.!]|$|,?\s+(?:i'?m|im|i am|for|to|here|exactly)\b))/;
// The average of the growth rates, not of the figures: "average growth", "average yoy growth rate", "growing on average".
const AVERAGE_GROWTH_ASKED = /\b(?:average|avg|mean)\s+(?:(?:yoy|y\/y|year[- ]over[- ]year|annual|yearly|quarterly|revenue|rev|sales|earnings|income|net|top[- ]line)\s+){0,2}(?:growth|increase|change)\b|\b(?:grow|grew|grown|growing)\s+(?:\w+\s+)?on average\b/;
// Which period stands out: "best quarter?", "which year was the weakest?", "when did it peak?".
const EXTREMES_ASKED = /\b(?:best|worst|strongest|weakest|highest|lowest|biggest|smallest|largest|peak|record|top)\s+(?:quarters?|qtrs?|years?|yrs?|periods?)\b|\b(?:which|wich|what|wat)\s+(?:quarter|qtr|year|yr|period)\b[^?.!]{0,60}\b(?:most|least|highest|lowest|best|worst|biggest|largest|smallest|strongest|weakest|peak(?:ed)?|fastest|slowest)\b|\bwhen\s+(?:was|did)\b[^?.!]{0,60}\b(?:peak(?:ed)?|highest|lowest|fastest|slowest)\b|\bpeak(?:ed)?\s*\??$|^(?:and|or|what about|how about)?\s*(?:the\s+)?(?:best|worst|strongest|weakest|highest|lowest|peak)(?:\s+one)?\s*\??$|\b(?:than|vs\.?|versus|over|from)\s+the\s+(?:best|worst|strongest|weakest|highest|lowest|biggest|smallest|largest)\b/;
// How far the highest is from the lowest: "by how much vs the worst?", "what's the gap between them?".
const APART_ASKED = /\b(?:by how much|how much (?:higher|lower|more|less|better|worse|bigger)|difference|gap|spread|apart|vs\.? the (?:worst|best|lowest|highest|weakest|strongest))\b/;
// Of the growth rates, not the figures: "fastest-growing quarter", "best quarter for growth".
const FASTEST_ASKED = /\b(?:fastest|slowest|quickest)\b|\b(?:growth|grew|growing|grow|increase|jump|rise)\b/;

/** What a question asks of its periods beyond the table: "change from 2022 to 2024", "CAGR", "average per quarter", "best quarter". */
export function summariesAsked(text: string): Summary[] {
  const t = text.toLowerCase();
  // "tl;dr", "summarize": the change over the periods and their highest and lowest.
  if (/\b(?:tl;?\s?dr|summar(?:y|ise|ize)|sum (?:it|this|that) up|recap|gist|bottom line|key (?:points|takeaways?)|in (?:one|a|1) (?:sentence|line))\b/.test(t)) return ['change', 'extremes'];
  // "Best quarter, and by how much vs the worst?": how far apart they are too.
  if (EXTREMES_ASKED.test(t) || /\b(?:fastest|slowest)[- ]growing\b/.test(t)) return [FASTEST_ASKED.test(t) && !/\bby how much\b/.test(t) ? 'fastest' : 'extremes', ...(APART_ASKED.test(t) ? (['apart'] as const) : [])];
  if (AVERAGE_GROWTH_ASKED.test(t)) return ['averageGrowth'];
  const out: Summary[] = [];
  if (CAGR_ASKED.test(t)) out.push('change', 'cagr');
  else if (CHANGE_ASKED.test(t)) out.push('change');
  if (AVERAGE_ASKED.test(t)) out.push('average');
  return out;
}

/**
 * The periods of a table moved by a follow-up ("and the year before?", "the quarter before?"):
 * the same span, a year or a quarter earlier; null when the question asks no such move.
 */
export function movedSpan(span: Span, text: string): Span | null {
  const t = text.toLowerCase();
  if (/\b(?:q[1-4]|(?:19|20)\d\d|fy\s*\d)/.test(t)) return null;
  const m = /\b(?:(?:the\s+)?(year|quarter)\s+(?:before|earlier|prior)|a\s+(year|quarter)\s+(?:earlier|before|ago)|(?:previous|prior|preceding)\s+(year|quarter))\b/.exec(t);
  if (!m) return null;
  const unit = (m[1] ?? m[2] ?? m[3])! as 'year' | 'quarter';
  if (unit === 'quarter' && span.kind === 'year') return null;
  const by = unit === 'year' ? (span.kind === 'quarter' ? 4 : 1) : 1;
  if (span.years || span.quarters) {
    const years = unit === 'year' && span.years ? { from: span.years.from - 1, ...(span.years.to === undefined ? {} : { to: span.years.to - 1 }) } : span.years;
    const quarters = span.quarters ? { from: span.quarters.from - by, to: span.quarters.to - by } : undefined;
    // A quarter earlier moves a range of quarters only; whole fiscal years move by years.
    if (unit === 'quarter' && !quarters) return null;
    return { ...span, ...(years ? { years: quarters ? { from: Math.floor((quarters.from - 1) / 4), to: Math.floor((quarters.to - 1) / 4) } : years } : {}), ...(quarters ? { quarters } : {}) };
  }
  return { ...span, back: (span.back ?? 0) + by };
}

/** Periods asked for taken together. Not "total" alone: "total revenue", "total debt" are figures. */
const COMBINED = /\b(?:combined|in total|altogether|all together|taken together|cumulative(?:ly)?|summed|sum of|(?:sum|add(?:ed)?|total) (?:them|those|these|it|that)(?: (?:up|together))?|add(?:ed)? (?:up|together)|totals? (?:over|across|for|of) (?:the )?(?:last|past|previous|fiscal|fy|years|quarters|\d|two|three|four|five))/;

const YEAR = '(?:fy\\s*|fiscal\\s+(?:year\\s+)?)?((?:19|20)\\d\\d)';
const RANGE = new RegExp(`\\b(?:from\\s+)?${YEAR}\\s*(?:-|–|to|through|thru)\\s*${YEAR}\\b|\\bbetween\\s+${YEAR}\\s+and\\s+${YEAR}\\b`);
const SINCE = new RegExp(`\\bsince\\s+${YEAR}\\b`);
const QUARTERLY = /\b(quarterly(?!\s+(?:reports?|filings?)\b)|quarter by quarter|each quarter|every quarter|by quarter|per quarter|quarters)\b/;

/**
 * How many periods a question asks for: "last 8 quarters", "past five years", "annual", "trend";
 * and which fiscal years, when it names them: "2021 to 2024", "since 2022", "quarterly revenue in 2024".
 */
export function spanOf(text: string): Span | null {
  // ("The quarterly review was circulated… What was Microsoft net income FY2024?": the asking sentence's periods, not the prose's.)
  const asking = askingSentence(text);
  if (asking) return spanOf(asking);
  // "Last 4 q", "past 3 yrs": the units spelled out.
  const t = text
    .toLowerCase()
    .replace(/\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*(?:q|qs|qtrs?)(?=$|[^a-z0-9])/g, '$1 quarters')
    .replace(/\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*yrs?\b/g, '$1 years');
  const summaries = summariesAsked(t);
  // "Apple revenue CAGR": over the latest five fiscal years.
  const span = periodsIn(t, COMBINED.test(t), summaries) ?? (summaries.includes('cagr') ? { kind: 'year', count: 4, latest: true } : null);
  if (!span) return null;
  // A change over the past N years is from N years before the latest: N + 1 years are shown.
  // (A trend over N years is those N years: the change is said across them.)
  const widened = span.latest && span.kind === 'year' && summaries.includes('change') && !/\btrend/.test(t) ? { count: Math.min(MAX_PERIODS, span.count + 1) } : {};
  const threshold = summaries.includes('change') ? thresholdOf(t) : undefined;
  return { ...span, ...widened, ...(COMBINED.test(t) ? { total: true } : {}), ...(summaries.length ? { summaries } : {}), ...(threshold ? { threshold } : {}) };
}

/**
 * The periods the last question of a conversation asks for: its own, or those of the table before
 * it, carried by a follow-up that names no period ("and net income?"), moved ("and the year
 * before?"), added up ("combined?") or summed up ("what's the average?").
 */
export function spanAsked(users: string[], question: SecQuestion | null): Span | null {
  const last = users.at(-1) ?? '';
  const own = spanOf(last);
  const earlier = earlierSpan(users.slice(0, -1));
  // "Net margin each quarter?" after the last 4 quarters: those quarters, not the default eight.
  const unitOnly = own && !own.latest && !own.years && !own.quarters && !own.only;
  if (own && unitOnly && earlier?.kind === own.kind && (earlier.latest || earlier.years || earlier.quarters)) {
    return { ...earlier, ...(own.total ? { total: true } : {}), ...(own.summaries ? { summaries: own.summaries } : {}) };
  }
  // "Which quarter was best?" after the last 4 quarters: of those.
  if (own?.unsaid && earlier?.kind === own.kind) return { ...earlier, ...(own.summaries ? { summaries: own.summaries } : {}) };
  if (own) return own;
  const moved = earlier && (movedSpan(earlier, last) ?? (question && !question.stated.period ? earlier : null));
  if (!moved) return null;
  const carried = latestOf(moved, last);
  const asked = summariesAsked(last);
  // "What's the growth rate?" of a table of years: compounded a year, from its first year to its last.
  if (carried.kind === 'year' && asked.includes('change') && !asked.includes('cagr') && /\bgrowth\s+rate\b|\bhow\s+fast\b/i.test(last)) asked.push('cagr');
  return { ...carried, ...(asksTotal(last) ? { total: true } : {}), ...(asked.length ? { summaries: asked } : {}) };
}

/**
 * "Over the last 4" of a table shown, the unit unsaid: its latest periods, that many. The latest
 * counted from the same end the table had (its last period, or the latest filed).
 */
function latestOf(span: Span, text: string): Span {
  const m = /\b(?:last|latest|past|final|most recent)\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?!\s*(?:fiscal\s+)?(?:quarters?|years?|months?|weeks?|days?|%|percent))/.exec(text.toLowerCase());
  if (!m) return span;
  const count = NUMBER_WORDS[m[1]!] ?? Number(m[1]);
  if (!(count >= 1 && count < span.count)) return span;
  if (span.quarters) {
    const from = Math.max(span.quarters.from, span.quarters.to - count + 1);
    return { ...span, count, quarters: { from, to: span.quarters.to }, years: { from: Math.floor((from - 1) / 4), to: Math.floor((span.quarters.to - 1) / 4) } };
  }
  // Fiscal years asked for keep their last year; the count keeps the latest of them.
  return { ...span, count };
}

/** The periods of the turn before, passing over follow-ups that only asked for their total, average or change ("combined?", "how fast is it growing?"). */
function earlierSpan(users: string[]): Span | null {
  for (let i = users.length - 1; i >= 0; i--) {
    const span = spanOf(users[i]!);
    // ("Qoq growth each quarter?" after "quarterly revenue 2024" named only the unit: the quarters of the turn before it.)
    // ("Which quarter was strongest?" said no periods either: those of the table before it.)
    const unitOnly = span && ((!span.latest && !span.years && !span.quarters && !span.only) || span.unsaid);
    const before = unitOnly ? earlierSpan(users.slice(0, i)) : null;
    if (unitOnly && before?.kind === span.kind && (before.latest || before.years || before.quarters)) return { ...before, ...(span.total ? { total: true } : {}), ...(span.summaries ? { summaries: span.summaries } : {}) };
    if (span) return span;
    if (!asksOfPeriods(users[i]!) && !summariesAsked(users[i]!).length && !TABLE_CHANGED.test(users[i]!)) return null;
  }
  return null;
}

/** A turn that changes the table shown, not its periods ("add revenue and net margin to that table", "drop the growth rows"). */
const TABLE_CHANGED = /\b(?:that|the|this|your) table\b|\b(?:add|include|drop|remove)\b[^?.!]{0,80}\b(?:to|in|into|from)\s+(?:it|that|this|them)\b|^\W*(?:(?:ok|okay|so|now|and|can you|could you|pls|please)\W+)*(?:(?:put it |show it |give it )?(?:as|in) a table|(?:in|as) (?:\$\s?)?(?:billions?|bn|millions?|mn|thousands?))(?:\W+(?:(?:as|in) a table|(?:in|as) (?:\$\s?)?(?:billions?|bn|millions?|mn|thousands?)|please|pls|plz|thanks|instead))*\W*$/i;

/** A follow-up asking only for the total or the average of periods ("combined?", "what's the average?"). */
export const asksOfPeriods = (text: string) => asksTotal(text) || (summariesAsked(text).includes('average') && !spanOf(text));

/** A follow-up asking for the total of the periods just shown ("combined?", "what's the total?", "and in total?"). */
export function asksTotal(text: string): boolean {
  const t = text.toLowerCase();
  return COMBINED.test(t) || /\b(?:in total|the total|totals?|combined|added up|sum)\b\s*\??$/.test(t.trim());
}

function periodsIn(t: string, total: boolean, summaries: Summary[]): Span | null {
  // More quarters than a year's: each of them (up to a year's are added up, as one period).
  const range = quarterRange(t);
  // Up to a year's quarters are otherwise one period; added up, each is shown beside the total.
  if (range && (range.quarters > 4 || (total && range.quarters >= 2)) && range.last.fy !== null && !range.calendar) {
    const to = range.last.fy * 4 + range.last.q;
    const from = to - range.quarters + 1;
    return { kind: 'quarter', count: Math.min(MAX_PERIODS, range.quarters), years: { from: Math.floor((from - 1) / 4), to: range.last.fy }, quarters: { from, to } };
  }
  // "trend over 5 years" is the last five years, as "over the past 5 years" is.
  const n = /\b(?:last|past|previous|trailing|(?:trends?|history)\s+(?:over|for)(?:\s+the)?)\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(fiscal\s+)?(quarters|years)\b/.exec(t);
  if (n) {
    const count = NUMBER_WORDS[n[1]!] ?? Number(n[1]);
    return { kind: n[3] === 'years' ? 'year' : 'quarter', count: Math.min(MAX_PERIODS, Math.max(1, count)), latest: true };
  }
  // Three or more quarters or years named one by one ("FY2022, FY2023 and FY2024", "Q1, Q2 and Q3 2024" is a range above): from the first to the last.
  const listed = listedPeriods(t, total);
  if (listed) return listed;
  const yearly = /\b(annual|annually|yearly|years|fiscal years|year by year|by year|each year|every year)\b/.test(t);
  const quarterly = QUARTERLY.test(t);
  const kind = quarterly && !yearly ? 'quarter' : 'year';
  const years = RANGE.exec(t);
  if (years) {
    const [a, b] = [Number(years[1] ?? years[3]), Number(years[2] ?? years[4])];
    return { kind, count: MAX_PERIODS, years: { from: Math.min(a, b), to: Math.max(a, b) } };
  }
  const since = SINCE.exec(t);
  // "grown since 2022": from that fiscal year to the latest, by year unless quarters are asked for.
  if (since) return { kind: yearly || (!quarterly && summaries.includes('change')) ? 'year' : 'quarter', count: MAX_PERIODS, years: { from: Number(since[1]) } };
  // "The biggest quarter ever", "the best year in your data": every period the table can hold, to the latest.
  if (summaries.some((x) => x === 'extremes' || x === 'fastest') && /\b(?:ever|all[- ]time|of all time|on record|in (?:your|the|this) (?:data|snapshot)|you have)\b/.test(t)) return { kind: /\b(?:quarters?|qtrs?)\b/.test(t) ? 'quarter' : 'year', count: MAX_PERIODS, latest: true };
  // "Which quarter was best?", "best year for net income": the highest and lowest of the latest periods (of the fiscal years named, for quarters).
  // (A summary asked, "tl;dr", "plain-English summary of the latest quarter", names no periods.)
  if (EXTREMES_ASKED.test(t) || /\b(?:fastest|slowest)[- ]growing\b/.test(t)) {
    if (/\b(?:quarters?|qtrs?)\b/.test(t)) {
      const named = fiscalYearsNamed(t);
      if (named.size >= 1) {
        const [from, to] = [Math.min(...named), Math.max(...named)];
        if ((to - from + 1) * 4 <= MAX_PERIODS) return { kind: 'quarter', count: (to - from + 1) * 4, years: { from, to } };
      }
      return { kind: 'quarter', count: 8, latest: true, unsaid: true };
    }
    if (/\b(?:years?|yrs?)\b/.test(t)) return { kind: 'year', count: 5, latest: true, unsaid: true };
  }
  // A trend is the latest periods: by year when years are said, else the last eight quarters.
  if (/\b(trend|trends|history|historical|over time|time series)\b/.test(t)) return yearly ? { kind: 'year', count: 5, latest: true } : { kind: 'quarter', count: 8, latest: true };
  if (yearly) return { kind: 'year', count: 5 };
  if (quarterly) {
    // "quarterly revenue in 2024", "quarterly FY2023", "each quarter of fiscal 2023 and fiscal 2024": those fiscal years' quarters.
    const years = fiscalYearsNamed(t);
    if (years.size >= 1) {
      const [from, to] = [Math.min(...years), Math.max(...years)];
      if ((to - from + 1) * 4 <= MAX_PERIODS) return { kind: 'quarter', count: (to - from + 1) * 4, years: { from, to } };
    }
    return { kind: 'quarter', count: 8 };
  }
  return null;
}

/** The fiscal years a question names ("in 2024", "FY23", "fiscal 2024"). */
const fiscalYearsNamed = (t: string) => new Set([...t.matchAll(/(?<![\d/-])(?:fy\s*'?)?((?:19|20)\d\d)(?![\d/-])|\bfy\s*'?(\d\d)\b/g)].map((m) => (m[1] ? Number(m[1]) : 2000 + Number(m[2]))));

/**
 * "Q1 2024, Q2 2024 and Q3 2024", "Q3 FY24 vs Q3 FY23 vs Q3 FY22", "fiscal 2022, 2023 and 2024": three or more, as a table
 * from the first to the last; for a total, two years are enough ("FY2023 and FY2024 combined"), and only those named are added.
 */
function listedPeriods(text: string, total: boolean): Span | null {
  // "Q2, Q3 and Q4 2024": the year said once, after the last, is each quarter's.
  const t = text.replace(/\b((?:q[1-4]\s*(?:,\s*(?:and\s+|&\s*)?|and\s+|&\s*|\/\s*))+)(q[1-4])(\s*(?:of\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?'?(?:(?:19|20)\d\d|\d\d)\b)/g, (_, list: string, last: string, year: string) =>
    `${list.replace(/\bq([1-4])\b/g, (q: string) => `${q}${year}`)}${last}${year}`,
  );
  const quarters = new Set([...t.matchAll(/\bq([1-4])\s*(?:of\s+)?(?:fy\s*|fiscal\s+(?:year\s+)?)?'?((?:19|20)\d\d|\d\d)\b/g)].map((m) => (m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])) * 4 + Number(m[1])));
  // For a total, two quarters in a row are enough ("Q1 2024 and Q2 2024 combined").
  const contiguous = quarters.size >= 2 && Math.max(...quarters) - Math.min(...quarters) + 1 === quarters.size;
  if (quarters.size >= 3 || (total && contiguous)) {
    const [from, to] = [Math.min(...quarters), Math.max(...quarters)];
    if (to - from < MAX_PERIODS) return { kind: 'quarter', count: to - from + 1, years: { from: Math.floor((from - 1) / 4), to: Math.floor((to - 1) / 4) }, quarters: { from, to } };
  }
  if (/\bq[1-4]\b|\bquarter/.test(t)) return null;
  const years = new Set([...t.matchAll(/(?<![\d/-])(?:fy\s*'?)?((?:19|20)\d\d)(?![\d/-])|\bfy\s*'?(\d\d)\b/g)].map((m) => (m[1] ? Number(m[1]) : 2000 + Number(m[2]))));
  // "2022 through 2024" is a range (read after this), not two years named.
  if (years.size < (total ? 2 : 3) || (years.size === 2 && RANGE.test(t))) return null;
  const [from, to] = [Math.min(...years), Math.max(...years)];
  if (to - from >= MAX_PERIODS) return null;
  if (total && years.size < to - from + 1) return { kind: 'year', count: years.size, years: { from, to }, only: [...years].sort((a, b) => a - b) };
  return { kind: 'year', count: to - from + 1, years: { from, to } };
}

/** "of fiscal 2024", "from fiscal 2021 to 2024", "since fiscal 2022". */
const yearsText = (y: NonNullable<Span['years']>) => (y.to === undefined ? `since fiscal ${y.from}` : y.from === y.to ? `of fiscal ${y.from}` : `from fiscal ${y.from} to ${y.to}`);
/** "from fiscal Q3 2022 to Q2 2024" (a quarter index is fiscal year × 4 + quarter). */
const quarterText = (i: number) => `Q${((i - 1) % 4) + 1} ${Math.floor((i - 1) / 4)}`;
const rangeText = (span: Span) =>
  span.only ? `named (fiscal ${span.only.join(' and ')})` : span.quarters ? `from fiscal ${quarterText(span.quarters.from)} to ${quarterText(span.quarters.to)}` : span.years ? yearsText(span.years) : '';

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

/** A table cell: the figure in the row's scale ("85,777" in millions, "1.40" per share). */
function cell(v: MetricValue | null, metric: MetricDef, scale: number): string {
  if (!v) return '—';
  // (Billions show two decimals: 80.54, not 81.)
  const digits = metric.unit === 'perShare' || scale > 6 ? 2 : 0;
  const n = (v.value / 10 ** scale).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: metric.unit === 'perShare' ? 4 : digits });
  return `${n}${v.derivation ? '†' : ''}${v.restatedFrom ? '‡' : ''}${v.approximate ? ' (approx.)' : ''}`;
}

/** A row's unit: millions unless another scale was asked ("in billions please"); per-share figures as they are. */
function rowUnit(metric: MetricDef, unit: string, asked: number = 6): { scale: number; label: string } {
  const currency = unit.split('/')[0]!;
  const money = currency === 'USD' ? '$' : `${currency} `;
  if (metric.unit === 'perShare') return { scale: 0, label: `${money.trim()} per share` };
  if (metric.unit === 'shares') return { scale: asked, label: `${SCALE_WORD[asked]} shares` };
  return { scale: asked, label: `${money.trim()} ${SCALE_WORD[asked]}` };
}

const periodLabel = (p: FiscalPeriod, calendarYear: boolean) => (p.kind === 'year' ? `FY${p.fy}` : `Q${p.q} ${calendarYear ? '' : 'FY'}${p.fy}`);

async function table(lib: SecLibrary, ref: CompanyRef, metrics: MetricId[], span: Span, margin: boolean, ratios: readonly RatioDef[], sources: SourceList, progress: (m: string) => void, amountScale?: number, tabled?: (company: CompanyRef, shown: Shown) => void, burn = false, asked = ''): Promise<string[]> {
  const { company, financials } = await lib.profile(ref);
  if (!financials) {
    // A snapshot holds only the companies recorded in it: one missing from it may well file XBRL data.
    return lib.origin.mode === 'snapshot'
      ? [`**${company.name} (${company.ticker})** is not in this snapshot of SEC data, so there are no figures to tabulate: ask “which companies do you cover?” for those it has (an operator adds one with \`svc snapshot record-sec ${company.ticker || company.cik}\`).`]
      : [`**${company.name} (${company.ticker})** files no XBRL financial data with the SEC, so there are no figures to tabulate.`];
  }
  const periods: FiscalPeriod[] = span.kind === 'quarter' ? financials.calendar.quarters : financials.calendar.years;
  const reported = metrics.filter((m) => financials.reports(m));
  const missing = metrics.filter((m) => !financials.reports(m));
  const years = span.years;
  const inQuarters = (p: FiscalPeriod) => !span.quarters || (p.kind === 'quarter' && p.fy * 4 + p.q >= span.quarters.from && p.fy * 4 + p.q <= span.quarters.to);
  const inYears = (p: FiscalPeriod) => inQuarters(p) && (!years || (p.fy >= years.from && (years.to === undefined || p.fy <= years.to))) && (!span.only || span.only.includes(p.fy));
  const withData = periods.filter((p) => inYears(p) && reported.some((m) => financials.value(m, p)));
  const shown = withData.slice(0, withData.length - (span.back ?? 0)).slice(-span.count);
  if (!shown.length || !reported.length) {
    const when = years ? ` ${rangeText(span)}` : '';
    // "… have no share repurchases figures by quarter", not "none of share repurchases by quarter".
    const labels = metrics.map((m) => metricById(m).label);
    const which = `no ${labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : labels[0]} figures ${span.kind === 'quarter' ? 'by quarter' : 'by fiscal year'}${when}`;
    return [lib.origin.mode === 'snapshot' ? `The XBRL facts recorded for **${company.name} (${company.ticker})** in this snapshot have ${which}.` : `**${company.name} (${company.ticker})** reports ${which} in its XBRL facts.`];
  }
  progress(`Citing ${shown.length} ${span.kind === 'quarter' ? 'quarters' : 'years'} of ${company.name} filings`);
  const calendarYear = financials.calendar.isCalendarYear;
  const values = new Map(reported.map((m) => [m, shown.map((p) => financials.value(m, p))] as const));
  // Asked for a margin or a share of revenue: revenue of each period too, the denominator (cited with the column).
  const revenue = margin && reported.some((m) => shareLabel(metricById(m))) ? shown.map((p) => financials.value('revenue', p)) : null;
  const context: Shown = { span, reported, values, revenue, periods: shown, calendarYear, financials };
  tabled?.(company, context);
  // Ratios asked for, computed for each period; an averaged balance's opening value is cited with the column too.
  const ratioRows = ratios.map((ratio) => ({ ratio, values: shown.map((p) => ratioAt(financials, ratio, p)) }));

  // Each column is cited: the filing pages its figures were read from.
  const columnCites = await Promise.all(
    shown.map(async (_p, i) => {
      const opening = ratioRows.flatMap(({ values: v }) => (v[i]?.kind === 'value' ? (v[i].opening?.terms ?? []) : []));
      const facts = [...reported.flatMap((m) => values.get(m)![i]?.terms.map((t) => t.fact) ?? []), ...(revenue?.[i]?.terms.map((t) => t.fact) ?? []), ...opening.map((t) => t.fact)];
      const cites = await Promise.all(facts.map((f) => lib.cite(company, f)));
      return cites;
    }),
  );
  // One source per page of a filing.
  const header = shown.map((p, i) => `${periodLabel(p, calendarYear)} ${[...new Set(columnCites[i]!.map((c: FactCitation) => sources.cite(c.key, c.name, c.url)))].join('')}`);
  // A total needs every period asked for: one without figures would make it the total of fewer.
  const unit = span.kind === 'quarter' ? 'quarters' : 'fiscal years';
  const wanted = span.only ? span.only.length : span.quarters ? span.quarters.to - span.quarters.from + 1 : years?.to !== undefined ? (years.to - years.from + 1) * (span.kind === 'quarter' ? 4 : 1) : span.latest ? span.count : null;
  // Years named one by one leave the others out on purpose.
  const gaps = span.only ? [] : missingBetween(shown, financials.calendar);
  const incomplete = gaps.length
    ? `no total is given: ${gaps.map((p) => periodLabel(p, calendarYear)).join(', ')} ${gaps.length > 1 ? 'have' : 'has'} no figures in the filings available`
    : wanted === null || shown.length !== wanted
      ? `no total is given: only ${shown.length} of the ${wanted ?? shown.length} ${unit} asked for ${shown.length === 1 ? 'has' : 'have'} figures in the filings available`
      : null;
  const total = span.total ? (incomplete ? { not: incomplete } : totals(shown, values, revenue)) : null;
  if (total) header.push('Total');

  const lines: string[] = [
    `### ${company.name} (${company.ticker}), ${span.kind === 'quarter' ? 'by fiscal quarter' : 'by fiscal year'}${calendarYear ? '' : ` (its fiscal year ends ${financials.calendar.describeYearEnd()})`}`,
    '',
    ...withBlank([...summaryLines(context), ...ratioChangeLines(context, ratioRows)]),
    ...withBlank(burn ? burnLines(context, amountScale, asked) : []),
    ...withBlank(againstLines(context, asked)),
    `| | ${header.join(' | ')} |`,
    `|---|${header.map(() => '---:').join('|')}|`,
  ];
  let derived = false;
  let fromNegative = false;
  const restatements: string[] = [];
  for (const m of reported) {
    const metric = metricById(m);
    const series = values.get(m)!;
    const unit = series.find((v) => v)?.unit ?? 'USD';
    const { scale, label } = rowUnit(metric, unit, amountScale);
    const sum = total && 'of' in total ? total.of.get(m) : undefined;
    const sumCell = !total ? [] : [sum ? `**${(sum / 10 ** scale).toLocaleString('en-US', { maximumFractionDigits: scale > 6 ? 2 : 0 })}**` : '—'];
    lines.push(`| **${capitalise(metric.label)}** (${label}) | ${[...series.map((v) => cell(v, metric, scale)), ...sumCell].join(' | ')} |`);
    if (series.some((v) => v?.derivation)) derived = true;
    series.forEach((v, i) => {
      if (v?.restatedFrom) restatements.push(`${metric.label}, ${periodLabel(shown[i]!, calendarYear)}: ${cell({ ...v, value: v.restatedFrom.value, derivation: null, restatedFrom: null, approximate: false }, metric, scale)} as first reported (Form ${v.restatedFrom.form} filed ${v.restatedFrom.filed})`);
    });
    const share = shareLabel(metric);
    if (revenue && share) {
      const shares = series.map((v, i) => (v && revenue[i] && revenue[i].value > 0 ? `${((100 * v.value) / revenue[i].value).toFixed(1)}%` : '—'));
      if (total) {
        const revenueSum = 'of' in total ? total.revenue : null;
        shares.push(sum !== undefined && revenueSum ? `${((100 * sum) / revenueSum).toFixed(1)}%` : '—');
      }
      lines.push(`| ↳ ${share.margin ? `${share.label} (% of revenue)` : '% of revenue'} | ${shares.join(' | ')} |`);
    }
    const growth = (back: number) => growthRates(context, m, back).map((r) => (r === null ? '—' : pct(r)));
    if (metric.unit !== 'shares') {
      if ((span.kind === 'quarter' ? [4, 1] : [1]).some((back) => growthFromNegative(context, m, back))) fromNegative = true;
      // (So is a change from the first period shown to the last, when the first is below zero.)
      if (span.summaries?.includes('change') && (series[0]?.value ?? 0) < 0) fromNegative = true;
      const none = total ? ['—'] : [];
      // Under a margin row, the growth rows say whose growth they are (the figure's, not the margin's).
      const of = revenue && share ? `${metric.label} ` : '';
      if (span.kind === 'quarter') lines.push(`| ↳ ${of}year over year | ${[...growth(4), ...none].join(' | ')} |`, `| ↳ ${of}quarter over quarter | ${[...growth(1), ...none].join(' | ')} |`);
      else lines.push(`| ↳ ${of}year over year | ${[...growth(1), ...none].join(' | ')} |`);
    }
  }
  for (const { ratio, values: v } of ratioRows) {
    const none = total ? ['—'] : [];
    const unit = ratio.kind === 'difference' ? ` (${rowUnit(metricById(ratio.numerator), 'USD').label})` : '';
    const cells = v.map((x) => {
      if (x.kind !== 'value' || x.value === null) return '—';
      const endOnly = ratio.averaged && !x.opening ? '*' : '';
      return ratio.kind === 'difference' ? cell({ ...x.numerator, value: x.value, derivation: null, restatedFrom: null, approximate: false }, metricById(ratio.numerator), rowUnit(metricById(ratio.numerator), x.numerator.unit).scale) : `${formatRatio(ratio, x.value, x.numerator.unit)}${endOnly}`;
    });
    lines.push(`| **${capitalise(ratio.label)}**${unit} | ${[...cells, ...none].join(' | ')} |`);
  }
  lines.push('');
  lines.push(...withBlank(await runwayLines(lib, company, context, sources, amountScale)));
  if (ratioRows.length) {
    const endOnly = ratioRows.some(({ ratio, values: v }) => ratio.averaged && v.some((x) => x.kind === 'value' && !x.opening));
    const divided = ratios.some((r) => r.kind !== 'difference');
    lines.push(`${ratioNote(ratios)}${endOnly ? ' * No balance is reported for the start of that period: its end balance stands in for the average.' : ''}${divided ? ' A — marks a period where a ratio cannot be computed: a figure is missing, or a balance it divides by is negative.' : ''}`, '');
  }
  if (total) lines.push(totalNote(total, shown, reported, calendarYear), '');
  if (gaps.length) lines.push(`No figures for ${gaps.map((p) => periodLabel(p, calendarYear)).join(', ')} in the filings available: ${gaps.length > 1 ? 'those columns are' : 'that column is'} left out, and growth against ${gaps.length > 1 ? 'them' : 'it'} is not shown.`, '');
  if (restatements.length) lines.push(`‡ Restated after it was first reported; the latest figure is shown, and growth is measured on it: ${restatements.join('; ')}.`, '');
  const longer = calendarYear || !reported.some((m) => metricById(m).type === 'duration' && !metricById(m).averaged) ? null : extraWeekNote(shown, financials.calendar);
  if (longer) lines.push(longer, '');
  if (fromNegative) lines.push(GROWTH_FROM_NEGATIVE, '');
  if (derived) lines.push('† Derived, not reported as such: a fourth quarter is the fiscal year minus the first nine months (10-K minus the third-quarter 10-Q); cash-flow quarters are year-to-date differences; totals a filer does not tag follow their formula. Per-share figures derived this way are approximate.', '');
  // A snapshot holds what was recorded, not all a company reports: the claim is about the data.
  const missingSaid = missing.map((m) => metricById(m).label.toLowerCase()).join(' or ');
  if (missing.length) lines.push(lib.origin.mode === 'snapshot' ? `The XBRL facts recorded for ${company.name} in this snapshot have no ${missingSaid} figures.` : `${company.name} does not report ${missingSaid} in its XBRL facts.`, '');
  if (!years) {
    if (withData.length < span.count) lines.push(`Only ${withData.length} ${unit} have figures in the filings available; all are shown.`, '');
  } else {
    const range = rangeText(span);
    if (wanted !== null && withData.length < wanted) lines.push(`Only ${withData.length} of the ${wanted} ${unit} ${range} ${withData.length === 1 ? 'has' : 'have'} figures in the filings available; all are shown.`, '');
    if (withData.length > shown.length) lines.push(`The latest ${shown.length} ${unit} ${range} are shown (at most ${MAX_PERIODS} fit in a table).`, '');
  }
  return lines;
}

/**
 * A ratio's change asked over the periods shown ("debt to equity trend over the last 3 years"): from the first
 * period to the last, or, over the latest quarters, the latest against the same quarter a year before; in points
 * for a percentage, in turns for a multiple. (Amounts and per-share ratios are left to their rows.)
 */
function ratioChangeLines(shown: Shown, rows: { ratio: RatioDef; values: ReturnType<typeof ratioAt>[] }[]): string[] {
  const { span, periods, calendarYear, financials } = shown;
  if (!(span.summaries ?? []).includes('change') || periods.length < 2) return [];
  const label = (p: FiscalPeriod) => periodLabel(p, calendarYear);
  const endToEnd = span.kind === 'year' || span.quarters !== undefined;
  const out: string[] = [];
  for (const { ratio, values } of rows) {
    if (ratio.kind !== 'percent' && ratio.kind !== 'times') continue;
    const last = periods.at(-1)!;
    const [fromPeriod, from] = endToEnd ? [periods[0]!, values[0]] : (() => {
      const before = periodBefore(financials, last, 4);
      return [before, before ? ratioAt(financials, ratio, before) : null] as const;
    })();
    const to = values.at(-1);
    if (!fromPeriod || from?.kind !== 'value' || to?.kind !== 'value' || from.value === null || to.value === null) continue;
    const said = (x: number) => formatRatio(ratio, x, to.numerator.unit);
    const d = to.value - from.value;
    const moved = ratio.kind === 'percent' ? `${d >= 0 ? '+' : '−'}${Math.abs(100 * d).toFixed(1)} percentage points` : `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(2)}x`;
    out.push(`**${capitalise(ratio.label)}**, ${label(fromPeriod)} to ${label(last)}${endToEnd ? '' : ' (a year apart)'}: ${said(from.value)} → ${said(to.value)}, **${moved}**.`);
  }
  return out;
}

/**
 * Cash burn asked over several periods ("Apple's cash burn each quarter of 2024"): for each period
 * shown, whether free cash flow was below zero (a burn, by how much) or not, and plainly when no
 * period burned cash. Empty when free cash flow is not in the table.
 */
function burnLines(shown: Shown, amountScale: number | undefined, asked: string): string[] {
  const series = shown.values.get('freeCashFlow');
  if (!series?.some((v) => v)) return [];
  const metric = metricById('freeCashFlow');
  const { scale, label } = rowUnit(metric, series.find((v) => v)!.unit, amountScale);
  const [money, word] = [label.split(' ')[0]!, label.split(' ').slice(1).join(' ')];
  const amount = (x: number) => `${money}${(Math.abs(x) / 10 ** scale).toLocaleString('en-US', { maximumFractionDigits: scale > 6 ? 2 : 0 })} ${word}`;
  const named = shown.periods.map((p, i) => ({ name: periodLabel(p, shown.calendarYear), v: series[i] ?? null }));
  const known = named.filter((n) => n.v);
  const burned = known.filter((n) => n.v!.value < 0);
  const unit = shown.span.kind === 'quarter' ? 'quarter' : 'fiscal year';
  const count = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  // "Is it burning cash?": yes or no, first.
  const yesNo = /^\W*(?:(?:and|so|but)\W+)?(?:is|are|was|were|does|do|did|has|have)\b/i.test(asked) ? `**${burned.length ? 'Yes' : 'No'}**: ` : '';
  const head = yesNo + (burned.length
    ? `**Cash burn in ${burned.length} of the ${count(known.length)} shown** (free cash flow, operating cash flow minus capital expenditure, below zero): ${burned.map((n) => `${n.name} **${amount(n.v!.value)}**`).join(', ')}.`
    : `**No cash burn in any of the ${count(known.length)} shown**: free cash flow (operating cash flow minus capital expenditure) was positive in each, cash generated rather than used.`);
  // (After a bold yes or no, the rest reads on in plain words: "**No**: no cash burn in any …".)
  const said = yesNo ? `${yesNo}${head.slice(yesNo.length).replace(/^\*\*(.+?)\*\*/, (_m, t: string) => t.charAt(0).toLowerCase() + t.slice(1))}` : head;
  const each = named.map((n) => `- ${n.name}: ${!n.v ? 'no free cash flow in the filings available' : n.v.value < 0 ? `burned **${amount(n.v.value)}** (free cash flow -${amount(n.v.value)})` : `no burn (free cash flow +${amount(n.v.value)})`}`);
  return [said, '', ...each];
}

/**
 * A table of free cash flow whose latest period burned cash ("EMBR free cash flow by quarter"): the
 * cash on hand at that period's end, cited, and the months it lasts at that burn, and at the pace of
 * the last four quarters when all four are shown, as the cash-burn answer gives them.
 */
async function runwayLines(lib: SecLibrary, company: CompanyRef, shown: Shown, sources: SourceList, amountScale: number | undefined): Promise<string[]> {
  const series = shown.values.get('freeCashFlow');
  const last = shown.periods.at(-1);
  const burned = series?.at(-1);
  if (!series || !last || !burned || burned.value >= 0) return [];
  const { scale, label } = rowUnit(metricById('freeCashFlow'), burned.unit, amountScale);
  const [money, word] = [label.split(' ')[0]!, label.split(' ').slice(1).join(' ')];
  const amount = (x: number, digits = 0) => `${money}${(Math.abs(x) / 10 ** scale).toLocaleString('en-US', { maximumFractionDigits: scale > 6 ? 2 : digits })} ${word}`;
  const name = periodLabel(last, shown.calendarYear);
  const end = `the end of ${name} (${last.end})`;
  const cash = shown.financials.value('cash', last);
  if (!cash || cash.value <= 0) return [`**Runway**: no cash and cash equivalents at ${end} in the filings, so no months of runway can be computed.`];
  const refs = async (v: MetricValue) => [...new Set(await Promise.all(v.terms.map(async (t) => { const c = await lib.cite(company, t.fact); return sources.cite(c.key, c.name, c.url); })))].join('');
  const monthly = Math.abs(burned.value) / (last.kind === 'year' ? 12 : 3);
  // The last four quarters, when the table shows all four in a row.
  const four = last.kind === 'quarter' && shown.periods.length >= 4 ? shown.periods.slice(-4) : null;
  const before = last.kind === 'quarter' ? shown.financials.calendar.shiftQuarter(last, -3) : null;
  const twelve = four && before && four[0]!.end === before.end && series.slice(-4).every((v) => v) ? series.slice(-4).reduce((t, v) => t + v!.value, 0) : null;
  const atTwelve = twelve !== null && twelve < 0 ? `, or about ${(cash.value / (Math.abs(twelve) / 12)).toFixed(1)} months at the pace of the last four quarters (${amount(twelve)} burned, ${amount(Math.abs(twelve) / 12, 1)} a month)` : '';
  return [`**Cash and runway**: cash and cash equivalents at ${end} were **${amount(cash.value)}** ${await refs(cash)}; at ${name}'s burn of ${amount(burned.value)} (${amount(monthly, 1)} a month) that is a runway of about **${(cash.value / monthly).toFixed(1)} months**${atTwelve} (derived: cash over the monthly burn), if the burn held and no cash were raised; marketable securities, which I do not read, and any financing would lengthen it.`];
}

/**
 * "Vs operating cash flow" right after a table of capex: the first figure as a share of the second,
 * period by period (each column cited above its figures), and over the periods together.
 */
function againstLines(shown: Shown, asked: string): string[] {
  if (!AGAINST_FIGURE.test(asked) || shown.reported.length !== 2) return [];
  const [a, b] = shown.reported.map((id) => metricById(id));
  if (a!.unit !== 'money' || b!.unit !== 'money' || a!.type !== b!.type) return [];
  const [xs, ys] = [shown.values.get(a!.id)!, shown.values.get(b!.id)!];
  const pairs = shown.periods.map((p, i) => ({ name: periodLabel(p, shown.calendarYear), x: xs[i] ?? null, y: ys[i] ?? null }));
  const known = pairs.filter((q) => q.x && q.y && q.y.value > 0);
  if (!known.length) return [];
  const pct = (x: number, y: number) => `${((100 * x) / y).toFixed(1)}%`;
  const each = known.map((q) => `${q.name} ${pct(q.x!.value, q.y!.value)}`).join(', ');
  const together = known.length > 1 && a!.type === 'duration' ? `; over the ${known.length} together, **${pct(known.reduce((t, q) => t + q.x!.value, 0), known.reduce((t, q) => t + q.y!.value, 0))}**` : '';
  return [`**${a!.label.charAt(0).toUpperCase()}${a!.label.slice(1)} as a share of ${b!.label}** (derived, each period's figures cited in its column): ${each}${together}.`];
}

/** "**yes**, more than 50%", "**no**, not at least 5%". */
function verdict(rate: number, { above, percent, said }: Threshold): string {
  const inclusive = said.startsWith('at ') || said === 'doubled';
  const holds = above ? rate > percent || (inclusive && rate === percent) : rate < percent || (inclusive && rate === percent);
  return `**${holds ? 'yes' : 'no'}**, ${holds ? '' : 'not '}${said}`;
}

const withBlank = (lines: string[]) => (lines.length ? [...lines, ''] : lines);

/** What the lines above a table are computed from: the periods shown, their figures, and the filings for the periods before them. */
/** "Over the period", "over the whole span", "from first to last": the change across every period shown. */
const OVER_THE_PERIOD = /\bover\s+(?:the|this|that|those|these)\s+(?:whole\s+|entire\s+|full\s+)?(?:period|span|time|stretch|window|quarters|years)\b|\b(?:across|over)\s+the\s+(?:whole|entire|full)\b|\bfrom\s+(?:the\s+)?first\s+to\s+(?:the\s+)?last\b|\bover\s+(?:the\s+)?(?:whole|entire)\s+(?:period|span|table)\b/i;

/** Companies' tables asked to be set against each other ("compare", "who grew faster?", "which is improving more?"). */
const COMPANIES_WEIGHED = /\b(?:compare[sd]?|comparison|vs\.?|versus|which|who|whose|who's)\b/i;

/**
 * Each figure's change over the periods shown, company against company, the larger first: a margin's in
 * points, an amount's in percent. Only from the first period shown to the last of a span of years or of
 * quarters named by their ends (between the latest quarters it would set different seasons against each other).
 */
function companiesWeighed(tabled: { company: CompanyRef; shown: Shown }[], overPeriod = false): string[] {
  if (tabled.length < 2) return [];
  const first = tabled[0]!.shown;
  // (Asked "over the period", the latest quarters too: first to last, the seasons said.)
  if (!(first.span.kind === 'year' || first.span.quarters !== undefined || overPeriod)) return [];
  const out: string[] = [];
  for (const m of first.reported) {
    const metric = metricById(m);
    const share = first.revenue ? shareLabel(metric) : null;
    const moves = tabled.flatMap(({ company, shown }) => {
      const series = shown.values.get(m);
      const [a, b] = [series?.[0], series?.at(-1)];
      if (!series || series.length < 2 || !a || !b) return [];
      const span = `${periodLabel(shown.periods[0]!, shown.calendarYear)} to ${periodLabel(shown.periods.at(-1)!, shown.calendarYear)}`;
      const [ra, rb] = [shown.revenue?.[0], shown.revenue?.at(-1)];
      if (share && ra && rb && ra.value > 0 && rb.value > 0) {
        const [ma, mb] = [(100 * a.value) / ra.value, (100 * b.value) / rb.value];
        return [{ company, by: mb - ma, said: `${mb - ma >= 0 ? '+' : '−'}${Math.abs(mb - ma).toFixed(1)} percentage points (${ma.toFixed(1)}% → ${mb.toFixed(1)}%, ${span})` }];
      }
      if (share || a.value <= 0) return [];
      return [{ company, by: b.value / a.value - 1, said: `${pct(b.value / a.value - 1)} (${span})` }];
    });
    if (moves.length < 2) continue;
    const ranked = [...moves].sort((x, y) => y.by - x.by);
    const name = capitalise(share ? (share.margin ? share.label : `${metric.label} as a share of revenue`) : metric.label);
    // ("Which grew faster over the period?": which, first, then each company's change.)
    const lead = overPeriod && !share && ranked[0]!.by !== ranked[1]!.by ? `**${shortName(ranked[0]!.company.name)}** grew ${metric.label} faster over the period shown. ` : '';
    out.push(`${lead}**${name}**, change over the periods shown, largest first: ${ranked.map((r) => `**${shortName(r.company.name)}** ${r.said}`).join(', ')} (each company over its own fiscal ${first.span.kind === 'year' ? 'years' : 'quarters'}).`);
  }
  // The first and last of quarters not a year apart are different seasons.
  const seasons = first.span.kind === 'quarter' && (first.periods.length - 1) % 4 !== 0;
  if (overPeriod && out.length && seasons) out.push('The first and last quarters shown are different quarters of the year, so seasons weigh on these changes; each table gives every quarter\'s year-over-year growth and the four quarters\' against the four before.');
  return out;
}

interface Shown {
  span: Span;
  reported: MetricId[];
  values: Map<MetricId, (MetricValue | null)[]>;
  /** Revenue of each period, when a margin or share of revenue was asked for. */
  revenue: (MetricValue | null)[] | null;
  periods: FiscalPeriod[];
  calendarYear: boolean;
  financials: CompanyFinancials;
}

/** The period `back` quarters (of a quarter) or fiscal years (of a year) before `p`, by its fiscal identity. */
function periodBefore(financials: CompanyFinancials, p: FiscalPeriod, back: number): FiscalPeriod | null {
  return p.kind === 'quarter' ? financials.calendar.shiftQuarter(p, -back) : (financials.calendar.years.find((y) => y.fy === p.fy - back) ?? null);
}

/**
 * The growth of `now` over `prior` (a fraction): the change over the size of the earlier figure, so
 * a loss or a burn that widens (-40 to -44) is negative growth (-10%) and one that narrows positive.
 * Null only when the earlier figure is zero (no size to measure against).
 */
export function growthOver(now: number, prior: number): number | null {
  return prior === 0 ? null : (now - prior) / Math.abs(prior);
}

/**
 * Each period's growth over the one `back` periods before it (a fraction, see growthOver; null
 * when either has no figure, or the earlier one is zero). The period by its fiscal identity, not
 * its place in the list: a quarter missing from the filings must not make the one before it pass
 * for "a year ago".
 */
function growthRates(shown: Shown, m: MetricId, back: number): (number | null)[] {
  const series = shown.values.get(m)!;
  return shown.periods.map((p, i) => {
    const now = series[i];
    const before = periodBefore(shown.financials, p, back);
    const prior = before ? shown.financials.value(m, before) : null;
    return now && prior ? growthOver(now.value, prior.value) : null;
  });
}

/** Whether a growth row of the table is measured from a figure below zero (said under the table). */
function growthFromNegative(shown: Shown, m: MetricId, back: number): boolean {
  const series = shown.values.get(m)!;
  return shown.periods.some((p, i) => {
    const before = periodBefore(shown.financials, p, back);
    const prior = before ? shown.financials.value(m, before) : null;
    return !!series[i] && !!prior && prior.value < 0;
  });
}

/** A flow's last four quarters shown, added up, and the four before them; null for balances, per-share figures, or a quarter without a figure. */
function trailingYears(shown: Shown, m: MetricId): { now: number; before: number; to: FiscalPeriod } | null {
  const metric = metricById(m);
  const last = shown.periods.at(-1);
  if (metric.type !== 'duration' || metric.averaged || metric.unit !== 'money' || last?.kind !== 'quarter') return null;
  const values = Array.from({ length: 8 }, (_, k) => {
    const q = shown.financials.calendar.shiftQuarter(last, -k);
    return q ? shown.financials.value(m, q) : null;
  });
  if (values.some((v) => !v)) return null;
  const sum = (vs: (MetricValue | null)[]) => vs.reduce((total, v) => total + v!.value, 0);
  return { now: sum(values.slice(0, 4)), before: sum(values.slice(4)), to: last };
}

/**
 * What the question asked of the periods, said before the table, per figure: the change from the
 * first period shown to the last (with the margin's, when a margin was asked), its compound rate
 * a year, and the average; the average growth; the periods with the highest and lowest figure or
 * growth. Between the latest quarters, a change is the latest quarter's over the same quarter a
 * year before and the last four quarters' over the four before: from the first column to the last
 * it would compare different seasons. A range of quarters asked for by its ends is changed end to end.
 */
function summaryLines(shown: Shown): string[] {
  const { span, reported, values, revenue, periods, calendarYear } = shown;
  const asked = span.summaries ?? [];
  const first = periods[0]!;
  const last = periods.at(-1)!;
  const label = (p: FiscalPeriod) => periodLabel(p, calendarYear);
  const endToEnd = span.kind === 'year' || span.quarters !== undefined;
  const change = asked.includes('change') && periods.length >= 2 && endToEnd;
  const latestChange = asked.includes('change') && !endToEnd;
  const average = asked.includes('average') && periods.length >= 2;
  const averageGrowth = asked.includes('averageGrowth');
  const extremes = (asked.includes('extremes') || asked.includes('fastest')) && periods.length >= 2;
  if (!change && !latestChange && !average && !averageGrowth && !extremes) return [];
  // Years from the first end to the last: fiscal years apart, or quarters apart over four.
  const years = first.kind === 'quarter' && last.kind === 'quarter' ? (last.fy * 4 + last.q - (first.fy * 4 + first.q)) / 4 : last.fy - first.fy;
  const yearly = span.kind === 'quarter' ? 4 : 1;
  const out: string[] = [];
  for (const m of reported) {
    const metric = metricById(m);
    const series = values.get(m)!;
    const unit = series.find((v) => v)?.unit ?? 'USD';
    const scale = metric.unit === 'perShare' ? null : 6;
    const amount = (x: number) => formatAmount(x, unit, metric, scale);
    const share = shareLabel(metric);
    const margins = share && revenue ? series.map((v, i) => (v && revenue[i] && revenue[i].value > 0 ? (100 * v.value) / revenue[i].value : null)) : null;
    const parts: string[] = [];
    // A margin asked for leads with the margin's change, in points; the figure's follows.
    let name = capitalise(metric.label);
    if (change) {
      const [a, b] = [series[0], series.at(-1)];
      if (!a || !b) parts.push(`no change from ${label(first)} to ${label(last)} can be given: ${label(a ? last : first)} has no figure`);
      else {
        let said = `${amount(a.value)} → ${amount(b.value)}, **${formatChange(b.value, a.value, unit, metric, scale)}**`;
        if (a.value === 0) said += ' (no percentage: the first figure is zero)';
        else {
          if (asked.includes('cagr') && years > 0 && a.value > 0 && b.value > 0) said += `, **${pct((b.value / a.value) ** (1 / years) - 1).replace('−', '-')} a year** compounded over ${Number(years.toFixed(2))} year${years === 1 ? '' : 's'}`;
          if (span.threshold) said += `: ${verdict(100 * growthOver(b.value, a.value)!, span.threshold)}`;
        }
        const [ra, rb] = [revenue?.[0], revenue?.at(-1)];
        if (share && ra && rb && ra.value > 0 && rb.value > 0) {
          const [ma, mb] = [(100 * a.value) / ra.value, (100 * b.value) / rb.value];
          const points = `${ma.toFixed(1)}% → ${mb.toFixed(1)}%, **${mb - ma >= 0 ? '+' : '−'}${Math.abs(mb - ma).toFixed(1)} percentage points**`;
          said = `${points} (${metric.label} ${said.replace(/\*\*/g, '')})`;
          name = capitalise(share.margin ? share.label : `${metric.label} as a share of revenue`);
        }
        parts.push(`${label(first)} to ${label(last)}: ${said}`);
      }
    }
    // A margin asked for ("net margin trend over the last 4 quarters"): the latest quarter's margin against the same quarter's
    // a year before, and the four quarters' against the four before, in points, ahead of the figure's own growth.
    if (latestChange && share && revenue) {
      const before = periodBefore(shown.financials, last, 4);
      const [v, r] = [series.at(-1), revenue.at(-1)];
      const [vb, rb] = before ? [shown.financials.value(m, before), shown.financials.value('revenue', before)] : [null, null];
      const points = (d: number) => `**${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)} percentage points**`;
      if (before && v && r && vb && rb && r.value > 0 && rb.value > 0) {
        const [now, then] = [(100 * v.value) / r.value, (100 * vb.value) / rb.value];
        name = capitalise(share.margin ? share.label : `${metric.label} as a share of revenue`);
        parts.push(`${label(last)}, the latest, ${now.toFixed(1)}% against ${then.toFixed(1)}% in ${label(before)}, a year before, ${points(now - then)}`);
        const [tv, tr] = [trailingYears(shown, m), trailingYears(shown, 'revenue')];
        if (tv && tr && tr.now > 0 && tr.before > 0) {
          const [a, b] = [(100 * tv.now) / tr.now, (100 * tv.before) / tr.before];
          parts.push(`the four quarters to ${label(tv.to)} together ${a.toFixed(1)}% against ${b.toFixed(1)}% for the four before, ${points(a - b)}`);
        }
      }
    }
    if (latestChange && metric.unit !== 'shares') {
      // (After a margin's change, the figure's own growth says whose it is.)
      const of = parts.length ? `${metric.label}, ` : '';
      const latest = growthRates(shown, m, 4).at(-1);
      parts.push(latest === null || latest === undefined ? `${of}${label(last)} has no figure a year earlier to grow from` : `${of}${label(last)}, the latest, **${pct(latest)}** year over year`);
      const trailing = trailingYears(shown, m);
      const trailingGrowth = trailing ? growthOver(trailing.now, trailing.before) : null;
      if (trailing && trailingGrowth !== null) parts.push(`${of ? `${metric.label} over ` : ''}the four quarters to ${label(trailing.to)} together ${amount(trailing.now)}, **${pct(trailingGrowth)}** over the four before`);
    }
    if (average) {
      const gaps = periods.filter((_p, i) => !series[i]);
      if (gaps.length) parts.push(`no average: ${gaps.map(label).join(', ')} ${gaps.length > 1 ? 'have' : 'has'} no figure`);
      else {
        const mean = series.reduce((sum, v) => sum + v!.value, 0) / series.length;
        const of = metric.type === 'instant' ? `of the ${series.length} period-end balances` : `per ${span.kind === 'quarter' ? 'quarter' : 'fiscal year'} over the ${series.length} shown`;
        // Per-share figures rest on each period's share count: their plain mean, to the cent.
        const shownMean = metric.unit === 'perShare' ? Math.round(mean * 100) / 100 : Math.abs(mean) >= 1e8 ? Math.round(mean / 1e6) * 1e6 : Math.round(mean / 1e4) * 1e4;
        // A margin asked for: its average is the answer, the figure's average after it.
        const shares = margins && share && margins.every((x): x is number => x !== null) ? margins : null;
        if (shares && share) {
          const together = (100 * series.reduce((sum, v) => sum + v!.value, 0)) / revenue!.reduce((sum, v) => sum + v!.value, 0);
          name = capitalise(share.margin ? share.label : `${metric.label} as a share of revenue`);
          parts.push(`average ${of}: **${(shares.reduce((sum, x) => sum + x, 0) / shares.length).toFixed(1)}%** (the plain mean of the ${shares.length} margins; ${together.toFixed(1)}% of their revenue taken together); ${metric.label} averaged ${amount(shownMean)}`);
        } else parts.push(`average ${of}: **${amount(shownMean)}**`);
      }
    }
    if (averageGrowth && metric.unit !== 'shares') {
      const rates = growthRates(shown, m, yearly);
      const known = rates.filter((r): r is number => r !== null);
      const what = span.kind === 'quarter' ? 'quarters' : 'fiscal years';
      if (!known.length) parts.push(`no average growth: none of the ${what} shown has a figure a year earlier to grow from`);
      else {
        const mean = known.reduce((sum, r) => sum + r, 0) / known.length;
        const over = known.length === rates.length ? `the ${rates.length} ${what} shown` : `the ${known.length} of the ${rates.length} ${what} shown with a figure a year earlier`;
        let said = `average year-over-year growth over ${over}: **${pct(mean)}** (from ${pct(Math.min(...known))} to ${pct(Math.max(...known))})`;
        const [a, b] = [series[0], series.at(-1)];
        if (span.kind === 'year' && years > 0 && a && b && a.value > 0 && b.value > 0) said += `; compounded from ${label(first)} to ${label(last)}, **${pct((b.value / a.value) ** (1 / years) - 1)} a year**`;
        parts.push(said);
      }
    }
    if (extremes) {
      const fastest = asked.includes('fastest');
      if (fastest && metric.unit === 'shares') continue;
      const ranked = fastest ? growthRates(shown, m, yearly) : (margins ?? series.map((v) => v?.value ?? null));
      const said = (x: number) => (fastest ? pct(x) : margins ? `${x.toFixed(1)}%` : amount(x));
      const known = ranked.flatMap((x, i) => (x === null ? [] : [{ x, p: periods[i]! }]));
      if (margins && !fastest && share) name = capitalise(share.margin ? share.label : `${metric.label} as a share of revenue`);
      if (known.length < 2) parts.push(`too few ${span.kind === 'quarter' ? 'quarters' : 'fiscal years'} with ${fastest ? 'growth' : 'a figure'} to compare`);
      else {
        const top = known.reduce((best, k) => (k.x > best.x ? k : best));
        const bottom = known.reduce((worst, k) => (k.x < worst.x ? k : worst));
        const [high, low] = fastest ? ['fastest year-over-year growth', 'slowest'] : ['highest', 'lowest'];
        // Apart by percentage points of a margin or a growth rate; by an amount, and a share of the lowest, otherwise.
        const gap = top.x - bottom.x;
        const apart = !asked.includes('apart') ? '' : fastest || margins ? `, ${(fastest ? gap * 100 : gap).toFixed(1)} percentage points apart` : `, ${amount(gap)} apart${bottom.x > 0 ? ` (the highest ${((100 * gap) / bottom.x).toFixed(1)}% above the lowest)` : ''}`;
        parts.push(`${high} in **${label(top.p)}** (${said(top.x)}), ${low} in **${label(bottom.p)}** (${said(bottom.x)}), of the ${known.length} shown${apart}`);
      }
    }
    if (parts.length) out.push(`**${name}**, ${parts.join('; ')}.`);
  }
  return out;
}

/**
 * A 14-week quarter or 53-week year among the columns, or behind their growth rows (the quarter a
 * year or a quarter before, the year before): its amounts hold an extra week, and so does growth
 * to or from it.
 */
function extraWeekNote(shown: FiscalPeriod[], calendar: FiscalCalendar): string | null {
  const label = (p: FiscalPeriod) => periodLabel(p, false);
  const inTable = shown.filter((p) => extraWeekLength(p));
  const bases = new Map<string, { base: FiscalPeriod; from: FiscalPeriod[] }>();
  for (const p of shown) {
    const before = p.kind === 'quarter' ? [calendar.shiftQuarter(p, -4), calendar.shiftQuarter(p, -1)] : [calendar.years.find((y) => y.fy === p.fy - 1)];
    for (const base of before) {
      if (!base || !extraWeekLength(base) || shown.some((s) => s.end === base.end)) continue;
      const entry = bases.get(base.end) ?? { base, from: [] };
      entry.from.push(p);
      bases.set(base.end, entry);
    }
  }
  const parts: string[] = [];
  if (inTable.length) {
    const them = inTable.length > 1 ? 'them' : 'it';
    parts.push(`${inTable.map((p) => `${label(p)} had ${extraWeekLength(p)} weeks`).join(', ')}, one more than usual: amounts over ${them} include an extra week, which lifts growth to ${them} and lowers growth from ${them}.`);
  }
  for (const { base, from } of bases.values()) {
    parts.push(`${label(base)}, not shown, had ${extraWeekLength(base)} weeks, one more than usual, which lowers the growth measured from it (${from.map(label).join(', ')}).`);
  }
  return parts.length ? parts.join(' ') : null;
}

type Totals = { of: Map<MetricId, number>; revenue: number | null; notAdded: { metric: MetricId; why: string }[] } | { not: string };

/**
 * The sums of the periods shown, per figure that adds up over time: every period must have it.
 * Balances (at a date), share counts and per-share figures do not add up, and are said so.
 */
function totals(shown: FiscalPeriod[], values: Map<MetricId, (MetricValue | null)[]>, revenue: (MetricValue | null)[] | null): Totals {
  const of = new Map<MetricId, number>();
  const notAdded: { metric: MetricId; why: string }[] = [];
  for (const [m, series] of values) {
    const metric = metricById(m);
    if (metric.type === 'instant') notAdded.push({ metric: m, why: 'is a balance at each period\'s end, which does not add up over time' });
    else if (metric.unit === 'perShare') notAdded.push({ metric: m, why: 'is per share, and per-share figures of different periods rest on different share counts' });
    else if (metric.unit === 'shares' || metric.averaged) notAdded.push({ metric: m, why: 'is a share count, which does not add up across periods' });
    else if (series.some((v) => !v)) notAdded.push({ metric: m, why: `has no figure for ${shown.filter((_p, i) => !series[i]).map((p) => periodLabel(p, false)).join(', ')}` });
    else of.set(m, series.reduce((sum, v) => sum + v!.value, 0));
  }
  const revenueSum = revenue && revenue.every((v) => v) ? revenue.reduce((sum, v) => sum + v!.value, 0) : null;
  return { of, revenue: revenueSum, notAdded };
}

/** "Total: the sum of the 2 fiscal years shown (FY2023 to FY2024); net income is not added: …". */
function totalNote(total: Totals, shown: FiscalPeriod[], reported: MetricId[], calendarYear: boolean): string {
  if ('not' in total) return `Total: ${total.not}.`;
  const which = `${shown.length} ${shown[0]!.kind === 'quarter' ? 'quarters' : 'fiscal years'} shown (${shown.map((p) => periodLabel(p, calendarYear)).join(', ')})`;
  const added = reported.filter((m) => total.of.has(m)).map((m) => metricById(m).label);
  const skipped = total.notAdded.map(({ metric, why }) => `${metricById(metric).label} ${why}, so it has no total`);
  return [`Total: ${added.length ? `${added.join(', ')} added up over the ${which}` : `nothing added up over the ${which}`}.`, ...skipped.map((x) => `${capitalise(x)}.`)].join(' ');
}

/** The fiscal periods between the first and last shown that have no column. */
function missingBetween(shown: readonly FiscalPeriod[], calendar: FiscalCalendar): FiscalPeriod[] {
  const first = shown[0]!;
  const last = shown.at(-1)!;
  const has = new Set(shown.map((p) => (p.kind === 'quarter' ? `${p.fy}Q${p.q}` : `${p.fy}`)));
  const out: FiscalPeriod[] = [];
  if (first.kind === 'quarter' && last.kind === 'quarter') {
    const span = (last.fy - first.fy) * 4 + (last.q - first.q);
    for (let i = 1; i < span; i++) {
      const index = first.fy * 4 + first.q - 1 + i;
      const [fy, q] = [Math.floor(index / 4), (index % 4) + 1];
      if (!has.has(`${fy}Q${q}`)) out.push(calendar.quarter(fy, q) ?? { kind: 'quarter', fy, q: q as 1 | 2 | 3 | 4, start: '', end: '' });
    }
  } else {
    for (let fy = first.fy + 1; fy < last.fy; fy++) if (!has.has(`${fy}`)) out.push(calendar.years.find((y) => y.fy === fy) ?? { kind: 'year', fy, start: '', end: '' });
  }
  return out;
}

/**
 * Whether a question can be tabulated: a company named was found, none is ambiguous (that is asked
 * back), and it does not ask only for figures not known ("EBITDA"). A company not found at all
 * ("Apple and Tesla" where Tesla is not covered) is said so under the tables of the others.
 */
export function tabulable(question: SecQuestion | null): question is SecQuestion {
  const found = question?.companies.filter((c) => c.status === 'found') ?? [];
  return Boolean(question && found.length && !question.companies.some((c) => c.status === 'ambiguous') && (question.metrics.length || !question.unknownFigures.length));
}

/** The tables for a question `tabulable` accepted: progress, text, citations, done. */
export async function* answerTables(lib: SecLibrary, question: SecQuestion, span: Span): AsyncGenerator<AgentEvent> {
  const found = question.companies.flatMap((c) => (c.status === 'found' ? [c] : []));
  const metrics = question.metrics.length ? question.metrics : (['revenue', 'netIncome'] as MetricId[]);
  const sources = new SourceList();
  const progress: string[] = [];
  // Figures it does not know are said first, never silently left out of the table ("revenue and EBITDA");
  // what a figure means, when asked ("whats free cash flow mean?"), before its table.
  const meaning = meaningsOf(question);
  const lines: string[] = [...(meaning ? [meaning, ''] : []), ...(question.unknownFigures.length ? [...question.unknownFigures.map(unknownFigureText), ''] : [])];
  const tabled: { company: CompanyRef; shown: Shown }[] = [];
  const tables: string[] = [];
  for (const mention of found.slice(0, MAX_COMPANIES)) {
    const own = question.metricsByCompany?.find((m) => m.cik === mention.company.cik)?.metrics ?? metrics;
    const burn = Boolean(question.burn || BURN_ASKED.test(question.text));
    tables.push(...(await table(lib, mention.company, own, span, question.margin, (question.ratios ?? []).map(ratioById), sources, (m) => progress.push(m), question.scale, (company, shown) => tabled.push({ company, shown }), burn, question.text)));
  }
  // "Compare Apple and Microsoft gross margins over 3 years", "who grew faster?": the companies weighed first, their tables after.
  // ("Which grew faster over the period?": from the first period shown to the last, whatever the span.)
  const weighed = COMPANIES_WEIGHED.test(question.text) ? companiesWeighed(tabled, OVER_THE_PERIOD.test(question.text)) : [];
  lines.push(...(weighed.length ? [...weighed, ''] : []), ...tables);
  for (const message of progress) yield { type: 'progress', message };
  if (found.length > MAX_COMPANIES) lines.push(`Showing the first ${MAX_COMPANIES} companies; ask for the others separately.`, '');
  const snapshot = lib.origin.mode === 'snapshot';
  for (const c of question.companies) {
    if (c.status !== 'unknown') continue;
    const among = snapshot ? 'in this snapshot of SEC data (a snapshot has only the companies recorded in it: ask “which companies do you cover?”)' : 'among SEC filers';
    lines.push(`I could not find a company called "${quoteCaller(c.text)}" ${among}, so there is no table for it.`, '');
  }
  const note = lib.dataNote();
  if (note) lines.push(note);
  const text = `${lines.join('\n').trim()}\n`;
  for (const chunk of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) yield { type: 'text', delta: chunk };
  for (const citation of sources.list) yield { type: 'citation', citation };
  yield { type: 'done' };
}
