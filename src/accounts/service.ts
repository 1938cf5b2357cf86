import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Plan } from '../agents/types.js';
import { SvcError, invalidRequest, notFound, withMessage } from '../errors.js';
import { newId } from '../ids.js';
import type { Database } from '../store/schema.js';
import { WriteBehind } from '../store/write-behind.js';
import { isUniqueViolation } from '../store/errors.js';
import { appendLedger } from '../billing/service.js';
import { KEY_PREFIX, generateApiKey, hashKey, mayBeApiKey } from './keys.js';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, passwordProblem, verifyPassword, type ScryptParams } from './passwords.js';
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
  name: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface Authenticated {
  account: Account;
  keyId: string;
}

/**
 * An address as people have them: letters (any script), digits and the RFC 5322 atom symbols
 * before the @, dot-separated host labels after it, ending in a name of two letters or more.
 * Markup ("<script>…@x.com"), quotes, spaces and brackets are refused.
 */
const EMAIL = /^[\p{L}\p{M}\p{N}.!#$%&'*+/=?^_`{|}~-]+@(?:[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?\.)+\p{L}{2,}$/u;
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
  name: r.name ?? null,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

/** An email as stored and compared: trimmed, Unicode NFC, lower case (so `Ana@Example.com` is `ana@example.com`, one account). */
export const normalizeEmail = (email: string) => email.trim().normalize('NFC').toLowerCase();

export function validateEmail(email: unknown, param = 'email'): string {
  if (email === undefined || email === null || (typeof email === 'string' && !email.trim())) throw invalidRequest('missing_required_parameter', `Missing required parameter: '${param}'.`, param);
  if (typeof email !== 'string') throw invalidRequest('invalid_type', `Invalid type for '${param}': expected a string (an email address), but got ${Array.isArray(email) ? 'an array' : `a ${typeof email}`}.`, param);
  const e = normalizeEmail(email);
  if (e.length > 254 || !EMAIL.test(e)) {
    const why = e.length <= 254 ? notAnEmailBecause(e) : null;
    throw invalidRequest('invalid_value', `Invalid '${param}': '${e.slice(0, 80)}' is not an email address${why ? `: ${why}` : ''}.`, param);
  }
  return e;
}

/**
 * Why an address pasted as it is often copied is refused, when it is one of those shapes: a
 * display name around it ("Ana <ana@example.com>"), a `mailto:` link, a domain ending in one letter.
 */
function notAnEmailBecause(e: string): string | null {
  const inside = /<([^<>\s]+@[^<>\s]+)>/.exec(e)?.[1];
  if (inside && EMAIL.test(inside)) return `give the address alone, '${inside}'`;
  const linked = /^mailto:(.+)$/.exec(e)?.[1];
  if (linked && EMAIL.test(linked)) return `give the address without 'mailto:', '${linked}'`;
  if (/^[^@\s]+@[^@\s]+\.[\p{L}\p{N}]$/u.test(e)) return 'its domain must end in a name of two letters or more, such as .com';
  return null;
}

export const MAX_KEY_NAME_LENGTH = 60;
/** Active (unrevoked) keys one account may hold: more than any team uses, few enough to list on one page. */
export const MAX_ACTIVE_KEYS = 100;

export function validateKeyName(name: unknown, param = 'name'): string | null {
  if (name === undefined || name === null) return null;
  if (typeof name !== 'string') throw invalidRequest('invalid_type', `Invalid type for '${param}': expected a string.`, param);
  const n = name.replace(/\s+/g, ' ').trim();
  if ([...n].length > MAX_KEY_NAME_LENGTH) throw invalidRequest('invalid_value', `Invalid '${param}': at most ${MAX_KEY_NAME_LENGTH} characters.`, param);
  // A name is shown in listings, pages and terminals: a control character (a bell, an escape
  // sequence) or a bidirectional override (which makes a name read as another) has no place in one.
  const hidden = UNSHOWABLE.exec(n)?.[0];
  if (hidden !== undefined) {
    const code = `U+${hidden.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw invalidRequest('invalid_value', `Invalid '${param}': it contains the invisible character ${code} (a control or text-direction character); use letters, digits, spaces and punctuation.`, param);
  }
  return n || null;
}

/** Control characters (after whitespace is tidied) and the bidirectional embeddings, overrides and isolates. */
const UNSHOWABLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * A plan by its name in any case and without surrounding spaces ("Pro", " pro " are `pro`), as an
 * email is one address however it is written: the same in the admin API, the CLI and the settings'
 * named values. Stored in lower case.
 */
export function validatePlan(plan: unknown, param = 'plan'): Plan {
  const name = typeof plan === 'string' ? plan.trim().toLowerCase() : plan;
  if (!isPlan(name)) {
    throw invalidRequest('invalid_value', `Invalid '${param}': ${JSON.stringify(plan)}. Expected one of ${PLANS.join(', ')}.`, param);
  }
  return name;
}

const accountExists = (email: string) =>
  new SvcError('conflict', { code: 'account_exists', message: `An account with email '${email}' already exists.`, param: 'email', permanent: true });

/** Accounts and their API keys. Credits are changed only through billing (the ledger). */
export class AccountService {
  readonly #cache: LRUCache<string, { auth: Authenticated | null; keyId: string | null }>;
  readonly #lastUsed: WriteBehind<{ id: string; at: number }>;
  readonly #touched = new Map<string, number>();
  /** Counts revocations and plan changes: a lookup that overlapped one does not cache what it read. */
  #invalidations = 0;

  readonly #scrypt: ScryptParams;
  // Compared against when an email is unknown, so that a miss costs as long as a wrong password.
  #decoy: Promise<string> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    options: { keyCacheTtlMs: number; onBackgroundError?: (err: unknown) => void; scrypt?: ScryptParams },
  ) {
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
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

  /** An account made by an operator, with its first API key. */
  /**
   * `within`: more work in the same transaction, given what was made (a record of the request
   * that made it): if it fails, nothing was made.
   */
  async createAccount(
    input: { email: string; plan: Plan; credits: number; within?: (trx: Kysely<Database>, made: { account: Account; key: KeyInfo; secret: string }) => Promise<void> },
    now = Date.now(),
  ): Promise<{ account: Account; key: KeyInfo; secret: string }> {
    try {
      const { account, first } = await this.#insertAccount({ email: input.email, plan: input.plan, credits: input.credits, passwordHash: null, withKey: true, within: input.within }, now);
      return { account, key: first!.key, secret: first!.secret };
    } catch (err) {
      // An operator told only "already exists" had to find the account some other way: its id.
      const id = err instanceof SvcError && err.code === 'account_exists' ? await this.#accountIdByEmail(normalizeEmail(input.email)) : null;
      if (id) throw withMessage(err as SvcError, `An account with email '${normalizeEmail(input.email)}' already exists: ${id}.`);
      throw err;
    }
  }

  /**
   * Self-service sign-up on the web: Free plan, no credits, no key yet (keys are made in Settings).
   * Emails are compared case-insensitively.
   */
  /** The checks of a sign-up that need no database: the email's form and the password's strength. Throws the first problem. */
  checkSignUp(input: { email: unknown; password: unknown }): { email: string; password: string } {
    const email = validateEmail(input.email);
    if (typeof input.password !== 'string' || !input.password) throw invalidRequest('missing_required_parameter', "Missing required parameter: 'password'.", 'password');
    const problem = passwordProblem(input.password, email);
    if (problem) throw invalidRequest('weak_password', problem, 'password');
    return { email, password: input.password };
  }

  async signUp(input: { email: unknown; password: unknown }, now = Date.now()): Promise<Account> {
    const { email, password } = this.checkSignUp(input);
    // Checked first only to spare a taken address the cost of hashing; the unique index decides.
    if (await this.#accountIdByEmail(email)) throw accountExists(email);
    const passwordHash = await hashPassword(password, this.#scrypt);
    return (await this.#insertAccount({ email, plan: 'free', credits: 0, passwordHash, withKey: false }, now)).account;
  }

  /** The account whose email and password these are, or null; an unknown email takes as long as a wrong password. */
  async signIn(email: string, password: string): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    if (!row?.password_hash) {
      this.#decoy ??= hashPassword('not a password of anyone', this.#scrypt);
      await verifyPassword(password, await this.#decoy);
      return null;
    }
    if (!(await verifyPassword(password, row.password_hash))) return null;
    if (needsRehash(row.password_hash, this.#scrypt)) {
      const upgraded = await hashPassword(password, this.#scrypt);
      await this.db.updateTable('accounts').set({ password_hash: upgraded }).where('id', '=', row.id).where('password_hash', '=', row.password_hash).execute();
    }
    return toAccount(row);
  }

  /**
   * Sets (or replaces) an account's web password, for accounts an operator made; every web
   * session of the account ends, as after any password change.
   */
  async setPassword(accountId: string, password: string, options: { keepSessionId?: string } = {}, now = Date.now()): Promise<Account> {
    const account = await this.getAccount(accountId);
    const problem = passwordProblem(password, account.email);
    if (problem) throw invalidRequest('weak_password', problem, 'password');
    const passwordHash = await hashPassword(password, this.#scrypt);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('accounts').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', accountId).execute();
      let ended = trx.deleteFrom('web_sessions').where('account_id', '=', accountId);
      if (options.keepSessionId) ended = ended.where('id', '!=', options.keepSessionId);
      await ended.execute();
    });
    return account;
  }

  /**
   * A signed-in person changing their own password: the current one must be right. Every other
   * session of the account ends; `keepSessionId` (the one making the change) stays.
   */
  async changePassword(accountId: string, current: string, next: string, keepSessionId: string): Promise<void> {
    const row = await this.db.selectFrom('accounts').select('password_hash').where('id', '=', accountId).executeTakeFirst();
    if (!row?.password_hash || !(await verifyPassword(current, row.password_hash))) {
      throw new SvcError('authentication', { code: 'wrong_password', message: 'The current password is not right.', param: 'current_password' });
    }
    if (current === next) throw invalidRequest('invalid_value', 'The new password is the same as the current one.', 'new_password');
    try {
      await this.setPassword(accountId, next, { keepSessionId });
    } catch (err) {
      if (err instanceof SvcError && err.param === 'password') throw invalidRequest(err.code, err.message, 'new_password');
      throw err;
    }
  }

  async #accountIdByEmail(email: string): Promise<string | null> {
    const row = await this.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
    return row?.id ?? null;
  }

  async #insertAccount(
    input: {
      email: string;
      plan: Plan;
      credits: number;
      passwordHash: string | null;
      withKey: boolean;
      within?: (trx: Kysely<Database>, made: { account: Account; key: KeyInfo; secret: string }) => Promise<void>;
    },
    now: number,
  ): Promise<{ account: Account; first: { key: KeyInfo; secret: string } | null }> {
    const id = newId('acct_');
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('accounts')
          .values({ id, email: normalizeEmail(input.email), plan: input.plan, credits: input.credits, created_at: now, updated_at: now, password_hash: input.passwordHash })
          .execute();
        if (input.credits > 0) await appendLedger(trx, { accountId: id, kind: 'grant', amount: input.credits, balanceAfter: input.credits, reason: 'opening credits', now });
        const first = input.withKey ? await this.#insertKey(trx, id, null, now) : null;
        const account = { id, email: normalizeEmail(input.email), plan: input.plan, credits: input.credits, createdAt: now };
        if (input.within && first) await input.within(trx, { account, ...first });
        return { account, first };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw accountExists(input.email);
      throw err;
    }
  }

  async getAccount(id: string): Promise<Account> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('account_not_found', `No account with id '${id}'.`, 'id');
    return toAccount(row);
  }

  /** Accounts, newest first, `limit` at most, and whether there are more (for an operator's listing). */
  async listAccounts(limit: number): Promise<{ accounts: Account[]; hasMore: boolean }> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    return { accounts: rows.slice(0, limit).map(toAccount), hasMore: rows.length > limit };
  }

  /** The account with this email, however it is written (trimmed, NFC, lower case, as stored). */
  async findByEmail(email: string): Promise<Account> {
    const row = await this.db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    if (!row) throw notFound('account_not_found', `No account with email '${normalizeEmail(email)}'.`, 'email');
    return toAccount(row);
  }

  async setPlan(accountId: string, plan: Plan, now = Date.now()): Promise<Account> {
    return (await this.changePlan(accountId, plan, now)).account;
  }

  /** Sets the plan; also says which plan it replaced (read in the same transaction as the change). */
  async changePlan(accountId: string, plan: Plan, now = Date.now()): Promise<{ account: Account; previousPlan: Plan }> {
    const previousPlan = await this.db.transaction().execute(async (trx) => {
      // Touching the row first locks it (a row lock on Postgres; SQLite has one writer), so the
      // plan read next is the one this change replaces, not one a concurrent change overwrote.
      await trx.updateTable('accounts').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', accountId).execute();
      const before = await trx.selectFrom('accounts').select('plan').where('id', '=', accountId).executeTakeFirst();
      if (!before) throw notFound('account_not_found', `No account with id '${accountId}'.`, 'id');
      await trx.updateTable('accounts').set({ plan, updated_at: now }).where('id', '=', accountId).execute();
      return before.plan as Plan;
    });
    this.#invalidations++;
    this.#cache.clear();
    return { account: await this.getAccount(accountId), previousPlan };
  }

  async issueKey(accountId: string, options: { name?: string | null } = {}, now = Date.now()): Promise<{ key: KeyInfo; secret: string }> {
    await this.getAccount(accountId);
    return this.db.transaction().execute(async (trx) => {
      // Touching the account's row first queues concurrent issuers of one account (a row lock on
      // Postgres; SQLite has one writer), so the count below cannot be overtaken.
      await trx.updateTable('accounts').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', accountId).execute();
      const { n } = await trx.selectFrom('api_keys').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      if (Number(n) >= MAX_ACTIVE_KEYS) {
        throw new SvcError('conflict', {
          code: 'too_many_keys',
          message: `This account already has ${MAX_ACTIVE_KEYS} active API keys, the most it may have. Revoke one you no longer use, then create another.`,
          permanent: true,
        });
      }
      return this.#insertKey(trx, accountId, options.name ?? null, now);
    });
  }

  async #insertKey(db: Kysely<Database>, accountId: string, name: string | null, now: number): Promise<{ key: KeyInfo; secret: string }> {
    const k = generateApiKey();
    const row: KeyRow = { id: newId('key_'), account_id: accountId, key_hash: k.hash, prefix: k.prefix, last4: k.last4, name, created_at: now, last_used_at: null, revoked_at: null };
    await db.insertInto('api_keys').values(row).execute();
    return { key: toKey(row), secret: k.secret };
  }

  /** The id of the key with this secret (revoked or not), or null: a leaked secret is revoked by it. */
  async keyIdOfSecret(secret: string): Promise<string | null> {
    if (!mayBeApiKey(secret)) return null;
    const row = await this.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashKey(secret)).executeTakeFirst();
    return row?.id ?? null;
  }

  /** A key by its id (revoked or not), or null. */
  async getKey(keyId: string): Promise<KeyInfo | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    return row ? toKey(row) : null;
  }

  async listKeys(accountId: string): Promise<KeyInfo[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    return rows.map(toKey).map((k) => ({ ...k, lastUsedAt: this.#touched.get(k.id) ?? k.lastUsedAt }));
  }

  /** Marks a key's secret as shown (on the settings page): true the first time only. */
  async markSecretShown(keyId: string, accountId: string, now = Date.now()): Promise<boolean> {
    const res = await this.db.updateTable('api_keys').set({ secret_shown_at: now }).where('id', '=', keyId).where('account_id', '=', accountId).where('secret_shown_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Revokes a key (idempotent). With `accountId`, only a key of that account may be revoked. */
  async revokeKey(keyId: string, options: { accountId?: string } = {}, now = Date.now()): Promise<KeyInfo> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    if (!row || (options.accountId && row.account_id !== options.accountId)) {
      // A secret sent in place of an id is not said back whole (the answer may be logged or shown on screen).
      if (keyId.startsWith(KEY_PREFIX)) {
        throw notFound('key_not_found', `'${keyId.slice(0, KEY_PREFIX.length + 4)}…' is an API key's secret, not its id: revoke a key by its id (key_…), which the account's list of keys gives.`, 'id');
      }
      throw notFound('key_not_found', `No API key with id '${keyId}'.`, 'id');
    }
    if (row.revoked_at === null) {
      await this.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
      row.revoked_at = now;
    }
    // Lookups already reading the database may have read the key before this: they cache nothing.
    this.#invalidations++;
    for (const [secret, entry] of this.#cache.entries()) if (entry.keyId === keyId) this.#cache.delete(secret);
    return toKey(row);
  }

  /**
   * The account behind a secret, or null for an unknown or revoked key. Results are cached
   * for at most keyCacheTtlMs, which bounds how long a revocation takes to reach other replicas.
   */
  /** The remembered outcome of authenticating `secret`, or undefined when it must be looked up. */
  cachedAuthentication(secret: string): Authenticated | null | undefined {
    if (!mayBeApiKey(secret)) return null;
    // Cached by the secret itself (it is in memory for the request anyway): no hashing on a hit.
    return this.#cache.get(secret)?.auth;
  }

  async authenticate(secret: string): Promise<Authenticated | null> {
    if (!mayBeApiKey(secret)) return null;
    const hit = this.#cache.get(secret);
    if (hit) return hit.auth;
    const hash = hashKey(secret);
    const invalidations = this.#invalidations;
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id as key_id', 'api_keys.revoked_at', 'accounts.id', 'accounts.email', 'accounts.plan', 'accounts.credits', 'accounts.created_at'])
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst();
    const auth = row && row.revoked_at === null ? { account: toAccount(row), keyId: row.key_id } : null;
    if (invalidations !== this.#invalidations) return auth;
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

  /** How many key lookups are remembered (good and bad keys alike). */
  get cachedKeys(): number {
    return this.#cache.size;
  }

  /** Forget cached authentications (after a plan change, say). */
  invalidate(): void {
    this.#cache.clear();
  }

  async flush(): Promise<void> {
    await this.#lastUsed.flush();
  }
}
