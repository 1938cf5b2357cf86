import type { Kysely } from 'kysely';

/** The retention sweep finds responses by age: without an index every run would read the whole table. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('responses_created_at').on('responses').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('responses_created_at').execute();
}
