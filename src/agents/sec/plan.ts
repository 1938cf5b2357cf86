import type { FiscalPeriod, FiscalQuarter } from '../../data/sec/calendar.js';
import { daysBetween } from '../../data/sec/dates.js';
import { roundLike, type CompanyFinancials, type MetricValue } from '../../data/sec/facts.js';
import type { CompanyProfile, SecLibrary } from '../../data/sec/library.js';
import { metricById, type MetricDef, type MetricId } from '../../data/sec/metrics.js';
import { KEY_METRICS, type CompanyMention, type Comparison, type PeriodSpec, type SecQuestion } from '../../data/sec/question.js';
import { calendarQuarter, calendarQuarters, describeSpec, nearestQuarter, priorPeriod, resolvePeriod } from '../../data/sec/resolve.js';
import type { CompanyRef } from '../../data/sec/types.js';
import { MARGIN_NAMES } from '../../data/sec/ratios.js';
import { ratioFigures, type RatioFigure } from './ratios.js';

export interface Compared {
  /** 'versus': the earlier period the question named. */
  kind: 'yoy' | 'qoq' | 'versus';
  period: FiscalPeriod | null;
  value: MetricValue | null;
}

export type FigureResult =
  | { kind: 'value'; period: FiscalPeriod; value: MetricValue; note: string | null; compared: Compared | null }
  /** The period exists for the company, but the metric has no figure for it. */
  | { kind: 'no-value'; period: FiscalPeriod; note: string | null }
  /** The company's filings do not cover the period asked about. */
  | { kind: 'no-period'; wanted: string }
  /** The company never reports the metric in its XBRL data. */
  | { kind: 'not-reported' }
  /**
   * A flow over a calendar year for a company whose fiscal year is another: the four fiscal
   * quarters ending in it (calendar Q1 to Q4), and their sum; `total` null when one has no figure.
   */
  | { kind: 'calendar-year'; year: number; quarters: CalendarQuarterValue[]; total: MetricValue | null; compared?: CalendarCompared };

/**
 * What a calendar year is compared with: another calendar year (the one before, or one named;
 * `total` null when it cannot be summed), or a fiscal year named beside it (`fiscal`).
 */
export interface CalendarCompared {
  year: number;
  total: MetricValue | null;
  fiscal?: FiscalPeriod;
}

export interface CalendarQuarterValue {
  calendarQuarter: number;
  /** Null when the filings have no fiscal quarter ending in that calendar quarter. */
  quarter: FiscalQuarter | null;
  value: MetricValue | null;
}

export interface Figure {
  company: CompanyRef;
  fin: CompanyFinancials;
  metric: MetricDef;
  result: FigureResult;
  /** When a margin or share of revenue was asked for: revenue of the same period (null when none was reported), the denominator. */
  revenue?: MetricValue | null;
  /** The same, for the compared period (a margin asked for with a year-over-year or quarterly change). */
  comparedRevenue?: MetricValue | null;
  /** Quarter over quarter, when it was asked for beside year over year ("yoy and qoq"): the primary comparison is `result.compared`. */
  alsoCompared?: Compared;
  /** When trailing twelve months were asked for: the four quarters to the figure's quarter, oldest first (null where one has no figure). */
  ttm?: { quarter: FiscalPeriod; value: MetricValue | null }[];
  /** The same four quarters a year (or, asked quarter over quarter, a quarter) earlier, when a change was asked for: TTM growth is theirs, not the quarter's. */
  ttmPrior?: { quarter: FiscalPeriod; value: MetricValue | null }[];
  /** Revenue of the `ttm` quarters, when a margin was asked for with TTM: the twelve months' margin is theirs. */
  ttmRevenue?: { quarter: FiscalPeriod; value: MetricValue | null }[];
  /** Revenue of the `ttmPrior` quarters, when a margin was asked for with TTM and a change: the earlier twelve months' margin is theirs. */
  ttmPriorRevenue?: { quarter: FiscalPeriod; value: MetricValue | null }[];
  /** When trailing twelve months were asked for but are not a sum of quarters for this figure or period: why. */
  ttmNot?: string;
  /**
   * "Annualize that EPS": what a quarter's per-share figure times four is set against, the four
   * quarters to it (the trailing twelve months) and the fiscal year it belongs to (or the last one
   * before it), each null where the filings have no figure.
   */
  annualBasis?: { ttm: { quarter: FiscalPeriod; value: MetricValue | null }[]; year: { period: FiscalPeriod; value: MetricValue } | null };
  /**
   * Cash burn or runway asked of free cash flow: the four quarters to the figure's quarter (the
   * twelve months' burn; empty for a year or months), and the cash balance at the period's end
   * (null when none is filed), which the burn runs down.
   */
  burnBasis?: { ttm: { quarter: FiscalPeriod; value: MetricValue | null }[]; cash: MetricValue | null };
  /** When the period asked has no figure: the figure of the same kind of period nearest in time to it, given instead of nothing. */
  nearest?: MetricValue;
}

/**
 * The figure of the same kind of period (quarter or year) nearest in time to one asked for that has
 * none: by the period's end when it is known, else by the year the question named.
 */
function nearestFigure(fin: CompanyFinancials, metric: MetricId, result: FigureResult, spec: PeriodSpec | null): MetricValue | undefined {
  let kind: 'quarter' | 'year';
  let target: string;
  if (result.kind === 'no-value') {
    if (result.period.kind === 'span') return undefined;
    kind = result.period.kind;
    target = result.period.end;
  } else if (result.kind === 'no-period') {
    const year = /\b((?:19|20)\d\d)\b/.exec(result.wanted)?.[1];
    if (!year) return undefined;
    kind = spec?.kind === 'fiscalYear' || spec?.kind === 'calendarYear' || /\byear\b/i.test(result.wanted) ? 'year' : 'quarter';
    const yearEnd = fin.calendar.years.at(-1)?.end.slice(4) ?? '-12-31';
    target = kind === 'year' ? `${year}${yearEnd}` : `${year}-06-30`;
  } else return undefined;
  const series = fin.series(metric, kind);
  let best: MetricValue | undefined;
  for (const v of series) if (!best || Math.abs(daysBetween(v.period.end, target)) < Math.abs(daysBetween(best.period.end, target))) best = v;
  return best;
}

/** "Annualize that", "run rate", "times four": a quarter's figure as a year's pace. */
export const ANNUALIZE_ASKED = /\bannuali[sz](?:e|ed|ing)\b|\brun[- ]?rate\b|\bannual(?:i[sz]ed)? pace\b|\btimes (?:4|four)\b|\bx ?4\b/i;

const MARGINS = MARGIN_NAMES;

/**
 * What a figure as a share of revenue is called: the margins by their names, other amounts over a
 * period (R&D, capex, …) by their own; null for revenue itself, balances, per-share figures and counts.
 */
export function shareLabel(metric: MetricDef): { label: string; margin: boolean } | null {
  const margin = MARGINS[metric.id];
  if (margin) return { label: margin, margin: true };
  return metric.unit === 'money' && metric.type === 'duration' && metric.id !== 'revenue' ? { label: metric.label, margin: false } : null;
}

/** The same metric for another company's quarter nearest in time, when fiscal calendars differ. */
export interface CrossCalendar {
  company: CompanyRef;
  fin: CompanyFinancials;
  metric: MetricDef;
  reference: { company: CompanyRef; fin: CompanyFinancials; period: FiscalPeriod };
  period: FiscalPeriod;
  value: MetricValue | null;
  /** That period's revenue, when a margin or share of revenue was asked for. */
  revenue?: MetricValue | null;
  /**
   * Why it is given: a fiscal label names different dates for two companies (the default), the
   * latest figures end at different dates, or a quarter said without "fiscal" is also a calendar
   * quarter, another of the company's fiscal quarters.
   */
  reason?: 'latest' | 'calendarQuarter';
}

/** Advice asked of a stock ("should I buy it?", "is AAPL overvalued?", "which is the riskier buy?"): none is given, only figures. */
export const ADVICE = /\b(?:best|good|top|safest) (?:stocks?|shares?|compan(?:y|ies)) to (?:buy|own|invest in)\b|\b(?:good|right|bad|best) time to (?:buy|sell|invest|get into)\b|\bshould (?:i|we|you) (?:buy|sell|short|invest|hold|own|dump)\b|\b(?:a )?(?:good|bad) (?:buy|investment|stock)\b|\bis \S+ a (?:buy|sell)\b|\b(?:buy|sell) or (?:sell|hold|buy)\b|\bworth (?:buying|investing)\b|\b(?:over|under)valued\b|\b(?:riskier|safer|less risky|more risky|better (?:buy|investment))\b|\bwhich (?:one |stock |company |of (?:them|the two|the three) )?(?:would|should|do|will) (?:you|i|we) (?:pick|choose|buy|go with|go for|recommend|invest in)\b/i;

export interface Plan {
  question: SecQuestion | null;
  figures: Figure[];
  /** Companies named but not identified (ambiguous or unknown). */
  unresolved: Exclude<CompanyMention, { status: 'found' }>[];
  /** Companies with no XBRL financial data. */
  withoutFacts: CompanyRef[];
  cross: CrossCalendar[];
  /** No figure was asked for: the key figures are shown. */
  keyFigures: boolean;
  /** Figures asked for that are not among the metrics ("EBITDA"), and the companies whose figures can be listed instead. */
  unknown: { figures: string[]; companies: { company: CompanyRef; fin: CompanyFinancials }[] };
  /** Companies taken from a typo ("Microsft"), to say so. */
  guessed: { text: string; company: CompanyRef }[];
  /** Companies beyond the most answered at once. */
  omitted: CompanyRef[];
  /** Ratios asked for, computed from the figures (which are shown too). */
  ratios: RatioFigure[];
}

/** Companies answered in one question: each costs SEC requests and filing renders. */
export const MAX_COMPANIES = 6;

/** The quarters and years a metric has figures for, in words, for "available" lists. */
export function coverage(fin: CompanyFinancials, metric: MetricId): string | null {
  const quarters = fin.series(metric, 'quarter');
  const years = fin.series(metric, 'year');
  const parts: string[] = [];
  const label = (p: FiscalPeriod) => (p.kind === 'year' ? `fiscal year ${p.fy}` : `${fin.calendar.isCalendarYear ? '' : 'fiscal '}Q${p.q} ${p.fy}`);
  if (quarters.length) parts.push(`quarters from ${label(quarters[0]!.period)} (ended ${quarters[0]!.period.end}) to ${label(quarters.at(-1)!.period)} (ended ${quarters.at(-1)!.period.end})`);
  if (years.length) parts.push(years.length === 1 ? label(years[0]!.period) : `fiscal years ${years[0]!.period.fy} to ${years.at(-1)!.period.fy}`);
  return parts.length ? parts.join(', and ') : null;
}

/**
 * A calendar year of a flow, for a company whose fiscal year is not the calendar year: the sum of
 * the four fiscal quarters ending in it, or null when that is not a sum (an average share count).
 */
function calendarYearFigure(fin: CompanyFinancials, metric: MetricDef, year: number): FigureResult | null {
  if (metric.averaged) return null;
  const quarters = calendarQuarters(fin, year).map((quarter, i) => ({ calendarQuarter: i + 1, quarter, value: quarter ? fin.value(metric.id, quarter) : null }));
  const values = quarters.map((q) => q.value);
  if (!values.every((v): v is MetricValue => v !== null)) return { kind: 'calendar-year', year, quarters, total: null };
  const total: MetricValue = {
    ...values[3]!,
    value: roundLike(values.reduce((sum, v) => sum + v.value, 0), ...values.map((v) => v.value)),
    terms: values.flatMap((v) => v.terms),
    derivation: `the sum of the four fiscal quarters ending in calendar ${year}`,
    approximate: values.some((v) => v.approximate) || metric.approximateWhenDerived === true,
    restatedFrom: null,
  };
  return { kind: 'calendar-year', year, quarters, total };
}

function calendarTotal(fin: CompanyFinancials, metric: MetricDef, year: number): MetricValue | null {
  const sum = calendarYearFigure(fin, metric, year);
  return sum?.kind === 'calendar-year' ? sum.total : null;
}

function figureFor(fin: CompanyFinancials, metricId: MetricId, spec: PeriodSpec | null, comparison: Comparison | null, versus: PeriodSpec | null): FigureResult {
  if (!fin.reports(metricId)) return { kind: 'not-reported' };
  const metric = metricById(metricId);
  if (spec?.kind === 'calendarYear' && !fin.calendar.isCalendarYear && metric.type === 'duration') {
    const sum = calendarYearFigure(fin, metric, spec.year);
    if (sum?.kind === 'calendar-year' && sum.total && comparison) {
      if (comparison === 'versus' && versus?.kind === 'fiscalYear' && versus.fy !== null) {
        const fiscal = fin.calendar.year(versus.fy);
        sum.compared = { year: versus.fy, total: fiscal ? fin.value(metricId, fiscal) : null, ...(fiscal ? { fiscal } : {}) };
      } else {
        // A calendar year has no previous quarter: a change asked for is from the calendar year before.
        const year = comparison === 'versus' && versus?.kind === 'calendarYear' ? versus.year : spec.year - 1;
        sum.compared = { year, total: calendarTotal(fin, metric, year) };
      }
    }
    if (sum) return sum;
  }
  let resolved = resolvePeriod(spec, fin, metricId);
  if (!resolved.ok) return { kind: 'no-period', wanted: resolved.wanted };
  if (resolved.period.kind === 'span' && metric.type === 'instant') {
    // A balance has no total over months: the one at their end.
    const last = fin.calendar.lastQuarter(resolved.period);
    if (!last) return { kind: 'no-period', wanted: describeSpec(spec) };
    resolved = { ok: true, period: last, note: `${metric.label} is a balance, not a total over months: the one at the end of the period, ${last.end}` };
  }
  let value = fin.value(metricId, resolved.period);
  if (!value) return { kind: 'no-value', period: resolved.period, note: resolved.note };
  let compared: Compared | null = null;
  if (comparison === 'versus' && versus) {
    const named = resolvePeriod(versus, fin, metricId);
    // A balance over months is the one at their end, as for the period itself.
    const other = named.ok && named.period.kind === 'span' && metric.type === 'instant' ? fin.calendar.lastQuarter(named.period) : named.ok ? named.period : null;
    const otherValue = other ? fin.value(metricId, other) : null;
    if (other && other.kind === resolved.period.kind && other.end === resolved.period.end) {
      // "calendar 2024 vs fiscal 2024" for a company whose fiscal year is the calendar year: one period, said so.
      const same = `${describeSpec(spec)} and ${describeSpec(versus)} are the same period for this company`;
      return { kind: 'value', period: resolved.period, value, note: resolved.note ? `${resolved.note}; ${same}` : same, compared: null };
    }
    if (other && otherValue && other.end > resolved.period.end) {
      // Named first but earlier (balances at two dates of different kinds): the later one is the answer, compared with the earlier.
      compared = { kind: 'versus', period: resolved.period, value };
      resolved = { ok: true, period: other, note: named.ok ? named.note : null };
      value = otherValue;
    } else compared = { kind: 'versus', period: other, value: otherValue };
  } else if (comparison) {
    const p = resolved.period;
    const kind = comparison === 'qoq' && p.kind !== 'year' ? 'qoq' : 'yoy';
    const prior = priorPeriod(fin, p, kind);
    compared = { kind, period: prior, value: prior ? fin.value(metricId, prior) : null };
  }
  return { kind: 'value', period: resolved.period, value, note: resolved.note, compared };
}


/**
 * Trailing twelve months to the figure's quarter (or the last quarter of its months): the four
 * quarters, to be added up. Said plainly where they do not apply: a balance, an average share
 * count, a fiscal year (twelve months already).
 */
function addTrailingYear(figure: Figure, period: FiscalPeriod, comparison: Comparison | null, margin: boolean): void {
  const { metric, fin } = figure;
  if (metric.type === 'instant') {
    figure.ttmNot = `${metric.label} is a balance at a date, not a total over months, so it has no trailing-twelve-month figure: this is the balance at the period's end`;
  } else if (metric.averaged || metric.unit === 'shares') {
    figure.ttmNot = `${metric.label} is averaged over a period, not added up across quarters, so it has no trailing-twelve-month sum`;
  } else if (period.kind === 'year') {
    figure.ttmNot = `a fiscal year is twelve months already`;
  } else {
    const last = fin.calendar.lastQuarter(period);
    if (!last) return;
    const fourTo = (shift: number) =>
      [-3, -2, -1, 0].flatMap((n) => {
        const quarter = fin.calendar.shiftQuarter(last, n + shift);
        return quarter ? [{ quarter, value: fin.value(metric.id, quarter) }] : [];
      });
    figure.ttm = fourTo(0);
    if (comparison === 'yoy' || comparison === 'qoq') figure.ttmPrior = fourTo(comparison === 'qoq' ? -1 : -4);
    if (margin && shareLabel(metric)) {
      figure.ttmRevenue = figure.ttm.map(({ quarter }) => ({ quarter, value: fin.value('revenue', quarter) }));
      if (figure.ttmPrior) figure.ttmPriorRevenue = figure.ttmPrior.map(({ quarter }) => ({ quarter, value: fin.value('revenue', quarter) }));
    }
  }
}

/** Cash burn asked: the twelve months to the quarter burned, and the cash at the period's end. */
function addBurnBasis(figure: Figure, period: FiscalPeriod): void {
  const { fin } = figure;
  const last = period.kind === 'quarter' ? period : null;
  const ttm = last
    ? [-3, -2, -1, 0].flatMap((n) => {
        const q = fin.calendar.shiftQuarter(last, n);
        return q ? [{ quarter: q as FiscalPeriod, value: fin.value('freeCashFlow', q) }] : [];
      })
    : [];
  const end = period.kind === 'year' ? period : fin.calendar.lastQuarter(period);
  figure.burnBasis = { ttm, cash: end ? fin.value('cash', end) : null };
}

/** A quarter's per-share figure annualized is set against the twelve months to it and its fiscal year (or the one before, not yet filed). */
function addAnnualBasis(figure: Figure, quarter: FiscalQuarter): void {
  const { fin, metric } = figure;
  const ttm = [-3, -2, -1, 0].flatMap((n) => {
    const q = fin.calendar.shiftQuarter(quarter, n);
    return q ? [{ quarter: q as FiscalPeriod, value: fin.value(metric.id, q) }] : [];
  });
  const years = [fin.calendar.year(quarter.fy), fin.calendar.year(quarter.fy - 1)].flatMap((y) => {
    const value = y ? fin.value(metric.id, y) : null;
    return y && value ? [{ period: y as FiscalPeriod, value }] : [];
  });
  figure.annualBasis = { ttm, year: years[0] ?? null };
}

/**
 * "The twelve months ended March 31, 2025" for a company whose fiscal year does not end then: the
 * trailing twelve months to the quarter that does (a year that ends then is that year).
 */
function twelveMonthsTo(fin: CompanyFinancials, metric: MetricId, spec: PeriodSpec | null, ttm: boolean): { spec: PeriodSpec | null; ttm: boolean } {
  if (spec?.kind !== 'ended' || spec.span !== 'year' || resolvePeriod(spec, fin, metric).ok) return { spec, ttm };
  const quarter: PeriodSpec = { ...spec, span: 'quarter' };
  // A balance is the one at that date.
  return resolvePeriod(quarter, fin, metric).ok ? { spec: quarter, ttm: ttm || metricById(metric).type === 'duration' } : { spec, ttm };
}

/** A fiscal label ("Q3 2024") means different dates for companies whose fiscal years end at different times. */
function isFiscalLabel(spec: PeriodSpec | null): boolean {
  if (!spec) return false;
  if (spec.kind === 'fiscalQuarter') return spec.fy !== null && !spec.calendar;
  if (spec.kind === 'fiscalYear') return spec.fy !== null;
  return (spec.kind === 'shift' || spec.kind === 'span') && isFiscalLabel(spec.base);
}

function yearEndsDiffer(a: CompanyFinancials, b: CompanyFinancials): boolean {
  const endA = a.calendar.years.at(-1)?.end;
  const endB = b.calendar.years.at(-1)?.end;
  if (!endA || !endB) return false;
  const offset = Math.abs(daysBetween(`2000${endA.slice(4)}`, `2000${endB.slice(4)}`));
  return Math.min(offset, 366 - offset) > 10;
}

export interface PlanHooks {
  progress(message: string): void;
}

/** Looks up everything the answer needs: the companies, their figures, and what is missing. */
export async function planAnswer(lib: SecLibrary, question: SecQuestion | null, hooks: PlanHooks): Promise<Plan> {
  const plan: Plan = { question, figures: [], unresolved: [], withoutFacts: [], cross: [], keyFigures: false, unknown: { figures: [], companies: [] }, guessed: [], omitted: [], ratios: [] };
  if (!question) return plan;
  plan.unknown.figures = question.unknownFigures;
  const found: CompanyRef[] = [];
  for (const c of question.companies) {
    if (c.status === 'found') {
      if (!found.some((f) => f.cik === c.company.cik)) found.push(c.company);
      if (c.fuzzy) plan.guessed.push({ text: c.text, company: c.company });
    } else plan.unresolved.push(c);
  }
  if (!found.length) return plan;
  plan.omitted = found.splice(MAX_COMPANIES);
  // The key figures answer a question about the company in general, never one about a figure not known ("Apple EBITDA").
  // ("Should I buy it?" after a figure: the key figures, not that figure again.)
  plan.keyFigures = (question.metrics.length === 0 || (!question.stated.metrics && ADVICE.test(question.text))) && question.unknownFigures.length === 0;
  const metrics = plan.keyFigures ? [...KEY_METRICS] : question.metrics;
  hooks.progress(`Reading XBRL company facts for ${found.map((c) => c.ticker || c.name).join(', ')}`);
  const profiles = await Promise.all(found.map((c) => lib.profile(c)));
  // (A turn with no figure known, "and apple closest date", has no period to move.)
  const sameDate = question.sameDateAs && metrics.length ? await endOf(lib, question.sameDateAs, metrics[0]!) : null;
  for (const profile of profiles) {
    if (!profile.financials) {
      plan.withoutFacts.push(profile.company);
      continue;
    }
    if (plan.unknown.figures.length) plan.unknown.companies.push({ company: profile.company, fin: profile.financials });
    const own = question.metricsByCompany?.find((m) => m.cik === profile.company.cik)?.metrics ?? metrics;
    for (const metricId of own) {
      const fin = profile.financials;
      // Each company with its own period when the question gave them so.
      // "At the same date": the period ending on the date the one discussed ended for its company.
      const asked = (sameDate && { kind: 'ended' as const, date: sameDate.end, span: sameDate.span, toleranceDays: 10 }) ?? question.periodsByCompany?.find((p) => p.cik === profile.company.cik)?.period ?? question.period;
      const { spec, ttm } = twelveMonthsTo(fin, metricId, asked, question.ttm);
      const figure: Figure = { company: profile.company, fin, metric: metricById(metricId), result: figureFor(fin, metricId, spec, question.comparison, question.versus) };

      if (question.margin && shareLabel(figure.metric) && figure.result.kind === 'value') {
        figure.revenue = fin.value('revenue', figure.result.period);
        const prior = figure.result.compared;
        if (prior?.period && prior.value) figure.comparedRevenue = fin.value('revenue', prior.period);
      } else if (question.margin && shareLabel(figure.metric) && figure.result.kind === 'calendar-year' && figure.result.total) {
        const revenue = metricById('revenue');
        figure.revenue = calendarTotal(fin, revenue, figure.result.year);
        const c = figure.result.compared;
        if (c?.total) figure.comparedRevenue = c.fiscal ? fin.value('revenue', c.fiscal) : calendarTotal(fin, revenue, c.year);
      }
      const r = figure.result;
      if (r.kind === 'no-value' || r.kind === 'no-period') {
        const near = nearestFigure(fin, metricId, r, spec);
        if (near) figure.nearest = near;
      }
      if (question.alsoQoq && r.kind === 'value' && r.compared?.kind === 'yoy' && r.period.kind !== 'year') {
        const prior = priorPeriod(fin, r.period, 'qoq');
        figure.alsoCompared = { kind: 'qoq', period: prior, value: prior ? fin.value(metricId, prior) : null };
      }
      if (ttm && figure.result.kind === 'value') addTrailingYear(figure, figure.result.period, question.comparison, question.margin);
      else if (ANNUALIZE_ASKED.test(question.text) && figure.metric.unit === 'perShare' && figure.result.kind === 'value' && figure.result.period.kind === 'quarter') addAnnualBasis(figure, figure.result.period);
      if (question.burn && metricId === 'freeCashFlow' && figure.result.kind === 'value') addBurnBasis(figure, figure.result.period);
      if (spec !== asked && figure.result.kind === 'value' && figure.ttm) {
        figure.result.note = `no fiscal year of the company ends on ${(asked as Extract<PeriodSpec, { kind: 'ended' }>).date}: the twelve months ended then are the four quarters to this one, added up below`;
      }
      plan.figures.push(figure);
    }
  }
  await addCrossCalendar(lib, plan, profiles);
  plan.ratios = ratioFigures(question.ratios ?? [], plan.figures);
  return plan;
}

/** The end date of the period a company's figure was asked for (see SecQuestion.sameDateAs), and whether it is a year's or a quarter's. */
async function endOf(lib: SecLibrary, of: NonNullable<SecQuestion['sameDateAs']>, metric: MetricId): Promise<{ end: string; span: 'quarter' | 'year' } | null> {
  const fin = (await lib.profile(of.company)).financials;
  const resolved = fin ? resolvePeriod(of.period, fin, metric) : null;
  if (!resolved?.ok) return null;
  // A balance is at a date whatever the period; a flow over the same span ends then.
  return { end: resolved.period.end, span: metricById(metric).type === 'duration' && resolved.period.kind === 'year' ? 'year' : 'quarter' };
}

/**
 * "Microsoft revenue Q4 2024", said without "fiscal", of one company whose fiscal year ends half a
 * year from December: its fiscal Q4 2024 (April to June) is answered, and calendar Q4 2024 (October
 * to December, its fiscal Q2 2025) is given beside it, as either may be meant.
 */
function addCalendarQuarter(plan: Plan): void {
  const q = plan.question!;
  const spec = q.period;
  // (Only as this turn names it: "the quarter before" a fiscal quarter discussed is that fiscal quarter's.)
  const named = /\bq[1-4]\b|\b[1-4]q\b|\b(?:first|second|third|fourth|1st|2nd|3rd|4th) quarter\b/i.test(q.text);
  if (spec?.kind !== 'fiscalQuarter' || spec.fy === null || spec.calendar || !named || /\b(?:fiscal|fy|f?q\d\s*fy)/i.test(q.text)) return;
  const companies = new Set(plan.figures.map((f) => f.company.cik));
  const figure = plan.figures[0];
  if (companies.size !== 1 || !figure || figure.fin.calendar.isCalendarYear || figure.result.kind !== 'value') return;
  const calendar = calendarQuarter(figure.fin, spec.fy, spec.q);
  // A quarter off (Apple's September year) is said by the fiscal note; half a year off (Microsoft's June year) is easily mistaken.
  if (!calendar || Math.abs(daysBetween(calendar.end, figure.result.period.end)) < 120 || q.switchedFrom) return;
  const reference = { company: figure.company, fin: figure.fin, period: figure.result.period };
  plan.cross.push({ company: figure.company, fin: figure.fin, metric: figure.metric, reference, period: calendar, value: figure.fin.value(figure.metric.id, calendar), reason: 'calendarQuarter' });
}

/**
 * The latest figures of several companies ending months apart ("who has more cash, Microsoft or
 * Google?" when one has filed a quarter more): each later one's period closest in time to the
 * earliest, so that they can also be compared on periods ending together.
 */
function addLatestAligned(plan: Plan): void {
  const q = plan.question!;
  if (q.period && q.period.kind !== 'latest') return;
  const metric = plan.figures[0]?.metric;
  const answered = plan.figures.filter((f) => f.metric === metric && f.result.kind === 'value');
  if (!metric || new Set(answered.map((f) => f.company.cik)).size !== answered.length || answered.length < 2) return;
  const endOf = (f: Figure) => (f.result as Extract<FigureResult, { kind: 'value' }>).period;
  const earliest = [...answered].sort((a, b) => (endOf(a).end < endOf(b).end ? -1 : 1))[0]!;
  const refPeriod = endOf(earliest);
  for (const figure of answered) {
    if (figure === earliest || daysBetween(refPeriod.end, endOf(figure).end) < 45) continue;
    const near = nearPeriod(figure.fin, refPeriod);
    // A June year against December ones ends six months from either: no period ends together with it.
    if (!near || near.end === endOf(figure).end || Math.abs(daysBetween(near.end, refPeriod.end)) > 45) continue;
    const revenue = q.margin && shareLabel(metric) ? { revenue: figure.fin.value('revenue', near) } : {};
    plan.cross.push({ company: figure.company, fin: figure.fin, metric, reference: { company: earliest.company, fin: earliest.fin, period: refPeriod }, period: near, value: figure.fin.value(metric.id, near), reason: 'latest', ...revenue });
  }
}

/**
 * When the period was a fiscal label and companies' fiscal years end at different times, the
 * quarter nearest in time for each other company (after "how about Microsoft?" following an
 * Apple question, or in a side-by-side comparison).
 */
/** Another company's period of the same kind ending closest in time to this one. */
function nearPeriod(fin: CompanyFinancials, p: FiscalPeriod): FiscalPeriod | null {
  if (p.kind === 'year') return fin.calendar.nearest('year', p.end, 183);
  const quarter = nearestQuarter(fin, p.end);
  return p.kind === 'quarter' || !quarter ? quarter : fin.calendar.span(quarter, p.quarters);
}

async function addCrossCalendar(lib: SecLibrary, plan: Plan, profiles: CompanyProfile[]): Promise<void> {
  const q = plan.question!;
  // A ratio's figures are its inputs: the notes would set one input against another company's, not the ratios.
  if (plan.keyFigures || q.periodsByCompany || q.ratios?.length) return;
  addCalendarQuarter(plan);
  if (!isFiscalLabel(q.period)) return addLatestAligned(plan);
  const metric = plan.figures[0]?.metric;
  if (!metric) return;
  let reference: { company: CompanyRef; fin: CompanyFinancials } | null = null;
  const previous = q.switchedFrom?.find((c) => c.status === 'found');
  if (previous && previous.status === 'found') {
    const profile = await lib.profile(previous.company);
    if (profile.financials) reference = { company: profile.company, fin: profile.financials };
  } else if (profiles.length > 1 && profiles[0]!.financials) reference = { company: profiles[0]!.company, fin: profiles[0]!.financials };
  if (!reference) return;
  const refResolved = resolvePeriod(q.period, reference.fin, metric.id);
  if (!refResolved.ok) return;
  const refPeriod = refResolved.period;
  for (const figure of plan.figures) {
    if (figure.metric.id !== metric.id || figure.company.cik === reference.company.cik || !yearEndsDiffer(figure.fin, reference.fin)) continue;
    const own = figure.result.kind === 'value' || figure.result.kind === 'no-value' ? figure.result.period : null;
    const near = nearPeriod(figure.fin, refPeriod);
    if (!near || (own && own.kind === near.kind && own.end === near.end)) continue;
    // Six months off either way (a June year against December ones): neither is closer, so none is named.
    const off = (p: FiscalPeriod) => Math.abs(daysBetween(p.end, refPeriod.end));
    if (own && own.kind === near.kind && Math.abs(off(own) - off(near)) < 31) continue;
    const revenue = q.margin && shareLabel(metric) ? { revenue: figure.fin.value('revenue', near) } : {};
    plan.cross.push({ company: figure.company, fin: figure.fin, metric, reference: { ...reference, period: refPeriod }, period: near, value: figure.fin.value(metric.id, near), ...revenue });
  }
}
