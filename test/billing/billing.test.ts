import OpenAI from 'openai';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/service.js';
import { IdempotencyStore } from '../../src/billing/idempotency.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { paidAgents } from '../helpers/paid-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { post, readSse } from '../helpers/sse.js';

afterAll(() => dropTestSchemas());

describeBackends('plans, credits and billing', (backend) => {
  let svc: TestService;
  let billing: Billing;
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${svc.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${svc.adminKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const get = (key: string, path: string) => fetch(`${svc.baseURL}${path}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json() as Promise<any>);
  const balanceOf = async (id: string) => (await svc.service.deps.accounts.getAccount(id)).credits;

  beforeAll(async () => {
    svc = await startService({ env: { ...(await backend.env()), SVC_HOLD_LEASE_MS: '1000', SVC_SWEEP_INTERVAL_MS: '3600000' }, agents: (core) => paidAgents(core) });
    billing = svc.service.deps.billing;
  });
  afterAll(() => svc.close());

  it('admin changes plans and grants or corrects credits, never below zero', async () => {
    const { id } = await svc.account({ plan: 'free', credits: 5 });
    const patched = await admin('PATCH', `/v1/admin/accounts/${id}`, { plan: 'plus' });
    expect(await patched.json()).toMatchObject({ id, plan: 'plus', credits: 5 });
    const granted = await admin('POST', `/v1/admin/accounts/${id}/credits`, { amount: 10, note: 'welcome pack' });
    expect(await granted.json()).toMatchObject({ account: { credits: 15 }, entry: { kind: 'grant', amount: 10, balance_after: 15, reason: 'welcome pack' } });
    const corrected = await admin('POST', `/v1/admin/accounts/${id}/credits`, { amount: -4, note: 'double grant' });
    expect(await corrected.json()).toMatchObject({ account: { credits: 11 }, entry: { kind: 'adjustment', amount: -4 } });
    const tooMuch = await admin('POST', `/v1/admin/accounts/${id}/credits`, { amount: -12 });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ error: { code: 'balance_below_zero', param: 'amount', message: expect.stringContaining('the largest correction possible is -11.') } });
    expect(await balanceOf(id)).toBe(11);
    const empty = await svc.account({ plan: 'free', credits: 0 });
    const nothing = await admin('POST', `/v1/admin/accounts/${empty.id}/credits`, { amount: -1 });
    expect(((await nothing.json()) as any).error.message).toContain('the balance is 0, so nothing can be taken off.');
    for (const [body, code] of [
      [{ amount: 0 }, 'invalid_value'],
      [{ amount: 1.5 }, 'invalid_type'],
      [{}, 'missing_required_parameter'],
      [{ amount: 1, note: 7 }, 'invalid_type'],
    ] as const) {
      const res = await admin('POST', `/v1/admin/accounts/${id}/credits`, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.code).toBe(code);
    }
    expect((await admin('PATCH', `/v1/admin/accounts/${id}`, { plan: 'gold' })).status).toBe(400);
    expect((await admin('PATCH', '/v1/admin/accounts/acct_nope', { plan: 'pro' })).status).toBe(404);
    expect((await admin('POST', '/v1/admin/accounts/acct_nope/credits', { amount: 1 })).status).toBe(404);
  });

  it('concurrent grants each report the balance they left, which is their ledger row\'s', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 100 });
    const replies = await Promise.all(Array.from({ length: 40 }, () => admin('POST', `/v1/admin/accounts/${id}/credits`, { amount: 1 }).then((r) => r.json() as Promise<any>)));
    for (const r of replies) expect(r.account.credits).toBe(r.entry.balance_after);
    expect(replies.map((r) => r.entry.balance_after).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 101 + i));
    expect(await balanceOf(id)).toBe(140);
  });

  it('the ledger records every change, and the caller pages through it newest first', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 3 });
    for (let i = 1; i <= 4; i++) await admin('POST', `/v1/admin/accounts/${id}/credits`, { amount: i, note: `grant ${i}` });
    const page1 = await get(apiKey, '/account/ledger?limit=2');
    expect(page1.data.map((e: any) => e.reason)).toEqual(['grant 4', 'grant 3']);
    expect(page1.has_more).toBe(true);
    const page2 = await get(apiKey, `/account/ledger?limit=2&after=${page1.last_id}`);
    expect(page2.data.map((e: any) => e.reason)).toEqual(['grant 2', 'grant 1']);
    const page3 = await get(apiKey, `/account/ledger?limit=2&after=${page2.last_id}`);
    expect(page3.data.map((e: any) => [e.kind, e.amount, e.balance_after])).toEqual([['grant', 3, 3]]);
    expect(page3.has_more).toBe(false);
    const bad = await fetch(`${svc.baseURL}/account/ledger?limit=500`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(bad.status).toBe(400);
  });

  it('refuses work with 403 plan_required on Free and 402 insufficient_credits when short, showing the balance', async () => {
    const free = await svc.account({ plan: 'free', credits: 100 });
    const r1 = await post(`${svc.baseURL}/responses`, free.apiKey, { model: 'svc-paid', input: 'q' });
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as any).error).toMatchObject({ code: 'plan_required', type: 'permission_error' });
    expect(r1.headers.get('x-credits-charged')).toBe('0');
    expect(r1.headers.get('x-credits-remaining')).toBe('100');
    const poor = await svc.account({ plan: 'plus', credits: 2 });
    const r2 = await post(`${svc.baseURL}/responses`, poor.apiKey, { model: 'svc-paid', input: 'q', stream: true });
    expect(r2.status).toBe(402);
    expect(((await r2.json()) as any).error.code).toBe('insufficient_credits');
    expect(r2.headers.get('x-credits-remaining')).toBe('2');
    expect(await balanceOf(poor.id)).toBe(2);
  });

  it('charges 3 credits for delivered work, and nothing for failed work', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const ok = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'q' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-credits-charged')).toBe('3');
    expect(ok.headers.get('x-credits-remaining')).toBe('7');
    const failed = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-paid', messages: [{ role: 'user', content: 'fail' }] });
    expect(failed.status).toBe(502);
    expect(await balanceOf(id)).toBe(7);
    const kinds = (await get(apiKey, '/account/ledger')).data.map((e: any) => `${e.kind}:${e.amount}`);
    expect(kinds).toEqual(['release:3', 'hold:-3', 'capture:0', 'hold:-3', 'grant:10']);
  });

  it('holds once per job, and settles each hold exactly once', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 9 });
    const first = await billing.hold({ accountId: id, amount: 3, jobId: `job-${id}`, what: 'Work' });
    const again = await billing.hold({ accountId: id, amount: 3, jobId: `job-${id}`, what: 'Work' });
    expect(again.created).toBe(false);
    expect(again.hold.id).toBe(first.hold.id);
    expect(await balanceOf(id)).toBe(6);
    expect(await billing.capture(first.hold.id)).toBe('captured');
    expect(await billing.capture(first.hold.id)).toBe('already_captured');
    await expect(billing.release(first.hold.id, 'late')).rejects.toMatchObject({ code: 'hold_captured' });
    const second = await billing.hold({ accountId: id, amount: 3, jobId: `job2-${id}`, what: 'Work' });
    expect(await billing.release(second.hold.id, 'failed')).toBe('released');
    expect(await billing.release(second.hold.id, 'failed')).toBe('already_released');
    await expect(billing.capture(second.hold.id)).rejects.toMatchObject({ code: 'hold_released' });
    expect(await balanceOf(id)).toBe(6);
  });

  it('the schema itself refuses a second settlement and any edit of the ledger', async () => {
    const db = svc.service.deps.store.db;
    const { id } = await svc.account({ plan: 'pro', credits: 3 });
    const { hold } = await billing.hold({ accountId: id, amount: 3, jobId: `schema-${id}`, what: 'Work' });
    await billing.capture(hold.id);
    const duplicate = { account_id: id, amount: 3, balance_after: 3, reason: 'forged', created_at: Date.now(), hold_id: hold.id };
    await expect(db.insertInto('ledger').values({ ...duplicate, id: 'led_forged1', kind: 'release' }).execute()).rejects.toThrow();
    await expect(db.insertInto('ledger').values({ ...duplicate, id: 'led_forged2', kind: 'capture' }).execute()).rejects.toThrow();
    await expect(db.insertInto('ledger').values({ ...duplicate, id: 'led_forged3', kind: 'hold' }).execute()).rejects.toThrow();
    await expect(db.updateTable('ledger').set({ amount: 100 }).where('account_id', '=', id).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('ledger').where('account_id', '=', id).execute()).rejects.toThrow(/append-only/);
    // Postgres's TRUNCATE skips row triggers; a statement trigger refuses it (SQLite has no TRUNCATE).
    if (backend.name === 'postgres') await expect(sql`truncate ledger cascade`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`update accounts set credits = -1 where id = ${id}`.execute(db)).rejects.toThrow();
  });

  it('50 parallel holds of 3 against a balance of 9 leave exactly 3 holds and a balance of 0', async () => {
    const { id } = await svc.account({ plan: 'plus', credits: 9 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => billing.hold({ accountId: id, amount: 3, jobId: `race-${id}-${i}`, what: 'Work' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(3);
    expect(refused.every((r) => r.reason.code === 'insufficient_credits')).toBe(true);
    expect(await balanceOf(id)).toBe(0);
    const report = await billing.verify();
    expect(report.mismatches).toEqual([]);
  });

  it('verify() reads one snapshot: it finds nothing wrong while holds are taken and captured around it', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 300 });
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop && i < 25; i++) {
        const { hold } = await billing.hold({ accountId: id, amount: 3, jobId: `verify-${id}-${w}-${i}`, what: 'Work' });
        await (i % 2 ? billing.capture(hold.id) : billing.release(hold.id, 'test'));
      }
    };
    const workers = Promise.all([0, 1, 2, 3].map(worker)).finally(() => (stop = true));
    const reports = [];
    while (!stop) reports.push(await billing.verify());
    await workers;
    expect(reports.length).toBeGreaterThan(2);
    for (const r of reports) {
      expect(r.mismatches).toEqual([]);
      expect(r.badHolds).toEqual([]);
    }
  });

  it('the same, through the HTTP API', async () => {
    const { id, apiKey } = await svc.account({ plan: 'plus', credits: 9 });
    const statuses = await Promise.all(Array.from({ length: 50 }, () => post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'q' }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(47);
    expect(await balanceOf(id)).toBe(0);
  });

  it('the sweeper releases a hold whose lease expired, and the ledger still verifies', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 6 });
    const { hold } = await billing.hold({ accountId: id, amount: 3, jobId: `lease-${id}`, what: 'Work' });
    await billing.sweep(); // other tests' expired holds may go too; this one's lease is still running
    expect((await billing.getHold(hold.id))!.state).toBe('held');
    expect(await billing.renew(hold.id, Date.now())).toBe(true);
    expect(await billing.sweep(Date.now() + 2000)).toBeGreaterThanOrEqual(1);
    expect((await billing.getHold(hold.id))!.state).toBe('released');
    expect(await billing.renew(hold.id)).toBe(false);
    expect(await balanceOf(id)).toBe(6);
    const report = await billing.verify();
    expect(report.mismatches).toEqual([]);
    expect(report.badHolds).toEqual([]);
  });

  it("every ledger row's balance_after is the running balance in ledger order, under 150 concurrent holds, captures and releases", async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 3000 });
    await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const { hold } = await billing.hold({ accountId: id, amount: 3, jobId: `running-${id}-${i}`, what: 'Work' });
        if (i % 3 === 0) await billing.release(hold.id, 'failed');
        else await billing.capture(hold.id);
      }),
    );
    const rows = await svc.service.deps.store.db.selectFrom('ledger').select(['seq', 'amount', 'balance_after']).where('account_id', '=', id).orderBy('seq').execute();
    expect(rows).toHaveLength(301);
    let running = 0;
    const off = rows.filter((r) => (running += Number(r.amount)) !== Number(r.balance_after));
    expect(off).toEqual([]);
    expect(await balanceOf(id)).toBe(3000 - 100 * 3);
  });

  it('the sweeper captures, not releases, an expired hold whose work was delivered (its report stored before the worker died)', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 6 });
    const { hold } = await billing.hold({ accountId: id, amount: 3, jobId: `delivered-${id}`, what: 'Generating a prediction-market report' });
    const lost = await billing.hold({ accountId: id, amount: 3, jobId: `lost-${id}`, what: 'Generating a prediction-market report' });
    // The report is stored, then the process dies before capturing: nothing renews the lease.
    await svc.service.deps.reports.save({
      eventTicker: `KXDELIVERED-${backend.name.toUpperCase()}`,
      seriesTicker: 'KXDELIVERED',
      title: 'Delivered',
      text: 'A stored report.',
      citations: [],
      outputTokens: 4,
      asOf: new Date().toISOString(),
      source: 'live',
      generatedAt: Date.now(),
      accountId: id,
      holdId: hold.id,
    });
    expect(await billing.sweep(Date.now() + 2000)).toBeGreaterThanOrEqual(2);
    expect((await billing.getHold(hold.id))!.state).toBe('captured');
    expect((await billing.getHold(lost.hold.id))!.state).toBe('released');
    expect(await balanceOf(id)).toBe(3);
    expect((await billing.verify()).mismatches).toEqual([]);
  });

  it('the sweeper leaves a hold its worker renewed after the sweeper found it lapsed (the worker is alive, about to store its report)', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 10 });
    let renewed: boolean | null = null;
    let holdId = '';
    // The worker's renewal lands between the sweeper's look at lapsed holds and its releases.
    const sweeper: Billing = new Billing(svc.service.deps.store.db, {
      leaseMs: 1000,
      delivered: async () => {
        renewed = await sweeper.renew(holdId, Date.now() + 10_000);
        return new Set();
      },
    });
    const { hold } = await sweeper.hold({ accountId: id, amount: 3, jobId: `renewed-${id}`, what: 'Generating a prediction-market report' }, Date.now() - 5000);
    holdId = hold.id;
    expect(await sweeper.sweep()).toBe(0);
    expect(renewed).toBe(true);
    expect((await sweeper.getHold(hold.id))!.state).toBe('held');
    expect(await sweeper.capture(hold.id)).toBe('captured');
    expect(await balanceOf(id)).toBe(7);
    expect((await sweeper.verify()).mismatches).toEqual([]);
  });

  it('Idempotency-Key: a replay returns the stored body and never charges again (plain and streaming)', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 30 });
    const headers = { 'idempotency-key': `plain-${id}` };
    const body = { model: 'svc-paid', input: 'q1' };
    const a = await post(`${svc.baseURL}/responses`, apiKey, body, headers);
    const textA = await a.text();
    const b = await post(`${svc.baseURL}/responses`, apiKey, { input: 'q1', model: 'svc-paid' }, headers);
    expect(await b.text()).toBe(textA);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.headers.get('x-credits-charged')).toBe('0');
    expect(b.headers.get('x-credits-remaining')).toBe('27');
    // A retry spelling out defaults (`stream: false`, `store: true`, a null field) is the same request.
    const spelled = await post(`${svc.baseURL}/responses`, apiKey, { ...body, stream: false, store: true, background: false, instructions: null }, headers);
    expect(spelled.status).toBe(200);
    expect(await spelled.text()).toBe(textA);
    expect(spelled.headers.get('idempotent-replayed')).toBe('true');

    const streamHeaders = { 'idempotency-key': `stream-${id}` };
    const s1 = await readSse(await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-paid', messages: [{ role: 'user', content: 'q2' }], stream: true }, streamHeaders));
    const again = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-paid', messages: [{ role: 'user', content: 'q2' }], stream: true }, streamHeaders);
    expect(again.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // A replayed stream is still a stream to proxies and caches.
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect(again.headers.get('x-accel-buffering')).toBe('no');
    const s2 = await readSse(again);
    expect(s2.frames).toEqual(s1.frames);
    expect(s1.frames.at(-1)!.data).toBe('[DONE]');

    expect(await balanceOf(id)).toBe(24);
    const holds = (await get(apiKey, '/account/ledger')).data.filter((e: any) => e.kind === 'hold');
    expect(holds).toHaveLength(2);

    // The SDK retries with the same key: it gets the same response.
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const options = { headers: { 'Idempotency-Key': `sdk-${id}` } };
    const c1 = await client.responses.create({ model: 'svc-paid', input: 'q3' }, options);
    const c2 = await client.responses.create({ model: 'svc-paid', input: 'q3' }, options);
    expect(c2.id).toBe(c1.id);
    expect(await balanceOf(id)).toBe(21);
  });

  it('Idempotency-Key: another body is 422, a running request is 409, a failed one may be retried', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 30 });
    const key = { 'idempotency-key': `k-${id}` };
    expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'one' }, key)).status).toBe(200);
    const reused = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'two' }, key);
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as any).error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    // A non-default value is another request.
    expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'one', store: false }, key)).status).toBe(422);
    const otherEndpoint = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-paid', messages: [{ role: 'user', content: 'one' }] }, key);
    expect(otherEndpoint.status).toBe(422);

    const hangKey = { 'idempotency-key': `hang-${id}` };
    const running = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-hang', input: 'q', stream: true }, hangKey);
    const reader = running.body!.getReader();
    await reader.read();
    const busy = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-hang', input: 'q', stream: true }, hangKey);
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as any).error.code).toBe('idempotency_key_in_progress');
    await reader.cancel();

    const failKey = { 'idempotency-key': `fail-${id}` };
    expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'fail' }, failKey)).status).toBe(502);
    expect((await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'fail' }, failKey)).status).toBe(502);

    const bad = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'q' }, { 'idempotency-key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.param).toBe('Idempotency-Key');
  });

  it('Idempotency-Key: keys last their TTL, and a lapsed lock lets a retry take over', async () => {
    const store = new IdempotencyStore(svc.service.deps.store.db, { ttlMs: 24 * 3600_000, lockMs: 1000 });
    const { id } = await svc.account();
    const req = { accountId: id, key: 'ttl', endpoint: 'POST /v1/responses', fingerprint: 'f1' };
    const t0 = Date.now();
    expect(await store.claim(req, t0)).toEqual({ kind: 'new', since: t0 });
    await expect(store.claim(req, t0 + 10)).rejects.toMatchObject({ code: 'idempotency_key_in_progress' });
    // The first holder's lock lapsed: a retry takes over the same life of the key.
    expect(await store.claim(req, t0 + 1500)).toEqual({ kind: 'new', since: t0 });
    await store.complete(id, 'ttl', { statusCode: 200, headers: {}, body: 'stored' });
    expect(await store.claim(req, t0 + 23 * 3600_000)).toMatchObject({ kind: 'replay', result: { body: 'stored' } });
    // Past its TTL the key starts a new life, which work keyed by it (a paid generation) can tell apart.
    expect(await store.claim({ ...req, fingerprint: 'f2' }, t0 + 25 * 3600_000)).toEqual({ kind: 'new', since: t0 + 25 * 3600_000 });
  });

  it('self-service keys: list, create (shown once), revoke', async () => {
    const { apiKey } = await svc.account();
    const created = (await (await post(`${svc.baseURL}/account/keys`, apiKey, {})).json()) as any;
    expect(created.api_key).toMatch(/^sk-svc-/);
    const list = await get(apiKey, '/account/keys');
    expect(list.data).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain(created.api_key);
    expect(list.data.map((k: any) => k.last4)).toContain(created.last4);
    const del = await fetch(`${svc.baseURL}/account/keys/${created.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    expect(await del.json()).toMatchObject({ id: created.id, revoked: true });
    expect((await fetch(`${svc.baseURL}/account`, { headers: { authorization: `Bearer ${created.api_key}` } })).status).toBe(401);
    const other = await svc.account();
    const foreign = await fetch(`${svc.baseURL}/account/keys/${created.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(foreign.status).toBe(404);
  });
});

describeBackends('rate limits', (backend) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ env: { ...(await backend.env()), SVC_RATE_LIMIT_FREE: '5', SVC_RATE_LIMIT_PLUS: '8', SVC_RATE_LIMIT_PRO: '8' } });
  });
  afterAll(() => svc.close());

  it('limits requests per key by plan with x-ratelimit headers and Retry-After', async () => {
    const free = await svc.account({ plan: 'free' });
    const seen: Response[] = [];
    for (let i = 0; i < 6; i++) seen.push(await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${free.apiKey}` } }));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(seen[0]!.headers.get('x-ratelimit-limit-requests')).toBe('5');
    expect(seen[0]!.headers.get('x-ratelimit-remaining-requests')).toBe('4');
    expect(seen[4]!.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(seen[0]!.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+s$/);
    const limited = seen[5]!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as any).error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    // Another key has its own budget, and a bigger plan a bigger one.
    const pro = await svc.account({ plan: 'pro' });
    const r = await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${pro.apiKey}` } });
    expect(r.headers.get('x-ratelimit-limit-requests')).toBe('8');
  });

  it('the SDK surfaces a 429 as RateLimitError', async () => {
    const { apiKey } = await svc.account({ plan: 'free' });
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    for (let i = 0; i < 5; i++) await client.models.list();
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe('idempotency locks', () => {
  it('the shortest lock allowed (1 s) is renewed in time: every retry while the request runs is 409, and it runs once', async () => {
    const svc = await startService({ env: { SVC_IDEMPOTENCY_LOCK_MS: '1000' }, agents: (core) => paidAgents(core, { delayMs: 2500 }) });
    try {
      const { id, apiKey } = await svc.account({ plan: 'pro', credits: 30 });
      const headers = { 'idempotency-key': `lock-${id}` };
      let finished = false;
      const first = post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'q' }, headers).then(async (r) => {
        await r.text();
        finished = true;
        return r.status;
      });
      const retries: number[] = [];
      // How close the lock came to lapsing: renewed at 1 s intervals, it lapsed for a moment before
      // each renewal (a retry then took over); at a third of it, there is always a margin.
      let closest = Infinity;
      const row = () => svc.service.deps.store.db.selectFrom('idempotency_keys').select('locked_until').where('account_id', '=', id).executeTakeFirst();
      while (!(await row())) await new Promise((r) => setTimeout(r, 5));
      while (!finished) {
        const locked = await row();
        if (finished || !locked) break;
        closest = Math.min(closest, Number(locked.locked_until) - Date.now());
        const r = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-paid', input: 'q' }, headers);
        await r.text();
        if (!finished) retries.push(r.status);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await first).toBe(200);
      expect(closest).toBeGreaterThan(150);
      expect(retries.length).toBeGreaterThan(3);
      expect(new Set(retries)).toEqual(new Set([409]));
      expect((await svc.service.deps.accounts.getAccount(id)).credits).toBe(27);
    } finally {
      await svc.close();
    }
  });
});
