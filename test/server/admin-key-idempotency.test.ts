import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
});
afterAll(() => svc.close());

const issue = (accountId: string, body: unknown, key?: string) =>
  fetch(`${svc.url}/v1/admin/accounts/${accountId}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const keys = async (apiKey: string) => ((await (await fetch(`${svc.baseURL}/account/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { data: { id: string }[] }).data;

// POST /v1/admin/accounts/{id}/keys ignored Idempotency-Key, as POST /v1/account/keys did: a retried
// script issued a second key each time.
describe('POST /v1/admin/accounts/{id}/keys with an Idempotency-Key', () => {
  it('a retry gets the first answer, secret included, and issues nothing more; another body is 422', async () => {
    const { id, apiKey } = await svc.account();
    const first = await issue(id, { name: 'deploy' }, 'issue-1');
    expect(first.status).toBe(201);
    const made = (await first.json()) as { id: string; api_key: string };
    const retry = await issue(id, { name: 'deploy' }, 'issue-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(made);
    expect(await keys(apiKey)).toHaveLength(2);
    const other = await issue(id, { name: 'other' }, 'issue-1');
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
    expect(await keys(apiKey)).toHaveLength(2);
    await svc.service.deps.responses.flush();
    expect(readFileSync(path.join(svc.dataDir, 'svc.db')).includes(Buffer.from(made.api_key))).toBe(false);
  });

  it('keys are per target account, and apart from the account\'s own', async () => {
    const a = await svc.account();
    const b = await svc.account();
    const ka = (await (await issue(a.id, undefined, 'same')).json()) as { id: string };
    const kb = (await (await issue(b.id, undefined, 'same')).json()) as { id: string };
    expect(kb.id).not.toBe(ka.id);
    const own = await fetch(`${svc.baseURL}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${a.apiKey}`, 'idempotency-key': 'same' } });
    expect(own.status).toBe(201);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    expect(await keys(a.apiKey)).toHaveLength(3);
  });

  it('an unknown account is 404 with the key, as without it', async () => {
    const res = await issue('acct_nobody', undefined, 'k');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('account_not_found');
  });
});
