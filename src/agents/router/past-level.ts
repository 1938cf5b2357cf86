import { bestRow, isLadder, outcomeOf, type Row } from './report-rows.js';
import { eventLine, expectedText, historyEvents, landedOn } from './report-answers.js';

// "Is it going to be warmer than last week?", "will cpi come in higher than last month?": the
// event's figure against one observed before. A report reads prices, the series' settled events
// and the rules, never the readings themselves, so it says what it knows instead of reading the
// question as a price move: what this event is expected to come in at, and which outcome each
// past event of that span resolved to.

/** The figure compared with an earlier reading, not a price ("warmer than last week", "higher than yesterday"). */
export const PAST_LEVEL = /\b(?:warmer|colder|hotter|cooler|higher|lower|bigger|smaller|more|less|fewer|above|below|over|under|up|down)\s+(?:than|from|on|vs\.?|versus|compared (?:to|with))\s+(?:(?:it|that|they) (?:was|were|did)\s+)?(?:the\s+)?(?:last (?:week|month|year|time|night|weekend|print|release|reading|report|meeting|one)|yesterday|(?:a|one|1) (?:day|week|month|year) (?:ago|before)|(?:previous|prior) (?:one|event|print|release|reading|meeting|week|month|day|year)|(?:last|previous|prior) (?:week|month|year)'s)\b/i;
/** Words that make the comparison one of prices, which the report's moves answer ("is hike priced higher than last week?"). */
const PRICE_WORDS = /\b(?:price[sd]?|pricing|odds|chances?|likel\w*|probab\w*|market|trad\w*|contracts?|yes|no|bid|ask|volume|cents?)\b|[%¢$]/i;

export const pastLevelAsked = (question: string) => PAST_LEVEL.test(question) && !PRICE_WORDS.test(question);

/** How far back the question looks, in days: 1 for "yesterday" or "the last one", else the span named. */
function spanDays(question: string): number {
  if (/\b(?:year)\b/i.test(question)) return 366;
  if (/\bmonth\b/i.test(question)) return 31;
  if (/\b(?:week|weekend)\b/i.test(question)) return 7;
  return 1;
}

export function pastLevelText(question: string, rows: Row[], history: string | undefined, asOf: string): string {
  const degrees = rows.some((r) => /°/.test(r.outcome));
  const figure = degrees ? 'temperature' : 'figure';
  const when = /\byesterday\b/i.exec(question)?.[0] ?? /\b(?:last|previous|prior) (?:week|month|year|time|night|weekend|print|release|reading|report|meeting|one|event|day)\b|\b(?:a|one|1) (?:day|week|month|year) (?:ago|before)\b/i.exec(question)?.[0] ?? 'before';
  const lead = `The report does not hold the ${figure} observed ${when.toLowerCase()}, so it cannot say whether this one comes in ${PAST_LEVEL.exec(question)![0].split(/\s+/)[0]!.toLowerCase()} than that: it reads the exchange's prices, the series' settled events and the rules, not the readings themselves. What it does know is where this event is expected to land:`;
  const expected = expectedText(rows, isLadder(rows), question);
  const [byMarket, byModel] = [bestRow(rows, (r) => r.marketNormalised), bestRow(rows, (r) => r.modelValue)];
  const likeliest = !isLadder(rows) && rows.length > 1 && byMarket && byModel ? `\n\nThe likeliest outcome is **${outcomeOf(byMarket.outcome).name}** on the market, at ${byMarket.market}${byModel === byMarket ? `, and on the model, at ${byModel.model}` : `; on the model, **${outcomeOf(byModel.outcome).name}**, at ${byModel.model}`} ${outcomeOf(byMarket.outcome).refs}${byModel === byMarket ? '' : outcomeOf(byModel.outcome).refs}.` : '';
  const events = historyEvents(history);
  const days = spanDays(when);
  const since = Date.parse(asOf) - days * 86_400_000;
  const inSpan = events.filter((e) => Date.parse(e.closed) >= since);
  const shown = inSpan.length ? inSpan : events.slice(0, 1);
  const refs = /((?:\s*\[\d+\])+)\.?\s*$/.exec((history ?? '').split('\n').find((l) => l.startsWith('**Base rates**')) ?? '')?.[1]?.replace(/\s+/g, '') ?? '';
  const past = shown.length
    ? `\n\nWhat the series' record does hold is which outcome each earlier event resolved to (the outcome, not the reading), ${inSpan.length ? `${inSpan.length === 1 ? 'the one' : `the ${inSpan.length}`} that closed in the ${days === 1 ? 'day' : `${days} days`} before the report` : 'the latest'} ${refs}:\n\n${shown.map((e) => `${eventLine(e)}${landedOn(e.won, rows)}`).join('\n')}`.replace(/ :/, ':')
    : '';
  return `${lead}\n\n${expected}${likeliest}${past}`;
}
