import { credits } from '../markets-search/agent.js';
import { quoteCaller, utcMinute as utc } from '../citations.js';
import type { Citation } from '../types.js';
import type { KalshiClient } from '../../data/kalshi/client.js';
import { formatPercent } from '../../data/kalshi/numbers.js';
import type { KalshiEvent, KalshiMarket } from '../../data/kalshi/types.js';
import { notFound } from '../../errors.js';
import { quoteOf, labelOf } from './research.js';

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'event';

/** The kalshi.com page of an event (the slug is decorative; Kalshi derives it from the series title). */
export function eventPage(event: Pick<KalshiEvent, 'event_ticker' | 'series_ticker'>, seriesTitle?: string): string {
  return `https://kalshi.com/markets/${event.series_ticker.toLowerCase()}/${slug(seriesTitle ?? event.series_ticker)}/${event.event_ticker.toLowerCase()}`;
}

/** An outcome's price in words: "Hold 16.0%" (mid, or last trade marked). */
export function priceLine(m: KalshiMarket): { label: string; price: number | null; text: string } {
  const q = quoteOf(m, undefined);
  const label = labelOf(m);
  return { label, price: q.price, text: q.price === null ? `${label}: no price` : `${label} ${formatPercent(q.price)}${q.basis === 'last' ? ' (last trade)' : ''}` };
}

/**
 * A free summary of an event's live prices: no model, no history, one request. What the
 * router answers for a Kalshi address when no report is stored.
 */
export async function liveSummary(client: KalshiClient, eventTicker: string, pageUrl: string, apiUrl: string, reportCost: number): Promise<{ text: string; citations: Citation[] }> {
  const event = await client.event(eventTicker);
  if (!event) throw notFound('event_not_found', `Kalshi has no event '${eventTicker}'. Check the address: it should be the page of an event on kalshi.com.`, 'input');
  const markets = (event.markets ?? []).map(priceLine).sort((a, b) => (b.price ?? -1) - (a.price ?? -1));
  const close = event.markets?.[0]?.close_time;
  const lines = [
    `**${quoteCaller(event.title)}** (${event.event_ticker}) [1]`,
    '',
    `Current prices, as of ${utc(client.now())} [2]:`,
    '',
    ...markets.map((m) => `- ${m.text}`),
    '',
    ...(close ? [`Trading closes ${utc(new Date(close))}.`, ''] : []),
    `Prices are the mid of the best bid and ask (or the last trade when there is no two-sided quote), read as probabilities.`,
    `For a full research report (model probability per outcome, catalysts, resolution history), send this address to \`svc-prediction-markets-agent\` (${credits(reportCost)}, Plus plan or above); once one is stored, \`svc-prediction-markets-agent:cache\` serves it free.`,
  ];
  return {
    text: `${lines.join('\n')}\n`,
    citations: [
      { order: 1, name: `Kalshi: ${event.title} (event page)`, url: pageUrl },
      { order: 2, name: `Kalshi market data: ${event.event_ticker}`, url: `${apiUrl}/events/${event.event_ticker}` },
    ],
  };
}
