import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Every generated report, every version kept.
  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_ticker', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('series_ticker', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('citations', 'text', (c) => c.notNull())
    .addColumn('output_tokens', 'integer', (c) => c.notNull())
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('live', 'snapshot')`))
    .addColumn('generated_at', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('hold_id', 'text')
    .addUniqueConstraint('reports_event_version', ['event_ticker', 'version'])
    .execute();

  // At most one generation per event at a time, across replicas: a leased claim per event.
  await db.schema
    .createTable('report_jobs')
    .addColumn('event_ticker', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    // claimed: the leader is paying; running: paid, generating; done or failed: finished.
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('claimed', 'running', 'done', 'failed')`))
    .addColumn('lease_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_jobs').execute();
  await db.schema.dropTable('reports').execute();
}
