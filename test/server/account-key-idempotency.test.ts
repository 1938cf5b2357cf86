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

const createKey = (apiKey: string, body: unknown, idemKey?: string) =>
  fetch(`${svc.baseURL}/account/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(idemKey ? { 'idempotency-key': idemKey } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const keys = async (apiKey: string) => ((await (await fetch(`${svc.baseURL}/account/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { data: { id: string }[] }).data;

// The same Idempotency-Key sent twice (a timeout, a script run twice) made two API keys.
describe('POST /v1/account/keys with an Idempotency-Key', () => {
  it('a retry replays the first answer, secret included, and makes no second key', async () => {
    const { apiKey } = await svc.account();
    const first = await createKey(apiKey, { name: 'ci' }, 'key-1');
    expect(first.status).toBe(201);
    const made = (await first.json()) as { id: string; api_key: string; name: string };
    expect(made.api_key).toMatch(/^sk-svc-/);
    const retry = await createKey(apiKey, { name: 'ci' }, 'key-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(made);
    expect((await keys(apiKey)).map((k) => k.id).filter((id) => id === made.id)).toHaveLength(1);
    expect(await keys(apiKey)).toHaveLength(2);
    // The replayed secret works, and the database never holds it in clear.
    expect((await fetch(`${svc.baseURL}/account`, { headers: { authorization: `Bearer ${made.api_key}` } })).status).toBe(200);
    await svc.service.deps.responses.flush();
    expect(readFileSync(path.join(svc.dataDir, 'svc.db')).includes(Buffer.from(made.api_key))).toBe(false);
  });

  it('a bodiless retry is replayed too; without a key each call makes a key', async () => {
    const { apiKey } = await svc.account();
    const a = (await (await createKey(apiKey, undefined, 'bare')).json()) as { id: string };
    const b = (await (await createKey(apiKey, undefined, 'bare')).json()) as { id: string };
    expect(b.id).toBe(a.id);
    await createKey(apiKey, undefined);
    await createKey(apiKey, undefined);
    expect(await keys(apiKey)).toHaveLength(4);
  });

  it('the same key with another body is 422 and makes nothing', async () => {
    const { apiKey } = await svc.account();
    expect((await createKey(apiKey, { name: 'one' }, 'key-2')).status).toBe(201);
    const other = await createKey(apiKey, { name: 'two' }, 'key-2');
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await keys(apiKey)).toHaveLength(2);
  });

  it('another account with the same Idempotency-Key gets its own new key, never the first secret', async () => {
    const a = await svc.account();
    const b = await svc.account();
    const ka = (await (await createKey(a.apiKey, { name: 'x' }, 'shared')).json()) as { id: string; api_key: string };
    const rb = await createKey(b.apiKey, { name: 'x' }, 'shared');
    expect(rb.status).toBe(201);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    const kb = (await rb.json()) as { id: string; api_key: string };
    expect(kb.id).not.toBe(ka.id);
    expect(kb.api_key).not.toBe(ka.api_key);
  });

  it('a refused request frees its key for the corrected one', async () => {
    const { apiKey } = await svc.account();
    expect((await createKey(apiKey, { nmae: 'typo' }, 'key-3')).status).toBe(400);
    expect((await createKey(apiKey, { name: 'fixed' }, 'key-3')).status).toBe(201);
  });
});

// `"note": ""` was stored as "" in the ledger; an empty or blank note is no note.
describe('credit grant notes', () => {
  const grant = (id: string, body: unknown) =>
    fetch(`${svc.url}/v1/admin/accounts/${id}/credits`, { method: 'POST', headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  it.each([[''], ['   '], ['\n']])('note %j is stored as null', async (note) => {
    const { id, apiKey } = await svc.account();
    const res = await grant(id, { amount: 5, note });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { entry: { reason: unknown } }).entry.reason).toBeNull();
    const ledger = (await (await fetch(`${svc.baseURL}/account/ledger`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { data: { amount: number; reason: unknown }[] };
    expect(ledger.data.find((e) => e.amount === 5)?.reason).toBeNull();
  });
  it('a written note is kept as written', async () => {
    const { id } = await svc.account();
    const res = await grant(id, { amount: 5, note: 'November top-up' });
    expect(((await res.json()) as { entry: { reason: unknown } }).entry.reason).toBe('November top-up');
  });
});
