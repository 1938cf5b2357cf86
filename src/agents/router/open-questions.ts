import { bullets, dollars, gapOf, outcomeOf, percent, type Contract, type Row } from './report-rows.js';
import { rankedTrades, type Trade } from './trading-answers.js';

// Open questions of a report ("is this a safe bet?", "what stands out?", "how risky is buying
// hike?", "what's the smartest play here?"), answered from its facts rather than with the whole
// report again or a refusal: the risk of a position, what is notable, the trades the model values
// most per dollar. No advice: what the figures say, with their caveats.

/** How risky a position is ("how risky is buying hike?", "is this a safe bet?", "what's the risk on NO hold?"). */
const RISK_ASKED = /\b(?:risky|riskier|riskiest|dangerous)\b|\b(?:is|are)\b[^?]{0,40}\bsafe\b|\b(?:how|is (?:it|this|that)|are (?:they|these|those))\s+(?:\w+\s+){0,2}?(?:risky|safe|dangerous)\b|\b(?:safe|risky|sure|low[- ]risk|high[- ]risk)\s+(?:bet|buy|trade|play|thing|position)\b|\bwhat(?:'s| is|s| are) the risks?\b|\brisk(?:s|iness)? (?:of|on|in|with|buying|selling|betting)\b/i;
/** What is notable in the report ("what stands out?", "anything interesting?", "what's notable here?"). */
const STANDOUT_ASKED = /\bwhat(?:'s| is|s)? (?:stands? out|notable|interesting|worth (?:noting|knowing|watching)|unusual)\b|\bstands? out\b|\banything (?:interesting|notable|unusual|stand out|jump out)\b|\bwhat jumps out\b|\bhighlights?\b|\bkey (?:things|facts|observations)\b/i;
/** The play the model values most ("what's the smartest play here?", "best move?", "how would you play this?"). */
const SMARTEST_ASKED = /\b(?:smart(?:est)?|best|wisest|optimal|right|good) (?:play|move|way to play|strategy|approach)\b|\bhow (?:would|should|do) (?:you|i|we|one) play (?:this|it|that)\b|\bwhat would you do\b/i;

export type OpenQuestion = 'risk' | 'standout' | 'smartest';

/** Which open question of a report a question asks, if one. */
export function openAsked(question: string): OpenQuestion | null {
  if (SMARTEST_ASKED.test(question)) return 'smartest';
  if (RISK_ASKED.test(question)) return 'risk';
  // ("Does anything stand out in the pricing?" is of the prices' order: the anomalies.)
  if (STANDOUT_ASKED.test(question) && !/\b(?:pric\w*|odds|book|quotes?|ladder|rungs?|trading)\b/i.test(question)) return 'standout';
  return null;
}

const NO_ADVICE = "This is the model's arithmetic on the report's prices, not investment advice: prices move, and fees and the model's error are not counted.";
const cents = (x: number) => `$${x.toFixed(2)}`;
const signed = (x: number) => `${x < 0 ? '−' : '+'}$${Math.abs(x).toFixed(3)}`;

/** The trade on `r` of `side` at the report's quotes (YES at the ask, NO at 1 minus the bid). */
function tradeOn(r: Row, side: 'YES' | 'NO', contracts: Map<string, Contract>): Trade | null {
  return rankedTrades([r], contracts).find((t) => t.side === side) ?? null;
}

/**
 * The risk of a position: what it costs against its chance of losing on the model and the market,
 * the worst case, its spread, the time left and what could flip it. `named`: the outcome asked
 * about (else the model's best trade); `side`: the side said, YES when none.
 */
function riskText(rows: Row[], contracts: Map<string, Contract>, claims: string | undefined, named: Row | null, side: 'YES' | 'NO' | null): string | null {
  const best = rankedTrades(rows, contracts)[0];
  const trade = named ? tradeOn(named, side ?? 'YES', contracts) : best;
  if (!trade) return null;
  const r = trade.r;
  const { name, refs } = outcomeOf(r.outcome);
  const c = contracts.get(refs);
  const lose = (yes: number) => (trade.side === 'YES' ? 100 - yes : yes);
  const normalised = Math.abs(r.marketNormalised - r.marketValue) >= 0.05 ? `; ${percent(lose(r.marketNormalised))} on the price normalised with the other outcomes` : '';
  const model = Number.isFinite(r.modelValue) ? `**${percent(lose(r.modelValue))}** on the model, ` : '';
  const lead = named ? `The risk of **${trade.side} on ${name}**, from the report:\n\n` : `No contract is safe: each can lose all it costs. The one the model values most at the quotes is **${trade.side} on ${name}**; its risk:\n\n`;
  const lines = [
    `- **Price and chance of losing:** ${trade.side} on **${name}** costs ${cents(trade.paid)} and pays $1.00 if it resolves ${trade.side}; it loses if it resolves ${trade.side === 'YES' ? 'NO' : 'YES'}: ${model}**${percent(lose(r.marketValue))}** on the market's price (its YES at ${percent(r.marketValue)}${normalised}) ${refs}.`,
    `- **Worst case:** the whole ${cents(trade.paid)} a contract, 100% of the stake (before fees); the most it can make is ${cents(1 - trade.paid)} a contract. On the model the expected value is ${signed(trade.ev)} per $1 contract, ${trade.ev > 0 ? 'favoured' : 'not favoured'} on the model.`,
    ...(c && dollars(c.bid) !== null && dollars(c.ask) !== null ? [`- **Spread:** bid ${c.bid}, ask ${c.ask} (${c.spread}): selling back before the end gets the bid side, ${trade.side === 'YES' ? `${c.bid} now` : `1 minus the ask, ${cents(1 - dollars(c.ask)!)} now`}, so leaving early costs about the spread ${refs}.`] : c ? [`- **Spread:** no two-sided quote (bid ${c.bid}, ask ${c.ask}): getting out before the end may not be possible at a fair price ${refs}.`] : []),
    ...bullets(claims, /^- \*\*(?:Trading closes|Trading may close early)/),
    ...bullets(claims, /^- \*\*(?:Price move|Volume surge)/).filter((l) => l.includes(`, ${name}:**`)),
    ...bullets(claims, /^- \*\*Could flip/).map((l) => l.replace(/^- \*\*Could flip the outcome:\*\*/, '- **What could flip it (the rules):**')),
  ];
  return `${lead}${lines.join('\n')}\n\nThe model sees prices and the series' record, not news, so a chance of losing is an estimate either way. ${NO_ADVICE}`;
}

/** The market's side of a gap: the price normalised with the other outcomes when the gap is taken against it (the prices' sum is not 100%), the mid beside it. */
const marketAgainst = (r: Row) => (Math.abs(r.marketNormalised - r.marketValue) >= 0.05 ? `the market's ${percent(r.marketNormalised)} normalised (${percent(r.marketValue)} mid)` : `the market's ${r.market.replace(/ \(.*$/, '')}`);

/** What stands out: the largest gaps between model and market, the biggest moves, the ladder crossed or the overround, any arbitrage, a volume surge. */
function standoutText(text: string, rows: Row[], claims: string | undefined, past: { all: { label: string; day: number | null; week: number | null; now: number }[]; refs: string } | null): string | null {
  const lines: string[] = [];
  const gaps = rows.filter((r) => Number.isFinite(gapOf(r))).sort((a, b) => Math.abs(gapOf(b)) - Math.abs(gapOf(a))).slice(0, 2);
  if (gaps.length) lines.push(`- **Largest gaps, model vs market:** ${gaps.map((r) => `${outcomeOf(r.outcome).name}: model ${r.model} against ${marketAgainst(r)}, gap ${r.gap} ${outcomeOf(r.outcome).refs}`).join('; ')}.`);
  const moved = (over: 'day' | 'week') => (past?.all ?? []).filter((o) => o[over] !== null).sort((a, b) => Math.abs(b.now - b[over]!) - Math.abs(a.now - a[over]!))[0];
  const move = (o: { now: number }, then: number) => `${o.now >= then ? '+' : '−'}${Math.abs(o.now - then).toFixed(1)} pts`;
  const [week, day] = [moved('week'), moved('day')];
  if (week && past) lines.push(`- **Biggest move:** ${week.label}, ${week.week!.toFixed(1)}% a week ago to ${week.now.toFixed(1)}% now (${move(week, week.week!)})${day && Math.abs(day.now - day.day!) >= 0.05 ? `; over the last day ${day.label} (${move(day, day.day!)})` : ''} ${past.refs}.`);
  lines.push(...bullets(claims, /^- \*\*Volume surge/));
  const crossed = /^The market prices its strikes out of order: [^\n]+?(?= The model holds|$)/m.exec(text)?.[0];
  if (crossed) lines.push(`- **Crossed ladder:** ${crossed.replace(/^The market prices its strikes out of order: /, '')}`);
  const sum = /market prices add up to (\d+(?:\.\d+)?)%/.exec(text);
  if (sum && Math.abs(Number(sum[1]) - 100) >= 0.05) lines.push(`- **Overround:** the exclusive outcomes' prices add up to ${sum[1]}%, ${(Number(sum[1]) - 100).toFixed(1)} points ${Number(sum[1]) > 100 ? 'over' : 'under'} 100%${Number(sum[1]) > 100 ? ' (the spreads: buying every YES costs more than it can pay)' : ''}.`);
  const arb = /^\*\*Arbitrage on these quotes:\*\* ([^\n]+)/m.exec(text)?.[1];
  if (arb) lines.push(`- **Arbitrage:** ${arb.split(';')[0]!.replace(/\.$/, '')}.`);
  return lines.length ? `What stands out in the report:\n\n${lines.join('\n')}\n\nThe report reads prices, volumes, the series' record and the rules, not news.` : null;
}

/** The trades with the best expected value per dollar on the model, with the caveats; no advice. */
function smartestText(rows: Row[], contracts: Map<string, Contract>): string | null {
  const trades = rankedTrades(rows, contracts).filter((t) => t.paid > 0);
  if (!trades.length) return null;
  const perDollar = (t: Trade) => t.ev / t.paid;
  const good = trades.filter((t) => t.ev > 0).sort((a, b) => perDollar(b) - perDollar(a)).slice(0, 3);
  const said = (t: Trade) => `**${t.side} on ${outcomeOf(t.r.outcome).name}** at ${cents(t.paid)} against the model's ${percent(100 * t.chance)}: ${signed(t.ev)} per $1 contract, ${signed(perDollar(t))} per dollar staked ${outcomeOf(t.r.outcome).refs}`;
  const head = "I do not give investment advice, so there is no play I would call smartest; what the report's figures do say:";
  if (!good.length) return `${head} no contract has a positive expected value on the model at the quotes; the least unfavourable is ${said(trades[0]!)}.\n\n${NO_ADVICE}`;
  const caveats = "Caveats: the model's probabilities are estimates from prices and the series' record, not news; an edge of a cent or two a contract can vanish with fees; a cheap contract's value per dollar is large but it loses more often; the quotes are the report's and move.";
  return `${head} the positions with the best expected value per dollar on the model, at the report's quotes (YES at the ask, NO at 1 minus the bid):\n\n${good.map((t, i) => `${i + 1}. ${said(t)}`).join('\n')}\n\n${caveats} ${NO_ADVICE}`;
}

/** The answer to an open question of a report, from its facts; null when they do not hold one. */
export function openAnswer(kind: OpenQuestion, text: string, rows: Row[], contracts: Map<string, Contract>, claims: string | undefined, past: Parameters<typeof standoutText>[3], named: Row[], side: 'YES' | 'NO' | null): string | null {
  if (kind === 'risk') return named.length > 1 ? null : riskText(rows, contracts, claims, named[0] ?? null, side);
  if (kind === 'standout') return standoutText(text, rows, claims, past);
  return smartestText(rows, contracts);
}
