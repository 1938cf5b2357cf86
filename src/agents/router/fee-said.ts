import { rankedTrades, type Trade } from './trading-answers.js';
import { money, outcomeOf, percent, type Contract, type Row } from './report-rows.js';

// A fee the asker states ("and with fees of 1c?", "after a 2¢ commission per contract?"), asked of
// the trade just discussed: its expected value and Kelly fraction again, the fee added to the cost.
// Kalshi's own fee schedule is in nothing the report reads, so only a fee the asker says is used.

/** A fee per contract said in cents or dollars: "fees of 1c", "1¢ fee", "a fee of $0.02". */
const FEE_SAID =
  /\b(?:fees?|commissions?)\b[^?\d$]{0,25}(?:\$\s?(0?\.\d+)|(\d+(?:\.\d+)?)\s*(?:c|¢|cents?)\b)|(?:\$\s?(0?\.\d+)|\b(\d+(?:\.\d+)?)\s*(?:c|¢|cents?))\s*(?:a |per |each )?(?:contract\s*)?(?:in\s+)?(?:fees?|commissions?)\b/i;

/** The fee per contract, in dollars, a question states; null when it states none. */
export function feeSaid(question: string): number | null {
  const m = FEE_SAID.exec(question);
  if (!m) return null;
  const dollars = m[1] ?? m[3];
  const cents = m[2] ?? m[4];
  const fee = dollars !== undefined ? parseFloat(dollars) : cents !== undefined ? parseFloat(cents) / 100 : NaN;
  return Number.isFinite(fee) && fee > 0 && fee < 0.5 ? fee : null;
}

/** The trade an answer sized or valued ("**NO on Cut more than 25bps** at $0.68 against the model's 70.2%"), and the bankroll it said. */
function tradeBefore(answer: string): { side: 'YES' | 'NO'; name: string; bankroll: number | null } | null {
  const m = /\*\*(YES|NO) on ([^*\n]+)\*\* at \$\d+\.\d\d against the model's/.exec(answer);
  if (!m) return null;
  const bankroll = /\bOn \$([\d,]+(?:\.\d+)?):/.exec(answer)?.[1];
  return { side: m[1] as 'YES' | 'NO', name: m[2]!, bankroll: bankroll ? parseFloat(bankroll.replace(/,/g, '')) : null };
}

const cents = (x: number) => `${Math.round(x * 1000) / 10}¢`;
const signed = (x: number) => `${x >= 0 ? '+' : '−'}$${Math.abs(x).toFixed(3)}`;

/**
 * The trade of the answer before (or, failing one, the best on the model) with the fee said added
 * to its cost: c' = c + fee, expected value p − c', Kelly (p − c')/(1 − c'), and the fee at which
 * the edge is gone. Null when no fee is said or no trade is quoted.
 */
export function feeText(question: string, lastAnswer: string, rows: Row[], contracts: Map<string, Contract>): string | null {
  const fee = feeSaid(question);
  if (fee === null) return null;
  const before = tradeBefore(lastAnswer);
  const trades = rankedTrades(rows, contracts);
  const t: Trade | undefined = before ? trades.find((x) => x.side === before.side && outcomeOf(x.r.outcome).name === before.name) : trades[0];
  if (!t) return null;
  const cost = t.paid + fee;
  const ev = t.chance - cost;
  const name = `**${t.side} on ${outcomeOf(t.r.outcome).name}**`;
  const head = `With a fee of ${cents(fee)} a contract, ${name} costs $${cost.toFixed(cost * 100 === Math.round(cost * 100) ? 2 : 3)} ($${t.paid.toFixed(2)} + ${cents(fee)}) against the model's ${percent(100 * t.chance)}: expected value **${signed(ev)}** per $1 contract ${outcomeOf(t.r.outcome).refs}, against ${signed(t.ev)} before the fee.`.replace(/\s+\./, '.');
  const breakEven = t.ev > 0 ? ` The edge is gone at a fee of ${cents(t.ev)} a contract or more.` : '';
  let sizing: string;
  if (ev <= 0) sizing = ` On the model the Kelly criterion stakes nothing at that cost.${breakEven}`;
  else {
    const f = ev / (1 - cost);
    const bankroll = before?.bankroll ?? null;
    const inDollars = (share: number) => {
      const stake = bankroll! * share;
      const count = Math.floor(Math.round(stake * 1000) / Math.round(cost * 1000));
      return `$${money(stake)} (${count.toLocaleString('en-US')} contract${count === 1 ? '' : 's'} at $${cost.toFixed(cost * 100 === Math.round(cost * 100) ? 2 : 3)} with the fee)`;
    };
    const dollars = bankroll ? ` On $${money(bankroll)}: ${inDollars(f)} at full Kelly, ${inDollars(f / 2)} at half.` : '';
    sizing = ` The Kelly fraction, (p − c)/(1 − c) = (${percent(100 * t.chance)} − $${cost.toFixed(3).replace(/0$/, '')}) / (1 − $${cost.toFixed(3).replace(/0$/, '')}), is **${percent(100 * f)}** of the bankroll; half Kelly ${percent(50 * f)}.${dollars}${breakEven}`;
  }
  return `${head}${sizing}\n\nThe fee is the one you said, charged once per contract bought; Kalshi's own fee schedule is not in anything I read. This is the model's arithmetic on the report's prices, not investment advice.`;
}
