import type { FastifyInstance, FastifyReply } from 'fastify';
import { runAgent } from '../../agents/runtime.js';
import type { AgentEvent, AgentRequest, RunMeta, Turn } from '../../agents/types.js';
import { SvcError, invalidRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { StoredEvent } from '../../responses/store.js';
import { ResponsesEncoder } from '../../wire/responses.js';
import { commentFrame, responsesFrame } from '../../wire/sse.js';
import type { ServerDeps } from '../deps.js';
import { sendError } from '../errors.js';
import { parseResponsesRequest, type ResponsesRequest } from '../requests.js';
import { SseWriter, metaHeaders, pull, shuttingDown } from '../stream.js';
import { Fields, wrongType } from '../validate.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The turns the agent sees: the stored conversation of `previous_response_id`, then this input. */
async function conversationOf(req: ResponsesRequest, accountId: string, deps: ServerDeps): Promise<Turn[]> {
  const turns: Turn[] = [];
  if (req.previousResponseId) {
    const prev = await deps.responses.get(req.previousResponseId, accountId);
    if (!prev) {
      throw notFound('previous_response_not_found', `Previous response with id '${req.previousResponseId}' not found.`, 'previous_response_id');
    }
    if (prev.status !== 'completed') {
      throw invalidRequest('previous_response_not_completed', `Previous response '${prev.id}' has status '${prev.status}'; only a completed response can be continued.`, 'previous_response_id');
    }
    turns.push(...prev.conversation, { role: 'assistant', content: prev.outputText });
  }
  for (const item of req.items) {
    if ('ref' in item) {
      const text = await deps.responses.messageText(item.ref, accountId);
      if (text === null) throw invalidRequest('item_not_found', `Item with id '${item.ref}' (${item.param}) not found among your stored responses.`, 'input');
      turns.push({ role: 'assistant', content: text });
    } else {
      turns.push({ role: item.role, content: item.content });
    }
  }
  return turns;
}

export async function responsesRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.post('/v1/responses', async (request, reply) => {
    const auth = request.auth!;
    const req = parseResponsesRequest(request.body);
    const { agent, ref } = deps.agents.resolve(req.model);
    const messages = await conversationOf(req, auth.account.id, deps);
    const createdAt = nowSeconds();
    const id = newId('resp_', 32);
    const messageId = newId('msg_', 32);
    const encoder = new ResponsesEncoder({
      id,
      messageId,
      model: req.model,
      createdAt,
      instructions: req.instructions,
      previousResponseId: req.previousResponseId,
      metadata: req.metadata,
      store: req.store,
      temperature: req.temperature,
      topP: req.topP,
      maxOutputTokens: req.maxOutputTokens,
      user: req.user,
    });

    // A stored response keeps running when its client leaves, so it can be fetched or
    // resumed later (GET /v1/responses/{id}?stream=true&starting_after=N).
    const clientGone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) clientGone.abort();
    });
    const agentSignal = req.store ? new AbortController().signal : clientGone.signal;
    const agentRequest: AgentRequest = {
      model: ref,
      messages,
      instructions: req.instructions,
      caller: { accountId: auth.account.id, plan: auth.account.plan, keyId: auth.keyId },
      requestId: request.id,
      idempotencyKey: null,
      signal: agentSignal,
    };
    const events = runAgent(agent, agentRequest, (err) => request.log.error({ err, agent: agent.id }, 'agent failed'));
    const stop = req.store ? deps.inflight.deadline : AbortSignal.any([deps.inflight.deadline, clientGone.signal]);
    const leave = deps.inflight.enter();
    const record = {
      id,
      accountId: auth.account.id,
      model: req.model,
      messageId,
      conversation: messages,
      instructions: req.instructions,
      createdAt: createdAt * 1000,
    };
    try {
      if (req.stream) return await streamResponse(reply, deps, encoder, events, stop, req.store ? record : null);
      return await plainResponse(reply, deps, encoder, events, stop, req.store ? record : null);
    } finally {
      leave();
    }
  });

  app.get('/v1/responses/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = new Fields(request.query as Record<string, unknown>);
    const stream = parseBoolQuery(query.obj.stream, 'stream');
    const stored = await deps.responses.get(id, request.auth!.account.id);
    if (!stored) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    if (!stream) return reply.header('content-type', 'application/json; charset=utf-8').send(stored.body);
    const startingAfter = parseIntQuery(query.obj.starting_after, 'starting_after', -1);
    const sse = new SseWriter(reply, deps.config.server.keepAliveIntervalMs);
    sse.open({});
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const leave = deps.inflight.enter();
    try {
      const stop = AbortSignal.any([gone.signal, deps.inflight.deadline]);
      for await (const event of deps.responses.replay(id, request.auth!.account.id, startingAfter, stop)) await sse.write(responsesFrame(event));
    } finally {
      leave();
      sse.end();
    }
    return reply;
  });

  app.delete('/v1/responses/:id', async (request) => {
    const { id } = request.params as { id: string };
    const stored = await deps.responses.get(id, request.auth!.account.id);
    if (!stored) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    if (stored.status === 'in_progress') {
      throw new SvcError('conflict', { code: 'response_in_progress', message: `Response '${id}' is still in progress; delete it once it has finished.`, param: 'id' });
    }
    await deps.responses.delete(id, request.auth!.account.id);
    return { id, object: 'response.deleted', deleted: true };
  });

  app.get('/v1/responses/:id/input_items', async (request) => {
    const { id } = request.params as { id: string };
    const q = request.query as Record<string, unknown>;
    const stored = await deps.responses.get(id, request.auth!.account.id);
    if (!stored) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    const limit = parseIntQuery(q.limit, 'limit', 20, 1, 100);
    const order = q.order === undefined ? 'desc' : q.order;
    if (order !== 'asc' && order !== 'desc') throw invalidRequest('invalid_value', "Invalid value for 'order': use 'asc' or 'desc'.", 'order');
    let items = stored.conversation.map((t, i) => ({
      id: `${stored.messageId.replace(/^msg_/, 'msg_in_')}_${i}`,
      type: 'message',
      role: t.role,
      status: 'completed',
      content: [t.role === 'assistant' ? { type: 'output_text', text: t.content, annotations: [], logprobs: [] } : { type: 'input_text', text: t.content }],
    }));
    if (order === 'desc') items = items.reverse();
    if (typeof q.after === 'string') {
      const at = items.findIndex((i) => i.id === q.after);
      if (at === -1) throw invalidRequest('invalid_value', `Invalid value for 'after': no input item '${q.after}' in this response.`, 'after');
      items = items.slice(at + 1);
    }
    const page = items.slice(0, limit);
    return { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: items.length > page.length };
  });
}

interface RecordInit {
  id: string;
  accountId: string;
  model: string;
  messageId: string;
  conversation: Turn[];
  instructions: string | null;
  createdAt: number;
}

async function plainResponse(
  reply: FastifyReply,
  deps: ServerDeps,
  encoder: ResponsesEncoder,
  events: AsyncGenerator<AgentEvent>,
  stop: AbortSignal,
  record: RecordInit | null,
) {
  const meta: RunMeta = {};
  const wire: StoredEvent[] = record ? encoder.begin() : [];
  for (;;) {
    const event = await pull(events, stop);
    if (!event) {
      void events.return(undefined);
      return sendError(reply, shuttingDown());
    }
    if (event.type === 'meta') Object.assign(meta, event.meta);
    const out = encoder.push(event, nowSeconds());
    if (record) wire.push(...out);
    if (event.type === 'failed') return sendError(reply.headers(metaHeaders(meta)), event.error);
    if (event.type === 'done') break;
  }
  const body = encoder.response();
  if (record) {
    deps.responses.save({ ...record, status: body.status, outputText: encoder.text, body, events: wire, completedAt: Date.now() });
  }
  return reply.headers(metaHeaders(meta)).header('content-type', 'application/json; charset=utf-8').send(body);
}

async function streamResponse(
  reply: FastifyReply,
  deps: ServerDeps,
  encoder: ResponsesEncoder,
  events: AsyncGenerator<AgentEvent>,
  stop: AbortSignal,
  record: RecordInit | null,
) {
  let event = await pull(events, stop);
  if (!event) {
    void events.return(undefined);
    if (reply.raw.destroyed) return reply;
    return sendError(reply, shuttingDown());
  }
  if (event.type === 'failed') return sendError(reply, event.error);
  const sse = new SseWriter(reply, deps.config.server.keepAliveIntervalMs);
  sse.open(event.type === 'meta' ? metaHeaders(event.meta) : {});
  const begin = encoder.begin();
  const live = record ? deps.responses.begin({ ...record, body: encoder.response() }) : null;
  const send = async (out: StoredEvent[]) => {
    if (!out.length) return;
    live?.append(out);
    for (const e of out) await sse.write(responsesFrame(e));
  };
  try {
    await send(begin);
    for (;;) {
      if (event.type === 'progress') await sse.write(commentFrame(event.message));
      await send(encoder.push(event, nowSeconds()));
      if (event.type === 'done' || event.type === 'failed') break;
      const next: AgentEvent | null = await pull(events, stop);
      if (!next) {
        void events.return(undefined);
        event = { type: 'failed', error: deps.inflight.deadline.aborted ? shuttingDown() : clientLeft() };
        continue;
      }
      event = next;
    }
  } finally {
    if (encoder.status === 'in_progress') await send(encoder.push({ type: 'failed', error: clientLeft() }, nowSeconds()));
    live?.finish(encoder.status, encoder.response(), encoder.text, Date.now());
    sse.end();
  }
  return reply;
}

const clientLeft = () => new SvcError('invalid_request', { code: 'client_disconnected', message: 'The client disconnected before the response finished.' });

function parseBoolQuery(v: unknown, param: string): boolean {
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw wrongType(param, "'true' or 'false'", v);
}

function parseIntQuery(v: unknown, param: string, fallback: number, min = -1, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw invalidRequest('invalid_type', `Invalid type for '${param}': expected an integer.`, param);
  const n = Number(v);
  if (n < min || n > max) throw invalidRequest('invalid_value', `Invalid value for '${param}': must be between ${min} and ${max}.`, param);
  return n;
}
