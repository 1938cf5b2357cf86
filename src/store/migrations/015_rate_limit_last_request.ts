import type { Kysely } from 'kysely';

/**
 * When a rate-limit window's latest request was counted: the next window weighs this one's count
 * only until a minute after it (when every request it counted has left the last minute), so a
 * client that waits as long as x-ratelimit-reset-requests said is admitted. Null on windows counted
 * before this migration (read as ending at their window's end).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limit_windows').addColumn('last_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limit_windows').dropColumn('last_at').execute();
}
