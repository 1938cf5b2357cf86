import { monthsIn, type FiscalPeriod, type FiscalQuarter, type FiscalSpan } from './calendar.js';
import { daysBetween } from './dates.js';
import type { CompanyFinancials } from './facts.js';
import { metricById, type MetricId } from './metrics.js';
import type { PeriodSpec } from './question.js';

export type PeriodResolution =
  | { ok: true; period: FiscalPeriod; /** Said when the period found is not exactly the one asked for. */ note: string | null }
  | { ok: false; wanted: string };

const CALENDAR_QUARTER_END = ['03-31', '06-30', '09-30', '12-31'];

/** Words for a period asked about, for answers saying it is not available. */
export function describeSpec(spec: PeriodSpec | null): string {
  if (!spec) return 'the latest quarter';
  switch (spec.kind) {
    case 'fiscalQuarter':
      return spec.calendar ? (spec.fy === null ? `the latest ${CALENDAR_QUARTER_MONTH[spec.q - 1]} quarter` : `calendar Q${spec.q} ${spec.fy}`) : spec.fy === null ? `the latest fiscal Q${spec.q}` : `fiscal Q${spec.q} ${spec.fy}`;
    case 'fiscalYear':
      return spec.fy === null ? 'the latest fiscal year' : `fiscal year ${spec.fy}`;
    case 'calendarYear':
      return `calendar year ${spec.year}`;
    case 'ended':
      return `the ${spec.span} ended ${spec.date}`;
    case 'latest':
      return `the latest ${spec.span === 'year' ? 'fiscal year' : 'quarter'}`;
    case 'shift': {
      const parts = [spec.years ? `${Math.abs(spec.years)} year${Math.abs(spec.years) > 1 ? 's' : ''}` : '', spec.quarters ? `${Math.abs(spec.quarters)} quarter${Math.abs(spec.quarters) > 1 ? 's' : ''}` : ''].filter(Boolean);
      return `${parts.join(' and ')} ${spec.years + spec.quarters < 0 ? 'before' : 'after'} ${describeSpec(spec.base)}`;
    }
    case 'span': {
      const base = spec.base;
      if (spec.quarters === null) return `the fiscal year to date${base ? ` through ${describeSpec(base)}` : ''}`;
      if (base?.kind === 'fiscalQuarter' && base.q === spec.quarters + (base.q === 4 ? 2 : 0)) {
        const part = base.q === 4 ? 'second half' : base.q === 2 ? 'first half' : 'first nine months';
        const year = base.fy === null ? 'the latest fiscal year' : `${base.calendar ? 'calendar' : 'fiscal'} ${base.fy}`;
        return `the ${part} of ${year}`;
      }
      return `the ${monthsIn(spec.quarters)} months ending with ${describeSpec(base)}`;
    }
  }
}

/**
 * The company's fiscal period a question means, for a metric: fiscal labels in the company's
 * own terms, dates to the quarter (or year) ending then, "latest" to the most recent period
 * that has the metric.
 */
export function resolvePeriod(spec: PeriodSpec | null, fin: CompanyFinancials, metric: MetricId): PeriodResolution {
  const cal = fin.calendar;
  const missing = (): PeriodResolution => ({ ok: false, wanted: describeSpec(spec) });
  const found = (period: FiscalPeriod | null, note: string | null = null): PeriodResolution => (period ? { ok: true, period, note } : missing());
  if (!spec) return found(fin.latest(metric, 'quarter')?.period ?? fin.latest(metric, 'year')?.period ?? null);
  switch (spec.kind) {
    case 'latest':
      return found(fin.latest(metric, spec.span)?.period ?? null);
    case 'fiscalYear':
      return found(spec.fy === null ? (fin.latest(metric, 'year')?.period ?? null) : cal.year(spec.fy));
    case 'calendarYear': {
      if (cal.isCalendarYear) return found(cal.year(spec.year));
      // A flow over a calendar year is the sum of four fiscal quarters (see calendarQuarters); a balance is the one at its last quarter end.
      if (metricById(metric).type === 'duration') return missing();
      const q = calendarQuarter(fin, spec.year, 4);
      return found(q, q ? `calendar year ${spec.year} ends with the company's fiscal Q${q.q} ${q.fy}: the balance at ${q.end}` : null);
    }
    case 'fiscalQuarter': {
      if (spec.calendar && spec.fy !== null) {
        const q = calendarQuarter(fin, spec.fy, spec.q);
        return found(q, q ? `calendar Q${spec.q} ${spec.fy} is the company's fiscal Q${q.q} ${q.fy} (ended ${q.end})` : null);
      }
      if (spec.calendar) {
        // "the June quarter": the latest quarter with the figure ending in June (a 52/53-week quarter may end days into July).
        const q = [...cal.quarters].reverse().find((p) => calendarQuarterOf(p.end) === spec.q && fin.value(metric, p));
        return found(q ?? null, q ? `the ${CALENDAR_QUARTER_MONTH[spec.q - 1]} quarter is the company's fiscal Q${q.q} ${q.fy} (ended ${q.end})` : null);
      }
      if (spec.fy !== null) return found(cal.quarter(spec.fy, spec.q));
      const latest = [...cal.quarters].reverse().find((p) => p.q === spec.q && fin.value(metric, p));
      return found(latest ?? null);
    }
    case 'ended': {
      const p = cal.nearest(spec.span, spec.date, spec.toleranceDays);
      return found(p, p && p.end !== spec.date ? `the ${spec.span} ended ${p.end}, the closest to ${spec.date}` : null);
    }
    case 'span':
      return resolveSpan(spec, fin, metric);
    case 'shift': {
      const base = resolvePeriod(spec.base, fin, metric);
      if (!base.ok) return missing();
      const p = base.period;
      if (p.kind === 'span') return found(cal.shiftSpan(p, spec.quarters + 4 * spec.years));
      if (p.kind === 'year' && spec.quarters === 0) return found(cal.year(p.fy + spec.years));
      const start = p.kind === 'quarter' ? p : cal.quarter(p.fy, spec.quarters < 0 ? 1 : 4);
      if (!start) return missing();
      return found(cal.shiftQuarter(start, spec.quarters + 4 * spec.years));
    }
  }
}

/**
 * Quarters taken together: the `quarters` ending with the quarter the base means, or the fiscal
 * year to date through it. One quarter is that quarter, and a year to date through Q4 the
 * fiscal year, each said so.
 */
function resolveSpan(spec: Extract<PeriodSpec, { kind: 'span' }>, fin: CompanyFinancials, metric: MetricId): PeriodResolution {
  const cal = fin.calendar;
  const wanted = describeSpec(spec);
  const base = resolvePeriod(spec.base, fin, metric);
  if (!base.ok) return { ok: false, wanted };
  let last: FiscalQuarter | null;
  const p = base.period;
  if (p.kind === 'span') return base;
  if (p.kind === 'year') {
    // "2024 YTD": the whole year once it is reported, else through its latest quarter with the figure.
    if (spec.quarters === null && !p.projected && fin.value(metric, p)) return { ok: true, period: p, note: `fiscal year ${p.fy} is complete: year to date is the whole year` };
    last = spec.quarters === null ? ([...cal.quarters].reverse().find((q) => q.fy === p.fy && fin.value(metric, q)) ?? null) : cal.quarter(p.fy, spec.quarters);
  } else last = p;
  if (!last) return { ok: false, wanted };
  const n = spec.quarters ?? last.q;
  if (n === 1) return { ok: true, period: last, note: `year to date through the first quarter is that quarter, which ended ${last.end}` };
  if (n === 4 && last.q === 4) {
    const year = cal.year(last.fy);
    return year ? { ok: true, period: year, note: `year to date through the fourth quarter is the whole fiscal year, which ended ${year.end}` } : { ok: false, wanted };
  }
  const span: FiscalSpan | null = cal.span(last, n);
  if (!span) return { ok: false, wanted };
  // A calendar half of a company with another fiscal year, or the months ending near a date asked for.
  const calendar = spec.base?.kind === 'fiscalQuarter' && spec.base.calendar;
  if (calendar) return { ok: true, period: span, note: `${wanted} is, in the company's fiscal quarters, ${span.start} to ${span.end}` };
  const near = spec.base?.kind === 'ended' && span.end !== spec.base.date ? `the ${monthsIn(n)} months ended ${span.end}, the closest to ${spec.base.date}` : null;
  return { ok: true, period: span, note: near ?? base.note };
}

const CALENDAR_QUARTER_MONTH = ['March', 'June', 'September', 'December'];

/** The calendar quarter (1–4) a quarter ending on this date closes; an end in the first half of a month closes the month before. */
function calendarQuarterOf(end: string): number | null {
  let month = Number(end.slice(5, 7));
  if (Number(end.slice(8, 10)) <= 15) month = month === 1 ? 12 : month - 1;
  return month % 3 === 0 ? month / 3 : null;
}

/** The fiscal quarter ending in a calendar quarter (the nearest end, for 52/53-week years), when the filings have it. */
export function calendarQuarter(fin: CompanyFinancials, year: number, q: number): FiscalQuarter | null {
  return fin.calendar.nearest('quarter', `${year}-${CALENDAR_QUARTER_END[q - 1]}`, 46) as FiscalQuarter | null;
}

/** The four fiscal quarters ending in a calendar year, Q1 to Q4 of that year (null where the filings have none). */
export function calendarQuarters(fin: CompanyFinancials, year: number): (FiscalQuarter | null)[] {
  return [1, 2, 3, 4].map((q) => calendarQuarter(fin, year, q));
}

/** The quarter of another company ending closest to a date (within half a quarter). */
export function nearestQuarter(fin: CompanyFinancials, date: string): FiscalQuarter | null {
  let best: FiscalQuarter | null = null;
  for (const q of fin.calendar.quarters) {
    const d = Math.abs(daysBetween(q.end, date));
    if (d <= 46 && (!best || d < Math.abs(daysBetween(best.end, date)))) best = q;
  }
  return best;
}

/** The period a figure is compared with: the quarter (or as many months) before, or the same period a year earlier. */
export function priorPeriod(fin: CompanyFinancials, p: FiscalPeriod, kind: 'yoy' | 'qoq'): FiscalPeriod | null {
  const cal = fin.calendar;
  if (p.kind === 'quarter') return cal.shiftQuarter(p, kind === 'qoq' ? -1 : -4);
  if (p.kind === 'year') return cal.year(p.fy - 1);
  return cal.shiftSpan(p, kind === 'qoq' ? -p.quarters : -4);
}
