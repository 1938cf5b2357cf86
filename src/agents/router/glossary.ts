import type { Answer } from '../types.js';
import type { ReportRead } from './event-questions.js';
import { cited, dollars, isLadder, money, outcomeOf, percent, readReport, sumOf, type Row } from './report-rows.js';

// What prediction-market words mean ("what's an implied probability?", "what's a ladder market?",
// "what does 'normalised' mean in your reports?"), in plain words, each with an example worked on
// an event's own prices: the one discussed, else one from the board that shows the idea.

/** What an example needs of an event: several exclusive outcomes, or a ladder of levels. */
export type ExampleKind = 'exclusive' | 'ladder' | 'any';

export interface Term {
  name: string;
  words: RegExp;
  meaning: string;
  example: ExampleKind;
  /** The term worked on the event's figures; null when they do not show it. */
  worked: (e: Example) => string | null;
}

interface Example {
  title: string;
  rows: Row[];
  quote: (r: Row) => { bid: number | null; ask: number | null; volume: string; interest: string };
  refs: (r: Row) => string;
}

const name = (r: Row) => outcomeOf(r.outcome).name;
const cents = (x: number) => `${Math.round(x * 100)}¢`;
/** The outcome most traders look at first: the likeliest on the market with a two-sided quote. */
const lead = (e: Example) => [...e.rows].sort((a, b) => b.marketValue - a.marketValue).find((r) => e.quote(r).ask !== null && e.quote(r).bid !== null) ?? null;

const TERMS: Term[] = [
  {
    name: 'Prediction market',
    words: /\bprediction markets?\b|\bhow does (?:kalshi|it all|this) work\b|\bwhat is kalshi\b/i,
    meaning:
      'An exchange where people trade contracts on whether something will happen (a Fed decision, an inflation print, a game). Each contract pays $1 if its outcome happens and nothing if not, so its price, between 1¢ and 99¢, is what traders together pay for that chance: the crowd\'s probability. Kalshi is one such exchange, regulated in the US by the CFTC.',
    example: 'exclusive',
    worked: (e) => {
      const r = lead(e);
      return r ? `In **${e.title}** ${e.refs(r)}, YES on **${name(r)}** costs ${cents(e.quote(r).ask!)}: traders put its chance near ${percent(r.marketValue)}.` : null;
    },
  },
  {
    name: 'Contract (YES and NO)',
    words: /\b(?:event |kalshi |yes |no )?contracts?\b|\bhow (?:does|do) (?:it|they|a contract|contracts) pay\b|\bwhat (?:do|does) (?:yes|no) mean\b/i,
    meaning:
      'A contract is a yes/no claim on one outcome. A YES pays $1 if the outcome happens and $0 if it does not; a NO pays $1 if it does not. You buy at the ask (what sellers want) and can sell before the end at the bid (what buyers offer); what you can lose is what you paid.',
    example: 'exclusive',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const { bid, ask } = e.quote(r);
      return `In **${e.title}** ${e.refs(r)}, a YES on **${name(r)}** costs ${cents(ask!)} at the ask: it pays $1 if ${name(r)} is the result, a ${cents(1 - ask!)} profit, and the ${cents(ask!)} is lost otherwise. A NO costs ${cents(1 - bid!)} (1 less the YES bid) and pays $1 if it is not.`;
    },
  },
  {
    name: 'Implied probability',
    words: /\bimplied (?:probabilit(?:y|ies)|chances?|odds)\b|\bprice (?:as|is|means?) (?:a )?(?:probability|chance)\b/i,
    meaning:
      'A contract paying $1 that trades at 40¢ implies a 40% chance: the price in dollars read as a probability. svc reads it at the mid, halfway between the best bid and ask (or the last trade when one side is empty), since the ask alone overstates it by half the spread.',
    example: 'exclusive',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const { bid, ask } = e.quote(r);
      return `In **${e.title}** ${e.refs(r)}, **${name(r)}** has a bid of ${cents(bid!)} and an ask of ${cents(ask!)}: the mid, ${percent(r.marketValue)}, is its implied probability.`;
    },
  },
  {
    name: 'Ladder market',
    words: /\bladders?\b|\brungs?\b|\bstrikes?\b/i,
    meaning:
      'A ladder splits one figure (inflation, a price, a temperature) into contracts at several levels, each a yes/no of its own: "Above 2.8", "Above 3.0", and so on. They are nested: if the figure ends above 3.0 it is also above 2.8, so the higher rungs should cost less, and several can pay at once. The chance it lands between two rungs is the lower rung\'s price less the higher one\'s.',
    example: 'ladder',
    worked: (e) => {
      const rungs = e.rows.filter((r) => Number.isFinite(r.marketValue));
      if (rungs.length < 2) return null;
      const level = (r: Row) => name(r).replace(/^(?:above|below)\s+/i, '');
      // Two neighbouring rungs priced in order (the lower level's "Above" dearer): the band between them.
      const i = rungs.findIndex((r, k) => k + 1 < rungs.length && (/^above/i.test(name(r)) ? r.marketValue > rungs[k + 1]!.marketValue : r.marketValue < rungs[k + 1]!.marketValue));
      const band = i === -1 ? '' : ` So it lands between ${level(rungs[i]!)} and ${level(rungs[i + 1]!)} with a chance of about ${percent(Math.abs(rungs[i]!.marketValue - rungs[i + 1]!.marketValue))}.`;
      return `In **${e.title}** ${rungs.map(e.refs).join('')}: ${rungs.map((r) => `${name(r)} ${percent(r.marketValue)}`).join(', ')}.${band}`;
    },
  },
  {
    name: 'Buckets (mutually exclusive outcomes)',
    words: /\bbuckets?\b|\bmutually exclusive\b|\brange markets?\b/i,
    meaning:
      'Some events split the possible results into buckets ("$20M to $40M", "Above $80M") or names (hike, hold, cut): exactly one of them pays. Their prices should then add up to about 100%, and the chance of several buckets together ("above $40M") is their sum.',
    example: 'exclusive',
    worked: (e) => (e.rows.length > 1 ? `In **${e.title}** ${e.rows.map(e.refs).join('')}: ${e.rows.map((r) => `${name(r)} ${percent(r.marketValue)}`).join(', ')}; exactly one of them will pay.` : null),
  },
  {
    name: 'Normalised',
    words: /\bnormali[sz](?:e|ed|ing|ation)\b/i,
    meaning:
      'The mids of an event\'s exclusive outcomes usually add up to a little more than 100% (the overround). Normalised, each is divided by that total so they add up to exactly 100%: the market\'s probabilities with the exchange\'s edge taken out. svc compares its model with these, so that no gap is just the overround.',
    example: 'exclusive',
    worked: (e) => {
      const total = sumOf(e.rows, (r) => r.marketValue);
      const r = lead(e);
      return r && e.rows.length > 1 ? `In **${e.title}** ${e.rows.map(e.refs).join('')}, the ${e.rows.length} mids add up to ${percent(total)}, so **${name(r)}** at ${percent(r.marketValue)} is ${percent((100 * r.marketValue) / total)} normalised.` : null;
    },
  },
  {
    name: 'Overround (the vig)',
    words: /\bover-?round\b|\bvig(?:orish)?\b|\bjuice\b|\bhouse edge\b/i,
    meaning:
      'What the prices of an event\'s exclusive outcomes add up to beyond 100%: since exactly one pays $1, a full set bought at those prices costs more than it returns. It is the edge the exchange\'s market makers keep (bettors call it the vig or juice); a ladder\'s rungs are not exclusive, so they have none.',
    example: 'exclusive',
    worked: (e) => {
      const total = sumOf(e.rows, (r) => r.marketValue);
      const asks = e.rows.map((r) => e.quote(r).ask);
      const set = asks.every((a) => a !== null) ? ` YES on every outcome at the asks costs $${money(asks.reduce((a, x) => a! + x!, 0)!)} for a $1 payout.` : '';
      return e.rows.length > 1 ? `In **${e.title}** ${e.rows.map(e.refs).join('')}, the ${e.rows.length} mids add up to ${percent(total)}: an overround of ${(total - 100).toFixed(1)} points.${set}` : null;
    },
  },
  {
    name: 'Bid, ask, spread and mid',
    words: /\b(?:bid|ask|spread|mid(?:point)?)s?\b/i,
    meaning:
      'The bid is the most anyone will pay for a YES right now, the ask the least anyone will sell one for; you buy at the ask and sell at the bid. The spread is the gap between them, a cost of trading in and out; the mid, halfway, is the fairest single price.',
    example: 'any',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const { bid, ask } = e.quote(r);
      return `In **${e.title}** ${e.refs(r)}, **${name(r)}**: bid ${cents(bid!)}, ask ${cents(ask!)}, spread ${cents(ask! - bid!)}, mid ${percent(r.marketValue)}.`;
    },
  },
  {
    name: 'Volume and open interest',
    words: /\bvolume\b|\bopen interest\b|\bliquidity\b/i,
    meaning: 'Volume counts the contracts traded (over the market\'s life, or the last 24 hours); open interest counts those still held, not yet settled or sold back. Both show how much money stands behind a price.',
    example: 'any',
    worked: (e) => {
      const r = lead(e);
      return r ? `In **${e.title}** ${e.refs(r)}, **${name(r)}** has traded ${e.quote(r).volume} contracts, ${e.quote(r).interest} of them still open.` : null;
    },
  },
  {
    name: 'Model probability and the gap',
    words: /\bmodel probabilit(?:y|ies)\b|\bgaps?\b|\bedge\b|\bmispric\w*/i,
    meaning:
      'A report\'s model probability is svc\'s own estimate of each outcome: the market\'s price weighed against how the series\' past events resolved (how often the favourite won, how often each level paid). The gap is the model less the market\'s normalised chance, in points: a large gap says the model and the crowd disagree, not that either is right.',
    example: 'exclusive',
    worked: (e) => {
      const r = [...e.rows].filter((x) => Number.isFinite(x.modelValue)).sort((a, b) => Math.abs(b.modelValue - b.marketNormalised) - Math.abs(a.modelValue - a.marketNormalised))[0];
      return r ? `In the report on **${e.title}** ${e.refs(r)}, **${name(r)}**: market ${percent(r.marketNormalised)} normalised, model ${percent(r.modelValue)}, a gap of ${(r.modelValue - r.marketNormalised).toFixed(1)} points.` : null;
    },
  },
  {
    name: 'Expected value (EV)',
    words: /\bexpected value\b|\bev\b/i,
    meaning: 'What a contract is worth on average for each $1 it can pay: the chance you believe it happens, less the price you pay. A YES at 40¢ on an outcome you think is 50% likely has an EV of +10¢ per contract, before fees.',
    example: 'any',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const ask = e.quote(r).ask!;
      return `In **${e.title}** ${e.refs(r)}, YES on **${name(r)}** costs ${cents(ask)}: at the market's own ${percent(r.marketValue)} its EV is ${((r.marketValue / 100 - ask) * 100).toFixed(1)}¢ per contract, the half-spread you pay.`;
    },
  },
  {
    name: 'Kelly sizing',
    words: /\bkelly\b/i,
    meaning: 'A rule for how much of a bankroll to stake on a bet with an edge: for a contract at price c that you think wins with chance p, the fraction (p − c)/(1 − c). Many stake half of it, since a chance one believes is itself uncertain; with no edge (p ≤ c) it says stake nothing.',
    example: 'any',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const ask = e.quote(r).ask!;
      const p = Math.min(0.99, ask + 0.1);
      return `In **${e.title}** ${e.refs(r)}, YES on **${name(r)}** costs ${cents(ask)}; if you thought its chance were ${percent(p * 100)}, Kelly would stake (${p.toFixed(2)} − ${ask.toFixed(2)}) / (1 − ${ask.toFixed(2)}) = ${percent((100 * (p - ask)) / (1 - ask))} of the bankroll.`;
    },
  },
  {
    name: 'Arbitrage',
    words: /\barb(?:itrage)?s?\b|\brisk[- ]free\b/i,
    meaning: 'Positions that pay more than they cost whatever happens: for example NO on every exclusive outcome for less than the $1 each of all but one will pay. On a liquid exchange they are rare, small and brief, and fees usually take them.',
    example: 'exclusive',
    worked: () => null,
  },
  {
    name: 'American, decimal and fractional odds',
    words: /\bmoney ?line\b|\bamerican odds\b|\bdecimal odds\b|\bfractional odds\b/i,
    meaning: 'Other ways to write a chance p. Decimal odds are 1/p (the total return per $1). American odds are −100·p/(1 − p) for a favourite (what to stake to win $100) and +100·(1 − p)/p for an underdog (what $100 wins). Fractional odds are the decimal odds less the stake: 3/2 is 1.5 won per 1 staked.',
    example: 'any',
    worked: (e) => {
      const r = lead(e);
      if (!r) return null;
      const p = r.marketValue / 100;
      const american = p >= 0.5 ? `−${Math.round((100 * p) / (1 - p))}` : `+${Math.round((100 * (1 - p)) / p)}`;
      return `In **${e.title}** ${e.refs(r)}, **${name(r)}** at ${percent(r.marketValue)} is decimal ${(1 / p).toFixed(2)}, American ${american}.`;
    },
  },
  {
    name: 'Settlement (resolution)',
    words: /\bsettle(?:ment|s|d)?\b|\bresolution\b|\bresolves?\b/i,
    meaning: 'When the result is known, each contract settles: the winning side is paid $1 a contract and the other nothing. The contract\'s rules say which source decides (the Fed\'s statement, the BLS release, the official box score) and what happens in edge cases such as a delay or a tie.',
    example: 'any',
    worked: () => null,
  },
  {
    name: 'Basis point (bp)',
    words: /\bbasis points?\b|\bbps?\b/i,
    meaning:
      'A basis point is one hundredth of a percentage point: 1 bp = 0.01 percentage point, so 25 bps = 0.25 percentage point and 100 bps = 1 percentage point. Interest rates and their moves are quoted in them: a 25 bps hike takes a 4.50% rate to 4.75%.',
    example: 'any',
    worked: (e) => {
      const moves = e.rows.filter((r) => /\d+\s*bps\b/i.test(name(r)));
      if (!moves.length) return null;
      const said = moves.map((r) => {
        const [, beyond, n] = /(more than |over |at least |under |less than )?(\d+)\s*bps\b/i.exec(name(r))!;
        return `**${name(r)}** ${e.refs(r)} is a move of ${beyond ?? ''}${n} bps (${beyond ?? ''}${(Number(n) / 100).toFixed(2)} percentage point), priced at ${percent(r.marketValue)}`;
      });
      return `In **${e.title}**, ${said.join('; ')}.`;
    },
  },
];

/** A question asking what words mean, not what an event's figures are ("what's a ladder market?", "what does 'normalised' mean?", "how do prediction markets work?"). */
const DEFINITION = /^\W*(?:(?:so|ok|okay|and|but|also|then|hm+|sorry)\W+)*(?:(?:what(?:'s| is| are)|whats|wat(?:'s| is)?|define|explain|meaning of)\s+(?:an?\s+|the\s+(?:term|word)\s+)?['"“‘]?[a-z ()-]{2,40}['"”’]?\s*\??\s*$|what (?:does|do) ['"“‘]?[^?]{2,40}?['"”’]? (?:mean|stand for)\b|how (?:do|does) (?:prediction markets|kalshi|contracts?|event contracts?|(?:a |the )?ladders?(?: markets?)?|kelly|arbitrage) work\b|what(?:'s| is) (?:an? )?(?:kalshi |event )?contract\b)/i;

/** "What does 'normalised' mean in your reports?": a definition asked even in a thread on an event. */
const MEANING = /\bwhat (?:does|do) ['"“‘]?[^?]{2,40}?['"”’]? (?:mean|stand for)\b|\bdefine\b|\bmeaning of\b|\bwhat(?:'s| is) (?:an? )?(?:ladder|bucket|implied probability|overround|prediction market|basis point|bps?)\b|\bhow do prediction markets work\b/i;

/** Terms a definitional question asks about, in the order they are said; none when it asks for figures. */
export function termsAsked(question: string, inThread: boolean): Term[] {
  // Each sentence or clause on its own: "how do prediction markets work? what's an implied probability?".
  const clauses = question.split(/[?.!;]+|\band\b/i).map((c) => c.trim()).filter(Boolean);
  const asked = clauses.filter((c) => DEFINITION.test(c) && (!inThread || MEANING.test(c)));
  const found: Term[] = [];
  for (const c of asked) for (const t of TERMS) if (t.words.test(c) && !found.includes(t)) found.push(t);
  // "What is a kalshi contract and how does it pay?": the payout is the contract's.
  if (found.length === 0 && asked.length && /\bpay\b/i.test(question) && /\bcontract/i.test(question)) found.push(TERMS[1]!);
  return found;
}

/** "Give me an example from your data" after a definition: the same terms, with examples from more events. */
export const EXAMPLE_ASKED = /^\W*(?:(?:ok|so|and|can you|could you|pls|please)\W+)*(?:give|show)(?: me)? (?:an?|some|one more|another) examples?\b|^\W*(?:(?:ok|so|and)\W+)*(?:for )?(?:example|instance)s?\W*(?:pls|please)?\W*$|\bexample from (?:your|the) data\b/i;

/** The terms an earlier definition answer explained, by its bold headings. */
export function termsAnswered(answer: string): Term[] {
  return TERMS.filter((t) => answer.includes(`**${t.name}**: `));
}

/** What kind of event shows these terms best. */
export function exampleKind(terms: Term[]): ExampleKind {
  return terms.some((t) => t.example === 'ladder') ? 'ladder' : terms.some((t) => t.example === 'exclusive') ? 'exclusive' : 'any';
}

/** Whether an event's sheet can show an example of this kind. */
export function showsKind(sheet: ReportRead, kind: ExampleKind): boolean {
  const { rows } = readReport(sheet.text);
  if (kind === 'ladder') return isLadder(rows);
  if (kind === 'exclusive') return rows.length > 2 && !isLadder(rows) && /mutually exclusive|normalised/.test(sheet.text);
  return rows.length > 0;
}

/** Each term in plain words, then worked on the event's figures when there is one. */
export function glossaryAnswer(terms: Term[], sheet: ReportRead | null): Answer {
  const read = sheet ? readReport(sheet.text) : null;
  const example: Example | null =
    sheet && read
      ? {
          title: sheet.title.replace(/[*_]/g, ''),
          rows: read.rows,
          refs: (r) => outcomeOf(r.outcome).refs,
          quote: (r) => {
            const c = read.contracts.get(outcomeOf(r.outcome).refs);
            return { bid: dollars(c?.bid), ask: dollars(c?.ask), volume: c?.volume ?? '—', interest: c?.interest ?? '—' };
          },
        }
      : null;
  const parts = terms.map((t) => {
    const worked = example ? t.worked(example) : null;
    return `**${t.name}**: ${t.meaning}${worked ? `\n\n_Example:_ ${worked}` : ''}`;
  });
  const source = sheet ? `\n\n_Examples from ${sheet.unreported ? "Kalshi's live quotes" : 'the stored report'} on **${sheet.title.replace(/[*_]/g, '')}**, as of ${sheet.asOf.slice(0, 16).replace('T', ' ')} UTC._` : '';
  return cited(`${parts.join('\n\n')}${source}\n`, sheet?.citations ?? []);
}
