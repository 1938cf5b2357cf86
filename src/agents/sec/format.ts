import { monthsIn, type FiscalCalendar, type FiscalPeriod } from '../../data/sec/calendar.js';
import type { MetricDef } from '../../data/sec/metrics.js';

/** The words of the scales amounts are stated in, by power of ten. */
export const SCALE_WORD: Record<number, string> = { 3: 'thousand', 6: 'million', 9: 'billion' };

const group = (n: number, decimals: number) => n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

function decimalsOf(n: number, max: number): number {
  for (let d = 0; d < max; d++) if (Math.abs(Number(n.toFixed(d)) - n) < 1e-9) return d;
  return max;
}

/** The scale a figure is stated in: the filing's own (millions: 6) when known. */
function scaleFor(value: number, metric: MetricDef, printedScale: number | null): number {
  if (printedScale !== null && SCALE_WORD[printedScale]) return printedScale;
  if (metric.unit === 'perShare') return 0;
  return Math.abs(value) >= 1e6 ? 6 : 0;
}

/** "$85,777 million", "$1.40 per share", "15,222,259 thousand shares", "EUR 1,234 million". */
export function formatAmount(value: number, unit: string, metric: MetricDef, printedScale: number | null = null): string {
  const scale = scaleFor(value, metric, printedScale);
  const scaled = Math.abs(value) / 10 ** scale;
  const digits = group(scaled, metric.unit === 'perShare' ? Math.max(2, decimalsOf(scaled, 4)) : decimalsOf(scaled, 2));
  const word = SCALE_WORD[scale] ? ` ${SCALE_WORD[scale]}` : '';
  const sign = value < 0 ? '-' : '';
  if (metric.unit === 'shares') return `${sign}${digits}${word} shares`;
  const currency = unit.split('/')[0]!;
  const money = currency === 'USD' ? `${sign}$${digits}` : `${sign}${currency} ${digits}`;
  return metric.unit === 'perShare' ? `${money} per share` : `${money}${word}`;
}

/** "$85.8 billion" (or "15.12 billion shares") alongside a figure stated in millions or thousands, for readability; null when not useful. */
export function roughly(value: number, unit: string, metric: MetricDef): string | null {
  // "15,116,786 thousand shares": about 15.12 billion.
  if (metric.unit === 'shares') return Math.abs(value) >= 1e9 ? `${group(value / 1e9, 2)} billion shares` : null;
  if (metric.unit !== 'money' || Math.abs(value) < 1e9) return null;
  const currency = unit === 'USD' ? '$' : `${unit} `;
  return `${value < 0 ? '-' : ''}${currency}${group(Math.abs(value) / 1e9, 1)} billion`;
}

/**
 * "+$3,980 million (+4.9%)". The percentage is growth as the tables give it: the change over the size
 * of the earlier figure, so a loss that widens from -$45 million to -$48 million is "-$3 million
 * (-6.7%)" and one that narrows is positive (see GROWTH_FROM_NEGATIVE); none from zero.
 */
export function formatChange(current: number, prior: number, unit: string, metric: MetricDef, printedScale: number | null): string {
  const diff = current - prior;
  const sign = diff > 0 ? '+' : diff < 0 ? '-' : '±';
  const amount = formatAmount(Math.abs(diff), unit, metric, printedScale).replace(/ per share$/, '');
  // A change too small for one decimal still shows its direction: "+0.04%", not "+0.0%".
  const rate = Math.abs((diff / prior) * 100);
  const shown = rate === 0 || rate >= 0.05 ? group(rate, 1) : rate >= 0.005 ? group(rate, 2) : '<0.01';
  const pct = prior !== 0 && Number.isFinite(rate) ? ` (${sign === '±' ? '' : sign}${shown}%)` : '';
  return `${sign}${amount}${pct}`;
}

/** Said under figures whose change is measured from a figure below zero (a table's growth rows, a single figure's change). */
export const GROWTH_FROM_NEGATIVE = "Growth from a figure below zero is the change over that figure's size: a loss or cash burn that widens is negative growth, one that narrows positive.";

/** "fiscal Q3 2024" (a non-calendar fiscal year), "Q3 2024", "fiscal year 2024", "the first half of fiscal 2024". */
export function periodName(p: FiscalPeriod, calendar: FiscalCalendar): string {
  if (p.kind === 'year') return `fiscal year ${p.fy}`;
  const fiscal = calendar.isCalendarYear ? '' : 'fiscal ';
  if (p.kind === 'quarter') return `${fiscal}Q${p.q} ${p.fy}`;
  if (p.quarters === p.q) return `the first ${p.q === 2 ? 'half' : `${monthsIn(p.q)} months`} of ${fiscal}${p.fy}`;
  if (p.q === 4 && p.quarters === 2) return `the second half of ${fiscal}${p.fy}`;
  const first = p.fy * 4 + (p.q - 1) - (p.quarters - 1);
  return `${fiscal}Q${(first % 4) + 1} ${Math.floor(first / 4)} to Q${p.q} ${p.fy}`;
}

/** "fiscal Q3 2024 (quarter ended 2024-06-29)", "the first half of 2024 (six months ended 2024-06-30)". */
export function periodWithEnd(p: FiscalPeriod, calendar: FiscalCalendar): string {
  const span = p.kind === 'year' ? 'year' : p.kind === 'quarter' ? 'quarter' : `${monthsIn(p.quarters)} months`;
  return `${periodName(p, calendar)} (${span} ended ${p.end})`;
}

/** "at the end of fiscal Q2 2025 (2025-03-29)": the date a balance is taken at. */
export function balanceDate(p: FiscalPeriod, calendar: FiscalCalendar): string {
  return `at the end of ${periodName(p, calendar)} (${p.end})`;
}

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "Gross margin: …" → "gross margin: …", but "R&D expense" and "EPS" stay as written. */
export const uncapitalise = (s: string) => (/^.[A-Z&]/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
