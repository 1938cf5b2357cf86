import { labelRange, negated, rungSide, sideAsked } from '../markets-search/asked.js';
import type { Answer, Citation } from '../types.js';
import { listed, utcMinute } from '../citations.js';
import { outcomesNamed, type ReportRead } from './event-questions.js';
import { isLadder, outcomeOf, percent, readReport, type Row } from './report-rows.js';

// How likely outcomes of different events are together ("chance both happen?", "parlay odds on a
// cut and CPI above 3?", "and either one?", "what if they're correlated?"). No price or report says
// how two events move together, so the answer is the arithmetic of independence, beside the bounds
// that hold whatever the dependence, and a correlation's effect when one is supposed.

/** Asked of several outcomes together, not of one. */
export const JOINT_ASKED =
  /^\W*(?:if|given(?: that)?|assuming|suppose)\b[^?]*\b(?:more|less) likely\b|\b(?:both|all (?:two|three|four|3|4|of them|of those|of these))\b[^?.!]{0,30}\b(?:happen\w*|hit\w*|wins?|winning|come (?:in|true)|occur\w*|resolv\w*|cash\w*|land\w*|go(?:es)? (?:yes|through|my way))\b|\b(?:chances?|odds|probabilit(?:y|ies)|likelihood|likely|prob)\b[^?.!]{0,12}\b(?:of |that )?(?:both|all (?:three|four|3|4|of them|of those)|either|neither|none of them|at least one|exactly one|only one)\b|(?:^|[,;]\s*|\b(?:and|what about|how about|chance|odds)\s+)(?:both|either|neither|all (?:three|four|3|4|of them))(?: (?:of them|one|of those|happens?|hits?|together))?\s*[?.!]*$|\bparlay\w*\b|\bjoint(?:ly)? (?:chance|odds|probabilit\w*)\b|\bcombined (?:chance|odds|probability)\b|\b(?:happen|hit|win|come true) together\b|\bat least one of (?:them|those|these|the two|the three)\b|\bcorrelat\w*\b|\bmove together\b|\b(?:if|assuming|are|were|they're|is it) (?:(?:they|those|these|the two|both|them|they're|they are)(?: two)? )?(?:independent|dependent|linked|related)\b/i;

/** A short follow-up of a joint answer: "at least one?", "exactly one?", "and none of them?", "what about only one". */
export const JOINT_FOLLOW_UP = /^\W*(?:(?:and|ok|so|what about|how about|chance of|odds of)\s+)*(?:at least one|exactly one|only one|none(?: of them| of those)?|not a single one|at most one)(?: of (?:them|those|these))?(?: (?:hits?|happens?|wins?|comes? in))?\s*[?.!]*$/i;

/** The words of asking outcomes together, which name no event ("parlay odds", "both happen", "all three"). */
export const JOINT_WORDS = /\b(?:parlay\w*|joint(?:ly)?|combined|together|both|either|neither|none of them|all (?:two|three|four|3|4|of them|of those|of these)|at least one(?: of (?:them|those|these))?|exactly one|only one|happen\w*|correlat\w*|too|(?:does|would|will|could) (?:that|it|this) make|(?:more or less|more|less) likely|likelier|(?:what(?:'s| is| are)? the )?(?:chances?|odds|probabilit(?:y|ies)|likelihood)(?: (?:of|that))?)\b/gi;

/** A chance asked of outcomes said with "and" ("what's the chance of a hike AND cpi above 3.2?"): of them together when they are of different events. */
export const CHANCE_OF_EACH = /\b(?:chances?|odds|probabilit(?:y|ies)|likelihood|how likely|implied)\b[^?]*(?:\band\b|&|\+)/i;

/** "If the Fed hikes, does that make CPI above 3.2 more or less likely?": one outcome's chance given another's. */
const CONDITIONAL = /^\W*(?:if|given(?: that)?|assuming|suppose)\b[^?]*\b(?:more|less) likely\b|\b(?:more|less) likely\b[^?]*\b(?:if|given|when)\b/i;

/** What of them is asked first: all of them happening, at least one, none, exactly one, one given another, or how dependence moves it. */
type Asked = 'all' | 'any' | 'none' | 'one' | 'given' | 'dependence';

function askedOf(question: string): Asked {
  const q = question.toLowerCase();
  if (CONDITIONAL.test(q)) return 'given';
  if (/\bcorrelat\w*|\bmove together\b|\b(?:independent|dependent|linked|related)\b/.test(q)) return 'dependence';
  if (/\b(?:neither|none)\b/.test(q)) return 'none';
  if (/\b(?:exactly|only) one\b/.test(q)) return 'one';
  if (/\b(?:either|at least one|any of them)\b/.test(q)) return 'any';
  return 'all';
}

/** A correlation supposed ("with a correlation of 0.5", "if they're 30% correlated", "rho 0.3"), between −1 and 1. */
function correlationSaid(question: string): number | null {
  const m = /\b(?:correlation|correlated|corr|rho)\b[^\d.?!-]{0,20}(-?(?:0?\.\d+|1(?:\.0+)?|\d{1,3}\s*%))|(-?(?:0?\.\d+|\d{1,3}\s*%))\s*(?:correlat\w*|corr)\b/i.exec(question);
  const said = m?.[1] ?? m?.[2];
  if (!said) return null;
  const v = said.includes('%') ? parseFloat(said) / 100 : parseFloat(said);
  return Number.isFinite(v) && Math.abs(v) <= 1 ? v : null;
}

/** One outcome (or exclusive outcomes taken together) of one event, on the side asked. */
export interface Leg {
  ticker: string;
  sheet: ReportRead;
  rows: Row[];
  side: 'YES' | 'NO';
  /** The exchange's category of the event ("Crypto", "Sports"), when known. */
  category?: string | null;
}

/**
 * The outcome of `sheet` a text asks about, and on which side: "cpi above 3%" is YES on Above 3.0;
 * "btc below 92k" on a ladder of "Above" rungs is NO on Above 92k; "the lakers lose" is NO on the
 * Lakers. Several exclusive outcomes named ("a cut") are taken together; several rungs of a
 * ladder are no one outcome. Null when it names none.
 */
export function legOf(text: string, ticker: string, sheet: ReportRead): Leg | null {
  const rows = outcomesNamed(text, sheet);
  if (!rows.length || rows.some((r) => !Number.isFinite(r.marketValue))) return null;
  const all = readReport(sheet.text).rows;
  if (rows.length > 1 && (isLadder(all) || rows.length === all.length)) return null;
  const direction = sideAsked(text);
  const rung = rows.length === 1 && isLadder(all) ? rungSide(labelRange(outcomeOf(rows[0]!.outcome).name)) : null;
  const no = rung && direction ? rung !== direction : negated(text.replace(/\bno (?:more|less) than\b/gi, ' '));
  return { ticker, sheet, rows, side: no ? 'NO' : 'YES' };
}

/** The legs a joint answer listed ("1. **Fed …** (KXFEDDECISION-26DEC) [1]: **YES on Cut 25bps**: …"), by ticker. */
export function legsListed(answer: string): Map<string, { side: 'YES' | 'NO'; names: string }> {
  const legs = new Map<string, { side: 'YES' | 'NO'; names: string }>();
  if (!JOINT_HEAD.test(answer.trimStart())) return legs;
  for (const m of answer.matchAll(/^\d+\. \*\*.+?\*\* \(([A-Z][A-Z0-9]*-[A-Z0-9.-]+)\)(?: \[\d+\])*: \*\*(YES|NO) on (.+?)\*\*/gm)) legs.set(m[1]!, { side: m[2] as 'YES' | 'NO', names: m[3]! });
  return legs;
}

/** A leg listed before, read back against its event's outcomes. */
export function legListed(listed: { side: 'YES' | 'NO'; names: string }, ticker: string, sheet: ReportRead): Leg | null {
  const all = readReport(sheet.text).rows;
  const name = (r: Row) => outcomeOf(r.outcome).name;
  const whole = all.filter((r) => name(r) === listed.names);
  const parts = listed.names.split(' or ');
  const rows = whole.length ? whole : all.filter((r) => parts.includes(name(r)));
  return rows.length && rows.every((r) => Number.isFinite(r.marketValue)) ? { ticker, sheet, rows, side: listed.side } : null;
}

export const JOINT_HEAD = /^Joint chance of the \d+ outcomes asked\b/;

/** A leg's chance on the market's prices, or on its report's model (NaN without one), as a fraction. */
function chance(leg: Leg, of: 'market' | 'model'): number {
  const yes = leg.rows.reduce((s, r) => s + (of === 'market' ? r.marketValue : r.modelValue), 0) / 100;
  const p = Math.min(1, Math.max(0, yes));
  return leg.side === 'YES' ? p : 1 - p;
}

interface Figures {
  all: number;
  any: number;
  none: number;
  one: number;
  allLow: number;
  allHigh: number;
}

function figures(ps: number[]): Figures {
  const all = ps.reduce((a, p) => a * p, 1);
  const none = ps.reduce((a, p) => a * (1 - p), 1);
  // Exactly one: each happening while every other does not.
  const one = ps.reduce((a, p, i) => a + ps.reduce((b, q, j) => b * (i === j ? p : 1 - q), 1), 0);
  const sum = ps.reduce((a, p) => a + p, 0);
  return { all, any: 1 - none, none, one, allLow: Math.max(0, sum - (ps.length - 1)), allHigh: Math.min(...ps) };
}

/** Both of two outcomes with chances `p`, `q` and correlation `rho` between them, held inside what any dependence allows. */
function bothCorrelated(p: number, q: number, rho: number): number {
  const raw = p * q + rho * Math.sqrt(p * (1 - p) * q * (1 - q));
  return Math.min(Math.min(p, q), Math.max(Math.max(0, p + q - 1), raw));
}

const pct = (x: number) => percent(x * 100);

/** The chance of `then` given `first`, as far as two prices say it: its own if independent, and what any dependence allows. */
function givenText(first: Leg, then: Leg): string {
  const [a, b] = [chance(first, 'market'), chance(then, 'market')];
  const low = a > 0 ? Math.max(0, a + b - 1) / a : 0;
  const high = a > 0 ? Math.min(a, b) / a : 1;
  return `whether **${legName(first)}** makes **${legName(then)}** likelier is not in any price or report here, which price each event alone. If they are independent it changes nothing (**${pct(b)}** on market prices); whatever the dependence, given ${legName(first)} the chance of ${legName(then)} lies between **${pct(low)}** and **${pct(high)}**`;
}
const legName = (leg: Leg) => `${leg.side} on ${leg.rows.map((r) => outcomeOf(r.outcome).name).join(' or ')}`;

/**
 * The joint answer for `legs` (two or more, of different events). `missing`: events discussed
 * whose outcome could not be told, named so the asker can say it.
 */
export function jointAnswer(question: string, legs: Leg[], missing: string[] = []): Answer {
  const citations: Citation[] = [];
  const cite = (c: Citation) => {
    const at = citations.findIndex((x) => x.url === c.url);
    if (at !== -1) return citations[at]!.order;
    citations.push({ ...c, order: citations.length + 1 });
    return citations.length;
  };
  const modelled = legs.every((l) => Number.isFinite(chance(l, 'model')));
  const market = figures(legs.map((l) => chance(l, 'market')));
  const model = modelled ? figures(legs.map((l) => chance(l, 'model'))) : null;
  const lines = legs.map((leg, i) => {
    const refs = leg.rows.flatMap((r) => (outcomeOf(r.outcome).refs.match(/\d+/g) ?? []).map(Number));
    const marks = [...new Set(refs.flatMap((n) => {
      const c = leg.sheet.citations.find((x) => x.order === n);
      return c ? [cite(c)] : [];
    }))].map((n) => `[${n}]`).join('');
    const m = chance(leg, 'market');
    const mo = chance(leg, 'model');
    const source = leg.sheet.unreported ? 'live quotes, no report stored' : `report as of ${Number.isNaN(Date.parse(leg.sheet.asOf)) ? leg.sheet.asOf : utcMinute(new Date(leg.sheet.asOf))}`;
    return `${i + 1}. **${leg.sheet.title.replace(/[*_]/g, '')}** (${leg.ticker})${marks ? ` ${marks}` : ''}: **${legName(leg)}**: market ${pct(m)}${Number.isFinite(mo) ? `, model ${pct(mo)}` : ''} (${source})`;
  });
  const n = legs.length;
  const two = n === 2;
  const asked = askedOf(question);
  const rho = correlationSaid(question);
  const both = two ? 'both happen' : `all ${n} happen`;
  const onModel = (x: number | undefined) => (model && x !== undefined ? ` (**${pct(x)}** on the model${n > 1 ? 's' : ''})` : '');
  const lead =
    asked === 'any'
      ? `at least one happens **${pct(market.any)}** on market prices${onModel(model?.any)}, if the events are independent`
      : asked === 'none'
        ? `${two ? 'neither' : 'none'} happens **${pct(market.none)}** on market prices${onModel(model?.none)}, if the events are independent`
        : asked === 'one'
          ? `exactly one happens **${pct(market.one)}** on market prices${onModel(model?.one)}, if the events are independent`
          : asked === 'given' && two
            ? givenText(legs[0]!, legs[1]!)
          : asked === 'dependence' && (two || rho === null)
            ? `${both} **${pct(rho === null ? market.all : bothCorrelated(chance(legs[0]!, 'market'), chance(legs[1]!, 'market'), rho))}** on market prices ${rho === null ? 'if the events are independent' : `with a correlation of ${rho}`}, and anywhere from **${pct(market.allLow)}** to **${pct(market.allHigh)}** depending on how they move together`
            : `${both} **${pct(market.all)}** on market prices${onModel(model?.all)}, if the events are independent`;
  const row = (label: string, f: (x: Figures) => number | null) => `| ${label} | ${pct(f(market)!)} |${model ? ` ${pct(f(model)!)} |` : ''}`;
  const table = [
    `| If independent | Market |${model ? ' Model |' : ''}`,
    `|---|---|${model ? '---|' : ''}`,
    row(two ? 'Both' : `All ${n}`, (x) => x.all),
    row('At least one', (x) => x.any),
    row('Exactly one', (x) => x.one),
    row(two ? 'Neither' : 'None', (x) => x.none),
  ];
  const [p, q] = [chance(legs[0]!, 'market'), chance(legs[1]!, 'market')];
  const supposed = two
    ? rho !== null
      ? ` With a correlation of ${rho} between them, both happen ${pct(bothCorrelated(p, q, rho))}${model ? ` (${pct(bothCorrelated(chance(legs[0]!, 'model'), chance(legs[1]!, 'model'), rho))} on the models)` : ''}.`
      : ` For example, with a correlation of +0.5 between them both happen ${pct(bothCorrelated(p, q, 0.5))}; with −0.5, ${pct(bothCorrelated(p, q, -0.5))}.`
    : '';
  const dependence = `Independence is an assumption: neither the prices nor ${model ? 'the reports' : 'anything I read'} say how these events move together. Whatever the dependence, ${both} with a chance between ${pct(market.allLow)} (${two ? 'the two chances added, less 100%, or zero' : 'the chances added, less one for each outcome after the first, or zero'}) and ${pct(market.allHigh)} (the least likely one) on market prices.${supposed}`;
  // Events of one kind are likelier to move together than events of different kinds: said, not assumed.
  const kinds = legs.map((l) => l.category ?? null);
  const kind = kinds.every(Boolean)
    ? kinds.every((k) => k === 'Sports')
      ? ' They are separate games, so independence is a natural first assumption, though not a fact.'
      : new Set(kinds).size === 1
      ? ` ${n === 2 ? 'Both' : `All ${n}`} are ${kinds[0]} events: events of one kind (two crypto prices, the Fed and inflation) often move together, so the independent figure may be off in either direction; the range above holds regardless.`
      : new Set(kinds).size === n
        ? ` They are of different kinds (${listed((kinds as string[]).map((k) => `“${k}”`))}), so independence is a natural first assumption, though not a fact.`
        : ` They are of different kinds (${listed([...new Set(kinds as string[])].map((k) => `“${k}”`))})${kinds.filter((k) => k === 'Sports').length > 1 ? ', the games separate games' : ''}, so independence is a natural first assumption, though not a fact: two of one kind may still move together.`
    : '';
  const parlay = `No contract here pays on ${two ? 'both' : 'all of them'} together: buying each side separately is ${n} bets, not a parlay. A $1 ticket paying only if ${both} would be worth its chance: $${market.all.toFixed(3)} on market prices if independent${model ? `, $${model.all.toFixed(3)} on the model${n > 1 ? 's' : ''}` : ''}.`;
  const lacking = legs.filter((l) => !Number.isFinite(chance(l, 'model'))).map((l) => l.ticker);
  const unmodelled = !model && lacking.length < n ? ` The model column needs a report for every event: ${listed(lacking)} ${lacking.length === 1 ? 'has' : 'have'} none.` : '';
  const left = missing.length ? `\n\nLeft out, as I could not tell which outcome you mean: ${missing.join(', ')}; name it (for example “and hold”) to add it.` : '';
  const text = `Joint chance of the ${n} outcomes asked: ${lead}.\n\n${lines.join('\n')}\n\n${table.join('\n')}\n\n${dependence}${kind}${unmodelled}\n\n${parlay}${left}\n`;
  return { text, citations };
}
