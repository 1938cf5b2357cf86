import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';
import { startService } from './helpers/service.js';

/** Runs `svc <args>` in this process: its exit code, stdout and stderr. */
async function svc(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    process.env = saved;
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

const TOP = 'svc has: serve, accounts, credits, ledger, snapshot, backtest, demo, keys, slack, discord; run svc help for their usage';

// `svc keys list` was "unknown command "keys list"; run svc help": no command meant, nothing of
// what the keys group has. An unknown subcommand now names the one meant and what exists.
describe('an unknown command names the one meant and what exists where it was looked for', () => {
  it.each([
    [['keys', 'delete', 'key_1'], 'svc: unknown command "keys delete"; did you mean "svc keys revoke"? svc keys has: create, list, revoke; run svc keys --help for their usage'],
    [['keys', 'ls'], 'svc: unknown command "keys ls"; did you mean "svc keys list"? svc keys has: create, list, revoke; run svc keys --help for their usage'],
    [['keys', 'new', '--account', 'acct_1'], 'svc: unknown command "keys new"; did you mean "svc keys create"? svc keys has: create, list, revoke; run svc keys --help for their usage'],
    [['accounts', 'get', '--email', 'a@example.com'], 'svc: unknown command "accounts get"; did you mean "svc accounts show"? svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage'],
    [['accounts', 'upgrade'], 'svc: unknown command "accounts upgrade"; did you mean "svc accounts set-plan"? svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage'],
    [['ledger', 'check'], 'svc: unknown command "ledger check"; did you mean "svc ledger verify"? svc ledger has: verify; run svc ledger --help for their usage'],
    [['accounts', 'rename'], 'svc: unknown command "accounts rename"; svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage'],
    [['acounts', 'rename'], 'svc: unknown command "acounts rename"; did you mean "svc accounts"? svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage'],
    [['credits', 'balance'], "svc: unknown command \"credits balance\"; svc accounts show (--account ID | --email E) shows an account's credits and ledger; svc credits has: grant; run svc credits --help for their usage"],
    [['ledger', 'list'], "svc: unknown command \"ledger list\"; svc accounts show (--account ID | --email E) shows an account's credits and ledger; svc ledger has: verify; run svc ledger --help for their usage"],
    [['xyzzy'], `svc: unknown command "xyzzy"; ${TOP}`],
    [['sevre'], `svc: unknown command "sevre"; did you mean "svc serve"? ${TOP}`],
  ])('svc %j', async (args, line) => {
    const r = await svc(args);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `${line}\n`]);
  });
});

// An operator asking for an account's keys had to know that accounts show lists them.
describe('svc keys list', () => {
  it("prints the account's keys, revoked ones too, as GET /v1/account/keys does, by id or email", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-keys-list-'));
    const service = await startService({ dataDir });
    let account: { id: string; apiKey: string };
    try {
      account = await service.account({ email: 'lister@example.com' });
      const made = (await (await fetch(`${service.baseURL}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' }, body: '{"name":"ci"}' })).json()) as { id: string };
      await fetch(`${service.baseURL}/account/keys/${made.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.apiKey}` } });
    } finally {
      await service.close();
    }
    const byId = await svc(['keys', 'list', '--account', account.id], { SVC_DATA_DIR: dataDir });
    expect(byId.code, byId.stderr).toBe(0);
    const listed = JSON.parse(byId.stdout) as { object: string; data: { object: string; account_id: string; name: string | null; revoked_at: number | null; api_key?: string }[] };
    expect(listed.object).toBe('list');
    expect(listed.data).toHaveLength(2);
    expect(listed.data.map((k) => [k.object, k.account_id, k.name, k.revoked_at === null])).toEqual([
      ['api_key', account.id, null, true],
      ['api_key', account.id, 'ci', false],
    ]);
    expect(listed.data.some((k) => 'api_key' in k)).toBe(false);
    const byEmail = await svc(['keys', 'list', '--email', 'Lister@Example.com'], { SVC_DATA_DIR: dataDir });
    expect(JSON.parse(byEmail.stdout)).toEqual(listed);
    const neither = await svc(['keys', 'list'], { SVC_DATA_DIR: dataDir });
    expect([neither.code, neither.stderr]).toEqual([2, 'svc: give --account ID or --email E (one of them)\n']);
    const unknown = await svc(['keys', 'list', '--account', 'acct_nobody'], { SVC_DATA_DIR: dataDir });
    expect([unknown.code, unknown.stderr]).toEqual([1, "svc: No account with id 'acct_nobody'.\n"]);
  });
});

// A leaked key is known by its secret, not its id: `svc keys revoke sk-svc-…` was "No API key with
// id 'sk-svc-…'", repeating the whole secret, and revoked nothing.
describe('svc keys revoke SECRET', () => {
  it('revokes the key with that secret, and never repeats a secret whole', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-keys-revoke-'));
    const service = await startService({ dataDir });
    let account: { id: string; apiKey: string };
    try {
      account = await service.account();
    } finally {
      await service.close();
    }
    const r = await svc(['keys', 'revoke', account.apiKey], { SVC_DATA_DIR: dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'api_key', account_id: account.id, revoked: true, revoked_at: expect.any(Number) });
    const listed = JSON.parse((await svc(['keys', 'list', '--account', account.id], { SVC_DATA_DIR: dataDir })).stdout) as { data: { revoked_at: number | null }[] };
    expect(listed.data[0]!.revoked_at).toEqual(expect.any(Number));
    const unknown = 'sk-svc-' + 'A'.repeat(40);
    const miss = await svc(['keys', 'revoke', unknown], { SVC_DATA_DIR: dataDir });
    expect(miss.code).toBe(1);
    expect(miss.stderr).toBe("svc: No API key has the secret sk-svc-AAAA… (its first characters); check it was copied whole, or find the key's id with svc keys list.\n");
    expect(miss.stderr).not.toContain(unknown);
  });
});

// An operator had no way to see which accounts there are (only one by its id or email).
describe('svc accounts list', () => {
  it('lists accounts newest first, --limit at a time, saying whether there are more', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-accounts-list-'));
    const service = await startService({ dataDir });
    const made: string[] = [];
    try {
      for (let i = 0; i < 3; i++) made.push((await service.account({ email: `listed${i}@example.com` })).id);
    } finally {
      await service.close();
    }
    const two = await svc(['accounts', 'list', '--limit', '2'], { SVC_DATA_DIR: dataDir });
    expect(two.code, two.stderr).toBe(0);
    const page = JSON.parse(two.stdout) as { object: string; data: { id: string; object: string; email: string }[]; has_more: boolean };
    expect(page.object).toBe('list');
    expect(page.data.map((a) => a.object)).toEqual(['account', 'account']);
    expect(page.has_more).toBe(true);
    const all = JSON.parse((await svc(['accounts', 'list'], { SVC_DATA_DIR: dataDir })).stdout) as typeof page;
    expect(all.has_more).toBe(false);
    expect(new Set(all.data.map((a) => a.id))).toEqual(new Set(made));
    expect(all.data.slice(0, 2)).toEqual(page.data);
    expect((await svc(['accounts', 'list', '--limit', '0'], { SVC_DATA_DIR: dataDir })).stderr).toBe('svc: --limit must be an integer between 1 and 1000, got "0"\n');
  });
});
