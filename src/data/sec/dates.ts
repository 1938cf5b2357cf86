/** Calendar dates as ISO `YYYY-MM-DD` strings, the way EDGAR writes them; arithmetic in UTC days. */

const DAY_MS = 86_400_000;

export function toDay(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
}

export function fromDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export const addDays = (iso: string, days: number) => fromDay(toDay(iso) + days);

/** Days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string) => toDay(b) - toDay(a);

/** Length of a duration fact, counting both ends (a quarter is ~91). */
export const durationDays = (start: string, end: string) => daysBetween(start, end) + 1;

export function isIsoDate(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && fromDay(toDay(s)) === s;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function monthName(month: number): string {
  return MONTHS[month - 1] ?? '';
}

/** "June 29, 2024". */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${monthName(m)} ${d}, ${y}`;
}
