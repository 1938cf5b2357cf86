import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli.js';
import { PACKAGE_ROOT } from '../src/config.js';
import { eventUrl } from './fixtures/kalshi-world.js';
import { DEMO_WORLD } from './fixtures/sec-world.js';
import { runCli } from './helpers/cli.js';
import { startFakeKalshi, type FakeKalshi } from './helpers/fake-kalshi.js';
import { startFakeSec, type FakeSec } from './helpers/fake-sec.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'svc-recorders-'));
let kalshi: FakeKalshi;
let sec: FakeSec;
beforeAll(async () => {
  [kalshi, sec] = await Promise.all([startFakeKalshi(), startFakeSec(DEMO_WORLD)]);
});
afterAll(async () => {
  await Promise.all([kalshi.close(), sec.close()]);
  rmSync(root, { recursive: true, force: true });
});

// `snapshot record` printed {snapshot, recorded_at, events} and `record-sec` {out, manifest,
// companies, use}: a script handling both had to know two shapes, and only one said how to use it.
describe('the two snapshot recorders print one shape', () => {
  it('what was recorded, where, when, with counts, and the setting that serves it', async () => {
    const kOut = path.join(root, 'kalshi');
    const sOut = path.join(root, 'sec');
    const urls = ['KXFEDDECISION', 'KXCPIYOY'].map((series) => eventUrl(kalshi.world, kalshi.world.openEvents.find((t) => t.startsWith(`${series}-`))!));
    const [k, s] = await Promise.all([
      runCli(['snapshot', 'record', ...urls, '--out', kOut], { SVC_KALSHI_API_URL: kalshi.apiUrl }),
      runCli(['snapshot', 'record-sec', 'AAPL', 'Microsoft', '--out', sOut, '--filings', '2'], { SVC_SEC_API_URL: sec.url, SVC_SEC_WWW_URL: sec.url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com' }),
    ]);
    expect(k.code, k.stderr).toBe(0);
    expect(s.code, s.stderr).toBe(0);
    const [kp, sp] = [JSON.parse(k.stdout), JSON.parse(s.stdout)];
    const keys = ['source', 'out', 'manifest', 'recorded_at', 'counts', 'recorded', 'use'];
    expect(Object.keys(kp)).toEqual(keys);
    expect(Object.keys(sp)).toEqual(keys);

    for (const [p, out, source, env] of [[kp, kOut, 'kalshi', 'SVC_KALSHI_SNAPSHOT_DIR'], [sp, sOut, 'sec', 'SVC_SEC_SNAPSHOT_DIR']] as const) {
      expect(p.source).toBe(source);
      expect(p.out).toBe(out);
      expect(p.manifest).toBe(path.join(out, 'manifest.json'));
      expect(p.use).toBe(`${env}=${out}`);
      const manifest = JSON.parse(readFileSync(p.manifest, 'utf8'));
      expect(p.recorded_at).toBe(new Date(manifest.recordedAt).toISOString());
      expect(p.counts.responses).toBe(Object.keys(manifest.entries).length);
      for (const item of p.recorded) expect(item).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
    }
    expect(kp.recorded.map((e: { id: string }) => e.id)).toEqual(['KXFEDDECISION-26DEC', 'KXCPIYOY-26DEC']);
    expect(kp.counts).toEqual({ events: 2, markets: kp.recorded.reduce((n: number, e: { markets: number }) => n + e.markets, 0), responses: expect.any(Number) });
    expect(kp.counts.markets).toBeGreaterThan(2);
    expect(sp.recorded.map((c: { id: string; cik: number }) => [c.id, c.cik])).toEqual([['AAPL', 320193], ['MSFT', 789019]]);
    expect(sp.counts).toEqual({ companies: 2, documents: 4, responses: expect.any(Number) });
  }, 120_000);
});

// `--json 0.30000000000000004`-style floats: scores and bins are now rounded to 4 decimals.
describe('svc backtest --json', () => {
  it('prints every fraction to at most 4 decimal places, and empty bins as null', async () => {
    const r = await runCli(['backtest', '--series', 'KXHIGHNY', '--json'], { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') });
    expect(r.code, r.stderr).toBe(0);
    const numbers = [...r.stdout.matchAll(/-?\d+\.\d+(?:e-?\d+)?/g)].map((m) => m[0]);
    expect(numbers.length).toBeGreaterThan(20);
    for (const n of numbers) expect(n, n).toMatch(/^-?\d+\.\d{1,4}$/);
    const result = JSON.parse(r.stdout);
    expect(result.market_bins.map((b: { from: number; to: number }) => [b.from, b.to])).toEqual(Array.from({ length: 10 }, (_, i) => [i / 10, (i + 1) / 10]));
    expect(Object.keys(result.final)).toEqual(['a', 'b', 'c', 'n']);
    for (const bin of [...result.market_bins, ...result.model_bins]) {
      if (bin.count === 0) expect([bin.mean_predicted, bin.observed]).toEqual([null, null]);
      else expect(bin.mean_predicted).toBeGreaterThanOrEqual(bin.from - 1e-4);
    }
  }, 60_000);
});

describe('boolean switches never take the next word', () => {
  it('parseArgs: a switch is on, the word after it is an argument; other flags still take theirs', () => {
    const a = parseArgs(['--json', 'extra', '--series', 'KX'], ['json']);
    expect(a.positional).toEqual(['extra']);
    expect(a.flags.get('json')).toBe('true');
    expect(a.flags.get('series')).toBe('KX');
    expect(() => parseArgs(['--json=false'], ['json'])).toThrow('--json takes no value (it is on when given), got "--json=false"');
    // Without the switch declared, the old reading (for value flags) is unchanged.
    expect(parseArgs(['--note', 'extra']).flags.get('note')).toBe('extra');
  });

  it('svc backtest --json before and after other flags reads the same', async () => {
    const env = { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') };
    const [first, last, extra] = await Promise.all([
      runCli(['backtest', '--json', '--series', 'KXHIGHNY'], env),
      runCli(['backtest', '--series', 'KXHIGHNY', '--json'], env),
      runCli(['backtest', '--json', 'KXHIGHNY', '--series', 'KXHIGHNY'], env),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(last.stdout);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toBe('svc: unexpected argument "KXHIGHNY"; usage: svc backtest --series TICKER [--hours 24] [--max-events 200] [--chart FILE.svg] [--json]\n');
  }, 60_000);
});
