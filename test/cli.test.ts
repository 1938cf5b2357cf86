import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../src/store/db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL, describeBackends, dropTestSchemas } from './helpers/backends.js';
import { runCli } from './helpers/cli.js';

afterAll(() => dropTestSchemas());

const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));
const lines = (stderr: string) => stderr.trim().split('\n');

describeBackends('svc accounts create / credits grant: the admin API bounds', (backend) => {
  let env: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    env = { SVC_DATA_DIR: tmp('svc-cli-'), ...(await backend.env()) };
    accountId = (JSON.parse((await runCli(['accounts', 'create', '--email', 'grant@example.com', '--credits', '5'], env)).stdout) as { id: string }).id;
  });

  it.each(['99999999999999999999', '1000000001', '-1', '1.5', '9007199254740993'])('refuses --credits %s with one usage line naming the flag', async (credits) => {
    const r = await runCli(['accounts', 'create', '--email', `bounds${credits.length}@example.com`, '--credits', credits], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([`svc: --credits must be an integer between 0 and 1000000000, got "${credits}"`]);
  });

  it.each(['9007199254740993', '-9007199254740993', '1000000001', '-1000000001', '2.5', '1e3'])('refuses --amount %s with one usage line naming the flag', async (amount) => {
    const r = await runCli(['credits', 'grant', '--account', accountId, '--amount', amount], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([`svc: --amount must be an integer between -1000000000 and 1000000000, got "${amount}"`]);
  });

  it('accepts the bounds themselves, and refuses --amount 0', async () => {
    const created = await runCli(['accounts', 'create', '--email', 'max@example.com', '--credits', '1000000000'], env);
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout) as { id: string; credits: number };
    expect(account.credits).toBe(1_000_000_000);
    const corrected = await runCli(['credits', 'grant', '--account', account.id, '--amount', '-1000000000'], env);
    expect(corrected.code, corrected.stderr).toBe(0);
    expect(JSON.parse(corrected.stdout)).toMatchObject({ credits: 0, entry: { amount: -1_000_000_000 } });
    const zero = await runCli(['credits', 'grant', '--account', account.id, '--amount', '0'], env);
    expect(zero.code).toBe(2);
    expect(lines(zero.stderr)).toEqual(['svc: --amount must be a non-zero integer between -1000000000 and 1000000000']);
  });
});

describe('usage errors come before storage', () => {
  it('a bad flag is exit 2 naming it, even with a database that cannot be reached', async () => {
    const env = { SVC_DATA_DIR: tmp('svc-cli-'), SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' };
    for (const args of [
      ['accounts', 'create', '--email', 'x@example.com', '--credits', '-1'],
      ['credits', 'grant', '--account', 'acct_x', '--amount', '0'],
    ]) {
      const r = await runCli(args, env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^svc: --(credits|amount) must be/);
    }
    // An invalid value (not a usage error) is named too, not the database.
    expect((await runCli(['accounts', 'create', '--email', 'not-an-email'], env)).stderr).toBe("svc: Invalid '--email': 'not-an-email' is not an email address.\n");
  });
});

describe('flags', () => {
  it('a flag a command does not take, or one given without its value, is a usage error before anything runs', async () => {
    const env = { SVC_DATA_DIR: tmp('svc-cli-') };
    const account = JSON.parse((await runCli(['accounts', 'create', '--email', 'flags@example.com', '--credits', '1'], env)).stdout) as { id: string };
    for (const [args, line] of [
      [['credits', 'grant', '--account', account.id, '--amount', '5', '--note'], 'svc: --note needs a value'],
      [['credits', 'grant', '--account', account.id, '--amount', '5', '--dry-run'], 'svc: unknown flag --dry-run; this command takes --account, --amount, --note'],
      [['accounts', 'create', '--email', 'x@example.com', '--credit', '5'], 'svc: unknown flag --credit; this command takes --email, --plan, --credits'],
      [['keys', 'create', '--acount', account.id], 'svc: unknown flag --acount; this command takes --account, --name'],
      [['ledger', 'verify', '--fix'], 'svc: unknown flag --fix; this command takes no flags'],
      [['keys', 'revoke', 'key_one', 'key_two'], 'svc: unexpected extra argument "key_two"; usage: svc keys revoke KEY_ID | SECRET'],
      [['ledger', 'verify', 'now'], 'svc: unexpected argument "now"; usage: svc ledger verify'],
      [['snapshot', 'record', 'https://kalshi.com/markets/kxfed/fed/kxfed-26dec', '--outt', '/tmp/x'], 'svc: unknown flag --outt; this command takes --out'],
      [['snapshot', 'record-sec', 'AAPL', '--filing', '2'], 'svc: unknown flag --filing; this command takes --out, --filings'],
      [['discord', 'register-commands', '--guil', '123'], 'svc: unknown flag --guil; this command takes --guild'],
      // Which one was meant? Refused, not the last one silently.
      [['accounts', 'create', '--email', 'a@example.com', '--email', 'c@example.com'], 'svc: --email is given twice; give it once'],
      [['credits', 'grant', '--account', account.id, '--amount', '5', '--amount=6'], 'svc: --amount is given twice; give it once'],
      [['credits', 'grant', '--account', account.id, '--amount', '5', '--note', 'n'.repeat(501)], 'svc: --note is 501 characters; at most 500 (as the admin API takes)'],
    ] as const) {
      const r = await runCli([...args], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(lines(r.stderr)).toEqual([line]);
    }
    // Nothing was granted.
    const verify = JSON.parse((await runCli(['ledger', 'verify'], env)).stdout) as { accounts: number };
    expect(verify.accounts).toBe(1);
    const granted = await runCli(['credits', 'grant', '--account', account.id, '--amount', '5', '--note', 'welcome'], env);
    expect(JSON.parse(granted.stdout)).toMatchObject({ credits: 6, entry: { reason: 'welcome' } });
    // A command's own help: its usage, exit 0, nothing run.
    const help = await runCli(['credits', 'grant', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe('Usage: svc credits grant --account ID --amount N [--note TEXT]   (a negative N corrects a balance)\n');
    expect((await runCli(['backtest', '-h'], env)).stdout).toMatch(/^Usage: svc backtest --series/);
    // A group's name with --help (it was "unknown command"): its commands' usage.
    const group = await runCli(['accounts', '--help'], env);
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/^Usage:\n  svc accounts create --email E .*\n  svc accounts set-plan .*\n  svc accounts set-password /);
    const bare = await runCli(['keys'], env);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toContain('  svc keys revoke KEY_ID');
    // The word "true" is a value like any other.
    const literal = await runCli(['credits', 'grant', '--account', account.id, '--amount', '1', '--note', 'true'], env);
    expect(JSON.parse(literal.stdout)).toMatchObject({ credits: 7, entry: { reason: 'true' } });
  }, 120_000); // Sixteen CLI processes, each starting Node and tsx: on a loaded 2-core machine that is more than 30 s.
});

describe('commands', () => {
  it('names every object has are unknown commands, not crashes', async () => {
    for (const name of ['constructor', 'toString']) {
      const r = await runCli([name], { SVC_DATA_DIR: tmp('svc-cli-') });
      expect(r.code, name).toBe(2);
      expect(lines(r.stderr)).toEqual([`svc: unknown command "${name}"; svc has: serve, accounts, credits, ledger, snapshot, backtest, demo, keys, slack, discord; run svc help for their usage`]);
    }
  });
});

describe('the shapes the CLI prints', () => {
  it("are the admin API's: an account with its first key, a key, an account after a plan change", async () => {
    const env = { SVC_DATA_DIR: tmp('svc-cli-') };
    const created = JSON.parse((await runCli(['accounts', 'create', '--email', 'shape@example.com', '--plan', 'pro', '--credits', '4'], env)).stdout);
    const keyShape = { id: expect.stringMatching(/^key_/), object: 'api_key', account_id: created.id, name: null, prefix: expect.stringMatching(/^sk-svc-/), last4: expect.any(String), created_at: expect.any(Number), last_used_at: null, revoked_at: null };
    expect(created).toEqual({ id: expect.stringMatching(/^acct_/), object: 'account', email: 'shape@example.com', plan: 'pro', credits: 4, created_at: expect.any(Number), api_key: expect.stringMatching(/^sk-svc-/), key: keyShape, key_id: created.key.id });
    const key = JSON.parse((await runCli(['keys', 'create', '--account', created.id], env)).stdout);
    expect(key).toEqual({ ...keyShape, api_key: expect.stringMatching(/^sk-svc-/) });
    const plan = JSON.parse((await runCli(['accounts', 'set-plan', '--account', created.id, '--plan', 'plus'], env)).stdout);
    expect(plan).toEqual({ id: created.id, object: 'account', email: 'shape@example.com', plan: 'plus', credits: 4, created_at: created.created_at, previous_plan: 'pro' });
  });
});

describe('svc keys revoke', () => {
  it('prints revoked_at in unix seconds, as the API does', async () => {
    const env = { SVC_DATA_DIR: tmp('svc-cli-') };
    const account = JSON.parse((await runCli(['accounts', 'create', '--email', 'revoke@example.com'], env)).stdout) as { id: string; key_id: string };
    const before = Math.floor(Date.now() / 1000);
    const r = await runCli(['keys', 'revoke', account.key_id], env);
    expect(r.code, r.stderr).toBe(0);
    const revoked = JSON.parse(r.stdout) as { revoked: boolean; revoked_at: number };
    expect(revoked.revoked).toBe(true);
    expect(Number.isInteger(revoked.revoked_at)).toBe(true);
    expect(revoked.revoked_at).toBeGreaterThanOrEqual(before);
    expect(revoked.revoked_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('start-up failures: one line naming the setting, its value and what to do', () => {
  const serve = async (env: Record<string, string>, command = ['serve']) => {
    const r = await runCli(command, { SVC_PORT: '0', SVC_DATA_DIR: tmp('svc-start-'), SVC_LOG_LEVEL: 'silent', ...env });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    return lines(r.stderr)[0]!;
  };

  it('SVC_PORT already in use', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      expect(await serve({ SVC_PORT: String(port) })).toBe(`svc: SVC_PORT ${port} is already in use by another process; choose another port with SVC_PORT.`);
    } finally {
      busy.close();
    }
  });

  it('SVC_HOST that does not resolve', async () => {
    expect(await serve({ SVC_HOST: '999.1.1.1' })).toMatch(/^svc: SVC_HOST 999\.1\.1\.1 is neither an IP address nor a host name that resolves \(E[A-Z_]+\); use 127\.0\.0\.1/);
  });

  it('SVC_DATA_DIR that is a file, or under one', async () => {
    const file = path.join(tmp('svc-start-'), 'a-file');
    writeFileSync(file, 'x');
    expect(await serve({ SVC_DATA_DIR: file })).toBe(`svc: SVC_DATA_DIR ${file} is not a directory (a file is in the way at ${file}); point SVC_DATA_DIR at a directory svc may create or write to.`);
    expect(await serve({ SVC_DATA_DIR: path.join(file, 'sub') })).toMatch(/^svc: SVC_DATA_DIR .*\/a-file\/sub is not a directory/);
    // Admin commands open the same storage, and say the same.
    expect(await serve({ SVC_DATA_DIR: file }, ['ledger', 'verify'])).toMatch(/^svc: SVC_DATA_DIR .*\/a-file is not a directory/);
    // Its documents folder too (every SEC answer was a 500, /readyz ready).
    const dataDir = tmp('svc-start-');
    writeFileSync(path.join(dataDir, 'documents'), 'x');
    expect(await serve({ SVC_DATA_DIR: dataDir })).toBe(`svc: SVC_DATA_DIR ${dataDir} is not a directory (a file is in the way at ${path.join(dataDir, 'documents')}); point SVC_DATA_DIR at a directory svc may create or write to.`);
  });

  it('SVC_DATA_DIR where no directory can be made (a kernel filesystem), at once rather than never', async () => {
    const line = await serve({ SVC_DATA_DIR: '/proc/svc-data/here' });
    expect(line).toMatch(/^svc: SVC_DATA_DIR \/proc\/svc-data\/here cannot be used: ENOENT: .*mkdir '\/proc\/svc-data'; point SVC_DATA_DIR at a writable directory\.$/);
  });

  it('an admin.key in the data dir that is a directory, or holds a space', async () => {
    const dataDir = tmp('svc-start-');
    mkdirSync(path.join(dataDir, 'admin.key'));
    expect(await serve({ SVC_DATA_DIR: dataDir })).toMatch(/^svc: .*admin\.key should hold the admin key but is not a file \(a directory\?\): remove it/);
    rmSync(path.join(dataDir, 'admin.key'), { recursive: true });
    writeFileSync(path.join(dataDir, 'admin.key'), 'an admin key with spaces in it\n');
    expect(await serve({ SVC_DATA_DIR: dataDir })).toMatch(/^svc: the admin key in .*admin\.key holds spaces, line breaks or characters outside ASCII/);
  });

  it('a database a newer svc migrated (an old replica in a rolling deploy)', async () => {
    const dataDir = tmp('svc-start-');
    const store = await openStore({ dataDir });
    await store.db.insertInto('kysely_migration' as never).values({ name: '099_future', timestamp: new Date().toISOString() } as never).execute();
    await store.close();
    expect(await serve({ SVC_DATA_DIR: dataDir }, ['ledger', 'verify'])).toBe(
      `svc: SVC_DATA_DIR ${dataDir}: the database was migrated by a newer version of svc (it has migration 099_future, which this version does not know); run that version or a newer one against it.`,
    );
  });

  it('SVC_DATABASE_URL where nothing listens', async () => {
    const port = await closedPort();
    const url = `postgres://svc:hunter2@127.0.0.1:${port}/svc`;
    const line = await serve({ SVC_DATABASE_URL: url });
    expect(line).toBe(`svc: SVC_DATABASE_URL postgres://svc:***@127.0.0.1:${port}/svc: nothing accepts connections at 127.0.0.1:${port} (ECONNREFUSED); start Postgres there, or correct the host and port in SVC_DATABASE_URL.`);
    expect(await serve({ SVC_DATABASE_URL: url }, ['accounts', 'create', '--email', 'x@example.com'])).toBe(line);
  });

  it.skipIf(!PG_URL)('SVC_DATABASE_URL naming a database that does not exist', async () => {
    const url = new URL(PG_URL);
    url.pathname = '/svc_no_such_database';
    expect(await serve({ SVC_DATABASE_URL: url.toString() })).toMatch(/^svc: SVC_DATABASE_URL .*\/svc_no_such_database: database "svc_no_such_database" does not exist \(3D000\); create that database/);
  });

  it('SVC_KALSHI_SNAPSHOT_DIR and SVC_SEC_SNAPSHOT_DIR that are not snapshot folders', async () => {
    const missing = path.join(tmp('svc-start-'), 'nonexistent');
    expect(await serve({ SVC_KALSHI_SNAPSHOT_DIR: missing })).toBe(
      `svc: SVC_KALSHI_SNAPSHOT_DIR ${missing} does not exist; point it at a folder recorded with svc snapshot record, or leave SVC_KALSHI_SNAPSHOT_DIR empty to use the live Kalshi API.`,
    );
    const empty = tmp('svc-start-');
    expect(await serve({ SVC_SEC_SNAPSHOT_DIR: empty })).toBe(
      `svc: SVC_SEC_SNAPSHOT_DIR ${empty} has no manifest.json, so it is not a snapshot folder; point it at a folder recorded with svc snapshot record-sec, or leave SVC_SEC_SNAPSHOT_DIR empty to use the live SEC APIs.`,
    );
    writeFileSync(path.join(empty, 'manifest.json'), '{"recordedAt":"2025-05-15T00:00:00Z"}');
    expect(await serve({ SVC_KALSHI_SNAPSHOT_DIR: empty })).toBe(
      `svc: SVC_KALSHI_SNAPSHOT_DIR ${empty} has a manifest.json without its entries (the recorded answers), so it is not a snapshot folder; point it at a folder recorded with svc snapshot record, or leave SVC_KALSHI_SNAPSHOT_DIR empty to use the live Kalshi API.`,
    );
  });
});
