import { addDays, fromDay, toDay } from './dates.js';

/**
 * SEC business days: a filing deadline that falls on a weekend or a federal holiday moves to the
 * next business day (Rule 0-3 of the Exchange Act). The holidays are the federal ones, a Saturday
 * holiday observed the Friday before and a Sunday one the Monday after.
 */

const weekday = (iso: string) => (toDay(iso) + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** The nth given weekday of a month (n = -1: the last). */
function nthWeekday(y: number, m: number, day: number, n: number): string {
  if (n < 0) {
    const last = fromDay(toDay(iso(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1)) - 1);
    return addDays(last, -((weekday(last) - day + 7) % 7));
  }
  const first = iso(y, m, 1);
  return addDays(first, ((day - weekday(first) + 7) % 7) + 7 * (n - 1));
}

/** A fixed-date holiday as observed: Saturday's on the Friday before, Sunday's on the Monday after. */
function observed(date: string): string {
  const w = weekday(date);
  return w === 6 ? addDays(date, -1) : w === 0 ? addDays(date, 1) : date;
}

function federalHolidays(y: number): Set<string> {
  return new Set([
    observed(iso(y, 1, 1)),
    nthWeekday(y, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(y, 2, 1, 3), // Washington's Birthday
    nthWeekday(y, 5, 1, -1), // Memorial Day
    ...(y >= 2021 ? [observed(iso(y, 6, 19))] : []), // Juneteenth
    observed(iso(y, 7, 4)),
    nthWeekday(y, 9, 1, 1), // Labor Day
    nthWeekday(y, 10, 1, 2), // Columbus Day
    observed(iso(y, 11, 11)),
    nthWeekday(y, 11, 4, 4), // Thanksgiving
    observed(iso(y, 12, 25)),
    // New Year's Day of the next year falling on a Saturday is observed on this year's December 31.
    observed(iso(y + 1, 1, 1)),
  ]);
}

export const isBusinessDay = (date: string) => weekday(date) !== 0 && weekday(date) !== 6 && !federalHolidays(Number(date.slice(0, 4))).has(date);

/** The day itself when it is a business day, else the next one. */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Why a day is no business day: "a Saturday", "a federal holiday"; null for a business day. */
export function closedBecause(date: string): string | null {
  if (isBusinessDay(date)) return null;
  const w = weekday(date);
  return w === 0 || w === 6 ? `a ${WEEKDAYS[w]}` : 'a federal holiday';
}
