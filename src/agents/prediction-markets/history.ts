import { KalshiClient, TIME } from '../../data/kalshi/client.js';
import type { KalshiMarket } from '../../data/kalshi/types.js';
import type { Observation } from './model.js';
import { labelOf, priceBefore } from './research.js';

/**
 * Every settled event of a series with its markets' prices `hours` before close, for the
 * backtest (unlike a report, which prices only the most recent events).
 */
export async function settledObservations(
  client: KalshiClient,
  seriesTicker: string,
  options: { hours: number; maxEvents: number },
): Promise<{ observations: Observation[]; exclusive: Map<string, boolean>; unpriced: number }> {
  const { markets, historical } = await client.settledMarkets(seriesTicker);
  const byEvent = new Map<string, KalshiMarket[]>();
  for (const m of markets) byEvent.set(m.event_ticker, [...(byEvent.get(m.event_ticker) ?? []), m]);
  const events = [...byEvent.entries()]
    .map(([ticker, ms]) => ({ ticker, markets: ms, closeTs: Math.max(...ms.map((m) => Date.parse(m.close_time ?? '') / 1000)) }))
    .filter((e) => Number.isFinite(e.closeTs))
    .sort((a, b) => b.closeTs - a.closeTs)
    .slice(0, options.maxEvents);
  const observations: Observation[] = [];
  const exclusive = new Map<string, boolean>();
  let unpriced = 0;
  await Promise.all(
    events.map(async (e) => {
      const at = e.closeTs - options.hours * TIME.HOUR;
      const window = [at - 2 * TIME.HOUR, at] as const;
      const candles = e.markets.some((m) => historical.has(m.ticker))
        ? new Map(await Promise.all(e.markets.map(async (m) => [m.ticker, await client.historicalCandles(m.ticker, ...window)] as const)))
        : await client.eventCandles(seriesTicker, e.ticker, ...window);
      // Only a candle inside the window is a price "N hours before close": a snapshot answers every
      // window with the one it recorded, whose candles may end a day earlier.
      const inWindow = (m: KalshiMarket) => (candles.get(m.ticker) ?? []).filter((c) => c.end_period_ts >= window[0] && c.end_period_ts <= at);
      const priced = e.markets.map((m) => ({ m, price: priceBefore(inWindow(m), at) }));
      if (priced.some((p) => p.price === null)) {
        unpriced++;
        return;
      }
      for (const { m, price } of priced) observations.push({ eventTicker: e.ticker, closeTs: e.closeTs, type: labelOf(m), price: price! / 1_000_000, outcome: m.result === 'yes' ? 1 : 0 });
    }),
  );
  // Whether outcomes exclude each other is the event's `mutually_exclusive`, never inferred from how
  // many won (that would let the result shape the prediction). An event the exchange no longer
  // serves takes the flag of the series' nearest event that it does; when it serves none of them
  // (a snapshot records only the reported event), the flag of the series' open events.
  const flags = await Promise.all(events.map((e) => client.event(e.ticker).then((ev) => ev?.mutually_exclusive ?? null, () => null)));
  const known = flags.find((f) => f !== null) ?? (await openSeriesFlag(client, seriesTicker)) ?? false;
  events.forEach((e, i) => exclusive.set(e.ticker, flags[i] ?? flags.slice(i).find((f) => f !== null) ?? known));
  return { observations, exclusive, unpriced };
}

/** Whether the outcomes of the series' open events exclude each other, when it has any open. */
async function openSeriesFlag(client: KalshiClient, seriesTicker: string): Promise<boolean | null> {
  const open = await client.openEvents().catch(() => []);
  return open.find((e) => e.series_ticker === seriesTicker && typeof e.mutually_exclusive === 'boolean')?.mutually_exclusive ?? null;
}
