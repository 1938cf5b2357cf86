import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from './helpers/backends.js';
import { runCli } from './helpers/cli.js';

afterAll(() => dropTestSchemas());

// The README says every admin command prints JSON in the API's shapes: `svc credits grant` printed
// a shape of its own ({account_id, credits, entry} with five of the ledger entry's fields).
describeBackends('svc credits grant prints what POST /v1/admin/accounts/{id}/credits answers', (backend) => {
  let env: Record<string, string>;
  let account: { id: string; created_at: number };
  beforeAll(async () => {
    env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-grant-shape-')), ...(await backend.env()) };
    account = JSON.parse((await runCli(['accounts', 'create', '--email', 'grant-shape@example.com', '--plan', 'plus', '--credits', '30'], env)).stdout);
  });

  it('the account with the balance the grant left and the whole ledger entry, plus account_id and credits for scripts', async () => {
    const r = await runCli(['credits', 'grant', '--account', account.id, '--amount', '30', '--note', 'November top-up'], env);
    expect(r.code, r.stderr).toBe(0);
    const granted = JSON.parse(r.stdout);
    expect(granted).toEqual({
      account: { id: account.id, object: 'account', email: 'grant-shape@example.com', plan: 'plus', credits: 60, created_at: account.created_at },
      entry: { id: expect.stringMatching(/^led_/), object: 'ledger_entry', kind: 'grant', amount: 30, balance_after: 60, reason: 'November top-up', request_id: null, hold_id: null, created_at: expect.any(Number) },
      account_id: account.id,
      credits: 60,
    });
    // A correction is an adjustment, exact to the credit, and the ledger still adds up.
    const corrected = JSON.parse((await runCli(['credits', 'grant', '--account', account.id, '--amount', '-45'], env)).stdout);
    expect(corrected.entry).toMatchObject({ object: 'ledger_entry', kind: 'adjustment', amount: -45, balance_after: 15, reason: null });
    expect(corrected.account.credits).toBe(15);
    const verify = await runCli(['ledger', 'verify'], env);
    expect(verify.code, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toEqual({ accounts: 1, mismatches: [], bad_holds: [] });
  }, 60_000);

  it('without --amount it says the flag is missing (it said "--amount must be a non-zero integer")', async () => {
    const r = await runCli(['credits', 'grant', '--account', account.id], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('svc: missing --amount (a non-zero integer between -1000000000 and 1000000000; a negative one corrects a balance)\n');
  });
});
