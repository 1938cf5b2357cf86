import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

// `svc accounts create -e a@b.c` said `unexpected arguments "-e" "a@b.c"`: a short or one-dash flag
// is said to be one, written in full, naming the closest flag the command takes.
describe('a flag written short or with one dash', () => {
  const env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-short-flags-')) };
  const lead = 'is not a flag svc knows: flags are written in full with two dashes;';

  it.each([
    [['accounts', 'create', '-e', 'a@b.c'], `svc: -e ${lead} did you mean --email? this command takes --email, --plan, --credits`],
    [['accounts', 'create', '-email', 'a@b.c'], `svc: -email ${lead} did you mean --email? this command takes --email, --plan, --credits`],
    [['accounts', 'create', '--email', 'a@b.c', '-p', 'pro'], `svc: -p ${lead} did you mean --plan? this command takes --email, --plan, --credits`],
    [['credits', 'grant', '-a', 'acct_x', '-n', '5'], `svc: -a ${lead} did you mean --account or --amount? this command takes --account, --amount, --note`],
    [['keys', 'create', '-account=acct_x'], `svc: -account=acct_x ${lead} did you mean --account? this command takes --account, --name`],
    [['serve', '-v'], `svc: -v ${lead} this command takes no flags`],
  ])('svc %j says so', async (args, line) => {
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('a negative amount after its flag is still a value', async () => {
    const r = await runCli(['credits', 'grant', '--account', 'acct_nobody', '--amount', '-5'], env);
    expect(r.stderr).not.toMatch(/is not a flag/);
  });

  // A flag's value given without its flag, told by its shape.
  it.each([
    [['accounts', 'create', 'ana@example.com'], 'svc: unexpected argument "ana@example.com"; did you mean --email ana@example.com? usage: svc accounts create --email E [--plan free|plus|pro|enterprise] [--credits N]'],
    [['keys', 'create', 'acct_abc', '--name', 'ci'], 'svc: unexpected argument "acct_abc"; did you mean --account acct_abc? usage: svc keys create --account ID [--name NAME]'],
    [['accounts', 'create', '--email', 'a@example.com', 'extra'], 'svc: unexpected argument "extra"; usage: svc accounts create --email E [--plan free|plus|pro|enterprise] [--credits N]'],
  ])('svc %j names the flag the value belongs to', async (args, line) => {
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
  });
});
