import type { Kysely } from 'kysely';

/**
 * What replicas on one database share of an upstream's budget: the recent request starts (its
 * rate limit counts per client address, which replicas usually share) and a pause one of them
 * began when the upstream blocked it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upstream_starts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('upstream', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upstream_starts_upstream_at').on('upstream_starts').columns(['upstream', 'at']).execute();
  await db.schema
    .createTable('upstream_pauses')
    .addColumn('upstream', 'text', (c) => c.primaryKey())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upstream_pauses').execute();
  await db.schema.dropTable('upstream_starts').execute();
}
