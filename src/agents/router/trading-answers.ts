import { labelRange } from '../markets-search/asked.js';
import { bestRow, cents, count, dollars, money, gapOf, isLadder, labelLevels, outcomeOf, percent, refsOf, rowLine, rungSide, type Contract, type Row } from './report-rows.js';

// Answers drawn from a report's quotes and trading: order books and expected value, the
// overround, the most traded contract, arbitrage, and the outcome most mispriced at its price.

/** Not a bound of an outcome's range ("0 to 75k", "75k-150k", "150k–225k", "under 0", "225k+", "2k or more"), which names an outcome. */
const NOT_FROM_RANGE = String.raw`(?<!(?:\bto|\bthrough|\bthru|\bunder|\bover|\bbelow|\babove|\bbetween|\bfrom|\bless than|\bmore than|\bat least|\bat most|[-–—])\s*)`;
const NOT_TO_RANGE = String.raw`(?!\s*(?:[+%]|[-–—]\s*\d|(?:to|through|thru)\s+\d|or (?:above|more|higher|below|less|lower|fewer|over|under)\b))`;
const AMOUNT = String.raw`(\d[\d,]*(?:\.\d{1,2})?)`;

/**
 * An amount of money said ("$100", "50 dollars", "1000 bucks", "kelly on hike with 500"), which is a
 * stake or a bankroll, never a level; a number bounding an outcome's range ("quarter kelly on 0 to
 * 75k with 500": "75k") is none.
 */

/** Prices asked in cents ("bid in cents", "how many cents"). */
const CENTS_WANTED = /\b(?:in|as)\s+(?:cents?|¢)(?!\w)|\bhow many cents\b/i;
/** "$0.56" as "56¢", "$0.0450" as "4.5¢"; a cell that is no dollar price ("—", "one-sided") as it is. */
const inCents = (cell: string): string => {
  const m = /^\$(\d+(?:\.\d+)?)$/.exec(cell);
  return m ? `${Number((Number(m[1]) * 100).toFixed(2))}¢` : cell;
};

export const MONEY_SAID = new RegExp(
  [
    String.raw`\$\s?${AMOUNT}(k)?\b`,
    String.raw`\b${AMOUNT}(k)?(?:\s*(?:dollars|usd|bucks)\b|(?=\s+(?:bankroll|roll|br|stack|to play with|to bet|to spend|to risk|budget)\b))`,
    String.raw`\bbankroll(?:\s+of|\s+is)?\s+${AMOUNT}(k)?\b`,
    String.raw`\b(?:throw|put|bet|stake|wager|risk|drop|take|place|lay)\s+${AMOUNT}(k)?(?=\s+(?:on|in|into)\b)`,
    String.raw`\b(?:with|w\/?|got|have|had)\s+(?:a\s+)?${AMOUNT}(k)\b${NOT_TO_RANGE}`,
    String.raw`\bkelly\s+(?:on|with|of|for)\s+((?:\d{2}|\d(?=k))[\d,]*(?:\.\d{1,2})?)(k)?\b(?!\s*(?:[+%]|yes\b|no\b|or (?:above|more|higher|below|less|lower)\b|to\b|[-–—]))`,
    String.raw`(?<=\bkelly\b[^?$]{0,40}[\s,;(])${NOT_FROM_RANGE}(\d+(?:\.\d{1,2})?)(k)\b${NOT_TO_RANGE}`,
    String.raw`\bhow much of (?:a |my |the |an? )?(\d+(?:\.\d{1,2})?)(k)\b`,
    // ("Quarter kelly on 0 to 75k with 500": a sizing's "with" and a plain number, not a count, a chance or a bound.)
    String.raw`(?<=\bkelly\b[^?$]{0,60}?)\b(?:with|w\/)\s+(?:a\s+)?${AMOUNT}(k)?\b(?![.,]?\d|\s*(?:%|c\b|¢|cents?\b|contracts?\b|shares?\b|yes\b|no\b|pts?\b|bps\b|°))${NOT_TO_RANGE}`,
    // ("Size it for 500": a sizing's bankroll, not a count or a level.)
    String.raw`(?<=^\W*(?:(?:ok|so|and|now|then)\W+)?siz(?:e|ing) (?:it|this|that|them|the trade|the bet)(?: up)?\s+)(?:for|with|on)\s+${AMOUNT}(k)?\b(?![.,]?\d|\s*(?:%|c\b|¢|cents?\b|contracts?\b|shares?\b|yes\b|no\b))`,
  ].join('|'),
  'i',
);

/** The capture groups of MONEY_SAID holding an amount, each followed by its "k". */
export const MONEY_GROUPS = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** NO bought or asked about ("buying 300 NO", "the no side", "200 no contracts", "is NO there a buy?"). */
export const NO_BOUGHT = /\bfad(?:e|ing)\b|\bno\s+on\s+(?!second\b)(?=\S)|\b\d[\d,]*\s+(?:[a-z]+\s+){1,3}?no\s+(?:cost|costs|contracts?|shares?|pay|pays)\b|\bshort\s+(?:\d[\d,]*\s+)?\w|\b(?:buy(?:ing)?|want|get|grab|take|the|on|for|of)\s+(?:\d[\d,]*\s+)?no\b|\bno\s+(?:side|contracts?|shares?)\b|\b\d[\d,]*\s+no\b(?!\s+(?:more|less|longer|later))|\bno\s+(?:there\s+)?(?:a\s+)?(?:buy|good buy|bargain|worth (?:it|buying)|value|the (?:better|right) (?:side|play|bet))\b/i;

/** A YES price supposed ("if it drops to 80c", "say hike dips to 40c", "at 35 cents"), in dollars. */
export const SUPPOSED_PRICE = /\b(?:dips?|dipped|drops?|dropped|falls?|fell|goes|went|gets|moves?|moved|trades?|comes?|came|is|was|were|climbs?|rises?|rose|jumps?|jumped)\s+(?:(?:down|up|back)\s+)?to\s+(\d{1,2})\s*(?:c\b|¢|cents?\b)|\b(?:at|for)\s+(\d{1,2})\s*(?:c\b|¢|cents\b)/i;
function supposedPrice(question: string): number | null {
  const m = SUPPOSED_PRICE.exec(question);
  const cents = m ? Number(m[1] ?? m[2]) : 0;
  if (!(cents > 0)) return null;
  // "EV of 100 NO on 10.0 at 77c": the price of the NO bought, so YES at 1 minus it ("if it goes to 20c" is YES's).
  return m![2] !== undefined && NO_BOUGHT.test(question) ? (100 - cents) / 100 : cents / 100;
}

/** A price said in dollars or with a cent sign ("to 0.35", "at $.6", "45¢"), written in cents ("to 35c"), as the rules read prices. */
export const pricesInCents = (text: string) =>
  text
    .replace(/(\d{1,2})\s*¢/g, '$1c')
    .replace(/\b(to|at|for|from|@)\s*\$?(0?\.\d{1,2})(?![\d%]|\s*(?:k|x|bps?|million|billion|degrees?|°)\b)/gi, (_, word: string, x: string) => `${word} ${Math.round(Number(x) * 100)}c`);

/** How many contracts a price is good for ("how much can i buy at that price?", "how deep is the book?", "how many are offered at the ask?", "whats the max i can buy at the ask"). */
export const DEPTH_ASKED =
  /\bhow (?:much|many)\b[^?]{0,40}\b(?:can|could) (?:i|you|we)\s+(?:buy|get|sell|fill|lift|grab)\b|\bhow (?:much|many)\b[^?]{0,30}\b(?:offered|on offer|bid|for sale|available|up for grabs|there)\b|\b(?:depth|how deep|thin|size (?:on|at) the (?:bid|ask|offer)|(?<!\bany )sizes?\s+(?:on|at)\b|get filled|filled at|fill at|before the price moves|liquidity at|how(?:'s|s| is| does)? (?:the )?(?:order )?book(?: look)?(?: on| for)?|(?:order )?book depth|liquid enough|enough liquidity|(?:liquid|liquidity)\b[^?]{0,40}\b\d[\d,.]*\s*k?\s+(?:contracts?|shares?|lots?)|quoted sizes?|(?:max(?:imum)?|biggest|largest) (?:position|size|fill|order)s?(?: (?:at|on|for) the (?:quotes?|quoted|best|bid|ask|offer)\w*)?|(?:the )?(?:max(?:imum)?|most) (?:i|we|you) (?:can|could) (?:buy|get|sell|fill)\b[^?]{0,20}\bat the (?:ask|bid|offer|best))\b/i;

/** "728.5" of a size cell; null for "—" or a report that did not show sizes. */
const sizeOf = (cell: string | undefined) => (cell && /^\d/.test(cell) ? Number(cell.replace(/,/g, '')) : null);

/** What the best bid and ask are good for, in contracts and dollars, of the side asked. */
function depthText(c: Contract, no: boolean, wanted: number | null = null): string {
  const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
  const [bidSize, askSize] = [sizeOf(c.bidSize), sizeOf(c.askSize)];
  if (c.bidSize === undefined) return '. The report shows the best prices but not how many contracts they are good for; the order book behind them is on the exchange';
  const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  // YES is bought from the YES asks; NO from the YES bids (a NO at 1 minus the bid is the other side of that order).
  const yes = ask === null || askSize === null ? 'no YES is offered' : `${count(askSize)} YES contracts are offered at the ask, $${ask.toFixed(2)} ($${money(askSize * ask)} in all)`;
  const noSide = bid === null || bidSize === null ? 'no NO is offered (no YES bid)' : `${count(bidSize)} NO contracts at $${(1 - bid).toFixed(2)}, the other side of the ${count(bidSize)} YES bid at $${bid.toFixed(2)} ($${money(bidSize * (1 - bid))} in all)`;
  // ("Is it liquid enough to trade 5k contracts?": that many against what the best price is good for.)
  const best = no ? bidSize : askSize;
  const against = wanted !== null && best !== null ? `. ${count(wanted)} ${wanted > best ? `is more than the ${count(best)} ${no ? 'NO' : 'YES'} the best price is good for: the rest would fill deeper in the book, at worse prices` : `fits within the ${count(best)} ${no ? 'NO' : 'YES'} offered at the best price`}` : '';
  return `. ${no ? `${capitalise(noSide)}; ${yes}` : `${capitalise(yes)}; ${noSide}`}: beyond that, orders fill at worse prices further into the book, which the contract snapshot does not list${against}`;
}

const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** "5k contracts", "2.5k shares": a count said in thousands; null when none. */
function thousandsOfContracts(question: string): number | null {
  const m = /(?<![\d.])(\d+(?:\.\d+)?)\s*k\s+(?:contracts?|shares?|lots?)\b/i.exec(question);
  return m ? Math.round(Number(m[1]) * 1000) : null;
}

/** The note that a number of contracts is more than the best price is good for; '' otherwise. */
function beyondBest(c: Contract, side: 'YES' | 'NO', wanted: number, price: number): string {
  const size = sizeOf(side === 'YES' ? c.askSize : c.bidSize);
  return size !== null && wanted > size ? `only ${size.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${side} are offered at $${price.toFixed(2)}, the rest filling at worse prices` : '';
}

/** What introduces a chance the asker supplies ("i think", "my fair is", "at that", "kelly at"). */
const CHANCE_LEAD = String.raw`\b(?:i (?:think|reckon|believe|figure|estimate|put|give|say|got|have|see|make|price|rate|peg|value)|i'd (?:say|put|give)|my (?:estimate|view|number|odds|probability|model|guess|fair(?: value| price| odds| probability| prob)?|true odds|read)(?: is| says| of| at)?|(?:at|with|using|on) (?:that|my|a|an)|(?:true|real|fair) (?:odds|chance|probability|value|price)(?: is| are| of)?|kelly(?:\s+(?:on|for)\s+[a-z0-9'+.-]+)?\s+at)(?:\s+(?!above\b|below\b|over\b|under\b|between\b|or\b|to\b)[a-z0-9']+){0,4}?\s+`;

/** A chance the asker supplies ("if i think hike is 60%", "my estimate is 70%", "at that 60%", "kelly at 80%"): weighed instead of the model's. */
export const CHANCE_SAID = new RegExp(`${CHANCE_LEAD}(\\d{1,2}(?:\\.\\d+)?)\\s*%(?!\\s*(?:to|-|–|or (?:above|below|more|less|higher|lower))\\b)`, 'i');

/** The same chance said as a fraction ("what if i think 0.4", "my fair is .9"). */
const CHANCE_AS_FRACTION = new RegExp(`(${CHANCE_LEAD})(0?\\.\\d{1,3})(?![\\d%c¢]|\\s*(?:c|¢|cents?|k|x|bps?)\\b)`, 'gi');

/** A chance said as a fraction, written as a percentage ("i think 0.4" is "i think 40%"), so the rules read it as one. */
export const chancesInPercent = (text: string) => text.replace(CHANCE_AS_FRACTION, (_, lead: string, x: string) => `${lead}${Number((Number(x) * 100).toFixed(1))}%`);

function chanceSaid(question: string): number | null {
  const m = CHANCE_SAID.exec(question);
  return m ? Number(m[1]) : null;
}

/** A stake or bankroll said: "$500", "$5k", "5k bankroll", "2k to play with", "with 3k", "bankroll of 1000", "throw 250 on them". */
function stakeOf(question: string): number | null {
  const said = MONEY_SAID.exec(question);
  const at = said ? MONEY_GROUPS.find((i) => said[i] !== undefined) : undefined;
  return said && at ? Number(said[at]!.replace(/,/g, '')) * (said[at + 1] ? 1000 : 1) : null;
}

/** A position said to be held already ("i bought 100 hold yes at 12c", "i'm long 500 bills from 40c", "my entry was 0.35"). */
export const POSITION_HELD =
  /\b(?:i|we)\s+(?:already\s+)?(?:bought|got|own|hold|have|picked\s+up|grabbed|took|entered|scooped(?:\s+up)?|loaded\s+up\s+on|went\s+(?:long|short)|paid)\b(?=[^?.!]*?(?:\d|\b(?:yes|no)\b))|\b(?:i|we)(?:'m|m|\s+am|'re|\s+are)\s+(?:already\s+)?(?:in|long|short|holding|sitting\s+on)\s+(?:\d|(?:the\s+)?(?:yes|no)\b)|\bmy\s+(?:position|entry|fill|avg|average|cost\s+basis)\b|\b(?:got|was|were|been)\s+filled\s+at\b|^\W*(?:i(?:'m|m| am)\s+)?(?:long|short)\s+\d[\d,]*\b(?=[^?]*?(?:\b(?:from|at|avg|entry)\s+|@\s*)(?:\$\s?0?\.\d|\d{1,2}(?:\.\d)?\s*(?:c|¢|cents?)\b|0?\.\d))|\bbought\s+(?:\d[\d,]*\s+)?(?:\w+\s+){0,3}(?:yes|no)?\s*(?:at|for|@)\s*(?:\$\s?0?\.\d|\d{1,2}(?:\.\d)?\s*(?:c|¢|cents?)\b|0?\.\d)/i;

/** The price paid for a position ("at 12c", "from 40 cents", "@ $0.35", "avg 0.4"), in dollars. */
const PAID = /(?:\b(?:at|for|from|paid|avg(?:\s+(?:price|cost))?(?:\s+of)?|average(?:\s+(?:price|cost))?(?:\s+of)?|entry(?:\s+(?:was|of|at|is))?|basis(?:\s+(?:was|of|is))?)\s+|@\s*)(?:\$\s?(0?\.\d{1,2})\b|(\d{1,2}(?:\.\d)?)\s*(?:c|¢|cents?)\b|(0?\.\d{1,2})\b)/i;

/** What a position's holder asks of it: its worth now, or its profit. */
const MARKED = /\b(?:where am i|where i'?m at|am i (?:up|down|green|red|in the (?:money|green|red))|how(?:'s| is| am)\s+(?:my|i|it)\b|p&l|pnl|p\/l|profit|loss|worth|mark(?:ed)?(?:\s+to\s+market)?|unreali[sz]ed|(?:should|do) i (?:sell|close|hold|exit|cash out|take (?:profits?|it))|cash out|take profits?|exit|close (?:it|out|the position)|sell (?:now|it|them|here))\b/i;

export interface Position {
  side: 'YES' | 'NO';
  /** Contracts held; null when not said (then per contract). */
  count: number | null;
  /** The price paid per contract of the side held, in dollars; null when not said. */
  paid: number | null;
  /** Sold YES short at this price ("short hold at 16c"), bought as NO at 1 minus it. */
  shortAt: number | null;
  /** A YES price supposed to mark it at ("where am I if it goes to 20c?"), in dollars. */
  markAt: number | null;
}

/** A position held, when the question says one and asks about it (or says what it paid). */
export function heldPosition(question: string, levels: Set<number> = new Set()): Position | null {
  if (!POSITION_HELD.test(question)) return null;
  const m = PAID.exec(question);
  const price = m ? (m[1] ?? m[3] ? Number(m[1] ?? m[3]) : Number(m[2]) / 100) : null;
  // ("If im long 500 bills and they lose, P&L?" is a trade supposed, to be made at the ask.)
  if (price === null && (!MARKED.test(question) || /\b(?:if|say|suppose|when)\s+(?:i|we)(?:'m|m|\s+am|'re|\s+are)?\s/i.test(question))) return null;
  if (price !== null && (price <= 0 || price >= 1)) return null;
  const short = /\b(?:short|went short)\b/i.test(question) && !/\bno\b/i.test(question);
  const side = short || NO_BOUGHT.test(question) || /\b(?:on|in|of)\s+(?:the\s+)?no\b/i.test(question) ? 'NO' : 'YES';
  const rest = m ? question.slice(0, m.index) + ' ' + question.slice(m.index + m[0].length) : question;
  const mark = SUPPOSED_PRICE.exec(rest);
  const markAt = mark ? Number(mark[1] ?? mark[2]) / 100 : null;
  const count = [...rest.matchAll(/(?<![\d.$])(\d[\d,]*)(?![\d.]|\s*(?:%|c\b|¢|cents?|k\b|bps?|bp\b|degrees?|°|days?|hours?|weeks?|months?|years?|am\b|pm\b))/gi)]
    .map((c) => Number(c[1]!.replace(/,/g, '')))
    .find((n) => n > 0 && !levels.has(n));
  return { side, count: count ?? null, paid: price === null ? null : short ? Math.round((1 - price) * 100) / 100 : price, shortAt: short ? price : null, markAt: markAt && markAt < 1 ? markAt : null };
}

/** A held position marked at the book: what selling now fetches, its profit, what it pays at the end, and the model's value of holding. */
function positionText(pos: Position, r: Row, c: Contract, believed: number | null, lossAsked = false): string {
  const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
  // A YES holder sells into the YES bid; a NO holder into the NO bid, 1 minus the YES ask.
  const exit = pos.side === 'YES' ? bid : ask === null ? null : Math.round((1 - ask) * 100) / 100;
  const mid = Number.isFinite(r.marketValue) ? (pos.side === 'YES' ? r.marketValue : 100 - r.marketValue) / 100 : null;
  const n = pos.count ?? 1;
  const held = `${pos.count === null ? 'one' : pos.count.toLocaleString('en-US')} ${pos.side}`;
  const worth = (price: number) => (n * Math.round(price * 100)) / 100;
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}$${money(Math.abs(x))}`;
  const parts: string[] = [];
  // ("What's my max loss?" of a position said with no price: what was paid, all of it, before the mark.)
  const entry = pos.side === 'YES' ? ask : bid === null ? null : Math.round((1 - bid) * 100) / 100;
  if (lossAsked && pos.paid === null)
    parts.push(`**The most you can lose is what you paid** for ${n === 1 ? 'it' : 'them'}, all of it if it resolves ${pos.side === 'YES' ? 'NO' : 'YES'}; you have not said what that was${entry === null || entry <= 0 ? '' : `: bought now at the ${pos.side === 'YES' ? 'ask' : 'NO ask (1 minus the YES bid)'}, $${entry.toFixed(2)}, it would be $${money(worth(entry))}`}.\n\n`);
  const cost = pos.paid === null ? null : worth(pos.paid);
  const shorted = pos.shortAt === null ? '' : ` (YES sold short at $${pos.shortAt.toFixed(2)} is NO bought at $${pos.paid!.toFixed(2)})`;
  parts.push(cost === null ? `**Your ${held}**${pos.count === null ? ' contract' : ''}` : `**Your ${held} at $${pos.paid!.toFixed(2)}**${shorted} cost $${money(cost)}`);
  if (exit === null || exit <= 0) parts.push(`there is no ${pos.side === 'YES' ? 'YES bid' : 'YES ask, so no NO bid,'} to sell into now`);
  else {
    const now = worth(exit);
    parts.push(
      `sold now at the ${pos.side === 'NO' ? 'NO bid (1 minus the YES ask)' : 'bid'}, $${exit.toFixed(2)}, ${pos.count === null || pos.count !== 1 ? 'fetch' : 'fetches'} $${money(now)}` +
        (cost === null ? '' : `, **${signed(now - cost)}${cost > 0 ? ` (${now >= cost ? '+' : '−'}${Math.abs((100 * (now - cost)) / cost).toFixed(1)}%)` : ''}** before fees`),
    );
  }
  if (mid !== null) parts.push(`at the mid, $${mid.toFixed(3).replace(/0$/, '')}, worth $${money(n * mid)}${cost === null ? '' : ` (${signed(n * mid - cost)})`}`);
  const lead = parts[0]?.endsWith('\n\n') ? parts.shift()! : '';
  let text = `${lead}${parts.join('; ')}. Held to the end they pay $${money(n)} if it resolves ${pos.side}${cost === null ? '' : ` (${signed(n - cost)})`} and nothing if not${cost === null ? '' : ` (${signed(-cost)})`}`;
  if (pos.paid === null) text += `; say what you paid ("bought at 12c") for your profit`;
  if (pos.markAt !== null) {
    // "If it goes to 20c": YES at that price, NO at 1 minus it, as the mid would be.
    const at = pos.side === 'YES' ? pos.markAt : Math.round((1 - pos.markAt) * 100) / 100;
    const then = worth(at);
    text += `. If YES goes to $${pos.markAt.toFixed(2)}${pos.side === 'NO' ? ` (NO $${at.toFixed(2)})` : ''}, they are worth $${money(then)}${cost === null ? '' : `, **${signed(then - cost)}** on what they cost`} (at that mid, before the spread and fees)`;
  }
  const chance = believed ?? (Number.isFinite(r.modelValue) ? r.modelValue : null);
  if (chance !== null && exit !== null && exit > 0) {
    const p = (pos.side === 'YES' ? chance : 100 - chance) / 100;
    const [whose, on] = believed === null ? ["The model's", 'on the model'] : ['Your', 'on your estimate'];
    const hold = n * p;
    const now = worth(exit);
    text += `. ${whose} ${percent(100 * p)} values holding them to the end at $${money(hold)}, ${Math.abs(hold - now) < 0.005 ? 'the same as' : hold > now ? 'more than' : 'less than'} the $${money(now)} selling now fetches: ${hold > now + 0.005 ? `${on}, holding is worth more` : hold < now - 0.005 ? `${on}, selling now is worth more` : 'neither is worth more'}`;
  }
  return text;
}

/** Why a side of the book is empty ("why no two sided quote?", "why is there no bid on it?"). */
export const QUOTE_MISSING = /\bwhy\b[^?]{0,40}\b(?:no|not|isn'?t|aren'?t|nobody|no one|empty|missing)\b[^?]{0,30}\b(?:two[- ]sided|bids?|asks?|offers?|quotes?|liquidity|book|mid)\b|\b(?:no|empty|missing)\s+(?:two[- ]sided\s+)?(?:quotes?|bids?|asks?|offers?|book)\b[^?]{0,30}\bwhy\b/i;

/**
 * An empty side of the order book, said from the contract snapshot: which side is empty, what the
 * price shown is instead (the last trade, which may be old), and what that means for trading it.
 * Why no one quotes it is not in anything read.
 */
export function emptyBookText(rows: Row[], contracts: Map<string, Contract>, onlyEmpty = false): string | null {
  const emptySide = (r: Row) => { const c = contracts.get(outcomeOf(r.outcome).refs); return !!c && (dollars(c.bid) === null || dollars(c.ask) === null); };
  // None named: the outcomes with a side empty (every one when none is).
  const shown = onlyEmpty && rows.some(emptySide) ? rows.filter(emptySide) : rows;
  const lines = shown.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    if (!c) return [];
    const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
    if (bid !== null && ask !== null) return [`- **${name}** has both sides quoted: bid ${c.bid}, ask ${c.ask} (spread ${c.spread}), so its price is their mid ${refs}.`];
    const empty = bid === null && ask === null ? 'no bid and no ask' : bid === null ? `no bid (the ask is ${c.ask})` : `no ask (the bid is ${c.bid})`;
    const last = c.last !== '—' ? `; the ${percent(r.marketValue)} shown is its last trade, ${c.last}, which may be hours or days old and is not a price anyone offers now` : '';
    const trade = bid === null && ask === null
      ? 'Nothing can be bought or sold at once: an order would rest in the book until someone takes the other side'
      : bid === null
        ? 'YES can be bought at the ask, but not sold, and NO cannot be bought (NO is bought against the YES bid)'
        : 'YES can be sold at the bid and NO bought against it, but YES cannot be bought at once';
    return [`- **${name}**: the order book the report read had ${empty} resting at the snapshot${last} ${refs}. ${trade}.`];
  });
  if (!lines.length) return null;
  return `${lines.join('\n')}\n\nAn empty side means no one had an order resting there when the report read the book; it is common for thinly traded outcomes, or after a large trade took the best orders. Why no one quotes it is not in what the report reads (prices, the order book, the series' record and the rules). Its volume and open interest, in the report's contract snapshot, say how much it has traded and how much is held.`;
}

/** The price at which a trade would have value ("what would it need to be priced at to be worth it?", "fair price?"). */
export const FAIR_PRICE = /\b(?:need|have|has|needs) to (?:be )?(?:priced|trade|trading|cost|sell|go|drop|fall|get) (?:at|to|down to|below|under)\b|\bfair (?:price|value|odds)\b|\bat what price\b|\bwhat price\b[^?]*\b(?:worth|value|buy|make sense|good bet)\b|\bworth it at\b/i;

/**
 * Where each side of one outcome starts to have value on the model: YES below the model's chance,
 * NO below its complement (the YES bid above the model's chance), against today's quotes.
 */
export function fairPriceText(modelValue: number, ask: number | null, bid: number | null): string {
  const fair = modelValue / 100;
  const yes = ask === null ? 'no YES is offered now' : ask < fair ? `the ask, $${ask.toFixed(2)}, is below it now` : `it is $${ask.toFixed(2)} at the ask now`;
  const no = bid === null ? 'no YES bid now, so no NO to buy' : 1 - bid < 1 - fair ? `NO costs $${(1 - bid).toFixed(2)} now, below that` : `NO costs $${(1 - bid).toFixed(2)} now (1 minus the $${bid.toFixed(2)} bid)`;
  return `Fair price on the model: **$${fair.toFixed(3)}** (its ${percent(modelValue)}); YES has value below that (${yes}), and NO below $${(1 - fair).toFixed(3)} (${no}), before fees`;
}

/**
 * Each outcome's order book and trading from the report's contract snapshot; asked what buying is
 * worth ("expected value of buying Cut 25bps at the ask?", "should I buy NO on Hold?"), the
 * model's probability less the price paid, per $1 contract, before fees.
 */

export function quoteText(question: string, shown: Row[], contracts: Map<string, Contract>): string | null {
  const lines: string[] = [];
  // ("Back hold?" is a bet; "back to dollars, …", "a week back", "set me back" are not.)
  const value = /\b(?:expected value|ev|worth buying|buy(?:ing)?|sell(?:ing)?|bet(?:ting)? on|(?<!\b(?:go|goes|going|went|gone|come|comes|coming|came|get|getting|got|set|sets|look|looking|way|ago|day|days|week|weeks|month|months|year|years|further|far|ways)\s+)back(?!\s+(?:to|then|in|from|when|at|up|off|out|down|again|and forth)\b)|fad(?:e|ing))\b|\b(?:take|throw|put|bet|stake|wager|risk|drop|place|lay)\s+\$?\d/i.test(question);
  const no = NO_BOUGHT.test(question);
  // "What's the payout on hold?", "how much would I make if hold hits?", "max loss and payoff?": a contract pays $1.
  const payout = /\b(?:what happens|payouts?|pays? out|pay ?offs?|p&l|pnl|p\/l|max(?:imum)? (?:loss|gain|profit)|how much (?:can|could|would|will) (?:i|you|we) lose|downside|upside|how much (?:would|could|will|do|does|can) (?:i|you|we) (?:make|win|get|earn)|what (?:do|would|will|can|could) (?:i|you|we) (?:make|win|get|earn)|what (?:does|would|will) (?:it|that|this|they|a yes|a no) pay|how much (?:for|do i get for|would i get for))\b/i.test(question);
  // A stake said in dollars ("if I bet $100", "put 50 dollars on"); an outcome's own name ("Above $3,400") is none.
  const stake = stakeOf(shown.reduce((q, r) => q.split(outcomeOf(r.outcome).name).join(' '), question));
  // A number of contracts ("if I buy 500 NO", "200 contracts").
  // (Not a rung's own level: "buying 3400 yes" of "Above $3,400" is that rung; "100 of them" is the count.)
  const levels = new Set(labelLevels(shown));
  // ("Max loss on 400 CPI above 3.2 YES": the count said first, not the level's decimals.)
  const counted = [...question.matchAll(/(?<![\d.])\b(\d[\d,]*)\s+(?:(?:yes|no)\s+)?(?:contracts?|shares?)\b|\b(?:on|of|buy(?:ing)?|bought)\s+(\d[\d,]*)\s+(?=[a-z][^?]*\b(?:yes|no)\b)|\b(?:buy(?:ing)?|get|grab|on|of)\s+(\d[\d,]*)\s+(?:of\s+)?(?:yes|no)\b|\blift(?:ing)?\s+(?:the\s+)?(?:offer|ask)\s+for\s+(\d[\d,]*)\b|\b(?:cost|costs|run me|set me back)\s+for\s+(\d[\d,]*)\b(?!\s*(?:%|c\b|¢|cents?\b|\$))|\b(\d[\d,]*)\s+of\s+(?:them|those|these|it)\b|\b(?:long|short)\s+(\d[\d,]*)\b|\b(\d[\d,]*)\s+(?:[a-z]+\s+){1,3}?(?:yes|no)\s+(?:cost|costs|contracts?|shares?|pay|pays)\b|\b(?:buy(?:ing)?|bought|get|grab)\s+(\d[\d,]*)\s+(?=at\s+\d{1,2}c\b)|(?<![\d.])\b(?<bare>\d[\d,]*)\s+(?:yes|no)\b(?=\s*[:,;?.!]|\s*$|\s+(?:on|at|for|cost|costs|pay|pays|would|will|get|make)\b)/gi)]
    // (Nor the number of an outcome's name: "cut 25 yes" of "Cut 25bps".)
    .filter((m) => m.groups?.bare === undefined || !shown.some((r) => outcomeOf(r.outcome).name.toLowerCase().includes(`${/(\w+)\s+$/.exec(question.slice(0, m.index))?.[1]?.toLowerCase()} ${m.groups!.bare}`)))
    .map((m) => Number(m.slice(1).find((g) => g !== undefined)!.replace(/,/g, '')))
    .find((n) => !levels.has(n));
  const quantity = counted ?? null;
  // "Say hike dips to 40c, what's my EV buying YES there?": YES at the price supposed, NO at 1 minus it.
  const believed = shown.length === 1 ? chanceSaid(question) : null;
  // "I bought 100 hold yes at 12c, where am I now?": the position marked at the book, not a trade to make.
  const position = shown.length === 1 ? heldPosition(question, levels) : null;
  // ("I hold 100 no on above 40m" of buckets $20M–$40M, $40M–$60M: a position is on one contract, and these words name several.)
  if (shown.length > 1 && /\b(?:i|we)(?:\s+am|'m|\s+are|'re)?\s+(?:hold|have|own|bought|got|long|short)\s+\d[\d,]*\s+(?:(?:yes|no)\b|contracts?\b)/i.test(question)) {
    const names = shown.map((r) => `**${outcomeOf(r.outcome).name}** ${outcomeOf(r.outcome).refs}`);
    return `No one outcome of this event is what you said: the words match ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, and a position is on one contract. Say which you hold (as "100 no on ${outcomeOf(shown[0]!.outcome).name}"); NO on each of them is a separate position.`;
  }
  // ("How much can I get filled at 62c?" asks the book at a price, supposing nothing.)
  // ("EV if i get filled at 15 cents?" asks the value at that price, not the book.)
  const depth = DEPTH_ASKED.test(question) && !(/\b(?:ev|e\.v\.|expected value)\b/i.test(question) && !/\bhow (?:much|many)\b/i.test(question));
  const supposed = position || depth ? null : supposedPrice(question);
  for (const r of shown) {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    if (!c) continue;
    // ("Whats the shutdown bid in cents", "spread in cents on 3400?": the quote's prices as cents.)
    const priced = CENTS_WANTED.test(question) ? inCents : (cell: string) => cell;
    let line = `- **${name}** (${c.ticker}): bid ${priced(c.bid)}, ask ${priced(c.ask)}, spread ${priced(c.spread)}, last ${priced(c.last)}; volume ${c.volume} (${c.day} in the last 24 hours), open interest ${c.interest} ${refs}`;
    if (position) {
      const marked = positionText(position, r, c, believed, /\b(?:max(?:imum)? loss|worst[- ]case|most (?:i|you) (?:can|could) lose|how much (?:can|could) i lose)\b/i.test(question));
      // (The max loss said plainly first, then the quote and the mark.)
      const [lead, rest] = marked.includes('\n\n') && marked.startsWith('**The most') ? [marked.slice(0, marked.indexOf('\n\n') + 2), marked.slice(marked.indexOf('\n\n') + 2)] : ['', marked];
      lines.push(`${lead}${line}. ${rest}.`);
      continue;
    }
    if (depth) line += depthText(c, NO_BOUGHT.test(question), quantity ?? thousandsOfContracts(question));
    const [bid, ask] = supposed === null ? [dollars(c.bid), dollars(c.ask)] : [supposed, supposed];
    // NO is bought at 1 minus the best YES bid, and pays when the outcome does not happen.
    const noPrice = bid === null ? null : 1 - bid;
    if (supposed !== null) line += `. Supposing YES trades at $${supposed.toFixed(2)} (NO at $${(1 - supposed).toFixed(2)}), not the quotes above`;
    // "Can i buy below 0 right now?": an empty side of the book is said plainly, its price being only the last trade.
    if (supposed === null && (ask === null || bid === null) && /\b(?:can|could|may)\s+(?:i|we|you)\b[^?]*\b(?:buy|trade|sell|get|bet|fill)\b|\btradable\b|\btradeable\b/i.test(question)) {
      const none = ask === null && bid === null ? 'nothing is offered on either side (no YES ask, no YES bid, so no NO either)' : ask === null ? 'no YES is offered (no ask), though NO can be bought against the YES bid' : 'no one bids for YES, so NO cannot be bought and YES cannot be sold, though YES can be bought at the ask';
      line += `. **${ask === null && bid === null ? 'No' : 'Only one side'}**: right now ${none}${c.last !== '—' ? `; ${c.last} is its last trade, not a price you can get` : ''}`;
    }
    if (payout && no && noPrice !== null) line += `. A NO contract bought at $${noPrice.toFixed(2)} (1 minus the bid) pays $1.00 if it resolves NO: $${(1 - noPrice).toFixed(2)} profit per contract before fees, the $${noPrice.toFixed(2)} lost if it resolves YES`;
    else if (payout && ask !== null) line += `. A YES contract bought ${supposed === null ? 'at the ask, ' : 'at '}$${ask.toFixed(2)}, pays $1.00 if it resolves YES: $${(1 - ask).toFixed(2)} profit per contract before fees, the $${ask.toFixed(2)} lost if it resolves NO`;
    // "If I buy 500 NO": what that many cost, the most they can lose, and what they pay.
    const each = no ? noPrice : ask;
    // "What does the NO side cost?": one contract of that side.
    // ("The no side?": what that side costs.)
    if (/\bcosts?\b|\b(?:yes|no) side\b/i.test(question) && !payout && quantity === null && stake === null && each !== null) line += `. A ${no ? 'NO' : 'YES'} contract costs $${each.toFixed(2)}${supposed !== null ? ' at the price supposed' : no ? ' (1 minus the YES bid)' : ' at the ask'} and pays $1.00 if it resolves ${no ? 'NO' : 'YES'}`;
    if (quantity !== null && quantity > 0 && each !== null && stake === null) {
      const cost = (quantity * Math.round(each * 100)) / 100;
      const thin = supposed === null ? beyondBest(c, no ? 'NO' : 'YES', quantity, each) : '';
      line += `. ${quantity.toLocaleString('en-US')} ${no ? 'NO' : 'YES'} contracts at $${each.toFixed(2)} cost $${money(cost)}, the most they can lose; if it resolves ${no ? 'NO' : 'YES'} they pay $${money(quantity)}, a profit of $${money(quantity - cost)} before fees${thin ? ` (${thin}, so the cost would be higher)` : ''}`;
    }
    // "If I bet $100 on the Bills", "EV of $200 on Lakers YES?": that stake in whole contracts at the price of the side bought.
    let held = quantity !== null && quantity > 0 && stake === null ? quantity : null;
    if ((payout || value) && each !== null && each > 0 && stake !== null) {
      // In cents, so that $0.30 at $0.10 is 3 contracts, not 2.9999….
      const [stakeCents, eachCents] = [Math.round(stake * 100), Math.round(each * 100)];
      const count = Math.floor(stakeCents / eachCents);
      const cost = (count * eachCents) / 100;
      const side = no ? 'NO' : 'YES';
      line += `. $${money(stake)} buys ${count.toLocaleString('en-US')} ${side} contract${count === 1 ? '' : 's'} at $${each.toFixed(2)} ($${money(cost)}): if it resolves ${side} they pay $${money(count)}, a profit of $${money(count - cost)} before fees; if not, the $${money(cost)} is lost`;
      held = count;
    }
    // "What would hold need to be priced at to be worth it?": the prices at which each side has value on the model.
    if (FAIR_PRICE.test(question) && Number.isFinite(r.modelValue)) line += `. ${fairPriceText(r.modelValue, ask, bid)}`;
    // "Breakeven probability?": what the side bought costs is the chance it needs, before fees.
    if (/\bbreak[- ]?even\b|\bneed to (?:believe|think)\b|\bwhat (?:chance|probability|odds) (?:do|would) (?:i|you|we) need\b/i.test(question) && each !== null) line += `. Breakeven: ${no ? 'NO' : 'YES'} at $${each.toFixed(2)} needs a ${percent(100 * each)} chance to break even before fees${Number.isFinite(r.modelValue) ? `; the model gives ${percent(no ? 100 - r.modelValue : r.modelValue)}` : ''}`;
    if (value && (believed !== null || Number.isFinite(r.modelValue))) {
      // NO is bought at 1 minus the best YES bid, and pays when the outcome does not happen.
      // ("If i think hike is 60%, EV on 100 yes": against the asker's chance.)
      const yes = (believed ?? r.modelValue) / 100;
      const [paid, chance, side] = no ? [noPrice, 1 - yes, 'NO'] : [ask, yes, 'YES'];
      const [whose, on] = believed === null ? ["the model's", 'on the model'] : ['your', 'on your estimate'];
      if (paid !== null) {
        const ev = chance - paid;
        line += `. Buying ${side} at $${paid.toFixed(2)} against ${whose} ${percent(100 * chance)}: expected value ${ev >= 0 ? '+' : '−'}$${Math.abs(ev).toFixed(3)} per $1 contract before fees${held ? ` (${ev >= 0 ? '+' : '−'}$${money(Math.abs(ev * held))} on ${held.toLocaleString('en-US')} contract${held === 1 ? '' : 's'})` : ''}, ${ev > 0 ? `favoured ${on}` : `not favoured ${on}`}`;
        // "EV of 100 yes": the sum worked out on that many, and what it assumes (the fill, holding to settlement, the chance, no fees).
        if (held && held > 1) {
          const [win, loss] = [(held * Math.round((1 - paid) * 100)) / 100, (held * Math.round(paid * 100)) / 100];
          const offered = count(no ? c.bidSize : c.askSize);
          const fill = offered === null ? `all ${held.toLocaleString('en-US')} filled at $${paid.toFixed(2)}` : offered >= held ? `all ${held.toLocaleString('en-US')} filled at $${paid.toFixed(2)} (${offered.toLocaleString('en-US')} are offered there)` : `all ${held.toLocaleString('en-US')} filled at $${paid.toFixed(2)}, though only ${offered.toLocaleString('en-US')} are offered there`;
          line += `. Worked out: ${percent(100 * chance)} × $${money(win)} won − ${percent(100 - 100 * chance)} × $${money(loss)} lost = ${ev >= 0 ? '+' : '−'}$${money(Math.abs(chance * win - (1 - chance) * loss))}. It assumes ${fill}, held to settlement (each contract pays $1 or nothing), ${whose} ${percent(100 * chance)} as the true chance, and no fees (Kalshi's fee is not in what I read; it would lower this)`;
        }
      } else {
        // Nothing offered on that side: no price to buy at, so no expected value to give.
        line += `. There is no ${no ? 'YES bid, so no NO offer,' : 'ask'} in the order book: nothing to buy ${side} at now, so no expected value to give`;
      }
    } else if (value && Number.isFinite(r.marketValue)) {
      // No model (live quotes, no report): what buying is worth at the market's own price, the half spread lost.
      const [paid, chance, side] = no ? [noPrice, 1 - r.marketValue / 100, 'NO'] : [ask, r.marketValue / 100, 'YES'];
      if (paid !== null) {
        const ev = chance - paid;
        line += `. There is no model probability to weigh it against: at the market's own ${percent(100 * chance)}, ${side} bought at $${paid.toFixed(2)} is worth ${ev >= 0 ? '+' : '−'}$${Math.abs(ev).toFixed(3)} per $1 contract before fees${held ? ` (${ev >= 0 ? '+' : '−'}$${money(Math.abs(ev * held))} on ${held.toLocaleString('en-US')} contract${held === 1 ? '' : 's'})` : ''}, the price paid over the mid; say your own chance (“EV if I think it's 60%?”) for an expected value on it`;
      }
    }
    lines.push(`${line}.`);
  }
  if (!lines.length) return null;
  const modelled = shown.some((r) => Number.isFinite(r.modelValue));
  const caveat = !value && !position
    ? ''
    : believed !== null
      ? "\n\nThis is arithmetic on the report's prices and your estimate, not investment advice: prices move, and fees are not counted."
      : modelled
        ? "\n\nThis is the model's arithmetic on the report's prices, not investment advice: prices move, and fees and the model's error are not counted."
        : "\n\nThis is arithmetic on the report's prices, not investment advice: prices move, and fees are not counted.";
  return `${lines.join('\n')}${caveat}`;
}

/**
 * The trade the model favours most at current prices ("which outcome would you buy?", "best bet?",
 * "where's the edge?"): for every outcome, YES at the ask and NO at 1 minus the bid against the
 * model's probability, best first (worst first, asked for the worst); said plainly when none has a
 * positive expected value.
 */
export interface Trade {
  r: Row;
  side: 'YES' | 'NO';
  paid: number;
  /** The model's probability that the side bought pays. */
  chance: number;
  ev: number;
  /** The chance is the asker's, not the model's. */
  yours?: boolean;
}

/**
 * Every trade on the rows at current prices, YES at the ask and NO at 1 minus the bid, with its
 * expected value on the model, best first; at a YES price `supposed` instead, when one is.
 */
export function rankedTrades(rows: Row[], contracts: Map<string, Contract>, supposed: number | null = null, believed: number | null = null): Trade[] {
  const trades: Trade[] = rows.flatMap((r) => {
    const c = contracts.get(outcomeOf(r.outcome).refs);
    if (!c || (believed === null && !Number.isFinite(r.modelValue))) return [];
    const [bid, ask] = supposed === null ? [dollars(c.bid), dollars(c.ask)] : [supposed, supposed];
    const [chance, yours] = believed === null ? [r.modelValue / 100, false] : [believed / 100, true];
    return [
      ...(ask !== null && ask > 0 ? [{ r, side: 'YES' as const, paid: ask, chance, ev: chance - ask, yours }] : []),
      ...(bid !== null && bid > 0 ? [{ r, side: 'NO' as const, paid: 1 - bid, chance: 1 - chance, ev: bid - chance, yours }] : []),
    ];
  });
  return trades.sort((a, b) => b.ev - a.ev);
}

/** "**NO on 41% to 42%** at $0.77 against the model's 84.8%: expected value +$0.078 per $1 contract [1]". */
export const tradeSaid = (t: Trade) =>
  `**${t.side} on ${outcomeOf(t.r.outcome).name}** at $${t.paid.toFixed(2)} against ${t.yours ? 'your' : "the model's"} ${percent(100 * t.chance)}: expected value ${t.ev >= 0 ? '+' : '−'}$${Math.abs(t.ev).toFixed(3)} per $1 contract ${outcomeOf(t.r.outcome).refs}`.trimEnd();

export function bestTradeText(rows: Row[], contracts: Map<string, Contract>, worst = false, both = false): string | null {
  const trades = rankedTrades(rows, contracts);
  if (!trades.length) return null;
  if (worst) trades.reverse();
  const best = trades[0]!;
  const head = worst
    ? `On the model, the worst buy at current prices is ${tradeSaid(best)}, before fees.`
    : best.ev > 0
      ? `On the model, the best buy at current prices is ${tradeSaid(best)}, before fees.`
      : `No contract is favoured on the model at current prices: the least unfavourable is ${tradeSaid(best)}, before fees.`;
  const rest = trades.slice(1, 6).map((t) => `- ${tradeSaid(t)}`);
  // "Which has the best value, and which is the worst?": both ends.
  const other = both && trades.length > 1 ? ` The worst is ${tradeSaid(trades.at(-1)!)}.` : '';
  return `${head}${other}${rest.length ? `\n\nNext:\n${rest.join('\n')}` : ''}\n\nYES is bought at the ask; NO at 1 minus the best YES bid, and pays when the outcome does not happen. This is the model's arithmetic on the report's prices, not investment advice: prices move, and fees and the model's error are not counted.`;
}

/**
 * How much to stake on the model ("how much should I size with $1000?", "Kelly on NO 96k?"): the
 * Kelly fraction of the best trade among `rows` (the side named, when one is), f = (p − c)/(1 − c)
 * for a contract costing c that pays $1 with the model's chance p; half of it beside, and in
 * dollars and whole contracts when a bankroll is said. Nothing when no trade has an edge.
 */
/** Kelly asked on an outcome with no bid or ask ("quarter kelly on 0 to 75k with 500" where the book is empty): no price to size at, said so with what the report shows. */
function unquotedSizing(question: string, r: Row, contracts: Map<string, Contract>): string | null {
  const { name, refs } = outcomeOf(r.outcome);
  const c = contracts.get(refs);
  if (!c || dollars(c.bid) !== null || dollars(c.ask) !== null) return null;
  const bankroll = stakeOf(question);
  const last = dollars(c.last);
  const model = Number.isFinite(r.modelValue) ? `; the model gives it ${percent(r.modelValue)}${last !== null ? ` against the last trade's ${percent(100 * last)}` : ''}` : '';
  const quoted = [...contracts.values()].filter((x) => dollars(x.bid) !== null || dollars(x.ask) !== null).length;
  return `**${name}** has no quotes in the report's contract snapshot: no bid and no ask${last !== null ? `, only a last trade at $${last.toFixed(2)}` : ''} ${refs}${model}. With no price to buy YES or NO at, the Kelly criterion has nothing to size${bankroll ? ` on $${money(bankroll)}` : ''}: its fraction, (p − c)/(1 − c), needs the price c paid. ${quoted ? 'Ask for Kelly on an outcome with a bid and an ask, or on this one once it is quoted.' : ''}`.trimEnd() + "\n\nThis is arithmetic on the report's prices before fees, not investment advice.";
}

export function sizingText(question: string, rows: Row[], contracts: Map<string, Contract>): string | null {
  const side = /\bno\b/i.test(question) ? 'NO' : /\byes\b/i.test(question) ? 'YES' : null;
  // "Say hike dips to 40c, how much of 5k?": sized at that price, of the one outcome it is supposed of.
  const supposed = rows.length === 1 ? supposedPrice(question) : null;
  // "Full kelly on 2500 at that 60%": the asker's chance of the outcome, not the model's.
  const believed = rows.length === 1 ? chanceSaid(question) : null;
  const trades = rankedTrades(rows, contracts, supposed, believed).filter((t) => !side || t.side === side);
  if (!trades.length) return rows.length === 1 && supposed === null ? unquotedSizing(question, rows[0]!, contracts) : null;
  const t = trades[0]!;
  const at = supposed === null ? '' : `Supposing YES on **${outcomeOf(rows[0]!.outcome).name}** trades at $${supposed.toFixed(2)} (NO at $${(1 - supposed).toFixed(2)}), not the report's quotes: `;
  const caveat = `The Kelly criterion assumes ${believed === null ? "the model's" : 'your'} probability is right; it is not, exactly, so many stake a half or a quarter of it. This is arithmetic on ${supposed === null ? "the report's prices" : 'the price supposed'} before fees, not investment advice.`;
  const one = new Set(trades.map((x) => x.r)).size === 1 && trades.length === 1;
  if (t.ev <= 0) {
    const none = one ? `${tradeSaid(t)}: no edge` : `no ${side ? `${side} ` : ''}contract ${rows.length < 3 ? 'asked about ' : ''}has a positive expected value at ${supposed === null ? 'current prices' : 'that price'} (the least unfavourable is ${tradeSaid(t)})`;
    // The side asked has no edge; its other side, when it has one, is sized beside it, said to be the other side.
    const other = side && rows.length === 1 ? rankedTrades(rows, contracts, supposed, believed).find((x) => x.side !== side && x.ev > 0) : undefined;
    // (Not in bold: the side asked stays the one a later "kelly on that with 2k" reads back.)
    const otherSized = other ? ` The other side has the edge: ${tradeSaid(other).replace(/\*\*/g, '')}, a Kelly fraction of ${((100 * other.ev) / (1 - other.paid)).toFixed(1)}% of the bankroll (half Kelly ${((50 * other.ev) / (1 - other.paid)).toFixed(1)}%)${stakeOf(question) ? `, $${money((stakeOf(question)! * other.ev) / (1 - other.paid))} of $${money(stakeOf(question)!)}` : ''}; ask for Kelly on ${other.side} to size it.` : '';
    return `${at}${at ? 'the' : 'The'} Kelly criterion stakes nothing here: on ${believed === null ? 'the model' : `your ${percent(believed)}`}, ${none}.${otherSized}\n\n${caveat}`;
  }
  const f = t.ev / (1 - t.paid);
  const bankroll = stakeOf(question);
  const inDollars = (share: number) => {
    const stake = bankroll! * share;
    const count = Math.floor(Math.round(stake * 100) / Math.round(t.paid * 100));
    const book = supposed === null ? contracts.get(outcomeOf(t.r.outcome).refs) : undefined;
    const thin = book ? beyondBest(book, t.side, count, t.paid) : '';
    return `$${money(stake)} (${count.toLocaleString('en-US')} contract${count === 1 ? '' : 's'} at $${t.paid.toFixed(2)}${thin ? `; ${thin}` : ''})`;
  };
  // "Quarter kelly on 1k": a quarter of it too.
  const quarter = /\bquarter[- ]kelly\b|\bkelly\b[^?]*\bquarter\b|^\W*(?:(?:and|ok|so|then)\W+)?(?:a\s+)?quarter\b/i.test(question);
  const onBankroll = bankroll ? ` On $${money(bankroll)}: ${inDollars(f)} at full Kelly, ${inDollars(f / 2)} at half${quarter ? `, ${inDollars(f / 4)} at a quarter` : ''}.` : ' Say a bankroll ("with $1,000") for it in dollars.';
  const on = believed === null ? 'the model' : `your ${percent(believed)} for ${outcomeOf(rows[0]!.outcome).name}`;
  return `${at}${at ? 'on' : 'On'} ${on}, the trade to size is ${tradeSaid(t)}. The Kelly fraction, (p − c)/(1 − c) = (${(100 * t.chance).toFixed(1)}% − $${t.paid.toFixed(2)}) / (1 − $${t.paid.toFixed(2)}), is **${(100 * f).toFixed(1)}%** of the bankroll; half Kelly ${(50 * f).toFixed(1)}%${quarter ? `, quarter Kelly ${(25 * f).toFixed(1)}%` : ''}.${onBankroll}\n\n${caveat}`;
}

/**
 * What exclusive outcomes' prices add up to beyond 100% (the overround), and what buying every
 * outcome at the ask costs; outcomes that are each their own yes/no have no such sum, only spreads.
 */
export function overroundText(report: string, rows: Row[], contracts: Map<string, Contract>, exclusive: boolean): string {
  const sum = /market prices (?:add|adding) up to (\d+(?:\.\d+)?)%/.exec(report)?.[1];
  const priced = rows.filter((r) => Number.isFinite(r.marketValue));
  if (!exclusive || !sum) {
    const quotes = quoteText('', priced, contracts);
    // A ladder's rungs add up to a number that means nothing; the bands between them add up to 100%.
    const total = priced.length > 1 ? ` Added up anyway, their prices come to ${percent(priced.reduce((a, r) => a + r.marketValue, 0))}, a sum with no meaning${isLadder(rows) ? ": the rungs are nested (a result above the higher one is above the lower ones too), so it is the bands between them, each the lower rung's chance less the next one's, that add up to 100% (ask for the most likely range)" : ''}.` : '';
    return `These outcomes are not mutually exclusive (each is a yes/no of its own), so their prices are not meant to add up to 100% and there is no overround across them; what trading costs is each contract's spread.${total}${quotes ? `\n\n${quotes}` : ''}`;
  }
  const over = Number(sum) - 100;
  const asks = priced.map((r) => dollars(contracts.get(outcomeOf(r.outcome).refs)?.ask));
  const cost = asks.every((a): a is number => a !== null) ? asks.reduce((a, b) => a + b, 0) : null;
  const head = over >= 0 ? `an overround of ${over.toFixed(1)} points, the exchange's and market makers' edge` : `${Math.abs(over).toFixed(1)} points under 100%`;
  const buyAll = cost === null ? '' : ` Buying YES on every outcome at the ask costs $${cost.toFixed(2)} for a $1 payout (${cost >= 1 ? `${((cost - 1) * 100).toFixed(1)} points over` : `${((1 - cost) * 100).toFixed(1)} points under, an arbitrage before fees`}).`;
  return `The market prices (mids) of the ${priced.length} outcomes add up to ${sum}%: ${head} ${refsOf(priced)}.${buyAll} The report's gaps are measured against the prices normalised to 100%, so the overround is not counted as a gap.\n\n${priced.map(rowLine).join('\n')}`;
}

/** The contract ranked first by the trading figure asked (volume, 24-hour volume, open interest), with every contract's. */
export function mostTradedText(question: string, rows: Row[], contracts: Map<string, Contract>): string | null {
  const q = question.toLowerCase();
  const [field, label] = /open interest|\boi\b|liquid/.test(q) ? (['interest', 'open interest'] as const) : /24/.test(q) ? (['day', '24-hour volume'] as const) : (['volume', 'volume'] as const);
  const least = /\b(?:least|less|lower|lowest|smaller|smallest)\b/.test(q);
  const ranked = rows
    .flatMap((r) => {
      const { name, refs } = outcomeOf(r.outcome);
      const c = contracts.get(refs);
      const n = count(c?.[field]);
      return c && n !== null ? [{ name, refs, n, shown: c[field] }] : [];
    })
    .sort((a, b) => (least ? a.n - b.n : b.n - a.n));
  if (!ranked.length) return null;
  const top = ranked[0]!;
  // Of two ("which side has more volume?"): more or less, against the other.
  const two = ranked.length === 2 ? ` (against ${ranked[1]!.shown} for **${ranked[1]!.name}**)` : '';
  return `**${top.name}** has ${two ? (least ? 'less' : 'more') : least ? 'the least' : 'the most'} ${label}: ${top.shown} contracts${two} ${top.refs}.\n\n${ranked.map((x) => `- **${x.name}**: ${x.shown} ${x.refs}`).join('\n')}`;
}

/**
 * Trades the report's quotes make sure to pay more than they cost: on a ladder, YES on a rung and
 * NO on one it contains (YES there implies YES on the first) for less than $1; among exclusive
 * outcomes, YES on all of them for less than $1, or NO on all of them for less than the $n − 1
 * they are sure to pay.
 */
export function arbitrageText(rows: Row[], contracts: Map<string, Contract>, exclusive: boolean, question = ''): string | null {
  // "If I buy YES on all four, is that a guaranteed profit?": that side's answer first, whichever it is.
  const side = /\byes on (?:all|every|each)\b/i.test(question) ? 'YES' : /\bno on (?:all|every|each)\b/i.test(question) ? 'NO' : null;
  const quoted = rows.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
    return c ? [{ r, name, refs, bid, ask, range: labelRange(name), bidSize: sizeOf(c.bidSize), askSize: sizeOf(c.askSize), sized: c.bidSize !== undefined }] : [];
  });
  // One yes/no contract: YES at the ask and NO at 1 minus the bid pay $1 together, and cost the spread more.
  if (quoted.length === 1 && quoted[0]!.ask !== null && quoted[0]!.bid !== null) {
    const q = quoted[0]!;
    const cost = q.ask! + (1 - q.bid!);
    return `No arbitrage: this event has one yes/no contract, **${q.name}**, and buying both its sides, YES at the ask $${q.ask!.toFixed(2)} and NO at 1 minus the bid $${(1 - q.bid!).toFixed(2)} ${q.refs}, costs $${cost.toFixed(2)} for the $1 one of them pays: ${Math.round((cost - 1) * 100)}¢ over, the spread. With no other outcome to trade against, there is nothing to lock in; fees would add to the cost.`;
  }
  if (quoted.length < 2) return null;
  const caveat = `On the report's quotes, which move; Kalshi's fees take part of any edge${quoted.every((q) => q.sized) ? '.' : ', and the report does not show how many contracts are offered at those prices.'}`;
  const count = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  // How many of a trade the best prices are good for: the thinnest leg's size.
  const goodFor = (legs: { size: number | null; name: string; side: 'YES' | 'NO' }[], what: string) => {
    if (!quoted.every((q) => q.sized) || legs.some((l) => l.size === null)) return '';
    const thinnest = legs.reduce((a, b) => (b.size! < a.size! ? b : a));
    return ` The best prices are good for ${count(thinnest.size!)} ${what} (the thinnest leg, ${thinnest.side} on ${thinnest.name}); more fill at worse prices.`;
  };
  const found: string[] = [];
  let checked: string;
  if (isLadder(rows)) {
    // "Above 2.8" is inside "Above 2.6"; "Below 2.6" inside "Below 2.8".
    const level = (q: (typeof quoted)[number]) => (q.range?.from ?? q.range?.to)!;
    const above = rungSide(quoted[0]!.range) === 'above';
    let cheapest: { wide: (typeof quoted)[number]; narrow: (typeof quoted)[number]; cost: number } | null = null;
    for (const wide of quoted) {
      for (const narrow of quoted) {
        if (wide === narrow || (above ? level(narrow) <= level(wide) : level(narrow) >= level(wide)) || wide.ask === null || narrow.bid === null) continue;
        const cost = wide.ask + (1 - narrow.bid);
        if (!cheapest || cost < cheapest.cost) cheapest = { wide, narrow, cost };
        if (cost < 1 - 1e-9) {
          found.push(
            `- YES on **${wide.name}** at the ask, ${cents(wide.ask)} ${wide.refs}, and NO on **${narrow.name}** at ${cents(1 - narrow.bid)} (1 minus its ${cents(narrow.bid)} YES bid) ${narrow.refs}: ${cents(cost)} for a pair that pays at least $1 whatever happens (YES on ${narrow.name} means YES on ${wide.name}), so about ${((1 - cost) * 100).toFixed(0)}¢ locked in per pair before fees.${goodFor([{ size: wide.askSize, name: wide.name, side: 'YES' }, { size: narrow.bidSize, name: narrow.name, side: 'NO' }], 'pairs')}`,
          );
        }
      }
    }
    checked = 'no rung can be bought with NO on a rung inside it for less than the $1 the pair is sure to pay';
    // The nearest miss, shown: what the cheapest such pair costs against the $1 it is sure to pay.
    if (cheapest && !found.length) {
      const { wide, narrow, cost } = cheapest;
      checked += `; the cheapest pair, YES on **${wide.name}** at ${cents(wide.ask!)} and NO on **${narrow.name}** at ${cents(1 - narrow.bid!)} ${[...new Set([wide.refs, narrow.refs])].join('')}, costs ${cents(cost)} for $1 sure (and $2 if the result lands between them), ${cost > 1 ? `${Math.round((cost - 1) * 100)}¢ over` : 'exactly'} what it is sure to pay`;
    }
  } else if (exclusive) {
    const asks = quoted.map((q) => q.ask);
    const bids = quoted.map((q) => q.bid);
    const sumAsk = asks.every((a): a is number => a !== null) ? asks.reduce((a, b) => a + b, 0) : null;
    const sumBid = bids.every((b): b is number => b !== null) ? bids.reduce((a, b) => a + b, 0) : null;
    // "100 sets": that many of each.
    const sets = Number(/\b(\d[\d,]*)\s+(?:sets?|of each|each|pairs?)\b/i.exec(question)?.[1]?.replace(/,/g, '') ?? 0);
    const ofSets = (cost: number, pays: number) => (sets > 0 ? ` ${sets.toLocaleString('en-US')} sets cost $${money(sets * cost)} and pay $${money(sets * pays)}: $${money(sets * (pays - cost))} locked in before fees.` : '');
    if (sumAsk !== null && sumAsk < 1 - 1e-9) found.push(`- YES on every outcome at the ask: ${cents(sumAsk)} for the $1 the winner pays, ${((1 - sumAsk) * 100).toFixed(0)}¢ locked in before fees ${refsOf(rows)}.${ofSets(sumAsk, 1)}${goodFor(quoted.map((q) => ({ size: q.askSize, name: q.name, side: 'YES' as const })), 'sets')}`);
    if (sumBid !== null && sumBid > 1 + 1e-9) found.push(`- NO on every outcome at 1 minus its YES bid: ${cents(quoted.length - sumBid)} for at least $${quoted.length - 1} (every outcome but the winner pays), ${((sumBid - 1) * 100).toFixed(0)}¢ locked in before fees ${refsOf(rows)}.${ofSets(quoted.length - sumBid, quoted.length - 1)}${goodFor(quoted.map((q) => ({ size: q.bidSize, name: q.name, side: 'NO' as const })), 'sets')}`);
    checked = `YES on every outcome costs ${sumAsk === null ? 'an unknown amount (an outcome has no ask)' : cents(sumAsk)} at the asks, and NO on every outcome ${sumBid === null ? 'cannot be priced (an outcome has no bid)' : `${cents(quoted.length - sumBid)} against the $${quoted.length - 1} it pays`}`;
    // The side asked about locks in a loss: said first, with the other side's lock-in, if any, after it.
    const loss =
      side === 'YES' && sumAsk !== null && sumAsk >= 1 - 1e-9
        ? `No: YES on every outcome at the asks costs ${cents(sumAsk)} and pays exactly $1 (one outcome wins), ${sumAsk > 1 + 1e-9 ? `${Math.round((sumAsk - 1) * 100)}¢ lost whatever happens` : 'nothing gained'}, before fees ${refsOf(rows)}.`
        : side === 'NO' && sumBid !== null && sumBid <= 1 + 1e-9
          ? `No: NO on every outcome at 1 minus each YES bid costs ${cents(quoted.length - sumBid)} and pays exactly $${quoted.length - 1} (every outcome but the winner), ${sumBid < 1 - 1e-9 ? `${Math.round((1 - sumBid) * 100)}¢ lost whatever happens` : 'nothing gained'}, before fees ${refsOf(rows)}.`
          : null;
    if (loss) {
      return `${loss}${found.length ? `\n\nThe other way round there is one:\n\n${found.join('\n')}` : ''}\n\n${caveat}`;
    }
  } else return null;
  // An outcome without a quote on the side a trade needs: whether an arbitrage exists cannot be told.
  if (!found.length && exclusive && !isLadder(rows) && quoted.length < rows.length) {
    const missing = rows.filter((r) => !contracts.get(outcomeOf(r.outcome).refs)).map((r) => `**${outcomeOf(r.outcome).name}**`);
    return `Cannot tell: ${missing.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no quote in the report, and an arbitrage across exclusive outcomes needs every one of them priced.\n\n${quoteText('', rows, contracts) ?? ''}`;
  }
  if (!found.length && exclusive && !isLadder(rows) && (checked.includes('unknown amount') || checked.includes('cannot be priced'))) {
    return `Cannot tell on the report's quotes: ${checked}, and an arbitrage across exclusive outcomes needs every one of them priced.\n\n${quoteText('', rows, contracts) ?? ''}`;
  }
  if (found.length) return `Yes, on the report's quotes:\n\n${found.join('\n')}\n\n${caveat}`;
  const none = /\bfees?\b/i.test(question) ? ' With nothing locked in before fees, there is nothing after them.' : '';
  return `No arbitrage on the report's quotes: ${checked}.${none}\n\n${quoteText('', rows, contracts) ?? ''}\n\n${caveat}`;
}

/**
 * YES and NO on one outcome bought together ("200 pairs of yes and no on hold"): exactly one of
 * them pays $1, so the pair costs the spread over $1 whatever happens.
 */
export function bothSidesText(question: string, row: Row, contracts: Map<string, Contract>): string | null {
  const { name, refs } = outcomeOf(row.outcome);
  const c = contracts.get(refs);
  const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
  if (!c || bid === null || ask === null) return null;
  const cost = ask + (1 - bid);
  const pairs = Number(/\b(\d[\d,]*)\s+(?:pairs?|of (?:each|both)|each)\b/i.exec(question)?.[1]?.replace(/,/g, '') ?? 0);
  const loss = Math.round((cost - 1) * 100);
  const total = pairs > 0 ? ` ${pairs.toLocaleString('en-US')} pairs cost $${money(pairs * cost)} and pay $${money(pairs)}: ${loss > 0 ? `$${money((pairs * loss) / 100)} lost` : 'nothing gained'} before fees.` : '';
  return `No profit is locked in: YES on **${name}** at the ask, ${cents(ask)}, and NO at ${cents(1 - bid)} (1 minus the ${cents(bid)} YES bid) cost ${cents(cost)} a pair, and exactly one of the two pays $1, so each pair ${loss > 0 ? `loses the ${loss}¢ spread` : 'breaks even'} whatever happens ${refs}.${total} Holding both sides is no position at all; an arbitrage needs prices that disagree across outcomes (ask about an arbitrage on the event for that check).`;
}

/**
 * The outcome most under- (way 1) or overpriced (way −1) on the model. What a YES costs is the
 * market's price, not its normalised share: an outcome whose share is below the model's but whose
 * price is above it is cheap only beside the other outcomes, and buying it is not favoured.
 */
export function pricedText(rows: Row[], way: 1 | -1): string | null {
  const word = way > 0 ? 'underpriced' : 'overpriced';
  const edge = (r: Row) => way * (r.modelValue - r.marketValue);
  const best = (value: (r: Row) => number) => bestRow(rows, value);
  const pick = best(edge);
  if (!pick) return null;
  const { name, refs } = outcomeOf(pick.outcome);
  if (edge(pick) > 0) {
    const against = way > 0 ? 'above' : 'below';
    return `The most ${word} outcome on the model is **${name}**: the model gives ${pick.model} against a market price of ${percent(pick.marketValue)}, ${Math.abs(pick.modelValue - pick.marketValue).toFixed(1)} pts ${against} it (gap to the normalised price ${pick.gap}) ${refs}.`;
  }
  const relative = best((r) => way * gapOf(r));
  const beside =
    relative && way * gapOf(relative) > 0
      ? ` **${outcomeOf(relative.outcome).name}** has the largest gap against its normalised price (${relative.gap}), but its price, ${percent(relative.marketValue)}, is ${way > 0 ? 'above' : 'below'} the model's ${relative.model}: it is ${way > 0 ? 'cheap' : 'dear'} only beside the other outcomes, and ${way > 0 ? 'buying' : 'selling'} it is not favoured ${outcomeOf(relative.outcome).refs}.`
      : '';
  return `On the model, no outcome is ${word} at its price: every market price is ${way > 0 ? 'at or above' : 'at or below'} the model's probability.${beside}`.trimEnd();
}

/**
 * "Anything weird in the pricing?": what stands out in a report, each said once: a ladder priced
 * out of order, exclusive prices adding up far from 100%, the largest gap between model and
 * market, large moves over the week, volume surges, wide spreads.
 */
export function anomaliesText(outcomes: string | undefined, claims: string | undefined, rows: Row[], exclusive: boolean): string {
  const found: string[] = [];
  const crossed = (outcomes ?? '').split('\n').find((l) => l.startsWith('The market prices its strikes out of order'));
  if (crossed) found.push(`- **Out of order:** ${crossed.replace(/^The market prices its strikes out of order: /, 'the market prices ')}`);
  const sum = /market prices (?:add|adding) up to (\d+(?:\.\d+)?)%/.exec(outcomes ?? '')?.[1];
  if (exclusive && sum && Math.abs(Number(sum) - 100) >= 5) {
    found.push(`- **Overround:** the ${rows.length} exclusive outcomes' prices add up to ${sum}%, ${Math.abs(Number(sum) - 100).toFixed(1)} points ${Number(sum) > 100 ? 'over' : 'under'} 100% ${refsOf(rows)}.`);
  }
  const widest = [...rows].filter((r) => Number.isFinite(gapOf(r))).sort((a, b) => Math.abs(gapOf(b)) - Math.abs(gapOf(a)))[0];
  if (widest && Math.abs(gapOf(widest)) >= 5) {
    found.push(`- **Model against market:** **${outcomeOf(widest.outcome).name}**, model ${widest.model} against market ${widest.market}, gap ${widest.gap} ${outcomeOf(widest.outcome).refs}.`);
  }
  const week = /([+−-]\d+(?:\.\d+)?) pts over 7 days/;
  const moves = (claims ?? '').split('\n').filter((l) => l.startsWith('- **Price move, ') && Math.abs(Number((week.exec(l)?.[1] ?? '0').replace('−', '-'))) >= 5);
  found.push(...moves.map((l) => l.replace(/^- \*\*Price move, /, '- **Moved, ')));
  found.push(...(claims ?? '').split('\n').filter((l) => l.startsWith('- **Volume surge, ')));
  const wide = rows.filter((r) => /\bwide \$\d\.\d\d spread/.test(r.confidence));
  if (wide.length) found.push(`- **Wide spreads:** ${wide.map((r) => `${outcomeOf(r.outcome).name} (${/\$\d\.\d\d/.exec(r.confidence)![0]})`).join(', ')} ${refsOf(wide)}.`);
  if (!found.length) return `Nothing stands out in the report's pricing: ${exclusive ? 'the prices add up close to 100%, ' : ''}no gap between model and market reaches 5 points, and no price moved 5 points over the week or saw a volume surge.\n\n${rows.map(rowLine).join('\n')}`;
  return `What stands out in the pricing:\n\n${found.join('\n')}\n\nThe report reads prices, the order book and the series' record, not news, so it can say what is unusual, not why.`;
}

/** YES (or NO) bought on every rung of a ladder: "YES on all four rungs, what would it cost?", "100 NO on each strike". */
export const LADDER_BASKET = /\b(?:(\d[\d,]*)\s+)?(yes|no)\s+(?:contracts?\s+)?on\s+(?:all|every|each)(?:\s+(?:of\s+)?the)?(?:\s+(?:\w+|\d+))?\s+(?:rungs?|strikes?|levels?|lines?|contracts?|outcomes?|markets?)\b|\b(?:buy(?:ing)?|bought|get)\s+(?:(\d[\d,]*)\s+)?(yes|no)\s+on\s+(?:all|every|each)\b|\b(?:the\s+)?(?:whole|entire|full)\s+ladder\b/i;

/** "If it ends at 95k", "if btc lands at 101k", "at 97,500?": the level a basket is asked at. */
export const LADDER_SCENARIO = /\b(?:if|when|should)\b[^?]*\b(?:ends?|lands?|finish\w*|settles?|closes?|comes? in|is|prints?|goes (?:to|up to|down to)|hits?|at)\b|^\W*(?:(?:and|what about|how about)\s+)?(?:at\s+)?\$?\d[\d,.]*\s*k?\W*$/i;

/**
 * A basket of one side on every rung of a ladder: what it costs at the asks, and what it pays
 * wherever the result lands (a rung above it all pays one way, below it all the other), with its
 * expected payout on the market and, from a report, on the model. `level`: one result asked of it.
 */
export function ladderBasketText(rows: Row[], contracts: Map<string, Contract>, question: string, level: number | null): string | null {
  if (!isLadder(rows)) return null;
  const said = LADDER_BASKET.exec(question);
  if (!said) return null;
  const side: 'YES' | 'NO' = (said[2] ?? said[4] ?? 'yes').toUpperCase() === 'NO' ? 'NO' : 'YES';
  const n = Number((said[1] ?? said[3] ?? '1').replace(/,/g, '')) || 1;
  const rungs = rows
    .map((r) => {
      const { name, refs } = outcomeOf(r.outcome);
      const range = labelRange(name);
      const c = contracts.get(refs);
      const price = side === 'YES' ? dollars(c?.ask) : dollars(c?.bid);
      return { r, name, refs, level: (range?.from ?? range?.to)!, price: price === null ? null : side === 'YES' ? price : 1 - price };
    })
    .sort((a, b) => a.level - b.level);
  if (rungs.some((x) => x.price === null)) return null;
  const above = rungSide(labelRange(rungs[0]!.name)) === 'above';
  const cost = n * rungs.reduce((a, x) => a + x.price!, 0);
  // How many rungs pay when the result is at `v`: a YES "Above L" pays above L, a NO below it.
  const paying = (v: number) => rungs.filter((x) => (above ? v > x.level : v < x.level) === (side === 'YES')).length;
  const pnl = (x: number) => (x >= 0 ? `+$${money(x)}` : `−$${money(-x)}`);
  const of = (k: number) => `${k} rung${k === 1 ? '' : 's'} pay${k === 1 ? 's' : ''} $${money(n * k)}, ${pnl(n * k - cost)}`;
  const refs = rungs.map((x) => x.refs).join('');
  const head = `${n === 1 ? `One ${side}` : `${n.toLocaleString('en-US')} ${side}`} on each of the ${rungs.length} rungs costs **$${money(cost)}** at the ${side === 'YES' ? 'asks' : 'NO asks ($1 less each YES bid)'} ${refs}: ${rungs.map((x) => `${x.name} $${x.price!.toFixed(2)}`).join(', ')}.`;
  if (level !== null) {
    const k = paying(level);
    const result = `${rungs.some((x) => x.name.includes('$')) ? '$' : ''}${level.toLocaleString('en-US')}`;
    return `${head}\n\nIf the result is ${result}, ${k ? of(k) : `no rung pays: −$${money(cost)}`} before fees.`;
  }
  // Each band between two rungs, lowest first: the result there pays the rungs below it (YES on "Above") or above it.
  const levels = rungs.map((x) => x.level);
  const bands = [
    `below ${rungs[0]!.name.replace(/^(?:above|below)\s+/i, '')}`,
    ...levels.slice(0, -1).map((l, i) => `between ${rungs[i]!.name.replace(/^(?:above|below)\s+/i, '')} and ${rungs[i + 1]!.name.replace(/^(?:above|below)\s+/i, '')}`),
    `above ${rungs.at(-1)!.name.replace(/^(?:above|below)\s+/i, '')}`,
  ];
  const at = [levels[0]! - 1, ...levels.slice(0, -1).map((l, i) => (l + levels[i + 1]!) / 2), levels.at(-1)! + 1];
  const lines = bands.map((b, i) => {
    const k = paying(at[i]!);
    return `- ${b[0]!.toUpperCase()}${b.slice(1)}: ${k ? of(k) : `none pays, −$${money(cost)}`}`;
  });
  // Each rung pays $1 with its chance: the basket's expected payout is the sum of the chances of its side.
  const chance = (x: (typeof rungs)[number], p: number) => (side === 'YES' ? p : 100 - p) / 100;
  const market = n * rungs.reduce((a, x) => a + chance(x, x.r.marketValue), 0);
  const modelled = rungs.every((x) => Number.isFinite(x.r.modelValue));
  const model = modelled ? n * rungs.reduce((a, x) => a + chance(x, x.r.modelValue), 0) : null;
  const expected = `Expected payout $${money(market)} on the market's prices${model === null ? '' : `, $${money(model)} on the model (${pnl(model - cost)} against the cost)`}.`;
  return `${head}\n\n${lines.join('\n')}\n\n${expected} Not an arbitrage: every rung is a bet on the same figure, so the rungs win and lose together. Before fees, on the quotes shown, which move.`;
}

/**
 * Whether a position can be left before the end ("can I sell before it closes?"): yes, until trading
 * closes, YES at the best bid and NO at 1 minus the YES ask, each outcome's price now.
 */
export function sellBeforeText(rows: Row[], contracts: Map<string, Contract>, closes: string | null): string {
  const lines = rows.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    if (!c) return [];
    const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
    const yes = bid === null ? 'no one bids for YES now, so YES cannot be sold at once' : `YES sells at ${cents(bid)}`;
    const no = ask === null ? 'no YES is offered, so NO cannot be sold at once' : `NO at ${cents(1 - ask)}`;
    return [`- **${name}**: ${yes}; ${no} ${refs}`];
  });
  return `Yes: a contract can be sold at any time ${closes ? `until trading closes (${closes})` : 'before trading closes'}, to whoever bids for it, so you need not hold it to the result. A YES sells at the best YES bid; a NO at 1 minus the best YES ask. What selling fetches now:\n\n${lines.join('\n')}\n\nWhat you make or lose is the sale price less what you paid, before fees; a thin book may fill a large sale at worse prices.`;
}
