import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from './helpers/backends.js';
import { runCli } from './helpers/cli.js';
import { startService, type TestService } from './helpers/service.js';

afterAll(() => dropTestSchemas());

describeBackends('svc accounts set-plan and svc keys create --name', (backend) => {
  let env: Record<string, string>;
  let account: { id: string; key_id: string };
  beforeAll(async () => {
    env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-plan-names-')), ...(await backend.env()) };
    account = JSON.parse((await runCli(['accounts', 'create', '--email', 'plans@example.com', '--plan', 'pro'], env)).stdout);
  }, 60_000);

  // The operator changing a plan could not see what it replaced (and so could not undo a slip).
  it('set-plan prints the plan it replaced next to the new one, also when nothing changed', async () => {
    const down = await runCli(['accounts', 'set-plan', '--account', account.id, '--plan', 'free'], env);
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toMatchObject({ id: account.id, plan: 'free', previous_plan: 'pro' });
    const up = JSON.parse((await runCli(['accounts', 'set-plan', '--account', account.id, '--plan', 'enterprise'], env)).stdout);
    expect(up).toMatchObject({ plan: 'enterprise', previous_plan: 'free' });
    const same = JSON.parse((await runCli(['accounts', 'set-plan', '--account', account.id, '--plan', 'enterprise'], env)).stdout);
    expect(same).toMatchObject({ plan: 'enterprise', previous_plan: 'enterprise' });
  }, 60_000);

  // Keys could be named on the web and through /v1/account/keys, but not by the operator.
  it('keys create --name names the key (spaces tidied), and accounts show lists it by that name', async () => {
    const r = await runCli(['keys', 'create', '--account', account.id, '--name', '  CI   deploys '], env);
    expect(r.code, r.stderr).toBe(0);
    const key = JSON.parse(r.stdout);
    expect(key).toMatchObject({ object: 'api_key', account_id: account.id, name: 'CI deploys', api_key: expect.stringMatching(/^sk-svc-/) });
    const unnamed = JSON.parse((await runCli(['keys', 'create', '--account', account.id], env)).stdout);
    expect(unnamed.name).toBeNull();
    const shown = JSON.parse((await runCli(['accounts', 'show', '--account', account.id], env)).stdout);
    const names = Object.fromEntries(shown.keys.data.map((k: { id: string; name: string | null }) => [k.id, k.name]));
    expect(names).toEqual({ [account.key_id]: null, [key.id]: 'CI deploys', [unnamed.id]: null });
    // Sixty characters are taken, sixty-one are not (as the API's limit), and --name needs its value.
    expect((await runCli(['keys', 'create', '--account', account.id, '--name', 'é'.repeat(60)], env)).code).toBe(0);
    const long = await runCli(['keys', 'create', '--account', account.id, '--name', 'x'.repeat(61)], env);
    expect([long.code, long.stderr]).toEqual([2, "svc: Invalid '--name': at most 60 characters.\n"]);
    const bare = await runCli(['keys', 'create', '--account', account.id, '--name'], env);
    expect([bare.code, bare.stderr]).toEqual([2, 'svc: --name needs a value\n']);
  }, 60_000);
});

describe('the admin API: plan changes and key names', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('PATCH /v1/admin/accounts/{id} answers the plan it replaced, as svc accounts set-plan prints it', async () => {
    const { id } = await svc.account({ plan: 'plus' });
    const patch = (plan: string) => fetch(`${svc.baseURL}/admin/accounts/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ plan }) });
    expect(await (await patch('pro')).json()).toMatchObject({ id, object: 'account', plan: 'pro', previous_plan: 'plus' });
    expect(await (await patch('free')).json()).toMatchObject({ plan: 'free', previous_plan: 'pro' });
  });

  it('names the key when a name is sent, and still issues an unnamed one for a bare POST', async () => {
    const { id } = await svc.account();
    const admin = (body?: unknown) =>
      fetch(`${svc.baseURL}/admin/accounts/${id}/keys`, { method: 'POST', headers: { authorization: `Bearer ${svc.adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const named = await admin({ name: 'nightly batch' });
    expect(named.status).toBe(201);
    const key = (await named.json()) as { id: string; api_key: string };
    expect(key).toMatchObject({ name: 'nightly batch', api_key: expect.stringMatching(/^sk-svc-/) });
    const bare = await admin();
    expect(bare.status).toBe(201);
    expect(((await bare.json()) as { name: unknown }).name).toBeNull();
    const tooLong = await admin({ name: 'x'.repeat(61) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { param: string } }).error.param).toBe('name');
    const wrongType = await admin({ name: 7 });
    expect(wrongType.status).toBe(400);
    // The account's own listing shows it by that name.
    const listed = (await (await fetch(`${svc.baseURL}/account/keys`, { headers: { authorization: `Bearer ${key.api_key}` } })).json()) as { data: { id: string; name: string | null }[] };
    expect(listed.data.find((k) => k.id === key.id)?.name).toBe('nightly batch');
  });
});
