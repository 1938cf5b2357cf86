import type { Kysely } from 'kysely';

/** Web sign-in: passwords on accounts, names on API keys, server-side browser sessions. */
export async function up(db: Kysely<any>): Promise<void> {
  // Null for accounts made by an operator (CLI, admin API): they cannot sign in with a password.
  await db.schema.alterTable('accounts').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();

  await db.schema
    .createTable('web_sessions')
    // SHA-256 of the cookie's token: a leaked table does not yield usable sessions.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_account').on('web_sessions').column('account_id').execute();
  await db.schema.createIndex('web_sessions_expiry').on('web_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('web_sessions').execute();
  await db.schema.alterTable('api_keys').dropColumn('name').execute();
  await db.schema.alterTable('accounts').dropColumn('password_hash').execute();
}
