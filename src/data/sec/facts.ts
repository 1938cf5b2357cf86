import { FiscalCalendar, monthsIn, periodKey, validRow, type FiscalPeriod, type FiscalQuarter, type FiscalSpan, type FiscalYear } from './calendar.js';
import { longDate } from './dates.js';
import { metricById, type Concept, type MetricDef, type MetricId } from './metrics.js';
import type { CompanyFactsFile, FactRow } from './types.js';

/** One reported value: a companyfacts row with the concept and unit it belongs to. */
export interface ReportedFact {
  taxonomy: string;
  concept: string;
  /** The concept's label in the filer's taxonomy ("Revenue from Contract with Customer…"). */
  label: string;
  unit: string;
  start: string | null;
  end: string;
  value: number;
  accn: string;
  form: string;
  filed: string;
}

/** A fact a value rests on, and how it enters the value. */
export interface FactTerm {
  fact: ReportedFact;
  sign: 1 | -1;
  /** What the fact is, in words: "fiscal year 2024", "nine months ended June 29, 2024", "cost of revenue". */
  role: string;
}

export interface MetricValue {
  metric: MetricId;
  unit: string;
  value: number;
  period: FiscalPeriod;
  /** The facts it comes from: one when reported as is, several when derived. */
  terms: FactTerm[];
  /** How it was derived, in words; null when reported as is. */
  derivation: string | null;
  /** True for per-share figures derived by subtraction (share counts differ by period). */
  approximate: boolean;
  /** The figure first reported, when a later filing restated it. */
  restatedFrom: { value: number; form: string; filed: string } | null;
  /** For a cover-page share count: the date it was counted at. */
  asOf: string | null;
}

const AMENDMENT = /\/A$/;

type Found = { fact: ReportedFact; restatedFrom: FactRow | null };

/**
 * Of the rows reporting a value for the same period (the original filing, later comparatives,
 * amendments): the latest filed, amendment or not, when any filing changed the figure or amended
 * it (trap: "latest or restated: take the latest filed"); else the original filing's, the one
 * whose own period it is. `restatedFrom` is the original when the latest figure differs from it.
 */
export function chooseRow(rows: FactRow[]): { row: FactRow; restatedFrom: FactRow | null } {
  const sorted = [...rows].sort((a, b) => (a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : 0));
  const original = sorted[0]!;
  const latest = sorted.at(-1)!;
  const changed = sorted.some((r) => r.val !== original.val || AMENDMENT.test(r.form));
  if (!changed) return { row: original, restatedFrom: null };
  return { row: latest, restatedFrom: latest.val !== original.val ? original : null };
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * A company's figures per fiscal period, from its XBRL company facts: concept synonyms merged
 * per period, durations matched by start and end, Q4 (and quarters of year-to-date cash-flow
 * figures) derived by subtraction, formulas for totals a filer does not tag.
 */
export class CompanyFinancials {
  readonly calendar: FiscalCalendar;
  readonly entityName: string;
  readonly #facts: CompanyFactsFile;
  readonly #rows = new Map<string, Map<string, FactRow[]>>();
  readonly #units = new Map<MetricId, string | null>();
  /** Per accession number: the end of the period the filing reports on. */
  #reportEnds: Map<string, string> | null = null;

  constructor(facts: CompanyFactsFile, fiscalYearEnd?: string | null) {
    this.#facts = facts;
    this.entityName = facts.entityName;
    this.calendar = FiscalCalendar.fromFacts(facts, fiscalYearEnd);
  }

  #concept(c: Concept) {
    return this.#facts.facts?.[c.taxonomy]?.[c.name];
  }

  /** Rows of one concept in one unit, by `start|end` (instants: `|end`). */
  #index(c: Concept, unit: string): Map<string, FactRow[]> {
    const key = `${c.taxonomy}:${c.name}:${unit}`;
    let index = this.#rows.get(key);
    if (!index) {
      index = new Map();
      const rows = this.#concept(c)?.units?.[unit];
      for (const row of Array.isArray(rows) ? rows : []) {
        if (!validRow(row)) continue;
        const k = `${row.start ?? ''}|${row.end}`;
        const list = index.get(k);
        if (list) list.push(row);
        else index.set(k, [row]);
      }
      this.#rows.set(key, index);
    }
    return index;
  }

  /** The one unit a metric's series uses (never mixed): USD when present, else the most used currency. */
  unitOf(metricId: MetricId): string | null {
    if (this.#units.has(metricId)) return this.#units.get(metricId)!;
    const metric = metricById(metricId);
    const counts = new Map<string, number>();
    const concepts = [...metric.concepts, ...(metric.formula?.terms.flatMap((t) => t.concepts ?? []) ?? [])];
    for (const c of concepts) {
      for (const [unit, rows] of Object.entries(this.#concept(c)?.units ?? {})) {
        if (unitFits(metric, unit)) counts.set(unit, (counts.get(unit) ?? 0) + (Array.isArray(rows) ? rows.length : 0));
      }
    }
    let unit: string | null = null;
    const preferred = metric.unit === 'money' ? 'USD' : metric.unit === 'perShare' ? 'USD/shares' : 'shares';
    if (counts.has(preferred)) unit = preferred;
    else if (counts.size) unit = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    // Share counts have one unit; the cover-page fallback (dei) is not among the concepts scanned.
    if (!unit && metric.unit === 'shares') unit = 'shares';
    if (!unit && metric.formula) {
      const parts = metric.formula.terms.flatMap((t) => (t.metric ? [this.unitOf(t.metric)] : []));
      unit = parts.length && parts.every((u) => u && u === parts[0]) ? parts[0]! : null;
    }
    this.#units.set(metricId, unit);
    return unit;
  }

  /** The fact for exactly this period among a metric's concepts (top-line total first when asked). */
  #fact(concepts: Concept[], unit: string, start: string | null, end: string, preferLargest: boolean): Found | null {
    let best: Found | null = null;
    for (const c of concepts) {
      const rows = this.#index(c, unit).get(`${start ?? ''}|${end}`);
      if (!rows?.length) continue;
      const { row, restatedFrom } = chooseRow(rows);
      const candidate = { fact: this.#reported(c, unit, row), restatedFrom };
      if (!preferLargest) return candidate;
      if (!best || Math.abs(candidate.fact.value) > Math.abs(best.fact.value)) best = candidate;
    }
    return best;
  }

  /**
   * Two facts to subtract, from one concept when any concept has both: a total of one concept
   * less a part of another ("Revenues" for the year, "RevenueFromContract…" for nine months)
   * would be no quarter at all. Only when no concept has both are they taken apart.
   */
  #factPair(concepts: Concept[], unit: string, a: [string, string], b: [string, string], preferLargest: boolean): [Found, Found] | null {
    let best: [Found, Found] | null = null;
    for (const c of concepts) {
      const first = this.#fact([c], unit, a[0], a[1], false);
      const second = first && this.#fact([c], unit, b[0], b[1], false);
      if (!first || !second) continue;
      if (!preferLargest) return [first, second];
      if (!best || Math.abs(first.fact.value) > Math.abs(best[0].fact.value)) best = [first, second];
    }
    if (best) return best;
    const first = this.#fact(concepts, unit, a[0], a[1], preferLargest);
    const second = this.#fact(concepts, unit, b[0], b[1], preferLargest);
    return first && second ? [first, second] : null;
  }

  #reported(c: Concept, unit: string, row: FactRow): ReportedFact {
    return {
      taxonomy: c.taxonomy,
      concept: c.name,
      label: this.#concept(c)?.label ?? c.name,
      unit,
      start: row.start ?? null,
      end: row.end,
      value: row.val,
      accn: row.accn,
      form: row.form,
      filed: row.filed,
    };
  }

  /** The metric's value for a fiscal quarter or year; null when the filings do not give it. */
  value(metricId: MetricId, period: FiscalPeriod): MetricValue | null {
    const metric = metricById(metricId);
    const unit = this.unitOf(metricId);
    if (!unit) return null;
    const direct = this.#conceptsValue(metric, metric.concepts, unit, period, metric.preferLargest ?? false);
    if (direct) return direct;
    if (metric.id === 'sharesOutstanding') return this.#coverPageShares(period, unit);
    return metric.formula ? this.#formulaValue(metric, unit, period) : null;
  }

  #conceptsValue(metric: MetricDef, concepts: Concept[], unit: string, period: FiscalPeriod, preferLargest: boolean): MetricValue | null {
    if (!concepts.length) return null;
    const base = { metric: metric.id, unit, period, derivation: null, approximate: false, asOf: null };
    if (metric.type === 'instant') {
      const found = this.#fact(concepts, unit, null, period.end, preferLargest);
      return found ? { ...base, value: found.fact.value, terms: [{ fact: found.fact, sign: 1, role: `as of ${longDate(period.end)}` }], restatedFrom: restated(found.restatedFrom) } : null;
    }
    const found = this.#fact(concepts, unit, period.start, period.end, preferLargest);
    if (found) return { ...base, value: found.fact.value, terms: [{ fact: found.fact, sign: 1, role: periodRole(period) }], restatedFrom: restated(found.restatedFrom) };
    if (metric.averaged) return null;
    if (period.kind === 'quarter') return this.#fromYearToDate(metric, concepts, unit, period, preferLargest);
    return period.kind === 'span' ? this.#sumOfQuarters(metric, unit, period) : null;
  }

  /** A span not filed as such (a second half, or a filer without year-to-date facts): its quarters added up. */
  #sumOfQuarters(metric: MetricDef, unit: string, span: FiscalSpan): MetricValue | null {
    const last = this.calendar.lastQuarter(span);
    const quarters = last && this.calendar.quartersTo(last, span.quarters);
    if (!quarters) return null;
    const values: MetricValue[] = [];
    for (const q of quarters) {
      const v = this.value(metric.id, q);
      if (!v || v.unit !== unit) return null;
      values.push(v);
    }
    // A derived quarter (Q4: the year less nine months) enters with its own terms and signs.
    const terms = values.flatMap((v) => v.terms);
    return {
      metric: metric.id,
      unit,
      period: span,
      value: roundLike(values.reduce((sum, v) => sum + v.value, 0), ...values.map((v) => v.value)),
      terms,
      derivation: sumOfQuarters(quarters.length),
      approximate: values.some((v) => v.approximate) || (metric.approximateWhenDerived ?? false),
      restatedFrom: restatedThrough(values.map((v) => ({ sign: 1, value: v.value, restatedFrom: v.restatedFrom }))),
      asOf: null,
    };
  }

  /**
   * A quarter not filed on its own: this quarter's year-to-date figure (the fiscal year, for
   * Q4) minus the previous quarter's year-to-date figure (trap: Q4 = FY − nine months).
   */
  #fromYearToDate(metric: MetricDef, concepts: Concept[], unit: string, quarter: FiscalQuarter, preferLargest: boolean): MetricValue | null {
    const year = this.calendar.year(quarter.fy);
    const previous = this.calendar.quarter(quarter.fy, quarter.q - 1);
    if (!year || !previous || quarter.q === 1) return null;
    const pair = this.#factPair(concepts, unit, [year.start, quarter.end], [year.start, previous.end], preferLargest);
    if (!pair) return null;
    const [toDate, before] = pair;
    const toDateRole = quarter.q === 4 ? `fiscal year ${quarter.fy}` : `${monthsIn(quarter.q)} months ended ${longDate(quarter.end)}`;
    const beforeRole = previous.q === 1 ? `three months ended ${longDate(previous.end)}` : `${monthsIn(previous.q)} months ended ${longDate(previous.end)}`;
    return {
      metric: metric.id,
      unit,
      period: quarter,
      value: roundLike(toDate.fact.value - before.fact.value, toDate.fact.value, before.fact.value),
      terms: [
        { fact: toDate.fact, sign: 1, role: toDateRole },
        { fact: before.fact, sign: -1, role: beforeRole },
      ],
      derivation: `${toDateRole} minus ${beforeRole}`,
      approximate: metric.approximateWhenDerived ?? false,
      restatedFrom: restatedThrough([
        { sign: 1, value: toDate.fact.value, restatedFrom: restated(toDate.restatedFrom) },
        { sign: -1, value: before.fact.value, restatedFrom: restated(before.restatedFrom) },
      ]),
      asOf: null,
    };
  }

  #formulaValue(metric: MetricDef, unit: string, period: FiscalPeriod): MetricValue | null {
    const formula = metric.formula!;
    const terms: FactTerm[] = [];
    let total = 0;
    const values: number[] = [];
    const parts: Parameters<typeof restatedThrough>[0] = [];
    for (const t of formula.terms) {
      const part = t.metric ? this.value(t.metric, period) : this.#conceptsValue({ ...metric, formula: undefined }, t.concepts ?? [], unit, period, false);
      if (!part || part.unit !== unit) return null;
      total += t.sign * part.value;
      values.push(part.value);
      parts.push({ sign: t.sign, value: part.value, restatedFrom: part.restatedFrom });
      for (const term of part.terms) terms.push({ fact: term.fact, sign: (term.sign * t.sign) as 1 | -1, role: part.derivation ? `${t.label}, ${term.role}` : t.label });
    }
    return {
      metric: metric.id,
      unit,
      period,
      value: roundLike(total, ...values),
      terms,
      derivation: formula.describe,
      approximate: false,
      restatedFrom: restatedThrough(parts),
      asOf: null,
    };
  }

  /** Trap: the cover-page count is dated near the filing date, after the period end: say so. */
  #coverPageShares(period: FiscalPeriod, unit: string): MetricValue | null {
    const concept: Concept = { taxonomy: 'dei', name: 'EntityCommonStockSharesOutstanding' };
    const all = this.#concept(concept)?.units?.[unit];
    const rows = (Array.isArray(all) ? all : []).filter((r) => validRow(r) && this.#reportEnd(r.accn) === period.end);
    if (!rows.length) return null;
    const { row } = chooseRow(rows);
    return {
      metric: 'sharesOutstanding',
      unit,
      period,
      value: row.val,
      terms: [{ fact: this.#reported(concept, unit, row), sign: 1, role: `cover page, as of ${longDate(row.end)}` }],
      derivation: null,
      approximate: false,
      restatedFrom: null,
      asOf: row.end,
    };
  }

  #reportEnd(accn: string): string | undefined {
    if (!this.#reportEnds) {
      this.#reportEnds = new Map();
      for (const taxonomy of Object.values(this.#facts.facts ?? {})) {
        for (const concept of Object.values(taxonomy ?? {})) {
          for (const rows of Object.values(concept?.units ?? {})) {
            for (const r of Array.isArray(rows) ? rows : []) {
              if (validRow(r) && r.start && (!this.#reportEnds.has(r.accn) || this.#reportEnds.get(r.accn)! < r.end)) this.#reportEnds.set(r.accn, r.end);
            }
          }
        }
      }
    }
    return this.#reportEnds.get(accn);
  }

  /** Whether the company's facts carry the metric at all (directly or by its formula). */
  reports(metricId: MetricId): boolean {
    return this.latest(metricId, 'quarter') !== null || this.latest(metricId, 'year') !== null;
  }

  /** Values of a metric for every quarter (or year) that has one, oldest first. */
  series(metricId: MetricId, kind: 'quarter' | 'year'): MetricValue[] {
    const periods: FiscalPeriod[] = kind === 'quarter' ? this.calendar.quarters : this.calendar.years;
    return periods.map((p) => this.value(metricId, p)).filter((v): v is MetricValue => v !== null);
  }

  /** The most recent quarter (or year) with a value for the metric. */
  latest(metricId: MetricId, kind: 'quarter' | 'year'): MetricValue | null {
    const periods: FiscalPeriod[] = kind === 'quarter' ? this.calendar.quarters : this.calendar.years;
    for (let i = periods.length - 1; i >= 0; i--) {
      const v = this.value(metricId, periods[i]!);
      if (v) return v;
    }
    return null;
  }
}

function unitFits(metric: MetricDef, unit: string): boolean {
  if (metric.unit === 'money') return CURRENCY.test(unit);
  if (metric.unit === 'perShare') return /^[A-Z]{3}\/shares$/.test(unit);
  return unit === 'shares';
}

const restated = (row: FactRow | null) => (row ? { value: row.val, form: row.form, filed: row.filed } : null);

/**
 * A derived value whose terms include a restated figure: what the same derivation gave from the
 * figures as first reported (Q4 from a restated fiscal year less the nine months as filed puts the
 * whole restatement into Q4), with the first restated term's original filing; null when none was.
 */
function restatedThrough(parts: { sign: number; value: number; restatedFrom: MetricValue['restatedFrom'] }[]): MetricValue['restatedFrom'] {
  const first = parts.find((p) => p.restatedFrom)?.restatedFrom;
  if (!first) return null;
  const values = parts.map((p) => p.restatedFrom?.value ?? p.value);
  const original = roundLike(parts.reduce((sum, p, i) => sum + p.sign * values[i]!, 0), ...values);
  const current = roundLike(parts.reduce((sum, p) => sum + p.sign * p.value, 0), ...parts.map((p) => p.value));
  return original === current ? null : { value: original, form: first.form, filed: first.filed };
}

/** The derivation of a span added up from its quarters. */
export const sumOfQuarters = (n: number) => `the sum of its ${['', 'one', 'two', 'three', 'four'][n]} quarters`;


function periodRole(p: FiscalPeriod): string {
  if (p.kind === 'year') return `fiscal year ${p.fy}`;
  return `${monthsIn(p.kind === 'span' ? p.quarters : 1)} months ended ${longDate(p.end)}`;
}

/** Subtraction in floating point leaves dust (6.08 − 5.11); round to the inputs' decimals. */
export function roundLike(value: number, ...inputs: number[]): number {
  const decimals = Math.max(0, ...inputs.map((v) => (String(v).split('.')[1] ?? '').length));
  return Number(value.toFixed(Math.min(decimals, 10)));
}

export { periodKey, type FiscalPeriod, type FiscalQuarter, type FiscalYear };
