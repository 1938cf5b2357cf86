import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { ChatCompletion } from '../wire/chat.js';

/** A request message as the stored-completion endpoints list it (OpenAI's ChatCompletionStoreMessage, less its id). */
export interface StoredChatMessage {
  role: string;
  content: string | null;
  name: string | null;
  /** The text and image parts of content sent in parts; null for content sent as a string. */
  content_parts: unknown[] | null;
  /** An assistant turn's refusal, tool calls (or old function call); a tool result's call id: as sent. */
  refusal?: string;
  tool_calls?: unknown[];
  function_call?: unknown;
  tool_call_id?: string;
}

export interface StoredChatCompletion {
  id: string;
  model: string;
  createdAt: number;
  completion: ChatCompletion;
  messages: StoredChatMessage[];
  metadata: Record<string, string>;
}

export interface ChatCompletionQuery {
  model?: string;
  /** Every pair must match. */
  metadata: Record<string, string>;
  /** Only completions after this one, in the list's order. */
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

type Row = Selectable<Database['chat_completions']>;

const fromRow = (row: Row): StoredChatCompletion => ({
  id: row.id,
  model: row.model,
  createdAt: Number(row.created_at),
  completion: JSON.parse(row.completion) as ChatCompletion,
  messages: JSON.parse(row.messages) as StoredChatMessage[],
  metadata: JSON.parse(row.metadata) as Record<string, string>,
});

/**
 * Chat completions created with `store: true`: each one's answer, the messages it was asked
 * with and its metadata, per account. A completion is written whole, once, when its run has
 * finished; afterwards only its metadata changes.
 */
export class ChatCompletionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async save(entry: StoredChatCompletion & { accountId: string }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('chat_completions')
        .values({
          id: entry.id,
          account_id: entry.accountId,
          model: entry.model,
          completion: JSON.stringify(entry.completion),
          messages: JSON.stringify(entry.messages),
          metadata: JSON.stringify(entry.metadata),
          created_at: entry.createdAt,
          deleted_at: null,
        })
        .execute();
      await insertPairs(trx, entry.id, entry.metadata);
    });
  }

  async get(id: string, accountId: string): Promise<StoredChatCompletion | null> {
    const row = await this.db.selectFrom('chat_completions').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('deleted_at', 'is', null).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * A page of the account's stored completions in the order they were created; null when `after`
   * names none of them. A completion deleted since it was a page's last still marks its place.
   */
  async list(accountId: string, q: ChatCompletionQuery): Promise<{ data: StoredChatCompletion[]; hasMore: boolean } | null> {
    let query = this.db.selectFrom('chat_completions').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null);
    if (q.after !== undefined) {
      const cursor = await this.db.selectFrom('chat_completions').select(['created_at', 'seq']).where('id', '=', q.after).where('account_id', '=', accountId).executeTakeFirst();
      if (!cursor) return null;
      const beyond = q.order === 'asc' ? '>' : '<';
      query = query.where((eb) => eb.or([eb('created_at', beyond, cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('seq', beyond, cursor.seq)])]));
    }
    if (q.model !== undefined) query = query.where('model', '=', q.model);
    for (const [key, value] of Object.entries(q.metadata)) {
      query = query.where(({ exists, selectFrom }) =>
        exists(selectFrom('chat_completion_metadata as m').select('m.key').whereRef('m.completion_id', '=', 'chat_completions.id').where('m.key', '=', key).where('m.value', '=', value)),
      );
    }
    const rows = await query.orderBy('created_at', q.order).orderBy('seq', q.order).limit(q.limit + 1).execute();
    return { data: rows.slice(0, q.limit).map(fromRow), hasMore: rows.length > q.limit };
  }

  /** Replaces a completion's metadata; null when there is no such completion. */
  async setMetadata(id: string, accountId: string, metadata: Record<string, string>): Promise<StoredChatCompletion | null> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('chat_completions')
        .set({ metadata: JSON.stringify(metadata) })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return null;
      await trx.deleteFrom('chat_completion_metadata').where('completion_id', '=', id).execute();
      await insertPairs(trx, id, metadata);
      const row = await trx.selectFrom('chat_completions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return fromRow(row);
    });
  }

  /** Deletes its content and metadata; the emptied row stays until its retention ends, for cursors (see list). */
  async delete(id: string, accountId: string, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('chat_completions')
        .set({ deleted_at: now, completion: '{}', messages: '[]', metadata: '{}' })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('chat_completion_metadata').where('completion_id', '=', id).execute();
      return true;
    });
  }

  /** Deletes completions created before `cutoff` (ms), at most `batch` per call; returns how many went. */
  async purgeCreatedBefore(cutoff: number, batch = 1000): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const ids = (await trx.selectFrom('chat_completions').select('id').where('created_at', '<', cutoff).limit(batch).execute()).map((r) => r.id);
      if (!ids.length) return 0;
      await trx.deleteFrom('chat_completion_metadata').where('completion_id', 'in', ids).execute();
      await trx.deleteFrom('chat_completions').where('id', 'in', ids).execute();
      return ids.length;
    });
  }
}

async function insertPairs(trx: Transaction<Database>, id: string, metadata: Record<string, string>): Promise<void> {
  const pairs = Object.entries(metadata).map(([key, value]) => ({ completion_id: id, key, value }));
  if (pairs.length) await trx.insertInto('chat_completion_metadata').values(pairs).execute();
}
