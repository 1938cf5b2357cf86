import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export type ItemRole = 'user' | 'assistant' | 'system' | 'developer';

/** A conversation's message item, as OpenAI lists it. */
export interface MessageItem {
  type: 'message';
  id: string;
  /** `incomplete`: an answer cut at its response's `max_output_tokens`. */
  status: 'completed' | 'incomplete';
  role: ItemRole;
  content: Array<{ type: 'input_text'; text: string } | { type: 'output_text'; text: string; annotations: unknown[]; logprobs: unknown[] }>;
}

/** An item with what the store keeps beside it: the stored report an answer is (see Turn.answerRef). */
export interface KeptItem {
  item: MessageItem;
  answerRef?: string;
}

export interface Conversation {
  id: string;
  metadata: Record<string, string>;
  /** Unix ms. */
  createdAt: number;
}

export interface ItemPageQuery {
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

const fromRow = (row: Database['conversations']): Conversation => ({ id: row.id, metadata: JSON.parse(row.metadata) as Record<string, string>, createdAt: Number(row.created_at) });

/**
 * Conversations and their items, per account. Items keep the order they were added in; responses
 * read them all as context and append their new input messages and their answer once completed.
 */
export class ConversationStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(conversation: Conversation & { accountId: string }, items: MessageItem[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('conversations')
        .values({ id: conversation.id, account_id: conversation.accountId, metadata: JSON.stringify(conversation.metadata), created_at: conversation.createdAt })
        .execute();
      if (items.length) await trx.insertInto('conversation_items').values(items.map((item) => this.#itemRow(conversation.id, { item }, conversation.createdAt))).execute();
    });
  }

  async get(id: string, accountId: string): Promise<Conversation | null> {
    const row = await this.db.selectFrom('conversations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async setMetadata(id: string, accountId: string, metadata: Record<string, string>): Promise<Conversation | null> {
    const res = await this.db.updateTable('conversations').set({ metadata: JSON.stringify(metadata) }).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(res.numUpdatedRows) ? this.get(id, accountId) : null;
  }

  /** Deletes a conversation and its items (responses that used it are kept). */
  async delete(id: string, accountId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('conversations').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!Number(res.numDeletedRows)) return false;
      await trx.deleteFrom('conversation_items').where('conversation_id', '=', id).execute();
      return true;
    });
  }

  /** Appends items to a conversation the caller owns (checked by the caller); one it holds already is left where it is. */
  async addItems(conversationId: string, items: readonly (MessageItem | KeptItem)[], now = Date.now()): Promise<void> {
    if (!items.length) return;
    const rows = items.map((i) => this.#itemRow(conversationId, 'item' in i ? i : { item: i }, now));
    await this.db
      .insertInto('conversation_items')
      .values(rows)
      .onConflict((oc) => oc.columns(['conversation_id', 'id']).doNothing())
      .execute();
  }

  /** Every item, oldest first. */
  async items(conversationId: string): Promise<KeptItem[]> {
    const rows = await this.db
      .selectFrom('conversation_items')
      .select(['item', 'answer_ref'])
      .where('conversation_id', '=', conversationId)
      .where('deleted_at', 'is', null)
      .orderBy('seq', 'asc')
      .execute();
    return rows.map((r) => ({ item: JSON.parse(r.item) as MessageItem, ...(r.answer_ref ? { answerRef: r.answer_ref } : {}) }));
  }

  /** An item of any of the account's conversations (for an item_reference), or null. */
  async itemOfAccount(itemId: string, accountId: string): Promise<KeptItem | null> {
    const row = await this.db
      .selectFrom('conversation_items as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select(['i.item', 'i.answer_ref'])
      .where('i.id', '=', itemId)
      .where('c.account_id', '=', accountId)
      .where('i.deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? { item: JSON.parse(row.item) as MessageItem, ...(row.answer_ref ? { answerRef: row.answer_ref } : {}) } : null;
  }

  /** A page of items; null when `after` is none of them (an item deleted since still marks its place). */
  async page(conversationId: string, q: ItemPageQuery): Promise<{ data: MessageItem[]; hasMore: boolean } | null> {
    let query = this.db.selectFrom('conversation_items').select('item').where('conversation_id', '=', conversationId).where('deleted_at', 'is', null);
    if (q.after !== undefined) {
      const cursor = await this.db.selectFrom('conversation_items').select('seq').where('id', '=', q.after).where('conversation_id', '=', conversationId).executeTakeFirst();
      if (!cursor) return null;
      query = query.where('seq', q.order === 'asc' ? '>' : '<', cursor.seq);
    }
    const rows = await query.orderBy('seq', q.order).limit(q.limit + 1).execute();
    return { data: rows.slice(0, q.limit).map((r) => JSON.parse(r.item) as MessageItem), hasMore: rows.length > q.limit };
  }

  async item(conversationId: string, itemId: string): Promise<MessageItem | null> {
    const row = await this.db.selectFrom('conversation_items').select('item').where('id', '=', itemId).where('conversation_id', '=', conversationId).where('deleted_at', 'is', null).executeTakeFirst();
    return row ? (JSON.parse(row.item) as MessageItem) : null;
  }

  async deleteItem(conversationId: string, itemId: string, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('conversation_items')
      .set({ deleted_at: now, item: '{}' })
      .where('id', '=', itemId)
      .where('conversation_id', '=', conversationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  #itemRow(conversationId: string, kept: KeptItem, now: number) {
    return { id: kept.item.id, conversation_id: conversationId, item: JSON.stringify(kept.item), answer_ref: kept.answerRef ?? null, created_at: now, deleted_at: null };
  }
}
