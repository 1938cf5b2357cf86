import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../../src/agents/prediction-markets/report.js';
import { research } from '../../../src/agents/prediction-markets/research.js';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { KalshiClient } from '../../../src/data/kalshi/client.js';
import { parseEventUrl } from '../../../src/data/kalshi/url.js';
import { LiveSource, SnapshotSource } from '../../../src/data/source.js';
import { eventUrl } from '../../fixtures/kalshi-world.js';
import { runCli } from '../../helpers/cli.js';
import { startFakeKalshi, type FakeKalshi } from '../../helpers/fake-kalshi.js';
import { startService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

let fake: FakeKalshi;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'svc-kalshi-snap-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  fake = await startFakeKalshi();
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const urlOf = (series: string) => eventUrl(fake.world, fake.world.openEvents.find((t) => t.startsWith(`${series}-`))!);
const withoutSourceLine = (text: string) => text.replace(/\*\*Data source:\*\*.*\n/, '').replace(/\*\*Caveats:\*\*.*$/m, '');

describe('svc snapshot record', () => {
  it('records what the reports need; replayed offline, the report has exactly the same figures', async () => {
    const out = path.join(tmp(), 'rec');
    const r = await runCli(['snapshot', 'record', urlOf('KXFEDDECISION'), urlOf('KXCPIYOY'), '--out', out], { SVC_KALSHI_API_URL: fake.apiUrl });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.recorded.map((e: any) => e.id)).toEqual(['KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC']);
    const recordedAt = new Date(summary.recorded_at);
    const snapshot = new SnapshotSource(out, 'Kalshi');
    expect(snapshot.recordedAt.toISOString()).toBe(recordedAt.toISOString());

    for (const series of ['KXFEDDECISION', 'KXCPIYOY']) {
      const address = parseEventUrl(urlOf(series));
      const replayed = writeReport(await research(new KalshiClient(snapshot), address.eventTicker), { apiUrl: 'https://api', source: { mode: 'snapshot', recordedAt } });
      const liveClient = new KalshiClient(new LiveSource({ name: 'Kalshi', baseUrl: fake.apiUrl, requestsPerSecond: 20, timeoutMs: 5000, retries: 1 }), () => recordedAt);
      const live = writeReport(await research(liveClient, address.eventTicker), { apiUrl: 'https://api', source: { mode: 'live' } });
      expect(withoutSourceLine(replayed.text)).toBe(withoutSourceLine(live.text));
      expect(replayed.text).toContain(`Kalshi data from a snapshot recorded ${recordedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (offline, not live prices)`);
    }
  });

  it('leaves no folder behind when the exchange cannot be reached', async () => {
    const out = path.join(tmp(), 'unreachable');
    const r = await runCli(['snapshot', 'record', urlOf('KXFEDDECISION'), '--out', out], { SVC_KALSHI_API_URL: 'http://127.0.0.1:9/trade-api/v2', SVC_KALSHI_RETRIES: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Kalshi could not be reached/);
    expect(existsSync(out)).toBe(false);
  });

  it('records an event once however many of its addresses are given', async () => {
    const out = path.join(tmp(), 'twice');
    const url = urlOf('KXFEDDECISION');
    const r = await runCli(['snapshot', 'record', url, `${url.toUpperCase().replace('HTTPS://', 'https://')}/`, '--out', out], { SVC_KALSHI_API_URL: fake.apiUrl });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).recorded.map((e: any) => e.id)).toEqual(['KXFEDDECISION-26DEC']);
    expect(JSON.parse(readFileSync(path.join(out, 'events.json'), 'utf8'))).toHaveLength(1);
  });

  it('refuses an --out it could not write before fetching anything, and removes the folder of a recording that failed midway', async () => {
    const dir = tmp();
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    const before = fake.requests.length;
    for (const [out, message] of [
      [file, `svc: --out ${file}: is a file, not a folder`],
      [path.join(file, 'below'), `svc: --out ${path.join(file, 'below')}: ${file} is a file, not a folder`],
    ] as const) {
      const r = await runCli(['snapshot', 'record', urlOf('KXFEDDECISION'), '--out', out], { SVC_KALSHI_API_URL: fake.apiUrl });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(message);
    }
    expect(fake.requests.length).toBe(before);
    // The order books fail after the event and series were already saved: no half snapshot is left.
    const failing = await startFakeKalshi({ intercept: (req) => (req.path.endsWith('/markets/orderbooks') ? { status: 500, json: { error: 'down' } } : undefined) });
    try {
      const out = path.join(dir, 'midway');
      const r = await runCli(['snapshot', 'record', eventUrl(failing.world, failing.world.openEvents[0]!), '--out', out], { SVC_KALSHI_API_URL: failing.apiUrl, SVC_KALSHI_RETRIES: '0' });
      expect(r.code).toBe(1);
      expect(failing.requests.length).toBeGreaterThan(1);
      expect(existsSync(out)).toBe(false);
    } finally {
      await failing.close();
    }
  });

  it('refuses addresses that are not Kalshi events, before recording anything', async () => {
    const out = path.join(tmp(), 'bad');
    const r = await runCli(['snapshot', 'record', 'https://example.com/markets/a/b/c-1', '--out', out], { SVC_KALSHI_API_URL: fake.apiUrl });
    expect(r.code).toBe(2); // a malformed argument: a usage error
    expect(r.stderr).toMatch(/not kalshi\.com/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('the shipped demo snapshot', () => {
  const dir = path.join(PACKAGE_ROOT, 'snapshots', 'kalshi');
  const events = JSON.parse(readFileSync(path.join(dir, 'events.json'), 'utf8')) as { event: string; url: string; category: string; settled_events: number }[];

  it('covers at least 12 events in at least 6 categories, each with settled history', () => {
    expect(events.length).toBeGreaterThanOrEqual(12);
    expect(new Set(events.map((e) => e.category)).size).toBeGreaterThanOrEqual(6);
    for (const e of events) expect(e.settled_events, e.event).toBeGreaterThan(5);
  });

  it('settles every ladder consistently: YES on a strike means YES on every lower one', () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { entries: Record<string, { file: string }> };
    const settled = Object.entries(manifest.entries)
      .filter(([request]) => /^\/(?:historical\/)?markets\?/.test(request))
      .flatMap(([, { file }]) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { markets: { event_ticker: string; strike_type?: string; floor_strike?: number; result: string }[] }).markets);
    const ladders = new Map<string, { strike: number; yes: boolean }[]>();
    for (const m of settled) {
      if (m.strike_type !== 'greater' || typeof m.floor_strike !== 'number') continue;
      ladders.set(m.event_ticker, [...(ladders.get(m.event_ticker) ?? []), { strike: m.floor_strike, yes: m.result === 'yes' }]);
    }
    expect(ladders.size).toBeGreaterThan(20);
    for (const [event, rungs] of ladders) {
      const results = rungs.sort((a, b) => a.strike - b.strike).map((r) => r.yes);
      // Sorted by strike, the results are some YES then only NO.
      expect(results.indexOf(false) === -1 || !results.slice(results.indexOf(false)).includes(true), `${event}: ${JSON.stringify(rungs)}`).toBe(true);
    }
  });

  it('serves a full report for every event, offline, marked as recorded synthetic demo data', async () => {
    const svc = await startService({ env: { SVC_KALSHI_SNAPSHOT_DIR: dir, SVC_KALSHI_API_URL: 'http://127.0.0.1:9/unreachable' } });
    try {
      const { apiKey } = await svc.account({ plan: 'pro', credits: 3 * events.length });
      for (const e of events) {
        const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-prediction-markets-agent', input: e.url });
        expect(res.status, e.event).toBe(200);
        const text = ((await res.json()) as any).output[0].content[0].text as string;
        expect(text).toContain('Kalshi data from a snapshot recorded 2026-11-19 15:00 UTC (synthetic demo data; offline, not live prices)');
        expect(text).toMatch(/^\| [A-Z0-9-]+ \| \d{4}-\d{2}-\d{2} \| .+ \| .+ \|$/m); // a settled event in the history table
        expect(text).toMatch(/\*\*Base rates\*\* \(how often each outcome resolved YES, \d+ settled markets/);
        expect(text).toContain('## Contract snapshot');
      }
      const search = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: 'what are the odds of a Fed cut in December?' });
      expect(((await search.json()) as any).output[0].content[0].text).toContain('**Fed decision in December 2026?**');
      // An event the snapshot did not record (a settled one, here) is missing from the snapshot, not from Kalshi; nothing is charged.
      const settled = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-prediction-markets-agent', input: 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26oct' });
      expect(settled.status).toBe(404);
      expect(((await settled.json()) as any).error).toMatchObject({ code: 'event_not_found', param: 'input', message: expect.stringMatching(/^The Kalshi snapshot in use \(recorded 2026-11-19\) has no event 'KXFEDDECISION-26OCT': offline, only the events it recorded can be read\./) });
      expect(settled.headers.get('x-credits-charged')).toBe('0');
      // Through the router, streamed, an event that is nowhere is the same 404: no stream opens to fail.
      for (const model of ['svc-agent', 'svc-prediction-markets-agent:cache']) {
        const streamed = await post(`${svc.baseURL}/responses`, apiKey, { model, input: 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-27oct', stream: true });
        expect(streamed.status, model).toBe(404);
        expect(((await streamed.json()) as any).error, model).toMatchObject({ code: 'event_not_found', param: 'input' });
      }
      // The router answers what a settled one resolved to, from the series' record.
      const past = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: 'what happened in the october fed market? https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26oct' });
      expect(past.status).toBe(200);
      expect(((await past.json()) as any).output[0].content[0].text).toMatch(/^\*\*KXFEDDECISION-26OCT\*\* has settled \(trading closed 2026-10-20\): \*\*Cut more than 25bps\*\* resolved YES, every other outcome NO \[1\]\./);
    } finally {
      await svc.close();
    }
  });
});

describe('demo reports: figures the snapshot implies', () => {
  const dir = path.join(PACKAGE_ROOT, 'snapshots', 'kalshi');
  const report = async (eventTicker: string) => {
    const snapshot = new SnapshotSource(dir, 'Kalshi');
    return writeReport(await research(new KalshiClient(snapshot, () => snapshot.recordedAt), eventTicker), { apiUrl: 'https://api', source: { mode: 'snapshot', recordedAt: snapshot.recordedAt } }).text;
  };
  const outcomes = (text: string) =>
    text
      .split('## Outcomes: model vs market')[1]!
      .split('\n## ')[0]!
      .split('\n')
      .filter((l) => /^\| Above/.test(l))
      .map((l) => l.split('|').map((c) => c.trim()))
      .map((c) => ({ strike: Number(/Above \$?([\d,.]+)/.exec(c[1]!)![1]!.replace(/,/g, '')), model: Number(c[3]!.replace('%', '')) }));

  it('holds a ladder of strikes in order where the market prices it crossed, and says so', async () => {
    for (const [ticker, crossed] of [
      ['KXCPIYOY-26DEC', 'Above 2.8 at 96.0% against Above 2.6 at 92.5%'],
      ['KXBTCD-26NOV20', 'Above $104,000 at 5.0% against Above $100,000 at 4.0%'],
    ] as const) {
      const text = await report(ticker);
      expect(text).toContain(`The market prices its strikes out of order: ${crossed}, though YES on the first implies YES on the second.`);
      const rows = outcomes(text).sort((a, b) => a.strike - b.strike);
      expect(rows.length).toBeGreaterThan(2);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.model, `${ticker} above ${rows[i]!.strike}`).toBeLessThanOrEqual(rows[i - 1]!.model);
    }
  });

  it('says when its quotes lock in a profit across exclusive outcomes (NO on every one at 1 minus its bid), and only then', async () => {
    const nyc = await report('KXHIGHNY-26NOV20');
    const [, cost, pays, locked] = /\*\*Arbitrage on these quotes:\*\* NO on every outcome, each at 1 minus its YES bid, costs \$(\d+\.\d\d) and pays \$(\d+) \(every outcome but the winner pays\), (\d+)¢ locked in before fees/.exec(nyc)!;
    const bids = [...nyc.split('## Contract snapshot')[1]!.matchAll(/^\| KX[^|]+\| \$(\d\.\d\d) \|/gm)].map((m) => Number(m[1]));
    expect(Number(pays)).toBe(bids.length - 1);
    expect(Number(cost)).toBeCloseTo(bids.length - bids.reduce((a, b) => a + b, 0), 6);
    expect(Number(locked)).toBe(Math.round((Number(pays) - Number(cost)) * 100));
    expect(Number(locked)).toBeGreaterThan(0);
    // A yes/no contract, or quotes that lock nothing in: no such line.
    expect(await report('KXSHUTDOWN-26DEC31')).not.toContain('Arbitrage on these quotes');
  });

  it('quotes the rules that can flip an outcome: postponement, and a source not published', async () => {
    expect(await report('KXNBAGAME-26NOV21LALBOS')).toContain('**Could flip the outcome:** “If the game is postponed and not played within 48 hours, the market resolves to the fair price at the time of postponement.”');
    expect(await report('KXAPPROVAL-26NOV27')).toContain('**Could flip the outcome:** “If no average is published that day, the last average published before it is used.”');
    // Closing early once decided changes when trading ends, not who wins.
    const shutdown = await report('KXSHUTDOWN-26DEC31');
    expect(shutdown).toContain('- **Trading may close early:** “This market closes early once the outcome is determined.”');
    expect(shutdown).not.toMatch(/Could flip the outcome:\*\* “This market closes early/);
  });

  it('never says high confidence of a model fitted on fewer than 40 settled markets', async () => {
    const text = await report('KXNFLGAME-26NOV23BUFKC');
    expect(text).toMatch(/\| medium \(24 settled markets in the fit, \$0\.0\d spread\) \|/);
    expect(text).not.toMatch(/\| high \(/);
  });

  it('marks a past winner with no price before close as such, and says what that means', async () => {
    const text = await report('KXCPIYOY-26DEC');
    expect(text).not.toContain('| n/a |');
    expect(text).toContain('| KXCPIYOY-26MAR | 2026-03-24 | Above 2.6, Above 2.8, Above 3.0 | no price, no price, no price |');
    expect(text).toContain('“No price”: the exchange\'s candlesticks show no trade and no two-sided quote for it in the two hours before that time.');
  });
});

describe('svc backtest', () => {
  it('scores market and model on the settled markets and writes the reliability chart', async () => {
    const chart = path.join(tmp(), 'chart.svg');
    const r = await runCli(['backtest', '--series', 'KXHIGHNY', '--chart', chart], { SVC_KALSHI_API_URL: fake.apiUrl });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Backtest of KXHIGHNY: 70 settled markets in 14 events, prices 24 h before close/);
    expect(r.stdout).toMatch(/market\s+0\.\d{4}\s+0\.\d{4}/);
    expect(r.stdout).toMatch(/model\s+0\.\d{4}\s+0\.\d{4}/);
    expect(r.stdout).toMatch(/^0-10%/m);
    const svg = readFileSync(chart, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect((svg.match(/<circle/g) ?? []).length).toBeGreaterThan(4);
    const json = await runCli(['backtest', '--series', 'kxhighny', '--json', '--hours', '24'], { SVC_KALSHI_API_URL: fake.apiUrl });
    const result = JSON.parse(json.stdout);
    expect(result.markets).toBe(70);
    expect(result.market_bins).toHaveLength(10);
    expect(Object.keys(result.market_bins[0])).toEqual(['from', 'to', 'count', 'mean_predicted', 'observed']);
    expect(Object.keys(result.model)).toEqual(['brier', 'log_loss']);
    expect(result.model.brier).toBeGreaterThan(0);
  });

  it('refuses bad flags in one line before doing any work', async () => {
    const dir = tmp();
    const cases: [string[], RegExp][] = [
      [['--chart'], /--chart needs a value/],
      [['--chart', path.join(dir, 'chart.png')], /--chart writes an SVG image: give a file name ending in \.svg, got ".*chart\.png"/],
      [['--chart', path.join(dir, 'no-such-folder', 'chart.svg')], /the folder of .* does not exist/],
      [['--max-events', '-1'], /--max-events must be an integer between 1 and 100000, got "-1"/],
      [['--max-events', '0'], /--max-events must be an integer between 1 and 100000/],
      [['--bogus', '1'], /unknown flag --bogus; this command takes --series, --hours, --max-events, --chart, --json/],
    ];
    mkdirSync(path.join(dir, 'folder.svg'));
    cases.push([['--chart', path.join(dir, 'folder.svg')], /folder\.svg is a folder, not a file/]);
    for (const [extra, message] of cases) {
      const r = await runCli(['backtest', '--series', 'KXHIGHNY', ...extra], { SVC_KALSHI_API_URL: fake.apiUrl });
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(path.join(dir, 'chart.png'))).toBe(false);
    // Seven command-line processes one after another, each starting Node with tsx: about 25 s alone, more on a busy machine.
  }, 90_000);

  it('on a snapshot, prices at another time before close than it recorded are none (not its 24 h prices labelled so), and it says which it has', async () => {
    const env = { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') };
    expect((await runCli(['backtest', '--series', 'KXHIGHNY'], env)).stdout).toMatch(/prices 24 h before close/);
    for (const hours of ['1', '48']) {
      const r = await runCli(['backtest', '--series', 'KXHIGHNY', '--hours', hours], env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`svc: no settled markets with prices ${hours} h before close were found for series KXHIGHNY (a snapshot holds only the prices its recording read, 24 h before close: try --hours 24)`);
    }
  }, 60_000);

  it('explains a series without settled history', async () => {
    const r = await runCli(['backtest', '--series', 'KXNOTHING'], { SVC_KALSHI_API_URL: fake.apiUrl });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no settled markets/);
  });
});
