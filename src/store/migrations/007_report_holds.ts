import type { Kysely } from 'kysely';

/** The sweeper asks which expired holds paid for a stored report (their worker died before capturing). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('reports_hold_id').on('reports').column('hold_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reports_hold_id').execute();
}
