import type { Kysely } from 'kysely';

/** When a web-created key's secret was shown on its page: it is shown once, however often its flash cookie is sent again. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('secret_shown_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('secret_shown_at').execute();
}
