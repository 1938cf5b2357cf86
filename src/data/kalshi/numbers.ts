/**
 * Kalshi sends prices and counts as fixed-point decimal strings ("0.5600", "850.64"). They are
 * held as integers of millionths, so nothing drifts: 0.56 is 560000, and sums, mids and spreads
 * are exact. Formatting shows exactly the value, with no trailing zeros beyond what is needed.
 */
export const SCALE = 1_000_000;

/** Millionths of a decimal string, or null when absent or not a number. Up to 6 decimals are exact. */
export function parseFixed(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value).trim();
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return null;
  const frac = (m[3] ?? '').padEnd(6, '0');
  // Beyond 6 decimals: round half up at the millionth.
  const extra = frac.length > 6 && frac[6]! >= '5' ? 1 : 0;
  const n = Number(m[2]) * SCALE + Number(frac.slice(0, 6)) + extra;
  return m[1] ? -n : n;
}

/** `0.715000` → "0.715"; at least `minDecimals` decimals. */
export function formatFixed(micro: number, minDecimals = 0): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const int = Math.floor(abs / SCALE);
  let frac = String(abs % SCALE).padStart(6, '0').replace(/0+$/, '');
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, '0');
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** A price in dollars: "$0.71", "$0.715". */
export const formatDollars = (micro: number) => `$${formatFixed(micro, 2)}`;

/** A price read as a probability: 0.715 → "71.5%". */
export function formatPercent(micro: number): string {
  return `${formatFixed(micro * 100, 1)}%`;
}

/** A contract count with thousands separators: "412,877", "850.64". */
export function formatCount(micro: number): string {
  const [int, frac] = formatFixed(micro).split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

export const toProbability = (micro: number) => micro / SCALE;
