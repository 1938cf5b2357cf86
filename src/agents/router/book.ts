import { listed } from '../citations.js';
import { labelRange, rungSide } from '../markets-search/asked.js';
import type { Answer, Citation } from '../types.js';
import type { ReportRead } from './event-questions.js';
import { dollars, isLadder, levelOfRow, money, outcomeOf, percent, readReport, type Row } from './report-rows.js';

// Positions held or supposed across outcomes and events, weighed together ("I hold 500 YES on BTC
// above 96k and 300 YES on ETH above 3400: max loss and max payout?", "100 YES on a shutdown, 200
// NO on a fed hike, 150 YES on the Chiefs: what do they cost at the asks?"): what they cost, what
// they pay in the best and worst case (outcomes of one event exclude each other), and what they
// are worth on the market's prices and on the models.

/** One position as said: how many contracts, which side, the words naming its outcome, the price paid if said. */
export interface PositionSaid {
  count: number;
  side: 'YES' | 'NO';
  words: string;
  paid: number | null;
}

const PRICE = /\s*(?:\b(?:at|@|for|from|avg|entry)\s*|@\s*)(\$\s?0?\.\d{1,2}|0?\.\d{1,2}|\d{1,2}(?:\.\d)?\s*(?:c|¢|cents?)\b)/i;
const AT_ASK = /\s*\b(?:at|on|lifting|from)\s+(?:the\s+)?(?:current\s+)?(?:ask|asks|offer|market|quotes?)\b/gi;
const COUNT = String.raw`(?<![\d.$])(\d{1,3}(?:,\d{3})+|\d+)(?![\d.,%]|\s*(?:k|c|¢|cents?|%|bucks|dollars)\b)`;
/** "500 YES on BTC above 96k", "300 yes contracts of eth above 3400". */
const COUNT_SIDE_WORDS = new RegExp(String.raw`\b${COUNT}\s+(yes|no)\b(?:\s+contracts?)?\s+(?:on|of|in|for)\s+(.+)$`, 'i');
/** "200 hike yes", "300 cpi above 3.2 yes", "150 chiefs no". */
const COUNT_WORDS_SIDE = new RegExp(String.raw`\b${COUNT}\s+(?!yes\b|no\b)(.+?)\s+(yes|no)\b(.*)$`, 'i');
/** "long 500 chiefs", "short 200 hike", "buy 300 bills", "bought 100 lakers". */
const LONG_SHORT = new RegExp(String.raw`\b(long|short|buy|buying|bought|add|adding)\s+${COUNT}\s+(?:contracts?\s+(?:of|on)\s+)?(.+)$`, 'i');

/** The words naming an outcome, without the asking around them ("what's my max loss", "at current asks"). */
function wordsOf(text: string): string {
  return text
    .replace(AT_ASK, ' ')
    .replace(PRICE, ' ')
    .replace(/\b(?:what(?:'s| is| are| would| do| does)?|how much|worst|best|max(?:imum)?|total|expected|if|my|p&l|pnl|cost|costs|payout|pay|pays|loss|case|they|them|would|will|right now|currently|current|now|please|pls)\b.*$/i, ' ')
    .replace(/\b(?:contracts?|shares?|position|positions)\b/gi, ' ')
    .replace(/[?!:;]+|\.(?!\d)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function paidOf(text: string): number | null {
  const m = PRICE.exec(text)?.[1];
  if (!m) return null;
  const v = /c|¢|cent/i.test(m) ? parseFloat(m) / 100 : parseFloat(m.replace(/[$\s]/g, ''));
  return v > 0 && v < 1 ? v : null;
}

/**
 * The positions a question states, one per clause ("…, 200 NO on a fed hike, and 150 YES on the
 * Chiefs"); empty when it states fewer than `least`.
 */
export function positionsSaid(question: string, least = 2): PositionSaid[] {
  // (Not at a thousands separator: "1,000 YES on …".)
  const clauses = question.split(/,(?!\d{3}(?!\d))|;|\band\b|\+|\.(?=\s|$)|\bplus\b|\balso\b/i);
  const said: PositionSaid[] = [];
  for (const clause of clauses) {
    const a = COUNT_SIDE_WORDS.exec(clause);
    const b = a ? null : COUNT_WORDS_SIDE.exec(clause);
    const c = a || b ? null : LONG_SHORT.exec(clause);
    const count = Number((a?.[1] ?? b?.[1] ?? c?.[2] ?? '').replace(/,/g, ''));
    if (!count) continue;
    const side = (a?.[2] ?? b?.[3] ?? (c && /^short$/i.test(c[1]!) ? 'no' : 'yes'))!.toUpperCase() as 'YES' | 'NO';
    const words = wordsOf(a?.[3] ?? (b ? b[2]! : c![3]!));
    if (!words) continue;
    said.push({ count, side, words, paid: paidOf(clause) });
  }
  return said.length >= least ? said : [];
}

/** A position stated, found on its event: the outcome, the price it was (or would be) bought at. */
export interface Position extends PositionSaid {
  ticker: string;
  sheet: ReportRead;
  row: Row;
  /** The price of its side: paid as said, else the ask (NO: 1 minus the YES bid); null when the book has none. */
  price: number | null;
  /** Whether `price` is the quotes' (not a price said). */
  atQuote: boolean;
}

/** The price of a side of `row` at the quotes of `sheet`: YES at the ask, NO at 1 minus the bid. */
export function quotedPrice(sheet: ReportRead, row: Row, side: 'YES' | 'NO'): number | null {
  const c = readReport(sheet.text).contracts.get(outcomeOf(row.outcome).refs);
  if (!c) return null;
  const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
  return side === 'YES' ? ask : bid === null ? null : Math.round((1 - bid) * 100) / 100;
}

/** Ways an event can resolve, as which of its rows pay YES in each. */
function scenarios(sheet: ReportRead): { label: string; yes: Set<string> }[] {
  const rows = readReport(sheet.text).rows;
  const name = (r: Row) => outcomeOf(r.outcome).name;
  if (rows.length === 1) return [{ label: `${name(rows[0]!)} happens`, yes: new Set([name(rows[0]!)]) }, { label: `${name(rows[0]!)} does not happen`, yes: new Set() }];
  if (!isLadder(rows)) return rows.map((r) => ({ label: `${name(r)} wins`, yes: new Set([name(r)]) }));
  // A ladder's rungs ("Above 2.6", "Above 2.8", …): where the value lands between its levels.
  const ordered = [...rows].sort((a, b) => levelOfRow(a)! - levelOfRow(b)!);
  const above = rungSide(labelRange(name(ordered[0]!))) !== 'below';
  return Array.from({ length: ordered.length + 1 }, (_, k) => {
    const yes = new Set(ordered.filter((_, i) => (above ? i < k : i >= k)).map(name));
    const label = k === 0 ? `at or below ${levelOfRow(ordered[0]!)}` : k === ordered.length ? `above ${levelOfRow(ordered.at(-1)!)}` : `between ${levelOfRow(ordered[k - 1]!)} and ${levelOfRow(ordered[k]!)}`;
    return { label, yes };
  });
}

const usd = (x: number) => `${x < 0 ? '−' : ''}$${money(Math.abs(x))}`;
const signed = (x: number) => (x > 0 ? `+${usd(x)}` : usd(x));
const positionName = (p: Position) => `${p.count.toLocaleString('en-US')} ${p.side} on ${outcomeOf(p.row.outcome).name}`;

/** What a position pays in a resolution of its event where `yes` pay YES. */
const payoutIn = (p: Position, yes: Set<string>) => (yes.has(outcomeOf(p.row.outcome).name) === (p.side === 'YES') ? p.count : 0);

/** A side's chance on the market (the mid) or the model (NaN without one), as a fraction. */
function chanceOf(p: Position, of: 'market' | 'model'): number {
  const yes = (of === 'market' ? p.row.marketValue : p.row.modelValue) / 100;
  return p.side === 'YES' ? yes : 1 - yes;
}

/** A book answer's positions, read back from its table ("| 100 YES on Shutdown [1] | KXSHUTDOWN-26DEC31 | $0.60 (ask) | …"). */
export function positionsListed(answer: string): { count: number; side: 'YES' | 'NO'; name: string; ticker: string; paid: number | null }[] {
  if (!answer.includes(BOOK_HEADER)) return [];
  return [...answer.matchAll(/^\| ([\d,]+) (YES|NO) on (.+?)(?: (?:\[\d+\])+)? \| ([A-Z][A-Z0-9]*-[A-Z0-9.-]+) \| (?:\$(\d\.\d\d) \((ask|1 − bid|yours)\)|no quote) \|/gm)].map((m) => ({
    count: Number(m[1]!.replace(/,/g, '')),
    side: m[2] as 'YES' | 'NO',
    name: m[3]!,
    ticker: m[4]!,
    paid: m[6] === 'yours' ? Number(m[5]) : null,
  }));
}

/** A tie or draw supposed ("and if it ends in a tie?"): what the events' rules do with it. */
const TIE_ASKED = /\b(?:ties?|tied|draws?|drawn)\b/i;

/** Asked of positions a book answer listed ("worst case across all three?", "and if only the chiefs hit?", "and if it ends in a tie?"). */
export const OF_THE_BOOK = /\b(?:ties?|tied|draws?)\b|\b(?:worst|best) case\b|\bmax(?:imum)? (?:loss|payout|payoff|profit|gain)\b|\b(?:portfolio|book|positions)\b|\b(?:all|both|the) (?:three|two|four|of them)\b|\bif (?:only |just )?[a-z0-9 .$'-]{1,40}\b(?:win|wins|hit|hits|happen|happens|lose|loses)\b|\b(?:expected|ev)\b[^?]*\b(?:p&l|pnl|that|it|those|them|total)\b|\bleast happy\b|\blikes? least\b|\btotal (?:cost|payout)\b|\b(?:cut|drop|close|sell|exit|dump) (?:one|which)\b/i;

const BOOK_HEADER = '| Position | Event | Price | Cost | Pays if right | Market | Model | EV (market) | EV (model) |';

/** What is asked of the positions first. */
type Asked = 'cost' | 'worst' | 'best' | 'value' | 'least' | 'scenario' | 'tie';

function askedOf(question: string): Asked {
  const q = question.toLowerCase();
  if (TIE_ASKED.test(q)) return 'tie';
  if (/\bif (?:only |just )?[a-z0-9 .$'-]{1,40}\b(?:win|wins|hit|hits|happen|happens|lose|loses|come in|cash|cashes)\b|\bif (?:both|all (?:three|of them)) (?:hit|win|cash)\b/.test(q)) return 'scenario';
  if (/\b(?:least happy|likes? least|worst (?:position|trade|bet|one)|weakest|which (?:one|of (?:the|them|those))[^?]*\b(?:worst|least|weakest|drop|cut|sell)|(?:cut|drop|close|sell|exit|dump) (?:one|which))\b/.test(q)) return 'least';
  if (/\b(?:expected|ev\b|e\.v\.|worth|mark(?:ed)?|fair value)\b/.test(q)) return 'value';
  if (/\b(?:worst|max(?:imum)? loss|most (?:i|we) (?:can|could) lose|downside|lose everything)\b/.test(q)) return 'worst';
  if (/\b(?:best case|max(?:imum)? (?:payout|payoff|profit|gain)|most (?:i|we) (?:can|could) (?:make|win)|upside|all (?:hit|win))\b/.test(q)) return 'best';
  return 'cost';
}

/**
 * The positions weighed together. `question`: what is asked of them (the cost, the worst or best
 * case, the expected P&L, the one the models like least, a resolution supposed: "if bills win?").
 */
export function bookAnswer(question: string, positions: Position[], unfound: string[] = []): Answer {
  const citations: Citation[] = [];
  const cite = (sheet: ReportRead, row: Row) =>
    [...new Set((outcomeOf(row.outcome).refs.match(/\d+/g) ?? []).map(Number))]
      .flatMap((n) => {
        const c = sheet.citations.find((x) => x.order === n);
        if (!c) return [];
        const at = citations.findIndex((x) => x.url === c.url);
        if (at !== -1) return [`[${citations[at]!.order}]`];
        citations.push({ ...c, order: citations.length + 1 });
        return [`[${citations.length}]`];
      })
      .join('');
  const priced = positions.filter((p) => p.price !== null);
  const cost = priced.reduce((s, p) => s + p.count * p.price!, 0);
  const modelled = positions.every((p) => Number.isFinite(chanceOf(p, 'model')));
  const evOf = (p: Position, of: 'market' | 'model') => (p.price === null ? NaN : p.count * (chanceOf(p, of) - p.price));
  const rows = positions.map((p) => {
    const paid = p.price === null ? 'no quote' : `$${p.price.toFixed(2)}${p.atQuote ? (p.side === 'YES' ? ' (ask)' : ' (1 − bid)') : ' (yours)'}`;
    const model = Number.isFinite(chanceOf(p, 'model')) ? percent(chanceOf(p, 'model') * 100) : '—';
    const modelEv = Number.isFinite(evOf(p, 'model')) ? signed(evOf(p, 'model')) : '—';
    return `| ${positionName(p)} ${cite(p.sheet, p.row)} | ${p.ticker} | ${paid} | ${p.price === null ? '—' : usd(p.count * p.price)} | ${usd(p.count)} | ${percent(chanceOf(p, 'market') * 100)} | ${model} | ${Number.isFinite(evOf(p, 'market')) ? signed(evOf(p, 'market')) : '—'} | ${modelEv} |`;
  });
  // Each event's resolutions: its positions' P&L in each (they exclude each other within an event).
  const byEvent = new Map<string, Position[]>();
  for (const p of priced) byEvent.set(p.ticker, [...(byEvent.get(p.ticker) ?? []), p]);
  const events = [...byEvent.entries()].map(([ticker, ps]) => {
    const outcomes = scenarios(ps[0]!.sheet).map((s) => ({ label: s.label, pnl: ps.reduce((sum, p) => sum + payoutIn(p, s.yes) - p.count * p.price!, 0), yes: s.yes }));
    return { ticker, title: ps[0]!.sheet.title, ps, outcomes, worst: Math.min(...outcomes.map((o) => o.pnl)), best: Math.max(...outcomes.map((o) => o.pnl)) };
  });
  const worst = events.reduce((s, e) => s + e.worst, 0);
  const best = events.reduce((s, e) => s + e.best, 0);
  const evMarket = priced.reduce((s, p) => s + evOf(p, 'market'), 0);
  const evModel = modelled ? priced.reduce((s, p) => s + evOf(p, 'model'), 0) : NaN;
  const shared = events.filter((e) => e.ps.length > 1);
  const perEvent = shared.map((e) => `- **${e.title.replace(/[*_]/g, '')}** (${e.ticker}), its positions together: ${e.outcomes.map((o) => `${o.label} ${signed(o.pnl)}`).join('; ')}.`);
  const least = modelled ? [...priced].sort((a, b) => evOf(a, 'model') - evOf(b, 'model'))[0] : [...priced].sort((a, b) => evOf(a, 'market') - evOf(b, 'market'))[0];
  // Of a book only partly modelled, the model's least favoured among the positions it covers.
  const covered = priced.filter((p) => Number.isFinite(chanceOf(p, 'model')));
  const leastModelled = !modelled && covered.length ? [...covered].sort((a, b) => evOf(a, 'model') - evOf(b, 'model'))[0]! : null;
  const uncovered = [...new Set(priced.filter((p) => !covered.includes(p)).map((p) => p.ticker))];
  const onModelToo = leastModelled && leastModelled !== least ? ` On the model, which covers only the events with a stored report, the least favoured is **${positionName(leastModelled)}** (${signed(evOf(leastModelled, 'model'))}); ${listed(uncovered)} ${uncovered.length === 1 ? 'has' : 'have'} none.` : '';
  const asked = askedOf(question);
  const scenario = asked === 'scenario' ? scenarioText(question, events) : asked === 'tie' ? tieText(events) : null;
  const n = positions.length;
  const lead =
    (scenario && /\b(?:cost|costs|total cost)\b/i.test(question) ? `They cost **${usd(cost)}**. ${scenario}` : scenario) ??
    (asked === 'worst'
      ? `The worst case is **${signed(worst)}**: ${shared.length ? 'the worst resolution of each event' : 'every position loses'}, the ${usd(cost)} they cost${shared.length ? ' less what the others in its event pay' : ''} gone.`
      : asked === 'best'
        ? `The best case is **${signed(best)}**: ${usd(best + cost)} paid on the ${usd(cost)} they cost${shared.length ? ', in the best resolution of each event' : ', every position right'}.`
        : asked === 'value'
          ? `Expected P&L: **${signed(evMarket)}** on the market's prices (the mids)${modelled ? `, **${signed(evModel)}** on the models` : ''}, before fees.`
          : asked === 'least' && leastModelled && /\bmodel\b/i.test(question)
            ? `Of the positions the model covers (their events have a stored report), it likes least **${positionName(leastModelled)}** (${leastModelled.ticker}): expected ${signed(evOf(leastModelled, 'model'))} on its model at the price paid; ${listed(uncovered)} ${uncovered.length === 1 ? 'has' : 'have'} no report, so the model cannot rank ${uncovered.length === 1 ? 'it' : 'them'}.`
          : asked === 'least' && least
            ? `The ${modelled ? 'models like' : 'market prices favour'} least **${positionName(least)}** (${least.ticker}): expected ${signed(evOf(least, modelled ? 'model' : 'market'))} on ${modelled ? 'its model' : 'the mid'} at the price paid.${onModelToo}`
            : `Your ${n} positions cost **${usd(cost)}**${priced.length < n ? ' (those with a quote)' : ''}; they pay ${usd(best + cost)} at best (**${signed(best)}**) and lose **${usd(-worst)}** at worst.`);
  const unmodelled = !modelled ? ` (the model column needs a report for every event: ${[...new Set(positions.filter((p) => !Number.isFinite(chanceOf(p, 'model'))).map((p) => p.ticker))].join(', ')} has none)` : '';
  const summary = [
    `- **Cost**: ${usd(cost)}${priced.some((p) => p.atQuote) ? ', YES at the ask, NO at 1 minus the YES bid, where no price was said' : ''}.`,
    `- **Best case** ${signed(best)}; **worst case** ${signed(worst)}${shared.length ? ' (outcomes of one event exclude each other)' : ''}.`,
    `- **Expected P&L** ${signed(evMarket)} on the market's prices${modelled ? `, ${signed(evModel)} on the models` : unmodelled}.`,
    ...(least && priced.length > 1 ? [`- **Least favoured**: ${positionName(least)} (${signed(evOf(least, modelled ? 'model' : 'market'))} on ${modelled ? 'the model' : 'the mid'}).`] : []),
  ];
  const left = unfound.length ? `\n\nNot counted, as I could not tell which open outcome ${unfound.length === 1 ? 'it names' : 'they name'}: ${unfound.map((u) => `“${u}”`).join(', ')}.` : '';
  const header = `${BOOK_HEADER}\n|---|---|---|---|---|---|---|---|---|`;
  const text = `${lead}\n\n${header}\n${rows.join('\n')}\n\n${summary.join('\n')}${perEvent.length ? `\n${perEvent.join('\n')}` : ''}${left}\n\nEvents apart are counted as resolving any way together, so the best and worst cases add up; fees are not counted. This is arithmetic on the quotes, not investment advice.\n`;
  return { text, citations };
}

/** The rule a sheet quotes on a tie ("A tie resolves both markets to No."), or null when it quotes none. */
function tieRule(sheet: ReportRead): string | null {
  const quoted = [...sheet.text.matchAll(/“([^”]+)”/g)].map((m) => m[1]!);
  const sentences = quoted.flatMap((q) => q.split(/(?<=\.)\s+/));
  return sentences.find((x) => TIE_ASKED.test(x)) ?? null;
}

/**
 * "And if it ends in a tie?" of a book: each event's positions under its rules on a tie, as the
 * report quotes them (every market resolving No: YES pays nothing, NO pays in full); an event
 * whose quoted rules say nothing of a tie is said so, its positions left to its own result.
 */
function tieText(events: { ticker: string; title: string; ps: Position[]; worst: number; best: number }[]): string {
  let [low, high] = [0, 0];
  const parts = events.map((e) => {
    const rule = tieRule(e.ps[0]!.sheet);
    const title = `**${e.title.replace(/[*_]/g, '')}** (${e.ticker})`;
    if (rule && /\b(?:both|all|every|each)\b[^.]*\bto no\b|\bresolves? (?:to )?no\b/i.test(rule)) {
      const pnl = e.ps.reduce((sum, p) => sum + (p.side === 'NO' ? p.count : 0) - p.count * p.price!, 0);
      [low, high] = [low + pnl, high + pnl];
      return `- ${title}: its rules say “${rule}” So ${e.ps.map((p) => `${positionName(p)} ${p.side === 'NO' ? `pays $${money(p.count)}` : 'pays nothing'}`).join(', ')}: **${signed(pnl)}** on what ${e.ps.length === 1 ? 'it' : 'they'} cost.`;
    }
    [low, high] = [low + e.worst, high + e.best];
    if (rule) return `- ${title}: its rules say “${rule}”; what that pays each position is not spelt out, so it is not counted (${signed(e.worst)} to ${signed(e.best)} as it resolves).`;
    return `- ${title}: the rules its report quotes say nothing of a tie, which is none of its outcomes; ${e.ps.map(positionName).join(', ')} ${e.ps.length === 1 ? 'resolves' : 'resolve'} on ${e.ps.length === 1 ? 'its' : 'their'} own result, ${signed(e.worst)} to ${signed(e.best)}.`;
  });
  const total = low === high ? `**${signed(low)}**` : `between **${signed(low)}** and **${signed(high)}**, as the other events resolve`;
  return `On a tie, your positions come to ${total}:\n\n${parts.join('\n')}`;
}

/** "If bills win?", "and if only the chiefs hit?", "if both hit": the P&L in each resolution asked, the other events at their range. */
function scenarioText(question: string, events: { ticker: string; title: string; ps: Position[]; outcomes: { label: string; pnl: number; yes: Set<string> }[]; worst: number; best: number }[]): string | null {
  const asked = [...question.matchAll(/\bif (only |just )?(?:the )?([a-z0-9 .$'-]{1,40}?)\s+(win|wins|hit|hits|happen|happens|come in|comes in|cash|cashes|lose|loses)\b/gi)];
  const said = asked.map((m) => {
    const [only, what, lose] = [Boolean(m[1]), m[2]!.toLowerCase(), /^los/i.test(m[3]!)];
    const all = /^(?:both|all(?: three| of them)?|they|them)$/.test(what.trim());
    let [low, high, fixed] = [0, 0, 0];
    const parts: string[] = [];
    for (const e of events) {
      // The positions of this event the words name, by their own words or their outcome's.
      const named = all ? e.ps : e.ps.filter((p) => what.includes(p.words.toLowerCase()) || (outcomeOf(p.row.outcome).name.toLowerCase().match(/[a-z]{4,}|\d+(?:\.\d+)?/g) ?? []).some((w) => new RegExp(`\\b${w.replace('.', '\\.')}\\b`).test(what)));
      const fits = (o: { yes: Set<string> }) => named.every((p) => o.yes.has(outcomeOf(p.row.outcome).name) !== (lose || (all && p.side === 'NO')));
      const hits = named.length ? e.outcomes.filter(fits) : [];
      if (hits.length) {
        fixed++;
        const [lo, hi] = [Math.min(...hits.map((o) => o.pnl)), Math.max(...hits.map((o) => o.pnl))];
        low += lo;
        high += hi;
        parts.push(`${e.title.replace(/[*_]/g, '')}: ${hits.length === 1 ? `${hits[0]!.label} ${signed(lo)}` : `${signed(lo)} to ${signed(hi)}`}`);
      } else if (only) {
        // The others lose: their positions' worst resolution.
        low += e.worst;
        high += e.worst;
        parts.push(`${e.title.replace(/[*_]/g, '')}: ${e.ps.map(positionName).join(', ')} ${signed(e.worst)}`);
      } else {
        low += e.worst;
        high += e.best;
      }
    }
    if (!fixed) return null;
    const total = low === high ? `**${signed(low)}**` : `between **${signed(low)}** and **${signed(high)}**, as the other events resolve`;
    return `If ${only ? 'only ' : ''}${what.trim()} ${m[3]!.toLowerCase()}, your positions come to ${total} (${parts.join('; ')}).`;
  });
  const found = said.filter(Boolean);
  return found.length ? found.join(' ') : null;
}
