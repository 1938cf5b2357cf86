import { credits } from '../markets-search/agent.js';
import { quoteCaller, utcMinute as utc } from '../citations.js';
import type { Citation } from '../types.js';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { formatPercent } from '../../data/kalshi/numbers.js';
import type { KalshiEvent, KalshiMarket } from '../../data/kalshi/types.js';
import { STATE_NOTES, eventNotFound, labelOf, quoteOf, settlementOf, settlementWords } from './research.js';

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
 * A free summary of an event's live prices: no model, no history, one request. What the
 * router answers for a Kalshi address when no report is stored.
 */
export async function liveSummary(client: KalshiClient, eventTicker: string, pageUrl: string, apiUrl: string, reportCost: number): Promise<{ text: string; citations: Citation[]; event: KalshiEvent }> {
  const event = await client.event(eventTicker);
  if (!event) throw eventNotFound(client, eventTicker);
  const markets = (event.markets ?? []).map(priceLine).sort((a, b) => b.rank - a.rank);
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
    ...(markets.length ? [...markets.map((m) => `- ${m.text}`), ''] : []),
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
      { order: 1, name: `Kalshi: ${event.title} (event page)`, url: pageUrl },
      { order: 2, name: `Kalshi market data: ${event.event_ticker}`, url: `${apiUrl}/events/${event.event_ticker}` },
    ],
  };
}
