import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/config.js';
import { runCli } from './helpers/cli.js';

const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));
const lines = (stderr: string) => stderr.trim().split('\n');

/** Runs each case, a few at a time (each is a Node process). */
async function runAll(cases: readonly (readonly [string[], RegExp])[], env: Record<string, string>) {
  const results: { args: string[]; code: number | null; stderr: string; stdout: string; line: RegExp }[] = [];
  for (let i = 0; i < cases.length; i += 4) {
    const batch = cases.slice(i, i + 4);
    results.push(...(await Promise.all(batch.map(async ([args, line]) => ({ args, line, ...(await runCli(args, env)) })))));
  }
  return results;
}

// `--plan gold` and `--email nope` exited 1 (the API's validation error) while `--credits -1` exited 2:
// one rule now holds for every command: 2 = the command line is wrong, 1 = running it failed.
describe('exit status 2: the command line is wrong, said in one line before storage or any upstream is touched', () => {
  // Storage that cannot be reached: a usage error must not depend on it.
  const env = { SVC_DATA_DIR: tmp('svc-exit-'), SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', SVC_KALSHI_API_URL: 'http://127.0.0.1:1/trade-api/v2', SVC_SEC_API_URL: 'http://127.0.0.1:1', SVC_SEC_WWW_URL: 'http://127.0.0.1:1', SVC_SEC_USER_AGENT: '' };
  const cases: [string[], RegExp][] = [
    [['accounts', 'create', '--email', 'x@example.com', '--plan', 'gold'], /^svc: Invalid '--plan': "gold"\. Expected one of free, plus, pro, enterprise\.$/],
    [['accounts', 'create', '--email', 'not-an-email'], /^svc: Invalid '--email': 'not-an-email' is not an email address\.$/],
    [['accounts', 'create', '--email', 'x@example.com', '--credits', 'ten'], /^svc: --credits must be an integer between 0 and 1000000000, got "ten"$/],
    [['accounts', 'create'], /^svc: missing --email$/],
    [['accounts', 'set-plan', '--account', 'acct_x', '--plan', 'Platinum'], /^svc: Invalid '--plan': "Platinum"/],
    [['accounts', 'set-plan', '--plan', 'pro'], /^svc: missing --account$/],
    [['accounts', 'set-password'], /^svc: missing --account$/],
    [['accounts', 'show', '--email', 'ana at example'], /^svc: Invalid '--email': 'ana at example' is not an email address\.$/],
    [['credits', 'grant', '--account', 'acct_x', '--amount', '1', '--note', 'n'.repeat(501)], /^svc: --note is 501 characters/],
    [['keys', 'create', '--account', 'acct_x', '--name', 'n'.repeat(61)], /^svc: Invalid '--name': at most 60 characters\.$/],
    [['keys', 'revoke'], /^svc: usage: svc keys revoke KEY_ID \| SECRET$/],
    [['snapshot', 'record', 'https://example.com/markets/a/b/c'], /^svc: 'example\.com' is not kalshi\.com\./],
    [['snapshot', 'record-sec', 'AAPL', '--filings', '0'], /^svc: --filings must be an integer between 1 and 100, got "0"$/],
    [['backtest', '--series', 'KX HIGH'], /^svc: --series must be a Kalshi series ticker such as KXHIGHNY, got "KX HIGH"$/],
    [['backtest', '--series', 'KXHIGHNY', '--hours', '0'], /^svc: --hours must be an integer between 1 and 720, got "0"$/],
    [['keys', 'create', '--account', ''], /^svc: --account is empty; give its value$/],
    [['credits', 'grant', '--account', ' ', '--amount', '5'], /^svc: --account is empty; give its value$/],
    [['backtest', '--series', 'KXHIGHNY', '--json', 'extra'], /^svc: unexpected argument "extra"; usage: svc backtest/],
    [['backtest', '--series', 'KXHIGHNY', '--json=yes'], /^svc: --json takes no value \(it is on when given\), got "--json=yes"$/],
    [['backtest', '--hours', '24'], /^svc: missing --series$/],
    [['discord', 'register-commands', '--guild', 'general'], /^svc: --guild must be a numeric guild id, got "general"$/],
    [['ledger', 'verify', 'now'], /^svc: unexpected argument "now"/],
    [['serve', '--port', '9000'], /^svc: unknown flag --port; .*SVC_PORT=9000 before the command$/],
    [['accounts', 'rename'], /^svc: unknown command "accounts rename"; svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage$/],
  ];
  it.each([0, 1])('every subcommand (part %i)', async (part) => {
    const half = Math.ceil(cases.length / 2);
    for (const r of await runAll(cases.slice(part * half, (part + 1) * half), env)) {
      expect(r.code, `${r.args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout, r.args.join(' ')).toBe('');
      expect(lines(r.stderr), r.args.join(' ')).toEqual([expect.stringMatching(r.line)]);
    }
  }, 120_000);
});

describe('exit status 1: running it failed', () => {
  let env: Record<string, string>;
  let account: { id: string };
  beforeAll(async () => {
    env = { SVC_DATA_DIR: tmp('svc-exit-'), SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi') };
    account = JSON.parse((await runCli(['accounts', 'create', '--email', 'exit@example.com'], env)).stdout);
  }, 60_000);

  it('a well-formed id that does not exist, data that is not there, a setting that is wrong', async () => {
    const chartDir = tmp('svc-exit-chart-');
    writeFileSync(path.join(chartDir, 'taken'), '');
    const cases: [string[], RegExp][] = [
      [['accounts', 'set-plan', '--account', 'acct_nope', '--plan', 'pro'], /^svc: No account with id 'acct_nope'\.$/],
      [['accounts', 'show', '--email', 'nobody@example.com'], /^svc: No account with email 'nobody@example\.com'\.$/],
      [['credits', 'grant', '--account', 'acct_nope', '--amount', '5'], /^svc: No account with id 'acct_nope'\.$/],
      [['keys', 'create', '--account', 'acct_nope'], /^svc: No account with id 'acct_nope'\.$/],
      [['keys', 'revoke', 'key_nope'], /^svc: /],
      [['backtest', '--series', 'KXNOSUCHSERIES'], /^svc: no settled markets with prices 24 h before close were found for series KXNOSUCHSERIES$/],
      [['snapshot', 'record-sec', 'AAPL', '--out', path.join(chartDir, 'sec')], /^svc: SEC EDGAR refuses requests without a User-Agent/],
    ];
    for (const r of await runAll(cases, { ...env, SVC_SEC_USER_AGENT: '' })) {
      expect(r.code, `${r.args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(lines(r.stderr), r.args.join(' ')).toEqual([expect.stringMatching(r.line)]);
    }
    // An invalid setting, whatever the command.
    const setting = await runCli(['accounts', 'show', '--account', account.id], { ...env, SVC_PORT: 'eighty' });
    expect(setting.code).toBe(1);
    expect(setting.stderr).toMatch(/^svc: invalid setting SVC_PORT/);
  }, 120_000);

  it('a password the rules refuse is a refused value (2); the command line without one too', async () => {
    const weak = await runCli(['accounts', 'set-password', '--account', account.id], env, 'short');
    expect(weak.code).toBe(2);
    expect(lines(weak.stderr)).toEqual([expect.stringMatching(/^svc: Use at least \d+ characters/)]);
    const empty = await runCli(['accounts', 'set-password', '--account', account.id], env, '');
    expect(empty.code).toBe(2);
    // A good one on an account that does not exist: running failed.
    const missing = await runCli(['accounts', 'set-password', '--account', 'acct_nope'], env, 'a long enough passphrase 42');
    expect(missing.code).toBe(1);
  }, 60_000);
});
