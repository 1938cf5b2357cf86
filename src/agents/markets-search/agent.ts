import type { KalshiClient } from '../../data/kalshi/client.js';
import { eventPage, priceLine } from '../prediction-markets/summary.js';
import { quoteCaller, utcMinute as utc } from '../citations.js';
import type { Agent, AgentEvent, Citation } from '../types.js';
import type { OpenEventsIndex } from './index.js';
import { fold, words } from './search.js';

export const SEARCH_AGENT_ID = 'svc-markets-search-agent';


/** Finds open Kalshi events for a question and answers with their current prices and links. */
export async function searchMarkets(
  client: KalshiClient,
  index: OpenEventsIndex,
  query: string,
  options: { limit?: number; /** The earlier question a follow-up continues. */ context?: string } = {},
): Promise<{ text: string; citations: Citation[]; found: number }> {
  const search = await index.get();
  const limit = options.limit ?? 5;
  let hits = search.search(query, limit, options.context);
  // A follow-up without a topic of its own ("and of a hold?") is searched together with the question it continues.
  if (!hits.length && options.context) hits = search.search(`${options.context} ${query}`, limit);
  if (!hits.length) {
    return {
      text: `No open Kalshi event matches “${quoteCaller(query.trim())}”. Try the topic's key words (for example “Fed decision December”, “Bitcoin price”, “CPI”, “NYC temperature”), or paste an event's address from kalshi.com for a report.\n`,
      citations: [],
      found: 0,
    };
  }
  const citations: Citation[] = [];
  // Prices are read fresh for the matches only.
  const events = await Promise.all(hits.map((h) => client.event(h.entry.event.event_ticker).catch(() => null)));
  // Words no event shown matches, in its title or its outcomes ("cut" is an outcome of the Fed
  // decision), are said, so that near misses are not taken for the event asked about.
  const outcomeWords = new Set(events.flatMap((e) => (e?.markets ?? []).flatMap((m) => words(`${m.yes_sub_title ?? ''} ${m.title ?? ''}`))));
  const unmatched = hits[0]!.missing.filter((w) => hits.every((h) => h.missing.includes(w)) && !outcomeWords.has(fold(w)));
  const heading = unmatched.length
    ? `No open Kalshi event matches all of “${quoteCaller(query.trim())}”: none mentions ${unmatched.map((w) => `“${quoteCaller(w)}”`).join(' or ')}. The closest, with current prices (as of ${utc(client.now())}):`
    : `Open Kalshi events matching “${quoteCaller(query.trim())}”, with current prices (as of ${utc(client.now())}):`;
  const lines = [heading, ''];
  hits.forEach((hit, i) => {
    const event = events[i] ?? hit.entry.event;
    const n = citations.length + 1;
    citations.push({ order: n, name: `Kalshi: ${event.title}`, url: eventPage(event, hit.entry.seriesTitle) });
    const prices = (event.markets ?? []).map(priceLine).sort((a, b) => (b.price ?? -1) - (a.price ?? -1));
    const shown = prices.slice(0, 4).map((p) => quoteCaller(p.text));
    const more = prices.length > 4 ? `, and ${prices.length - 4} more outcomes` : '';
    const close = event.markets?.[0]?.close_time;
    lines.push(`${i + 1}. **${quoteCaller(event.title)}** (${event.event_ticker}, ${hit.entry.category || 'uncategorised'}) [${n}]: ${shown.length ? shown.join('; ') : 'no prices yet'}${more}.${close ? ` Closes ${utc(new Date(close))}.` : ''}`);
  });
  lines.push(
    '',
    'Prices are the mid of the best bid and ask (or the last trade), read as probabilities. For a research report with the model probability of each outcome, send an event address to `svc-prediction-markets-agent` (3 credits), or to `svc-prediction-markets-agent:cache` for a stored report (free).',
  );
  return { text: `${lines.join('\n')}\n`, citations, found: hits.length };
}

export function marketsSearchAgent(o: { client: KalshiClient; index: OpenEventsIndex }): Agent {
  return {
    id: SEARCH_AGENT_ID,
    description: 'Finds open Kalshi events matching a question ("what are the odds of a Fed cut in December?") and answers with their current prices and links. Free.',
    async *run(req): AsyncGenerator<AgentEvent> {
      const question = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      yield { type: 'progress', message: 'Searching the open Kalshi events.' };
      const { text, citations } = await searchMarkets(o.client, o.index, question);
      yield { type: 'text', delta: text };
      for (const citation of citations) yield { type: 'citation', citation };
      yield { type: 'done' };
    },
  };
}
