import { chmodSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type SchemaMetadata, type SqliteDatabase, type TableMetadata } from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import { redactUrl } from '../redact.js';
import { makeDir } from '../make-dir.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for messages: a file path or a Postgres URL without its password. */
  location: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  /** postgres://… selects Postgres; empty selects SQLite in dataDir. */
  databaseUrl?: string;
  /** Run migrations on open (the server does; admin commands too). */
  migrate?: boolean;
  /** A pooled Postgres connection that failed (the server restarted, a network cut). */
  onConnectionError?: (err: Error) => void;
  /** Postgres: the longest a query may take; none when absent (admin commands). */
  statementTimeoutMs?: number;
}

// int8 (bigint) columns hold unix-ms times and credit balances: well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * better-sqlite3 with its prepared statements reused by SQL text: Kysely prepares every query
 * anew, and preparing costs about as much as running a small query. (Kysely serialises the
 * queries of its one SQLite connection and svc never streams rows, so no statement is in use
 * twice at once.)
 */
export function reusingStatements(db: BetterSqlite3.Database, max = 1000): SqliteDatabase {
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max });
  return {
    close: () => db.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite keeps writing to a database file deleted (or moved, or replaced) under it, and every
 * write since is lost at the next start: the file at the path must still be the one opened.
 */
/** Synchronous on purpose: a stat takes microseconds, and libuv's threads may all be busy (password hashing), which would fail /readyz. */
function sameFile(file: string, opened: { dev: number; ino: number }): void {
  let now: { dev: number; ino: number };
  try {
    now = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`the database file ${file} was removed while the server ran: what it writes now is lost at restart`);
    throw err;
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino) throw new Error(`the database file ${file} was replaced while the server ran: the server still writes to the old one`);
}

/**
 * Kysely's Postgres introspector (which its migrator uses to find its own tables) reads every
 * schema of the database, through catalog functions that fail (3F000) when another schema is
 * dropped during the read: another tenant's, or another test run's. svc only ever needs its own
 * schema, so it reads only that one.
 */
class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return (await sql<{ name: string }>`select current_schema() as name`.execute(this.db)).rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')`.execute(this.db);
    return rows.map((t) => ({ name: t.name, schema: t.schema, isView: t.kind === 'v' || t.kind === 'm', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * A query given up at `query_timeout` leaves its connection with the query still outstanding:
 * returned to the pool as it is, that connection failed every later query at the same timeout
 * (the pool hands out the last released first, so a busy service kept getting it back). It is
 * ended instead; the pool then drops it on release and the next query opens a fresh one.
 */
function endWhenUnanswered(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: Error) => {
        if (err?.message === 'Query read timeout') void client.end().catch(() => {});
      });
    }
    return result;
  }) as typeof client.query;
}


export async function openStore(options: StoreOptions): Promise<Store> {
  let store: Store;
  let sqliteHandle: BetterSqlite3.Database | null = null;
  if (options.databaseUrl) {
    // A server that accepts the connection but never answers (stalled, a pooler whose backend is
    // down) fails the connection after 10 s instead of hanging start-up and every request for ever.
    // A query waiting on a lock held elsewhere is cancelled by the server after the statement
    // timeout; one on a connection that went silent is given up by the client a little later.
    // Either way its request fails instead of hanging (and /readyz, on another connection, said ready).
    const limit = options.statementTimeoutMs;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
      ...(limit ? { statement_timeout: limit, query_timeout: limit + 5_000 } : {}),
    });
    // Unheard, a connection's error event is thrown: a database restart would kill the process.
    // The pool hears idle connections; one in use (its query fails with the error anyway) is
    // heard here. The failed connection is dropped and the next query opens another.
    pool.on('error', (err) => options.onConnectionError?.(err));
    pool.on('connect', (client) => {
      client.on('error', (err) => options.onConnectionError?.(err));
      endWhenUnanswered(client);
    });
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    store = {
      db,
      dialect: 'postgres',
      location: redactUrl(options.databaseUrl),
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  } else {
    // Conversations, emails, password hashes and the ledger: readable by this user only.
    makeDir(options.dataDir);
    const file = path.join(options.dataDir, 'svc.db');
    const created = !existsSync(file);
    const sqlite = new BetterSqlite3(file);
    if (created) chmodSync(file, 0o600); // its -wal and -shm files take the database file's mode
    // Durable: every commit reaches the disk before it is acknowledged.
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    whileBusy(() => sqlite.pragma('journal_mode = WAL'));
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqliteHandle = sqlite;
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
    const opened = statSync(file);
    store = {
      db,
      dialect: 'sqlite',
      location: file,
      ping: async () => {
        sameFile(file, opened);
        await sql`select count(*) from sqlite_master`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  if (options.migrate !== false) {
    try {
      const run = async () => {
        if (!options.databaseUrl || !options.statementTimeoutMs) return migrate(store.db, store.dialect);
        // A migration may rewrite a large table: it runs on its own connection, with no statement limit.
        const own = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 1, connectionTimeoutMillis: 10_000 }) }) });
        try {
          return await migrate(own, 'postgres');
        } finally {
          await own.destroy();
        }
      };
      await (sqliteHandle ? inWriteTransaction(sqliteHandle, run) : run());
    } catch (err) {
      await store.close().catch(() => {});
      throw err;
    }
  }
  return store;
}

/**
 * Kysely runs SQLite migrations outside any transaction (it deems SQLite's DDL not
 * transactional), so two processes opening a new database raced: one failed with "table
 * accounts already exists". One write transaction around them (waiting `busy_timeout` for the
 * other process) makes them one at a time, and a failed migration leaves nothing half done.
 */
async function inWriteTransaction<T>(sqlite: BetterSqlite3.Database, fn: () => Promise<T>): Promise<T> {
  whileBusy(() => sqlite.exec('BEGIN IMMEDIATE'));
  try {
    const result = await fn();
    sqlite.exec('COMMIT');
    return result;
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw err;
  }
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Runs `fn` again while SQLite answers SQLITE_BUSY, up to `timeoutMs`. SQLite answers so at once,
 * without its busy handler, while another process's last connection cleans up the WAL as it closes,
 * or while one runs recovery (sqlite.org/wal.html#busy): a process opening the database just as
 * another finished with it (several starting at once, a CLI command beside a server stopping) failed
 * with "database is locked". Synchronous, as opening is.
 */
export function whileBusy<T>(fn: () => T, timeoutMs = SQLITE_BUSY_TIMEOUT_MS, pauseMs = 10): T {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY') || Date.now() >= until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pauseMs);
    }
  }
}

export async function migrate(db: Kysely<Database>, dialect: DialectName = 'sqlite'): Promise<string[]> {
  // Pin Kysely's bookkeeping tables to our schema: unpinned, it may find them in another
  // schema of the same database and skip creating its own.
  const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
