import type { KalshiEvent, KalshiMarket } from '../../data/kalshi/types.js';

// What a question about odds pins down besides its topic: when ("by the end of the year",
// "tomorrow", "in December") and at which level ("above 100k", "over 3%"). Search matches topics
// by words; these say whether the events found are about the date and the level asked.

/** A span of time a question asks about, and how to say it back ("at the end of 2026", "in December 2026", "tomorrow (2026-11-20)"). */
export interface AskedWhen {
  from: number;
  to: number;
  said: string;
}

const DAY = 86_400_000;
const HALF_DAY = DAY / 2;
export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})`;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const monthName = (m: number) => MONTHS[m]!.charAt(0).toUpperCase() + MONTHS[m]!.slice(1);

/**
 * A question asking which events there are, with no topic ("which Kalshi events do you have?",
 * "list all open prediction markets", "what can I bet on?", "what's open right now?"): every open event is listed.
 */
export const LIST_ASKED =
  /\b(?:list|show|give)\b[^?.!]{0,25}\b(?:events|markets|contracts)\b|\b(?:which|what)\s+(?:open\s+)?(?:kalshi\s+|prediction\s+)?(?:events|markets|contracts)\s+(?:do you|can i|are (?:there|open|available|listed)|have you|you)\b|\ball\s+(?:the\s+)?(?:open\s+)?(?:kalshi\s+|prediction\s+)?(?:events|markets)\b|\bwhat can i (?:bet|trade|wager) on\b|\bwhat(?:'s|’s|s|\s+is|\s+are)\s+(?:(?:still|currently)\s+)?(?:open|available|listed)\b|\b(?:top|popular|most (?:popular|active|traded))\s+(?:kalshi\s+|prediction\s+)?(?:events|markets)\b/i;

/** Words of such a question that name no topic ("list all open …"). */
export const LIST_WORDS = new Set(['list', 'all', 'open', 'have', 'show', 'give', 'top', 'popular', 'active', 'available', 'current', 'kalshi', 'listed', 'traded', 'cover', 'track', 'offer', 'trade', 'bet', 'wager']);

/** The date a question asks about, when it says one; null when it names none (or only a topic's own date words). */
export function whenAsked(query: string, now: number): AskedWhen | null {
  const q = query.toLowerCase();
  const year = new Date(now).getUTCFullYear();
  const endOfYear = /\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?(?:year|(20\d\d))|(20\d\d)\s+year[- ]end|year[- ]end(?:\s+(?:of\s+)?(20\d\d))?)\b/.exec(q);
  if (endOfYear) {
    const y = Number(endOfYear[1] ?? endOfYear[2] ?? endOfYear[3] ?? year);
    // The last days of the year: a year-end price, not one on any day before it.
    return { from: Date.UTC(y, 11, 15), to: Date.UTC(y + 1, 0, 8), said: `at the end of ${y}` };
  }
  // A day in UTC, with half a day either side: the asker's own day may begin or end hours apart.
  const day = (start: number) => ({ from: start - HALF_DAY, to: start + DAY + HALF_DAY });
  if (/\btoday\b|\btonight\b|\btonite\b/.test(q)) return { ...day(startOfDay(now)), said: `today (${isoDay(now)})` };
  if (/\b(?:tomorrow|tmrw|tmr|tmrrw|tomoz|tomorow)\b/.test(q)) return { ...day(startOfDay(now) + DAY), said: `tomorrow (${isoDay(now + DAY)})` };
  // A weekday is its next occurrence, today included ("next Friday" said on a Friday is a week on).
  const weekday = /\b(next\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(q);
  if (weekday) {
    const wanted = WEEKDAYS.indexOf(weekday[2]!);
    let ahead = (wanted - new Date(now).getUTCDay() + 7) % 7;
    if (ahead === 0 && weekday[1]) ahead = 7;
    const start = startOfDay(now) + ahead * DAY;
    return { ...day(start), said: `on ${weekday[2]!.charAt(0).toUpperCase()}${weekday[2]!.slice(1)} (${isoDay(start)})` };
  }
  // "This weekend" is the coming Saturday and Sunday (today's, on one of them).
  const weekend = /\b(?:(this|next)\s+)?weekend\b/.exec(q);
  if (weekend) {
    const saturday = startOfDay(now) + ((6 - new Date(now).getUTCDay() + 7) % 7) * DAY - (new Date(now).getUTCDay() === 0 ? 7 * DAY : 0) + (weekend[1] === 'next' ? 7 * DAY : 0);
    return { from: Math.max(now, saturday - HALF_DAY), to: saturday + 2 * DAY + HALF_DAY, said: `${weekend[1] === 'next' ? 'next' : 'this'} weekend (${isoDay(saturday)} and ${isoDay(saturday + DAY)})` };
  }
  // "This week" is the seven days ahead (an event "in the week ending" Tuesday is this week's on a
  // Thursday); "next week" the calendar week after this one, Monday to Sunday. Their days are said.
  const weekEnd = startOfDay(now) + 7 * DAY;
  if (/\bthis\s+week\b/.test(q)) return { from: now, to: weekEnd + DAY, said: `this week (to ${isoDay(weekEnd)})` };
  if (/\bnext\s+week\b/.test(q)) {
    const monday = startOfDay(now) + (((8 - new Date(now).getUTCDay()) % 7) || 7) * DAY;
    return { from: monday - HALF_DAY, to: monday + 7 * DAY + HALF_DAY, said: `next week (${isoDay(monday)} to ${isoDay(monday + 6 * DAY)})` };
  }
  const month = new RegExp(`\\b(?:in|by|for|during|this|next|until|before|end\\s+of|of)\\s+${MONTH}(?:\\s+(20\\d\\d))?\\b`).exec(q);
  if (month) {
    const m = MONTHS.findIndex((name) => name.startsWith(month[1]!.slice(0, 3)));
    const current = new Date(now).getUTCMonth();
    // A month without a year is its next occurrence (this month included), or its last one asked
    // of in the past tense ("what did the Fed do in October?").
    const past = /\b(?:did|was|were|happened|came|went)\b/.test(q);
    const y = month[2] ? Number(month[2]) : past ? (m <= current ? year : year - 1) : m >= current ? year : year + 1;
    return { from: Date.UTC(y, m, 1), to: Date.UTC(y, m + 1, 1) + HALF_DAY, said: `in ${monthName(m)} ${y}` };
  }
  const inYear = /\b(?:in|by|for|during|before|until)\s+(20\d\d)\b/.exec(q) ?? (/\bnext\s+year\b/.test(q) ? [null, String(year + 1)] : null);
  if (inYear) {
    const y = Number(inYear[1]);
    return { from: Date.UTC(y, 0, 1), to: Date.UTC(y + 1, 0, 8), said: `in ${y}` };
  }
  return null;
}

/** When an event settles: its strike date, else its markets' latest close. */
export function settlesAt(event: KalshiEvent): number | null {
  const strike = event.strike_date ? Date.parse(event.strike_date) : NaN;
  if (!Number.isNaN(strike)) return strike;
  const closes = (event.markets ?? []).map((m) => (m.close_time ? Date.parse(m.close_time) : NaN)).filter((t) => !Number.isNaN(t));
  return closes.length ? Math.max(...closes) : null;
}

/** A level a question names ("100k", "$120,000", "3%", "60 degrees"), and how to say it. */
export interface AskedLevel {
  value: number;
  said: string;
  /** As written when a size was said without a dollar sign ("200k"): said as money only of events priced in dollars. */
  plain?: string;
}

const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, billion: 1e9 };

/** The levels a question names: amounts, percentages, degrees, and plain numbers of five or more digits (not years). */
export function levelsAsked(query: string): AskedLevel[] {
  const q = query.toLowerCase();
  const out: AskedLevel[] = [];
  const add = (value: number, said: string, plain?: string) => {
    if (Number.isFinite(value) && !out.some((l) => l.value === value)) out.push({ value, said, ...(plain ? { plain } : {}) });
  };
  const money = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  for (const m of q.matchAll(/\$\s?(\d[\d,]*(?:\.\d+)?)\s*(k|m|b|thousand|million|billion)?\b/g)) {
    const n = Number(m[1]!.replace(/,/g, '')) * (m[2] ? SCALE[m[2]]! : 1);
    add(n, money(n));
  }
  for (const m of q.matchAll(/(?<![$\d.,])(\d+(?:\.\d+)?)\s*(k|thousand|m|million|b|billion)\b/g)) {
    const n = Number(m[1]) * SCALE[m[2]!]!;
    add(n, money(n), `${m[1]}${m[2]!.length === 1 ? m[2] : ` ${m[2]}`}`);
  }
  for (const m of q.matchAll(/(?<![$\d.,])(\d+(?:\.\d+)?)\s*(?:%|percent\b)/g)) add(Number(m[1]), `${m[1]}%`);
  for (const m of q.matchAll(/(?<![$\d.,])(\d+(?:\.\d+)?)\s*(?:°\s*[fc]?|degrees?\b|deg\b)/g)) add(Number(m[1]), `${m[1]}°`);
  for (const m of q.matchAll(/(?<![$\d.,])(\d{1,3}(?:,\d{3})+|\d{5,})(?![\d.,]*\s*(?:k|m|b|%|°))\b/g)) {
    const n = Number(m[1]!.replace(/,/g, ''));
    add(n, n.toLocaleString('en-US'));
  }
  // "payrolls come in negative": below zero.
  if (/\b(?:negative|positive)\b/.test(q) && !out.length) add(0, '0');
  // A shorter plain number said with a direction is a level too ("ETH above 3500", "more than 4
  // launches", "6 or more"), not a year.
  const UNIT = '(?![\\d.,]*\\s*(?:k|m|b|thousand|million|billion|%|percent|°|degrees?|deg|times)\\b)(?![\\d,])';
  const directed = [
    new RegExp(`\\b(?:above|below|over|under|at least|at most|(?:more|less|fewer|greater|higher|lower|colder|cooler|warmer|hotter) than|exactly|exceed(?:s|ing)?|hit(?:s|ting)?|reach(?:es|ing)?|beats?)\\s+(\\d{1,4}(?:\\.\\d+)?)${UNIT}`, 'g'),
    /(?<![\d.,$])(\d{1,4}(?:\.\d+)?)\s+or\s+(?:more|fewer|less|above|below|higher|lower|greater|over|under)\b/g,
    // "56+": 56 or more.
    /(?<![\d.,$])(\d{1,4}(?:\.\d+)?)\s*\+(?![\d])/g,
  ];
  for (const re of directed) {
    for (const m of q.matchAll(re)) {
      const n = Number(m[1]);
      add(n, n.toLocaleString('en-US'));
    }
  }
  return out;
}

/** A range an outcome's label states; an end said as "below 44" or "above 56" is not in it. */
export interface LabelRange {
  from: number | null;
  to: number | null;
  fromExcluded?: true;
  toExcluded?: true;
}

/** Which side of its rungs a ladder's outcome is on: "Above 2.6" above, "Below 44°F" below; null for a range or a value. */
export const rungSide = (range: LabelRange | null): 'above' | 'below' | null => (range?.from !== null && range?.to === null ? 'above' : range?.from === null && range?.to !== null ? 'below' : null);

/**
 * The month a question names (0 for January), or -1: "October", "oct", "sept"; "may" only as a
 * month ("the May meeting", "may cpi"), not "may rise".
 */
export function monthAsked(question: string): number {
  const said = (m: string) => (m === 'may' ? 'may(?=\\s+(?:event|meeting|decision|release|print|report|one|cpi|jobs))' : `${m}|${m.slice(0, 3)}${m === 'september' ? '|sept' : ''}`);
  return MONTHS.findIndex((m) => new RegExp(`\\b(?:${said(m)})\\b`, 'i').test(question));
}

/**
 * The range an outcome's label states when its strikes are not numbers ("48°F to 51°F", "56°F or
 * above", "Below 44°F"): Kalshi's custom strikes say it only in words.
 */
export function labelRange(label: string): LabelRange | null {
  // "150k to 225k", "Above 1.5M": a size glued to a number is part of it.
  const sized = label.replace(/(\d)\s?(k|m|b)\b/gi, (_, d: string, unit: string) => `${d}e${{ k: 3, m: 6, b: 9 }[unit.toLowerCase() as 'k' | 'm' | 'b']}`);
  if (sized !== label) return labelRangeOf(sized);
  return labelRangeOf(label);
}

function labelRangeOf(label: string): LabelRange | null {
  const n = (x: string) => Number(x.replace(/,/g, ''));
  const NUM = '(-?\\d[\\d,]*(?:\\.\\d+)?(?:e\\d)?)';
  const between = new RegExp(`${NUM}\\D{0,4}?\\s*(?:to|-|–)\\s*\\$?${NUM}`).exec(label);
  if (between) return { from: n(between[1]!), to: n(between[2]!) };
  const orAbove = new RegExp(`${NUM}\\S*\\s+or\\s+(?:above|more|higher|over)`, 'i').exec(label);
  if (orAbove) return { from: n(orAbove[1]!), to: null };
  const orBelow = new RegExp(`${NUM}\\S*\\s+or\\s+(?:below|less|lower|under|fewer)`, 'i').exec(label);
  if (orBelow) return { from: null, to: n(orBelow[1]!) };
  const below = new RegExp(`\\b(?:below|under|less than)\\s+\\$?${NUM}`, 'i').exec(label);
  if (below) return { from: null, to: n(below[1]!), toExcluded: true };
  const above = new RegExp(`\\b(?:above|over|more than)\\s+\\$?${NUM}`, 'i').exec(label);
  if (above) return { from: n(above[1]!), to: null, fromExcluded: true };
  // A count or amount alone ("3", "Exactly 4", "$50"): that one value.
  const one = new RegExp(`^\\s*(?:exactly\\s+)?\\$?${NUM}\\s*(?:%|°\\s*[fc]?)?\\s*$`, 'i').exec(label);
  if (one) return { from: n(one[1]!), to: n(one[1]!) };
  return null;
}

/** Whether a level lies in a label's range ("Below 44°F" does not hold 44; "44°F to 47°F" does). */
export function inRange(range: LabelRange, level: number): boolean {
  const above = range.from === null || (range.fromExcluded ? level > range.from : level >= range.from);
  const below = range.to === null || (range.toExcluded ? level < range.to : level <= range.to);
  return above && below;
}

const labelOfMarket = (m: KalshiMarket) => m.yes_sub_title ?? m.title ?? '';

/** Whether a market is the outcome at this level: its strike ("Above $100,000"), or a range holding it (by its strikes, or its label's words). */
export function atLevel(m: KalshiMarket, level: number): boolean {
  const near = (strike: number | null | undefined) => typeof strike === 'number' && Math.abs(strike - level) <= Math.max(0.01, Math.abs(level) * 1e-4);
  if (m.strike_type === 'between') return typeof m.floor_strike === 'number' && typeof m.cap_strike === 'number' && m.floor_strike <= level && level <= m.cap_strike;
  if (m.strike_type === 'greater' || m.strike_type === 'greater_or_equal') return near(m.floor_strike);
  if (m.strike_type === 'less' || m.strike_type === 'less_or_equal') return near(m.cap_strike);
  // A rung of a ladder is at its own level, "Above $100,000" at 100,000 as well.
  const range = labelRange(labelOfMarket(m));
  return range !== null && (range.from === null || level >= range.from) && (range.to === null || level <= range.to);
}

/** The markets whose outcomes are levels, lowest first (empty when none is): by their strikes, or the ranges their labels state. */
export function byStrike(markets: readonly KalshiMarket[]): KalshiMarket[] {
  return markets.filter((m) => levelOf(m) !== null && m.strike_type !== 'functional').sort((a, b) => levelOf(a)! - levelOf(b)!);
}

/** Where an outcome sits on its event's ladder of levels: its strike, else the range its label states. */
export function levelOf(m: KalshiMarket): number | null {
  if (typeof m.floor_strike === 'number') return m.floor_strike;
  if (typeof m.cap_strike === 'number') return m.cap_strike;
  const range = labelRange(labelOfMarket(m));
  return range ? (range.from ?? (range.to === null ? null : range.to - 1e-9)) : null;
}

/** Which side of a level a question asks about ("below 3%", "at least 5"), when it says. */
export function sideAsked(query: string): 'above' | 'below' | null {
  const q = query.toLowerCase();
  if (/\b(?:no|not) (?:less|lower|fewer) than\b/.test(q)) return 'above';
  if (/\b(?:below|under|less than|lower than|colder than|cooler than|at most|no more than|not more than|fewer than|negative)\b|\d(?:\s*(?:°\s*[fc]?|%|degrees?|bps|[kmb]))?\s+or\s+(?:fewer|less|lower|below|under)\b/.test(q)) return 'below';
  if (/\bpositive\b/.test(q)) return 'above';
  // "hits 50" / "reaches 50" / "50+" / "225k+": at least 50.
  if (/\d\s*[kmb]?\s*\+(?!\d)|\b(?:above|over|more than|higher than|greater than|warmer than|hotter than|at least|exceed\w*|hit(?:s|ting)?|reach(?:es|ing)?|beats?|beating|surpass\w*)\b|\d(?:\s*(?:°\s*[fc]?|%|degrees?|bps|[kmb]))?\s+or\s+(?:more|higher|above|over|greater)\b/.test(q)) return 'above';
  return null;
}

/**
 * Whether exclusive outcomes are whole-number counts, one of them a single value ("2 or fewer",
 * "3", "4", "5 or more"): then "more than 4" starts at 5, and "not above 4" is "at most 4".
 */
export function isCount(ranges: readonly (LabelRange | null)[]): boolean {
  return (
    ranges.length > 1 &&
    ranges.every((r) => r !== null && [r.from, r.to].every((b) => b === null || Number.isInteger(b))) &&
    ranges.some((r) => r!.from !== null && r!.from === r!.to)
  );
}

/**
 * Whether exclusive ranges hold whole numbers only: counts (see isCount), or integer ranges each
 * starting one past the last ("Below 44°F", "44°F to 47°F", "48°F to 51°F"), so that "above 55"
 * starts at 56. Ranges that meet at a bound ("41% to 42%", "42% to 43%") are continuous.
 */
export function isDiscrete(ranges: readonly (LabelRange | null)[]): boolean {
  if (isCount(ranges)) return true;
  if (ranges.length < 2 || ranges.some((r) => r === null || [r.from, r.to].some((b) => b !== null && !Number.isInteger(b)))) return false;
  const sorted = [...(ranges as LabelRange[])].sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
  return sorted.every((r, i) => {
    const next = sorted[i + 1];
    return !next || (r.to !== null && next.from === (r.toExcluded ? r.to : r.to + 1));
  });
}

/** One side of a count's level as asked: the level made inclusive ("more than 4" is from 5), and how to say it. */
export function countSide(level: number, side: 'above' | 'below', inclusive: boolean): { level: number; words: string } {
  if (side === 'above') return inclusive ? { level, words: 'at least' } : { level: level + 1, words: 'more than' };
  return inclusive ? { level, words: 'at most' } : { level: level - 1, words: 'fewer than' };
}

/** Whether the side a question asks includes its level ("at least 3", "5 or more", "no more than 2") rather than starting past it ("more than 4"). */
export function sideIncludesLevel(query: string): boolean {
  return /\d\s*\+(?!\d)|\b(?:at least|at most|hit(?:s|ting)?|reach(?:es|ing)?|(?:no|not) (?:more|less|fewer|higher|lower) than)\b|\d(?:\s*(?:°\s*[fc]?|%|degrees?|bps|[kmb]))?\s+or\s+(?:more|fewer|less|higher|lower|above|below|over|under|greater)\b/.test(query.toLowerCase());
}

/** Which side of its level a market's YES is: above (a floor), below (a cap); null for a range or no level. */
export function sideOf(m: KalshiMarket): 'above' | 'below' | null {
  if (m.strike_type === 'greater' || m.strike_type === 'greater_or_equal') return 'above';
  if (m.strike_type === 'less' || m.strike_type === 'less_or_equal') return 'below';
  if (m.strike_type === 'between') return null;
  const range = labelRange(labelOfMarket(m));
  return range?.to === null && range.from !== null ? 'above' : range?.from === null && range.to !== null ? 'below' : null;
}

/**
 * Whether a question asks for an outcome not to happen ("they don't hike", "bitcoin does not end
 * above 100k", "no shutdown"). Bounds said with a negation ("no more than 3") are a side, not this.
 */
/**
 * The side a head-to-head question is about when it names both ("the Chiefs lose to the Bills":
 * the Chiefs; "will the Bills beat the Chiefs": the Bills): the word before the verb, or null.
 */
export function contestSubject(query: string): string | null {
  return /\b([a-z]{3,})\s+(?:(?:will|would|could|to)\s+)?(?:los(?:e|es|ing)\s+to|beats?|beating|defeats?|defeating|wins? (?:against|over))\b/i.exec(query)?.[1]?.toLowerCase() ?? null;
}

export function negated(query: string): boolean {
  const q = query.toLowerCase().replace(/[’‘]/g, "'").replace(/\b(?:no|not) (?:more|less|fewer|higher|lower) than\b|\bnot only\b|\bor not\b|\bwhether\b|\bno change\b/g, ' ');
  // "The Celtics lose" is their not winning.
  return /\b(?:not|no|never|without|fails? to|los(?:e|es|ing)|(?:do|does|did|is|are|was|were|wo|ca|would|will)n'?t)\b/.test(q);
}

/** The range a market's YES covers: its strikes (Kalshi's 'greater' is above its floor, 'less' below its cap), else its label's words. */
export function rangeOfMarket(m: KalshiMarket): LabelRange | null {
  if (m.strike_type === 'between' && typeof m.floor_strike === 'number' && typeof m.cap_strike === 'number') return { from: m.floor_strike, to: m.cap_strike };
  if ((m.strike_type === 'greater' || m.strike_type === 'greater_or_equal') && typeof m.floor_strike === 'number') return { from: m.floor_strike, to: null, ...(m.strike_type === 'greater' ? { fromExcluded: true as const } : {}) };
  if ((m.strike_type === 'less' || m.strike_type === 'less_or_equal') && typeof m.cap_strike === 'number') return { from: null, to: m.cap_strike, ...(m.strike_type === 'less' ? { toExcluded: true as const } : {}) };
  return labelRange(labelOfMarket(m));
}

/** What one side of a level covers among exclusive ranges: the outcomes wholly on that side, and the one the level falls inside. */
export interface SideCover<T> {
  whole: T[];
  split: T | null;
}

/**
 * "Above 60" of "Below 44°F … 56°F or above": no outcome is that side, but "56°F or above" holds
 * it (so at most its price), "below 50" is "Below 44°F" and "44°F to 47°F" and part of "48°F to
 * 51°F". Null when the outcomes are not exclusive ranges (a ladder of "Above X" rungs, names).
 */
export function coverOfSide<T>(items: readonly T[], rangeOf: (t: T) => LabelRange | null, level: number, side: 'above' | 'below', discrete = false): SideCover<T> | null {
  const ranged = items.map((t) => ({ t, r: rangeOf(t) }));
  if (ranged.length < 2 || ranged.some((x) => x.r === null)) return null;
  // A ladder's rungs all open on one side; exclusive ranges have a bounded one or open on both sides.
  const openAbove = ranged.filter((x) => x.r!.to === null).length;
  const openBelow = ranged.filter((x) => x.r!.from === null).length;
  if (openAbove === ranged.length || openBelow === ranged.length) return null;
  const cover: SideCover<T> = { whole: [], split: null };
  for (const { t, r } of ranged) {
    const [lo, hi] = [r!.from ?? -Infinity, r!.to ?? Infinity];
    if (side === 'above' ? lo >= level : hi <= level) cover.whole.push(t);
    // Whole numbers: "48°F to 51°F" holds 51, so "at least 51" takes part of it.
    else if (discrete && !r!.toExcluded ? lo <= level && level <= hi : lo < level && level < hi) cover.split = t;
  }
  return cover;
}

const RANGE_NUMBER = '\\$?(\\d[\\d,]*(?:\\.\\d+)?(?:\\s?(?:k|m|b)(?![a-z]))?)\\s*(?:%|°\\s*[fc]?|degrees?|bps)?';
const RANGE_ASKED = new RegExp(`\\bbetween\\s+${RANGE_NUMBER}\\s+and\\s+${RANGE_NUMBER}|(?<![\\w.-])${RANGE_NUMBER}\\s*(?:to|-|–)\\s*${RANGE_NUMBER}(?![\\w.-])`, 'i');

/** A range of levels the question asks about ("between 44 and 51", "41% to 42%", "96k-100k"), low to high. */
export function rangeAsked(question: string): { from: number; to: number; said: string } | null {
  const m = RANGE_ASKED.exec(question);
  // "In the 50s" (degrees, say): 50 to 59.
  const decade = m ? null : /\b(?:in the )?(?<!(?:low|high|mid) )\b([1-9]0)'?s\b/i.exec(question);
  if (decade) return { from: Number(decade[1]), to: Number(decade[1]) + 9, said: decade[0].trim() };
  if (!m) return null;
  const [a, b] = [labelRange(m[1] ?? m[3]!), labelRange(m[2] ?? m[4]!)];
  if (a?.from == null || b?.from == null || a.from === b.from) return null;
  return { from: Math.min(a.from, b.from), to: Math.max(a.from, b.from), said: m[0].trim() };
}

/** An amount as a label would write it: "$40M", "$1.5B", "$950". */
export function compactDollars(v: number): string {
  const [unit, size] = v >= 1e9 ? ['B', 1e9] : v >= 1e6 ? ['M', 1e6] : ['', 1];
  return `$${(v / size).toLocaleString('en-US', { maximumFractionDigits: 2 })}${unit}`;
}

/**
 * A level in the scale of an event's labels: "10 million (square km)" asked of rungs labelled
 * "Above 10.0" is 10, and "40" asked of buckets labelled "$40M to $60M" is 40 million. A value
 * far above the labels' span (100 times) is tried in thousands, millions and billions, one far
 * below it as that many thousands, millions or billions; when none fits, it is kept as asked.
 */
export function inLabelScale(value: number, bounds: readonly number[]): number {
  if (!bounds.length) return value;
  const [lowest, highest] = [Math.min(...bounds), Math.max(...bounds)];
  if (value >= lowest / 100 && value <= highest * 100) return value;
  const scaled = value < lowest ? [value * 1e3, value * 1e6, value * 1e9] : [value / 1e3, value / 1e6, value / 1e9];
  return scaled.find((x) => x >= lowest && x <= highest) ?? value;
}

/** Words for a Fed decision's outcomes that are not their labels ("rates go up" is a hike, "no change" a hold). */
const OUTCOME_SYNONYMS: [RegExp, string][] = [
  [/\brates? (?:go(?:es)? up|rise|rising|increase|climb)|\brais(?:e|es|ing) (?:interest )?(?:rates|them)\b|\brate (?:increase|rise)\b/, 'hike'],
  [/\b(?:unchanged|steady|stay(?:s)? the same|no change|pause|on hold|stand pat)\b/, 'hold'],
  [/\brates? (?:go(?:es)? down|fall|drop|decrease)|\b(?:lower|reduce|ease)(?:s|ing)? (?:interest )?(?:rates|them)\b|\brate (?:reduction|decrease)\b/, 'cut'],
];

/** A question (lower case) with the outcome labels its words stand for added, of those the event's labels (lower case) hold. */
export function withOutcomeSynonyms(said: string, labels: string): string {
  return `${said}${OUTCOME_SYNONYMS.filter(([words, label]) => words.test(said) && new RegExp(`\\b${label}`).test(labels)).map(([, label]) => ` ${label}`).join('')}`;
}

/** "Will they hike?", "is the govt going to shut down?", "are they gonna cut?": whether it happens. */
export const WILL_IT = /^\s*(?:so\s+|and\s+)?(?:will\b|(?:is|are)\s+(?:[\w'.]+\s+){0,5}?(?:going\s+to|gonna)\b)/i;
