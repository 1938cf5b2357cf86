import type { Account, KeyInfo } from '../accounts/service.js';
import type { LedgerEntry } from '../billing/service.js';

/** JSON views of core records, as the API shows them (times in unix seconds). */
const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export const accountJson = (a: Account) => ({ id: a.id, object: 'account', email: a.email, plan: a.plan, credits: a.credits, created_at: seconds(a.createdAt) });

export function keyJson(k: KeyInfo, secret?: string) {
  return {
    id: k.id,
    object: 'api_key',
    account_id: k.accountId,
    name: k.name,
    prefix: k.prefix,
    last4: k.last4,
    created_at: seconds(k.createdAt),
    last_used_at: seconds(k.lastUsedAt),
    revoked_at: seconds(k.revokedAt),
    ...(secret ? { api_key: secret } : {}),
  };
}

export function entryJson(e: LedgerEntry) {
  return {
    id: e.id,
    object: 'ledger_entry',
    kind: e.kind,
    amount: e.amount,
    balance_after: e.balanceAfter,
    reason: e.reason,
    request_id: e.requestId,
    hold_id: e.holdId,
    created_at: Math.floor(e.createdAt / 1000),
  };
}

