import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventUrl } from '../../fixtures/kalshi-world.js';
import { PG_URL, dropTestSchemas, freshPostgres } from '../../helpers/backends.js';
import { startFakeKalshi } from '../../helpers/fake-kalshi.js';
import { startChildService, stopAllChildren, stopChild } from '../../helpers/processes.js';
import { post, readSse } from '../../helpers/sse.js';

afterAll(async () => {
  await stopAllChildren();
  await dropTestSchemas();
});

describe.skipIf(!PG_URL)(`report generation across replicas sharing Postgres${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL to run)'}`, () => {
  it('concurrent requests on two replicas: one generation, one charge, everyone gets the report', async () => {
    const fake = await startFakeKalshi({ latencyMs: 80 });
    try {
      const env = { SVC_DATABASE_URL: await freshPostgres(), SVC_ADMIN_KEY: 'replica-admin-key-0001', SVC_KALSHI_API_URL: fake.apiUrl };
      const [a, b] = await Promise.all([startChildService(env), startChildService(env)]);
      const accounts = await Promise.all(
        [1, 2].map(async () => {
          const res = await fetch(`${a.url}/v1/admin/accounts`, {
            method: 'POST',
            headers: { authorization: 'Bearer replica-admin-key-0001', 'content-type': 'application/json' },
            body: JSON.stringify({ email: `pm${Math.random().toString(36).slice(2)}@example.com`, plan: 'pro', credits: 30 }),
          });
          return (await res.json()) as { id: string; api_key: string };
        }),
      );
      const url = eventUrl(fake.world, fake.world.openEvents.find((t) => t.startsWith('KXFEDDECISION-'))!);
      const results = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const res = await post(`${(i % 2 ? a : b).url}/v1/responses`, accounts[i % 2]!.api_key, { model: 'svc-prediction-markets-agent', input: url });
          const body = (await res.json()) as any;
          return { status: res.status, cache: res.headers.get('x-report-cache'), text: body.output?.[0]?.content?.[0]?.text as string };
        }),
      );
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results.filter((r) => r.cache === 'miss')).toHaveLength(1);
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      expect(fake.count('/trade-api/v2/markets/orderbooks')).toBe(1);
      const credits = await Promise.all(
        accounts.map(async (acct) => ((await (await fetch(`${a.url}/v1/account`, { headers: { authorization: `Bearer ${acct.api_key}` } })).json()) as { credits: number }).credits),
      );
      expect(credits[0]! + credits[1]!).toBe(57);
      // Requests to the exchange were admitted by the throttle the replicas share in Postgres.
      const db = new pg.Client({ connectionString: env.SVC_DATABASE_URL });
      await db.connect();
      try {
        expect(Number((await db.query("select count(*) as n from upstream_starts where upstream = 'kalshi'")).rows[0].n)).toBeGreaterThan(0);
      } finally {
        await db.end();
      }
      await Promise.all([stopChild(a.child), stopChild(b.child)]);
    } finally {
      await fake.close();
    }
  });

  /**
   * Replica A leads a generation that cannot finish (its exchange hangs), replica B's requests
   * follow it; then A dies (SIGKILL: its claim lapses) or shuts down (SIGTERM: it withdraws its
   * claim). B's waiters take over: one generation there, free (they were told they joined one),
   * and everyone gets the report; streamed or not, what they were told is what they paid.
   */
  async function leaderStops(signal: 'SIGKILL' | 'SIGTERM') {
    let hanging = 0;
    const stuck = await startFakeKalshi({ intercept: (req) => (req.path.endsWith('/markets/orderbooks') ? (hanging++, 'hang') : undefined) });
    const fake = await startFakeKalshi();
    try {
      const common = {
        SVC_DATABASE_URL: await freshPostgres(),
        SVC_ADMIN_KEY: 'replica-admin-key-0001',
        SVC_HOLD_LEASE_MS: '1500',
        // No sweep while B takes over: a dead leader's hold is then still held, and B generates on it.
        SVC_SWEEP_INTERVAL_MS: '60000',
        SVC_KALSHI_TIMEOUT_MS: '60000',
        SVC_SHUTDOWN_GRACE_MS: '300',
      };
      const a = await startChildService({ ...common, SVC_KALSHI_API_URL: stuck.apiUrl });
      const b = await startChildService({ ...common, SVC_KALSHI_API_URL: fake.apiUrl });
      const account = async () => {
        const res = await fetch(`${b.url}/v1/admin/accounts`, {
          method: 'POST',
          headers: { authorization: 'Bearer replica-admin-key-0001', 'content-type': 'application/json' },
          body: JSON.stringify({ email: `pm${Math.random().toString(36).slice(2)}@example.com`, plan: 'pro', credits: 30 }),
        });
        return (await res.json()) as { id: string; api_key: string };
      };
      const [payerA, payerB] = await Promise.all([account(), account()]);
      const url = eventUrl(fake.world, fake.world.openEvents.find((t) => t.startsWith('KXFEDDECISION-'))!);
      const led = post(`${a.url}/v1/responses`, payerA.api_key, { model: 'svc-prediction-markets-agent', input: url }).catch((e: Error) => e);
      while (!hanging) await new Promise((r) => setTimeout(r, 20));
      const waiting = Array.from({ length: 4 }, async (_, i) => {
        const res = await post(`${b.url}/v1/responses`, payerB.api_key, { model: 'svc-prediction-markets-agent', input: url, stream: i % 2 === 1 });
        const charged = res.headers.get('x-credits-charged');
        const text =
          i % 2 === 1
            ? ((await readSse(res)).frames.filter((f) => f.event === 'response.output_text.delta').map((f) => JSON.parse(f.data).delta as string).join(''))
            : (((await res.json()) as any).output?.[0]?.content?.[0]?.text as string);
        return { status: res.status, cache: res.headers.get('x-report-cache'), charged, text };
      });
      await new Promise((r) => setTimeout(r, 700)); // B's requests are following A's claim
      await stopChild(a.child, signal);
      await led;
      const results = await Promise.all(waiting);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(results.map((r) => [r.cache, r.charged])).toEqual(Array(4).fill(['joined', '0']));
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      expect(results[0]!.text).toContain('KXFEDDECISION');
      expect(fake.count('/trade-api/v2/markets/orderbooks')).toBe(1);
      const credits = async (key: string) => ((await (await fetch(`${b.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })).json()) as { credits: number }).credits;
      expect(await credits(payerB.api_key)).toBe(30);
      // A shutting down gives its payer's credits back at once (the report B makes is on the house).
      // A dead replica cannot: B generates on its payer's hold, so the report A's payer asked for is
      // charged once, to that payer (it was free, the sweeper giving the hold back meanwhile).
      expect(await credits(payerA.api_key)).toBe(signal === 'SIGTERM' ? 30 : 27);
      await stopChild(b.child);
    } finally {
      await Promise.all([stuck.close(), fake.close()]);
    }
  }

  it("a leader replica killed mid-generation: the other replica's waiters take over once its claim lapses", () => leaderStops('SIGKILL'), 30_000);

  it("a leader replica shutting down mid-generation withdraws its claim: the other replica's waiters take over", () => leaderStops('SIGTERM'), 30_000);
});
