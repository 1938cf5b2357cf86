import type { KalshiClient } from '../../data/kalshi/client.js';
import { SCALE, formatPercent, parseFixed } from '../../data/kalshi/numbers.js';
import type { KalshiEvent } from '../../data/kalshi/types.js';
import { quoteCaller, utcMinute as utc } from '../citations.js';
import { labelOf, settlementOf, withTeam } from '../prediction-markets/research.js';
import { eventPage, priceLine } from '../prediction-markets/summary.js';
import type { Answer, Citation } from '../types.js';
import { byStrike, levelOf, sideOf } from './asked.js';
import { ladderMedian } from './distribution.js';

/**
 * "Who is favoured in each?" of events a search listed: each one's leading outcome on its live
 * prices (the least likely, asked for the underdogs), in the search's order. A ladder has no
 * single favourite (each rung is its own yes/no): its median is given, where the chance of ending
 * above crosses 50%; a lone yes/no contract is said to lean the way its price does.
 */
export async function favouritesAcross(client: KalshiClient, tickers: readonly string[], least: boolean): Promise<Answer> {
  const events = await Promise.all(tickers.map((t) => client.event(t).catch(() => null)));
  const pages = await pagesOf(client, events.filter((e): e is KalshiEvent => e !== null));
  const citations: Citation[] = [];
  const lines = tickers.map((ticker, i) => {
    const event = events[i];
    if (!event) return `${i + 1}. ${ticker}: its prices could not be read just now.`;
    citations.push({ order: citations.length + 1, name: `Kalshi: ${event.title}`, url: pages.get(event.event_ticker)! });
    // (The ticker in brackets, as a search lists it, so that "which of those closes last?" next finds the events.)
    return `${i + 1}. **${event.title.replace(/[*_]/g, '')}** (${event.event_ticker}) [${citations.length}]: ${favouriteOf(event, least)}`;
  });
  const head = `The market's ${least ? 'least likely outcome' : 'favourite'} in each of the ${tickers.length} events listed, on live prices (as of ${utc(client.now())}):`;
  const foot = 'Prices are the mid of the best bid and ask (or the last trade), read as probabilities; they are the market’s, not a model’s.';
  return { text: `${head}\n\n${lines.join('\n')}\n\n${foot}\n`, citations };
}

function favouriteOf(event: KalshiEvent, least: boolean): string {
  const markets = event.markets ?? [];
  const priced = markets.map((m) => ({ m, p: priceLine(m) })).filter((x) => x.p.price !== null);
  if (!priced.length) return 'no outcome has a price now.';
  const name = (label: string) => `“${quoteCaller(withTeam(label, event.title))}”`;
  if (markets.length === 1) {
    const yes = priced[0]!.p.price!;
    const leans = yes * 2 === SCALE ? 'even' : yes * 2 > SCALE ? 'towards YES' : 'towards NO';
    return `one yes/no contract, ${name(priced[0]!.p.label)} at ${formatPercent(yes)}: the market leans ${leans}${leans === 'even' ? '' : ` (${formatPercent(yes * 2 > SCALE ? yes : SCALE - yes)})`}.`;
  }
  const ladder = new Set(markets.map(sideOf)).size === 1 && sideOf(markets[0]!) !== null && markets.every((m) => levelOf(m) !== null);
  if (ladder) {
    const above = sideOf(markets[0]!) === 'above';
    const rungs = byStrike(priced.map((x) => x.m)).map((m) => {
      const { label, price } = priceLine(m);
      const percent = (100 * price!) / SCALE;
      return { level: label.replace(/^\s*(?:above|below)\s+/i, ''), value: levelOf(m)!, above: above ? percent : 100 - percent };
    });
    return `a ladder of ${markets.length} levels, so no single favourite; the median on these prices is ${ladderMedian(rungs)}.`;
  }
  const ranked = [...priced].sort((a, b) => (least ? a.p.price! - b.p.price! : b.p.price! - a.p.price!));
  const top = ranked[0]!;
  const next = ranked[1];
  const tie = next && next.p.price === top.p.price ? `, level with ${name(next.p.label)}` : '';
  const runnerUp = next && !tie ? `; ${ranked.length === 2 ? 'against' : least ? 'next' : 'then'} ${name(next.p.label)} at ${formatPercent(next.p.price!)}` : '';
  return `**${quoteCaller(withTeam(top.p.label, event.title))}** at ${formatPercent(top.p.price!)}${tie}${runnerUp}.`;
}

/**
 * "Which of those closes last?" of events a search listed: the one whose trading closes last (or
 * first), with every listed event's close in that order, read fresh.
 */
export async function closingAcross(client: KalshiClient, tickers: readonly string[], last: boolean, group = 'events listed'): Promise<Answer> {
  const events = await Promise.all(tickers.map((t) => client.event(t).catch(() => null)));
  const closes = (e: KalshiEvent) => Math.max(...(e.markets ?? []).map((m) => (m.close_time ? Date.parse(m.close_time) : NaN)).filter((t) => !Number.isNaN(t)));
  const known = events.filter((e): e is KalshiEvent => e !== null && Number.isFinite(closes(e)));
  if (!known.length) return { text: `The closing times of the ${group} could not be read just now.\n`, citations: [] };
  const ordered = [...known].sort((a, b) => (last ? closes(b) - closes(a) : closes(a) - closes(b)));
  const pages = await pagesOf(client, ordered);
  const citations = ordered.map((e, i): Citation => ({ order: i + 1, name: `Kalshi: ${e.title}`, url: pages.get(e.event_ticker)! }));
  const top = ordered[0]!;
  const lines = ordered.map((e, i) => `${i + 1}. **${e.title.replace(/[*_]/g, '')}** (${e.event_ticker}) [${i + 1}]: closes ${utc(new Date(closes(e)))}`);
  const missing = tickers.length - known.length;
  return {
    text: `Of the ${tickers.length} ${group}, **${top.title.replace(/[*_]/g, '')}** closes ${last ? 'last' : 'first'}, ${utc(new Date(closes(top)))} [1]. ${last ? 'Latest' : 'Soonest'} first:\n\n${lines.join('\n')}${missing ? `\n\n${missing} of them could not be read just now.` : ''}\n`,
    citations,
  };
}

/**
 * "Biggest movers today?", "what's hot?": open events ranked by their largest 24-hour price move
 * (an outcome's last trade against its price a day before) or, asked what is busiest, by the
 * contracts traded in 24 hours; the top `limit`, each with the outcome that moved and its volume.
 */
export async function moversAcross(client: KalshiClient, tickers: readonly string[], by: 'move' | 'volume', limit = 8, week = false): Promise<Answer> {
  const events = (await Promise.all(tickers.map((t) => client.event(t).catch(() => null)))).filter((e): e is KalshiEvent => e !== null);
  const rows = events.map((event) => {
    const moves = (event.markets ?? []).flatMap((m) => {
      const [now, before] = [parseFixed(m.last_price_dollars), parseFixed(m.previous_price_dollars)];
      return now !== null && before !== null && !settlementOf(m) ? [{ label: labelOf(m), now, before, move: now - before }] : [];
    });
    const top = moves.reduce<(typeof moves)[number] | null>((a, b) => (!a || Math.abs(b.move) > Math.abs(a.move) ? b : a), null);
    const volume = (event.markets ?? []).reduce((sum, m) => sum + (parseFixed(m.volume_24h_fp) ?? 0), 0);
    const total = (event.markets ?? []).reduce((sum, m) => sum + (parseFixed(m.volume_fp) ?? 0), 0);
    return { event, top, volume, total };
  });
  const ranked = rows
    .filter((r) => (by === 'move' ? r.top !== null : r.volume > 0))
    .sort((a, b) => (by === 'move' ? Math.abs(b.top!.move) - Math.abs(a.top!.move) || b.volume - a.volume : b.volume - a.volume))
    .slice(0, limit);
  const pages = await pagesOf(client, ranked.map((r) => r.event));
  if (!ranked.length) return { text: `None of the ${tickers.length} open events has a price from a day ago or trades in the last 24 hours to rank, as of ${utc(client.now())}.\n`, citations: [] };
  const citations: Citation[] = [];
  const points = (micro: number) => `${micro >= 0 ? '+' : '−'}${(Math.abs(micro) / 10_000).toFixed(1)} pts`;
  const lines = ranked.map(({ event, top, volume, total }, i) => {
    citations.push({ order: i + 1, name: `Kalshi: ${event.title}`, url: pages.get(event.event_ticker)! });
    const moved = top ? `“${quoteCaller(withTeam(top.label, event.title))}” ${formatPercent(top.before)} → ${formatPercent(top.now)} (${points(top.move)})` : 'no price from a day ago';
    return `${i + 1}. **${event.title.replace(/[*_]/g, '')}** (${event.event_ticker}) [${i + 1}]: ${moved}; ${Math.round(volume / SCALE).toLocaleString('en-US')} contracts traded in 24 hours (${Math.round(total / SCALE).toLocaleString('en-US')} since it opened).`;
  });
  const head =
    by === 'move'
      ? `The open events whose prices moved most in the last 24 hours (each one's largest move: last trade against the price a day before${week ? '; the exchange lists no weekly change here, and an event\'s report gives its 7-day moves' : ''}), as of ${utc(client.now())}:`
      : `The busiest open events, by contracts traded in the last 24 hours, as of ${utc(client.now())}:`;
  const of = tickers.length > ranked.length ? `\n\nOf the ${tickers.length} open events read; ask about one for its prices, or give its address for its report.` : '';
  return { text: `${head}\n\n${lines.join('\n')}${of}\n`, citations };
}

/** Each event's kalshi.com page, named from its series' title as Kalshi's own links are (the series are read once each, cached). */
async function pagesOf(client: KalshiClient, events: readonly KalshiEvent[]): Promise<Map<string, string>> {
  const series = new Map(await Promise.all([...new Set(events.map((e) => e.series_ticker))].map(async (t) => [t, (await client.series(t).catch(() => null))?.title] as const)));
  return new Map(events.map((e) => [e.event_ticker, eventPage(e, series.get(e.series_ticker))]));
}
