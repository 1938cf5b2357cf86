import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveSource, RecordingSource, SnapshotSource, Throttle, UpstreamPause, parseRetryAfter, requestKey, waitWords } from '../../src/data/source.js';
import { FakeHttpServer } from '../helpers/fake-http.js';

let fake: FakeHttpServer;
const sleeps: number[] = [];
const source = (over: Partial<ConstructorParameters<typeof LiveSource>[0]> = {}) =>
  new LiveSource({
    name: 'Fake',
    baseUrl: fake.url,
    requestsPerSecond: 100,
    timeoutMs: 300,
    retries: 3,
    headers: { 'user-agent': 'svc-test ops@example.com' },
    sleep: async (ms) => void sleeps.push(ms),
    ...over,
  });

beforeAll(async () => {
  fake = await new FakeHttpServer(() => ({ json: {} })).start();
});
afterAll(() => fake.close());

describe('LiveSource', () => {
  it('sends sorted queries and its headers, and returns JSON', async () => {
    fake.setHandler((r) => ({ json: { path: r.path, q: r.query.toString(), ua: r.headers['user-agent'] } }));
    const res = await source().get<any>('/events/X', { with_nested_markets: true, a: 1, skip: undefined });
    expect(res).toEqual({ status: 200, body: { path: '/events/X', q: 'a=1&with_nested_markets=true', ua: 'svc-test ops@example.com' } });
  });

  it('returns 404s to the caller instead of failing', async () => {
    fake.setHandler(() => ({ status: 404, json: { error: { code: 'not_found' } } }));
    expect((await source().get('/events/NOPE')).status).toBe(404);
  });

  it('retries 429 honouring Retry-After, and 5xx with growing backoff', async () => {
    let n = 0;
    sleeps.length = 0;
    fake.setHandler(() => (++n === 1 ? { status: 429, json: {}, headers: { 'retry-after': '2' } } : n < 4 ? { status: 503, json: {} } : { json: { ok: true } }));
    expect((await source().get('/x')).body).toEqual({ ok: true });
    expect(sleeps[0]).toBe(2000);
    expect(sleeps.length).toBe(3);
    expect(sleeps[2]!).toBeGreaterThan(sleeps[1]! * 0.9 / 2); // jittered exponential
  });

  it('gives up after its retries with a clear upstream error', async () => {
    fake.setHandler(() => ({ status: 500, json: {} }));
    await expect(source({ retries: 2 }).get('/x')).rejects.toMatchObject({ kind: 'upstream', code: 'upstream_unavailable', message: expect.stringMatching(/Fake answered 500 \(3 attempts\)/) });
  });

  it('times out a request that hangs, retries, then reports a timeout', async () => {
    fake.setHandler(() => 'hang');
    await expect(source({ retries: 1, timeoutMs: 100 }).get('/slow')).rejects.toMatchObject({ kind: 'upstream_timeout', code: 'upstream_timeout' });
    expect(fake.requests.filter((r) => r.path === '/slow')).toHaveLength(2);
  });

  it('times out an answer whose body stalls after the headers, retries it, then reports a timeout', async () => {
    fake.setHandler(() => 'stall-body');
    await expect(source({ retries: 1, timeoutMs: 150 }).get('/stall')).rejects.toMatchObject({ kind: 'upstream_timeout', code: 'upstream_timeout' });
    expect(fake.requests.filter((r) => r.path === '/stall')).toHaveLength(2);
    let n = 0;
    fake.setHandler(() => (++n === 1 ? 'stall-body' : { json: { ok: true } }));
    expect((await source({ retries: 1, timeoutMs: 150 }).get('/stall-once')).body).toEqual({ ok: true });
  });

  it('fails at once on a Retry-After too long to wait, passing it on', async () => {
    fake.setHandler(() => ({ status: 429, json: {}, headers: { 'retry-after': '600' } }));
    await expect(source().get('/x')).rejects.toMatchObject({ retryAfterSeconds: 600 });
    // The message says how long, not "shortly".
    const err = await source().get('/x').catch((e) => e);
    expect(err.message).toMatch(/answered 429 \(rate limited\) and asked for 10 minutes before the next request \(1 attempt\)\. Try again in 10 minutes\.$/);
  });

  it('says waits in the unit a person would', () => {
    expect([1, 1500, 45_000, 89_000, 90_000, 600_000, 3_600_000, 7_200_000].map(waitWords)).toEqual(['1 second', '2 seconds', '45 seconds', '89 seconds', '2 minutes', '10 minutes', '60 minutes', '2 hours']);
  });

  it('refuses other 4xx answers without retrying', async () => {
    const before = fake.requests.length;
    fake.setHandler(() => ({ status: 403, text: 'undeclared automated tool' }));
    await expect(source().get('/x')).rejects.toMatchObject({ code: 'upstream_rejected' });
    expect(fake.requests.length - before).toBe(1);
  });

  it('a 403 pauses every source sharing the pause: nothing is sent until it ends', async () => {
    let now = 1_000_000;
    const pause = new UpstreamPause(600_000, () => now);
    const [a, b] = [source({ pauseOn403: pause }), source({ pauseOn403: pause })];
    const before = fake.requests.length;
    fake.setHandler(() => ({ status: 403, text: 'Your Request Originates from an Undeclared Automated Tool' }));
    const blocked = { kind: 'upstream', code: 'upstream_blocked', retryAfterSeconds: 600, permanent: true, message: expect.stringContaining('paused until') };
    await expect(a.get('/x')).rejects.toMatchObject(blocked);
    fake.setHandler(() => ({ json: { ok: true } }));
    now += 300_000;
    await expect(b.get('/y')).rejects.toMatchObject({ ...blocked, retryAfterSeconds: 300 });
    expect(fake.requests.length - before).toBe(1);
    now += 300_000;
    expect((await b.get('/y')).body).toEqual({ ok: true });
    // Without a pause (or with 0 ms) a 403 is only this request's failure.
    fake.setHandler(() => ({ status: 403, text: 'no' }));
    await expect(source({ pauseOn403: new UpstreamPause(0) }).get('/z')).rejects.toMatchObject({ code: 'upstream_rejected', permanent: true });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('Throttle', () => {
  /** The most starts inside any window of `ms`. */
  const busiest = (times: number[], ms: number) => Math.max(...times.map((t) => times.filter((u) => u >= t && u - t < ms).length));

  it('lets a burst of the rate go at once, then never more than the rate in any second', async () => {
    const throttle = new Throttle(10);
    const t0 = Date.now();
    const times: number[] = [];
    await Promise.all(Array.from({ length: 25 }, () => throttle.take().then(() => times.push(Date.now() - t0))));
    expect(times.slice(0, 10).every((t) => t < 50)).toBe(true);
    expect(busiest(times, 1000)).toBe(10);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(2000); // 25 starts at 10 per second
  });

  it('is shared by the sources given it, as the SEC limit covers both its hosts', async () => {
    fake.setHandler(() => ({ json: {} }));
    const shared = new Throttle(4);
    // Starts are timed where the throttle lets them go: completions bunch on a loaded machine.
    const t0 = Date.now();
    const times: number[] = [];
    const throttle = { perSecond: shared.perSecond, take: () => shared.take().then(() => void times.push(Date.now() - t0)) };
    const [a, b] = [source({ throttle }), source({ throttle })];
    const before = fake.requests.length;
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).get(`/shared/${i}`)));
    expect(fake.requests.length - before).toBe(12);
    expect(times).toHaveLength(12);
    expect(busiest(times, 1000)).toBeLessThanOrEqual(4);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(2000); // 12 starts at 4 per second, whichever source
  });
});

describe('snapshots', () => {
  it('records live answers and replays them, 404s included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-snap-'));
    try {
      fake.setHandler((r) => (r.path === '/missing' ? { status: 404, json: { error: 'nope' } } : r.path.endsWith('.htm') ? { text: '<html>doc</html>' } : { json: { path: r.path, q: r.query.get('q') } }));
      const rec = new RecordingSource(source(), dir, new Date('2026-11-19T12:00:00Z'), fake.url);
      await rec.get('/a', { q: 'one' });
      await rec.get('/a', { q: 'two' });
      await rec.get('/missing');
      await rec.getText('/Archives/doc.htm');
      rec.finish();
      const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      expect(Object.keys(manifest.entries).sort()).toEqual(['/Archives/doc.htm', '/a?q=one', '/a?q=two', '/missing']);
      const snap = new SnapshotSource(dir, 'Fake');
      expect(snap.recordedAt.toISOString()).toBe('2026-11-19T12:00:00.000Z');
      expect((await snap.get('/a', { q: 'two' })).body).toEqual({ path: '/a', q: 'two' });
      expect((await snap.get('/missing')).status).toBe(404);
      expect((await snap.get('/never')).status).toBe(404);
      expect((await snap.getText('/Archives/doc.htm')).body).toBe('<html>doc</html>');
      // Two answers recorded for /a: a third query is not guessed.
      expect((await snap.get('/a', { q: 'three' })).status).toBe(404);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keys requests by path and sorted, non-empty query', () => {
    expect(requestKey('/m', { b: 2, a: 'x y', c: undefined, d: '' })).toBe('/m?a=x%20y&b=2');
  });
});
