import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from './helpers/backends.js';
import { runCli } from './helpers/cli.js';

afterAll(() => dropTestSchemas());

// An operator asked to top up "ana@example.com" had no way to find her account id, her keys or
// what her credits went on: the admin API and the CLI took ids only, and the ledger needed her key.
describeBackends('svc accounts show', (backend) => {
  let env: Record<string, string>;
  let created: { id: string; key_id: string; created_at: number };
  beforeAll(async () => {
    env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-accounts-show-')), ...(await backend.env()) };
    created = JSON.parse((await runCli(['accounts', 'create', '--email', 'ana@example.com', '--plan', 'pro', '--credits', '30'], env)).stdout);
    await runCli(['credits', 'grant', '--account', created.id, '--amount', '12', '--note', 'December top-up'], env);
    await runCli(['keys', 'revoke', created.key_id], env);
  }, 60_000);

  it('finds the account by its email however it is written, with its keys and ledger, newest first', async () => {
    const r = await runCli(['accounts', 'show', '--email', ' Ana@Example.COM'], env);
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown).toMatchObject({ id: created.id, object: 'account', email: 'ana@example.com', plan: 'pro', credits: 42, created_at: created.created_at });
    expect(shown.keys.object).toBe('list');
    expect(shown.keys.data).toEqual([expect.objectContaining({ id: created.key_id, object: 'api_key', revoked_at: expect.any(Number) })]);
    expect(shown.ledger.data.map((e: { kind: string; amount: number; balance_after: number; reason: string }) => [e.kind, e.amount, e.balance_after, e.reason])).toEqual([
      ['grant', 12, 42, 'December top-up'],
      ['grant', 30, 30, 'opening credits'],
    ]);
    expect(shown.ledger).toMatchObject({ object: 'list', first_id: shown.ledger.data[0].id, last_id: shown.ledger.data[1].id, has_more: false });
    // By id, the same.
    const byId = await runCli(['accounts', 'show', '--account', created.id], env);
    expect(JSON.parse(byId.stdout)).toEqual(shown);
  }, 60_000);

  it('says which one is missing, and wants exactly one of --account and --email', async () => {
    const none = await runCli(['accounts', 'show', '--email', 'nobody@example.com'], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("svc: No account with email 'nobody@example.com'.\n");
    for (const args of [[], ['--account', created.id, '--email', 'ana@example.com']]) {
      const r = await runCli(['accounts', 'show', ...args], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('svc: give --account ID or --email E (one of them)\n');
    }
  }, 60_000);
});
