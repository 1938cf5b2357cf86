import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError, checkedValue, flag, intFlag, onlyFlags, print, recordingFolder, type Args } from '../../cli.js';
import type { Config } from '../../config.js';
import { SvcError } from '../../errors.js';
import { KalshiClient } from '../../data/kalshi/client.js';
import { confirmEventAddress, eventPageUrl, parseEventUrl } from '../../data/kalshi/url.js';
import { LiveSource, RecordingSource, type DataSource } from '../../data/source.js';
import { recordingSummary } from '../../data/recording-summary.js';
import { kalshiSource } from '../../data/sources.js';
import { reliabilitySvg } from './chart.js';
import { settledObservations } from './history.js';
import { backtest, type CalibrationBin } from './model.js';
import { PRE_CLOSE_HOURS, research } from './research.js';

/**
 * `svc snapshot record <event-url>... [--out DIR]`: saves every Kalshi response the reports of
 * these events need, so SVC_KALSHI_SNAPSHOT_DIR=DIR serves them offline, as of the recording.
 */
export async function snapshotRecord(args: Args, config: Config): Promise<number> {
  if (!args.positional.length) throw new UsageError('usage: svc snapshot record <kalshi event url>... [--out DIR]');
  // Each event once, however many of its addresses were given.
  const seen = new Set<string>();
  const urls = args.positional.filter((u) => {
    const ticker = checkedValue(() => parseEventUrl(u)).eventTicker;
    return !seen.has(ticker) && Boolean(seen.add(ticker));
  });
  const out = recordingFolder(flag(args, 'out') ?? 'snapshots/kalshi-recorded');
  const k = config.kalshi;
  const live = new LiveSource({ name: 'Kalshi', baseUrl: k.apiUrl, requestsPerSecond: k.requestsPerSecond, timeoutMs: k.timeoutMs, retries: k.retries });
  const recordedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
  const result = await recordKalshi(live, urls, out, recordedAt, k.apiUrl);
  const recorded = result.events.map(({ event, title, ...details }) => ({ id: event, name: title, ...details }));
  const counts = { events: recorded.length, markets: recorded.reduce((n, e) => n + e.markets, 0) };
  print(recordingSummary({ source: 'kalshi', out, manifest: result.snapshot, recordedAt, recorded, counts }));
  return 0;
}

/**
 * Records, into `out`, every response the reports of these events need, and the search index. The clock is pinned
 * to `recordedAt` so that the requests made when replaying (time windows) match exactly.
 * Also writes `events.json`: the recorded events with their page addresses.
 */
export async function recordKalshi(live: DataSource, urls: string[], out: string, recordedAt: Date, baseUrl: string, note?: string) {
  const recording = new RecordingSource(live, out, recordedAt, baseUrl, note);
  const client = new KalshiClient(recording, () => recordedAt);
  const events: { event: string; url: string; title: string; category: string; markets: number; settled_events: number }[] = [];
  try {
    for (const url of urls) {
      const a = parseEventUrl(url);
      await confirmEventAddress(a, new KalshiClient(live));
      const r = await research(client, a.eventTicker);
      events.push({ event: a.eventTicker, url: eventPageUrl(a), title: r.event.title, category: r.series?.category ?? r.event.category ?? '', markets: r.markets.length, settled_events: r.history.length });
    }
    // The open-events index and series list, so svc-markets-search-agent and svc-agent work offline too.
    await Promise.all([client.openEvents(), client.allSeries()]);
  } catch (err) {
    recording.abandon();
    throw err;
  }
  const manifest = recording.finish();
  writeFileSync(path.join(out, 'events.json'), `${JSON.stringify(events, null, 1)}\n`);
  return { snapshot: manifest, recorded_at: recordedAt.toISOString(), events };
}

/** A probability or score to 4 decimal places; null where there is none (an empty bin's NaN, which JSON would print as null anyway). */
export const round4 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 1e4) / 1e4 : null);

const pct = (x: number) => (Number.isNaN(x) ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);

function binsTable(market: CalibrationBin[], model: CalibrationBin[]): string {
  const rows = market.map((b, i) => `${`${Math.round(b.from * 100)}-${Math.round(b.to * 100)}%`.padEnd(8)} ${String(b.count).padStart(5)}  ${pct(b.meanPredicted)} ${pct(b.observed)}   ${String(model[i]!.count).padStart(5)}  ${pct(model[i]!.meanPredicted)} ${pct(model[i]!.observed)}`);
  return ['bin      market: n  predicted observed   model: n  predicted observed', ...rows].join('\n');
}

/** The --chart file, checked before any work: an SVG file name in a folder that exists. */
function chartPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || !value.trim()) throw new UsageError('missing --chart value: a file name ending in .svg');
  if (!/\.svg$/i.test(value)) throw new UsageError(`--chart writes an SVG image: give a file name ending in .svg, got "${value}"`);
  const folder = statSync(path.dirname(path.resolve(value)), { throwIfNoEntry: false });
  if (!folder?.isDirectory()) throw new UsageError(`--chart: the folder of ${value} does not exist`);
  if (statSync(value, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--chart: ${value} is a folder, not a file`);
  return value;
}

/**
 * `svc backtest --series TICKER [--hours 24] [--max-events 200] [--chart FILE.svg] [--json]`:
 * scores market prices and the model on the series' settled markets, walk-forward.
 */
export async function backtestCommand(args: Args, config: Config): Promise<number> {
  onlyFlags(args, ['series', 'hours', 'max-events', 'chart', 'json']);
  const series = flag(args, 'series', true).trim().toUpperCase();
  // A series ticker is letters, digits, dots, dashes and underscores: anything else cannot be one.
  if (!/^[A-Z0-9._-]{1,64}$/.test(series)) throw new UsageError(`--series must be a Kalshi series ticker such as KXHIGHNY, got "${flag(args, 'series')}"`);
  const hours = intFlag(args, 'hours', 24, { min: 1, max: 24 * 30 });
  const maxEvents = intFlag(args, 'max-events', 200, { min: 1, max: 100_000 });
  const chart = chartPath(flag(args, 'chart'));
  const client = new KalshiClient(kalshiSource(config));
  const { observations, exclusive, unpriced } = await settledObservations(client, series, { hours, maxEvents });
  if (!observations.length) {
    const snapshot = config.kalshi.snapshotDir ? ` (a snapshot holds only the prices its recording read, ${PRE_CLOSE_HOURS} h before close: try --hours ${PRE_CLOSE_HOURS})` : '';
    // What the data holds, found by running (exit 1), not a malformed command line (exit 2).
    throw new SvcError('not_found', { code: 'no_settled_markets', message: `no settled markets with prices ${hours} h before close were found for series ${series}${hours === PRE_CLOSE_HOURS ? '' : snapshot}` });
  }
  const result = backtest(observations, (e) => exclusive.get(e) ?? false);
  if (chart) {
    const svg = reliabilitySvg(`${series}: reliability, prices ${hours} h before close`, [
      { name: `Market (Brier ${result.market.brier.toFixed(4)})`, color: '#d9534f', bins: result.marketBins },
      { name: `Model (Brier ${result.model.brier.toFixed(4)})`, color: '#0275d8', bins: result.modelBins },
    ]);
    try {
      writeFileSync(chart, svg);
    } catch (err) {
      throw new SvcError('unavailable', { code: 'chart_not_written', message: `could not write the chart to ${chart}: ${(err as Error).message}` });
    }
  }
  if (args.flags.has('json')) {
    // snake_case, as every other command prints; every fraction to 4 decimals (0.3, not 0.30000000000000004).
    const bins = (list: CalibrationBin[]) => list.map((b) => ({ from: round4(b.from), to: round4(b.to), count: b.count, mean_predicted: round4(b.meanPredicted), observed: round4(b.observed) }));
    const scores = (x: typeof result.market) => ({ brier: round4(x.brier), log_loss: round4(x.logLoss) });
    print({
      series,
      hours,
      events: result.events,
      markets: result.markets,
      market: scores(result.market),
      model: scores(result.model),
      market_bins: bins(result.marketBins),
      model_bins: bins(result.modelBins),
      final: { a: round4(result.final.a), b: round4(result.final.b), c: round4(result.final.c), n: result.final.n },
      unpriced_events: unpriced,
      chart: chart ?? null,
    });
    return 0;
  }
  const lines = [
    `Backtest of ${series}: ${result.markets} settled market${result.markets === 1 ? '' : 's'} in ${result.events} event${result.events === 1 ? '' : 's'}, prices ${hours} h before close${unpriced ? ` (${unpriced} event${unpriced === 1 ? '' : 's'} without prices skipped)` : ''}.`,
    'Each event is predicted by a model fitted only on the events that closed before it.',
    '',
    '            Brier    log loss',
    `market     ${result.market.brier.toFixed(4)}   ${result.market.logLoss.toFixed(4)}`,
    `model      ${result.model.brier.toFixed(4)}   ${result.model.logLoss.toFixed(4)}`,
    '',
    binsTable(result.marketBins, result.modelBins),
    '',
    `Final calibration: a = ${result.final.a.toFixed(3)}, b = ${result.final.b.toFixed(3)} on ${result.final.n} markets.`,
    ...(chart ? [`Reliability chart written to ${chart}.`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
