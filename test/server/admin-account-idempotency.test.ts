import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
afterAll(() => dropTestSchemas());

const create = (body: unknown, key?: string) =>
  fetch(`${svc.url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
const revoke = (keyId: string) => fetch(`${svc.url}/v1/admin/keys/${keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${svc.adminKey}` } });
const keysOf = async (apiKey: string) => ((await (await fetch(`${svc.baseURL}/account/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { data: unknown[] }).data;
const accountsWith = (email: string) => svc.service.deps.store.db.selectFrom('accounts').select('id').where('email', '=', email).execute();
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

interface Created {
  id: string;
  api_key: string;
  credits: number;
  key: { id: string; revoked_at: number | null; revoked?: boolean };
}

// POST /v1/admin/accounts ignored Idempotency-Key: a script retrying after a timeout got 409 for
// its own email, and the account's first API key, shown once, was lost.
describeBackends('POST /v1/admin/accounts with an Idempotency-Key', (backend) => {
  beforeAll(async () => {
    svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))], env: await backend.env() });
  });
  afterAll(() => svc.close());

  it('a retry gets the first answer, secret included, and makes nothing more; another body is 422', async () => {
    const first = await create({ email: 'retry@example.com', plan: 'pro', credits: 30 }, 'create-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const made = (await first.json()) as Created;
    const retry = await create({ email: 'retry@example.com', plan: 'pro', credits: 30 }, 'create-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await retry.json()).toEqual(made);
    expect(await accountsWith('retry@example.com')).toHaveLength(1);
    expect(await keysOf(made.api_key)).toHaveLength(1);
    // One grant of opening credits, not two.
    expect((await (await fetch(`${svc.baseURL}/account`, { headers: { authorization: `Bearer ${made.api_key}` } })).json()).credits).toBe(30);

    const other = await create({ email: 'retry@example.com', plan: 'free' }, 'create-1');
    expect(other.status).toBe(422);
    expect(await errorCode(other)).toBe('idempotency_key_reused');
    const otherEmail = await create({ email: 'someone-else@example.com' }, 'create-1');
    expect(otherEmail.status).toBe(422);
    expect(await errorCode(otherEmail)).toBe('idempotency_key_reused');
    expect(await accountsWith('someone-else@example.com')).toHaveLength(0);

    // The secret was stored sealed, never in clear.
    const stored = await svc.service.deps.store.db.selectFrom('idempotency_keys').select('body').where('account_id', '=', made.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body).toMatch(/^sealed:v1:/);
    if (backend.name === 'sqlite') {
      await svc.service.deps.responses.flush();
      expect(readFileSync(path.join(svc.dataDir, 'svc.db')).includes(Buffer.from(made.api_key))).toBe(false);
    }
  });

  it('an email taken by another request is still 409, with or without a key', async () => {
    expect((await create({ email: 'taken@example.com' })).status).toBe(201);
    const res = await create({ email: 'taken@example.com' }, 'create-taken');
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('account_exists');
  });

  it('a refused body records nothing: the key then carries the corrected request', async () => {
    const bad = await create({ email: 'fixme@example.com', credit: 5 }, 'create-fix');
    expect(bad.status).toBe(400);
    const good = await create({ email: 'fixme@example.com', credits: 5 }, 'create-fix');
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('two identical requests at once make one account, and both get its answer', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `together${round}@example.com`;
      const answers = await Promise.all([create({ email }, `together-${round}`), create({ email }, `together-${round}`)]);
      const bodies = await Promise.all(answers.map(async (r) => [r.status, (await r.json()) as Created] as const));
      expect(bodies.map(([status]) => status)).toEqual([201, 201]);
      expect(bodies[0]![1]).toEqual(bodies[1]![1]);
      expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
      expect(await accountsWith(email)).toHaveLength(1);
    }
  });

  it('two requests at once with one key and different emails make one account; the other is 422', async () => {
    const answers = await Promise.all([create({ email: 'one@example.com' }, 'clash'), create({ email: 'two@example.com' }, 'clash')]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 422]);
    expect((await accountsWith('one@example.com')).length + (await accountsWith('two@example.com')).length).toBe(1);
  });

  it('the same key as a caller\'s own or another route\'s key is apart from it', async () => {
    const a = await svc.account();
    const own = await fetch(`${svc.baseURL}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${a.apiKey}`, 'idempotency-key': 'shared' } });
    expect(own.status).toBe(201);
    const issued = await fetch(`${svc.url}/v1/admin/accounts/${a.id}/keys`, { method: 'POST', headers: { authorization: `Bearer ${svc.adminKey}`, 'idempotency-key': 'shared' } });
    expect(issued.status).toBe(201);
    const created = await create({ email: 'shared@example.com' }, 'shared');
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  // A replayed key issuance handed back a key revoked since as if it worked (`revoked_at: null`).
  describe('a replayed answer shows whether the key it issued was revoked since', () => {
    it('POST /v1/admin/accounts', async () => {
      const made = (await (await create({ email: 'revoked-first@example.com' }, 'create-rev')).json()) as Created;
      expect(made.key.revoked_at).toBeNull();
      expect((await revoke(made.key.id)).status).toBe(200);
      const retry = await create({ email: 'revoked-first@example.com' }, 'create-rev');
      expect(retry.status).toBe(201);
      const replayed = (await retry.json()) as Created;
      expect(replayed.key.revoked).toBe(true);
      expect(replayed.key.revoked_at).toEqual(expect.any(Number));
      expect({ ...replayed, key: { ...replayed.key, revoked: undefined, revoked_at: null } }).toEqual({ ...made, key: { ...made.key, revoked: undefined } });
    });

    it('POST /v1/admin/accounts/{id}/keys', async () => {
      const { id } = await svc.account();
      const issue = () => fetch(`${svc.url}/v1/admin/accounts/${id}/keys`, { method: 'POST', headers: { authorization: `Bearer ${svc.adminKey}`, 'idempotency-key': 'issue-rev' } });
      const made = (await (await issue()).json()) as { id: string; revoked_at: null };
      const unrevoked = await issue();
      expect(await unrevoked.json()).toEqual(made);
      await revoke(made.id);
      const replayed = (await (await issue()).json()) as { id: string; revoked_at: number | null; revoked?: boolean };
      expect(replayed.id).toBe(made.id);
      expect(replayed.revoked).toBe(true);
      expect(replayed.revoked_at).toEqual(expect.any(Number));
    });

    it('POST /v1/account/keys', async () => {
      const { apiKey } = await svc.account();
      const issue = () => fetch(`${svc.baseURL}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': 'own-rev' } });
      const made = (await (await issue()).json()) as { id: string };
      expect((await fetch(`${svc.baseURL}/account/keys/${made.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
      const retry = await issue();
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const replayed = (await retry.json()) as { id: string; revoked?: boolean; revoked_at: number | null };
      expect(replayed).toMatchObject({ id: made.id, revoked: true, revoked_at: expect.any(Number) });
    });
  });
});
