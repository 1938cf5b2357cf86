import { labelRange } from '../markets-search/asked.js';
import type { Answer } from '../types.js';
import type { ReportRead } from './event-questions.js';
import { footOf } from './report-facts.js';
import { cents, cited, dollars, isLadder, money, outcomeOf, readReport } from './report-rows.js';

// Trades a report's quotes make sure to pay more than they cost (a crossed ladder's pair, NO or YES
// on every exclusive outcome), with their legs, their sizes at the best prices and what they lock in,
// for "how do I lock that in, step by step?", "profit per set and how many sets?" and "is that worth
// it vs the CPI crossed prices?".

export interface Leg {
  side: 'YES' | 'NO';
  name: string;
  refs: string;
  /** What the leg costs a contract: the ask for YES, 1 minus the YES bid for NO. */
  price: number;
  /** The YES bid a NO leg is bought against. */
  bid: number | null;
  /** Contracts at that price; null when the report shows no sizes. */
  size: number | null;
}

export interface Lock {
  /** "pair" on a ladder, "set" across exclusive outcomes. */
  unit: 'pair' | 'set';
  legs: Leg[];
  cost: number;
  /** What the legs are sure to pay together, whatever happens. */
  pays: number;
  /** What else can happen ("$2 if the result lands between them"). */
  upside: string;
}

const sizeOf = (cell: string | undefined) => (cell && /^\d/.test(cell) ? Number(cell.replace(/,/g, '')) : null);
const round = (x: number) => Math.round(x * 100) / 100;
const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export const profitOf = (l: Lock) => round(l.pays - l.cost);
/** Sets (or pairs) the best prices are good for: the thinnest leg's size. */
export const setsOf = (l: Lock) => (l.legs.every((x) => x.size !== null) ? Math.min(...l.legs.map((x) => x.size!)) : null);
const thinnest = (l: Lock) => l.legs.reduce((a, b) => ((b.size ?? Infinity) < (a.size ?? Infinity) ? b : a));

/** Every lock-in on a sheet's quotes (a report or live quotes), the most profitable first. */
export function locksOf(sheet: ReportRead): Lock[] {
  const { rows, contracts } = readReport(sheet.text);
  const quoted = rows.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    return c ? [{ name, refs, bid: dollars(c.bid), ask: dollars(c.ask), bidSize: sizeOf(c.bidSize), askSize: sizeOf(c.askSize), range: labelRange(name) }] : [];
  });
  const locks: Lock[] = [];
  const yes = (q: (typeof quoted)[number]): Leg => ({ side: 'YES', name: q.name, refs: q.refs, price: q.ask!, bid: null, size: q.askSize });
  const no = (q: (typeof quoted)[number]): Leg => ({ side: 'NO', name: q.name, refs: q.refs, price: round(1 - q.bid!), bid: q.bid, size: q.bidSize });
  if (isLadder(rows)) {
    // YES on a rung and NO on one inside it ("Above 2.6" and "Above 2.8"): one of them always pays.
    const level = (q: (typeof quoted)[number]) => q.range?.from ?? q.range?.to ?? NaN;
    const above = quoted[0]?.range?.to === null;
    for (const wide of quoted) {
      for (const narrow of quoted) {
        const inside = above ? level(narrow) > level(wide) : level(narrow) < level(wide);
        if (!inside || wide.ask === null || narrow.bid === null) continue;
        const cost = round(wide.ask + 1 - narrow.bid);
        if (cost < 1) locks.push({ unit: 'pair', legs: [yes(wide), no(narrow)], cost, pays: 1, upside: `$2 if the result lands between ${wide.name} and ${narrow.name}` });
      }
    }
  } else if (/mutually exclusive/.test(sheet.text) && quoted.length === rows.length && quoted.length > 1) {
    const bids = quoted.map((q) => q.bid);
    const asks = quoted.map((q) => q.ask);
    if (bids.every((b): b is number => b !== null) && bids.reduce((a, b) => a + b, 0) > 1) {
      locks.push({ unit: 'set', legs: quoted.map(no), cost: round(quoted.length - bids.reduce((a, b) => a + b, 0)), pays: quoted.length - 1, upside: 'every outcome but the winner pays' });
    }
    if (asks.every((a): a is number => a !== null) && asks.reduce((a, b) => a + b, 0) < 1) {
      locks.push({ unit: 'set', legs: quoted.map(yes), cost: round(asks.reduce((a, b) => a + b, 0)), pays: 1, upside: 'the winner pays' });
    }
  }
  return locks.sort((a, b) => profitOf(b) - profitOf(a));
}

/** "YES on **Above 2.6** at $0.93 and NO on **Above 2.8** at $0.05" (with each leg's citation). */
const legsSaid = (l: Lock) => l.legs.map((x) => `${x.side} on **${x.name}** at ${cents(x.price)} ${x.refs}`).join(' and ');

/** What the best prices make of a lock: its sets, the thinnest leg, the total. */
function sizeSaid(l: Lock): string {
  const sets = setsOf(l);
  if (sets === null) return `the report does not show how many contracts are offered at those prices`;
  const thin = thinnest(l);
  return `the best prices are good for **${count(sets)} ${l.unit}s** (the thinnest leg, ${thin.side} on ${thin.name}), **$${money(round(sets * profitOf(l)))}** locked in on them for $${money(round(sets * l.cost))} paid; more fill at worse prices, which eat the edge`;
}

const titled = (sheet: ReportRead) => `**${sheet.title.replace(/[*_]/g, '')}**${sheet.eventTicker ? ` (${sheet.eventTicker})` : ''}`;
const quotesOf = (sheet: ReportRead) => (sheet.unreported ? "Kalshi's live quotes" : "the report's quotes");

/** Each lock-in's profit per set (or pair) and how many the best prices are good for. */
export function setsText(sheet: ReportRead): Answer | null {
  const locks = locksOf(sheet);
  if (!locks.length) return null;
  const lines = locks.map((l) => `- ${legsSaid(l)}: ${cents(l.cost)} a ${l.unit} for $${l.pays} sure (${l.upside}), **${Math.round(profitOf(l) * 100)}¢ profit per ${l.unit}** before fees; ${sizeSaid(l)}.`);
  return cited(`${lines.join('\n')}\n\nBefore Kalshi's fees, which every leg pays and which I do not read; the quotes move.\n${footOf(sheet)}`, sheet.citations);
}

/** How to put a lock-in on, leg by leg: prices, sizes, holding to settlement, fees and leg risk. */
export function stepsText(sheet: ReportRead): Answer | null {
  const lock = locksOf(sheet)[0];
  if (!lock) return null;
  const legs = lock.legs.map((x, i) => `${i + 1}. Buy ${x.side} on **${x.name}** at ${cents(x.price)}${x.side === 'NO' && x.bid !== null ? ` (1 minus its ${cents(x.bid)} YES bid)` : ' (the ask)'} ${x.refs}${x.size === null ? '' : `: ${count(x.size)} contracts at that price`}, as a limit order at that price.`);
  const n = lock.legs.length;
  const steps = [
    ...legs,
    `${n + 1}. Buy the same number of each leg and hold them all to settlement: a ${lock.unit} costs ${cents(lock.cost)} and pays $${lock.pays} whatever happens (${lock.upside}), **${Math.round(profitOf(lock) * 100)}¢ a ${lock.unit}** before fees. Selling a leg before then gives the lock up.`,
    `${n + 2}. Size: ${sizeSaid(lock)}.`,
  ];
  const risks = `Risks: Kalshi charges a fee on every leg, which I do not read, and it comes off the ${Math.round(profitOf(lock) * 100)}¢: check its fee schedule first. Leg risk: the quotes can move between your orders, and one leg filled without the other${n > 2 ? 's' : ''} is a bet, not a lock. These are ${quotesOf(sheet)} as of ${sheet.asOf.slice(0, 16).replace('T', ' ')} UTC${sheet.unreported ? '' : ', not live prices'}. This is arithmetic on quotes, not investment advice.`;
  return cited(`To lock in the ${lock.unit === 'pair' ? 'crossed rungs' : `${lock.legs[0]!.side} on every outcome`} on ${titled(sheet)}:\n\n${steps.join('\n')}\n\n${risks}\n${footOf(sheet)}`, sheet.citations);
}

/** Several events' lock-ins side by side: per set, sets at the best prices, total. */
export function locksSideBySide(sheets: readonly ReportRead[]): Answer {
  const rows: string[] = [];
  const without: string[] = [];
  const citations: { order: number; name: string; url: string }[] = [];
  for (const sheet of sheets) {
    const lock = locksOf(sheet)[0];
    if (!lock) {
      without.push(titled(sheet));
      continue;
    }
    const sets = setsOf(lock);
    const page = sheet.citations[0];
    if (page) citations.push({ ...page, order: citations.length + 1 });
    const cite = page ? ` [${citations.length}]` : '';
    rows.push(`| ${sheet.title.replace(/[*_|]/g, '')}${cite} | ${lock.legs.map((x) => `${x.side} ${x.name} ${cents(x.price)}`).join(' + ')} | ${cents(lock.cost)} for $${lock.pays} | ${Math.round(profitOf(lock) * 100)}¢ | ${sets === null ? 'not shown' : count(sets)} | ${sets === null ? '—' : `$${money(round(sets * profitOf(lock)))}`} |`);
  }
  if (!rows.length) return { text: `No lock-in on the quotes of ${without.join(' or ')}.\n`, citations: [] };
  const none = without.length ? `\n\nNo lock-in on the quotes of ${without.join(', ')}.` : '';
  return {
    text: `The lock-ins on each event's quotes, side by side (per ${rows.length > 1 ? 'set or pair' : 'set'}, and on the sizes at the best prices):\n\n| Event | Legs | Cost | Profit each | At the best prices | Total |\n|---|---|---|---|---|---|\n${rows.join('\n')}${none}\n\nAll before Kalshi's fees, which every leg pays (more legs, more fees) and which I do not read; each on its own quotes' time, and the quotes move.\n`,
    citations,
  };
}

/** What fees must stay under for a lock-in to pay: its profit spread over the contracts a set buys. */
export function feesText(sheet: ReportRead): Answer | null {
  const lock = locksOf(sheet)[0];
  if (!lock) return null;
  const profit = Math.round(profitOf(lock) * 100);
  const legs = lock.legs.length;
  const sets = setsOf(lock);
  const total = sets === null ? '' : ` On the ${count(sets)} ${lock.unit}s the best prices fill, that is $${money(round(sets * profitOf(lock)))} before fees, less ${legs} fees a ${lock.unit}.`;
  const text = `Kalshi's fee is not in anything I read, so I cannot say what it will take; what it has to stay under for the lock-in on ${titled(sheet)} to pay: a ${lock.unit} is ${legs} contracts (one a leg) and locks in ${profit}¢ before fees, so the fees on those ${legs} contracts must total under ${profit}¢, about ${(profit / legs).toFixed(2).replace(/\.?0+$/, '')}¢ a contract, or every ${lock.unit} loses money whatever happens.${total} Kalshi's fee schedule says what it charges.\n${footOf(sheet)}`;
  return cited(text, sheet.citations);
}
