import { addDays, daysBetween, durationDays, fromDay, isIsoDate, longDate, monthName, toDay } from './dates.js';
import type { CompanyFactsFile, FactRow } from './types.js';

export interface FiscalYear {
  kind: 'year';
  fy: number;
  start: string;
  end: string;
  /** A year still under way in the filings (quarters of it are filed, no annual report): its end is reckoned, not reported. */
  projected?: true;
}

export interface FiscalQuarter {
  kind: 'quarter';
  fy: number;
  q: 1 | 2 | 3 | 4;
  start: string;
  end: string;
}

/**
 * Consecutive fiscal quarters ending with quarter `q` of fiscal year `fy`, as one period: year to
 * date ("six months ended March 30, 2024", "the first nine months"), or a second half.
 */
export interface FiscalSpan {
  kind: 'span';
  fy: number;
  q: 1 | 2 | 3 | 4;
  /** How many quarters: 2 or 3 (one is a quarter, four from Q1 a year). */
  quarters: number;
  start: string;
  end: string;
}

export type FiscalPeriod = FiscalYear | FiscalQuarter | FiscalSpan;

/**
 * The weeks of a 52/53-week filer's 14-week quarter or 53-week year (a week more than the
 * others); null for a period of the usual length, a span, or a year not yet reported.
 */
export function extraWeekLength(p: FiscalPeriod): number | null {
  if (p.kind === 'span' || (p.kind === 'year' && p.projected)) return null;
  const weeks = Math.round(durationDays(p.start, p.end) / 7);
  return weeks === (p.kind === 'quarter' ? 14 : 53) ? weeks : null;
}

/** "three", "six", "nine", "twelve": the months in so many quarters. */
export const monthsIn = (quarters: number) => ['three', 'six', 'nine', 'twelve'][quarters - 1]!;

/** Durations of about a quarter and about a year (trap: 10-Qs also carry year-to-date totals). */
export const isQuarterLength = (start: string, end: string) => {
  const d = durationDays(start, end);
  return d >= 80 && d <= 100;
};
export const isYearLength = (start: string, end: string) => {
  const d = durationDays(start, end);
  return d >= 350 && d <= 380;
};

export const periodKey = (p: { start: string; end: string }) => `${p.start}|${p.end}`;

const FORM_10K = /^(10-K|10-KT|20-F|40-F)(\/A)?$/;

/** Every row of every concept, once: the raw material for the calendar. */
function* allRows(facts: CompanyFactsFile): Generator<FactRow> {
  for (const taxonomy of Object.values(facts.facts ?? {})) {
    for (const concept of Object.values(taxonomy ?? {})) {
      for (const rows of Object.values(concept?.units ?? {})) if (Array.isArray(rows)) yield* rows;
    }
  }
}

/**
 * A company's fiscal years and quarters, identified by start and end dates (never by a row's
 * fy/fp, which describe the filing that reported it). Each fiscal year is labelled the way the
 * company labels it: the `fy` of the annual report whose own period it is.
 */
export class FiscalCalendar {
  readonly years: FiscalYear[];
  readonly quarters: FiscalQuarter[];
  /** `MMDD` from the submissions, when known. */
  readonly fiscalYearEnd: string | null;

  constructor(years: FiscalYear[], quarters: FiscalQuarter[], fiscalYearEnd: string | null) {
    this.years = years;
    this.quarters = quarters;
    this.fiscalYearEnd = fiscalYearEnd;
  }

  static fromFacts(facts: CompanyFactsFile, fiscalYearEnd?: string | null): FiscalCalendar {
    const yearPeriods = new Map<string, { start: string; end: string; count: number }>();
    const quarterPeriods = new Map<string, { start: string; end: string; count: number }>();
    const filingEnd = new Map<string, string>();
    const annualLabels: { accn: string; end: string; fy: number }[] = [];
    for (const row of allRows(facts)) {
      if (!validRow(row)) continue;
      if (row.accn && (!filingEnd.has(row.accn) || filingEnd.get(row.accn)! < row.end) && row.start) filingEnd.set(row.accn, row.end);
      if (!row.start) continue;
      const key = `${row.start}|${row.end}`;
      if (isYearLength(row.start, row.end)) {
        bump(yearPeriods, key, row);
        if (row.fp === 'FY' && typeof row.fy === 'number' && FORM_10K.test(row.form)) annualLabels.push({ accn: row.accn, end: row.end, fy: row.fy });
      } else if (isQuarterLength(row.start, row.end)) bump(quarterPeriods, key, row);
    }
    // The annual report's own period is the latest one it reports; its fy is the company's label for it.
    const votes = new Map<string, Map<number, number>>();
    for (const l of annualLabels) {
      if (filingEnd.get(l.accn) !== l.end) continue;
      const byFy = votes.get(l.end) ?? new Map<number, number>();
      byFy.set(l.fy, (byFy.get(l.fy) ?? 0) + 1);
      votes.set(l.end, byFy);
    }
    const labelled = new Map<string, number>();
    for (const [end, byFy] of votes) labelled.set(end, [...byFy.entries()].sort((a, b) => b[1] - a[1])[0]![0]);

    const years = chooseYears([...yearPeriods.values()], labelled);
    const fye = typeof fiscalYearEnd === 'string' && /^\d{4}$/.test(fiscalYearEnd) ? fiscalYearEnd : null;
    const calendar = new FiscalCalendar(years, [], fye);
    calendar.#fillGaps();
    calendar.#extendTo([...quarterPeriods.values()].map((p) => p.end));
    calendar.quarters.push(...calendar.#labelQuarters([...quarterPeriods.values()]));
    return calendar;
  }

  /** Adds projected fiscal years so that every date given falls inside a known year. */
  #extendTo(dates: string[]): void {
    if (!this.years.length || !dates.length) {
      if (!this.years.length && dates.length) this.#seedFromYearEnd(dates);
      if (!this.years.length) return;
    }
    const latest = dates.reduce((a, b) => (a > b ? a : b), '');
    const earliest = dates.reduce((a, b) => (a < b ? a : b), '9999');
    while (this.years.at(-1)!.end < latest) {
      const last = this.years.at(-1)!;
      const start = addDays(last.end, 1);
      this.years.push({ kind: 'year', fy: last.fy + 1, start, end: this.#nextYearEnd(last.end), projected: true });
    }
    while (this.years[0]!.start > earliest) {
      const first = this.years[0]!;
      const end = addDays(first.start, -1);
      this.years.unshift({ kind: 'year', fy: first.fy - 1, start: addDays(this.#previousYearEnd(end), 1), end });
    }
  }

  /** No annual figures at all (a young filer): place years on the submissions' fiscal year end. */
  #seedFromYearEnd(dates: string[]): void {
    const mmdd = this.fiscalYearEnd ?? '1231';
    const first = dates.reduce((a, b) => (a < b ? a : b));
    let end = `${first.slice(0, 4)}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`;
    if (Number.isNaN(toDay(end))) end = `${first.slice(0, 4)}-12-31`;
    if (end < first) end = this.#nextYearEnd(end);
    this.years.push({ kind: 'year', fy: labelForEnd(end), start: addDays(this.#previousYearEnd(end), 1), end });
  }

  #nextYearEnd(end: string): string {
    return this.#yearEndAway(end, 1);
  }

  #previousYearEnd(end: string): string {
    return this.#yearEndAway(end, -1);
  }

  /**
   * The year end `years` (±1) away. A 52/53-week filer (its known years 364 or 371 days apart,
   * Apple's last Saturday of September) ends a whole number of weeks later, on the one of those two
   * nearest its stated year end (the submissions' fiscalYearEnd) or else the same date; others on
   * the same date (2024-09-28 was followed by 2025-09-27, not "about 2025-09-28").
   */
  #yearEndAway(end: string, years: 1 | -1): string {
    const same = sameDayOtherYear(end, years);
    if (!this.#weekly()) return same;
    const target = this.fiscalYearEnd && !Number.isNaN(toDay(`${same.slice(0, 4)}-${this.fiscalYearEnd.slice(0, 2)}-${this.fiscalYearEnd.slice(2)}`)) ? `${same.slice(0, 4)}-${this.fiscalYearEnd.slice(0, 2)}-${this.fiscalYearEnd.slice(2)}` : same;
    const [short, long] = [addDays(end, 364 * years), addDays(end, 371 * years)];
    return Math.abs(daysBetween(short, target)) <= Math.abs(daysBetween(long, target)) ? short : long;
  }

  #weekly(): boolean {
    const known = this.years.filter((y) => !y.projected);
    return known.length >= 2 && known.slice(1).every((y, i) => [364, 371].includes(daysBetween(known[i]!.end, y.end)));
  }

  /** Fills holes between known fiscal years (years without annual figures) with projected ones. */
  #fillGaps(): void {
    for (let i = 1; i < this.years.length; i++) {
      const prev = this.years[i - 1]!;
      const next = this.years[i]!;
      if (daysBetween(prev.end, next.start) <= 300) continue;
      const end = this.#nextYearEnd(prev.end);
      this.years.splice(i, 0, { kind: 'year', fy: prev.fy + 1, start: addDays(prev.end, 1), end: end < next.start ? end : addDays(next.start, -1) });
    }
  }

  #labelQuarters(periods: { start: string; end: string; count: number }[]): FiscalQuarter[] {
    const best = new Map<string, FiscalQuarter & { count: number }>();
    for (const p of periods) {
      const q = this.labelQuarter(p.start, p.end);
      if (!q) continue;
      const key = `${q.fy}Q${q.q}`;
      const seen = best.get(key);
      if (!seen || p.count > seen.count) best.set(key, { ...q, count: p.count });
    }
    // Q4 is rarely filed as its own fact: it runs from the day after Q3 to the fiscal year end.
    for (const y of this.years) {
      const key = `${y.fy}Q4`;
      if (best.has(key)) continue;
      const q3 = best.get(`${y.fy}Q3`);
      const start = q3 ? addDays(q3.end, 1) : null;
      if (start && isQuarterLength(start, y.end)) best.set(key, { kind: 'quarter', fy: y.fy, q: 4, start, end: y.end, count: 0 });
    }
    return [...best.values()].map(({ count: _c, ...q }) => q).sort((a, b) => (a.end < b.end ? -1 : 1));
  }

  /** The fiscal year containing a date (a period's end). */
  yearContaining(date: string): FiscalYear | null {
    return this.years.find((y) => y.start <= date && date <= y.end) ?? null;
  }

  /** Which fiscal quarter a quarter-long period is, from where it ends within its fiscal year. */
  labelQuarter(start: string, end: string): FiscalQuarter | null {
    const year = this.years.find((y) => daysBetween(y.start, start) >= -7 && daysBetween(end, y.end) >= -7);
    if (!year) return null;
    const q = Math.min(4, Math.max(1, Math.round(durationDays(year.start, end) / 91.3))) as 1 | 2 | 3 | 4;
    return { kind: 'quarter', fy: year.fy, q, start, end };
  }

  quarter(fy: number, q: number): FiscalQuarter | null {
    return this.quarters.find((p) => p.fy === fy && p.q === q) ?? null;
  }

  year(fy: number): FiscalYear | null {
    return this.years.find((y) => y.fy === fy) ?? null;
  }

  /** The quarter (or year) ending closest to a date, within `toleranceDays`. */
  nearest(kind: 'quarter' | 'year', date: string, toleranceDays: number): FiscalPeriod | null {
    const list: FiscalPeriod[] = kind === 'quarter' ? this.quarters : this.years;
    let best: FiscalPeriod | null = null;
    for (const p of list) {
      const d = Math.abs(daysBetween(p.end, date));
      if (d <= toleranceDays && (!best || d < Math.abs(daysBetween(best.end, date)))) best = p;
    }
    return best;
  }

  /** The quarter `n` quarters after (or before, when negative) this one. */
  shiftQuarter(p: FiscalQuarter, n: number): FiscalQuarter | null {
    const index = p.fy * 4 + (p.q - 1) + n;
    return this.quarter(Math.floor(index / 4), (index % 4) + 1);
  }

  /** The `n` quarters ending with this one, oldest first; null when the filings lack one of them. */
  quartersTo(last: FiscalQuarter, n: number): FiscalQuarter[] | null {
    const list: FiscalQuarter[] = [];
    for (let k = n - 1; k >= 0; k--) {
      const quarter = this.shiftQuarter(last, -k);
      if (!quarter) return null;
      list.push(quarter);
    }
    return list;
  }

  /** The span of `n` quarters ending with this one; null when the filings lack one of them. */
  span(last: FiscalQuarter, n: number): FiscalSpan | null {
    const quarters = this.quartersTo(last, n);
    if (!quarters) return null;
    // From the first quarter: the fiscal year's own start, which year-to-date facts use.
    const start = last.q === n ? (this.year(last.fy)?.start ?? quarters[0]!.start) : quarters[0]!.start;
    return { kind: 'span', fy: last.fy, q: last.q, quarters: n, start, end: last.end };
  }

  /** The span of as many quarters ending `n` quarters after (or before, when negative) this one's last. */
  shiftSpan(p: FiscalSpan, n: number): FiscalSpan | null {
    const last = this.lastQuarter(p);
    const moved = last && this.shiftQuarter(last, n);
    return moved && this.span(moved, p.quarters);
  }

  /** The last quarter of a span (or a quarter itself). */
  lastQuarter(p: FiscalQuarter | FiscalSpan): FiscalQuarter | null {
    return p.kind === 'quarter' ? p : this.quarter(p.fy, p.q);
  }

  /** True when the fiscal year is the calendar year. */
  get isCalendarYear(): boolean {
    if (this.years.length) return this.years.every((y) => y.end.endsWith('-12-31'));
    return this.fiscalYearEnd === null || this.fiscalYearEnd === '1231';
  }

  /**
   * The rule a 52/53-week year's end keeps, from its years' end dates: "the last Saturday of
   * September" (each on that weekday, in the month's last seven days), "the Saturday nearest the
   * end of September"; null for a year ending on a fixed date, or ends that keep no one weekday.
   */
  yearEndRule(): string | null {
    const ends = this.years.map((y) => y.end);
    if (ends.length < 2 || new Set(ends.map((e) => e.slice(5))).size < 2) return null;
    const weekday = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
    if (new Set(ends.map(weekday)).size !== 1) return null;
    const name = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekday(ends[0]!)]!;
    const last = ends.at(-1)!;
    const month = Number(last.slice(5, 7));
    const monthEnd = (iso: string) => new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), 0)).getUTCDate();
    const inLastWeek = ends.every((e) => Number(e.slice(5, 7)) === month && Number(e.slice(8, 10)) > monthEnd(e) - 7);
    return inLastWeek ? `the last ${name} of ${monthName(month)}` : `the ${name} nearest the end of ${monthName(month)}`;
  }

  /** "in late September" (52/53-week years end on a weekday near a date) or "on June 30". */
  describeYearEnd(): string {
    const ends = this.years.map((y) => y.end.slice(5));
    const last = this.years.at(-1)?.end ?? (this.fiscalYearEnd ? `2000-${this.fiscalYearEnd.slice(0, 2)}-${this.fiscalYearEnd.slice(2)}` : '2000-12-31');
    const month = Number(last.slice(5, 7));
    if (new Set(ends).size > 1) {
      const day = Number(last.slice(8, 10));
      const when = day <= 7 ? 'early ' : day >= 24 ? 'late ' : 'mid-';
      return `in ${when}${monthName(month)}`;
    }
    return `on ${longDate(last).replace(/, \d{4}$/, '')}`;
  }
}

/** A row with real dates (EDGAR's data is trusted, but not to the point of crashing on a bad date). */
export function validRow(row: FactRow | null | undefined): row is FactRow {
  return !!row && typeof row.val === 'number' && typeof row.end === 'string' && isIsoDate(row.end) && (row.start == null || (typeof row.start === 'string' && isIsoDate(row.start) && row.start <= row.end));
}

function bump(map: Map<string, { start: string; end: string; count: number }>, key: string, row: FactRow): void {
  const seen = map.get(key);
  if (seen) seen.count++;
  else map.set(key, { start: row.start!, end: row.end, count: 1 });
}

/** The same month and day `years` years away (Feb 29 becomes Feb 28). */
function sameDayOtherYear(iso: string, years: number): string {
  const target = `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;
  return fromDay(toDay(target)) === target ? target : `${target.slice(0, 8)}28`;
}

/** Without a filing to say so, a year ending in the first days of January is named for the year before. */
function labelForEnd(end: string): number {
  const year = Number(end.slice(0, 4));
  return end.slice(5, 7) === '01' && Number(end.slice(8, 10)) <= 7 ? year - 1 : year;
}

/**
 * One fiscal year per end date, overlapping ones (a restated or transition period) dropped in
 * favour of the most reported; labels from the company's own annual reports, others counted
 * from the nearest labelled year.
 */
function chooseYears(periods: { start: string; end: string; count: number }[], labelled: Map<string, number>): FiscalYear[] {
  const kept: { start: string; end: string; count: number }[] = [];
  for (const p of [...periods].sort((a, b) => b.count - a.count)) {
    if (kept.some((k) => k.start <= p.end && p.start <= k.end)) continue;
    kept.push(p);
  }
  kept.sort((a, b) => (a.end < b.end ? -1 : 1));
  const anchors = kept.filter((k) => labelled.has(k.end));
  return kept.map((k) => {
    let fy = labelled.get(k.end);
    if (fy === undefined) {
      const anchor = anchors.reduce<(typeof anchors)[number] | null>((best, a) => (!best || Math.abs(daysBetween(a.end, k.end)) < Math.abs(daysBetween(best.end, k.end)) ? a : best), null);
      fy = anchor ? labelled.get(anchor.end)! + Math.round(daysBetween(anchor.end, k.end) / 365.25) : labelForEnd(k.end);
    }
    return { kind: 'year' as const, fy, start: k.start, end: k.end };
  });
}
