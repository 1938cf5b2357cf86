import { credits } from '../markets-search/agent.js';
import { quoteCaller, utcMinute as utc } from '../citations.js';
import type { Citation } from '../types.js';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { formatPercent } from '../../data/kalshi/numbers.js';
import type { KalshiEvent, KalshiMarket } from '../../data/kalshi/types.js';
import { STATE_NOTES, eventNotFound, labelOf, quoteOf, settlementOf, settlementWords, withTeam } from './research.js';
import { byStrike, levelOf, sideOf } from '../markets-search/asked.js';

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'event';

/** The kalshi.com page of an event (the slug is decorative; Kalshi derives it from the series title). */
export function eventPage(event: Pick<KalshiEvent, 'event_ticker' | 'series_ticker'>, seriesTitle?: string): string {
  return `https://kalshi.com/markets/${event.series_ticker.toLowerCase()}/${slug(seriesTitle ?? event.series_ticker)}/${event.event_ticker.toLowerCase()}`;
}

/**
 * An outcome's price in words: "Hold 16.0%" (mid, or last trade marked), "Hold: resolved NO" once
 * decided (a settled market's last quote is history, not a price). `rank` orders outcomes for a
 * list: the winner first, then by price, then those without one.
 */
export function priceLine(m: KalshiMarket): { label: string; price: number | null; rank: number; text: string } {
  const label = labelOf(m);
  const settled = settlementOf(m);
  if (settled) return { label, price: null, rank: settled.kind === 'yes' ? 2 : -2, text: `${label}: ${settlementWords(settled)}` };
  const q = quoteOf(m, undefined);
  const state = Object.hasOwn(STATE_NOTES, m.status) ? STATE_NOTES[m.status] : null;
  const notes = [q.basis === 'last' ? 'last trade' : null, state].filter(Boolean).join('; ');
  return { label, price: q.price, rank: q.price ?? -1, text: `${label}${q.price === null ? ': no price' : ` ${formatPercent(q.price)}`}${notes ? ` (${notes})` : ''}` };
}

/**
 * A ladder priced out of order, said in a sentence: YES on a higher "Above" rung implies YES on a
 * lower one (the reverse for "Below"), so it cannot be worth more. Null when its prices are in order.
 */
export function crossedNote(markets: readonly KalshiMarket[]): string | null {
  const above = sideOf(markets[0]!) === 'above';
  const ordered = byStrike(markets).map((m) => priceLine(m)).filter((p) => p.price !== null);
  const i = ordered.findIndex((x, k) => k > 0 && (above ? x.price! > ordered[k - 1]!.price! : x.price! < ordered[k - 1]!.price!));
  if (i <= 0) return null;
  const [low, high] = above ? [ordered[i - 1]!, ordered[i]!] : [ordered[i]!, ordered[i - 1]!];
  return `Its prices cross: “${quoteCaller(high.label)}” (${formatPercent(high.price!)}) is priced over “${quoteCaller(low.label)}” (${formatPercent(low.price!)}), though YES on the first implies YES on the second.`;
}

/**
 * A free summary of an event's live prices: no model, no history, one request. What the
 * router answers for a Kalshi address when no report is stored.
 */
/**
 * `pageUrl`: the event page as asked; null when it was asked by ticker, whose page is then named
 * from the series' title, as Kalshi's own links are.
 */
export async function liveSummary(client: KalshiClient, eventTicker: string, pageUrl: string | null, apiUrl: string, reportCost: number): Promise<{ text: string; citations: Citation[]; event: KalshiEvent }> {
  const event = await client.event(eventTicker);
  if (!event) throw eventNotFound(client, eventTicker);
  const page = pageUrl ?? eventPage(event, (await client.series(event.series_ticker).catch(() => null))?.title);
  // A ladder reads in the order of its levels, and says when its prices cross; other outcomes by price.
  const all = event.markets ?? [];
  const ladder = all.length > 1 && new Set(all.map(sideOf)).size === 1 && sideOf(all[0]!) !== null && all.every((m) => levelOf(m) !== null);
  // So do ranges of one quantity ("2 or fewer", "3", "4", "5 or more").
  const ranges = all.length > 1 && byStrike(all).length === all.length;
  const markets = ladder || ranges ? byStrike(all).map(priceLine) : all.map(priceLine).sort((a, b) => b.rank - a.rank);
  const crossing = ladder ? crossedNote(all) : null;
  const decided = (event.markets ?? []).filter((m) => settlementOf(m));
  const open = (event.markets?.length ?? 0) - decided.length;
  const close = event.markets?.[0]?.close_time;
  const now = client.now();
  const closed = close !== undefined && Date.parse(close) <= now.getTime();
  const heading = !markets.length
    ? `Kalshi lists no markets for this event yet, as of ${utc(now)} [2]; a research report can be generated once they are listed.`
    : !open
      ? `This event is decided: every outcome has settled, as of ${utc(now)} [2]:`
      : `Current prices, as of ${utc(now)} [2]${decided.length ? ` (${decided.length === 1 ? 'one outcome is' : `${decided.length} outcomes are`} already decided)` : ''}:`;
  const lines = [
    `**${quoteCaller(event.title)}** (${event.event_ticker}) [1]`,
    '',
    heading,
    '',
    // A game's sides are named with their teams: "Away team (Lakers) 62.5%".
    ...(markets.length ? [...markets.map((m) => `- ${m.text.replace(m.label, withTeam(m.label, event.title))}`), ''] : []),
    ...(crossing ? [crossing, ''] : []),
    ...(close && markets.length ? [`Trading ${closed ? 'closed' : 'closes'} ${utc(new Date(close))}.`, ''] : []),
    ...(open ? [`Prices are the mid of the best bid and ask (or the last trade when there is no two-sided quote), read as probabilities.`] : []),
    ...(markets.length
      ? [`For a full research report (model probability per outcome, catalysts, resolution history), send this address to \`svc-prediction-markets-agent\` (${credits(reportCost)}, Plus plan or above); once one is stored, \`svc-prediction-markets-agent:cache\` serves it free.`]
      : []),
  ];
  return {
    event,
    text: `${lines.join('\n')}\n`,
    citations: [
      { order: 1, name: `Kalshi: ${event.title} (event page)`, url: page },
      { order: 2, name: `Kalshi market data: ${event.event_ticker}`, url: `${apiUrl}/events/${event.event_ticker}` },
    ],
  };
}
