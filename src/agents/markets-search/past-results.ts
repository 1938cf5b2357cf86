import type { KalshiClient } from '../../data/kalshi/client.js';
import type { KalshiEvent } from '../../data/kalshi/types.js';
import { labelOf, settledEvents } from '../prediction-markets/research.js';
import type { Answer } from '../types.js';
import { labelRange, monthAsked, monthName, rungSide } from './asked.js';

/** Settled events listed under the one asked about, or as the series' record. */
const LISTED = 5;

/**
 * How an open event's series resolved before, read from the exchange's settled markets, for a
 * question asked without a stored report ("what did CPI print last month?", "how often does the
 * Fed hold?"). What a report adds (prices before each close, the model) is said to be missing.
 * `asked`: the newest settled event (or the month's), or the series' record. Null when the series has none.
 */
export async function pastResults(client: KalshiClient, event: KalshiEvent, question: string, asked: 'previous' | 'history', apiUrl: string, reportCost: string): Promise<Answer | null> {
  const settled = await client.settledMarkets(event.series_ticker);
  const past = settledEvents(settled, event.event_ticker, Math.floor(client.now().getTime() / 1000)).map((e) => {
    const won = e.markets.filter((m) => m.result === 'yes').map(labelOf);
    return { ticker: e.ticker, closed: new Date(e.closeTs * 1000).toISOString().slice(0, 10), won, labels: e.markets.map(labelOf) };
  });
  if (!past.length) return null;
  const citations = [{ order: 1, name: `Kalshi settled markets: ${event.series_ticker} series`, url: `${apiUrl}/markets?series_ticker=${encodeURIComponent(event.series_ticker)}&status=settled` }];
  const line = (e: (typeof past)[number]) => `- ${e.ticker} (closed ${e.closed}): ${e.won.length ? e.won.map((w) => `**${w}**`).join(', ') : 'every outcome NO'}${landed(e.won, e.labels)}`;
  const report = `No report is stored for ${event.event_ticker}, so this is the exchange's record alone: \`svc-prediction-markets-agent\` generates one (${reportCost}) with each outcome's price before close and a model that weighs the record against today's prices.`;
  if (asked === 'history') {
    const wins = new Map<string, number>();
    for (const e of past) for (const w of e.won) wins.set(w, (wins.get(w) ?? 0) + 1);
    const rates = [...wins.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `**${label}** ${n} of ${past.length}`);
    // "How often does the Fed hold?": that outcome's count first.
    const labels = [...new Set(past.flatMap((e) => e.labels))];
    const named = labels.filter((l) => new RegExp(`\\b${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(question));
    const record = named.length
      ? `${named.map((l) => `**${l}** resolved YES in ${wins.get(l) ?? 0} of the ${past.length} settled events of the ${event.series_ticker} series`).join('; ')} [1].${rates.length ? ` Every outcome: ${rates.join(', ')}.` : ''}`
      : `How the ${event.series_ticker} series resolved: of its ${past.length} settled events, ${rates.length ? `${rates.join(', ')} resolved YES` : 'none had an outcome resolve YES'} [1].`;
    return {
      text: `${record}\n\nThe latest:\n\n${past.slice(0, LISTED).map(line).join('\n')}\n\n${report}\n`,
      citations,
    };
  }
  const month = monthAsked(question);
  const pick = month >= 0 ? past.find((e) => Number(e.closed.slice(5, 7)) === month + 1) : past[0];
  const named = month >= 0 ? monthName(month) : '';
  if (!pick) return { text: `No settled event of the ${event.series_ticker} series closed in ${named} [1]; the latest:\n\n${past.slice(0, 3).map(line).join('\n')}\n\n${report}\n`, citations };
  const result = pick.won.length ? `${pick.won.map((w) => `**${w}**`).join(', ')} resolved YES${landed(pick.won, pick.labels)}` : `every outcome resolved NO${landed(pick.won, pick.labels)}`;
  const before = past.filter((e) => e !== pick).slice(0, 3);
  return {
    text: `${month >= 0 ? `The ${named} event` : 'The previous event'} of the series, **${pick.ticker}** (closed ${pick.closed}): ${result} [1].${before.length ? `\n\n${month >= 0 ? 'The latest others' : 'Before it'}:\n\n${before.map(line).join('\n')}` : ''}\n\n${report}\n`,
    citations,
  };
}

/**
 * An event that has settled, asked by its address ("what happened in the october fed market?
 * <address>"): what resolved YES, from the series' settled markets. Null when the series lists no
 * settled event of that ticker (then it is not there at all).
 */
export async function settledEventResult(client: KalshiClient, eventTicker: string, apiUrl: string): Promise<Answer | null> {
  const series = eventTicker.split('-')[0]!;
  const settled = await client.settledMarkets(series).catch(() => null);
  const e = settled ? settledEvents(settled, '', Math.floor(client.now().getTime() / 1000)).find((x) => x.ticker === eventTicker) : undefined;
  if (!e) return null;
  const won = e.markets.filter((m) => m.result === 'yes').map(labelOf);
  const labels = e.markets.map(labelOf);
  const result = won.length ? `${won.map((w) => `**${w}**`).join(', ')} resolved YES${labels.length > won.length ? ', every other outcome NO' : ''}` : 'every outcome resolved NO';
  return {
    text: `**${eventTicker}** has settled (trading closed ${new Date(e.closeTs * 1000).toISOString().slice(0, 10)}): ${result}${landed(won, labels)} [1].\n\nIt trades no more, so it has no live prices and no report; ask about the series' open event for its odds, or how often an outcome wins (“how often does … resolve YES?”) for its record.\n`,
    citations: [{ order: 1, name: `Kalshi settled markets: ${series} series`, url: `${apiUrl}/markets?series_ticker=${encodeURIComponent(series)}&status=settled` }],
  };
}

/** Where a ladder's result fell: above the highest "Above" rung to resolve YES, or below every rung when none did. */
function landed(won: string[], labels: string[]): string {
  const rungs = labels.map((label) => ({ label, range: labelRange(label) })).filter((r) => r.range && rungSide(r.range) === 'above');
  if (rungs.length < 2 || rungs.length !== labels.length) return '';
  const level = (r: (typeof rungs)[number]) => r.range!.from!;
  const yes = rungs.filter((r) => won.includes(r.label));
  const said = (label: string) => label.replace(/^\s*(?:above|over)\s+/i, '');
  if (!yes.length) return `, so the result was not above any of its levels (the lowest was ${said(rungs.reduce((a, b) => (level(b) < level(a) ? b : a)).label)})`;
  return `, so the result was above ${said(yes.reduce((a, b) => (level(b) > level(a) ? b : a)).label)}`;
}
