import { inLabelScale, inRange, labelRange, levelsAsked } from '../markets-search/asked.js';
import { positionAlone } from './hedge.js';
import { heldPosition } from './trading-answers.js';
import { dollars, labelLevels, money, outcomeOf, type Contract, type Row } from './report-rows.js';

// "I hold 100 yes on above 92k", then "what would i make if it settles at 95k?", "and if it drops
// to 90k?": the position said in the thread, settled at that level: which way its outcome resolves
// and what the position pays, against what it costs or sells for now.

/** A level the event is supposed to end at ("if it settles at 95k", "and if it drops to 90k?", "say it comes in at 3.1%"). */
const SETTLES_AT = /\b(?:if|when|say|suppose|assuming)\b[^?]{0,30}?\b(?:settles?|settled|ends?|ended|ending|closes?|closed|finish(?:es|ed)?|lands?|landed|opens?|opened|debuts?|debuted|gross(?:es|ed)?|earns?|earned|pulls? in|pulled in|takes? in|took in|ends? up|ended up|comes? in|came in|drops?|dropped|falls?|fell|goes|went|rises?|rose|hits?|prints?|printed|reads?|gets? to|stays?|is)\s+(?:at|to|on|around|near|exactly)?\s*\$?\d/i;

/** Whether a question supposes where the event ends ("what if it prints 180k?"): a level said alone after it is that supposition again. */
export const supposesSettlement = (question: string) => SETTLES_AT.test(question);

/** A level said alone ("and 240k?", "what about 3.1%?", "or 9.8"). */
const LEVEL_ONLY = /^\W*(?:(?:and|ok|so|or|what about|how about)\W+)*(?:at\s+)?\$?\d[\d,]*(?:\.\d+)?\s*(?:k|m|million|%|°f?|degrees)?\W*$/i;

/** A side supposed to win or lose ("what if they lose?", "and if the celtics win?"), of a position held. */
const WIN_LOSE = /\b(?:if|when|say|suppose|assuming)\s+(?:the\s+)?([a-z.' ]{1,25}?)\s+(wins?|won|loses?|lost|happens?|happened|hits|(?:doesn'?t|does not|didn'?t|did not) happen|misses|missed)\b(?!\s+(?:at\s+|to\s+)?\$?\d)/i;

/** The position the thread said (newest first), on one of `rows`: its side, count and price paid (when said), and its outcome. */
function positionSaid(users: readonly string[], rows: Row[], names: (text: string) => Row[]): { row: Row; side: 'YES' | 'NO'; count: number; paid: number | null } | null {
  for (const text of users) {
    const alone = positionAlone(text);
    const held = alone ? null : heldPosition(text);
    if (!alone && !held) continue;
    const named = names(text);
    const row = named.length === 1 ? named[0]! : rows.length === 1 ? rows[0]! : null;
    if (!row) return null;
    return alone ? { row, side: alone.side, count: alone.count, paid: null } : { row, side: held!.side, count: held!.count ?? 1, paid: held!.paid };
  }
  return null;
}

/**
 * The held position settled at the level the question supposes, or null when the question supposes
 * no level, the thread said no position, or its outcome is no range of levels.
 */
export function settledText(question: string, earlierUsers: readonly string[], rows: Row[], contracts: Map<string, Contract>, names: (text: string) => Row[]): string | null {
  const won = WIN_LOSE.exec(question);
  // ("And 240k?" right after "what if it prints 180k?": that supposition again, at the level said now.)
  // (Back past other such turns: "and 240k?", then "and 100k?".)
  const supposed = earlierUsers.find((t) => !LEVEL_ONLY.test(t));
  const again = !won && LEVEL_ONLY.test(question) && supposed !== undefined && SETTLES_AT.test(supposed);
  if (!SETTLES_AT.test(question) && !won && !again) return null;
  // (The question's own position first: "if i hold 100 yes on above 92k and it settles at 95k".)
  const pos = positionSaid([question, ...earlierUsers], rows, names);
  if (!pos) return null;
  const { name, refs } = outcomeOf(pos.row.outcome);
  let yes: boolean;
  let shown: string;
  if (won) {
    // "What if they lose?": the position's own outcome; "what if the celtics win?": another, which of two exclusive sides decides it.
    const wins = /^(?:w|happ|hits)/i.test(won[2]!);
    const verb = /^(?:happ|hits|d|misse)/i.test(won[2]!) ? (wins ? 'happens' : 'does not happen') : wins ? 'wins' : 'loses';
    const subject = won[1]!.trim();
    const said = /^(?:they|it|he|she|we|that|this)$/i.test(subject) ? [pos.row] : names(subject);
    if (said.length !== 1) return null;
    if (said[0] === pos.row) yes = wins;
    else if (rows.length === 2 && wins) yes = false;
    else if (rows.length === 2) yes = true;
    else if (wins) yes = false;
    else return null;
    shown = `If **${outcomeOf(said[0]!.outcome).name}** ${verb}`;
  } else {
    const asked = levelsAsked(question);
    const levels = asked.map((l) => l.value);
    const bare = /\b(?:at|to|on|around|near|exactly)\s+\$?(\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*(?:k|m|b|%|°|c\b|¢|cents?))/i.exec(question);
    // ("And 54?" after "what if it hits 58?": the number alone.)
    const alone = again ? /(\d[\d,]*(?:\.\d+)?)/.exec(question) : null;
    const said = levels.length === 1 ? levels[0]! : !levels.length && bare ? Number(bare[1]!.replace(/,/g, '')) : !levels.length && alone ? Number(alone[1]!.replace(/,/g, '')) : null;
    if (said === null) return null;
    const range = labelRange(name);
    if (!range) return null;
    // ("10.4 million" of rungs labelled "Above 10.0": the level in the labels' own scale.)
    const level = inLabelScale(said, labelLevels(rows));
    yes = inRange(range, level);
    // (A size said without a dollar sign stays so, unless the labels are in dollars: "180k" of payrolls is no $180,000.)
    shown = `At ${level === said && asked.length === 1 ? asked[0]!.said.replace(/^\$/, question.includes('$') || name.includes('$') ? '$' : '') : level.toLocaleString('en-US', { maximumFractionDigits: 4 })}`;
  }
  const wins = (pos.side === 'YES') === yes;
  const n = pos.count;
  const held = `${n.toLocaleString('en-US')} ${pos.side} contract${n === 1 ? '' : 's'}`;
  const c = contracts.get(refs);
  const [bid, ask] = [dollars(c?.bid), dollars(c?.ask)];
  // What the side held costs at the quotes now, and what it sells for (YES: the ask and the bid; NO: 1 minus the bid and 1 minus the ask).
  const buyNow = pos.side === 'YES' ? ask : bid === null ? null : Math.round((1 - bid) * 100) / 100;
  const sellNow = pos.side === 'YES' ? bid : ask === null ? null : Math.round((1 - ask) * 100) / 100;
  const payout = wins ? n : 0;
  const usd = (x: number) => `$${money(x)}`;
  const lines = [`${shown}, **${name}** resolves **${yes ? 'YES' : 'NO'}**, so your ${held} ${wins ? `pay ${usd(payout)} ($1 each)` : 'pay nothing'} ${refs}.`];
  if (pos.paid !== null) {
    const cost = (n * Math.round(pos.paid * 100)) / 100;
    lines.push(`Bought at $${pos.paid.toFixed(2)} (${usd(cost)}), that is ${payout - cost >= 0 ? `a profit of ${usd(payout - cost)}` : `a loss of ${usd(cost - payout)}`}.`);
  } else {
    const bought = buyNow === null ? '' : `Bought now at $${buyNow.toFixed(2)} (${usd((n * Math.round(buyNow * 100)) / 100)}), that would be ${wins ? `a profit of ${usd(payout - (n * Math.round(buyNow * 100)) / 100)}` : `a loss of all ${usd((n * Math.round(buyNow * 100)) / 100)}`}; `;
    const sold = sellNow === null ? '' : `against selling them now at $${sellNow.toFixed(2)} (${usd((n * Math.round(sellNow * 100)) / 100)}), holding ${wins ? `brings ${usd(payout - (n * Math.round(sellNow * 100)) / 100)} more` : `loses those ${usd((n * Math.round(sellNow * 100)) / 100)}`}`;
    lines.push(`${wins ? 'What you make is that less what you paid' : 'You lose what you paid for them'}, which you have not said. ${bought}${sold}${bought || sold ? '.' : ''}`.trim());
  }
  lines.push(won ? 'Before fees; how it resolves is as the contract rules state. Not investment advice.' : 'Before fees; the level decides it as the contract rules state (how it resolves at exactly a strike is in its rules). Not investment advice.');
  return lines.join(' ');
}
