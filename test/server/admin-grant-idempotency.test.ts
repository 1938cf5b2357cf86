import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
afterAll(() => dropTestSchemas());

const grant = (accountId: string, body: unknown, key?: string) =>
  fetch(`${svc.url}/v1/admin/accounts/${accountId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
const balance = async (accountId: string) =>
  ((await (await fetch(`${svc.url}/v1/admin/accounts/${accountId}`, { headers: { authorization: `Bearer ${svc.adminKey}` } })).json()) as { credits: number }).credits;
const ledger = async (apiKey: string) =>
  ((await (await fetch(`${svc.baseURL}/account/ledger?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { data: { id: string; amount: number }[] }).data;

// A grant retried after a timeout (the first had landed) was granted twice: the admin API ignored Idempotency-Key.
describeBackends('credit grants with an Idempotency-Key', (backend) => {
  beforeAll(async () => {
    svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))], env: await backend.env() });
  });
  afterAll(() => svc.close());

  it('a retry gets the first answer and grants nothing more', async () => {
    const { id, apiKey } = await svc.account({ credits: 10 });
    const first = await grant(id, { amount: 30, note: 'top-up' }, 'grant-1');
    expect(first.status).toBe(200);
    const body = (await first.json()) as { account: { credits: number }; entry: { id: string } };
    expect(body.account.credits).toBe(40);
    const retry = await grant(id, { note: 'top-up', amount: 30 }, 'grant-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(body);
    expect(await balance(id)).toBe(40);
    expect((await ledger(apiKey)).filter((e) => e.amount === 30)).toHaveLength(1);
  });

  it('the same key with another grant is 422, and changes nothing', async () => {
    const { id } = await svc.account({ credits: 0 });
    expect((await grant(id, { amount: 5 }, 'grant-2')).status).toBe(200);
    const other = await grant(id, { amount: 50 }, 'grant-2');
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await balance(id)).toBe(5);
  });

  it('ten at once with one key grant once', async () => {
    const { id, apiKey } = await svc.account({ credits: 0 });
    const replies = await Promise.all(Array.from({ length: 10 }, () => grant(id, { amount: 7 }, 'grant-burst')));
    const statuses = replies.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409), String(statuses)).toBe(true);
    expect(statuses).toContain(200);
    expect(await balance(id)).toBe(7);
    expect((await ledger(apiKey)).filter((e) => e.amount === 7)).toHaveLength(1);
  });

  it('keys are per account, apart from the account\'s own, and a refused grant frees its key', async () => {
    const a = await svc.account({ credits: 0 });
    const b = await svc.account({ credits: 0 });
    expect((await grant(a.id, { amount: 3 }, 'shared')).status).toBe(200);
    expect((await grant(b.id, { amount: 3 }, 'shared')).status).toBe(200);
    expect([await balance(a.id), await balance(b.id)]).toEqual([3, 3]);
    // The account's own use of the same key, on its own routes, is another key.
    const own = await fetch(`${svc.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'shared' },
      body: JSON.stringify({ model: 'svc-test', input: 'hi' }),
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    // Refused as sent (below zero): the key may carry the corrected grant.
    const refused = await grant(a.id, { amount: -10 }, 'fix-1');
    expect(refused.status).toBe(400);
    expect((await grant(a.id, { amount: -3 }, 'fix-1')).status).toBe(200);
    expect(await balance(a.id)).toBe(0);
  });

  it('an unknown account is 404 account_not_found with a key too; a malformed key is 400', async () => {
    const res = await grant('acct_nope', { amount: 5 }, 'grant-x');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('account_not_found');
    const { id } = await svc.account();
    const bad = await grant(id, { amount: 5 }, 'x'.repeat(300));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_idempotency_key');
    expect(await balance(id)).toBe(0);
  });
});
