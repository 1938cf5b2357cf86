import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Postgres: the ledger's append-only trigger covered UPDATE and DELETE but not TRUNCATE. (SQLite
 * has no TRUNCATE; its DELETE trigger already covers emptying the table.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create trigger ledger_no_truncate before truncate on ledger for each statement execute function ledger_append_only()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop trigger if exists ledger_no_truncate on ledger`.execute(db);
}
