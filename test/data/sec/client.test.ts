import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecClient } from '../../../src/data/sec/client.js';
import { LiveSource } from '../../../src/data/source.js';
import { DEMO_WORLD, submissionsFile } from '../../fixtures/sec-world.js';
import { FakeHttpServer } from '../../helpers/fake-http.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';

let fake: FakeSec;
const archive = mkdtempSync(path.join(os.tmpdir(), 'svc-archive-'));
beforeAll(async () => {
  fake = await startFakeSec(DEMO_WORLD);
});
afterAll(async () => {
  await fake.close();
  rmSync(archive, { recursive: true, force: true });
});

const source = (userAgent = 'svc tests ops@example.com') =>
  new LiveSource({ name: 'SEC EDGAR', baseUrl: fake.url, requestsPerSecond: 100, timeoutMs: 2000, retries: 0, headers: { 'user-agent': userAgent } });
const client = (options: { ttlMs?: number; archiveDir?: string } = {}) => {
  const s = source();
  return new SecClient({ api: s, www: s, ...options });
};

describe('SecClient', () => {
  it('reads the EDGAR documents at their paths, and keeps tickers and facts for a while', async () => {
    const c = client();
    const before = fake.count('/');
    const [tickers] = await Promise.all([c.tickers(), c.tickers()]);
    expect(tickers['0']).toEqual({ cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' });
    expect((await c.companyFacts(320193))!.entityName).toBe('Apple Inc.');
    await c.companyFacts(320193);
    expect((await c.submissions(320193))!.fiscalYearEnd).toBe('0927');
    expect(fake.count('/') - before).toBe(3);
    expect(fake.server.requests.at(-1)!.path).toBe('/submissions/CIK0000320193.json');
  });

  it('fetches again once the cache time is over', async () => {
    const c = client({ ttlMs: 1 });
    await c.tickers();
    await new Promise((r) => setTimeout(r, 5));
    const before = fake.count('/files/');
    await c.tickers();
    expect(fake.count('/files/') - before).toBe(1);
  });

  it('answers null for a CIK EDGAR does not know (its 404 body is not JSON)', async () => {
    expect(await client().submissions(1045810)).toBeNull();
    expect(await client().companyFacts(1045810)).toBeNull();
  });

  it('finds a filing by accession number and keeps its document for good, on disk too', async () => {
    const c = client({ archiveDir: archive });
    const filing = (await c.filing(320193, '0000320193-24-000081'))!;
    expect(filing).toMatchObject({ form: '10-Q', reportDate: '2024-06-29', primaryDocument: 'aapl-20240629.htm', filingDate: '2024-08-02', isInlineXBRL: true });
    const before = fake.count('/Archives/');
    expect(await c.document(filing)).toContain('ix:nonFraction');
    await c.document(filing);
    await client({ archiveDir: archive }).document(filing);
    expect(fake.count('/Archives/') - before).toBe(1);
    expect(await c.filing(320193, '0000320193-99-000001')).toBeNull();
  });

  it('fails with an upstream error when EDGAR refuses (no User-Agent)', async () => {
    const s = source('');
    await expect(new SecClient({ api: s, www: s }).tickers()).rejects.toMatchObject({ kind: 'upstream', code: 'upstream_rejected' });
  });
  it('reads a damaged submissions file without failing: wrong-typed fields dropped, unreadable filing rows left out', async () => {
    const file = submissionsFile(DEMO_WORLD.companies[0]!) as any;
    const recent = file.filings.recent;
    const good = recent.accessionNumber.length - 1;
    Object.assign(file, { name: [], tickers: ['AAPL', 7], exchanges: 'Nasdaq', fiscalYearEnd: 927 });
    recent.accessionNumber[0] = null;
    recent.form[1] = { x: 1 };
    recent.reportDate = 'not a column';
    file.filings.files = [null, { name: 7 }];
    const damaged = await new FakeHttpServer(() => ({ json: file })).start();
    try {
      const s = new LiveSource({ name: 'SEC EDGAR', baseUrl: damaged.url, requestsPerSecond: 100, timeoutMs: 2000, retries: 0 });
      const c = new SecClient({ api: s, www: s });
      const subs = (await c.submissions(320193))!;
      expect(subs).toMatchObject({ name: '', tickers: ['AAPL'], exchanges: undefined });
      expect(subs.fiscalYearEnd).toBeUndefined();
      expect(subs.filings.files).toEqual([]);
      const { filingsFromColumns } = await import('../../../src/data/sec/client.js');
      const filings = filingsFromColumns(320193, subs.filings.recent);
      expect(filings).toHaveLength(good);
      expect(filings[0]).toMatchObject({ form: '', reportDate: '' });
      expect(filings[1]!.form).toMatch(/^10-/);
    } finally {
      await damaged.close();
    }
  });
});
