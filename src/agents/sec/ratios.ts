import type { FiscalPeriod } from '../../data/sec/calendar.js';
import type { CompanyFinancials, MetricValue } from '../../data/sec/facts.js';
import { metricById, type MetricId } from '../../data/sec/metrics.js';
import { hasTwelveMonths, isFlowRatio, ratioById, ratioMetrics, type RatioDef, type RatioId } from '../../data/sec/ratios.js';
import { priorPeriod } from '../../data/sec/resolve.js';
import type { CompanyRef } from '../../data/sec/types.js';
import type { Figure } from './plan.js';

/** One ratio of one company for one period, with the figures it comes from. */
export interface RatioValue {
  kind: 'value';
  period: FiscalPeriod;
  numerator: MetricValue;
  /** What is taken from the numerator first (the quick ratio's inventories); null for other ratios. */
  less: MetricValue | null;
  denominator: MetricValue;
  /** For an averaged denominator: its balance at the start of the period (the end of the one before); null when not reported. */
  opening: MetricValue | null;
  /** The ratio; null when it means nothing (a return on negative equity, a tax rate on a loss). */
  value: number | null;
}

export interface RatioFigure {
  ratio: RatioDef;
  company: CompanyRef;
  fin: CompanyFinancials;
  current: RatioValue | RatioMissing;
  /** The same ratio for the period compared with, when a change was asked for. */
  compared: RatioValue | RatioMissing | null;
  /** The calendar years asked, when they are not the company's fiscal ones: each a span of the four fiscal quarters ending in it, by its end. */
  calendarYears?: Record<string, number>;
}

/** The figures of a ratio its period has no value for (null period: the question's period itself was not found). */
export interface RatioMissing {
  kind: 'missing';
  period: FiscalPeriod | null;
  missing: MetricId[];
}

export function ratioAt(fin: CompanyFinancials, ratio: RatioDef, period: FiscalPeriod): RatioValue | RatioMissing {
  const numerator = fin.value(ratio.numerator, period);
  const less = ratio.less ? fin.value(ratio.less, period) : null;
  const denominator = fin.value(ratio.denominator, period);
  const found = { [ratio.numerator]: numerator, ...(ratio.less ? { [ratio.less]: less } : {}), [ratio.denominator]: denominator };
  if (!numerator || !denominator || (ratio.less && !less)) return { kind: 'missing', period, missing: ratioMetrics(ratio).filter((id) => !found[id]) };
  const top = numerator.value - (less?.value ?? 0);
  // The period just before ends where this one starts: a balance there opens it.
  const before = ratio.averaged ? priorPeriod(fin, period, 'qoq') : null;
  const opening = before ? fin.value(ratio.denominator, before) : null;
  const base = opening ? (opening.value + denominator.value) / 2 : denominator.value;
  let value: number | null;
  if (ratio.kind === 'difference') value = top - denominator.value;
  // A share count or a balance that is negative makes a per-share figure negative, which still means something.
  else if (ratio.kind === 'perShare') value = base === 0 ? null : top / base;
  // A return on equity that was negative at either end means nothing, even when their mean is positive.
  else value = base > 0 && (!opening || opening.value > 0) && denominator.value > 0 ? top / base : null;
  return { kind: 'value', period, numerator, less, denominator, opening, value };
}

/** Each ratio asked for, for each company, for the period its numerator's figure was answered for. */
export function ratioFigures(ratios: readonly RatioId[], figures: readonly Figure[]): RatioFigure[] {
  const out: RatioFigure[] = [];
  for (const id of ratios) {
    const ratio = ratioById(id);
    const companies = new Map<number, Figure>();
    for (const f of figures) if (f.metric.id === ratio.numerator && !companies.has(f.company.cik)) companies.set(f.company.cik, f);
    for (const f of companies.values()) {
      const r = f.result;
      const flows = isFlowRatio(ratio);
      // A calendar year of a company whose fiscal year is another ("FCF conversion calendar 2024"): a ratio of two
      // flows is of the four fiscal quarters ending in it, each summed (the figures' own table sums the same quarters).
      const lastOfYear = r.kind === 'calendar-year' ? r.quarters[3]?.quarter : null;
      if (r.kind === 'calendar-year' && flows && lastOfYear && r.quarters.every((q) => q.quarter)) {
        const span = f.fin.calendar.span(lastOfYear, 4);
        const before = r.compared && !r.compared.fiscal ? f.fin.calendar.shiftQuarter(lastOfYear, -4) : null;
        const prior = before ? f.fin.calendar.span(before, 4) : r.compared?.fiscal ?? null;
        if (span) {
          const calendarYears = { [span.end]: r.year, ...(before && prior ? { [prior.end]: r.compared!.year } : {}) };
          out.push({ ratio, company: f.company, fin: f.fin, current: ratioAt(f.fin, ratio, span), compared: prior ? ratioAt(f.fin, ratio, prior) : null, calendarYears });
          continue;
        }
      }
      if (r.kind !== 'value') {
        const period = r.kind === 'no-value' ? r.period : null;
        const missing = [ratio.numerator, ...ratioMetrics(ratio).slice(1).filter((id) => !f.fin.reports(id))];
        out.push({ ratio, company: f.company, fin: f.fin, current: { kind: 'missing', period, missing }, compared: null });
        continue;
      }
      const prior = r.compared?.period;
      // Trailing twelve months asked ("FCF conversion TTM"): a ratio of two flows is of the four quarters to the period, each summed.
      const twelve = (p: FiscalPeriod | null | undefined) => (p && p.kind === 'quarter' ? f.fin.calendar.span(p, 4) : null);
      // (A return on an averaged balance, "ROE TTM": the four quarters' flow over the mean of the balances at their start and end.)
      const overTwelve = hasTwelveMonths(ratio);
      if (f.ttm?.length && overTwelve && twelve(r.period)) {
        const before = twelve(prior);
        out.push({ ratio, company: f.company, fin: f.fin, current: ratioAt(f.fin, ratio, twelve(r.period)!), compared: before ? ratioAt(f.fin, ratio, before) : null });
        continue;
      }
      out.push({ ratio, company: f.company, fin: f.fin, current: ratioAt(f.fin, ratio, r.period), compared: prior ? ratioAt(f.fin, ratio, prior) : null });
    }
  }
  return out;
}

/** A ratio's value as shown: "157.4%", "0.12x", "$4.47 per share"; a difference (net debt) is an amount, formatted by the caller. */
export function formatRatio(ratio: RatioDef, value: number, unit: string): string {
  if (ratio.kind === 'percent') return `${(100 * value).toFixed(1)}%`;
  if (ratio.kind === 'times') return `${value.toFixed(2)}x`;
  const currency = unit.split('/')[0]!;
  return `${value < 0 ? '-' : ''}${currency === 'USD' ? '$' : `${currency} `}${Math.abs(value).toFixed(2)}${ratio.kind === 'perShare' ? ' per share' : ''}`;
}

/** How the ratios shown were computed, and that companies do not report them. */
export function ratioNote(ratios: readonly RatioDef[]): string {
  const described = [...new Set(ratios)].map((ratio) => `${ratio.label.charAt(0).toUpperCase()}${ratio.label.slice(1)} is computed here as ${ratio.describe}.`);
  return `${described.join(' ')} Companies do not report ${described.length > 1 ? 'these ratios' : 'this ratio'} in their financial statements, and a company's own definition may differ.`;
}
