import type { FastifyInstance } from 'fastify';
import type { StoredChatCompletion } from '../../chat-completions/store.js';
import { notFound } from '../../errors.js';
import type { ServerDeps } from '../deps.js';
import { intQuery, invalidValue, metadataUpdate, orderQuery, stringQuery } from '../validate.js';

type Query = Record<string, unknown>;

/** The object the stored-completion endpoints return: the completion as answered, with its metadata now. */
const wireObject = (stored: StoredChatCompletion) => ({ ...stored.completion, metadata: stored.metadata });

const unknownCompletion = (id: string) =>
  notFound('completion_not_found', `No stored chat completion with id '${id}'. Only completions created with 'store': true are kept (for SVC_RESPONSE_RETENTION_DAYS).`, 'completion_id');

/** `metadata[key]=value` query pairs (how OpenAI's SDKs send a metadata filter); every pair must match. */
function readMetadataFilter(q: Query): Record<string, string> {
  // `metadata=` alone is what an SDK sends for `metadata: null`: no filter.
  if (q.metadata !== undefined && q.metadata !== '') throw invalidValue('metadata', "filter by metadata as 'metadata[key]=value' query parameters, one per pair.");
  // No prototype: a key named __proto__ is a key like any other.
  const pairs: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(q)) {
    const key = /^metadata\[(.*)\]$/s.exec(name)?.[1];
    if (key === undefined) continue;
    if (!key || [...key].length > 64) throw invalidValue(name, 'a metadata key has 1 to 64 characters.');
    // An empty value matches pairs stored with one.
    pairs[key] = value === '' ? '' : stringQuery(value, name)!;
  }
  if (Object.keys(pairs).length > 16) throw invalidValue('metadata', `at most 16 keys are allowed, got ${Object.keys(pairs).length}.`);
  return pairs;
}

/**
 * OpenAI's stored chat completions: list, retrieve, update metadata, delete, and the messages a
 * completion was asked with. Each account sees only its own.
 */
export function storedCompletionRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const store = deps.chatCompletions;

  app.get('/v1/chat/completions', async (request) => {
    const q = request.query as Query;
    const after = stringQuery(q.after, 'after');
    const page = await store.list(request.auth!.account.id, {
      model: stringQuery(q.model, 'model'),
      metadata: readMetadataFilter(q),
      after,
      limit: intQuery(q.limit, 'limit', 20, 1, 100),
      order: orderQuery(q.order, 'asc'),
    });
    if (!page) throw invalidValue('after', `no stored chat completion '${after}' (pass the id of the last completion of the page before).`);
    const data = page.data.map(wireObject);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore };
  });

  app.get('/v1/chat/completions/:id', async (request) => {
    const { id } = request.params as { id: string };
    const stored = await store.get(id, request.auth!.account.id);
    if (!stored) throw unknownCompletion(id);
    return wireObject(stored);
  });

  app.post('/v1/chat/completions/:id', async (request) => {
    const { id } = request.params as { id: string };
    const updated = await store.setMetadata(id, request.auth!.account.id, metadataUpdate(request.body, 'a stored chat completion'));
    if (!updated) throw unknownCompletion(id);
    return wireObject(updated);
  });

  app.delete('/v1/chat/completions/:id', async (request) => {
    const { id } = request.params as { id: string };
    if (!(await store.delete(id, request.auth!.account.id))) throw unknownCompletion(id);
    return { object: 'chat.completion.deleted', id, deleted: true };
  });

  app.get('/v1/chat/completions/:id/messages', async (request) => {
    const { id } = request.params as { id: string };
    const q = request.query as Query;
    const stored = await store.get(id, request.auth!.account.id);
    if (!stored) throw unknownCompletion(id);
    const limit = intQuery(q.limit, 'limit', 20, 1, 100);
    const order = orderQuery(q.order, 'asc');
    let messages = stored.messages.map((m, i) => ({ id: `${id}-${i}`, ...m }));
    if (order === 'desc') messages = messages.reverse();
    const after = stringQuery(q.after, 'after');
    let start = 0;
    if (after !== undefined) {
      start = messages.findIndex((m) => m.id === after) + 1;
      if (start === 0) throw invalidValue('after', `no message '${after}' in chat completion '${id}'.`);
    }
    const data = messages.slice(start, start + limit);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < messages.length };
  });
}
