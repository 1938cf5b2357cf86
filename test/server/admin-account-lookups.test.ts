import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'svc-admin-lookups-')), agents: [scriptedAgent('svc-test', () => answer('ok'))] });
});
afterAll(() => svc.close());

const admin = (method: string, url: string, body?: unknown) =>
  fetch(`${svc.url}${url}`, { method, headers: { authorization: `Bearer ${svc.adminKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });

// An admin could issue and revoke an account's keys through the API but not list them: the id of
// the key to revoke was nowhere to be found without database access.
describe('GET /v1/admin/accounts/{id}/keys', () => {
  it("lists the account's keys, revoked ones too, without secrets", async () => {
    const { id } = await svc.account();
    const issued = (await (await admin('POST', `/v1/admin/accounts/${id}/keys`, { name: 'deploy' })).json()) as { id: string };
    expect((await admin('DELETE', `/v1/admin/keys/${issued.id}`)).status).toBe(200);
    const res = await admin('GET', `/v1/admin/accounts/${id}/keys`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as { object: string; data: { id: string; object: string; account_id: string; name: string | null; revoked_at: number | null }[] };
    expect(list.object).toBe('list');
    expect(list.data.map((k) => [k.object, k.account_id, k.name, k.revoked_at === null])).toEqual([
      ['api_key', id, null, true],
      ['api_key', id, 'deploy', false],
    ]);
    expect(list.data[1]!.id).toBe(issued.id);
    expect(JSON.stringify(list)).not.toContain('"api_key":"sk-svc-');
  });

  it('an unknown account is 404, and the route needs the admin key', async () => {
    const res = await admin('GET', '/v1/admin/accounts/acct_nobody/keys');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('account_not_found');
    const { id, apiKey } = await svc.account();
    expect((await fetch(`${svc.url}/v1/admin/accounts/${id}/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(401);
  });
});

// 409 account_exists said only "already exists": the operator then had no way to the account's id.
describe('creating an account whose email is taken names the account that has it', () => {
  it('in the admin API', async () => {
    const { id } = await svc.account({ email: 'named@example.com' });
    const res = await admin('POST', '/v1/admin/accounts', { email: ' Named@Example.com' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'account_exists', message: `An account with email 'named@example.com' already exists: ${id}.` });
  });

  it('in the CLI', async () => {
    const { id } = await svc.account({ email: 'named-cli@example.com' });
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const saved = process.env.SVC_DATA_DIR;
    process.env.SVC_DATA_DIR = svc.dataDir;
    try {
      expect(await main(['accounts', 'create', '--email', 'named-cli@example.com'])).toBe(1);
    } finally {
      process.env.SVC_DATA_DIR = saved;
      vi.restoreAllMocks();
    }
    expect(stderr).toBe(`svc: An account with email 'named-cli@example.com' already exists: ${id}.\n`);
  });
});

// An operator with a customer's email, not the account id, had no way to the account in the admin
// API (GET /v1/admin/accounts was 405, and any query parameter was refused).
describe('GET /v1/admin/accounts?email=', () => {
  it('finds the account with that email, however it is written, or none', async () => {
    const { id } = await svc.account({ email: 'findme@example.com' });
    const res = await admin('GET', `/v1/admin/accounts?email=${encodeURIComponent(' FindMe@Example.com ')}`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as { object: string; data: { id: string; email: string; object: string }[] };
    expect(list).toMatchObject({ object: 'list', data: [{ id, object: 'account', email: 'findme@example.com' }] });
    expect(await (await admin('GET', '/v1/admin/accounts?email=nobody@example.com')).json()).toEqual({ object: 'list', data: [] });
  });

  it('without an email, with a malformed one, or with another query parameter, is 400 saying what it takes', async () => {
    const bare = await admin('GET', '/v1/admin/accounts');
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'missing_required_parameter', message: expect.stringContaining('add ?email=') });
    expect((await admin('GET', '/v1/admin/accounts?email=not-an-email')).status).toBe(400);
    const other = await admin('GET', '/v1/admin/accounts?email=a@example.com&limit=5');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toBe("Unknown query parameter: 'limit'. This route takes only 'email' in its query.");
    // Other admin routes still take none.
    const create = await admin('POST', '/v1/admin/accounts?email=a@example.com', { email: 'a@example.com' });
    expect(create.status).toBe(400);
    expect(((await create.json()) as { error: { message: string } }).error.message).toMatch(/The admin API takes no query parameters/);
  });
});

// An admin could grant credits but not read what an account was granted and charged.
describe('GET /v1/admin/accounts/{id}/ledger', () => {
  it("pages the account's ledger as GET /v1/account/ledger does", async () => {
    const { id, apiKey } = await svc.account({ credits: 10 });
    for (const amount of [5, -3]) expect((await admin('POST', `/v1/admin/accounts/${id}/credits`, { amount, note: `n${amount}` })).status).toBe(200);
    const own = await (await fetch(`${svc.baseURL}/account/ledger?limit=2`, { headers: { authorization: `Bearer ${apiKey}` } })).json();
    const res = await admin('GET', `/v1/admin/accounts/${id}/ledger?limit=2`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: { amount: number; reason: string | null }[]; has_more: boolean; last_id: string };
    expect(page).toEqual(own);
    expect(page.data.map((e) => [e.amount, e.reason])).toEqual([
      [-3, 'n-3'],
      [5, 'n5'],
    ]);
    expect(page.has_more).toBe(true);
    const rest = (await (await admin('GET', `/v1/admin/accounts/${id}/ledger?after=${page.last_id}`)).json()) as { data: { amount: number }[]; has_more: boolean };
    expect(rest.data.map((e) => e.amount)).toEqual([10]);
    expect(rest.has_more).toBe(false);
    expect((await admin('GET', `/v1/admin/accounts/${id}/ledger?limit=0`)).status).toBe(400);
    expect((await admin('GET', '/v1/admin/accounts/acct_nobody/ledger')).status).toBe(404);
  });
});
