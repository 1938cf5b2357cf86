import { dollars, money, outcomeOf, percent, type Contract, type Row } from './report-rows.js';
import { POSITION_HELD, heldPosition } from './trading-answers.js';

// "I have 100 yes on hike, how do I hedge?", "hedge?": a position on one outcome offset on the
// report's quotes, by selling it, by buying its other side, or (of exclusive outcomes) by YES on the rest.

/** A hedge asked ("how do i hedge?", "hedge?", "can i offset my position"). */
export const HEDGE_ASKED = /\bhedg\w*|\boffset (?:it|this|that|my|the)\b/i;
/** A hedge said as a trade to work out ("if i hedge by also buying 100 NO, what do i lock in?"): that trade's arithmetic, not the ways to hedge. */
export const HEDGE_SAID = /\b(?:also|buy(?:ing)?|bought|lock\w*)\b/i;

/**
 * "Hold" as the verb of a position ("i hold 100 yes on hike", "we're holding 50 no") read as
 * "have", so that it names no outcome called "Hold".
 */
export const heldVerbFree = (text: string) =>
  text.replace(/\b(i|we)(?:'m|m|\s+am|'re|\s+are)?\s+((?:still|currently|already|just|now)\s+)?hold(?:ing)?\b(?=\s+(?:\d|(?:the\s+|a\s+)?(?:yes|no)\b))/gi, (_, who: string, adv?: string) => `${who} ${adv ?? ''}have`);

/**
 * A position said alone, with nothing asked of it ("i hold 100 yes on hike", "i have 50 no",
 * "we're long 200 no on the chiefs"): its count, side and what it is on (the words after "on", when said).
 */
const POSITION_ALONE = /^\W*(?:(?:ok|okay|so|and|well|fyi|btw|also|now|hey|right|alright)\W+)*(?:i|we)(?:'m|m|\s+am|'re|\s+are)?\s+(?:(?:already|currently|still|just|now)\s+)?(?:have|hold(?:ing)?|own|got|bought|long|short|in\s+for|sitting\s+on)\s+(\d[\d,]*)(?:\s+contracts?(?:\s+of)?)?(?:\s+(yes|no)\b)?(?:\s+contracts?)?(?:\s+(?:(?:on|of|in|for)\s+)?((?:[^?.!,;]|\.(?=\d)){1,40}?))?(?:\s+(?:rn|right now|now|atm|currently))?\W*$/i;

export function positionAlone(question: string): { count: number; side: 'YES' | 'NO'; on: string | null } | null {
  const m = POSITION_ALONE.exec(question.replace(/\s*\([^)]*\)/g, ' ').trim());
  // (A price paid, "on above 92k at 40c", makes it a position to mark at that price, not one said alone.)
  if (m?.[3] && /(?:\b(?:at|for|from|avg|paid)\s+\$?\.?\d|@)/i.test(m[3])) return null;
  if (!m) return null;
  // ("I'm long 300 chiefs": no side said, the verb gives it, long YES and short NO; other verbs need one.)
  const verb = /\b(long|short)\s+\d/i.exec(m[0])?.[1]?.toLowerCase();
  if (!m[2] && !verb) return null;
  if (verb === 'short' && m[2]) return null;
  const side = (m[2] ? m[2].toUpperCase() : verb === 'short' ? 'NO' : 'YES') as 'YES' | 'NO';
  return { count: Number(m[1]!.replace(/,/g, '')), side, on: m[3] ?? null };
}

/** How to hedge asked, not a hedge said ("how do i hedge?", "hedge?"). */
export const hedgeAsked = (question: string) => HEDGE_ASKED.test(question) && !HEDGE_SAID.test(question);

const usd = (x: number) => `$${money(x)}`;
const price = (x: number) => `$${x.toFixed(2)}`;

/**
 * The ways to hedge YES (or NO) on one outcome, `held` contracts of it (per contract when no count
 * is said), on the report's quotes: what each costs or brings in and what it leaves. Null when the
 * outcome has no contract in the snapshot.
 */
export function hedgeText(question: string, row: Row, rows: readonly Row[], contracts: Map<string, Contract>, exclusive: boolean): string | null {
  const { name, refs } = outcomeOf(row.outcome);
  const c = contracts.get(refs);
  if (!c) return null;
  const said = /\b(\d[\d,]*)\s+(?:[a-z]+\s+){0,2}?(yes|no)\b|\b(yes|no)\s+(?:contracts?\s+)?(?:on\s+)?/i.exec(question);
  // ("I'm long 300 chiefs", "short 200 hike": the side the verb gives, said alone.)
  const alone = positionAlone(question);
  const side = alone?.side ?? ((said?.[2] ?? said?.[3] ?? 'yes').toUpperCase() as 'YES' | 'NO');
  const n = alone?.count ?? (said?.[1] ? Number(said[1].replace(/,/g, '')) : 1);
  const [bid, ask] = [dollars(c.bid), dollars(c.ask)];
  const held = n === 1 ? `one ${side} contract` : `${n.toLocaleString('en-US')} ${side} contracts`;
  const lines: string[] = [];
  if (side === 'YES') {
    if (bid === null) lines.push(`- **Sell or buy NO**: there is no YES bid in the snapshot, so neither can be done at a quoted price now ${refs}.`);
    else {
      lines.push(`- **Sell ${n === 1 ? 'it' : 'them'}** at the YES bid, ${price(bid)}: ${usd(n * bid)} back now, and no exposure left ${refs}.`);
      lines.push(`- **Buy ${n === 1 ? 'one' : n.toLocaleString('en-US')} NO** at 1 minus the YES bid, ${price(1 - bid)}: ${usd(n * (1 - bid))}; each YES and NO pair then pays $1 whatever happens, so ${usd(n)} comes back at resolution. Held to the end this is the same as selling, ${usd(n * bid)} net, with the money tied up until then ${refs}.`);
    }
    if (exclusive && rows.length > 2) {
      const others = rows.filter((r) => r !== row);
      const asks = others.map((r) => dollars(contracts.get(outcomeOf(r.outcome).refs)?.ask));
      if (asks.every((a) => a !== null)) {
        const sum = asks.reduce<number>((s, a) => s + a!, 0);
        lines.push(`- **YES on every other outcome** at their asks, ${price(sum)} a set (${usd(n * sum)}): one of the outcomes wins, so a set and the YES held pay $1 together whatever happens; ${bid !== null && sum > 1 - bid ? `dearer than NO at ${price(1 - bid)}` : bid !== null && sum < 1 - bid ? `cheaper than NO at ${price(1 - bid)}` : 'about what NO costs'}.`);
      }
    }
  } else {
    if (ask === null) lines.push(`- **Sell or buy YES**: there is no YES ask in the snapshot, so neither can be done at a quoted price now ${refs}.`);
    else {
      lines.push(`- **Sell ${n === 1 ? 'it' : 'them'}** at the NO bid, 1 minus the YES ask, ${price(1 - ask)}: ${usd(n * (1 - ask))} back now, and no exposure left ${refs}.`);
      lines.push(`- **Buy ${n === 1 ? 'one' : n.toLocaleString('en-US')} YES** at the ask, ${price(ask)}: ${usd(n * ask)}; each YES and NO pair then pays $1 whatever happens, so ${usd(n)} comes back at resolution, the same as selling held to the end ${refs}.`);
    }
    // (Two exclusive sides, a game: NO on one is YES on the other, so NO on the other offsets it.)
    if (exclusive && rows.length === 2) {
      const other = rows.find((r) => r !== row)!;
      const o = outcomeOf(other.outcome);
      const oBid = dollars(contracts.get(o.refs)?.bid);
      const buy = oBid === null ? `there is no YES bid on **${o.name}** in the snapshot to buy its NO against` : `buying ${n === 1 ? 'one' : n.toLocaleString('en-US')} NO on **${o.name}** at 1 minus its YES bid, ${price(1 - oBid)} (${usd(n * (1 - oBid))}), offsets it: one of the two NO pays $1 whatever happens`;
      lines.push(`- **NO on ${name} is YES on ${o.name}**: with two outcomes one of which wins, the same position; ${buy} ${o.refs}.`);
    }
  }
  // ("I hold 100 yes on hike", said alone: where that position stands, before the ways to offset it.)
  let stands = '';
  if (alone) {
    const exit = side === 'YES' ? bid : ask === null ? null : Math.round((1 - ask) * 100) / 100;
    const chance = (p: number) => (side === 'YES' ? p : 100 - p);
    const model = Number.isFinite(row.modelValue) ? `a ${percent(chance(row.modelValue))} chance on the model (${percent(chance(row.marketValue))} on the market), so about ${usd((n * Math.round(chance(row.modelValue) * 100)) / 10000)} held to the end on the model` : `a ${percent(chance(row.marketValue))} chance on the market`;
    const sells = exit === null ? `nothing bids for ${side} now, so ${n === 1 ? 'it' : 'they'} cannot be sold at a quoted price` : `at the ${side} bid, ${price(exit)}, ${n === 1 ? 'it sells' : 'they sell'} for ${usd(n * exit)} now`;
    stands = `Your ${held} on **${name}**: ${sells}; ${n === 1 ? 'it pays' : 'they pay'} ${usd(n)} if it resolves ${side}, ${model} ${refs}.\n\n`;
  }
  const part = n > 1 ? ` A partial hedge is the same done on fewer contracts: each one offset removes a contract's risk and its upside.` : '';
  return `${stands}To hedge ${held} on **${name}** on the report's quotes:\n\n${lines.join('\n')}\n\nA full hedge gives up the position's upside with its risk: what is left is what the position is worth at the bid now, whatever it cost you.${part} Before fees; prices move after the report. Not investment advice.`;
}

/** The position held asked about, not named ("whats it worth now?", "should i sell?", "max loss?", "where am i?"). */
export const POSITION_ASKED = /\b(?:where am i|where i'?m at|am i (?:up|down|green|red|in the (?:money|green|red))|(?:what(?:'s| is| are)|whats|how much (?:is|are)) (?:it|my (?:position|contracts?|yes|no)|that|this|they|them|those) worth|worth (?:now|today|right now)|my (?:p&l|pnl|p\/l|position|max(?:imum)? loss|loss|profit|risk|downside)|p&l|pnl|p\/l|max(?:imum)? loss|worst[- ]case|(?:should|do) i (?:sell|close|exit|cash out|take (?:profits?|it))|cash out|take profits?|mark(?:ed)? to market|unreali[sz]ed)\b/i;

/**
 * A question about the position said earlier in the thread and not named again ("i hold 100 yes on
 * hike", then "whats it worth now?", "should i sell?", "max loss?"), with that position read back in
 * brackets; null when the question names its own position or none was said. `earlier`: newest first.
 */
export function withPositionSaid(question: string, earlier: readonly { role: 'user' | 'assistant'; content: string }[]): string | null {
  if (!POSITION_ASKED.test(question) || POSITION_HELD.test(question) || positionAlone(question) || /\b\d[\d,]*\s+(?:yes|no)\b/i.test(question)) return null;
  const said = earlier.filter((t) => t.role === 'user').slice(0, 6).map((t) => t.content).find((t) => positionAlone(t) !== null || heldPosition(t) !== null);
  return said ? `${question.replace(/[?.!\s]+$/, '')}? (${heldVerbFree(said).replace(/[?.!\s]+$/, '')})` : null;
}
