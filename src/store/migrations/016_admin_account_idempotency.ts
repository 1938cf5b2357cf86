import { sql, type Kysely } from 'kysely';

/**
 * `POST /v1/admin/accounts` under an Idempotency-Key: its record hangs off the account it made
 * (whose id nobody knows before), so it is found again by the key alone, and a key is one
 * account creation at most, however many run at once. Only that route's keys (their prefix, which
 * no caller's own key can have: those start with a visible character) are held unique.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index idempotency_admin_accounts on idempotency_keys (key) where key like ' admin-account:%'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('idempotency_admin_accounts').execute();
}
