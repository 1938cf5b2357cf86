import { pageText } from '../documents/model.js';
import type { ReportedFact } from './facts.js';
import type { IxFact, ParsedFiling, XbrlContext } from './filing-html.js';

export interface FactLocation {
  page: number;
  /** Found by its inline-XBRL tag, or by searching the page text for the printed figure. */
  how: 'ixbrl' | 'printed';
  /** The figure as printed ("85,777"), and the row it is in when in a table. */
  printed: string;
  rowLabel: string | null;
  /** The power of ten the figure is printed in (6: millions), when tagged. */
  scale: number | null;
}

/** The number an `ix:nonFraction` stands for: its text read per its format, × 10^scale, signed. */
export function ixValue(f: Pick<IxFact, 'text' | 'format' | 'scale' | 'sign'>): number | null {
  const format = (f.format ?? '').toLowerCase();
  const text = f.text.trim();
  if (/fixed-zero|zerodash|fixedzero/.test(format) || /^[-–—]$/.test(text)) return 0;
  let digits: string;
  if (/comma-?decimal|numdotcomma|numspacecomma/.test(format)) digits = text.replace(/[.\s\u00a0']/g, '').replace(',', '.');
  else digits = text.replace(/[,\s\u00a0']/g, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return null;
  return Number(digits) * 10 ** f.scale * f.sign;
}

function samePeriod(ctx: XbrlContext | undefined, fact: ReportedFact): boolean {
  if (!ctx || ctx.dimensional) return false;
  return fact.start ? ctx.start === fact.start && ctx.end === fact.end : ctx.instant === fact.end;
}

function withinRounding(shown: number, value: number, decimals: number | null): boolean {
  const tolerance = decimals === null ? Math.abs(value) * 1e-9 : 0.5 * 10 ** -decimals;
  return Math.abs(shown - value) <= tolerance + Math.abs(value) * 1e-12;
}

/**
 * Where a fact is shown in its filing. First the inline-XBRL element carrying it: same concept,
 * a context with the same period and no dimensions, a displayed value that equals the fact
 * within its rounding, not in `ix:hidden`; the first such element in document order (the face
 * statement comes before the notes). Failing that, the printed figure on a page.
 */
export function locateFact(filing: ParsedFiling, fact: ReportedFact): FactLocation | null {
  const name = `${fact.taxonomy}:${fact.concept}`.toLowerCase();
  for (const f of filing.facts) {
    if (f.hidden || f.name.toLowerCase() !== name || !samePeriod(filing.contexts.get(f.contextRef), fact)) continue;
    const shown = ixValue(f);
    if (shown === null || !withinRounding(shown, fact.value, f.decimals)) continue;
    return { page: f.page, how: 'ixbrl', printed: f.text, rowLabel: f.rowLabel, scale: f.scale };
  }
  return findPrinted(filing, fact);
}

/** How a value might be printed: in millions or thousands with separators, EPS with two decimals. */
export function printedForms(value: number, unit: string): string[] {
  const abs = Math.abs(value);
  const group = (n: number, decimals = 0) => n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const forms: string[] = [];
  if (unit.endsWith('/shares')) forms.push(group(abs, 2));
  else {
    for (const scale of [1e6, 1e3, 1]) {
      const scaled = abs / scale;
      if (Number.isInteger(scaled)) forms.push(group(scaled));
    }
  }
  return [...new Set(forms)];
}

/**
 * The first page printing the figure. Only figures of three digits or more ("85", "15" are on
 * every page: dates, note numbers), and never the cover page for a financial figure: its dates,
 * file numbers and share counts match by chance, and citing it would show the reader no figure.
 */
function findPrinted(filing: ParsedFiling, fact: ReportedFact): FactLocation | null {
  const forms = printedForms(fact.value, fact.unit).filter((f) => f.replace(/\D/g, '').length >= 3);
  const first = fact.taxonomy === 'dei' || filing.pages.length === 1 ? 0 : 1;
  for (const printed of forms) {
    const pattern = new RegExp(`(?<![\\d.,])${printed.replace(/[.,]/g, (c) => `\\${c}`)}(?![\\d]|[.,]\\d)`);
    for (let i = first; i < filing.pages.length; i++) {
      if (pattern.test(pageText(filing.pages[i]!))) return { page: i + 1, how: 'printed', printed, rowLabel: null, scale: null };
    }
  }
  return null;
}
