import type { KalshiClient } from '../../data/kalshi/client.js';
import { SCALE, formatPercent } from '../../data/kalshi/numbers.js';
import type { KalshiEvent, KalshiMarket } from '../../data/kalshi/types.js';
import { quoteOf, withTeam } from '../prediction-markets/research.js';
import { withTeamNames } from './teams.js';
import { crossedNote, eventPage, priceLine } from '../prediction-markets/summary.js';
import { listed, quoteCaller, utcMinute as utc } from '../citations.js';
import type { Agent, AgentEvent, Citation } from '../types.js';
import { LIST_ASKED, LIST_WORDS, WILL_IT, withOutcomeSynonyms, atLevel, byStrike, compactDollars, contestSubject, countSide, inLabelScale, rangeAsked, coverOfSide, isCount, levelOf, levelsAsked, negated, rangeOfMarket, settlesAt, sideAsked, sideIncludesLevel, sideOf, whenAsked, type AskedLevel, type AskedWhen } from './asked.js';
import type { OpenEventsIndex } from './index.js';
import { EventSearch, fold, words, type IndexedEvent } from './search.js';
import { EXPECTED_ASKED, ODDS_FORMAT_ASKED, PAYOUT_ASKED, aboutLevel, americanOdds, decimalOdds, fractionalOdds, expectedLevel, expectedMove, ladderMedian } from './distribution.js';

export const SEARCH_AGENT_ID = 'svc-markets-search-agent';

/** "3 credits", "1 credit": what a generated report costs. */
export const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;


/** A search's answer: its text and sources, and the tickers of the events it shows, in order. */
export interface Found {
  text: string;
  citations: Citation[];
  found: string[];
}

/** Whether it happens, asked of one yes/no contract ("will the government shut down?", "is a new model going to be released?"). */
const WILL_IT_HAPPEN = new RegExp(`${WILL_IT.source}|\\b(?:how likely|likely to|chances? (?:of|that))\\b`, 'i');
/** Who leads among exclusive outcomes ("who's the fav?", "which is favoured?"). */
const UNDERDOG_ASKED = /\b(?:underdogs?|dogs?|long ?shots?|least likely)\b/i;
const FAVOURITE_ASKED = /\b(?:fav|fave|favou?rite|favou?red|front-?runner|who(?:'s| is) (?:winning|ahead|leading)|(?:most|more) likely|likeliest|who (?:u|you|ya|do you|do u) (?:got|like|have|pick|taking)|who(?:'s| is) your pick|your pick)\b/i;

/** What exclusive outcomes' prices add up to, or those prices scaled to 100% ("normalised?", "overround?"). */
const SUM_WORDS = /\b(?:normali[sz]e[ds]?|over-?round|vig(?:orish)?|add(?:s)? up|sum of (?:the )?(?:prices|probabilities|odds)|(?:prices|probabilities|odds) (?:add|sum) up)\b/i;
/** Every outcome's price added up; not "the sum of the probabilities above 150k", which adds up those beyond a level. */
const SUM_ASKED = { test: (text: string) => SUM_WORDS.test(text) && !levelsAsked(text.replace(/\d+(?:\.\d+)?\s*%/g, ' ')).length };

/** Finds open Kalshi events for a question and answers with their current prices and links. */
export async function searchMarkets(
  client: KalshiClient,
  index: OpenEventsIndex,
  query: string,
  options: {
    /** Credits a generated report costs (SVC_REPORT_COST_CREDITS), said in the answer's footer. */
    reportCost: number;
    limit?: number;
    /** The earlier question a follow-up continues. */
    context?: string;
  },
): Promise<Found> {
  const search = await index.get();
  const limit = options.limit ?? 5;
  // "Which Kalshi events do you have?": every open event, not a search for "have".
  if (LIST_ASKED.test(query) && EventSearch.terms(query).every((t) => LIST_WORDS.has(t.word))) {
    const all = search.everyEvent(options.limit ?? 20);
    const more = search.size > all.length ? ` (the first ${all.length} of ${search.size}; ask about a topic for the others)` : '';
    return listEvents(client, all, `Open Kalshi events${more}, soonest to settle first, with current prices (as of ${utc(client.now())}):`, query, options);
  }
  let hits = search.search(query, limit, options.context);
  // A follow-up without a topic of its own ("and of a hold?") is searched together with the question it continues.
  if (!hits.length && options.context) hits = search.search(`${options.context} ${query}`, limit);
  // Nor with it ("convert that to moneyline odds" after Lakers vs Celtics): the events the question before found, said so.
  let before = false;
  if (!hits.length && options.context && !whenAsked(query, client.now().getTime())) {
    hits = search.search(options.context, limit);
    before = hits.length > 0;
  }
  // No topic, only a time ("what markets close this week?"): the events settling then, soonest first.
  const window = !hits.length && !EventSearch.terms(query).length ? whenAsked(query, client.now().getTime()) : null;
  if (window) return settlingThen(client, search, window, query, { ...options, limit: options.limit ?? 8 });
  if (!hits.length) {
    return {
      text: `No open Kalshi event matches “${quoteCaller(query.trim())}”. Try the topic's key words (for example “Fed decision December”, “Bitcoin price”, “CPI”, “NYC temperature”), or paste an event's address from kalshi.com for a report.\n`,
      citations: [],
      found: [],
    };
  }
  const citations: Citation[] = [];
  // Prices are read fresh for the matches only.
  const fetched = await Promise.all(hits.map((h) => client.event(h.entry.event.event_ticker).catch(() => null)));
  const when = whenAsked(query, client.now().getTime());
  const found = hits.map((hit, i) => {
    const event = fetched[i] ?? hit.entry.event;
    const at = settlesAt(event);
    return { hit, event, unread: fetched[i] === null, fits: !when || (at !== null && at >= when.from && at < when.to) };
  });
  // Events that settle when the question asks come first; the others stay, said to be another date.
  const ranked = [...found].sort((a, b) => Number(b.fits) - Number(a.fits));
  // Words no event shown matches, in its title or its outcomes ("cut" is an outcome of the Fed
  // decision), are said, so that near misses are not taken for the event asked about.
  const outcomeWords = new Set(ranked.flatMap(({ event }) => (event.markets ?? []).flatMap((m) => words(`${m.yes_sub_title ?? ''} ${m.title ?? ''}`))));
  // (Ordinary words no event has, "will bitcoin keep climbing?", name nothing missing.)
  const unmatched = hits[0]!.missing.filter((w) => hits.every((h) => h.missing.includes(w)) && !outcomeWords.has(fold(w)) && search.namesSomething(w, query));
  const misses = [
    ...(unmatched.length ? [`none mentions ${unmatched.map((w) => `“${quoteCaller(w)}”`).join(' or ')}`] : []),
    ...(when && !ranked.some((r) => r.fits) ? [`none settles ${when.said}`] : []),
  ];
  const heading = before
    ? `No open Kalshi event matches “${quoteCaller(query.trim())}” on its own; the events of the question before (“${quoteCaller(options.context!.trim())}”), with current prices (as of ${utc(client.now())}):`
    : misses.length
    ? `No open Kalshi event matches all of “${quoteCaller(query.trim())}”: ${misses.join(', and ')}. The closest, with current prices (as of ${utc(client.now())}):`
    : `Open Kalshi events matching “${quoteCaller(query.trim())}”, with current prices (as of ${utc(client.now())}):`;
  const asked = askedOf(query);
  const lines = [heading, ''];
  ranked.forEach(({ hit, event, fits, unread }, i) => {
    const n = citations.length + 1;
    citations.push({ order: n, name: `Kalshi: ${event.title}`, url: eventPage(event, hit.entry.seriesTitle) });
    lines.push(`${i + 1}. ${eventLine(event, hit.entry.category, n, asked, fits ? null : when, unread, ranked.length === 1)}`);
  });
  lines.push(
    '',
    `Prices are the mid of the best bid and ask (or the last trade), read as probabilities. For a research report with the model probability of each outcome, send an event address to \`svc-prediction-markets-agent\` (${credits(options.reportCost)}), or to \`svc-prediction-markets-agent:cache\` for a stored report (free).`,
  );
  return { text: `${lines.join('\n')}\n`, citations, found: ranked.map(({ event }) => event.event_ticker) };
}

/** The open events settling in the window a question names, soonest first, with their prices. */
async function settlingThen(client: KalshiClient, search: EventSearch, window: AskedWhen, query: string, options: { reportCost: number; limit: number }): Promise<Found> {
  const from = Math.max(window.from, client.now().getTime());
  const due = search.settlingBetween(from, window.to, options.limit);
  if (!due.length) {
    return { text: `No open Kalshi event settles ${window.said}, as far as their listed dates tell (as of ${utc(client.now())}). Ask about a topic (for example “Fed decision December”, “Bitcoin price”), or a later time.\n`, citations: [], found: [] };
  }
  return listEvents(client, due, `Open Kalshi events settling ${window.said}, soonest first, with current prices (as of ${utc(client.now())}):`, query, options);
}

/** Events listed under a heading, each with its current prices, read fresh, and its page cited. */
async function listEvents(client: KalshiClient, entries: IndexedEvent[], heading: string, query: string, options: { reportCost: number }): Promise<Found> {
  const fetched = await Promise.all(entries.map((x) => client.event(x.event.event_ticker).catch(() => null)));
  const citations: Citation[] = [];
  const asked: Asked = { levels: [], side: null, not: false, inclusive: false, text: query };
  const lines = [heading, ''];
  entries.forEach((x, i) => {
    const event = fetched[i] ?? x.event;
    citations.push({ order: i + 1, name: `Kalshi: ${event.title}`, url: eventPage(event, x.seriesTitle) });
    lines.push(`${i + 1}. ${eventLine(event, x.category, i + 1, asked, null, fetched[i] === null)}`);
  });
  lines.push('', `Prices are the mid of the best bid and ask (or the last trade), read as probabilities. For a research report on one, send its address to \`svc-prediction-markets-agent\` (${credits(options.reportCost)}).`);
  return { text: `${lines.join('\n')}\n`, citations, found: entries.map((x) => x.event.event_ticker) };
}

/**
 * One event's live prices read for a question about it ("odds of a hold?", "which is likeliest?",
 * "above 96k?"), as a search would show it: the outcomes asked first, in bold, with what they add
 * up to; `[n]` cites its page.
 */
export function liveEventLine(event: KalshiEvent, question: string, n: number): string {
  return eventLine(event, event.category ?? '', n, askedOf(question), null, false, true);
}

/** What a question pins down besides its topic (see Asked). */
const askedOf = (question: string): Asked => ({ levels: levelsAsked(question), side: sideAsked(question), not: negated(question), inclusive: sideIncludesLevel(question), text: question });

/**
 * One event found: its prices (the outcome at a level asked about first, in bold), when it
 * closes, and what it does not match: a level it has no outcome at, a date it does not settle on.
 */
function eventLine(event: KalshiEvent, category: string, n: number, { levels, side: sideSaid, not, inclusive, text }: Asked, otherDate: AskedWhen | null, unread = false, every = false): string {
  const markets = event.markets ?? [];
  // "Those add up to more than 100%": a sum of the prices, not a level of the event.
  if (SUM_ASKED.test(text)) [levels, sideSaid] = [[], null];
  // "200k" is "$200,000" of a price, "200k" of payrolls.
  const dollars = markets.some((m) => (m.yes_sub_title ?? m.title ?? '').includes('$'));
  levels = levels.map((l) => (l.plain && !dollars ? { ...l, said: l.plain } : l));
  // "10 million square km" of rungs labelled "Above 10.0": the level in the labels' own scale.
  const bounds = markets.flatMap((m) => {
    const r = rangeOfMarket(m);
    return r ? [r.from, r.to].filter((b): b is number => b !== null) : [];
  });
  levels = levels.map((l) => {
    const scaled = inLabelScale(l.value, bounds);
    return scaled === l.value ? l : { ...l, value: scaled, said: dollars ? compactDollars(scaled) : String(scaled) };
  });
  // "does not end above 100k" asks for the side below it.
  const side = sideSaid && not ? (sideSaid === 'above' ? 'below' : 'above') : sideSaid;
  const said = sideSaid && not ? `not ${sideSaid}` : side;
  const notes: string[] = [];
  // Exclusive outcomes' prices add up to more than 100% (the exchange's edge): a sum of some of
  // them is also given scaled to their total, as the reports normalise.
  const prices0 = markets.map((m) => priceLine(m).price);
  const total = event.mutually_exclusive && markets.length > 1 && prices0.every((p) => p !== null) ? prices0.reduce((a, p) => a + p!, 0) : null;
  const skewed = total !== null && Math.abs(total - SCALE) >= SCALE / 100;
  // Scaled to the total, to a tenth of a point (prices are millionths).
  const scaled = (sum: number) => Math.min(SCALE, Math.round((sum * SCALE) / total! / 1000) * 1000);
  const sumSaid: SumSaid = (sum) => (skewed ? `${formatPercent(sum)} (${formatPercent(scaled(sum))} normalised)` : formatPercent(sum));
  // What the outcomes named leave: 100% less their prices, and less their normalised share.
  const restSaid = (sum: number) => (skewed ? `${formatPercent(Math.max(0, SCALE - sum))} (${formatPercent(SCALE - scaled(sum))} normalised)` : formatPercent(Math.max(0, SCALE - sum)));
  // One side of a level among exclusive ranges ("above 60" of "… 56°F or above"): the outcomes
  // that side covers, with what they add up to, not the one range that happens to hold the level.
  const level = levels.length === 1 ? levels[0]! : null;
  // Counts are whole numbers: "more than 4" of "3", "4", "5 or more" is "5 or more".
  const counted = level && side && isCount(markets.map(rangeOfMarket)) ? countSide(level.value, side, inclusive !== (not && sideSaid !== null)) : null;
  const cover = level && side ? coverOfSide(markets, rangeOfMarket, counted?.level ?? level.value, side, counted !== null) : null;
  const covered = cover ? [...cover.whole, ...(cover.split ? [cover.split] : [])] : [];
  if (cover && covered.length && (counted || !(cover.whole.length === 1 && !cover.split))) notes.push(coverNote(`${counted ? counted.words : said} ${level!.said}`, level!.said, cover, sumSaid));
  const atLevels = markets.filter((m) => levels.some((l) => atLevel(m, l.value)));
  // Named by their words ("a cut"), when no level is asked: some of the outcomes, not all.
  // Asked what the prices add up to ("more than 100%"), no outcome is meant.
  const named = levels.length || SUM_ASKED.test(text) ? [] : namedOutcomes(markets, text, event.title);
  // "Below 41% or 41% to 42%?": outcomes each side of an "or" names by its label, added up.
  // (Labels said without their units too: "below 41 or 41 to 42".)
  const unitless = (s: string) => s.toLowerCase().replace(/[%$,]|°f?/g, '');
  const plainText = unitless(text);
  const labelled = /\s+or\s+/i.test(text) && event.mutually_exclusive ? markets.filter((m) => new RegExp(`(?<![\\w.])${unitless(priceLine(m).label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.])`, 'i').test(plainText)) : [];
  const either = labelled.length > 1 && labelled.length < markets.length ? labelled : [];
  const byWords = either.length ? either : named.length && named.length < markets.length ? named : [];
  const asked = new Set(either.length ? either : covered.length ? covered : atLevels.length ? atLevels : byWords);
  // Exclusive outcomes named together add up ("odds of a cut?" of two cuts).
  const together = byWords.length > 1 && event.mutually_exclusive ? byWords.map((m) => priceLine(m)) : [];
  if (together.length && together.every((p) => p.price !== null)) {
    notes.push(`Together, ${listed(together.map((p) => `“${quoteCaller(p.label)}”`))}: about ${sumSaid(together.reduce((sum, p) => sum + p.price!, 0))}.`);
  }
  // A ladder (each outcome one side of its level) reads in the order of its levels, not of its prices.
  const rungs = byStrike(markets);
  const isLadder = rungs.length === markets.length && markets.length > 1 && new Set(markets.map(sideOf)).size === 1 && sideOf(markets[0]!) !== null;
  const place = (m: KalshiMarket) => rungs.indexOf(m);
  // Ranges of one quantity ("2 or fewer", "3", "4", "5 or more") read in the order of their levels too, every one shown.
  const byLevel = isLadder || (rungs.length === markets.length && markets.length > 1);
  const prices = markets
    .map((m) => {
      const p = priceLine(m);
      return { ...p, text: p.text.replace(p.label, withTeam(p.label, event.title)), asked: asked.has(m), m };
    })
    .sort((a, b) => Number(b.asked) - Number(a.asked) || (byLevel ? place(a.m) - place(b.m) : b.rank - a.rank));
  // One event alone shows every outcome (up to 12); in a list, the first four (a range's up to eight) and the ones asked about.
  const shown = prices.slice(0, every ? 12 : Math.max(byLevel && !isLadder ? 8 : 4, asked.size)).map((p) => (p.asked ? `**${quoteCaller(p.text)}**` : quoteCaller(p.text)));
  const hidden = prices.length - shown.length;
  const more = hidden > 0 ? `, and ${hidden} more outcome${hidden === 1 ? '' : 's'}` : '';
  const close = markets[0]?.close_time;
  const ladder = byStrike(markets);
  const unpriced = ladder.length && !covered.length ? levels.filter((l) => !markets.some((m) => atLevel(m, l.value))) : [];
  if (unpriced.length) {
    const [low, high] = [priceLine(ladder[0]!).label, priceLine(ladder.at(-1)!).label];
    // One level between two rungs: those two, with their prices, are what the asker wants next.
    const value = unpriced.length === 1 ? unpriced[0]!.value : null;
    const below = value === null ? undefined : ladder.filter((m) => levelOf(m)! < value).at(-1);
    const above = value === null ? undefined : ladder.find((m) => levelOf(m)! > value);
    const rung = (m: KalshiMarket) => {
      const p = priceLine(m);
      return `“${quoteCaller(p.label)}”${p.price === null ? '' : ` (${formatPercent(p.price)})`}`;
    };
    notes.push(
      `No outcome at ${unpriced.map((l) => l.said).join(' or ')}: ${
        below && above ? `the nearest are ${rung(below)} and ${rung(above)}` : low === high ? `its only level is “${quoteCaller(low)}”` : `its levels run from “${quoteCaller(low)}” to “${quoteCaller(high)}”`
      }.`,
    );
  }
  // "Below 3%" asked of an "Above 3.0" contract: its price is the other side's, so the asked side is said.
  for (const m of covered.length ? [] : asked) {
    const price = priceLine(m).price;
    const level = levels.find((l) => atLevel(m, l.value));
    if (side && level && price !== null && sideOf(m) && sideOf(m) !== side) notes.push(`“${said} ${level.said}” is the other side of “${quoteCaller(priceLine(m).label)}”: about ${formatPercent(SCALE - price)}.`);
  }
  // "between 48 and 55": exclusive ranges wholly inside it added up (those it cuts through bound
  // it); of a ladder, the lower rung less the higher.
  const between = either.length ? null : rangeAsked(text);
  if (between && markets.length > 1) {
    const note = spanNote(markets, between, isLadder, sumSaid);
    if (note) notes.push(note);
  }
  // "no shutdown" of a single yes/no contract: its other side.
  const only = markets.length === 1 ? priceLine(markets[0]!) : null;
  if (not && !sideSaid && only && only.price !== null) notes.push(`Not “${quoteCaller(only.label)}”: about ${formatPercent(SCALE - only.price)}.`);
  // "the Fed doesn't hike", "the Chiefs lose": the other side of the exclusive outcomes named.
  const notNamed = not && !sideSaid && !only && event.mutually_exclusive && byWords.length ? byWords.map(priceLine) : [];
  if (notNamed.length && notNamed.every((p) => p.price !== null)) {
    notes.push(`Not ${notNamed.map((p) => `“${quoteCaller(withTeam(p.label, event.title))}”`).join(' or ')}: about ${restSaid(notNamed.reduce((sum, p) => sum + p.price!, 0))}.`);
  }
  const crossing = isLadder ? crossedNote(markets) : null;
  if (crossing) notes.push(crossing);
  const implied = impliedNote(event, markets, text, isLadder, [...asked]);
  if (implied) notes.push(implied);
  if (otherDate) {
    const at = settlesAt(event);
    notes.push(`It settles ${at === null ? 'on another date' : `on ${new Date(at).toISOString().slice(0, 10)}`}, not ${otherDate.said}, the date asked about.`);
  }
  return `**${quoteCaller(event.title)}** (${event.event_ticker}, ${category || 'uncategorised'}) [${n}]: ${shown.length ? shown.join('; ') : unread ? 'its prices could not be read just now (the exchange did not answer); ask again shortly' : 'no prices yet'}${more}.${close ? ` Closes ${utc(new Date(close))}.` : ''}${notes.length ? ` ${notes.join(' ')}` : ''}`;
}

/**
 * What the prices imply, when asked: the expected level and the median of exclusive outcomes that
 * are levels ("expected number of launches?"), the median of a ladder ("market-implied median
 * price?"), or each price as American and decimal odds ("convert that to moneyline odds").
 */
function impliedNote(event: KalshiEvent, markets: readonly KalshiMarket[], text: string, isLadder: boolean, asked: readonly KalshiMarket[]): string | null {
  const priced = markets.map((m) => ({ m, p: priceLine(m) })).filter((x) => x.p.price !== null);
  if (!priced.length) return null;
  const percentOf = (price: number) => (100 * price) / SCALE;
  // "How much does a YES cost and what do I win?": the contract asked about (or the only one), at the ask.
  const paid = PAYOUT_ASKED.test(text) ? (asked.length ? asked : markets.length === 1 ? markets : []) : [];
  if (paid.length) {
    const each = paid.flatMap((m) => {
      const ask = quoteOf(m, undefined).ask;
      if (ask === null) return [`“${quoteCaller(withTeam(priceLine(m).label, event.title))}” has no ask to buy YES at now.`];
      const [cost, win] = [ask / SCALE, 1 - ask / SCALE];
      return [`A YES on “${quoteCaller(withTeam(priceLine(m).label, event.title))}” costs $${cost.toFixed(2)} at the ask and pays $1.00 if it resolves YES: $${win.toFixed(2)} profit per contract before fees, the $${cost.toFixed(2)} lost if it resolves NO.`];
    });
    return each.join(' ');
  }
  // "Fed gonna hike or nah": the outcome named among exclusive ones, which way its price leans and whether it leads.
  if (markets.length > 1 && asked.length === 1 && event.mutually_exclusive && !isLadder && (WILL_IT_HAPPEN.test(text) || /\b(?:gonna|going to)\b[^?]*\bor (?:nah|not|no)\b/i.test(text))) {
    const one = priced.find((x) => x.m === asked[0]);
    if (one) {
      const yes = percentOf(one.p.price!);
      const total = priced.reduce((a, x) => a + x.p.price!, 0);
      const share = (100 * one.p.price!) / total;
      const top = priced.reduce((a, b) => (b.p.price! > a.p.price! ? b : a));
      const lean = Math.abs(share - 50) < 5 ? 'about even' : share > 50 ? 'more likely than not' : 'less likely than not';
      return `On the market's prices, “${quoteCaller(withTeam(one.p.label, event.title))}” is ${lean}: ${formatPercent(one.p.price!)}${Math.abs(total - SCALE) >= SCALE / 100 ? ` (${share.toFixed(1)}% normalised)` : ''}, ${top === one ? 'the favourite' : `behind “${quoteCaller(withTeam(top.p.label, event.title))}” at ${formatPercent(top.p.price!)}`}.`;
    }
  }
  // "Is a new model going to be released?" of one yes/no contract: which way its price leans.
  if (markets.length === 1 && priced.length === 1 && WILL_IT_HAPPEN.test(text)) {
    const yes = percentOf(priced[0]!.p.price!);
    const lean = Math.abs(yes - 50) < 5 ? 'about even' : yes > 50 ? 'more likely than not' : 'less likely than not';
    return `On the market's price, “${quoteCaller(withTeam(priced[0]!.p.label, event.title))}” is ${lean}: ${formatPercent(priced[0]!.p.price!)}.`;
  }
  // "Who's the fav?" of exclusive outcomes: the one priced highest; "whos the dog and by how much": the lowest, and how far behind.
  if ((FAVOURITE_ASKED.test(text) || UNDERDOG_ASKED.test(text)) && event.mutually_exclusive && !isLadder && priced.length > 1) {
    const top = priced.reduce((a, b) => (b.p.price! > a.p.price! ? b : a));
    const said = (x: typeof top) => `“${quoteCaller(withTeam(x.p.label, event.title))}” at ${formatPercent(x.p.price!)}`;
    if (!UNDERDOG_ASKED.test(text)) return `The market's favourite is ${said(top)}.`;
    const low = priced.reduce((a, b) => (b.p.price! < a.p.price! ? b : a));
    return `The market's ${priced.length === 2 ? 'underdog' : 'least likely outcome'} is ${said(low)}, ${((100 * (top.p.price! - low.p.price!)) / SCALE).toFixed(1)} points behind the favourite, ${said(top)}.`;
  }
  // "Those add up to more than 100%, normalised?": the sum, and each price scaled to it.
  if (SUM_ASKED.test(text) && markets.length > 1) {
    if (!event.mutually_exclusive) return 'These outcomes are not mutually exclusive (each is a yes/no of its own), so their prices are not meant to add up to 100%.';
    if (priced.length < markets.length) return null;
    const total = priced.reduce((sum, { p }) => sum + p.price!, 0);
    const over = ((total - SCALE) * 100) / SCALE;
    const each = priced.map(({ p }) => `“${quoteCaller(withTeam(p.label, event.title))}” ${formatPercent(Math.round((p.price! * SCALE) / total / 1000) * 1000)}`);
    return `The ${priced.length} outcomes' prices add up to ${formatPercent(total)}${Math.abs(over) >= 0.05 ? `, ${Math.abs(over).toFixed(1)} points ${over > 0 ? 'over' : 'under'} 100% (${over > 0 ? 'the overround: the spread the exchange and market makers keep' : 'less than a full book'})` : ''}. Normalised to add up to 100%: ${each.join(', ')}.`;
  }
  if (ODDS_FORMAT_ASKED.test(text)) {
    // Of the contract asked about when one is ("convert that to American odds" after "above 100k?").
    const shown = asked.length ? priced.filter((x) => asked.includes(x.m)) : priced;
    const each = (shown.length ? shown : priced).map(({ p }) => `“${quoteCaller(withTeam(p.label, event.title))}” ${americanOdds(percentOf(p.price!))} (decimal ${decimalOdds(percentOf(p.price!))}, fractional ${fractionalOdds(percentOf(p.price!))})`);
    return `As bookmakers' odds, on each price alone (no margin removed): ${each.join(', ')}.`;
  }
  if (!EXPECTED_ASKED.test(text) || priced.length < 2) return null;
  if (isLadder) {
    const above = sideOf(markets[0]!) === 'above';
    const rungs = priced.map(({ m, p }) => ({ level: p.label.replace(/^\s*(?:above|below)\s+/i, ''), value: levelOf(m)!, above: above ? percentOf(p.price!) : 100 - percentOf(p.price!) }));
    return `On these prices the median is ${ladderMedian(rungs)} (where the chance of ending above a level crosses 50%).`;
  }
  // A rate decision's outcomes: the expected change, and a cut's and a hike's chance and size.
  const move = event.mutually_exclusive && priced.length === markets.length ? expectedMove(priced.map(({ p }) => ({ label: p.label, chance: percentOf(p.price!) }))) : null;
  if (move) {
    const given = (kind: 'cut' | 'hike') => (move[kind] ? `a ${kind} of any size ${move[kind]!.chance.toFixed(1)}% (about ${move[kind]!.size.toFixed(0)} bps if there is one)` : `no ${kind}`);
    return `On these prices, normalised to add up to 100%, the expected change in the rate is about ${move.mean < -0.05 ? '−' : move.mean > 0.05 ? '+' : ''}${Math.abs(move.mean).toFixed(1)} bps: ${given('cut')}, ${given('hike')}${move.openEnded ? ' (“more than 25bps” counted at the next usual step, so an estimate)' : ''}.`;
  }
  const expected = event.mutually_exclusive && priced.length === markets.length ? expectedLevel(priced.map(({ m, p }) => ({ label: p.label, range: rangeOfMarket(m), chance: percentOf(p.price!) }))) : null;
  if (!expected) return null;
  return `On these prices, normalised to add up to 100%, the expected value is about ${aboutLevel(expected.mean, priced.map(({ p }) => p.label))}${expected.openEnded ? ' (open-ended outcomes counted at their bound, so an estimate)' : ''}, and the median outcome is “${quoteCaller(expected.median)}”.`;
}

/** What a range asked comes to among an event's outcomes, in one sentence; null when its outcomes are not levels. */
/** A sum of exclusive outcomes' prices as said: with its normalised share when their prices add up to more (or less) than 100%. */
type SumSaid = (sum: number) => string;

function spanNote(markets: readonly KalshiMarket[], asked: { from: number; to: number; said: string }, ladder: boolean, sumSaid: SumSaid): string | null {
  const ranges = markets.map((m) => ({ m, r: rangeOfMarket(m), p: priceLine(m) }));
  if (ranges.some((x) => x.r === null)) return null;
  const label = (x: (typeof ranges)[number]) => `“${quoteCaller(x.p.label)}”`;
  if (ladder) {
    const at = (v: number) => ranges.find((x) => (x.r!.to === null ? x.r!.from === v : x.r!.to === v));
    const [low, high] = [at(asked.from), at(asked.to)];
    if (!low || !high || low.p.price === null || high.p.price === null) return null;
    const above = low.r!.to === null;
    const [outer, inner] = above ? [low, high] : [high, low];
    return `“${quoteCaller(asked.said)}” is ${label(outer)} less ${label(inner)}: about ${formatPercent(Math.max(0, outer.p.price! - inner.p.price!))}.`;
  }
  const bounds = (x: (typeof ranges)[number]) => [x.r!.from ?? -Infinity, x.r!.to ?? Infinity] as const;
  const whole = ranges.filter((x) => bounds(x)[0] >= asked.from && bounds(x)[1] <= asked.to);
  const split = ranges.filter((x) => !whole.includes(x) && bounds(x)[0] < asked.to && bounds(x)[1] > asked.from);
  if (![...whole, ...split].every((x) => x.p.price !== null)) return null;
  const sum = (xs: typeof ranges) => xs.reduce((a, x) => a + x.p.price!, 0);
  if (!whole.length && !split.length) return `No outcome lies in “${quoteCaller(asked.said)}”.`;
  if (!split.length) return `“${quoteCaller(asked.said)}” is ${listed(whole.map(label))}${whole.length > 1 ? ', together' : ':'} about ${sumSaid(sum(whole))}.`;
  return `“${quoteCaller(asked.said)}” is ${whole.length ? `${listed(whole.map(label))} and ` : ''}part of ${listed(split.map(label))}: between ${sumSaid(sum(whole))} and ${sumSaid(Math.min(SCALE, sum([...whole, ...split])))}.`;
}

/** What a question pins down besides its topic: levels, the side of them, and whether it asks for an outcome not to happen. */
interface Asked {
  levels: AskedLevel[];
  side: 'above' | 'below' | null;
  not: boolean;
  /** The side includes the level ("at least 3", "5 or more"). */
  inclusive: boolean;
  /** The question as asked: outcomes named by its words ("a cut", "KC") are picked out. */
  text: string;
}

/** Words of outcome labels that name no outcome on their own. */
const GENERIC_LABEL_WORDS = new Set(['above', 'below', 'over', 'under', 'more', 'less', 'than', 'the', 'and', 'yes', 'team', 'win', 'wins']);

/** Outcomes the question names by a word of their label ("odds of a cut?": "Cut 25bps", "Cut more than 25bps"; "the Lakers": the away team of "Lakers at Celtics"). */
function namedOutcomes(markets: readonly KalshiMarket[], asked: string, title: string): KalshiMarket[] {
  const words = (m: KalshiMarket) => (withTeam(priceLine(m).label, title).toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !GENERIC_LABEL_WORDS.has(w));
  // "KC" or "Kansas City" is the Chiefs of "Bills at Chiefs", whichever name the event uses.
  const labels = markets.map((m) => priceLine(m).label).join(' ');
  // "No change" is the hold, "rates go up" the hike.
  const text = withOutcomeSynonyms(withTeamNames(asked, `${title} ${labels}`).toLowerCase(), labels.toLowerCase());
  const named = markets.filter((m) => words(m).some((w) => new RegExp(`\\b${w}`).test(text)));
  // Both sides named ("the Chiefs lose to the Bills"): the one the question is about.
  const subject = named.length > 1 ? contestSubject(text) : null;
  const about = subject ? named.filter((m) => words(m).some((w) => subject.startsWith(w))) : [];
  return about.length === 1 ? about : named;
}

/** What one side of a level comes to: the outcomes wholly on it, added up, and the one the level falls inside. */
function coverNote(asked: string, level: string, cover: { whole: KalshiMarket[]; split: KalshiMarket | null }, sumSaid: SumSaid): string {
  const lines = cover.whole.map(priceLine);
  const named = (ls: { label: string }[]) => listed(ls.map((l) => `“${quoteCaller(l.label)}”`));
  const sum = lines.every((l) => l.price !== null) ? lines.reduce((a, l) => a + l.price!, 0) : null;
  const split = cover.split ? priceLine(cover.split) : null;
  const splitSaid = split ? `“${quoteCaller(split.label)}”${split.price === null ? '' : ` (${formatPercent(split.price)})`}` : '';
  if (!lines.length) return `No outcome is “${asked}”: ${level} falls inside ${splitSaid}${split?.price == null ? '' : `, so its chance is at most ${formatPercent(split.price)}`}.`;
  const together = `${named(lines)}${lines.length > 1 ? ', together' : ','} ${sum === null ? 'not all priced' : sumSaid(sum)}`;
  if (!split) return `“${asked}” is ${together}.`;
  const range = sum !== null && split.price !== null ? `: between ${sumSaid(sum)} and ${sumSaid(Math.min(SCALE, sum + split.price))}` : '';
  return `“${asked}” is ${together}, and part of ${splitSaid}, which ${level} falls inside${range}.`;
}

export function marketsSearchAgent(o: { client: KalshiClient; index: OpenEventsIndex; reportCost: number }): Agent {
  return {
    id: SEARCH_AGENT_ID,
    description: 'Finds open Kalshi events matching a question ("what are the odds of a Fed cut in December?") and answers with their current prices and links. Free.',
    async *run(req): AsyncGenerator<AgentEvent> {
      const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      yield { type: 'progress', message: 'Searching the open Kalshi events.' };
      const { text, citations } = await searchMarkets(o.client, o.index, question, { reportCost: o.reportCost });
      yield { type: 'text', delta: text };
      for (const citation of citations) yield { type: 'citation', citation };
      yield { type: 'done' };
    },
  };
}
