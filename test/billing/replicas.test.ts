import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Billing } from '../../src/billing/service.js';
import { openStore } from '../../src/store/db.js';
import { PG_URL, describeBackends, dropTestSchemas, freshPostgres } from '../helpers/backends.js';
import { runCli } from '../helpers/cli.js';
import { startChildService, stopAllChildren, stopChild } from '../helpers/processes.js';
import { post, readSse } from '../helpers/sse.js';
import { sleep } from '../helpers/scripted-agent.js';

afterAll(async () => {
  await stopAllChildren();
  await dropTestSchemas();
});

async function createAccount(url: string, adminKey: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `r${Math.random().toString(36).slice(2)}@example.com`, ...body }),
  });
  return (await res.json()) as { id: string; api_key: string };
}

describeBackends('a worker killed between hold and capture', (backend) => {
  it('leaves a hold that the sweeper releases; svc ledger verify passes afterwards', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
    const env: Record<string, string> = { ...(await backend.env()), SVC_DATA_DIR: dataDir, SVC_HOLD_LEASE_MS: '1500', SVC_SWEEP_INTERVAL_MS: '3600000' };
    try {
      const worker = await startChildService(env);
      const acct = await createAccount(worker.url, worker.adminKey, { plan: 'pro', credits: 9 });
      const res = await post(`${worker.url}/v1/responses`, acct.api_key, { model: 'svc-hang', input: 'q', stream: true });
      expect(res.headers.get('x-credits-charged')).toBe('3');
      await res.body!.getReader().read();
      await stopChild(worker.child, 'SIGKILL');

      const store = await openStore({ dataDir, databaseUrl: env.SVC_DATABASE_URL });
      try {
        const billing = new Billing(store.db, { leaseMs: 1500 });
        const balance = async () => Number((await store.db.selectFrom('accounts').select('credits').where('id', '=', acct.id).executeTakeFirstOrThrow()).credits);
        expect(await balance()).toBe(6);
        expect(await billing.sweep()).toBe(0); // the lease has not lapsed yet
        await sleep(1600);
        expect(await billing.sweep()).toBe(1);
        expect(await balance()).toBe(9);
      } finally {
        await store.close();
      }
      const verify = await runCli(['ledger', 'verify'], env);
      expect(verify.code, verify.stderr).toBe(0);
      expect(JSON.parse(verify.stdout)).toMatchObject({ mismatches: [], bad_holds: [] });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describeBackends('a worker killed while producing a stored response', (backend) => {
  it('leaves it in progress only until its lease lapses: then every reader, on any replica, finds it failed response_interrupted', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
    const env: Record<string, string> = { ...(await backend.env()), SVC_DATA_DIR: dataDir, SVC_RESPONSE_LEASE_MS: '1000' };
    try {
      const worker = await startChildService(env);
      const acct = await createAccount(worker.url, worker.adminKey, { plan: 'pro', credits: 9 });
      const res = await post(`${worker.url}/v1/responses`, acct.api_key, { model: 'svc-hang', input: 'q', stream: true });
      const reader = res.body!.getReader();
      let seen = '';
      while (!/"id":"resp_/.test(seen)) seen += new TextDecoder().decode((await reader.read()).value);
      const id = /"id":"(resp_[^"]+)"/.exec(seen)![1]!;
      const auth = { authorization: `Bearer ${acct.api_key}` };
      // Alive, it keeps renewing: past one lease the response is still in progress, here and elsewhere.
      const other = await startChildService(env);
      await sleep(1500);
      expect(((await (await fetch(`${other.url}/v1/responses/${id}`, { headers: auth })).json()) as any).status).toBe('in_progress');
      await stopChild(worker.child, 'SIGKILL');

      // A follower that had seen events 0-2 gets the ending, numbered on from there.
      const replay = await readSse(await fetch(`${other.url}/v1/responses/${id}?stream=true&starting_after=2`, { headers: auth }));
      const events = replay.frames.map((f) => JSON.parse(f.data) as { type: string; sequence_number: number; code?: string });
      expect(events.map((e) => [e.type, e.sequence_number])).toEqual([
        ['error', 3],
        ['response.failed', 4],
      ]);
      expect(events[0]!.code).toBe('response_interrupted');
      const got = (await (await fetch(`${other.url}/v1/responses/${id}`, { headers: auth })).json()) as any;
      expect(got).toMatchObject({ id, status: 'failed', error: { code: 'response_interrupted' } });
      expect(got.error.message).toContain('send the request again');
      const continued = await post(`${other.url}/v1/responses`, acct.api_key, { model: 'svc-paid', input: 'more', previous_response_id: id });
      expect(continued.status).toBe(400);
      await stopChild(other.child);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describeBackends('a background response cancelled through another replica', (backend) => {
  it('is cancelled at once there, and its producer stops within a third of a lease: its followers get the ending', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-cancel-'));
    const env: Record<string, string> = { ...(await backend.env()), SVC_DATA_DIR: dataDir, SVC_RESPONSE_LEASE_MS: '1000' };
    try {
      const producer = await startChildService(env);
      const other = await startChildService(env);
      const acct = await createAccount(producer.url, producer.adminKey, { plan: 'pro', credits: 9 });
      const auth = { authorization: `Bearer ${acct.api_key}` };
      const started = (await (await post(`${producer.url}/v1/responses`, acct.api_key, { model: 'svc-hang', input: 'q', background: true })).json()) as { id: string; status: string };
      expect(started.status).toBe('in_progress');
      const followed = fetch(`${producer.url}/v1/responses/${started.id}?stream=true`, { headers: auth }).then(readSse);
      await sleep(100);

      const cancel = await fetch(`${other.url}/v1/responses/${started.id}/cancel`, { method: 'POST', headers: auth });
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toMatchObject({ id: started.id, status: 'cancelled', background: true, output: [] });
      const events = (await followed).frames.map((f) => JSON.parse(f.data) as { type: string; sequence_number: number; code?: string; response?: { status: string } });
      expect(events.map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
      expect(events[2]!.code).toBe('response_cancelled');
      expect(events[3]!.response!.status).toBe('cancelled');
      for (const url of [producer.url, other.url]) {
        expect(((await (await fetch(`${url}/v1/responses/${started.id}`, { headers: auth })).json()) as any).status).toBe('cancelled');
      }
      await stopChild(producer.child);
      await stopChild(other.child);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describeBackends('svc ledger verify', (backend) => {
  it('exits non-zero naming an account whose balance does not match its ledger', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-verify-'));
    const env: Record<string, string> = { ...(await backend.env()), SVC_DATA_DIR: dataDir };
    try {
      const store = await openStore({ dataDir, databaseUrl: env.SVC_DATABASE_URL });
      const now = Date.now();
      try {
        await store.db.insertInto('accounts').values({ id: 'acct_tampered', email: 't@example.com', plan: 'pro', credits: 50, created_at: now, updated_at: now }).execute();
      } finally {
        await store.close();
      }
      const r = await runCli(['ledger', 'verify'], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/acct_tampered \(balance 50, ledger 0\)/);
      expect(JSON.parse(r.stdout)).toEqual({ accounts: 1, mismatches: [{ account_id: 'acct_tampered', balance: 50, ledger_sum: 0 }], bad_holds: [] });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!PG_URL)(`two replicas sharing one Postgres${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL to run)'}`, () => {
  it('split 50 parallel paid requests: exactly 3 are charged, balance 0', async () => {
    const env = { SVC_DATABASE_URL: await freshPostgres(), SVC_ADMIN_KEY: 'replica-admin-key-0001', PAID_DELAY_MS: '20' };
    const [a, b] = await Promise.all([startChildService(env), startChildService(env)]);
    const acct = await createAccount(a.url, a.adminKey, { plan: 'plus', credits: 9 });
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`${(i % 2 ? a : b).url}/v1/responses`, acct.api_key, { model: 'svc-paid', input: `q${i}` }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(47);
    const me = (await (await fetch(`${b.url}/v1/account`, { headers: { authorization: `Bearer ${acct.api_key}` } })).json()) as { credits: number };
    expect(me.credits).toBe(0);
    const verify = await runCli(['ledger', 'verify'], env);
    expect(verify.code, verify.stderr).toBe(0);
    await Promise.all([stopChild(a.child), stopChild(b.child)]);
  });

  it('a key revoked on one replica stops working on the other within 5 s', async () => {
    const env = { SVC_DATABASE_URL: await freshPostgres(), SVC_ADMIN_KEY: 'replica-admin-key-0001' };
    const [a, b] = await Promise.all([startChildService(env), startChildService(env)]);
    const acct = await createAccount(a.url, a.adminKey, { plan: 'free' });
    const keyOn = (url: string) => fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${acct.api_key}` } }).then((r) => r.status);
    expect(await keyOn(b.url)).toBe(200); // cached on b now
    const keys = (await (await fetch(`${a.url}/v1/account/keys`, { headers: { authorization: `Bearer ${acct.api_key}` } })).json()) as { data: { id: string }[] };
    const revokedAt = Date.now();
    await fetch(`${a.url}/v1/admin/keys/${keys.data[0]!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${a.adminKey}` } });
    expect(await keyOn(a.url)).toBe(401);
    while ((await keyOn(b.url)) === 200) {
      expect(Date.now() - revokedAt).toBeLessThan(5000);
      await sleep(100);
    }
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    await Promise.all([stopChild(a.child), stopChild(b.child)]);
  });

  it('rate limits are shared: the replicas together admit exactly the limit', async () => {
    const env = { SVC_DATABASE_URL: await freshPostgres(), SVC_ADMIN_KEY: 'replica-admin-key-0001', SVC_RATE_LIMIT_FREE: '10' };
    const [a, b] = await Promise.all([startChildService(env), startChildService(env)]);
    const acct = await createAccount(a.url, a.adminKey, { plan: 'free' });
    // Not across a minute boundary, where requests begun in the old window are still counted there after it.
    while (Date.now() % 60_000 > 57_000) await sleep(250);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/v1/models`, { headers: { authorization: `Bearer ${acct.api_key}` } }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    await Promise.all([stopChild(a.child), stopChild(b.child)]);
  });
});
