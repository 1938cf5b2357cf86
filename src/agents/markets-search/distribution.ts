import type { LabelRange } from './asked.js';

// What an event's prices imply beyond each outcome's own chance: the expected level and the
// median of exclusive outcomes, the median of a ladder, and a price as bookmakers' odds. Pure
// functions over chances in percent, shared by search answers (live prices) and report answers.

/** "What's the expected number of launches?", "the market-implied median", "mean temperature?". */
export const EXPECTED_ASKED = /\bhow (?:many|much|high|warm|cold)\b[^?]{0,40}\b(?:does|do) (?:the )?(?:market|traders|kalshi|prices) (?:expect|think|see)\b|\b(?:expected(?! value of (?:buy|sell|a |the |yes|no))|expectation|mean|median|average|implied (?:level|value|number|price|temperature|count))\b/i;

/** The same asked of a report, where "expected value" of a contract ("of buying YES") is a trade's and "average" is said of volumes: the level's mean or median only. */
export const LEVEL_EXPECTED_ASKED = /\bexpected #|\bhow (?:many|much|high|warm|cold)\b[^?]{0,40}\b(?:does|do) (?:the )?(?:market|traders|kalshi|prices|model) (?:expect|think|see|forecast|predict)\b|\bwhat (?:temperature|number|level|price|reading|count|rate|figure|print|total|gross)\b[^?]{0,30}\b(?:does|do|is) (?:the )?(?:market|traders|kalshi|prices|model)(?:'s)? (?:expect|forecast|predict|see|pricing)\w*|^\W*(?:so\s+|and\s+)?what(?:'s| is|s) the (?:market's |model's |implied )?forecast\W*$|\b(?:median|(?<!\b(?:i|I|that|this|it|does|do|did)\s)mean(?!\s+(?:that|the|it|this|those|like|anything|something|much)\b)|expected (?:number|level|count|temperature|high|low|price|reading|print|jobs|launches|rate|outcome|result|opening|gross|total|amount|extent|size|magnitude|move|change|approval|cpi|payrolls?)|implied (?:median|mean|level|value|number|price|temperature|count)|on average)\b|^\s*(?:what(?:'s| is) the )?expected value\s*\??\s*$/i;

/** "Convert that to American odds", "moneyline?", "decimal odds?". */
export const ODDS_FORMAT_ASKED = /\b(?:american|moneyline|money line|decimal|fractional|vegas|sportsbook)\b/i;

/** "What's the payout?", "what do I win?", "how much does a YES contract cost?". */
export const PAYOUT_ASKED = /\b(?:payouts?|pays? out|what (?:do|would|will|can|could) (?:i|you|we) (?:make|win|get|earn)|how much (?:would|could|will|do|does|can) (?:i|you|we) (?:make|win|get|earn)|how much (?:does|do|is) (?:a |one )?(?:yes|no|contract)\w*(?:\s+\w+){0,4}\s+cost)\b/i;

export interface Chance {
  label: string;
  range: LabelRange | null;
  /** In percent. */
  chance: number;
}

/**
 * The mean and the median of exclusive outcomes that are levels ("2 or fewer", "3", "4", "5 or
 * more"; "48°F to 51°F"), their chances normalised to add up to 100%. A range counts at its middle
 * (a count's single value at itself), an open-ended one at its bound, so a mean with open ends is
 * an estimate (`openEnded`). Null when an outcome states no level.
 */
export function expectedLevel(outcomes: readonly Chance[]): { mean: number; median: string; openEnded: boolean } | null {
  if (outcomes.length < 2 || outcomes.some((o) => o.range === null || !Number.isFinite(o.chance))) return null;
  const total = outcomes.reduce((sum, o) => sum + o.chance, 0);
  if (total <= 0) return null;
  const at = (r: LabelRange) => (r.from !== null && r.to !== null ? (r.from + r.to) / 2 : (r.from ?? r.to)!);
  const placed = outcomes.map((o) => ({ o, x: at(o.range!), p: o.chance / total })).sort((a, b) => a.x - b.x);
  const mean = placed.reduce((sum, { x, p }) => sum + x * p, 0);
  let cumulative = 0;
  const median = placed.find(({ p }) => (cumulative += p) >= 0.5)?.o.label ?? placed.at(-1)!.o.label;
  return { mean, median, openEnded: outcomes.some((o) => o.range!.from === null || o.range!.to === null) };
}

/**
 * A rate decision's outcome as a change in basis points: "Cut 25bps" −25, "Hold" 0, "Hike more
 * than 25bps" +50 (counted at the next usual step, `open`); null for any other label.
 */
export function rateMove(label: string): { bps: number; open: boolean } | null {
  if (/^\s*(?:hold|no change|unchanged|maintain\w*|pause)\b/i.test(label)) return { bps: 0, open: false };
  const m = /^\s*(cut|hike|raise|increase|decrease|lower)s?\s+(?:by\s+)?(more than\s+|over\s+|above\s+|at least\s+|>\s*|≥\s*)?(\d+)\s*(?:bps?|basis points)\b/i.exec(label);
  if (!m) return null;
  const sign = /cut|decrease|lower/i.test(m[1]!) ? -1 : 1;
  const beyond = m[2] !== undefined && !/at least|≥/i.test(m[2]);
  return { bps: sign * (Number(m[3]) + (beyond ? 25 : 0)), open: m[2] !== undefined };
}

export interface ExpectedMove {
  /** The expected change, in basis points. */
  mean: number;
  /** The chance of a cut of any size (percent of the total) and its expected size if there is one, in bps; likewise of a hike. */
  cut: { chance: number; size: number } | null;
  hike: { chance: number; size: number } | null;
  /** The outcome where the chances, from the largest cut up, first reach half. */
  median: string;
  /** An open-ended outcome was counted at the next step, so the figures are estimates. */
  openEnded: boolean;
}

/** What the chances of a rate decision's outcomes (in percent, any total) imply; null unless every outcome is a rate move. */
export function expectedMove(outcomes: readonly { label: string; chance: number }[]): ExpectedMove | null {
  const moves = outcomes.map((o) => ({ label: o.label, move: rateMove(o.label), chance: o.chance }));
  if (moves.length < 2 || moves.some((m) => m.move === null || !Number.isFinite(m.chance))) return null;
  const total = moves.reduce((sum, m) => sum + m.chance, 0);
  if (total <= 0) return null;
  const share = (keep: (bps: number) => boolean) => {
    const kept = moves.filter((m) => keep(m.move!.bps));
    const chance = kept.reduce((sum, m) => sum + m.chance, 0);
    return chance > 0 ? { chance: (100 * chance) / total, size: Math.abs(kept.reduce((sum, m) => sum + m.move!.bps * m.chance, 0) / chance) } : null;
  };
  let cumulative = 0;
  const median = [...moves].sort((a, b) => a.move!.bps - b.move!.bps).find((m) => (cumulative += m.chance) >= total / 2)!.label;
  return { mean: moves.reduce((sum, m) => sum + m.move!.bps * m.chance, 0) / total, cut: share((b) => b < 0), hike: share((b) => b > 0), median, openEnded: moves.some((m) => m.move!.open) };
}

/**
 * Where a ladder's median lies: the level where the chance of ending above crosses 50%. Rungs are
 * "Above" ones (a "Below" rung's chance is first turned into its other side by the caller).
 */
export function ladderMedian(rungs: readonly { level: string; value: number; above: number }[]): string {
  const sorted = [...rungs].sort((a, b) => a.value - b.value);
  const i = sorted.findIndex((r) => r.above < 50);
  return i === -1 ? `above ${sorted.at(-1)!.level}` : i === 0 ? `below ${sorted[0]!.level}` : `between ${sorted[i - 1]!.level} and ${sorted[i]!.level}`;
}

/** A chance as American (moneyline) odds: a favourite as the stake that wins $100 ("−167"), an underdog as what $100 wins ("+160"). */
export function americanOdds(percent: number): string {
  if (percent <= 0 || percent >= 100) return '—';
  const odds = percent >= 50 ? (100 * percent) / (100 - percent) : (100 * (100 - percent)) / percent;
  return `${percent >= 50 ? '−' : '+'}${Math.round(odds)}`;
}

/** A chance as decimal odds: what a winning $1 stake returns, stake included ("1.60"). */
export const decimalOdds = (percent: number) => (percent > 0 ? (100 / percent).toFixed(2) : '—');

/**
 * A chance as fractional odds (odds against, "3/5", "24/1"): the decimal odds shown less the stake,
 * as the simplest fraction within 1.5% of it, so both say the same thing (3.03 is 2/1, 1.60 is 3/5).
 */
export function fractionalOdds(percent: number): string {
  if (percent <= 0 || percent >= 100) return '—';
  const x = Number((100 / percent).toFixed(2)) - 1;
  const tolerance = 0.015 * x;
  let best = { a: Math.max(1, Math.round(x)), b: 1 };
  for (let b = 1; b <= 100; b++) {
    const a = Math.round(x * b);
    if (a < 1) continue;
    if (Math.abs(a / b - x) <= tolerance) return reduced(a, b);
    if (Math.abs(a / b - x) < Math.abs(best.a / best.b - x)) best = { a, b };
  }
  return reduced(best.a, best.b);
}

function reduced(a: number, b: number): string {
  const gcd = (x: number, y: number): number => (y ? gcd(y, x % y) : x);
  const d = gcd(a, b);
  return `${a / d}/${b / d}`;
}

/** "3.4", "51.4°F", "$93,120", "$38.3M", "87k": a mean to a tenth (whole above 1,000), in the unit and size the labels are written in. */
export function aboutLevel(x: number, labels: readonly string[] = []): string {
  const some = (size: RegExp) => labels.some((l) => size.test(l));
  // In the labels' own size: "$38.3M" of "$20M to $40M", "87k" of "75k to 150k".
  const n = some(/\d\s?B\b/) ? `${(x / 1e9).toFixed(1)}B` : some(/\d\s?M\b/) ? `${(x / 1e6).toFixed(1)}M` : some(/\d\s?k\b/i) ? `${Math.round(x / 1e3).toLocaleString('en-US')}k` : x.toLocaleString('en-US', { maximumFractionDigits: Math.abs(x) >= 1000 ? 0 : 1 });
  const every = (unit: string) => labels.length > 0 && labels.every((l) => l.includes(unit));
  return every('$') ? `$${n}` : every('°F') ? `${n}°F` : every('°C') ? `${n}°C` : every('%') ? `${n}%` : n;
}
