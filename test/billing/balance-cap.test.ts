import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BALANCE } from '../../src/billing/service.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
afterAll(() => dropTestSchemas());

const grant = (accountId: string, amount: number) =>
  fetch(`${svc.url}/v1/admin/accounts/${accountId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount }),
  });

// Grants had no ceiling: repeated ones could carry a balance past 2^53, where a Postgres bigint is
// read back rounded and balance = sum(ledger) no longer holds exactly.
describeBackends('the most credits an account may hold', (backend) => {
  beforeAll(async () => {
    svc = await startService({ env: await backend.env() });
  });
  afterAll(() => svc.close());

  it('is below 2^53, so every balance and ledger sum is exact', () => {
    expect(MAX_BALANCE).toBe(1e15);
    expect(Number.isSafeInteger(MAX_BALANCE * 2)).toBe(true);
  });

  it('a grant past it is refused naming the largest possible, one up to it is granted exactly', async () => {
    const { account } = await svc.service.deps.accounts.createAccount({ email: 'rich@example.com', plan: 'pro', credits: MAX_BALANCE - 10 });
    const over = await grant(account.id, 11);
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({
      error: {
        message: `Invalid 'amount': 11 would take the balance of ${MAX_BALANCE - 10} above the most an account may hold, ${MAX_BALANCE}; the largest grant possible is 10.`,
        type: 'invalid_request_error',
        param: 'amount',
        code: 'balance_too_large',
      },
    });
    const upTo = await grant(account.id, 10);
    expect(upTo.status).toBe(200);
    expect(((await upTo.json()) as { account: { credits: number } }).account.credits).toBe(MAX_BALANCE);
    expect((await grant(account.id, 1)).status).toBe(400);
    // Corrections still work at the ceiling, and the ledger adds up to the balance exactly.
    expect((await grant(account.id, -1)).status).toBe(200);
    expect((await svc.service.deps.accounts.getAccount(account.id)).credits).toBe(MAX_BALANCE - 1);
    const report = await svc.service.deps.billing.verify();
    expect(report.mismatches).toEqual([]);
  });
});
