import { labelRange, type LabelRange } from '../markets-search/asked.js';
import { listed } from '../citations.js';
import type { Answer, Citation } from '../types.js';

// A stored market report read back: its sections by heading, its outcome table's rows and its
// contract snapshot, with the small formatters the answers drawn from them share.

export interface Row {
  outcome: string;
  market: string;
  model: string;
  gap: string;
  /** "medium (24 settled markets in the fit, $0.01 spread)". */
  confidence: string;
  modelValue: number;
  marketValue: number;
  /** The market's price normalised with the event's other outcomes (as the report states it), else its price. */
  marketNormalised: number;
}

export interface Contract {
  ticker: string;
  bid: string;
  ask: string;
  spread: string;
  last: string;
  volume: string;
  day: string;
  interest: string;
  /** Contracts offered at the best bid and ask ("1,698", "—"); absent from reports written before the snapshot showed them. */
  bidSize?: string;
  askSize?: string;
}

/** The report's sections by heading, and its outcome table's rows. */
export function readReport(text: string): { sections: Map<string, string>; rows: Row[]; contracts: Map<string, Contract> } {
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const nl = part.indexOf('\n');
    sections.set(part.slice(0, nl).trim().toLowerCase(), part.slice(nl + 1).trim());
  }
  const table = [...sections.entries()].find(([h]) => h.startsWith('outcomes'))?.[1] ?? '';
  const percent = (cell: string) => Number(/(\d+(?:\.\d+)?)%/.exec(cell)?.[1] ?? NaN);
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---') && !l.startsWith('| Outcome |'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
    .filter((cells) => cells.length >= 4)
    .map(([outcome, market, model, gap, confidence]) => {
      const normalised = /(\d+(?:\.\d+)?)% normalised/.exec(market!);
      return { outcome: outcome!, market: market!, model: model!, gap: gap!, confidence: confidence ?? '', modelValue: percent(model!), marketValue: percent(market!), marketNormalised: normalised ? Number(normalised[1]) : percent(market!) };
    });
  // The contract snapshot's rows carry their outcome's citation marker: joined to the outcome by it.
  const contracts = new Map<string, Contract>();
  const snapshot = [...sections.entries()].find(([h]) => h.startsWith('contract snapshot'))?.[1] ?? '';
  // Read by the header's names: reports stored before the size column have none.
  const cellsOf = (l: string) => l.split('|').slice(1, -1).map((c) => c.trim());
  const header = cellsOf(snapshot.split('\n').find((l) => l.startsWith('| Contract |')) ?? '| Contract | Bid | Ask | Spread | Last | Volume | 24h volume | Open interest |');
  const at = (name: string) => header.indexOf(name);
  for (const line of snapshot.split('\n').filter((l) => l.startsWith('|') && !l.startsWith('|---') && !l.startsWith('| Contract |'))) {
    const cells = cellsOf(line);
    const cell = (name: string) => (at(name) === -1 ? undefined : cells[at(name)]);
    const [contract, ask] = [cells[0], cell('Ask')];
    const refs = /(\[\d+\])+\s*$/.exec(contract ?? '')?.[0];
    const sizes = cell('Size at bid / ask')?.split(' / ');
    if (refs && ask !== undefined)
      contracts.set(refs, { ticker: contract!.replace(/\s*(\[\d+\])+\s*$/, ''), bid: cell('Bid')!, ask, spread: cell('Spread')!, last: cell('Last')!, volume: cell('Volume')!, day: cell('24h volume')!, interest: cell('Open interest')!, ...(sizes?.length === 2 ? { bidSize: sizes[0], askSize: sizes[1] } : {}) });
  }
  return { sections, rows, contracts };
}

export { cited } from '../citations.js';

export const bullets = (section: string | undefined, match: RegExp) => (section ?? '').split('\n').filter((l) => l.startsWith('- ') && match.test(l));

/** An outcome cell without its citation marker ("Hike 25bps [3]" → "Hike 25bps"), and that marker. */
export const outcomeOf = (cell: string) => ({ name: cell.replace(/\s*(\[\d+\])+\s*$/, ''), refs: /(\[\d+\])+\s*$/.exec(cell)?.[0] ?? '' });

/** Outcomes that are each one side of a level ("Above $92,000", "Above 2.8"): every one of them a yes/no of its own, not one of exclusive ranges. */
/** The levels the outcomes' labels state ("Above 2.8" → 2.8; "150k to 225k" → 150000 and 225000). */
export function labelLevels(rows: readonly Row[]): number[] {
  return rows.flatMap((r) => {
    const range = labelRange(outcomeOf(r.outcome).name);
    return range ? [range.from, range.to].filter((b): b is number => b !== null) : [];
  });
}

/**
 * The numbers of a text that are exactly one of `levels` ("if 3.0 drops to 80c", "should i buy yes
 * on 3600", "ev of buying 3400 yes"): a level said bare, not a count ("100 contracts", "100 of them") or a price ("80c").
 */
export function levelsNamed(text: string, levels: readonly number[]): number[] {
  return [...text.matchAll(/(?<![\w.$-])(\d+(?:\.\d+)?)(?![\w.%°¢]|\s*(?:contracts?|shares?|cents?|of)\b)/gi)].map((m) => Number(m[1])).filter((v) => levels.includes(v));
}

export function isLadder(rows: Row[]): boolean {
  if (rows.length < 2) return false;
  const ranges = rows.map((r) => labelRange(outcomeOf(r.outcome).name));
  return ranges.every((x) => x?.to === null && x.from !== null) || ranges.every((x) => x?.from === null && x.to !== null);
}

/** Which way a rung of a ladder pays: above its level, or below it. */
export { rungSide } from '../markets-search/asked.js';

/** Where a row sits on its event's levels: its label's bound ("Above 2.6" is 2.6); null when it states none. */
export const levelOfRow = (r: Row) => {
  const range = labelRange(outcomeOf(r.outcome).name);
  return range ? (range.from ?? range.to) : null;
};

/** The rows with levels, lowest first. */
export const byLevel = (rows: Row[]) => rows.filter((r) => levelOfRow(r) !== null).sort((a, b) => levelOfRow(a)! - levelOfRow(b)!);

export const rowLine = (r: Row) => {
  const { name, refs } = outcomeOf(r.outcome);
  // (Live quotes in a report's shape have no model.)
  return `- **${name}**: market ${r.market}${Number.isFinite(r.modelValue) ? `, model ${r.model}, gap ${r.gap}` : ''} ${refs}`.trimEnd();
};

export const percent = (x: number) => `${x.toFixed(1)}%`;

export const points = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(1)} pts`;

export const cents = (x: number) => `$${x.toFixed(2)}`;

/** An amount of dollars without its sign: whole dollars bare ("1,225"), else to the cent ("1.50"). */
export const money = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(Math.round(x * 100) / 100) ? 0 : 2, maximumFractionDigits: 2 });

export const count = (cell: string | undefined) => (cell && /^[\d,]+(?:\.\d+)?$/.test(cell) ? Number(cell.replace(/,/g, '')) : null);

export const dollars = (cell: string | undefined) => (cell && /^\$\d/.test(cell) ? Number(cell.slice(1)) : null);

/** The row scoring highest on `value` (rows without a score left out). */
export const bestRow = (rows: Row[], value: (r: Row) => number) => rows.filter((r) => Number.isFinite(value(r))).sort((a, b) => value(b) - value(a))[0];

export const names = (rs: Row[]) => listed(rs.map((r) => `**${outcomeOf(r.outcome).name}**`));

export const refsOf = (rs: Row[]) => [...new Set(rs.flatMap((r) => outcomeOf(r.outcome).refs.match(/\[\d+\]/g) ?? []))].join('');

export const sumOf = (rs: Row[], value: (r: Row) => number) => rs.reduce((a, r) => a + value(r), 0);

/** A row's gap in points, signed ("−2.1 pts" is −2.1). */
export function gapOf(r: Row): number {
  const m = /([+−-])?(\d+(?:\.\d+)?)/.exec(r.gap);
  return m ? (m[1] === '−' || m[1] === '-' ? -1 : 1) * Number(m[2]) : NaN;
}

/** ", model X%" of outcomes added up; nothing when any has no model probability (live quotes, no report). */
/**
 * "market 43.0% (their prices added up; 38.9% normalised to 100%)" of exclusive outcomes together:
 * the prices as quoted, summed, and their share once the overround is taken out, said which is which.
 */
export function marketSum(rs: Row[]): string {
  const [quoted, normalised] = [sumOf(rs, (r) => r.marketValue), sumOf(rs, (r) => r.marketNormalised)];
  return Math.abs(quoted - normalised) >= 0.05 ? `market ${percent(quoted)} (their prices added up; ${percent(normalised)} normalised to 100%)` : `market ${percent(normalised)}`;
}

export const modelSum = (rs: Row[]) => (rs.every((r) => Number.isFinite(r.modelValue)) ? `, model ${percent(sumOf(rs, (r) => r.modelValue))}` : '');

/** ", model between X% and Y%" of a sum bounded by two sets of outcomes; nothing without a model. */
export const modelBetween = (low: Row[], high: Row[]) =>
  [...low, ...high].every((r) => Number.isFinite(r.modelValue)) ? `, model between ${percent(sumOf(low, (r) => r.modelValue))} and ${percent(sumOf(high, (r) => r.modelValue))}` : '';
