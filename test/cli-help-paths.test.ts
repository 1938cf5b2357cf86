import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

const env = () => ({ SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-help-')) });

// `svc help accounts` printed the whole help; `svc discord --help` hid `discord register-commands`;
// `svc help nothing` was called the unknown command "nothing --help".
describe('help for one command or group', () => {
  it('`svc help <command>` is `svc <command> --help`, and a group by its name lists its commands', async () => {
    const [viaHelp, viaFlag, group] = await Promise.all([runCli(['help', 'keys', 'create'], env()), runCli(['keys', 'create', '--help'], env()), runCli(['help', 'accounts'], env())]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^Usage: svc keys create --account ID \[--name NAME\]/);
    expect(group.code).toBe(0);
    expect(group.stdout.split('\n').filter((l) => l.startsWith('  svc accounts ')).length).toBe(5);
  }, 60_000);

  it('a command that also heads a group shows the group too', async () => {
    const r = await runCli(['discord', '--help'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n  svc discord +run the Discord bot.*\n  svc discord register-commands \[--guild ID\]/);
  }, 60_000);

  it('an unknown command is named by its words, not the flags or values after them', async () => {
    const results = await Promise.all([['help', 'nothing'], ['nothing', '--x', '1'], ['accounts', 'rename', 'acct_1']].map((args) => runCli(args, env())));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [2, 'svc: unknown command "nothing"; svc has: serve, accounts, credits, ledger, snapshot, backtest, demo, keys, slack, discord; run svc help for their usage\n'],
      [2, 'svc: unknown command "nothing"; svc has: serve, accounts, credits, ledger, snapshot, backtest, demo, keys, slack, discord; run svc help for their usage\n'],
      [2, 'svc: unknown command "accounts rename"; svc accounts has: create, set-plan, set-password, show, list; run svc accounts --help for their usage\n'],
    ]);
  }, 60_000);
});
