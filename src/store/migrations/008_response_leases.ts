import type { Kysely } from 'kysely';

/** A stored response in progress is vouched for by its producer until this time (renewed while it runs). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('lease_expires_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').dropColumn('lease_expires_at').execute();
}
