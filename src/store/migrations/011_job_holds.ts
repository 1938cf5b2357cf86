import type { Kysely } from 'kysely';

/**
 * The credit hold that pays for a running generation, on its claim: when its replica dies, the
 * request that takes the generation over generates on that hold (its payer asked for this report),
 * instead of for free while the sweeper gives the hold back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_jobs').addColumn('hold_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_jobs').dropColumn('hold_id').execute();
}
