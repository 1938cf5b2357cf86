import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ReportStore, type NewReport } from '../../src/reports/store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';

afterAll(() => dropTestSchemas());

const report = (eventTicker: string, text: string): NewReport => ({
  eventTicker,
  seriesTicker: 'KXTEST',
  title: 'Test',
  text,
  citations: [],
  outputTokens: 1,
  asOf: '2026-11-21T00:00:00.000Z',
  source: 'live',
  generatedAt: Date.now(),
  accountId: null,
  holdId: null,
});

describeBackends('stored reports, cached per replica', (backend) => {
  let store: Store;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-reports-'));
    store = await openStore({ dataDir, databaseUrl: (await backend.env()).SVC_DATABASE_URL ?? '' });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a fresh read (deciding whether to generate) leaves the cache trusted for the freshness window only: a version stored elsewhere is seen after it', async () => {
    const a = new ReportStore(store.db, { cacheBytes: 1 << 20, freshnessMs: 50 });
    const b = new ReportStore(store.db, { cacheBytes: 1 << 20, freshnessMs: 50 });
    await b.save(report('KXTEST-1', 'version one'));
    expect((await a.latest('KXTEST-1', { fresh: true }))?.text).toBe('version one');
    await b.save(report('KXTEST-1', 'version two'));
    expect((await a.latest('KXTEST-1'))?.text).toBe('version one'); // within the window: the cache
    await new Promise((r) => setTimeout(r, 100));
    expect((await a.latest('KXTEST-1'))?.text).toBe('version two');
    expect((await a.latest('KXTEST-1', { fresh: true }))?.version).toBe(2);
  });
});
