import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);

  // Every change to a balance, appended in the same transaction as the change itself.
  // `amount` is the signed change; the sum of an account's rows equals its balance.
  await db.schema
    .createTable('ledger')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'hold', 'capture', 'release', 'adjustment')`))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('hold_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_account_seq').on('ledger').columns(['account_id', 'seq']).execute();
  // A hold is debited once and settled (captured or released) once: enforced by the schema.
  await db.schema.createIndex('ledger_one_hold_row').on('ledger').column('hold_id').unique().where(sql.ref('kind'), '=', 'hold').execute();
  await db.schema
    .createIndex('ledger_one_settlement')
    .on('ledger')
    .column('hold_id')
    .unique()
    .where(sql<boolean>`kind in ('capture', 'release')`)
    .execute();

  if (pg) {
    await sql`create function ledger_append_only() returns trigger language plpgsql as $$
      begin raise exception 'the ledger is append-only'; end $$`.execute(db);
    await sql`create trigger ledger_no_update before update or delete on ledger for each row execute function ledger_append_only()`.execute(db);
  } else {
    await sql`create trigger ledger_no_update before update on ledger begin select raise(abort, 'the ledger is append-only'); end`.execute(db);
    await sql`create trigger ledger_no_delete before delete on ledger begin select raise(abort, 'the ledger is append-only'); end`.execute(db);
  }

  await db.schema
    .createTable('holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('job_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('held', 'captured', 'released')`))
    .addColumn('reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('lease_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .execute();
  await db.schema.createIndex('holds_open_leases').on('holds').columns(['state', 'lease_expires_at']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_progress', 'completed')`))
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key_id', 'window_start'])
    .execute();

  // Balances that predate the ledger get an opening row, so balance = sum(ledger) holds from here on.
  const now = Date.now();
  const accounts = await db.selectFrom('accounts').select(['id', 'credits']).where('credits', '>', 0).execute();
  for (const a of accounts) {
    await db
      .insertInto('ledger')
      .values({ id: `led_opening_${a.id}`, account_id: a.id, kind: 'grant', amount: a.credits, balance_after: a.credits, reason: 'opening balance', created_at: now })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_windows').execute();
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('holds').execute();
  await db.schema.dropTable('ledger').execute();
  if (isPostgres(db)) await sql`drop function if exists ledger_append_only()`.execute(db);
}
