import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomToken } from '../ids.js';
import type { Database } from '../store/schema.js';
import { toAccount, type Account } from './service.js';

export interface WebSession {
  /** SHA-256 of the cookie token; never the token itself. */
  id: string;
  account: Account;
  csrfToken: string;
  expiresAt: number;
}

export interface SessionOptions {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
}

const SEEN_RESOLUTION_MS = 60_000;
const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Server-side browser sessions. The cookie carries a 238-bit random token; the table keeps its
 * hash, so neither a database dump nor a log line holds a usable session. Every lookup reads
 * the row (and the account, for its current plan and balance): signing out or deleting the row
 * ends the session everywhere at once.
 */
export class SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SessionOptions,
  ) {}

  async create(accountId: string, now = Date.now()): Promise<{ token: string; session: WebSession }> {
    const token = randomToken(40);
    const row = {
      id: sessionId(token),
      account_id: accountId,
      csrf_token: randomToken(32),
      created_at: now,
      last_seen_at: now,
      expires_at: Math.min(now + this.options.idleMs, now + this.options.absoluteMs),
    };
    await this.db.insertInto('web_sessions').values(row).execute();
    const session = await this.lookup(token, now);
    if (!session) throw new Error('session vanished right after it was created');
    return { token, session };
  }

  /** The live session behind a cookie token, sliding its idle expiry (at most once a minute). */
  async lookup(token: string, now = Date.now()): Promise<WebSession | null> {
    if (!token || token.length > 128) return null;
    const row = await this.db
      .selectFrom('web_sessions')
      .innerJoin('accounts', 'accounts.id', 'web_sessions.account_id')
      .select([
        'web_sessions.id as session_id',
        'web_sessions.csrf_token',
        'web_sessions.created_at as session_created_at',
        'web_sessions.last_seen_at',
        'web_sessions.expires_at',
        'accounts.id',
        'accounts.email',
        'accounts.plan',
        'accounts.credits',
        'accounts.created_at',
      ])
      .where('web_sessions.id', '=', sessionId(token))
      .executeTakeFirst();
    if (!row || Number(row.expires_at) <= now) return null;
    let expiresAt = Number(row.expires_at);
    if (now - Number(row.last_seen_at) >= SEEN_RESOLUTION_MS) {
      expiresAt = Math.min(now + this.options.idleMs, Number(row.session_created_at) + this.options.absoluteMs);
      await this.db.updateTable('web_sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', row.session_id).execute();
    }
    return { id: row.session_id, account: toAccount(row), csrfToken: row.csrf_token, expiresAt };
  }

  async destroy(token: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('id', '=', sessionId(token)).execute();
  }

  /** Removes expired sessions; returns how many. */
  async purge(now = Date.now()): Promise<number> {
    const res = await this.db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
