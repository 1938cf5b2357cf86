import { PostgresAdapter, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Chat completions created with `store: true`, for OpenAI's stored-completion endpoints, listed
 * by creation time (`seq` orders two created in one millisecond); the metadata pairs
 * get their own table so a list filtered by them is an indexed lookup in both dialects.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('chat_completions')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('completion', 'text', (c) => c.notNull())
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // A deleted completion stays as a row without content until its retention ends, so a list
    // paged past it (`after` its id) goes on where it was.
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('chat_completions_account_created').on('chat_completions').columns(['account_id', 'created_at', 'seq']).execute();
  await db.schema.createIndex('chat_completions_created_at').on('chat_completions').column('created_at').execute();
  await db.schema
    .createTable('chat_completion_metadata')
    .addColumn('completion_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_completion_metadata_pk', ['completion_id', 'key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_completion_metadata').execute();
  await db.schema.dropTable('chat_completions').execute();
}
