import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { SvcError, invalidRequest } from '../errors.js';
import type { Database } from '../store/schema.js';

export interface StoredResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** `since`: when this life of the key began (a key starts a new life once its TTL has passed). */
export type Claim = { kind: 'new'; since: number } | { kind: 'replay'; result: StoredResult };

export interface IdempotencyRequest {
  accountId: string;
  key: string;
  endpoint: string;
  fingerprint: string;
}

/** Object keys sorted at every level, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Top-level fields whose stated default changes nothing: a retry that spells one out (an SDK
 * adding `"stream": false`) is the same request. An explicit null reads as the default too.
 */
const DEFAULTS: Record<string, unknown> = { stream: false, background: false, store: true, n: 1 };

function withoutDefaults(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => v !== null && !(k in DEFAULTS && DEFAULTS[k] === v)));
}

export function fingerprint(endpoint: string, body: unknown): string {
  // No body at all (the route answers it 400) is fingerprinted as JSON null: JSON.stringify gives undefined for it.
  return createHash('sha256').update(endpoint).update('\n').update(JSON.stringify(canonical(withoutDefaults(body ?? null)))).digest('hex');
}

/** A header value is a key when it is 1-255 visible ASCII characters. */
export function validateKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || !/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key.trim()) || key.trim().length > 255) {
    throw invalidRequest('invalid_idempotency_key', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.', 'Idempotency-Key');
  }
  return key.trim();
}

/**
 * The prefix of the keys of `POST /v1/admin/accounts` (stored with the account each made). No
 * caller's own key can start with it: those start with a visible character, not a space.
 */
export const ACCOUNT_CREATION_KEYS = ' admin-account:';

/**
 * Idempotency keys, per account: the first request with a key runs (holding a renewable
 * lock); a replay with the same body within the TTL gets the stored result; the same key with
 * another body is refused. A result is stored only when the request succeeded; after a failure
 * the same request may run again, under the same life of the key (see IdempotencySession).
 */
export class IdempotencyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { ttlMs: number; lockMs: number; /** Encrypts the results stored sealed (a new API key's secret): the server's signing secret, shared by replicas. */ sealSecret?: string },
  ) {}

  /**
   * A result stored encrypted (AES-256-GCM, its key derived from the seal secret, the account and
   * the Idempotency-Key), so that the database never holds what it must not (a new API key's secret
   * in clear): only this server, for that account and key, can read it back.
   */
  seal(accountId: string, key: string, body: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#sealKey(accountId, key), iv);
    const data = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
    return `sealed:v1:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  /** The body sealed by `seal`, or null when it cannot be read back (the seal secret changed). */
  unseal(accountId: string, key: string, stored: string): string | null {
    if (!stored.startsWith('sealed:v1:')) return null;
    try {
      const raw = Buffer.from(stored.slice('sealed:v1:'.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', this.#sealKey(accountId, key), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  #sealKey(accountId: string, key: string): Buffer {
    if (!this.options.sealSecret) throw new Error('IdempotencyStore: no seal secret configured');
    return createHmac('sha256', this.options.sealSecret).update(`idempotency-seal\n${accountId}\n${key}`).digest();
  }

  get lockMs(): number {
    return this.options.lockMs;
  }

  async claim(req: IdempotencyRequest, now = Date.now()): Promise<Claim> {
    const fresh = {
      account_id: req.accountId,
      key: req.key,
      endpoint: req.endpoint,
      fingerprint: req.fingerprint,
      state: 'in_progress' as const,
      locked_until: now + this.options.lockMs,
      status_code: null,
      headers: null,
      body: null,
      created_at: now,
      expires_at: now + this.options.ttlMs,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.db
        .insertInto('idempotency_keys')
        .values(fresh)
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return { kind: 'new', since: now };
      const row = await this.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', req.accountId).where('key', '=', req.key).executeTakeFirst();
      if (!row) continue; // deleted meanwhile (its request failed): try again
      if (row.expires_at <= now) {
        // Older than the TTL: the key starts over.
        const res = await this.db
          .updateTable('idempotency_keys')
          .set(fresh)
          .where('account_id', '=', req.accountId)
          .where('key', '=', req.key)
          .where('expires_at', '<=', now)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 1) return { kind: 'new', since: now };
        continue;
      }
      if (row.endpoint !== req.endpoint || row.fingerprint !== req.fingerprint) {
        throw new SvcError('unprocessable', {
          code: 'idempotency_key_reused',
          message: `The Idempotency-Key '${req.key}' was already used with a different request (${row.endpoint}). Use a new key for a new request.`,
          param: 'Idempotency-Key',
        });
      }
      if (row.state === 'completed') {
        return { kind: 'replay', result: { statusCode: Number(row.status_code), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body ?? '' } };
      }
      if (row.locked_until > now) {
        throw new SvcError('conflict', {
          code: 'idempotency_key_in_progress',
          message: `A request with the Idempotency-Key '${req.key}' is still running; retry once it has finished to get its result.`,
          param: 'Idempotency-Key',
          retryAfterSeconds: 1,
        });
      }
      // Its first request's process died mid-way (the lock lapsed): this one takes over.
      const res = await this.db
        .updateTable('idempotency_keys')
        .set({ locked_until: now + this.options.lockMs })
        .where('account_id', '=', req.accountId)
        .where('key', '=', req.key)
        .where('state', '=', 'in_progress')
        .where('locked_until', '<=', now)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return { kind: 'new', since: Number(row.created_at) };
    }
    throw new SvcError('conflict', { code: 'idempotency_key_in_progress', message: `The Idempotency-Key '${req.key}' is contended; retry shortly.`, param: 'Idempotency-Key', retryAfterSeconds: 1 });
  }

  /** Extends a running request's lock; not one already unlocked (a renewal landing after its request ended). */
  async renew(accountId: string, key: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ locked_until: now + this.options.lockMs })
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('state', '=', 'in_progress')
      .where('locked_until', '>', 0)
      .execute();
  }

  async complete(accountId: string, key: string, result: StoredResult): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'completed', status_code: result.statusCode, headers: JSON.stringify(result.headers), body: result.body })
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .execute();
  }

  /** The request was refused as sent (nothing ran): forget the key, so it may carry a corrected request. */
  async forget(accountId: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('state', '=', 'in_progress').execute();
  }

  /**
   * The request ended without a result (it failed, or its client left while its work went on):
   * a retry takes over this same life of the key at once, and so finds that work again.
   */
  async unlock(accountId: string, key: string): Promise<void> {
    await this.db.updateTable('idempotency_keys').set({ locked_until: 0 }).where('account_id', '=', accountId).where('key', '=', key).where('state', '=', 'in_progress').execute();
  }

  /**
   * The live record of an admin account creation's key (`ACCOUNT_CREATION_KEYS`), held unique
   * across accounts (migration 016), with the account it hangs off; null when there is none. One
   * older than the TTL is removed, so the key starts over.
   */
  async findAccountCreation(key: string, now = Date.now()): Promise<{ accountId: string; endpoint: string; fingerprint: string; result: StoredResult | null } | null> {
    if (!key.startsWith(ACCOUNT_CREATION_KEYS)) throw new Error(`IdempotencyStore: '${key}' is not an account creation's key`);
    // The index's own condition, written out, so that both databases use it.
    const rows = () => this.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).where(sql<boolean>`key like ' admin-account:%'`);
    const row = await rows().executeTakeFirst();
    if (!row) return null;
    if (row.expires_at <= now) {
      await this.db.deleteFrom('idempotency_keys').where('key', '=', key).where('account_id', '=', row.account_id).where('expires_at', '<=', now).execute();
      return null;
    }
    const result = row.state === 'completed' ? { statusCode: Number(row.status_code), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body ?? '' } : null;
    return { accountId: row.account_id, endpoint: row.endpoint, fingerprint: row.fingerprint, result };
  }

  /**
   * Records a request's result within the transaction that did its work (`db`), so that the work
   * and its record are one: an admin account creation, whose account the record hangs off. A
   * second record of the same account creation key fails there (a unique violation), undoing it.
   */
  async recordWithin(db: Kysely<Database>, req: IdempotencyRequest, result: StoredResult, now = Date.now()): Promise<void> {
    await db
      .insertInto('idempotency_keys')
      .values({
        account_id: req.accountId,
        key: req.key,
        endpoint: req.endpoint,
        fingerprint: req.fingerprint,
        state: 'completed',
        locked_until: 0,
        status_code: result.statusCode,
        headers: JSON.stringify(result.headers),
        body: result.body,
        created_at: now,
        expires_at: now + this.options.ttlMs,
      })
      .execute();
  }

  async purge(now = Date.now()): Promise<number> {
    const res = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
