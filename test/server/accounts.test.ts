import { scrypt } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAdminKey } from '../../src/accounts/admin-key.js';
import { ConfigError } from '../../src/config.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { runCli } from '../helpers/cli.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
const admin = (method: string, p: string, body?: unknown) =>
  fetch(`${svc.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${svc.adminKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const asKey = (key: string, p = '/v1/account') => fetch(`${svc.url}${p}`, { headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
});
afterAll(() => svc.close());

describe('accounts and API keys', () => {
  it('creates an account with a key shown once; the caller sees their account', async () => {
    const res = await admin('POST', '/v1/admin/accounts', { email: 'ana@example.com', plan: 'pro', credits: 12 });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ email: 'ana@example.com', plan: 'pro', credits: 12 });
    expect(body.id).toMatch(/^acct_/);
    expect(body.api_key).toMatch(/^sk-svc-[0-9A-Za-z]{40}$/);
    const me = await asKey(body.api_key);
    expect(await me.json()).toEqual({ id: body.id, object: 'account', email: 'ana@example.com', plan: 'pro', credits: 12 });
  });

  it('stores an email in one form (trimmed, NFC, lower case): letter case or Unicode form never makes a second account', async () => {
    const res = await admin('POST', '/v1/admin/accounts', { email: ' Ana.Admin@Example.COM ' });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).email).toBe('ana.admin@example.com');
    expect((await admin('POST', '/v1/admin/accounts', { email: 'ANA.ADMIN@example.com' })).status).toBe(409);
    const nfd = 'jose\u0301@example.com';
    const created = await admin('POST', '/v1/admin/accounts', { email: nfd });
    expect(((await created.json()) as any).email).toBe('jos\u00e9@example.com');
    expect((await admin('POST', '/v1/admin/accounts', { email: 'JOS\u00c9@example.com' })).status).toBe(409);
    // Such an account can sign in on the web with the address typed either way once it has a password.
    const accounts = svc.service.deps.accounts;
    const account = await accounts.signUp({ email: 'Mixed.Case@Example.com', password: 'a long enough passphrase 42' });
    expect(account.email).toBe('mixed.case@example.com');
    expect((await accounts.signIn('MIXED.case@example.COM', 'a long enough passphrase 42'))?.id).toBe(account.id);
  });

  it('defaults to the free plan and zero credits', async () => {
    const body = (await (await admin('POST', '/v1/admin/accounts', { email: 'free@example.com' })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ plan: 'free', credits: 0 });
  });

  it('stores keys only as hashes, with a visible prefix and last 4', async () => {
    const { id, apiKey } = await svc.account();
    const extra = (await (await admin('POST', `/v1/admin/accounts/${id}/keys`)).json()) as Record<string, string>;
    expect(extra.api_key).not.toBe(apiKey);
    expect(extra.prefix).toBe(extra.api_key!.slice(0, 11));
    expect(extra.last4).toBe(extra.api_key!.slice(-4));
    expect((await asKey(extra.api_key!)).status).toBe(200);
    await svc.service.deps.responses.flush();
    const db = new BetterSqlite3(path.join(svc.dataDir, 'svc.db'), { readonly: true });
    const rows = db.prepare('select * from api_keys where account_id = ?').all(id) as Record<string, unknown>[];
    db.close();
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(apiKey);
    expect(dump).not.toContain(extra.api_key);
    const file = readFileSync(path.join(svc.dataDir, 'svc.db'));
    expect(file.includes(Buffer.from(apiKey))).toBe(false);
  });

  it('a revoked key stops working at once', async () => {
    const { id } = await svc.account();
    const k = (await (await admin('POST', `/v1/admin/accounts/${id}/keys`)).json()) as Record<string, string>;
    expect((await asKey(k.api_key!)).status).toBe(200);
    const revoked = await admin('DELETE', `/v1/admin/keys/${k.id}`);
    expect(await revoked.json()).toMatchObject({ id: k.id, revoked: true });
    const after = await asKey(k.api_key!);
    expect(after.status).toBe(401);
    expect(((await after.json()) as any).error.code).toBe('invalid_api_key');
  });

  it('refuses a token that cannot be a key without looking it up or remembering it', async () => {
    const accounts = svc.service.deps.accounts;
    const before = accounts.cachedKeys;
    const tokens = [`sk-svc-${'a'.repeat(16_000)}`, 'x'.repeat(200), `sk-svc-${'A'.repeat(39)}!`, 'Bearer-ish', `sk-svc-${'b'.repeat(41)}`];
    for (const token of tokens) {
      const res = await asKey(token);
      expect(res.status).toBe(401);
      const err = ((await res.json()) as any).error;
      expect(err.code).toBe('invalid_api_key');
      expect(err.message.length).toBeLessThan(200);
    }
    expect(accounts.cachedKeys).toBe(before);
    // A token of the right shape that is not a key is looked up once and remembered as bad.
    expect((await asKey(`sk-svc-${'c'.repeat(40)}`)).status).toBe(401);
    expect(accounts.cachedKeys).toBe(before + 1);
  });

  it('generates the admin key on first start, readable only by its owner', () => {
    const file = path.join(svc.dataDir, 'admin.key');
    expect(readFileSync(file, 'utf8').trim()).toBe(svc.adminKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses an admin key file shorter than SVC_ADMIN_KEY may be, saying how to fix it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-admin-key-'));
    writeFileSync(path.join(dir, 'admin.key'), 'x\n');
    expect(() => resolveAdminKey('', dir)).toThrow(ConfigError);
    expect(() => resolveAdminKey('', dir)).toThrow(/admin\.key is shorter than 16 characters: write a longer one .* or delete the file/);
    writeFileSync(path.join(dir, 'admin.key'), `${'k'.repeat(16)}\n`);
    expect(resolveAdminKey('', dir)).toMatchObject({ secret: 'k'.repeat(16), source: 'file', created: false });
  });

  it.each([
    ['a space', 'my admin key of many words\n'],
    ['a line break inside', 'first-line-of-key\nsecond-line-of-key\n'],
    ['a character outside ASCII', 'admin-key-with-é-inside\n'],
  ])('refuses an admin key file with %s, which no Authorization header could carry', (_, content) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-admin-key-'));
    writeFileSync(path.join(dir, 'admin.key'), content);
    expect(() => resolveAdminKey('', dir)).toThrow(ConfigError);
    expect(() => resolveAdminKey('', dir)).toThrow(/admin\.key holds spaces, line breaks or characters outside ASCII: .*or delete the file/);
  });

  it('refuses an admin.key that is a directory, in one line saying what to do', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-admin-key-'));
    mkdirSync(path.join(dir, 'admin.key'));
    expect(() => resolveAdminKey('', dir)).toThrow(ConfigError);
    expect(() => resolveAdminKey('', dir)).toThrow(/admin\.key should hold the admin key but is not a file \(a directory\?\): remove it/);
  });

  it('uses SVC_ADMIN_KEY when it is set', async () => {
    const other = await startService({ env: { SVC_ADMIN_KEY: 'configured-admin-key-123' } });
    try {
      expect(other.adminKey).toBe('configured-admin-key-123');
      const res = await fetch(`${other.url}/v1/admin/accounts`, {
        method: 'POST',
        headers: { authorization: 'Bearer configured-admin-key-123', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.com' }),
      });
      expect(res.status).toBe(201);
    } finally {
      await other.close();
    }
  });

  it('health and readiness need no key', async () => {
    expect(await (await fetch(`${svc.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${svc.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', storage: 'sqlite' });
    // While libuv's threads are all busy (password hashing, here scrypt called directly), the
    // storage check does not queue behind them: it answers before the queued work is done.
    const jobs = 32;
    let done = 0;
    const busy = Array.from({ length: jobs }, () => new Promise<void>((resolve) => scrypt('x', 'salt', 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, () => (done++, resolve()))));
    const during = await fetch(`${svc.url}/readyz`);
    const doneThen = done;
    await Promise.all(busy);
    expect(during.status).toBe(200);
    // (Queued behind them, it would have waited for all but the last few.)
    expect(doneThen).toBeLessThan(jobs / 2);
    // A database that stops answering is not ready: 503 after 2 s, not a request that hangs.
    const ping = svc.service.deps.store.ping;
    svc.service.deps.store.ping = () => new Promise(() => {});
    try {
      const started = Date.now();
      const stalled = await fetch(`${svc.url}/readyz`);
      expect(stalled.status).toBe(503);
      expect(((await stalled.json()) as any).error.code).toBe('storage_unreachable');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      svc.service.deps.store.ping = ping;
    }
  });
});

describe('admin CLI', () => {
  it('creates accounts and keys, revokes keys, printing JSON', async () => {
    const env = { SVC_DATA_DIR: svc.dataDir };
    const created = await runCli(['accounts', 'create', '--email', 'cli@example.com', '--plan', 'plus', '--credits', '9'], env);
    expect(created.code, created.stderr).toBe(0);
    const acct = JSON.parse(created.stdout) as Record<string, string>;
    expect(acct).toMatchObject({ email: 'cli@example.com', plan: 'plus', credits: 9 });
    expect((await asKey(acct.api_key!)).status).toBe(200);

    const key = JSON.parse((await runCli(['keys', 'create', '--account', acct.id!], env)).stdout) as Record<string, string>;
    expect((await asKey(key.api_key!)).status).toBe(200);

    const revoked = await runCli(['keys', 'revoke', key.id!], env);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id, revoked: true });
    // The server caches a verified key for at most SVC_KEY_CACHE_TTL_MS (2 s by default).
    await new Promise((r) => setTimeout(r, 2100));
    expect((await asKey(key.api_key!)).status).toBe(401);
  });

  it('explains bad arguments in one line', async () => {
    const r = await runCli(['accounts', 'create', '--email', 'x@example.com', '--plan', 'gold'], { SVC_DATA_DIR: svc.dataDir });
    expect(r.code).toBe(2); // a value the command line gives that is refused: a usage error
    expect(r.stderr.trim()).toMatch(/^svc: Invalid '--plan'.*free, plus, pro, enterprise/);
  });
});
