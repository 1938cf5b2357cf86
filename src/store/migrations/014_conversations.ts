import { PostgresAdapter, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** OpenAI's conversations: an account's long-lived threads of message items, which responses read and extend. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversations_account').on('conversations').column('account_id').execute();
  // `seq` keeps items in the order they were added, across replicas.
  await db.schema
    .createTable('conversation_items')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    // A stored report an answer item is (`report:<id>`): responses reading the conversation keep the reference, not a copy.
    .addColumn('answer_ref', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // A deleted item stays as an empty row, so a list paged past it (`after` its id) goes on.
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('conversation_items_conversation_seq').on('conversation_items').columns(['conversation_id', 'seq']).execute();
  // An item is once in a conversation; the same message may be in several (an item_reference to another's).
  await db.schema.createIndex('conversation_items_conversation_id').on('conversation_items').columns(['conversation_id', 'id']).unique().execute();
  await db.schema.createIndex('conversation_items_id').on('conversation_items').column('id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('conversation_items').execute();
  await db.schema.dropTable('conversations').execute();
}
