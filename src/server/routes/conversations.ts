import type { FastifyInstance } from 'fastify';
import type { Conversation, ItemRole, MessageItem } from '../../conversations/store.js';
import { invalidRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ServerDeps } from '../deps.js';
import { parseConversationItems } from '../requests.js';
import { Fields, bodyObject, intQuery, invalidValue, metadataUpdate, missing, onlyFields, orderQuery, stringQuery } from '../validate.js';

type Query = Record<string, unknown>;

const wireObject = (c: Conversation) => ({ id: c.id, object: 'conversation' as const, created_at: Math.floor(c.createdAt / 1000), metadata: c.metadata });

const unknownConversation = (id: string) => notFound('conversation_not_found', `Conversation with id '${id}' not found.`, 'conversation_id');

/** A message as the item a conversation keeps, one content part per text: an answer's as output, anything else's as input. */
export function messageItem(id: string, role: ItemRole, texts: readonly string[]): MessageItem {
  const content = texts.map((text) => (role === 'assistant' ? { type: 'output_text' as const, text, annotations: [], logprobs: [] } : { type: 'input_text' as const, text }));
  return { type: 'message', id, status: 'completed', role, content };
}

// Ids and statuses are the server's: an item is written once, completed.
const newItems = (raw: unknown, param: string) => parseConversationItems(raw, param).map((m) => messageItem(newId('msg_', 32), m.role, m.parts));

/**
 * OpenAI's conversations: create one (with up to 20 first items), read, update its metadata,
 * delete it; list, add, read and delete its items. `conversation` on `POST /v1/responses` reads
 * one as context and extends it (routes/responses.ts).
 */
export async function conversationRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  const store = deps.conversations;
  const owned = async (id: string, accountId: string) => {
    const found = await store.get(id, accountId);
    if (!found) throw unknownConversation(id);
    return found;
  };

  app.post('/v1/conversations', async (request) => {
    // An SDK's create() with no arguments sends no body at all.
    const f = new Fields(request.body === undefined || request.body === null ? {} : bodyObject(request.body));
    onlyFields(f, ['items', 'metadata'], "A conversation is created with 'items' and 'metadata'.");
    const items = f.has('items') ? newItems(f.obj.items, 'items') : [];
    const conversation = { id: newId('conv_', 48), metadata: f.metadata('metadata') ?? {}, createdAt: Date.now() };
    await store.create({ ...conversation, accountId: request.auth!.account.id }, items);
    return wireObject(conversation);
  });

  app.get('/v1/conversations/:id', async (request) => {
    const { id } = request.params as { id: string };
    return wireObject(await owned(id, request.auth!.account.id));
  });

  app.post('/v1/conversations/:id', async (request) => {
    const { id } = request.params as { id: string };
    const updated = await store.setMetadata(id, request.auth!.account.id, metadataUpdate(request.body, 'a conversation'));
    if (!updated) throw unknownConversation(id);
    return wireObject(updated);
  });

  app.delete('/v1/conversations/:id', async (request) => {
    const { id } = request.params as { id: string };
    if (!(await store.delete(id, request.auth!.account.id))) throw unknownConversation(id);
    return { id, object: 'conversation.deleted', deleted: true };
  });

  app.post('/v1/conversations/:id/items', async (request) => {
    const { id } = request.params as { id: string };
    await owned(id, request.auth!.account.id);
    const f = new Fields(bodyObject(request.body));
    onlyFields(f, ['items'], "Items are added as {\"items\": [...]}.");
    if (!f.has('items')) throw missing('items', 'Send {"items": [{"role": "user", "content": "…"}]}.');
    const items = newItems(f.obj.items, 'items');
    if (!items.length) throw invalidRequest('empty_array', "Invalid 'items': expected a non-empty array of message items.", 'items');
    await store.addItems(id, items);
    return { object: 'list', data: items, first_id: items[0]!.id, last_id: items.at(-1)!.id, has_more: false };
  });

  app.get('/v1/conversations/:id/items', async (request) => {
    const { id } = request.params as { id: string };
    await owned(id, request.auth!.account.id);
    const q = request.query as Query;
    const order = orderQuery(q.order, 'desc');
    const after = stringQuery(q.after, 'after');
    const page = await store.page(id, { after, limit: intQuery(q.limit, 'limit', 20, 1, 100), order });
    if (!page) throw invalidValue('after', `no item '${after}' in conversation '${id}'.`);
    return { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.hasMore };
  });

  app.get('/v1/conversations/:id/items/:itemId', async (request) => {
    const { id, itemId } = request.params as { id: string; itemId: string };
    await owned(id, request.auth!.account.id);
    const item = await store.item(id, itemId);
    if (!item) throw notFound('item_not_found', `Item with id '${itemId}' not found in conversation '${id}'.`, 'item_id');
    return item;
  });

  app.delete('/v1/conversations/:id/items/:itemId', async (request) => {
    const { id, itemId } = request.params as { id: string; itemId: string };
    const conversation = await owned(id, request.auth!.account.id);
    if (!(await store.deleteItem(id, itemId))) throw notFound('item_not_found', `Item with id '${itemId}' not found in conversation '${id}'.`, 'item_id');
    return wireObject(conversation);
  });
}
