import { dollars, money, outcomeOf, type Contract, type Row } from './report-rows.js';

// "I have 100 yes on hike, how do I hedge?", "hedge?": a position on one outcome offset on the
// report's quotes, by selling it, by buying its other side, or (of exclusive outcomes) by YES on the rest.

/** A hedge asked ("how do i hedge?", "hedge?", "can i offset my position"). */
export const HEDGE_ASKED = /\bhedg\w*|\boffset (?:it|this|that|my|the)\b/i;
/** A hedge said as a trade to work out ("if i hedge by also buying 100 NO, what do i lock in?"): that trade's arithmetic, not the ways to hedge. */
export const HEDGE_SAID = /\b(?:also|buy(?:ing)?|bought|lock\w*)\b/i;

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
  const side = (said?.[2] ?? said?.[3] ?? 'yes').toUpperCase() as 'YES' | 'NO';
  const n = said?.[1] ? Number(said[1].replace(/,/g, '')) : 1;
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
  }
  const part = n > 1 ? ` A partial hedge is the same done on fewer contracts: each one offset removes a contract's risk and its upside.` : '';
  return `To hedge ${held} on **${name}** on the report's quotes:\n\n${lines.join('\n')}\n\nA full hedge gives up the position's upside with its risk: what is left is what the position is worth at the bid now, whatever it cost you.${part} Before fees; prices move after the report. Not investment advice.`;
}
