import { MONTHS, labelRange, monthAsked, monthName, type LabelRange } from '../markets-search/asked.js';
import { aboutLevel, americanOdds, decimalOdds, expectedLevel, expectedMove, fractionalOdds, rateMove, type ExpectedMove } from '../markets-search/distribution.js';
import { withTeam } from '../prediction-markets/research.js';
import { calibrate, monotoneLadder, predict, rateWeight, type Strike } from '../prediction-markets/model.js';
import { capitalise } from '../sec/format.js';
import { listed } from '../citations.js';
import { bestRow, bullets, byLevel, gapOf, modelBetween, modelSum, isLadder, levelOfRow, names, outcomeOf, percent, points, refsOf, rowLine, rungSide, sumOf, type Row } from './report-rows.js';

// Answers drawn from one section of a stored report (its rules, its price moves, its resolution
// history, its method) or from its outcome rows (likelihood, ranges of levels), for the questions
// event-questions.ts reads.

const TIE = /\b(?:ties?|tied|draws?)\b/i;
const RULE_BULLET = /^- \*\*(?:How it resolves|Resolution source|Full rules|Could flip)/;
/** What the result is read from ("which station is used?", "what index settles it?", "who announces it?"). */
export const SOURCE_ASKED = /\b(?:which|what) (?:index|station|source|benchmark|data|feed|agency|report)\b|\b(?:settlement|resolution|resolving|official|data) source\b|\bwho (?:announces|decides|reports|determines|publishes)\b/i;
/** Words of a question about the rules that say nothing about the case asked. */
const RULE_STOPWORDS = new Set(
  'what happens happen happened the and for does did will would could should say says said about rules rule resolve resolves resolved resolution settle settles how when there this that with game event market markets contract contracts outcome outcomes count counts counted ends end ending odds chance chances probability case are was were its it quote quoted exact exactly wording text word words full me give show tell read unit units measured measure in of on again'.split(' '),
);

/** Words for a case that the rules put otherwise. */
const RULE_SYNONYMS: Record<string, string[]> = Object.fromEntries(
  [
    ['hour hours minute minutes brief briefly short quick few', ['shorter', 'duration', 'length']],
    ['day days week weeks long longer', ['longer', 'duration', 'length', 'day']],
    ['late later delayed delay', ['delay', 'postpone', 'late']],
    ['called cancelled canceled abandoned', ['cancel', 'postpone']],
    // "What if one blows up mid flight?": a launch that fails.
    ['blows blow blew explodes exploded explosion crashes crashed failure failed anomaly rud', ['fail', 'scrub']],
  ].flatMap(([words, stems]) => (words as string).split(' ').map((w) => [w, stems as string[]])),
);

/** "Is X likely?" or "unlikely?", not "most likely" nor "the likeliest", which ask for the favourite. */
export const LIKELIHOOD = /\b(?<!(?:most|least|more|less)\s)(?:un)?likely\b(?!\s+than)/i;

/**
 * Whether the outcomes named are likely (more likely than not) or unlikely, on the market's price
 * normalised (within five points of even, "about even"), with the model's reading beside it.
 */
export function likelihoodText(named: Row[], unlikely: boolean): string {
  const market = sumOf(named, (r) => r.marketNormalised);
  const model = sumOf(named, (r) => r.modelValue);
  const side = (p: number) => (p > 55 ? 'likely' : p < 45 ? 'unlikely' : 'even');
  const read = side(market);
  const verdict = read === 'even' ? '**About even**' : (read === 'unlikely') === unlikely ? '**Yes**' : '**No**';
  const said = { likely: 'more likely than not', unlikely: 'less likely than not', even: 'close to even' } as const;
  const what = named.length === 1 ? `**${outcomeOf(named[0]!.outcome).name}** is at ${named[0]!.market}` : `${listed(named.map((r) => `**${outcomeOf(r.outcome).name}**`))} together are at ${percent(market)} (normalised)`;
  const modelSide = side(model) === read ? `; the model agrees, at ${percent(model)}` : `; the model reads it as ${said[side(model)]}, at ${percent(model)}`;
  return `${verdict}: ${what}, ${said[read]} on the market's price${modelSide} ${refsOf(named)}.`;
}

/**
 * The report's quotes of the rules that speak to the case asked ("a tie", "overtime", "the
 * settlement time"), before the link to the full terms; when none does, says so, with what the
 * report quotes. A tie asked of exclusive outcomes: none of them is one, and what their prices leave for it.
 */
export function rulesText(question: string, claims: string | undefined, rows: Row[], exclusive: boolean, title = ''): string | null {
  const all = bullets(claims, RULE_BULLET);
  // Asked where the result comes from: the rule as written (which names it) and the source.
  if (SOURCE_ASKED.test(question)) {
    const source = all.filter((l) => /^- \*\*(?:How it resolves|Resolution source|Full rules)/.test(l));
    if (source.length) return source.join('\n');
  }
  // The event's own words ("shutdown" of a shutdown event) are in every rule: they pick none out.
  const topic = new Set(title.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  const inTopic = (w: string) => topic.has(w) || topic.has(`${w}s`) || topic.has(`${w}es`);
  const words = [...new Set(question.toLowerCase().match(/[a-z]{3,}/g) ?? [])].filter((w) => !RULE_STOPWORDS.has(w) && !inTopic(w));
  // "tied" finds "tie", "postponed" finds "postponement"; "a few hours" finds a rule about a lapse "shorter than one business day".
  const stems = [...new Set(words.flatMap((w) => [w.replace(/(?:ments?|ing|ed|es|s)$/, ''), ...(RULE_SYNONYMS[w] ?? [])]))].filter((w) => w.length >= 3);
  // "Which labs count as top-3?": what qualifies is in the rule as written, whatever words it uses.
  const qualifies = /\b(?:counts?|qualif\w*|eligible|included?|which|who)\b/i.test(question);
  const hits = all.filter((l) => !/^- \*\*Full rules/.test(l) && ((qualifies && /^- \*\*How it resolves/.test(l)) || stems.some((w) => new RegExp(`\\b${w}`, 'i').test(l.replace(/\[\d+\]/g, '')))));
  const terms = all.filter((l) => /^- \*\*Full rules/.test(l));
  let tie = '';
  if (TIE.test(question) && exclusive && rows.length > 1) {
    const sum = sumOf(rows, (r) => r.marketValue);
    tie = `No outcome of this event is a tie. The market's prices add up to ${percent(sum)}, ${sum >= 100 ? 'leaving nothing priced for a result that is none of them' : `leaving about ${percent(100 - sum)} for a result that is none of them`} ${refsOf(rows)}.`;
  }
  if (hits.length) return [tie, [...hits, ...terms].join('\n')].filter(Boolean).join('\n\n');
  if (!all.length) return tie || null;
  if (!stems.length) return all.join('\n');
  const said = words.join(' ');
  return [tie, `The rules the report quotes say nothing about “${said}”; the full terms are in the contract terms. What it quotes:`, all.join('\n')].filter(Boolean).join('\n\n');
}

/**
 * Prices a day and a week before the report, from its "Prices 24 hours and 7 days ago" line: of the
 * outcomes named (all when none is), the window asked ("a week ago", "yesterday"), or the largest
 * move over it ("biggest mover?", over the week unless the day is asked).
 */
/** Each outcome's price 24 hours and 7 days before the report and now, from its key claims, with their sources. */
export function pastPrices(claims: string | undefined): { all: { label: string; day: number | null; week: number | null; now: number }[]; refs: string } | null {
  const line = bullets(claims, /^- \*\*Prices 24 hours and 7 days ago:\*\*/)[0];
  if (!line) return null;
  const refs = /(\[\d+\])+\.?$/.exec(line)?.[0].replace(/\.$/, '') ?? '';
  const body = line.replace(/^- \*\*Prices 24 hours and 7 days ago:\*\* /, '').replace(/\s*(\[\d+\])+\.?$/, '');
  const value = (x: string) => (x === 'n/a' ? null : Number(x.replace('%', '')));
  const all = [...body.matchAll(/(?:^|; )(.+?) (\d+(?:\.\d+)?%|n\/a) and (\d+(?:\.\d+)?%|n\/a) \(now (\d+(?:\.\d+)?%)\)/g)].map((m) => ({ label: m[1]!, day: value(m[2]!), week: value(m[3]!), now: value(m[4]!)! }));
  return all.length ? { all, refs } : null;
}

/** Two or more moves compared ("which of those two moved more?", "did hold move less than hike?"). */
export const MOVED_MORE = /\b(?:more|less|bigger|larger|smaller|further|most|least)\b/i;

/** The span a question asks a price move over: the last day, the last week, or not said. */
const windowAsked = (q: string): 'day' | 'week' | 'both' =>
  /\b(?:yesterday|today|(?:a|one|1) day|24 ?h|last night|overnight)\b/i.test(q) ? 'day' : /\b(?:week|7 days|seven days)\b/i.test(q) ? 'week' : 'both';

/** `from`: whose time the prices are counted back from (a report's, or the live quotes'). */
export function pastText(question: string, named: Row[], claims: string | undefined, from = "the report's time"): string | null {
  const past = pastPrices(claims);
  if (!past) return null;
  const { all, refs } = past;
  const q = question.toLowerCase();
  const window = windowAsked(q);
  const said = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(1)}%`);
  const change = (now: number, then: number | null) => (then === null ? '' : Math.abs(now - then) < 0.05 ? ', unchanged since' : `, ${now > then ? '+' : '−'}${Math.abs(now - then).toFixed(1)} pts since`);
  const lineOf = (o: (typeof all)[number]) =>
    window === 'both'
      ? `- **${o.label}**: ${said(o.week)} 7 days ago, ${said(o.day)} 24 hours ago, ${said(o.now)} now`
      : `- **${o.label}**: ${said(o[window])} ${window === 'day' ? '24 hours' : '7 days'} ago${change(o.now, o[window])}; ${said(o.now)} now`;
  const picked = named.length ? all.filter((o) => named.some((r) => outcomeOf(r.outcome).name === o.label)) : all;
  if (!picked.length) return null;
  // "Which of those two moved more this week?": each one's move, then which moved more.
  if (named.length > 1 && picked.length > 1 && MOVED_MORE.test(q)) {
    const over = window === 'day' ? 'day' : 'week';
    const ranked = picked.filter((o) => o[over] !== null).sort((a, b) => Math.abs(b.now - b[over]!) - Math.abs(a.now - a[over]!));
    if (ranked.length > 1) {
      const move = (o: (typeof all)[number]) => Math.abs(o.now - o[over]!);
      const span = over === 'day' ? '24 hours' : '7 days';
      const tied = move(ranked[0]!) - move(ranked[1]!) < 0.05;
      const verdict = tied
        ? `They moved about as much as each other over the last ${span}.`
        : `**${ranked[0]!.label}** moved more over the last ${span}: ${move(ranked[0]!).toFixed(1)} pts against ${move(ranked[1]!).toFixed(1)} for ${ranked[1]!.label}.`;
      return `${ranked.map((o) => `- **${o.label}**: ${said(o[over])} ${span} ago${change(o.now, o[over])}; ${said(o.now)} now`).join('\n')} ${refs}\n\n${verdict}\n\nCounted back from ${from}; each price then is on the basis of the price now (the mid of the book, or the last trade).`;
    }
  }
  if (/\b(?:biggest|largest|most)\b/.test(q)) {
    const over = window === 'day' ? 'day' : 'week';
    const ranked = all.filter((o) => o[over] !== null).sort((a, b) => Math.abs(b.now - b[over]!) - Math.abs(a.now - a[over]!));
    if (!ranked.length) return null;
    const top = ranked[0]!;
    return `The biggest mover over the last ${over === 'day' ? '24 hours' : '7 days'} is **${top.label}**: ${said(top[over])} then, ${said(top.now)} now${change(top.now, top[over]).replace(' since', '')} ${refs}.\n\n${ranked.map(lineOf).join('\n')}`;
  }
  // A week asked of quotes that carry only the day before ("btc 96k a week ago?" with no report): that day, said so.
  if (window === 'week' && picked.every((o) => o.week === null) && picked.some((o) => o.day !== null)) {
    const day = (o: (typeof all)[number]) => `- **${o.label}**: ${said(o.day)} 24 hours ago${change(o.now, o.day)}; ${said(o.now)} now`;
    return `The price a week ago is not in ${from === "the report's time" ? 'the report' : "the exchange's quotes, which carry the price a day before only (a report adds the 7-day line)"}; a day ago:\n\n${picked.map(day).join('\n')} ${refs}\n\nCounted back from ${from}; each price then is on the basis of the price now (the mid of the book, or the last trade).`;
  }
  return `${picked.map(lineOf).join('\n')} ${refs}\n\nCounted back from ${from}; each price then is on the basis of the price now (the mid of the book, or the last trade).`;
}

/** The settled events of the report's history table, newest first: each one's ticker, close, outcomes resolved YES ("none", or listed with ", ") and their prices before close. */
export function historyEvents(history: string | undefined): { ticker: string; closed: string; won: string; price: string }[] {
  const table = (history ?? '').split('\n').filter((l) => /^\| [A-Z0-9]/.test(l) && !l.startsWith('| Event |'));
  return table.map((l) => l.split('|').slice(1, -1).map((c) => c.trim())).map(([ticker, closed, won, price]) => ({ ticker: ticker!, closed: closed!, won: won ?? '', price: price ?? '' }));
}

/** A count claimed of the series' record ("won 4 of the last 5"); not a level's digits ("3.2 in the last 12"). */
export const LAST_CLAIM = /(?<![\d.])\b(\d{1,2})\s+(?:of|out of)\s+(?:the\s+)?(?:last|past)\s+\d{1,2}\b/i;
const COUNT_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** "The last 5", "the past three weeks": how many of the series' latest settled events are asked about. */
export const LAST_N = /\b(?:last|past|previous|prior)\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?!\s*(?:hours?|hrs?|h|minutes?)\b)/i;
export const lastCount = (question: string): number | null => {
  const said = LAST_N.exec(question)?.[1]?.toLowerCase();
  if (!said) return null;
  const n = /^\d/.test(said) ? Number(said) : COUNT_WORDS.indexOf(said) + 2;
  return n > 0 ? n : null;
};

/**
 * The series' last N settled events, from the report's history table ("how many of the last 5
 * came in below 41?", "last 3 weeks, which bucket won?", "lakers won 4 of the last 5 right?"):
 * how often each outcome named resolved YES in them (a count claimed, checked), or, none named,
 * what won each; null when no count is asked or the history has none.
 */
export function lastEventsText(question: string, named: Row[], rows: Row[], history: string | undefined): string | null {
  const n = lastCount(question);
  const events = historyEvents(history);
  if (!n || !events.length) return null;
  const last = events.slice(0, n);
  const refs = /((?:\s*\[\d+\])+)\.?\s*$/.exec((history ?? '').split('\n').find((l) => l.startsWith('**Base rates**')) ?? '')?.[1]?.replace(/\s+/g, '') ?? '';
  const fewer = last.length < n ? ` (the report's history has ${last.length})` : '';
  const asked = named.length ? named : rows.length === 1 ? rows : [];
  if (!asked.length) {
    return `What resolved YES in the last ${last.length} settled events of the series${fewer}, newest first ${refs}:\n\n${last.map((e) => `- ${e.ticker} (closed ${e.closed}): ${e.won || 'none'}`).join('\n')}`;
  }
  const claim = LAST_CLAIM.exec(question);
  // A count claimed of one of two named ("lakers won 4 of the last 5 vs boston"): of the one said first.
  const at = (r: Row) => {
    const name = outcomeOf(r.outcome).name.toLowerCase();
    const words = /\(([^)]+)\)$/.exec(name)?.[1]?.split(/\s+/) ?? name.split(/\s+/);
    const found = words.map((w) => question.toLowerCase().indexOf(w)).filter((i) => i >= 0);
    return found.length ? Math.min(...found) : Infinity;
  };
  const subject = claim && asked.length > 1 ? [...asked].sort((a, b) => at(a) - at(b)).slice(0, 1) : asked;
  const lines = subject.map((r) => {
    const { name } = outcomeOf(r.outcome);
    // The series' history lists a game's teams as "Away team", "Home team".
    const type = name.replace(/^((?:away|home) team) \(.+\)$/i, '$1');
    const won = last.filter((e) => e.won.split(', ').includes(type));
    const verdict = claim && subject.length === 1 ? (Number(claim[1]) === won.length ? '**Yes**: ' : `**No**: not ${claim[1]}; `) : '';
    return `${verdict}**${name}** resolved YES in ${won.length} of the last ${last.length} settled events of the series${fewer}${won.length ? ` (${won.map((e) => e.closed).join(', ')})` : ''}.`;
  });
  return `${lines.join('\n')} ${refs}`.trim();
}

/**
 * An earlier event of the series from the report's history table: the newest settled one, or one
 * of the month named ("the October meeting"), with what won and how it was priced, and the ones before it.
 */
export function previousText(question: string, history: string | undefined, rows: Row[]): string | null {
  const events = historyEvents(history);
  if (!events.length) return null;
  const refs = /((?:\s*\[\d+\])+)\.?\s*$/.exec((history ?? '').split('\n').find((l) => l.startsWith('**Base rates**')) ?? '')?.[1]?.replace(/\s+/g, '') ?? '';
  const month = monthAsked(question);
  // A day named with its month ("the nov 12 one", "November 12th"): the event closed that day.
  const day = month >= 0 ? Number(new RegExp(`\\b${MONTHS[month]!.slice(0, 3)}[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i').exec(question)?.[1] ?? 0) : 0;
  // "Last year's december", "march 2025": that year's, not the latest of that month.
  const year = month < 0 ? null : Number(/\b(20\d\d)\b/.exec(question)?.[1] ?? 0) || (/\b(?:last|previous|a) year(?:'?s| ago)?\b/i.test(question) ? Number(events[0]!.closed.slice(0, 4)) - 1 : null);
  const inMonth = (e: (typeof events)[number]) => Number(e.closed.slice(5, 7)) === month + 1 && (!day || Number(e.closed.slice(8, 10)) === day) && (year === null || Number(e.closed.slice(0, 4)) === year);
  const pick = month >= 0 ? events.find(inMonth) : events[0];
  const when = month < 0 ? '' : `${day ? `${monthName(month)} ${day}` : monthName(month)}${year === null ? '' : ` ${year}`}`;
  if (!pick) return `The report's history has no event of the series that closed ${day ? 'on' : 'in'} ${when}; the latest ones:\n\n${events.slice(0, 3).map(eventLine).join('\n')}`;
  const several = pick.won.includes(', ');
  const priced = /^\d/.test(pick.price) ? (several ? '' : `, priced at ${pick.price} 24 hours before close`) : pick.price === 'not fetched' ? '' : ` (no price for it 24 hours before close)`;
  const result = (pick.won === 'none' ? 'every outcome resolved NO' : several ? `${winnersPriced(pick)} resolved YES` : `**${pick.won}** resolved YES${priced}`) + landedOn(pick.won, rows);
  const favourite = rows.length > 1 ? bestRow(rows, (r) => r.marketValue) : undefined;
  const now = favourite ? ` This event's market favourite is **${outcomeOf(favourite.outcome).name}** at ${favourite.market} ${outcomeOf(favourite.outcome).refs}.` : '';
  const before = events.filter((e) => e !== pick).slice(0, 3);
  const named = month >= 0 ? `The ${when} event` : 'The previous event';
  return `${named} of the series, **${pick.ticker}** (closed ${pick.closed}): ${result} ${refs}.${now}${before.length ? `\n\n${month >= 0 ? 'The latest others' : 'Before it'}:\n\n${before.map(eventLine).join('\n')}` : ''}`;
}

/**
 * Where the result of a ladder's past event fell, from the rungs that resolved YES ("so the
 * reading was above 2.8"); every rung NO puts it on the far side of the lowest (of "Above" rungs).
 * Its own rungs are not in the history, so with none YES this event's nearest rung is named.
 */
export function landedOn(won: string, rows: Row[]): string {
  if (!isLadder(rows)) return '';
  const side = rungSide(labelRange(outcomeOf(rows[0]!.outcome).name));
  const levelSaid = (label: string) => label.replace(/^\s*(?:above|below)\s+/i, '');
  const rungs = (won === 'none' ? [] : won.split(', ')).map((label) => ({ label, range: labelRange(label) })).filter((r) => r.range !== null && rungSide(r.range) === side);
  if (won !== 'none' && !rungs.length) return '';
  const at = (r: { range: LabelRange | null }) => (r.range!.from ?? r.range!.to)!;
  const pick = <T>(items: T[], value: (t: T) => number, highest: boolean) => items.reduce((a, b) => ((highest ? value(b) > value(a) : value(b) < value(a)) ? b : a));
  if (rungs.length) {
    const top = pick(rungs, at, side === 'above');
    return `, so the result was ${side} ${levelSaid(top.label)} (the ${side === 'above' ? 'highest' : 'lowest'} of its rungs to resolve YES)`;
  }
  const nearest = pick(rows, (r) => levelOfRow(r)!, side !== 'above');
  return `, so the result was not ${side} any of its levels (this event's ${side === 'above' ? 'lowest' : 'highest'} rung is ${outcomeOf(nearest.outcome).name})`;
}

/** The winners of a history row with their prices before close ("Above 2.6 (94.0%), Above 2.8 (95.0%)"): the table lists each in one cell. */
function winnersPriced(e: { won: string; price: string }): string {
  const [won, prices] = [e.won.split(', '), e.price.split(', ')];
  if (!/^\d/.test(e.price)) return e.won;
  return won.length === prices.length ? won.map((w, i) => `${w} (${prices[i]} before close)`).join(', ') : `${e.won} (${e.price} before close)`;
}

export const eventLine = (e: { ticker: string; closed: string; won: string; price: string }) => `- ${e.ticker} (closed ${e.closed}): ${e.won === 'none' ? 'every outcome NO' : winnersPriced(e)}`;

/**
 * How the model works and how far to trust it: each outcome's confidence as the report gives it,
 * and the report's own account of the model (the fit and what it did in this series).
 */
export function methodText(question: string, shown: Row[], method: string | undefined): string | null {
  const model = bullets(method, /^- \*\*(?:Model probability|Gap)/);
  const confidence = shown.filter((r) => r.confidence).map((r) => `- **${outcomeOf(r.outcome).name}**: ${r.confidence} ${outcomeOf(r.outcome).refs}; market ${r.market}, model ${r.model}, gap ${r.gap}`.trimEnd());
  if (!model.length && !confidence.length) return null;
  const trust = /\b(?:confident|sure|certain|reliable|trustworthy|confidence)\b/i.test(question);
  const parts = trust ? [`Confidence, outcome by outcome (from the size of the history, the spread and the volume):`, confidence.join('\n'), model.join('\n')] : [model.join('\n'), confidence.join('\n')];
  return parts.filter(Boolean).join('\n\n');
}

/** "Is Hold cheap?": yes or no, the model's probability against the price a YES costs. */
export function cheapText(r: Row, way: 1 | -1): string {
  const { name, refs } = outcomeOf(r.outcome);
  const edge = r.modelValue - r.marketValue;
  const cheap = edge > 0;
  const asked = way > 0 ? cheap : edge < 0;
  const word = Math.abs(edge) < 0.05 ? 'fairly priced' : cheap ? 'cheap' : 'dear';
  return `**${asked ? 'Yes' : 'No'}**: on the model, **${name}** is ${word}: the model gives ${r.model} against a market price of ${percent(r.marketValue)} (${points(Number(edge.toFixed(1)))}; gap to the normalised price ${r.gap}) ${refs}. This is the model's view on the report's prices, not investment advice.`;
}

/**
 * "Why is Below 41% only 16%?": what the report knows of an outcome's price. Its price and the
 * model's probability, its record in the series (the last five settled events, and all of them;
 * a record the question claims, "won 4 of the last 5", checked against it), and its price move;
 * the report reads prices and the record, not news, so it says it cannot give the traders' reasons.
 */
export function whyText(question: string, named: Row[], history: string | undefined, claims: string | undefined): string {
  const events = historyEvents(history).map(({ closed, won }) => ({ closed, won: won.split(', ') }));
  const claim = /\b(\d+)\s+(?:of|out of|in)\s+(?:the\s+)?(?:(?:last|past)\s+)?(\d+)(?:\s+(?:times|events|meetings|weeks|months|days|games|tries))?\b/i.exec(question);
  const lines = named.map((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    // The series' history lists a game's teams as "Away team", "Home team".
    const type = name.replace(/^((?:away|home) team) \(.+\)$/i, '$1');
    const won = (e: (typeof events)[number]) => e.won.includes(type);
    const parts = [`**${name}** is priced at ${r.market}; the model, which weighs the series' record against the price, gives ${r.model} (gap ${r.gap}) ${refs}.`];
    if (events.length) {
      const last = events.slice(0, 5);
      const recent = last.filter(won).length;
      const all = events.filter(won).length;
      let record = `It resolved YES in ${recent} of the last ${last.length} settled events of the series (${last.filter(won).map((e) => e.closed).join(', ') || 'none'}), and in ${all} of the ${events.length} in the report's history.`;
      if (claim && Number(claim[2]) <= events.length) {
        const n = Number(claim[2]);
        const actual = events.slice(0, n).filter(won).length;
        record = `${actual === Number(claim[1]) ? `Yes, it resolved YES in ${actual} of the last ${n}` : `The report's history has it resolving YES in ${actual} of the last ${n}, not ${claim[1]}`} settled events of the series; ${all} of the ${events.length} in all.`;
      }
      parts.push(record);
    }
    const move = bullets(claims, /^- \*\*Price move, /).find((l) => l.includes(`, ${name}:**`));
    if (move) parts.push(`Its price moved ${move.replace(/^- \*\*Price move, [^:]+:\*\* /, '').replace(/\.$/, '')}.`);
    return parts.join(' ');
  });
  return `${lines.join('\n\n')}\n\nThe report reads prices, the order book and the series' record, not news, polls or forecasts, so it cannot say why traders price an outcome as they do; a gap between the model and the market is where the record and the price disagree.`;
}

/** A fall asked ("why did it drop?"), a rise ("why did hike jump?"), or a move either way ("why did it move?"). */
const FELL = /\b(?:drop\w*|fall\w*|fell|sink\w*|sank|slid\w*|slump\w*|dip\w*|plung\w*|plummet\w*|tank\w*|crash\w*|collaps\w*|down|lower|decline\w*)\b/i;
const ROSE = /\b(?:ris(?:e|es|en|ing)|rose|jump\w*|spik\w*|surg\w*|climb\w*|rall\w*|soar\w*|pop(?:ped)?|up|higher|increas\w*)\b/i;

/**
 * "Why did it drop this week?": the outcome that moved most that way over the span asked (of
 * those named, else of all), with every outcome's move beside it, then what the report can say of
 * it (see whyText): it reads prices and the series' record, not news.
 */
export function whyMovedText(question: string, rows: Row[], named: Row[], history: string | undefined, claims: string | undefined): string | null {
  const past = pastPrices(claims);
  if (!past) return null;
  const window = windowAsked(question) === 'day' ? 'day' : 'week';
  const span = window === 'day' ? '24 hours' : '7 days';
  const direction = FELL.test(question) && !ROSE.test(question) ? -1 : ROSE.test(question) && !FELL.test(question) ? 1 : 0;
  const candidates = past.all.filter((o) => o[window] !== null && (!named.length || named.some((r) => outcomeOf(r.outcome).name === o.label)));
  if (!candidates.length) return null;
  const change = (o: (typeof candidates)[number]) => o.now - o[window]!;
  const ranked = [...candidates].sort((a, b) => (direction ? direction * (change(b) - change(a)) : Math.abs(change(b)) - Math.abs(change(a))));
  const top = ranked[0]!;
  const moved = (o: (typeof candidates)[number]) => `${o[window]!.toFixed(1)}% to ${o.now.toFixed(1)}% (${Math.abs(change(o)) < 0.05 ? 'unchanged' : points(change(o))})`;
  const others = past.all.filter((o) => o !== top && o[window] !== null).map((o) => `${o.label} ${moved(o)}`);
  const [way, verb] = direction < 0 ? ['fell', 'fall'] : direction > 0 ? ['rose', 'rise'] : ['moved', 'move'];
  const lead = !(Math.abs(change(top)) < 0.05 || (direction && Math.sign(change(top)) !== direction))
    ? `Over the last ${span}, **${top.label}** ${way}${candidates.length > 1 ? ' the most' : ''}: from ${moved(top)} ${past.refs}.`
    : candidates.length === 1
      ? `**${top.label}** did not ${verb} over the last ${span}: ${moved(top)} ${past.refs}.`
      : `${named.length ? `${candidates.length === 2 ? 'Neither' : 'None'} of the outcomes asked about (${candidates.map((o) => o.label).join(', ')})` : 'No outcome'} ${way} over the last ${span}; the nearest, **${top.label}**, went from ${moved(top)} ${past.refs}.`;
  const row = rows.find((r) => outcomeOf(r.outcome).name === top.label);
  const surges = bullets(claims, /^- \*\*Volume surge/);
  const parts = [lead];
  if (others.length) parts.push(`The others over the same ${span}: ${others.join('; ')}.`);
  if (surges.length) parts.push(surges.join('\n'));
  if (row) parts.push(whyText(question, [row], history, claims));
  return parts.join('\n\n');
}

/** How often the outcomes named resolved YES in the series, from the report's base rates. */
export function baseRateText(named: Row[], history: string | undefined): string | null {
  const line = (history ?? '').split('\n').find((l) => l.startsWith('**Base rates**'));
  if (!line) return null;
  const refs = /(?:\s*\[\d+\])+\.?$/.exec(line)?.[0].replace(/\.$/, '').trim() ?? '';
  const found = named.flatMap((r) => {
    const name = outcomeOf(r.outcome).name;
    // Base rates group by the series' label: "Away team", not this game's "Away team (Lakers)".
    const type = name.replace(/^((?:away|home) team) \(.+\)$/i, '$1');
    const m = new RegExp(`(?:: |; )${type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\d+) of (\\d+) \\(([\\d.]+)%\\)`).exec(line);
    return m ? [`- **${name}**${type === name ? '' : `: “${type}”`} resolved YES in ${m[1]} of ${m[2]} settled events of the series (${m[3]}%); the market prices it at ${r.market} now, the model at ${r.model}.`] : [];
  });
  return found.length ? `${found.join('\n')} ${refs}`.trim() : null;
}

/**
 * A range asked of exclusive ranges ("between 44 and 51" of "44°F to 47°F", "48°F to 51°F"): the
 * outcomes wholly inside it, added up, and those it cuts through, which bound the answer. Ranges
 * that only touch it at an end ("42% to 43%" of "41% to 42%") are outside it.
 */
export function rangeSpanText(rows: Row[], asked: { from: number; to: number; said: string }, not = false): string {
  const bounds = (r: Row) => {
    const range = labelRange(outcomeOf(r.outcome).name)!;
    return [range.from ?? -Infinity, range.to ?? Infinity] as const;
  };
  const whole = rows.filter((r) => bounds(r)[0] >= asked.from && bounds(r)[1] <= asked.to);
  const split = rows.filter((r) => !whole.includes(r) && bounds(r)[0] < asked.to && bounds(r)[1] > asked.from);
  const figures = (rs: Row[]) => `market ${percent(sumOf(rs, (r) => r.marketNormalised))} normalised${modelSum(rs)}`;
  const shown = [...whole, ...split];
  if (!shown.length) return `No outcome lies in “${asked.said}”.\n\n${rows.map(rowLine).join('\n')}`;
  if (not) {
    // Not in the range: the outcomes wholly outside it, and at most those it cuts through too.
    const outside = rows.filter((r) => !shown.includes(r));
    const all = [...outside, ...split];
    const bounded = split.length ? `market between ${percent(sumOf(outside, (r) => r.marketNormalised))} and ${percent(sumOf(all, (r) => r.marketNormalised))} normalised${modelBetween(outside, all)}` : figures(outside);
    return `Not “${asked.said}”${outside.length ? ` is ${names(outside)}` : ''}${split.length ? `${outside.length ? ' and ' : ' is '}part of ${names(split)}` : ''}: ${outside.length > 1 || split.length ? 'together ' : ''}${bounded} ${refsOf(all)}.\n\n${all.map(rowLine).join('\n')}`;
  }
  // ("0 to 75k" of "0 to 75k", "52 to 55" of "52°F to 55°F": the outcome itself, said as it is, not "“0 to 75k” is **0 to 75k**".)
  const numbersOf = (t: string) => (t.match(/\d+(?:\.\d+)?/g) ?? []).join(' ');
  if (!split.length && whole.length === 1 && numbersOf(asked.said) === numbersOf(outcomeOf(whole[0]!.outcome).name)) return rowLine(whole[0]!);
  let head: string;
  if (!split.length) head = `“${asked.said}” is ${names(whole)}: ${whole.length > 1 ? 'together ' : ''}${figures(whole)} ${refsOf(whole)}.`;
  else if (!whole.length) head = `No outcome lies wholly in “${asked.said}”: it is part of ${names(split)} (${figures(split)}), so its chance is at most that ${refsOf(split)}.`;
  else
    head = `“${asked.said}” is ${names(whole)} (${figures(whole)}) and part of ${names(split)}: market between ${percent(sumOf(whole, (r) => r.marketNormalised))} and ${percent(sumOf(shown, (r) => r.marketNormalised))} normalised${modelBetween(whole, shown)} ${refsOf(shown)}.`;
  return `${head}\n\n${shown.map(rowLine).join('\n')}`;
}

/** A range asked of a ladder of "Above X" rungs: the rung at its low end less the rung at its high end. */
export function ladderSpanText(rows: Row[], asked: { from: number; to: number; said: string }, not = false): string {
  const rungAt = (v: number) => rows.find((r) => {
    const range = labelRange(outcomeOf(r.outcome).name);
    return range !== null && (range.to === null ? range.from === v : range.to === v);
  });
  const [low, high] = [rungAt(asked.from), rungAt(asked.to)];
  if (!low || !high) return `The ladder has no rung at ${[low ? null : asked.from, high ? null : asked.to].filter((v) => v !== null).join(' or ')}, so “${asked.said}” cannot be read from it.\n\n${rows.map(rowLine).join('\n')}`;
  // "Above" rungs: between is the lower rung less the higher; "Below" rungs: the other way round.
  const above = labelRange(outcomeOf(low.outcome).name)!.to === null;
  const [outer, inner] = above ? [low, high] : [high, low];
  const [market, model] = [outer.marketValue - inner.marketValue, outer.modelValue - inner.modelValue];
  const disorder = market < 0 ? ` The market's figure is ${not ? 'over 100%' : 'below zero'} because it prices these rungs out of order: **${outcomeOf(inner.outcome).name}** should cost no more than **${outcomeOf(outer.outcome).name}**.` : '';
  const head = not
    ? `Not “${asked.said}” is everything but **${outcomeOf(outer.outcome).name}** less **${outcomeOf(inner.outcome).name}**: market ${percent(100 - market)}, model ${percent(100 - model)} ${refsOf([outer, inner])}.`
    : `“${asked.said}” is **${outcomeOf(outer.outcome).name}** less **${outcomeOf(inner.outcome).name}**: market ${percent(market)}, model ${percent(model)} ${refsOf([outer, inner])}.`;
  return `${head}${disorder}\n\n${[outer, inner].map(rowLine).join('\n')}`;
}

interface Band {
  name: string;
  market: number;
  model: number;
}

/**
 * A ladder read as ranges: each band between two rungs is the lower rung's chance less the next
 * one's, so the bands add up to 100%; with the likeliest band on each side and the median's. Null
 * when the rungs are not all on one side ("Above …" or "Below …").
 */
function ladderBands(rows: Row[]): { rungs: Row[]; bands: Band[]; byMarket: Band; byModel: Band; medians: [string, string]; crossed: boolean } | null {
  const rungs = byLevel(rows);
  const sides = new Set(rungs.map((r) => rungSide(labelRange(outcomeOf(r.outcome).name))));
  if (rungs.length < 2 || rungs.length !== rows.length || sides.size !== 1 || sides.has(null)) return null;
  const above = sides.has('above');
  // As chances of ending above each level, lowest level first: "Below" rungs by what they leave.
  // Crossing chances pooled to their average, as the report's model holds its own ladder.
  const inOrder = (values: number[]) => monotoneLadder(values, values.map((_, i) => ({ direction: 'above' as const, value: i })));
  const [market, model] = [(r: Row) => r.marketValue, (r: Row) => r.modelValue].map((of) => inOrder(rungs.map((r) => (above ? of(r) : 100 - of(r))))) as [number[], number[]];
  const crossed = market.some((v, i) => Math.abs(v - (above ? rungs[i]!.marketValue : 100 - rungs[i]!.marketValue)) > 1e-9);
  // "$92,000" of "Above $92,000": the level as the event writes it.
  const level = (r: Row) => outcomeOf(r.outcome).name.replace(/^\s*(?:above|below|over|under)\s+/i, '').replace(/\s+or\s+(?:above|below|more|less|higher|lower)$/i, '');
  const band = (i: number, of: number[]) => (i === 0 ? 100 - of[0]! : of[i - 1]! - of[i]!);
  const bands: Band[] = rungs.map((r, i) => ({ name: i === 0 ? `up to ${level(r)}` : `${level(rungs[i - 1]!)} to ${level(r)}`, market: band(i, market), model: band(i, model) }));
  bands.push({ name: `above ${level(rungs.at(-1)!)}`, market: market.at(-1)!, model: model.at(-1)! });
  const likeliest = (of: (b: Band) => number) => bands.reduce((top, b) => (of(b) > of(top) ? b : top));
  const median = (chances: number[]) => {
    const i = chances.findIndex((c) => c < 50);
    return i === -1 ? `above ${level(rungs.at(-1)!)}` : i === 0 ? `below ${level(rungs[0]!)}` : `between ${level(rungs[i - 1]!)} and ${level(rungs[i]!)}`;
  };
  return { rungs, bands, byMarket: likeliest((b) => b.market), byModel: likeliest((b) => b.model), medians: [median(market), median(model)], crossed };
}

/** The likeliest band of a ladder, on both sides: "the most likely range is **above 3.2**: market 61.0%, model 52.9% [1][2]". */
function likeliestBand({ rungs, byMarket, byModel }: NonNullable<ReturnType<typeof ladderBands>>): string {
  return byMarket === byModel
    ? `the most likely range is **${byMarket.name}**: market ${percent(byMarket.market)}, model ${percent(byMarket.model)} ${refsOf(rungs)}`
    : `the market's most likely range is **${byMarket.name}** (${percent(byMarket.market)}); the model's is **${byModel.name}** (${percent(byModel.model)}) ${refsOf(rungs)}`;
}

/**
 * A ladder read as ranges ("what's the most likely range?", "most likely outcome?"): every band's
 * market and model chance, the likeliest named, and the median's band. Null when it is no ladder of one side.
 */
export function ladderBandsText(rows: Row[]): string | null {
  const read = ladderBands(rows);
  if (!read) return null;
  const [marketMedian, modelMedian] = read.medians;
  const medians = marketMedian === modelMedian ? `The median is ${marketMedian} on both.` : `The market's median is ${marketMedian}, the model's ${modelMedian}.`;
  const table = ['| Range | Market | Model |', '|---|---:|---:|', ...read.bands.map((b) => `| ${b.name} | ${percent(b.market)} | ${percent(b.model)} |`)].join('\n');
  const how = `Each rung is a yes/no on its own level; a range between two rungs is the lower one's chance less the next one's${read.crossed ? ", the market's crossed prices pooled to their average first, as the model holds its own" : ''}.`;
  return `${capitalise(likeliestBand(read))}. ${medians}\n\n${table}\n\n${how}`;
}


/**
 * What an event's outcomes imply as a level ("the median?", "expected number of launches?"): a
 * ladder read as ranges, with its median; exclusive outcomes that are levels, their mean and
 * median on the market's normalised prices and on the model; other outcomes have neither.
 */
export function expectedText(rows: Row[], ladder: boolean, question = ''): string {
  if (ladder) {
    const bands = ladderBandsText(rows) ?? rows.map(rowLine).join('\n');
    // "Expected btc price?": a ladder's end ranges have no outer bound, so no mean follows from its prices; where the chance lies does.
    const mean = /\b(?:expected|mean|average|ev)\b/i.test(question) && !/\bmedian\b/i.test(question);
    return mean ? `No expected value can be taken from this ladder: its lowest and highest ranges have no outer bound, so a mean would depend on a guess about them. The median and where the chance lies, on the market and the model:\n\n${bands}` : bands;
  }
  // A rate decision ("expected size of the cut?"): the expected change, and of a cut or hike its chance and size.
  const moves = (of: (r: Row) => number) => expectedMove(rows.map((r) => ({ label: outcomeOf(r.outcome).name, chance: of(r) })));
  const [byMarket, byModel] = [moves((r) => r.marketNormalised), moves((r) => r.modelValue)];
  if (byMarket && byModel) return `${rateMoveText(byMarket, byModel, question, rows)}\n\n${rows.map(rowLine).join('\n')}`;
  const chances = (of: (r: Row) => number) => rows.map((r) => ({ label: outcomeOf(r.outcome).name, range: labelRange(outcomeOf(r.outcome).name), chance: of(r) }));
  const [market, model] = [expectedLevel(chances((r) => r.marketNormalised)), expectedLevel(chances((r) => r.modelValue))];
  if (!market || !model) {
    // "The expected outcome?" of a decision: the likeliest one, on each side.
    const [byMarket, byModel] = [bestRow(rows, (r) => r.marketNormalised), bestRow(rows, (r) => r.modelValue)];
    const likeliest = byMarket && byModel ? ` The likeliest outcome is **${outcomeOf(byMarket.outcome).name}** on the market (${byMarket.market})${byModel === byMarket ? ' and on the model' : `, **${outcomeOf(byModel.outcome).name}** on the model`} (${byModel.model}).` : '';
    return `The outcomes of this event are not levels on one scale, so they have no mean or median.${likeliest}\n\n${rows.map(rowLine).join('\n')}`;
  }
  const labels = rows.map((r) => outcomeOf(r.outcome).name);
  const open = market.openEnded ? ' Open-ended outcomes are counted at their bound, so the means are estimates.' : '';
  return `On the market's prices, normalised to add up to 100%, the expected value is about **${aboutLevel(market.mean, labels)}** and the median outcome **${market.median}**; on the model, about **${aboutLevel(model.mean, labels)}** and **${model.median}** ${refsOf(rows)}.${open}\n\n${rows.map(rowLine).join('\n')}`;
}

/** What the market's and the model's chances of a rate decision's outcomes imply, the kind of move asked about first. */
function rateMoveText(market: ExpectedMove, model: ExpectedMove, question: string, rows: Row[]): string {
  const bps = (x: number) => `${x < -0.05 ? '−' : x > 0.05 ? '+' : ''}${Math.abs(x).toFixed(1)} bps`;
  const open = market.openEnded ? ' An open-ended outcome (“more than 25bps”) is counted at the next usual step, 25 bps further, so these are estimates.' : '';
  const mean = `On the market's prices, normalised to add up to 100%, the expected change in the rate is about **${bps(market.mean)}** and the median outcome **${market.median}**; on the model, about **${bps(model.mean)}** and **${model.median}** ${refsOf(rows)}.`;
  const given = (kind: 'cut' | 'hike') => {
    const [a, b] = [market[kind], model[kind]];
    if (!a || !b) return `No outcome is a ${kind}.`;
    // The prices as quoted, added up, beside their share of 100% (the overround taken out).
    const quoted = sumOf(rows.filter((r) => { const m = rateMove(outcomeOf(r.outcome).name); return m !== null && (kind === 'cut' ? m.bps < 0 : m.bps > 0); }), (r) => r.marketValue);
    const raw = Math.abs(quoted - a.chance) >= 0.05 ? `${percent(quoted)} on the market's prices added up (${percent(a.chance)} normalised to 100%)` : `${percent(a.chance)} on the market`;
    return `A ${kind} of any size: ${raw}, ${percent(b.chance)} on the model; if there is one, about **${a.size.toFixed(0)} bps** on the market and **${b.size.toFixed(0)} bps** on the model.`;
  };
  // ("Median?": the median and mean first.)
  if (/\b(?:median|mean|average)\b/i.test(question)) return `${mean} ${given('cut')} ${given('hike')}${open}`;
  const first = /\b(?:hike|raise|increase)/i.test(question) && !/\bcut/i.test(question) ? 'hike' : 'cut';
  return `${given(first)} ${mean} ${given(first === 'cut' ? 'hike' : 'cut')}${open}`;
}

/** Prices as bookmakers' odds ("convert to American odds", "moneyline?"): the market's price and the model's chance, each as American and decimal odds. */
export function oddsFormatText(rows: Row[], title: string, question = ''): string {
  // "Fractional odds on no?": the other side, at 100% minus each chance.
  const no = /\b(?:on|for|of|the|buy(?:ing)?)\s+no\b|\bno\s+side\b/i.test(question);
  const odds = (p: number) => `${americanOdds(p)} (decimal ${decimalOdds(p)}, fractional ${fractionalOdds(p)})`;
  const line = (r: Row) => {
    const { name, refs } = outcomeOf(r.outcome);
    // (Live quotes have no model: the market's odds alone.)
    const modelled = Number.isFinite(r.modelValue);
    if (no) return `- **NO on ${withTeam(name, title)}**: market ${percent(100 - r.marketValue)} → ${odds(100 - r.marketValue)}${modelled ? `; model ${percent(100 - r.modelValue)} → ${odds(100 - r.modelValue)}` : ''} ${refs}`.trimEnd();
    return `- **${withTeam(name, title)}**: market ${r.market} → ${odds(r.marketValue)}${modelled ? `; model ${r.model} → ${odds(r.modelValue)}` : ''} ${refs}`.trimEnd();
  };
  return `As American (moneyline), decimal and fractional odds${no ? ' of the NO side (100% minus each chance)' : ''}, each price taken alone (the exchange's margin is not removed):\n\n${rows.map(line).join('\n')}`;
}

/**
 * A report in brief ("tl;dr", "summarize", "in one sentence"): what the market and the model
 * expect (the favourite, or a ladder's likeliest range, or a single contract's price), the
 * report's key takeaway, the largest price move of the week, and when trading closes. One
 * sentence asked: the expectation and the close only.
 */
export function summaryText(title: string, rows: Row[], section: (heading: string) => string | undefined, oneSentence: boolean, exclusive: boolean, sentences: number | null = null): string {
  const bands = ladderBands(rows);
  let lead: string;
  if (bands) lead = likeliestBand(bands);
  else if (rows.length === 1) lead = `the market gives **${outcomeOf(rows[0]!.outcome).name}** ${rows[0]!.market}, the model ${rows[0]!.model} ${outcomeOf(rows[0]!.outcome).refs}`;
  else {
    const [market, model] = [bestRow(rows, (r) => (exclusive ? r.marketNormalised : r.marketValue)), bestRow(rows, (r) => r.modelValue)];
    lead = `the market's favourite is **${outcomeOf(market!.outcome).name}** at ${market!.market}, model ${market!.model}${model && model !== market ? `; the model's is **${outcomeOf(model.outcome).name}** at ${model.model}` : ''} ${refsOf(model && model !== market ? [market!, model] : [market!])}`;
  }
  const claims = section('key claims') ?? '';
  const closes = /^- \*\*Trading closes\*\* ([^;(\n]+?)\s*(\([^)]*\))?[;.]/m.exec(claims);
  const cite = /^- \*\*Trading closes\*\*.*?((?:\s?\[\d+\])+)\.?\s*$/m.exec(claims)?.[1]?.trim() ?? '';
  const closing = closes ? `trading closes ${closes[1]}${closes[2] ? ` ${closes[2]}` : ''} ${cite}`.trimEnd() : '';
  const name = `**${title.replace(/[*_]/g, '')}**`;
  if (oneSentence) return `${name}: ${lead}${closing ? `; ${closing}` : ''}.`;
  let takeaway = (section('key takeaway') ?? '').split('\n').find((l) => l.trim())?.trim();
  // (Of one contract the lead has said both figures already: only that they agree.)
  if (rows.length === 1 && takeaway && /^Model and market agree within (\d+) points?/.test(takeaway)) takeaway = takeaway.replace(/^(Model and market agree within \d+ points?):.*$/, '$1.');
  const move = bullets(claims, /^- \*\*Price move, /)[0]?.replace(/^- \*\*Price move, ([^:]+):\*\* /, 'The largest price move of the week: $1, ').replace(/^- /, '');
  const parts = [`${name}: ${lead}.`, takeaway, move, closing ? `${capitalise(closing)}.` : ''].filter((x): x is string => Boolean(x));
  // "In 2 sentences": the first that many, the close kept last when there is room for it.
  if (sentences !== null && sentences < parts.length) {
    const last = closing && sentences >= 2 ? [parts.at(-1)!] : [];
    return [...parts.slice(0, sentences - last.length), ...last].join(' ');
  }
  return parts.join(' ');
}

/** How a chance reads in words, for readers: "a little better than even", "unlikely". */
function chanceWords(p: number): string {
  return p < 10 ? 'unlikely' : p < 35 ? 'less likely than not' : p < 45 ? 'somewhat less likely than not' : p <= 55 ? 'about even' : p < 65 ? 'a little better than even' : p < 85 ? 'likely' : 'very likely';
}

/** The form a reader asks the summary in: a headline, one quotable sentence, a tweet, or a short paragraph. */
export type PlainForm = 'headline' | 'sentence' | 'tweet' | 'paragraph';

/** A summary asked in a reader's words ("in plain english", "for readers", "headline version", "one quotable line", "tweet-length"). */
export const PLAIN_ASKED = /\bplain[- ](?:english|words|language|terms)\b|\b(?:for|to) (?:a )?(?:lay(?:person| people| readers?)?|general (?:audience|readers|public)|readers|laypeople|non-experts|normal people|my (?:readers|audience|editor))\b|\bheadlines?\b|\bquot(?:able|e I can use|e for (?:a|my) (?:story|article|piece))\b|\bsound ?bite\b|\btweet(?:[- ]length|[- ]sized)?\b|\bblurb\b|\blede\b|\bin lay(?:man'?s)? terms\b/i;

export function plainFormOf(question: string): PlainForm {
  return /\bheadlines?\b/i.test(question) ? 'headline' : /\btweet/i.test(question) ? 'tweet' : /\bquot(?:able|e)\b|\bsound ?bite\b|\b(?:one|a|1) (?:short )?(?:sentence|line)\b|\bone[- ]liner\b/i.test(question) ? 'sentence' : 'paragraph';
}

/**
 * The report in a reader's words: what traders give the likeliest outcome (or the one contract),
 * in words and rounded percentages, what the model says beside it, and when trading closes;
 * no normalised shares, gaps in points or mids. Cited as the figures are.
 */
export function plainSummaryText(title: string, rows: Row[], section: (heading: string) => string | undefined, form: PlainForm, exclusive: boolean): string {
  const market = `Kalshi's “${title.replace(/[*_]/g, '').trim()}” market`;
  const whole = (x: number) => `${Math.round(x)}%`;
  const modelled = rows.every((r) => Number.isFinite(r.modelValue));
  const bands = ladderBands(rows);
  let head: string;
  let lead: string;
  let model = '';
  if (bands) {
    const b = bands.byMarket;
    head = `Traders see ${b.name} as the likeliest range, at ${whole(b.market)}`;
    const middle = bands.medians[0] === `${b.name}` || bands.medians[0] === `between ${b.name.replace(' to ', ' and ')}` ? '' : `; the middle of their expectations lies ${bands.medians[0]}`;
    lead = `On ${market}, traders see ${b.name} as the likeliest range, at about ${whole(b.market)}${middle} ${refsOf(bands.rungs)}`;
    if (modelled) model = bands.byModel === b ? `the svc model, which weighs the prices against how past events of the series resolved, agrees (${whole(bands.byModel.model)})` : `the svc model, which weighs the prices against how past events of the series resolved, leans to ${bands.byModel.name} (${whole(bands.byModel.model)})`;
  } else if (rows.length === 1) {
    const r = rows[0]!;
    const { name, refs } = outcomeOf(r.outcome);
    head = `Traders give “${name}” a ${whole(r.marketValue)} chance`;
    lead = `On ${market}, traders put the chance of “${name}” at about ${whole(r.marketValue)}, ${chanceWords(r.marketValue)} ${refs}`;
    if (modelled) model = `the svc model, which weighs that price against how past events of the series resolved, puts it at about ${whole(r.modelValue)}`;
  } else {
    const of = (r: Row) => (exclusive ? r.marketNormalised : r.marketValue);
    const ranked = [...rows].filter((r) => Number.isFinite(of(r))).sort((a, b) => of(b) - of(a));
    const [top, next] = [ranked[0]!, ranked[1]];
    const name = (r: Row) => outcomeOf(r.outcome).name;
    head = `Traders favour “${name(top)}”, at ${whole(of(top))}`;
    lead = `On ${market}, traders see “${name(top)}” as the likeliest result, at about ${whole(of(top))}${next ? `, ahead of “${name(next)}” at ${whole(of(next))}` : ''} ${refsOf(next ? [top, next] : [top])}`;
    const mine = bestRow(rows, (r) => r.modelValue);
    if (modelled && mine) model = mine === top ? `the svc model, which weighs the prices against how past events of the series resolved, agrees, at about ${whole(mine.modelValue)}` : `the svc model, which weighs the prices against how past events of the series resolved, leans instead to “${name(mine)}”, at about ${whole(mine.modelValue)}`;
  }
  const closes = /^- \*\*Trading closes\*\* (\d{4}-\d{2}-\d{2})/m.exec(section('key claims') ?? '')?.[1];
  const when = closes ? new Date(`${closes}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : null;
  if (form === 'headline') return `${title.replace(/[*_]/g, '').replace(/\?\s*$/, '').trim()}: ${head.replace(/^Traders/, 'traders')}`;
  if (form === 'sentence') return `${lead}${model ? `, and ${model}` : ''}.`;
  const closing = when ? ` Trading closes on ${when}.` : '';
  if (form === 'tweet') {
    const tweet = `${lead}.${model ? ` ${capitalise(model)}.` : ''}${closing}`;
    return tweet.replace(/\s*(?:\[\d+\])+/g, '').length <= 280 ? tweet : `${lead}.${closing}`;
  }
  return `${lead}.${model ? ` ${capitalise(model)}.` : ''} Prices on the exchange move with every trade, so this is a snapshot, not a forecast anyone guarantees.${closing}`;
}

/**
 * A ladder priced out of order, for readers: which rung costs more than one it implies, why that
 * cannot be right, and what it likely is. Null when the rungs are in order (or it is no ladder).
 */
export function plainCrossingText(title: string, rows: Row[]): string | null {
  const rungs = byLevel(rows);
  const sides = new Set(rungs.map((r) => rungSide(labelRange(outcomeOf(r.outcome).name))));
  if (rungs.length < 2 || sides.size !== 1 || sides.has(null)) return null;
  const above = sides.has('above');
  // The first pair where the rung implied by the other costs more ("Above 2.8" over "Above 2.6").
  const i = rungs.findIndex((r, k) => k + 1 < rungs.length && (above ? rungs[k + 1]!.marketValue > r.marketValue : r.marketValue > rungs[k + 1]!.marketValue));
  if (i === -1) return null;
  const [wide, narrow] = above ? [rungs[i]!, rungs[i + 1]!] : [rungs[i + 1]!, rungs[i]!];
  const name = (r: Row) => outcomeOf(r.outcome).name;
  return `On Kalshi's “${title.replace(/[*_]/g, '').trim()}” market, traders pay more for “${name(narrow)}” (${Math.round(narrow.marketValue * 10) / 10}%) than for “${name(wide)}” (${Math.round(wide.marketValue * 10) / 10}%), though any result that is ${name(narrow).toLowerCase()} is also ${name(wide).toLowerCase()}, so the second can never be less likely ${refsOf([narrow, wide])}. It is a small inconsistency in the prices, the kind thin or hurried trading leaves for a while, not a sign of anything the traders know.`;
}

/**
 * An outcome asked for by its place in the table, with a claim about it checked: "why is the model
 * higher than the market on outcome 2?" when the model is lower says so rather than explain it.
 */
export function placedText(question: string, r: Row, n: number): string {
  const { name, refs } = outcomeOf(r.outcome);
  const claim = /\bmodel\b[^?]*?\b(higher|above|more|bigger|greater|lower|below|less|smaller)\b[^?]*?\bmarket\b/i.exec(question)?.[1]?.toLowerCase();
  const gap = gapOf(r);
  let premise = '';
  if (claim && Number.isFinite(gap)) {
    const higher = ['higher', 'above', 'more', 'bigger', 'greater'].includes(claim);
    if (higher !== gap > 0) premise = ` The model is ${gap === 0 ? 'level with' : gap > 0 ? 'above' : 'below'} the market here, not ${higher ? 'above' : 'below'} it.`;
  }
  return `Outcome ${n} is **${name}**: market ${r.market}, model ${r.model}, gap ${r.gap} ${refs}.${premise}`;
}

/** Outcomes whose market price is on one side of a percentage ("probabilities above 4%"), and their sums. */
export function pricedAboveText(rows: Row[], side: string, at: number, exclusive: boolean): string {
  const above = ['above', 'over', 'more than', 'at least'].includes(side);
  const inclusive = side === 'at least' || side === 'at most';
  const holds = (r: Row) => (above ? r.marketValue > at || (inclusive && r.marketValue === at) : r.marketValue < at || (inclusive && r.marketValue === at));
  const picked = rows.filter((r) => Number.isFinite(r.marketValue) && holds(r));
  if (!picked.length) return `No outcome is priced ${side} ${percent(at)}.\n\n${rows.map(rowLine).join('\n')}`;
  const sums = `market ${percent(sumOf(picked, (r) => r.marketValue))}${exclusive ? ` (${percent(sumOf(picked, (r) => r.marketNormalised))} normalised)` : ''}, model ${percent(sumOf(picked, (r) => r.modelValue))}`;
  const all = picked.length === rows.length ? `every outcome (${picked.length})` : `${picked.length} of the ${rows.length} outcomes`;
  return `Priced ${side} ${percent(at)}: ${all}, ${names(picked)}; ${picked.length > 1 ? 'together ' : ''}${sums} ${refsOf(picked)}.\n\n${picked.map(rowLine).join('\n')}`;
}


/**
 * Why the model gives an outcome what it does ("why does the model disagree with the market on
 * 96k?"): the report's fitted a, b and c applied to its price and its base rate, step by step, so
 * the answer is this outcome's arithmetic, not the method paragraph. Null when the report does
 * not state its fit or the outcome's base rate.
 */
export function modelWhyText(row: Row, method: string | undefined, history: string | undefined, rows: readonly Row[] = [row]): string | null {
  const fit = /It gives a = (−?-?[\d.]+), b = (−?-?[\d.]+)[\s\S]*? and c = (−?-?[\d.]+)/.exec(method ?? '');
  const { name, refs } = outcomeOf(row.outcome);
  const rates = (history ?? '').split('\n').find((l) => l.startsWith('**Base rates**')) ?? '';
  // A game's side is "Away team (Lakers)" here, "Away team" in the series' record.
  const rateOf = (label: string) => new RegExp(`(?:^|[:;(]\\s*)${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\d+) of (\\d+) \\(([\\d.]+)%\\)`).exec(rates);
  const label = rateOf(name) ? name : name.replace(/\s*\([^)]*\)$/, '');
  const rate = rateOf(label);
  if (!fit || !rate || !Number.isFinite(row.marketValue) || !Number.isFinite(row.modelValue)) return null;
  const [a, b, c] = fit.slice(1, 4).map((x) => Number(x!.replace('−', '-'))) as [number, number, number];
  const [wins, cases] = [Number(rate[1]), Number(rate[2])];
  // The model's own arithmetic (model.ts), on the fit as the report states it.
  const fitted = { a, b, c, n: 0 };
  const price = row.marketValue / 100;
  const w = rateWeight(cases);
  const stretched = calibrate(fitted, price);
  const pulled = predict(fitted, price, { wins, cases });
  const pct = (p: number) => `${(100 * p).toFixed(1)}%`;
  const stretch =
    Math.abs(b - 1) < 0.02
      ? `b = ${b} leaves the price about where it is`
      : b > 1
        ? `b = ${b} (above 1: this series' prices have been too close to 50%) pushes it outwards`
        : `b = ${b} (below 1: this series' prices have been too far from 50%) pulls it towards 50%`;
  const pull = c * w;
  const record =
    Math.abs(pull) < 0.05
      ? `its record barely counts: c·w = ${c} × ${w.toFixed(2)} = ${pull.toFixed(2)}, since base rates have added little beyond the price in this series`
      : pull > 0
        ? `its record moves it by c·w = ${c} × ${w.toFixed(2)} = ${pull.toFixed(2)} of the way, on the log-odds scale, from the price towards its base rate`
        : `its record moves it away from its base rate, c·w = ${c} × ${w.toFixed(2)} = ${pull.toFixed(2)} on the log-odds scale (in this series, outcomes have tended to go against their record)`;
  // A ladder's rungs priced out of order: the same two steps for each, then the model's ordering.
  const pulledOf = (r: Row) => {
    const own = rateOf(outcomeOf(r.outcome).name);
    return own && Number.isFinite(r.marketValue) ? predict(fitted, r.marketValue / 100, { wins: Number(own[1]), cases: Number(own[2]) }) : null;
  };
  const ladder = ladderStep(rows, row, pulledOf);
  const rounded = (shown: string) => (shown !== row.model ? ` (${row.model} in the report: the fit is shown rounded here)` : '');
  const after = ladder
    ? `\n- **The ladder, in order:** ${ladder.text}${rounded(pct(ladder.held))}.`
    : Math.abs(pulled * 100 - row.modelValue) >= 0.5
      ? ` The report's ${row.model} differs from that ${pct(pulled)}: the model then holds a ladder's rungs in order, or shares exclusive outcomes out to 100% with the others (and the fit is shown rounded).`
      : '';
  return `Why the model gives **${name}** ${row.model} against a market ${row.market} ${refs}:\n\n- **The price, stretched:** ${stretch}, and a = ${a} shifts it: ${pct(price)} becomes ${pct(stretched)}.\n- **The record:** ${label === name ? name : `“${label}”`} resolved YES in ${wins} of ${cases} settled events (${rate[3]}%); ${record}: ${pct(stretched)} becomes ${pct(pulled)}.${after}\n\nThe fit (a, b, c) is the report's, on this series' settled markets; the model reads prices and outcomes, not news.`;
}

/**
 * "Above $104,000 implies Above $100,000, yet the steps above give it 3.2% against 2.6%: the
 * model averages rungs out of order, so both are 2.9%": the rung's part in the model's ordering
 * of a ladder (model.ts monotoneLadder), when that moves it; null otherwise.
 */
function ladderStep(rows: readonly Row[], row: Row, pulledOf: (r: Row) => number | null): { text: string; held: number } | null {
  if (!isLadder([...rows])) return null;
  const rungs = rows.flatMap((r) => {
    const range = labelRange(outcomeOf(r.outcome).name);
    const p = pulledOf(r);
    const side = rungSide(range);
    const strike: Strike | null = side ? { direction: side, value: (side === 'above' ? range!.from : range!.to)! } : null;
    return p !== null && strike ? [{ r, p, strike }] : [];
  });
  const at = rungs.findIndex((x) => x.r === row);
  if (at === -1) return null;
  const held = monotoneLadder(rungs.map((x) => x.p), rungs.map((x) => x.strike));
  if (Math.abs(held[at]! - rungs[at]!.p) < 0.0005) return null;
  // The rungs averaged with it: those that end at the same value and moved.
  const pooled = rungs.filter((x, i) => i !== at && Math.abs(held[i]! - held[at]!) < 1e-12 && Math.abs(held[i]! - x.p) >= 0.0005);
  if (!pooled.length) return null;
  const pct = (p: number) => `${(100 * p).toFixed(1)}%`;
  const name = (x: (typeof rungs)[number]) => outcomeOf(x.r.outcome).name;
  const others = pooled.map((x) => `${name(x)} ${pct(x.p)}`).join(', ');
  // The rung further out can only resolve YES if the nearer ones do.
  const group = [rungs[at]!, ...pooled].sort((x, y) => (x.strike.direction === 'above' ? 1 : -1) * (x.strike.value - y.strike.value));
  const implies = `${name(group.at(-1)!)} can only resolve YES if ${listed(group.slice(0, -1).map(name))} ${group.length === 2 ? 'does' : 'do'}, so it may not be the likelier`;
  return { text: `${implies}; the steps above give ${name(rungs[at]!)} ${pct(rungs[at]!.p)} against ${others}, out of that order, so the model averages them: ${pooled.length === 1 ? 'both' : 'each'} ${pct(held[at]!)}`, held: held[at]! };
}

/**
 * How an event's market works, in plain words, for someone new to it: what a contract pays, what
 * its price means, how to take either side, the event's own resolution rule and close, and what
 * the report adds. The figures are the report's.
 */
export function basicsText(title: string, rows: Row[], claims: string | undefined, exclusive: boolean, asked?: Row): string {
  const line = (label: string) => (claims ?? '').split('\n').find((l) => l.startsWith(`- **${label}`));
  const ruleLine = line('How it resolves');
  const rule = ruleLine?.replace(/^- \*\*How it resolves\*\*.*?:\s*(?=“)/, '');
  // The example is the outcome the rule is quoted for, when it names one, so the two agree; else the favourite.
  const ruleFor = /\(as written for (.+?)\):\s*“/.exec(ruleLine ?? '')?.[1];
  // ("… with the 3400 one": that one, the rule's outcome said beside it.)
  const favourite = asked ?? rows.find((r) => ruleFor && (outcomeOf(r.outcome).name === ruleFor || withTeam(outcomeOf(r.outcome).name, title) === ruleFor)) ?? bestRow(rows, (r) => r.marketValue);
  const otherRule = asked && ruleFor && outcomeOf(asked.outcome).name !== ruleFor && withTeam(outcomeOf(asked.outcome).name, title) !== ruleFor ? ` (quoted for ${ruleFor}; each outcome's rule is the same with its own ${isLadder(rows) ? 'level' : 'outcome'})` : '';
  const closes = /^- \*\*Trading closes\*\* ([^;(\n]+?)\s*(?:\(|;|\[)/.exec(line('Trading closes') ?? '')?.[1];
  const each = favourite && Number.isFinite(favourite.marketValue)
    ? ` For example, **${outcomeOf(favourite.outcome).name}** trades at ${favourite.market}: a YES on it costs about $${(favourite.marketValue / 100).toFixed(2)} and pays $1.00 if it happens, so the market puts its chance at about ${percent(favourite.marketValue)} ${outcomeOf(favourite.outcome).refs}.`
    : '';
  const kinds = rows.length === 1 ? 'is one yes/no question' : exclusive ? `lists ${rows.length} outcomes, of which exactly one will resolve YES` : `lists ${rows.length} outcomes, each a yes/no question of its own (several can resolve YES)`;
  return [
    `**${title.replace(/[*_]/g, '')}**, in plain words: the market ${kinds}. Each contract pays $1.00 if its outcome happens and nothing if it does not, so its price (in cents) reads as the market's chance of it.${each}`,
    `You can buy YES (it happens) at the ask, or NO (it does not) at 1 minus the YES bid; you can sell before the end at whatever the market then pays, and the most you can lose is what you paid.`,
    ...(rule ? [`What decides it: ${otherRule ? rule.replace(/(\s*(?:\[\d+\])+)?$/, `${otherRule}$1`) : rule}`] : []),
    ...(closes ? [`Trading closes ${closes}.`] : []),
    `The report puts a model's probability beside each price: where they differ (the gap), the model thinks the price too high or too low. It reads prices and past results, not news, and none of this is investment advice.`,
  ].join('\n\n');
}
