import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Plan } from '../agents/types.js';
import { SvcError, invalidRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Database } from '../store/schema.js';
import { WriteBehind } from '../store/write-behind.js';
import { isUniqueViolation } from '../store/errors.js';
import { appendLedger } from '../billing/service.js';
import { generateApiKey, hashKey } from './keys.js';
import { PLANS, isPlan } from './plans.js';

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  credits: number;
  createdAt: number;
}

export interface KeyInfo {
  id: string;
  accountId: string;
  prefix: string;
  last4: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface Authenticated {
  account: Account;
  keyId: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LAST_USED_RESOLUTION_MS = 60_000;

type AccountRow = Database['accounts'];
type KeyRow = Database['api_keys'];

export const toAccount = (r: Pick<AccountRow, 'id' | 'email' | 'plan' | 'credits' | 'created_at'>): Account => ({
  id: r.id,
  email: r.email,
  plan: r.plan as Plan,
  credits: Number(r.credits),
  createdAt: Number(r.created_at),
});

const toKey = (r: KeyRow): KeyInfo => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  last4: r.last4,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

export function validateEmail(email: unknown, param = 'email'): string {
  if (typeof email !== 'string' || !email.trim()) throw invalidRequest('missing_required_parameter', `Missing required parameter: '${param}'.`, param);
  const e = email.trim();
  if (e.length > 254 || !EMAIL.test(e)) throw invalidRequest('invalid_value', `Invalid '${param}': '${e.slice(0, 80)}' is not an email address.`, param);
  return e;
}

export function validatePlan(plan: unknown, param = 'plan'): Plan {
  if (!isPlan(plan)) {
    throw invalidRequest('invalid_value', `Invalid '${param}': ${JSON.stringify(plan)}. Expected one of ${PLANS.join(', ')}.`, param);
  }
  return plan;
}

/** Accounts and their API keys. Credits are changed only through billing (the ledger). */
export class AccountService {
  readonly #cache: LRUCache<string, { auth: Authenticated | null; keyId: string | null }>;
  readonly #lastUsed: WriteBehind<{ id: string; at: number }>;
  readonly #touched = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    options: { keyCacheTtlMs: number; onBackgroundError?: (err: unknown) => void },
  ) {
    this.#cache = new LRUCache({ max: 10_000, ttl: Math.max(1, options.keyCacheTtlMs), ttlAutopurge: false });
    this.#lastUsed = new WriteBehind(
      async (items) => {
        await this.db.transaction().execute(async (trx) => {
          for (const { id, at } of items) await trx.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
        });
      },
      (err) => options.onBackgroundError?.(err),
    );
  }

  async createAccount(input: { email: string; plan: Plan; credits: number }, now = Date.now()): Promise<{ account: Account; key: KeyInfo; secret: string }> {
    const id = newId('acct_');
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ id, email: input.email, plan: input.plan, credits: input.credits, created_at: now, updated_at: now }).execute();
        if (input.credits > 0) await appendLedger(trx, { accountId: id, kind: 'grant', amount: input.credits, balanceAfter: input.credits, reason: 'opening credits', now });
        const { key, secret } = await this.#insertKey(trx, id, now);
        return { account: { id, email: input.email, plan: input.plan, credits: input.credits, createdAt: now }, key, secret };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new SvcError('conflict', { code: 'account_exists', message: `An account with email '${input.email}' already exists.`, param: 'email' });
      }
      throw err;
    }
  }

  async getAccount(id: string): Promise<Account> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('account_not_found', `No account with id '${id}'.`, 'id');
    return toAccount(row);
  }

  async setPlan(accountId: string, plan: Plan, now = Date.now()): Promise<Account> {
    const res = await this.db.updateTable('accounts').set({ plan, updated_at: now }).where('id', '=', accountId).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound('account_not_found', `No account with id '${accountId}'.`, 'id');
    this.#cache.clear();
    return this.getAccount(accountId);
  }

  async issueKey(accountId: string, now = Date.now()): Promise<{ key: KeyInfo; secret: string }> {
    await this.getAccount(accountId);
    return this.#insertKey(this.db, accountId, now);
  }

  async #insertKey(db: Kysely<Database>, accountId: string, now: number): Promise<{ key: KeyInfo; secret: string }> {
    const k = generateApiKey();
    const row: KeyRow = { id: newId('key_'), account_id: accountId, key_hash: k.hash, prefix: k.prefix, last4: k.last4, created_at: now, last_used_at: null, revoked_at: null };
    await db.insertInto('api_keys').values(row).execute();
    return { key: toKey(row), secret: k.secret };
  }

  async listKeys(accountId: string): Promise<KeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    return rows.map(toKey).map((k) => ({ ...k, lastUsedAt: this.#touched.get(k.id) ?? k.lastUsedAt }));
  }

  /** Revokes a key (idempotent). With `accountId`, only a key of that account may be revoked. */
  async revokeKey(keyId: string, options: { accountId?: string } = {}, now = Date.now()): Promise<KeyInfo> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    if (!row || (options.accountId && row.account_id !== options.accountId)) throw notFound('key_not_found', `No API key with id '${keyId}'.`, 'id');
    if (row.revoked_at === null) {
      await this.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
      row.revoked_at = now;
    }
    for (const [secret, entry] of this.#cache.entries()) if (entry.keyId === keyId) this.#cache.delete(secret);
    return toKey(row);
  }

  /**
   * The account behind a secret, or null for an unknown or revoked key. Results are cached
   * for at most keyCacheTtlMs, which bounds how long a revocation takes to reach other replicas.
   */
  async authenticate(secret: string): Promise<Authenticated | null> {
    // Cached by the secret itself (it is in memory for the request anyway): no hashing on a hit.
    const hit = this.#cache.get(secret);
    if (hit) return hit.auth;
    const hash = hashKey(secret);
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id as key_id', 'api_keys.revoked_at', 'accounts.id', 'accounts.email', 'accounts.plan', 'accounts.credits', 'accounts.created_at'])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
    const auth = row && row.revoked_at === null ? { account: toAccount(row), keyId: row.key_id } : null;
    this.#cache.set(secret, { auth, keyId: row?.key_id ?? null });
    return auth;
  }

  /** Records that a key was used, at most once a minute per key, off the request path. */
  touch(keyId: string, now = Date.now()): void {
    const last = this.#touched.get(keyId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    this.#touched.set(keyId, now);
    this.#lastUsed.enqueue(keyId, { id: keyId, at: now });
  }

  /** Forget cached authentications (after a plan change, say). */
  invalidate(): void {
    this.#cache.clear();
  }

  async flush(): Promise<void> {
    await this.#lastUsed.flush();
  }
}
