import { dollars, outcomeOf, percent, type Contract, type Row } from './report-rows.js';

// "And if I'm wrong?" right after a stake, a cost or an expected value: what the position loses if
// its outcome goes the other way, and how likely that is on the model and on the market.

/** The downside of the position just discussed asked ("and if i'm wrong?", "what if it goes the other way?", "worst case?"). */
export const WRONG_ASKED =
  /\b(?:if|when|what if|and if)\s+(?:i'?m|im|i am|i was|i'?ve been|we'?re|we are|that'?s|it'?s|the model'?s|the model is|you'?re|you are)\s+wrong\b|\bif (?:it|that|this) (?:goes|breaks|turns out) (?:the )?(?:other|wrong) way\b|\bif (?:it|that|this) (?:doesn'?t|does not|fails to) (?:hit|happen|come in|land|pay)\b|\bif (?:i|we|they|it|he|she) (?:lose|loses)\b|\bworst[- ]case\b|\bdownside\b|\bhow much (?:can|could|would|do|will) (?:i|we) lose\b|\bwhat (?:do|would|could|can) (?:i|we) lose\b|\bif (?:it|that|this|the (?:bet|trade|position))\s+(?:loses|fails|goes (?:against (?:me|us)|south|bad|wrong)|(?:doesn'?t|does not) work(?: out)?)\b|\bmax(?:imum)?\s+(?:loss|downside|i can lose)\b|\b(?:the )?most (?:i|we) (?:can|could|would|might) lose\b|\bworst (?:that|thing that) (?:can|could) happen\b|\bhow bad (?:can|could) it get\b/i;

const money = (x: number) => `$${x.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(x) ? 0 : 2, maximumFractionDigits: 2 })}`;
const num = (s: string) => Number(s.replace(/,/g, ''));

interface Position {
  side: 'YES' | 'NO';
  price: number;
  /** Stakes said: contracts and what they cost (one, or Kelly's full and half). */
  stakes: { label: string; count: number; cost: number; atLeast?: boolean }[];
}

/** The position an answer of the report's arithmetic was about: its side, price and stake(s). */
function positionOf(answer: string): Position | null {
  // "100 YES contracts at $0.52 cost $52", "$250 buys 641 YES contracts at $0.39 ($249.99)".
  const bought = /(\d[\d,]*) (YES|NO) contracts at \$(\d+(?:\.\d+)?) cost \$([\d,]+(?:\.\d+)?)/.exec(answer);
  if (bought) return { side: bought[2] as 'YES' | 'NO', price: Number(bought[3]), stakes: [{ label: '', count: num(bought[1]!), cost: num(bought[4]!) }] };
  const buys = /\$[\d,]+(?:\.\d+)? buys (\d[\d,]*) (YES|NO) contracts at \$(\d+(?:\.\d+)?) \(\$([\d,]+(?:\.\d+)?)\)/.exec(answer);
  if (buys) return { side: buys[2] as 'YES' | 'NO', price: Number(buys[3]), stakes: [{ label: '', count: num(buys[1]!), cost: num(buys[4]!) }] };
  // Kelly: "the trade to size is **NO on Hike 25bps** at $0.49 … On $5,000: $19.61 (40 contracts at $0.49) at full Kelly, $9.80 (20 contracts at $0.49) at half."
  const sized = /the trade to size is \*\*(YES|NO) on [^*\n]+\*\* at \$(\d+(?:\.\d+)?)/.exec(answer);
  if (sized) {
    // (Whole contracts: 205 at $0.58 cost $118.90, not the $119.05 of the bankroll's fraction; beyond the
    // best ask's size the rest fill at worse prices, so they cost at least that.)
    const stakes = [...answer.matchAll(/\$[\d,]+(?:\.\d+)? \((\d[\d,]*) contracts at \$\d+(?:\.\d+)?([^)]*)\) at (?:a )?(full Kelly|half|quarter)/g)].map((m) => ({
      label: m[3] === 'full Kelly' ? 'at full Kelly' : `at ${m[3]} Kelly`,
      count: num(m[1]!),
      cost: Math.round(num(m[1]!) * Number(sized[2]) * 100) / 100,
      atLeast: /\bonly\b/.test(m[2]!),
    }));
    return { side: sized[1] as 'YES' | 'NO', price: Number(sized[2]), stakes };
  }
  // A position's risk: "NO on **Hold** costs $0.86 and pays $1.00 …".
  const risk = /\b(YES|NO) on \*\*[^*\n]+\*\* costs \$(\d+(?:\.\d+)?) and pays/.exec(answer);
  if (risk) return { side: risk[1] as 'YES' | 'NO', price: Number(risk[2]), stakes: [] };
  // An expected value alone: "Buying YES at $0.52 against the model's 50.8%".
  const valued = /\bBuying (YES|NO) at \$(\d+(?:\.\d+)?) against /.exec(answer);
  if (valued) return { side: valued[1] as 'YES' | 'NO', price: Number(valued[2]), stakes: [] };
  return null;
}

/** The outcome an answer's position is on: its trade ("**NO on Hold**"), else the one outcome it names in bold. */
function outcomeIn(answer: string, rows: readonly Row[]): Row | null {
  const name = (r: Row) => outcomeOf(r.outcome).name;
  const traded = /\*\*(?:YES|NO) on ([^*\n]+)\*\*/.exec(answer)?.[1];
  if (traded) return rows.find((r) => name(r) === traded || traded.startsWith(`${name(r)} (`)) ?? null;
  const bold = rows.filter((r) => answer.includes(`**${name(r)}**`));
  return bold.length === 1 ? bold[0]! : null;
}

/**
 * What the position of the answer before loses if its outcome goes the other way: the stake, all of
 * it (fees not counted: none is read), and the chance of that on the model and on the market's price.
 * Null when that answer held no position of this report's outcomes.
 */
export function ifWrongText(lastAnswer: string, rows: readonly Row[]): string | null {
  const position = positionOf(lastAnswer);
  const row = position ? outcomeIn(lastAnswer, rows) : null;
  if (!position || !row) return null;
  const { name, refs } = outcomeOf(row.outcome);
  const losing = position.side === 'YES' ? 'NO' : 'YES';
  // The chance the position loses: of the other side of its outcome.
  const lose = (yes: number) => (position.side === 'YES' ? 100 - yes : yes);
  const normalised = Math.abs(row.marketNormalised - row.marketValue) >= 0.05 ? `; ${percent(lose(row.marketNormalised))} on the price normalised with the other outcomes` : '';
  const model = Number.isFinite(row.modelValue) ? `**${percent(lose(row.modelValue))}** on the model (${position.side === 'YES' ? `100% − its ${percent(row.modelValue)}` : `its ${percent(row.modelValue)} for YES`}) and ` : '';
  const market = `**${percent(lose(row.marketValue))}** on the market's price (${position.side === 'YES' ? `100% − ${percent(row.marketValue)}` : `its ${percent(row.marketValue)} for YES`}${normalised})`;
  const contract = `${position.side} contract${position.stakes.length === 1 && position.stakes[0]!.count === 1 ? '' : 's'}`;
  const stakes = position.stakes.length
    ? position.stakes.map((s) => `${s.label ? `${s.label}, ` : ''}${s.count.toLocaleString('en-US')} ${position.side} contracts at $${position.price.toFixed(2)}: you lose the **${s.atLeast ? 'at least ' : ''}${money(s.cost)}** they cost${s.atLeast ? ' (those beyond the best ask fill at worse prices)' : ''}, and they pay nothing; had it gone your way they would pay ${money(s.count)} (${money(s.count - s.cost)} more than they cost)`)
    : [`each ${position.side} contract bought at $${position.price.toFixed(2)} loses the **$${position.price.toFixed(2)}** it cost; had it gone your way it would pay $1.00`];
  const lines = stakes.length > 1 ? `\n\n${stakes.map((s) => `- ${s.charAt(0).toUpperCase()}${s.slice(1)}.`).join('\n')}` : ` ${stakes[0]!.charAt(0).toUpperCase()}${stakes[0]!.slice(1)}.`;
  return `If **${name}** resolves ${losing}, the ${contract} on it are worth nothing at settlement.${lines}\n\nThat is the whole stake and the most the position can lose; Kalshi's fee is not in what I read, so it is not counted and would add to the loss. The chance of losing it: ${model}${market} ${refs}.\n\nThis is arithmetic on the report's prices, not investment advice.`;
}

/**
 * The worst case asked with no position named in the thread: one contract of each side of each
 * outcome, what it costs (all it can lose) and how likely losing is on the model, as a short table.
 */
export function worstCaseTable(rows: readonly Row[], contracts: Map<string, Contract>): string | null {
  const lines = rows.flatMap((r) => {
    const { name, refs } = outcomeOf(r.outcome);
    const c = contracts.get(refs);
    const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
    if (bid === null && ask === null) return [];
    const model = Number.isFinite(r.modelValue);
    const yes = ask === null ? '— (no ask)' : `$${ask.toFixed(2)}${model ? `; loses on NO, ${percent(100 - r.modelValue)}` : ''}`;
    const no = bid === null ? '— (no bid)' : `$${(1 - bid).toFixed(2)}${model ? `; loses on YES, ${percent(r.modelValue)}` : ''}`;
    return [`| ${name} ${refs} | ${yes} | ${no} |`];
  });
  if (!lines.length) return null;
  const unquoted = rows.length - lines.length;
  return `No position is named in this thread, so here is the worst case of buying one contract of each side: it loses all it cost if its outcome goes the other way${rows.some((r) => Number.isFinite(r.modelValue)) ? ', with the chance of that on the model' : ''}. Say a position ("100 NO on ${outcomeOf(rows[0]!.outcome).name}", or a Kelly stake) for its own.\n\n| Outcome | YES: cost, the most it can lose | NO: cost (1 − bid), the most it can lose |\n|---|---|---|\n${lines.join('\n')}${unquoted ? `\n\n${unquoted} outcome${unquoted === 1 ? ' has' : 's have'} no quotes to buy at.` : ''}\n\nBefore fees, which are not in what I read and would add to a loss. This is arithmetic on the report's prices, not investment advice.`;
}
