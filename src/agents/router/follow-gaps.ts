import { tickerAddress } from '../../data/kalshi/url.js';
import type { Report } from '../../reports/store.js';
import type { Answer, Turn } from '../types.js';
import { KALSHI_URL, eventsAddressed, eventsOf, routedText } from './classify.js';
import { SIZING, outcomesNamed, type ReportRead } from './event-questions.js';
import { footOf } from './report-facts.js';
import { rankedTrades } from './trading-answers.js';
import { byLevel, cited, isLadder, labelLevels, levelOfRow, outcomeOf, percent, readReport, rungSide, type Row } from './report-rows.js';
import { labelRange } from '../markets-search/asked.js';
import { SYNONYMS } from '../markets-search/search.js';
import { marginText } from './margin.js';
import { supposesSettlement } from './settle-scenario.js';

// Follow-ups in a thread of stored Kalshi reports that the general rules answered badly: two named
// outcomes weighed against each other ("will hike beat hold?"), and the others below, each from
// the facts of the report the question is about. Each returns null when it does not apply.

/** The thread's events with a stored report, in the order the thread first discussed them. */
export async function threadReports(history: readonly Turn[], latest: (ticker: string) => Promise<Report | null>): Promise<Report[]> {
  const tickers: string[] = [];
  for (const t of history) {
    const found = t.role === 'user' ? eventsAddressed(t.content) : eventsOf(t.content);
    for (const x of found) if (!tickers.includes(x.toUpperCase())) tickers.push(x.toUpperCase());
  }
  const reports = await Promise.all(tickers.map((t) => latest(t).catch(() => null)));
  return reports.filter((r): r is Report => r !== null);
}

/** The report the thread's last answer was about (its foot or header), else the last one discussed. */
export function currentReport(history: readonly Turn[], reports: readonly Report[]): Report | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i]!;
    const events = t.role === 'assistant' ? eventsOf(t.content) : eventsAddressed(t.content);
    const hit = reports.find((r) => events.some((e) => e.toUpperCase() === r.eventTicker.toUpperCase()));
    if (hit) return hit;
  }
  return reports.at(-1) ?? null;
}

export const readOf = (r: Report): ReportRead => ({ title: r.title, eventTicker: r.eventTicker, text: r.text, citations: r.citations, asOf: r.asOf });

/** An answer's text drawn from one report: its [n] renumbered against the report's sources, its foot saying which report. */
export function fromReport(r: Report, text: string): Answer {
  const own = cited(text, r.citations);
  return { text: `${own.text.trimEnd()}\n${footOf(readOf(r))}`, citations: own.citations };
}

const name = (r: Row) => outcomeOf(r.outcome).name;
const refs = (r: Row) => outcomeOf(r.outcome).refs;

/** "Will hike beat hold?", "hike vs hold", "is hike more likely than hold?", "hold over hike?": two outcomes weighed. */
const COMPARED = /\b(?:beat(?:s|ing)?|wins? over|(?:more|less) (?:likely|probable) than|likelier than|better (?:odds )?than|ahead of)(?=\s)/i;
/** "Which is likelier, hike or hold?": two named with "or" are weighed only when the question asks which. */
const WHICH_OR = /^\W*(?:(?:and|so|ok)\W+)?(?:which|what)(?:'s| is| one| of them| of the two)?\b[^?]{0,30}\b(?:likel\w*|probable|more|better|higher|favou?r\w*|ahead|wins?|the favou?rite)\b[^?]*\bor\b/i;

/** "Compare 52-55 and 56 or above": two outcomes named to be set side by side. */
const COMPARE_AND = /^\W*(?:(?:ok|so|now|and)\W+)?compare\b[^?]*\b(?:and|with|to|against)\b/i;

/** The two sides of "X and Y" ("X with Y", "X vs Y", "X or Y" but not "56 or above"), each naming one outcome of its own, in the order said; null otherwise. */
function splitPair(body: string, r: Report): Row[] | null {
  const sides = body.split(/\s+(?:and|with|against|vs\.?|versus|or(?!\s+(?:above|below|more|fewer|less|higher|lower|over|under|greater|warmer|colder)\b))\s+/i);
  if (sides.length !== 2) return null;
  const [a, b] = sides.map((x) => outcomesNamed(x, readOf(r)));
  return a!.length === 1 && b!.length === 1 && a![0] !== b![0] ? [a![0]!, b![0]!] : null;
}

/** Two outcomes of one report set side by side: which the market and the model put ahead, by how much, and what else can happen. */
export function comparedText(question: string, r: Report): string | null {
  const q = routedText(question);
  // ("Hike or hold?" alone is their sum: only a question that asks which weighs them.)
  if (!COMPARED.test(q) && !WHICH_OR.test(q) && !COMPARE_AND.test(q)) return null;
  // (Named as a contest, "hike beat hold" would be read as one side's question: the verb is taken out.)
  const body = q.replace(new RegExp(COMPARED.source, 'gi'), ' and ').replace(/^\W*(?:(?:ok|so|now|and)\W+)?compare\b/i, ' ');
  let pair = outcomesNamed(body.replace(/\bor\b/gi, ' and '), readOf(r));
  // ("Compare 52-55 and 56 or above": a range said end to end names only itself, so each side is read
  // on its own; "or above" is of the outcome's name, not between the two.)
  const split = pair.length !== 2 ? splitPair(body, r) : null;
  if (split) pair = split;
  if (pair.length !== 2) return null;
  const { rows } = readReport(r.text);
  // (Of a game's two sides, one beating the other is its own chance, which the outcome's line says.)
  if (rows.length <= 2) return null;
  // The one said first is the one asked about.
  const lower = q.toLowerCase();
  // (By its whole name, else by a word of it the other lacks: "3.0" of "Above 3.0" beside "Above 2.8".)
  const at = (x: Row, other: Row) => {
    const whole = lower.indexOf(name(x).toLowerCase());
    if (whole !== -1) return whole;
    const theirs = name(other).toLowerCase().split(/\s+/);
    const words = name(x).toLowerCase().split(/\s+/).filter((w) => !theirs.includes(w));
    return Math.min(...words.map((w) => (lower.indexOf(w) === -1 ? Infinity : lower.indexOf(w))));
  };
  const [a, b] = split || at(pair[0]!, pair[1]!) <= at(pair[1]!, pair[0]!) ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
  const hasModel = Number.isFinite(a.modelValue) && Number.isFinite(b.modelValue);
  const ratio = (x: number, y: number) => (y > 0 && x > 0 ? `, ${(x >= y ? x / y : y / x).toFixed(1)} times as likely${x >= y ? '' : ' the other way'}` : '');
  const marketAhead = a.marketNormalised > b.marketNormalised;
  const modelAhead = hasModel ? a.modelValue > b.modelValue : marketAhead;
  const both = marketAhead === modelAhead;
  const said = both ? `${marketAhead ? 'ahead of' : 'behind'} **${name(b)}** on both the market and the model` : `${marketAhead ? 'ahead of' : 'behind'} **${name(b)}** on the market, ${modelAhead ? 'ahead' : 'behind'} on the model`;
  // A yes/no question ("will hike beat hold?", "is hold less likely than hike?") gets its answer first, as the market and model say it.
  const yesNo = /^\W*(?:(?:and|so|but|ok)\W+)?(?:will|would|can|could|does|do|is|are|might|may)\b/i.test(q);
  const wantsAhead = !/\bless (?:likely|probable) than\b/i.test(q);
  const answerOf = (ahead: boolean) => (ahead === wantsAhead ? 'Yes' : 'No');
  const verdict = !yesNo || isLadder(rows) ? '' : both ? `**${answerOf(marketAhead)}**: ` : `**${answerOf(marketAhead)} on the market, ${answerOf(modelAhead).toLowerCase()} on the model**: `;
  const lines = [
    `${verdict}**${name(a)}** is ${said}.`,
    '',
    `- **${name(a)}**: market ${a.market}${hasModel ? `, model ${a.model}` : ''} ${refs(a)}`.trimEnd(),
    `- **${name(b)}**: market ${b.market}${hasModel ? `, model ${b.model}` : ''} ${refs(b)}`.trimEnd(),
    '',
    `Gap between them: market ${(a.marketNormalised - b.marketNormalised >= 0 ? '+' : '−') + Math.abs(a.marketNormalised - b.marketNormalised).toFixed(1)} pts${a.marketNormalised !== a.marketValue ? ' (normalised prices)' : ''}${ratio(a.marketNormalised, b.marketNormalised)}${hasModel ? `; model ${(a.modelValue - b.modelValue >= 0 ? '+' : '−') + Math.abs(a.modelValue - b.modelValue).toFixed(1)} pts${ratio(a.modelValue, b.modelValue)}` : ''}.`,
  ];
  if (isLadder(rows)) lines.push('', 'These are rungs of one ladder, not exclusive outcomes: YES on the further rung implies YES on the nearer one, so one cannot “beat” the other; the prices say how likely each level is.');
  else {
    const others = rows.filter((x) => name(x) !== name(a) && name(x) !== name(b));
    const rest = hasModel && others.every((x) => Number.isFinite(x.modelValue)) ? others.reduce((s, x) => s + x.modelValue, 0) : null;
    lines.push('', `The outcomes exclude each other, so “${name(a)} beats ${name(b)}” is ${name(a)} happening: ${hasModel ? `${a.model} on the model` : `${percent(a.marketNormalised)} on the market`}.${others.length ? ` Neither (${others.map(name).join(', ')}) ${rest !== null ? `is ${percent(rest)} on the model` : 'takes the rest'}.` : ''}`);
  }
  return lines.join('\n');
}

/** "And hold?", "what about above 2.8?", "same for cut 25": an outcome said alone, the question before asked again of it. */
const ELLIPTIC = /^\W*(?:(?:ok|okay|so)\W+)?(?:and|what about|how about|same for|ditto for|now|then)\s+(?:for\s+|on\s+|with\s+)?(?:the\s+)?((?:[^?.!]|\.(?=\d)){1,40}?)(?:\s+(?:one|bucket|outcome|contract|rung|instead|then|too))?\s*[?.!]*\s*$/i;

/** The words of `text` whose removal leaves no outcome of `r` named: the shortest such run of words, or null. */
function outcomeSpan(text: string, r: Report): { from: number; to: number; rows: Row[] } | null {
  const rows = outcomesNamed(text, readOf(r));
  if (!rows.length) return null;
  const words = [...text.matchAll(/\S+/g)];
  for (let len = 1; len <= Math.min(5, words.length); len++)
    for (let i = 0; i + len <= words.length; i++) {
      const [from, to] = [words[i]!.index!, words[i + len - 1]!.index! + words[i + len - 1]![0].length];
      const rest = `${text.slice(0, from)} ${text.slice(to)}`;
      if (outcomesNamed(rest, readOf(r)).length) continue;
      // (Widened over the words next to it that are of the name too: "cut 25bps", not "cut" alone.)
      const own = rows.flatMap((x) => name(x).toLowerCase().split(/[\s()]+/)).filter((w) => w.length >= 2);
      const related = (w: string | undefined) => {
        const bare = (w ?? '').toLowerCase().replace(/^[^\w$.]+|[^\w%]+$/g, '');
        return bare.length >= 2 && own.some((n) => n.startsWith(bare) || bare.startsWith(n));
      };
      let [first, last] = [i, i + len - 1];
      while (first > 0 && related(words[first - 1]?.[0])) first--;
      while (last < words.length - 1 && related(words[last + 1]?.[0])) last++;
      return { from: words[first]!.index!, to: words[last]!.index! + words[last]![0].replace(/[?!.,;:]+$/, '').length, rows };
    }
  return null;
}

/**
 * "And hold?" after a question about another outcome ("ev of 100 yes on above 3.0"): that question
 * again with the outcome said now in place of the one it named, of the report that has an outcome
 * called so (the one discussed last, when both have). Null when the question is no such ellipsis,
 * the question before named no outcome, or named one of that same report (the rules carry such a
 * question over within a report).
 */
export function ellipsisAsked(history: readonly Turn[], question: string, reports: readonly Report[], current: Report | null): { report: Report; question: string } | null {
  const said = ELLIPTIC.exec(routedText(question).trim())?.[1];
  if (!said || said.split(/\s+/).length > 5) return null;
  const ordered = current ? [current, ...reports.filter((r) => r !== current)] : [...reports];
  // The report with an outcome called so, the whole of what is said naming it.
  const target = ordered.find((r) => {
    const span = outcomeSpan(said, r);
    return span !== null && span.rows.length === 1 && !/[a-z]{3,}/i.test(`${said.slice(0, span.from)} ${said.slice(span.to)}`.replace(/\b(?:yes|no|side|the|a|an|one|of|on|for)\b/gi, ''));
  });
  if (!target) return null;
  const row = outcomesNamed(said, readOf(target))[0]!;
  // The question before that asked something of its own (back past other ellipses), and the outcome it named.
  const users = history.filter((t) => t.role === 'user').map((t) => routedText(t.content)).reverse();
  const before = users.find((u) => !ELLIPTIC.test(u.trim()) && !KALSHI_URL.test(u));
  // ("And 240k?" after "what if it prints 180k?": that supposition again, which the report's questions answer.)
  if (!before || supposesSettlement(before)) return null;
  for (const r of ordered) {
    const span = outcomeSpan(before, r);
    if (!span || span.rows.length !== 1) continue;
    // (Of the report the thread is on too: "and the bills?" after "whats the payout if i put 100 on the chiefs";
    // but a side said now, "and YES on hike?", or a sizing before, "half kelly on 48-51 with $1000", the rules carry over themselves.)
    if (r === target && current === target && (/\b(?:yes|no)\b/i.test(said) || SIZING.test(before))) return null;
    const rewritten = `${before.slice(0, span.from)}${name(row)}${before.slice(span.to)}`;
    // (The question before was only the outcome's name: its price, as the rules answer a name alone.)
    return { report: target, question: rewritten };
  }
  return null;
}

/** A bare "why?" of the answer before ("why?", "how so?", "why is that?", "explain that"). */
export const WHY_BARE = /^\W*(?:(?:and|ok|okay|so|but|hmm)\W+)?(?:why(?:'s that| is that| so| that)?|how so|how come|explain(?: that| it| why)?)\W*$/i;
/** A worst case just given: of a position named, or of one contract of each side. */
const WORST_ONE = /^If \*\*(.+?)\*\* resolves (YES|NO), the (YES|NO) contracts on it\b/;
const WORST_ALL = /^No position is named in this thread, so here is the worst case\b/;

/** "Why?" right after a worst case: why that is the most it loses, and where the chance of it comes from, from the report's facts. */
export function whyWorstText(lastAnswer: string, r: Report): string | null {
  const one = WORST_ONE.exec(lastAnswer);
  if (!one && !WORST_ALL.test(lastAnswer)) return null;
  const { rows, contracts } = readReport(r.text);
  const lines = ['Why the worst case is what it is:', '', '- **A Kalshi contract settles at $1 or nothing.** YES pays $1 if the outcome happens, NO pays $1 if it does not; so the most a bought contract can lose is what was paid for it, and that is lost exactly when its side loses. No more can be lost (there is no margin call); selling before the close, at whatever the bid is then, could lose less.'];
  const sideLine = (x: Row, side: 'YES' | 'NO') => {
    const c = contracts.get(refs(x));
    const bid = c?.bid ?? '—';
    const paid = side === 'YES' ? (c?.ask ?? '—') : /^\$\d/.test(bid) ? `$${(1 - Number(bid.slice(1))).toFixed(2)}` : '—';
    const lose = side === 'YES' ? 100 - x.modelValue : x.modelValue;
    return `- **${side} on ${name(x)}** costs ${paid}${side === 'NO' ? ` (1 minus the ${bid} YES bid)` : ' (the ask)'} ${refs(x)}; it loses if ${name(x)} ${side === 'YES' ? 'does not happen' : 'happens'}: ${percent(lose)} on the model (${name(x)} at ${x.model}), ${percent(side === 'YES' ? 100 - x.marketValue : x.marketValue)} on the market's price of ${percent(x.marketValue)}.`;
  };
  if (one) {
    const x = rows.find((row) => name(row) === one[1]);
    if (!x) return null;
    lines.push(sideLine(x, one[3] as 'YES' | 'NO'));
    const held = /([\d,]+) (YES|NO) contracts at \$(\d+\.\d\d): you lose the \*\*\$([\d,.]+)\*\*/.exec(lastAnswer);
    if (held) lines.push(`- **Your position:** ${held[1]} contracts × $${held[3]} = $${held[4]}, the whole stake, lost together: every contract of one side settles the same way.`);
  } else {
    const sides = rows.filter((x) => Number.isFinite(x.modelValue)).flatMap((x) => (['YES', 'NO'] as const).map((side) => ({ x, side, lose: side === 'YES' ? 100 - x.modelValue : x.modelValue, paid: (() => { const c = contracts.get(refs(x)); const v = side === 'YES' ? c?.ask : c?.bid; return v && /^\$\d/.test(v) ? (side === 'YES' ? Number(v.slice(1)) : 1 - Number(v.slice(1))) : null; })() })));
    const priced = sides.filter((t) => t.paid !== null);
    const dearest = [...priced].sort((a, b) => b.paid! - a.paid!)[0];
    const likeliest = [...priced].sort((a, b) => b.lose - a.lose)[0];
    if (dearest && likeliest) {
      lines.push(`- **Each row's chance of losing** is the model's chance that its side does not pay: 1 minus the model's probability for YES, the probability itself for NO.`);
      lines.push(`- **The largest loss per contract** is ${dearest.side} on ${name(dearest.x)} ($${dearest.paid!.toFixed(2)}), and it loses only ${percent(dearest.lose)} of the time on the model; **the likeliest loss** is ${likeliest.side} on ${name(likeliest.x)} (${percent(likeliest.lose)}), which costs $${likeliest.paid!.toFixed(2)}. A cheap contract is cheap because it usually loses; a dear one rarely does: price and chance of loss move together, and the expected value is where they differ.`);
    }
  }
  lines.push(`- **Where the chances come from:** the model's probabilities are the report's (the market's price through a fit on the series' settled markets), not a forecast of news; the market's are the prices as quoted.`, '', "Fees are not counted; they would add to a loss. This explains arithmetic on the report's prices, not investment advice.");
  return lines.join('\n');
}

/** "List the outcomes", "what are the options?": the outcome table, not the report whole. */
const LIST_ASKED = /^\W*(?:(?:ok|okay|so|now|pls|please|can you|could you)\W+)*(?:list|show|give|tell|what are|which are)(?: me)? (?:all )?(?:of )?(?:the |its |their )?(?:possible )?(?:outcomes|options|buckets|choices|contracts|results)(?: again| please| pls)?\W*$/i;
/** "Is that good or bad", "is this good?", "good or bad?": a judgement of what the answer before showed. */
const GOOD_BAD = /^\W*(?:(?:so|and|ok|okay|but|hmm)\W+)*(?:(?:is|are|was) (?:that|this|it|those|these|they|the (?:prices?|odds|numbers))\s+)?(?:good|bad|any good|a good (?:sign|deal|price|bet)|a bad (?:sign|deal|price|bet))(?:\s+or\s+(?:bad|good|not))?(?:\s+(?:for me|then|news))?\W*$/i;

export function listText(r: Report): string {
  const { rows } = readReport(r.text);
  const lines = rows.map((x) => `- **${name(x)}**: market ${x.market}${Number.isFinite(x.modelValue) ? `, model ${x.model}, gap ${x.gap}` : ''} ${refs(x)}`.trimEnd());
  const sum = rows.reduce((a, x) => a + x.marketValue, 0);
  const exclusive = !isLadder(rows) && /mutually exclusive/.test(r.text);
  return `The ${rows.length} outcomes of this event${exclusive ? ' (only one can resolve YES)' : isLadder(rows) ? ' (rungs of one ladder: each is its own yes/no on a level)' : ''}:\n\n${lines.join('\n')}${exclusive ? `\n\nTheir prices add up to ${percent(sum)}; the model's to 100%.` : ''}`;
}

/** "Is that good or bad" of the outcomes the answer before showed: for each, whether either side is worth buying at the quotes on the model, and the cost of the spread. */
export function goodBadText(lastAnswer: string, r: Report): string | null {
  const { rows, contracts } = readReport(r.text);
  const shown = rows.filter((x) => lastAnswer.includes(`**${name(x)}**`));
  const asked = shown.length ? shown : rows;
  const trades = rankedTrades(asked, contracts);
  if (!trades.length) return null;
  const ev = (x: number) => `${x >= 0 ? '+' : '−'}$${Math.abs(x).toFixed(3)}`;
  const lines = asked.flatMap((x) => {
    const own = trades.filter((t) => t.r.outcome === x.outcome);
    if (!own.length) return [];
    const best = own[0]!;
    const verdict = best.ev > 0 ? `**${best.ev < 0.01 ? 'barely good' : 'good'}** as ${best.side} on the model (${ev(best.ev)} a contract)` : `**bad** either way on the model (best: ${best.side} at ${ev(best.ev)} a contract)`;
    return [`- **${name(x)}**: ${own.map((t) => `${t.side} at $${t.paid.toFixed(2)} ${ev(t.ev)}`).join(', ')}: ${verdict} ${refs(x)}`.trimEnd()];
  });
  const good = trades.filter((t) => t.ev > 0);
  const head = good.length
    ? `Good or bad depends on the side and the price. On the model, at the report's quotes, ${good.length === 1 ? 'one trade is' : `${good.length} trades are`} worth more than ${good.length === 1 ? 'it costs' : 'they cost'} (before fees)${trades.length > good.length ? '; the other sides lose on average' : ''}:`
    : 'On the model, at the report\'s quotes, nothing here is worth buying: every side costs more than its expected payout (before fees):';
  return `${head}\n\n${lines.join('\n')}\n\nExpected value per $1 contract is the model's chance of the side paying minus its price (YES at the ask, NO at 1 minus the bid); every side pays the spread, which is why both sides of one outcome cannot both be positive. Whether that is good for you depends on your own view of the chances; this is arithmetic on the report's prices, not investment advice.`;
}

/** A level said with "%" ("is 3% high", "what about 3.2%?", "chance cpi prints 2.8%"), not a chance ("58% likely", "a 30% chance"). */
const LEVEL_PCT = /(?<![\d.])(\d+(?:\.\d+)?)\s*%(?!\s*(?:chance|odds|likely|probab\w*|of the time|implied))/i;
const CHANCE_WORDS = /\b(?:chance|odds|probab\w*|likel\w*|priced at|trading at|implied|mean)\b/i;

/** The report in the thread whose outcomes are levels of a rate (CPI, a Fed rate, unemployment) at the level said; null when none or several. */
export function levelReport(question: string, reports: readonly Report[]): { report: Report; level: number } | null {
  const m = LEVEL_PCT.exec(routedText(question));
  if (!m || CHANCE_WORDS.test(question)) return null;
  const level = Number(m[1]);
  const hits = reports.filter((r) => {
    const { rows } = readReport(r.text);
    return isLadder(rows) && labelLevels(rows).includes(level) && !/°|temperature/i.test(r.text.slice(0, 400));
  });
  return hits.length === 1 ? { report: hits[0]!, level } : null;
}

/** "Is 3% high?" of a ladder of levels: the rung at that level on market and model, and where the market's median falls. */
export function levelText(r: Report, level: number, question = ''): string | null {
  const { rows } = readReport(r.text);
  const rungs = byLevel(rows);
  const at = rungs.find((x) => levelOfRow(x) === level);
  if (!at) return null;
  const above = rungSide(labelRange(name(at))) !== 'below';
  const pAbove = above ? at.marketValue : 100 - at.marketValue;
  const mAbove = Number.isFinite(at.modelValue) ? (above ? at.modelValue : 100 - at.modelValue) : null;
  // The market's median: between the rungs where the chance of "above" crosses 50%.
  const chanceAbove = rungs.map((x) => ({ level: levelOfRow(x)!, p: rungSide(labelRange(name(x))) !== 'below' ? x.marketValue : 100 - x.marketValue }));
  const lastOver = [...chanceAbove].reverse().find((x) => x.p >= 50);
  const firstUnder = chanceAbove.find((x) => x.p < 50);
  const median = lastOver && firstUnder && firstUnder.level > lastOver.level ? ` The market's median is between ${lastOver.level} and ${firstUnder.level}: half its weight above, half below.` : lastOver && !firstUnder ? ` More than half the market's weight is above ${lastOver.level}, the highest rung.` : !lastOver && firstUnder ? ` More than half the market's weight is below ${firstUnder.level}, the lowest rung.` : '';
  const low = pAbove >= 50;
  const askedLow = /\b(?:low|cheap|small|soft|tame|mild)\b/i.test(question);
  const askedHigh = /\b(?:high|hot|big|large|elevated|hig)\b/i.test(question);
  const yesNo = askedLow || askedHigh ? `**${(askedLow ? low : !low) ? 'Yes' : 'No'}**: ` : '';
  const verdict = `${yesNo}on the market ${level}% is on the ${low ? 'low' : 'high'} side of what it expects: it gives ${percent(pAbove)} that the figure comes in above ${level}%`;
  return `${verdict}${mAbove !== null ? ` (the model ${percent(mAbove)})` : ''} ${refs(at)}.${median}\n\n${rungs.map((x) => `- **${name(x)}**: market ${x.market}${Number.isFinite(x.modelValue) ? `, model ${x.model}` : ''} ${refs(x)}`.trimEnd()).join('\n')}\n\nRead as a level of this report's figure (the thread's ${r.eventTicker}), from the prices of its rungs; “high” is against what the market expects, not against history or a target.`;
}

/** "Rank them by EV", "sort the outcomes by expected value": every outcome of the report, by EV per contract. */
const RANK_EV = /^(?![^?]*\breports?\b)[^?]*\b(?:rank|sort|order|list)\b[^?]{0,40}\bby\s+(?:the\s+)?(?:ev|e\.v\.|expected value|edge)\b/i;

export function rankedEvText(r: Report): string | null {
  const { rows, contracts } = readReport(r.text);
  const ranked = rows.flatMap((x) => {
    const c = contracts.get(refs(x));
    const [ask, bid] = [c && /^\$\d/.test(c.ask) ? Number(c.ask.slice(1)) : null, c && /^\$\d/.test(c.bid) ? Number(c.bid.slice(1)) : null];
    if (!Number.isFinite(x.modelValue)) return [];
    return [{ x, ask, bid, yes: ask === null ? null : x.modelValue / 100 - ask, no: bid === null ? null : bid - x.modelValue / 100 }];
  }).sort((a, b) => (b.yes ?? -Infinity) - (a.yes ?? -Infinity));
  if (!ranked.length) return null;
  const ev = (v: number | null) => (v === null ? 'no quote' : `${v >= 0 ? '+' : '−'}$${Math.abs(v).toFixed(3)}`);
  const table = ranked.map((t, i) => `| ${i + 1} | ${name(t.x)} ${refs(t.x)} | ${t.x.model} | ${t.ask === null ? '—' : `$${t.ask.toFixed(2)}`} | **${ev(t.yes)}** | ${t.bid === null ? '—' : `$${(1 - t.bid).toFixed(2)}`} | ${ev(t.no)} |`);
  const bestNo = [...ranked].filter((t) => t.no !== null).sort((a, b) => b.no! - a.no!)[0];
  const top = ranked[0]!;
  return `Every outcome ranked by the expected value of one YES contract at the ask (the model's probability minus the ask), per $1 contract, before fees; NO at 1 minus the bid beside it:\n\n| Rank | Outcome | Model | YES ask | YES EV | NO cost | NO EV |\n|---|---|---|---|---|---|---|\n${table.join('\n')}\n\n${top.yes !== null && top.yes > 0 ? `The best YES is **${name(top.x)}** (${ev(top.yes)} a contract).` : `No YES is worth its ask on the model; the least bad is **${name(top.x)}** (${ev(top.yes)}).`}${bestNo && bestNo.no! > 0 ? ` The best side overall is NO on **${name(bestNo.x)}** (${ev(bestNo.no)}).` : ''} This is the model's arithmetic on the report's prices, not investment advice: fees and the model's error are not counted.`;
}

/** "If the fed hikes what does the cpi market imply", "assuming a hold, what are the cpi odds?": one market's outcome as a condition of another's. */
const CONDITION = /^\W*(?:(?:and|so|ok)\W+)?(?:if|when|suppose|supposing|assuming|given(?: that)?|say)\s+(.{3,60}?)(?:,|\s+(?=what|how|then|does|do|is|are|would|will)\b)\s*(.{3,})$/i;

/** The reports a text names by the words of their titles or series ("the cpi market", "the fed"). */
function reportsNamed(text: string, reports: readonly Report[]): Report[] {
  const words = new Set((text.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !['the', 'what', 'does', 'market', 'markets', 'imply', 'implies', 'mean', 'then', 'odds', 'say', 'says', 'about', 'december', 'november', 'year', 'over', 'decision', 'price', 'prices'].includes(w)));
  return reports.filter((r) => (`${r.title} ${r.seriesTicker.replace(/^KX/, '')}`.toLowerCase().match(/[a-z]{3,}/g) ?? []).some((w) => words.has(w)));
}

const GENERIC_SYNONYMS = new Set(['rate', 'high', 'low', 'lower', 'decrease', 'reduce', 'increase', 'raise', 'year', 'model', 'launch', 'launches', 'weather', 'rain', 'snow', 'temp', 'decision', 'rating', 'hold', 'cut', 'hike']);
/** Title words too common to tell reported events apart. */
const COMMON_TITLE_WORDS = new Set(['the', 'what', 'will', 'how', 'many', 'much', 'and', 'for', 'with', 'this', 'that', 'end', 'price', 'market', 'markets', 'event', 'report', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'week', 'day', 'year', 'month', 'ending', 'winner', 'above', 'below', 'over', 'under', 'highest', 'lowest', 'average']);

/** Two-letter words that name nothing ("ok", "on", "it"). */
const SHORT_STOP = new Set('ok on in of to it is me my an at by or as be do go he if no so up us we am hi oh uh yo ya ye pm id tv vs'.split(' '));

/**
 * The names a series ticker gives its event beyond its title's words: the ticker's word whole
 * ("boxoffice", "aimodel") and, where it starts or ends with a word of the title, the rest of it
 * ("ai" of AIMODEL beside the title's "model", "yoy" of CPIYOY beside "cpi").
 */
export function seriesNames(r: Report): string[] {
  const series = r.seriesTicker.replace(/^KX/i, '').toLowerCase();
  const title = r.title.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const out = [series];
  for (const w of title) {
    if (series.length < w.length + 2) continue;
    if (series.endsWith(w)) out.push(series.slice(0, -w.length));
    if (series.startsWith(w)) out.push(series.slice(w.length));
  }
  return [...new Set(out)].filter((x) => /^[a-z]{2,}$/.test(x) && !SHORT_STOP.has(x));
}

/** The words of a text that may name an event: those of three letters or more, two-letter ones that are no filler ("ai"), and each two words run together ("box office" as "boxoffice"). */
export function saidNames(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const pairs = words.slice(1).map((w, i) => `${words[i]}${w}`).filter((w) => w.length >= 6);
  return [...words.filter((w) => w.length >= 3 || (w.length === 2 && !SHORT_STOP.has(w))), ...pairs];
}

/**
 * The thread's reported events a question names by a word of their own title or series that no
 * other report of the thread has ("spacex" beside the sea ice report, "chiefs" beside payrolls).
 */
export function threadEventsNamed(text: string, reports: readonly Report[]): Report[] {
  const wordsOf = (r: Report) => new Set([...(`${r.title} ${r.seriesTicker.replace(/^KX/, '')}`.toLowerCase().match(/[a-z]{3,}/g) ?? []), ...seriesNames(r)].filter((w) => !COMMON_TITLE_WORDS.has(w)));
  const said = saidNames(routedText(text).replace(new RegExp(KALSHI_URL.source, 'gi'), ' '));
  // (A name's usual short forms too, "eth" of "Ethereum", "nfp" of payrolls; not the words every such event shares, "rate", "high".)
  const asked = new Set([...said, ...said.flatMap((w) => (SYNONYMS[w] ?? []).filter((x) => !GENERIC_SYNONYMS.has(x)))]);
  const own = reports.map(wordsOf);
  return reports.filter((_, i) => [...own[i]!].some((w) => asked.has(w) && own.every((o, j) => j === i || !o.has(w))));
}

export function conditionalText(question: string, reports: readonly Report[]): { text: string; report: Report; parts: { report: Report; text: string }[] } | null {
  if (reports.length < 2) return null;
  const m = CONDITION.exec(routedText(question).trim());
  if (!m) return null;
  const [clause, rest] = [m[1]!, m[2]!];
  const given = reports.filter((r) => outcomesNamed(clause, readOf(r)).length);
  const other = reportsNamed(rest, reports).filter((r) => !given.includes(r));
  if (given.length !== 1 || other.length !== 1) return null;
  const [a, b] = [given[0]!, other[0]!];
  // (An outcome of the second named too, "if hike, above 3.2?", is the joint question's: see joint.ts.)
  if (outcomesNamed(rest, readOf(b)).length) return null;
  const cond = outcomesNamed(clause, readOf(a));
  const line = (x: Row) => `- **${name(x)}**: market ${x.market}${Number.isFinite(x.modelValue) ? `, model ${x.model}` : ''} ${refs(x)}`.trimEnd();
  const first = `Nothing I read says what the ${b.title.replace(/[*_?]/g, '')} market implies *given* ${listedNames(cond)}: each report prices its own market alone, and no joint distribution of the two (nor any model linking them) is known here, so there is no conditional probability to give.\n\nWhat each market says on its own:\n\n**${a.title.replace(/[*_]/g, '')}** (${a.eventTicker}):\n${cond.map(line).join('\n')}\n\n`;
  const second = `**${b.title.replace(/[*_]/g, '')}** (${b.eventTicker}):\n${readReport(b.text).rows.map(line).join('\n')}\n\nThese are unconditional: the second market's prices already average over every outcome of the first event, weighted as its traders see them; multiplying the two would assume they are independent, which nothing here supports. Not investment advice.`;
  const text = `${first}${second}`;
  return { text, report: b, parts: [{ report: a, text: first }, { report: b, text: second }] };
}

/**
 * A text written from two reports, each part citing its own report's sources: `parts` are each
 * report's stretch of the text, in order; their [n] are numbered on together, each report's foot under it.
 */
export function fromReports(parts: { report: Report; text: string }[]): Answer {
  let text = '';
  const citations: Answer['citations'][number][] = [];
  for (const { report, text: part } of parts) {
    const own = cited(part, report.citations);
    const offset = citations.length;
    text += own.text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
    citations.push(...own.citations.map((c) => ({ ...c, order: c.order + offset })));
  }
  const foot = parts.map(({ report }) => footOf(readOf(report)).trim().replace(/^_From the stored report on (.+?); ask for the event's address again for the whole report\._$/, '$1'));
  return { text: `${text.trimEnd()}\n\n_From the stored reports on ${foot.join(' and on ')}; ask for an event's address again for its whole report._\n`, citations };
}

const listedNames = (rs: Row[]) => rs.map((x) => `**${name(x)}**`).join(' or ');

export interface GapsOptions {
  latest: (ticker: string) => Promise<Report | null>;
}

/** One of the follow-ups this file answers, from the thread's stored reports; null when none applies. */
export type GapsReply = { answer: Answer } | { url: string; question: string };

export async function gapsReply(o: GapsOptions, history: readonly Turn[], question: string): Promise<GapsReply | null> {
  if (KALSHI_URL.test(question)) return null;
  const reports = await threadReports(history, o.latest);
  if (!reports.length) return null;
  const current = currentReport(history, reports);
  // Outcomes named of one report: the report whose outcomes they are, before the one discussed last.
  const ordered = current ? [current, ...reports.filter((r) => r !== current).reverse()] : [...reports].reverse();
  for (const r of ordered) {
    const text = comparedText(question, r);
    if (text) return { answer: fromReport(r, text) };
  }
  const last = [...history].reverse().find((t) => t.role === 'assistant')?.content ?? '';
  // "Is 3% high" in a thread on the CPI (and NYC temperature) reports: the CPI's rung at 3.0.
  const leveled = levelReport(question, reports);
  if (leveled) {
    const text = levelText(leveled.report, leveled.level, question);
    if (text) return { answer: fromReport(leveled.report, text) };
  }
  // "Rank them by EV": every outcome, by EV per contract.
  if (current && RANK_EV.test(routedText(question))) {
    const text = rankedEvText(current);
    if (text) return { answer: fromReport(current, text) };
  }
  // "If the fed hikes what does the cpi market imply": each market alone, and that no joint distribution is known.
  const conditional = conditionalText(question, reports);
  if (conditional) return { answer: fromReports(conditional.parts) };
  // "List the outcomes": the outcome table; "is that good or bad" after it: each one judged on the model.
  if (current && LIST_ASKED.test(routedText(question))) return { answer: fromReport(current, listText(current)) };
  if (current && GOOD_BAD.test(routedText(question)) && /_From the stored report on /.test(last)) {
    const judged = goodBadText(last, current);
    if (judged) return { answer: fromReport(current, judged) };
  }
  // "By how much?" right after "will it happen?": how far the market and the model put it from even.
  if (current) {
    const margin = marginText(question, last, current);
    if (margin) return { answer: fromReport(current, margin) };
  }
  // "Why?" right after "worst case?": that worst case explained.
  if (current && WHY_BARE.test(routedText(question))) {
    const why = whyWorstText(last, current);
    if (why) return { answer: fromReport(current, why) };
  }
  // "And hold?" in a thread on the Fed and CPI reports: the question before, of the report with a Hold.
  const again = ellipsisAsked(history, question, reports, current);
  const url = again ? tickerAddress(again.report.eventTicker) : null;
  if (again && url) return { url, question: again.question };
  return null;
}
