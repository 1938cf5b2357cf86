import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SharedThrottle } from '../../src/data/shared-throttle.js';
import { kalshiSource, secSources, type SharedBudget } from '../../src/data/sources.js';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/db.js';
import { PG_URL, dropTestSchemas, freshPostgres } from '../helpers/backends.js';
import { FakeHttpServer } from '../helpers/fake-http.js';

/** The most of `times` (ms) inside any one second. */
const busiest = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u - t < 1000).length));

// Replicas share an upstream budget only on Postgres (SQLite means one process: Throttle, tested with the sources).
const describePostgres = PG_URL ? describe : describe.skip;
describePostgres(`upstream budgets shared by replicas on Postgres${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL=postgres://… to run)'}`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-budget-'));
  /** Two replicas: each its own connection pool to one database. */
  const replicas: Store[] = [];
  const errors: unknown[] = [];
  const budget = (store: Store): SharedBudget => ({ db: store.db, onError: (err) => errors.push(err) });

  beforeAll(async () => {
    const databaseUrl = await freshPostgres();
    for (let i = 0; i < 2; i++) replicas.push(await openStore({ dataDir, databaseUrl }));
  });
  afterAll(async () => {
    for (const store of replicas) await store.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    await dropTestSchemas();
  });

  it('two replicas together never send EDGAR more than SVC_SEC_RPS requests in any second, across both hosts', async () => {
    const times: number[] = [];
    const sec = await new FakeHttpServer(() => (times.push(Date.now()), { json: {} })).start();
    try {
      const config = loadConfig({ SVC_SEC_USER_AGENT: 'svc-test ops@example.com', SVC_SEC_API_URL: sec.url, SVC_SEC_WWW_URL: `${sec.url}/www`, SVC_SEC_RPS: '4' });
      const [a, b] = replicas.map((store) => secSources(config, createLogger('silent'), budget(store)));
      const started = Date.now();
      await Promise.all(Array.from({ length: 16 }, (_, i) => [a!.api, a!.www, b!.api, b!.www][i % 4]!.get(`/doc/${i}`)));
      expect(times).toHaveLength(16);
      expect(busiest(times)).toBe(4);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 1000); // 16 at 4 a second: three full windows of waiting
      expect(errors).toEqual([]);
    } finally {
      await sec.close();
    }
  });

  it('so do Kalshi requests (SVC_KALSHI_RPS)', async () => {
    const times: number[] = [];
    const kalshi = await new FakeHttpServer(() => (times.push(Date.now()), { json: {} })).start();
    try {
      const config = loadConfig({ SVC_KALSHI_API_URL: kalshi.url, SVC_KALSHI_RPS: '3' });
      const [a, b] = replicas.map((store) => kalshiSource(config, budget(store)));
      await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 ? a! : b!).get(`/events/E${i}`)));
      expect(times).toHaveLength(9);
      expect(busiest(times)).toBe(3);
    } finally {
      await kalshi.close();
    }
  });

  it("EDGAR's block on one replica pauses the other too: it refuses without sending anything", async () => {
    const sec = await new FakeHttpServer((req) => (req.path.startsWith('/blocked') ? { status: 403, text: 'Undeclared Automated Tool' } : { json: {} })).start();
    try {
      const config = loadConfig({ SVC_SEC_USER_AGENT: 'svc-test ops@example.com', SVC_SEC_API_URL: sec.url, SVC_SEC_WWW_URL: sec.url, SVC_SEC_BLOCK_PAUSE_MS: '600000' });
      const [a, b] = replicas.map((store) => secSources(config, createLogger('silent'), budget(store)));
      expect((await b!.api.get('/fine')).status).toBe(200);
      await expect(a!.api.get('/blocked')).rejects.toMatchObject({ code: 'upstream_blocked' });
      // The pause is recorded behind the request that met the 403.
      for (let i = 0; i < 100 && !(await replicas[1]!.db.selectFrom('upstream_pauses').selectAll().where('upstream', '=', 'sec-edgar').executeTakeFirst()); i++) await new Promise((r) => setTimeout(r, 10));
      const refused = (await b!.www.get('/fine-too').then(
        () => null,
        (e: { code: string; retryAfterSeconds: number }) => e,
      ))!;
      expect(refused).toMatchObject({ code: 'upstream_blocked' });
      expect(refused.retryAfterSeconds).toBeGreaterThan(590);
      expect(sec.requests.map((r) => r.path)).toEqual(['/fine', '/blocked']);
    } finally {
      await sec.close();
    }
  });

  it('goes on with its own process throttle while the database cannot be reached', async () => {
    const lost = await openStore({ dataDir, databaseUrl: await freshPostgres() });
    const seen: unknown[] = [];
    const throttle = new SharedThrottle(lost.db, 'lonely', 2, { onError: (err) => seen.push(err) });
    await lost.close();
    const times: number[] = [];
    await Promise.all(Array.from({ length: 4 }, () => throttle.take().then(() => times.push(Date.now()))));
    expect(times).toHaveLength(4);
    expect(busiest(times)).toBe(2);
    expect(seen.length).toBeGreaterThan(0);
  });
});
