import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { KeptItem, MessageItem } from '../../conversations/store.js';
import { messageItem } from './conversations.js';
import { isInstruction, type AgentEvent, type Citation, type InputTurn, type RunMeta, type Turn } from '../../agents/types.js';
import { SvcError, invalidRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { rebuild } from '../../responses/replay.js';
import type { ResponseRecord, WireEvent } from '../../responses/store.js';
import { transcriptEntry, type TranscriptEntry } from '../../responses/transcript.js';
import { answerTurn, sentItemId } from '../../responses/store.js';
import { placeCitations, responsesAnnotation } from '../../wire/citations.js';
import { ResponsesEncoder } from '../../wire/responses.js';
import { commentFrame, responsesFrame } from '../../wire/sse.js';
import type { ServerDeps } from '../deps.js';
import { notFoundHandler, sendError } from '../errors.js';
import { joinInstructions, parseResponsesRequest, type ResponsesRequest } from '../requests.js';
import { idempotency, unanswered } from '../idempotency.js';
import { startRun, type Run } from '../run.js';
import { STILL_WAITING, SseWriter, chargedInHeaders, metaHeaders, settledWithin, shuttingDown } from '../stream.js';
import { boolQuery, intQuery } from '../validate.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Statuses of a response that ended with its answer: whole, or cut at `max_output_tokens`. */
const ENDED_WITH_ANSWER: ReadonlySet<string> = new Set(['completed', 'incomplete']);
const JSON_TYPE = 'application/json; charset=utf-8';

const clientLeft = () => new SvcError('invalid_request', { code: 'client_disconnected', message: 'The client disconnected before the response finished.' });

/**
 * The turns the agent sees: the stored conversation of `previous_response_id`, then this input.
 * Synchronous when nothing needs looking up (the common case: no promise to wait for).
 */
function conversationOf(req: ResponsesRequest, accountId: string, deps: ServerDeps): InputTurn[] | Promise<InputTurn[]> {
  if (req.previousResponseId || req.conversationId || req.items.some((item) => 'ref' in item)) return storedConversationOf(req, accountId, deps);
  return req.items.map((item) => ({ role: (item as InputTurn).role, content: (item as InputTurn).content }) as InputTurn);
}

/** What the agent is given: the user and assistant turns, and as instructions the `instructions` field then the conversation's system and developer messages. */
function agentView(conversation: InputTurn[], instructionsField: string | null): { messages: Turn[]; instructions: string | null } {
  // Input item ids and an earlier answer's sources are for input_items; the agent gets the words.
  if (conversation.some((t) => t.itemId || t.citations)) conversation = conversation.map((t) => (t.answerRef ? { role: t.role, content: t.content, answerRef: t.answerRef } : { role: t.role, content: t.content }) as InputTurn);
  if (!conversation.some(isInstruction)) return { messages: conversation as Turn[], instructions: instructionsField };
  return {
    messages: conversation.filter((t): t is Turn => !isInstruction(t)),
    instructions: joinInstructions([instructionsField, ...conversation.filter(isInstruction).map((t) => t.content)]),
  };
}

async function storedConversationOf(req: ResponsesRequest, accountId: string, deps: ServerDeps): Promise<InputTurn[]> {
  const turns: InputTurn[] = [];
  if (req.conversationId) {
    const found = await deps.conversations.get(req.conversationId, accountId);
    if (!found) throw notFound('conversation_not_found', `Conversation with id '${req.conversationId}' not found.`, 'conversation');
    for (const kept of await deps.conversations.items(found.id)) turns.push(itemTurn(kept));
  }
  if (req.previousResponseId) {
    const found = await deps.responses.get(req.previousResponseId, accountId);
    if (!found) throw notFound('previous_response_not_found', `Previous response with id '${req.previousResponseId}' not found.`, 'previous_response_id');
    // An answer cut at its token limit is an answer: it can be continued, as OpenAI allows.
    if (found.live || !ENDED_WITH_ANSWER.has(found.stored.status)) {
      throw invalidRequest(
        'previous_response_not_completed',
        `Previous response '${req.previousResponseId}' has not completed; only a completed (or incomplete) response can be continued.`,
        'previous_response_id',
      );
    }
    // Every turn keeps the input item id it was listed under.
    const { stored } = found;
    turns.push(...stored.conversation.map((t, i) => (t.itemId ? t : { ...t, itemId: sentItemId(stored.messageId, i) })), answerTurn(stored));
  }
  for (const item of req.items) {
    if ('ref' in item) {
      // A message of a stored response, else an item of one of the account's conversations.
      const turn = (await deps.responses.messageTurn(item.ref, accountId)) ?? (await deps.conversations.itemOfAccount(item.ref, accountId).then((kept) => kept && itemTurn(kept)));
      if (!turn) throw invalidRequest('item_not_found', `Item with id '${item.ref}' (${item.param}) not found among your stored responses and conversations.`, 'input');
      turns.push(turn);
    } else {
      turns.push({ role: item.role, content: item.content } as InputTurn);
    }
  }
  // The question may be a stored user message, referenced: it must be one, with words.
  const last = req.items.findLast((item) => !('role' in item) || (item.role !== 'system' && item.role !== 'developer'));
  if (last && 'ref' in last) {
    const asked = turns.findLast((t) => !isInstruction(t));
    if (asked?.role !== 'user' || !asked.content.trim()) {
      throw invalidRequest('invalid_value', `The last item of 'input' must be a user message with the question; '${last.ref}' is ${asked?.role === 'user' ? 'an empty user message' : `an ${asked?.role ?? 'unknown'} message`}.`, last.param);
    }
  }
  // No input of its own: the conversation's last message is the question.
  if (!req.items.length) {
    const asked = turns.findLast((t) => !isInstruction(t));
    if (asked?.role !== 'user' || !asked.content.trim()) {
      throw invalidRequest('empty_input', `Conversation '${req.conversationId}' does not end with a user message to answer: send the question in 'input'.`, 'input');
    }
  }
  let characters = 0;
  for (const t of turns) characters += t.content.length;
  // `truncation: "auto"`: the oldest earlier turns are left out until the rest fits (never this request's own input).
  const earlier = turns.length - req.items.length;
  let dropped = 0;
  if (req.echo?.truncation === 'auto') {
    while (characters > MAX_CONVERSATION_CHARACTERS && dropped < earlier - (req.items.length ? 0 : 1)) characters -= turns[dropped++]!.content.length;
  }
  if (characters > MAX_CONVERSATION_CHARACTERS) {
    throw invalidRequest(
      'context_length_exceeded',
      `This conversation is ${characters.toLocaleString('en-US')} characters with its earlier turns, over the ${MAX_CONVERSATION_CHARACTERS.toLocaleString('en-US')} svc accepts (more than any model's context window). Start a new conversation, send fewer earlier turns, or send 'truncation': 'auto' to leave out the oldest.`,
      req.previousResponseId ? 'previous_response_id' : req.conversationId ? 'conversation' : 'input',
    );
  }
  return dropped ? turns.slice(dropped) : turns;
}

/** A conversation item as the turn an agent is given, under the item's id (an earlier answer keeps its sources, and its report reference). */
function itemTurn({ item, answerRef }: KeptItem): InputTurn {
  const content = item.content.map((c) => c.text).join('\n');
  const part = item.content[0];
  const citations = item.role === 'assistant' && part?.type === 'output_text' ? citationsFromAnnotations(part.annotations) : [];
  return { role: item.role, content, itemId: item.id, ...(answerRef && item.role === 'assistant' ? { answerRef } : {}), ...(citations.length ? { citations } : {}) } as InputTurn;
}

/** The sources of an earlier answer, from its annotations (one per marker: each source once). */
function citationsFromAnnotations(annotations: unknown[]): Citation[] {
  const byOrder = new Map<number, Citation>();
  for (const a of annotations as { order?: unknown; name?: unknown; url?: unknown }[]) {
    if (typeof a.order === 'number' && typeof a.url === 'string' && !byOrder.has(a.order)) byOrder.set(a.order, { order: a.order, name: typeof a.name === 'string' ? a.name : a.url, url: a.url });
  }
  return [...byOrder.values()];
}

/** Extends a response's conversation once it has completed (see conversationKeeper). */
type Keep = ((encoder: ResponsesEncoder) => Promise<void>) | null;

/**
 * What a completed response adds to its conversation: the messages it was sent (under the ids
 * input_items lists them by; one referenced by item_reference under its own id, unless the
 * conversation holds it already), then its answer. A failed or cancelled response adds nothing. A
 * database that refuses is logged, as a stored response's write is: the answer still goes out.
 */
function conversationKeeper(deps: ServerDeps, log: FastifyBaseLogger, conversationId: string, record: ResponseRecord, prior: number): Keep {
  return async (encoder) => {
    if (!ENDED_WITH_ANSWER.has(encoder.status)) return;
    const items: KeptItem[] = [];
    record.conversation.forEach((turn, i) => {
      if (i < prior) return;
      const item = messageItem(turn.itemId ?? sentItemId(record.messageId, i), turn.role, [turn.content]);
      const part = item.content[0]!;
      if (part.type === 'output_text' && turn.citations?.length) part.annotations = placeCitations(turn.content, turn.citations).map(responsesAnnotation);
      items.push({ item, ...(turn.answerRef ? { answerRef: turn.answerRef } : {}) });
    });
    const answer = encoder.response().output[0];
    if (answer) items.push({ item: answer as unknown as MessageItem, ...(encoder.answerRef ? { answerRef: encoder.answerRef } : {}) });
    try {
      // Deleted while this ran: nothing to extend.
      if (await deps.conversations.get(conversationId, record.accountId)) await deps.conversations.addItems(conversationId, items);
    } catch (err) {
      log.error({ err, conversation: conversationId }, 'a conversation could not be extended with a completed response');
    }
  };
}

/**
 * The longest conversation an agent is given, in characters (about 260,000 tokens). A request body
 * is bounded, but `previous_response_id` chains are not: each turn carried all before it, so a
 * chain of 16 near-1 MiB requests gave an agent 16 million characters and stored 129 MB.
 */
export const MAX_CONVERSATION_CHARACTERS = 1_048_576;

/**
 * Background responses one account may have running in this process. They hold no connection,
 * so the rate limit alone would let a client start thousands of agent runs at once.
 */
export const MAX_BACKGROUND_PER_ACCOUNT = 16;
/** Per server, shared by the API and the playground, which both register these routes. */
const backgroundRunning = new WeakMap<ServerDeps, Map<string, number>>();

export async function responsesRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  let running = backgroundRunning.get(deps);
  if (!running) backgroundRunning.set(deps, (running = new Map()));
  const perAccount = running;
  // "/v1/responses//input_items" matches with an empty id: that is no URL of the API, as "/v1/responses/" is not.
  app.addHook('preValidation', (request, reply, done) => {
    if ((request.params as { id?: string } | undefined)?.id === '') return void notFoundHandler(request, reply);
    done();
  });
  app.post('/v1/responses', { preHandler: idempotency(deps, 'POST /v1/responses') }, async (request, reply) => {
    const auth = request.auth!;
    const req = deps.agents.parseFor(request.body, parseResponsesRequest);
    const { agent, ref } = deps.agents.resolve(req.model);
    const pending = conversationOf(req, auth.account.id, deps);
    const conversation = Array.isArray(pending) ? pending : await pending;
    const { messages, instructions } = agentView(conversation, req.instructionsField);
    const record: ResponseRecord = {
      id: newId('resp_', 32),
      accountId: auth.account.id,
      model: req.model,
      messageId: newId('msg_', 32),
      conversation,
      instructions,
      createdAt: Date.now(),
      params: {
        id: '',
        messageId: '',
        model: req.model,
        createdAt: nowSeconds(),
        instructions: req.instructionsField,
        previousResponseId: req.previousResponseId,
        metadata: req.metadata,
        store: req.store,
        ...(req.background ? { background: true } : {}),
        temperature: req.temperature,
        topP: req.topP,
        maxOutputTokens: req.maxOutputTokens,
        ...(req.verbosity ? { verbosity: req.verbosity } : {}),
        user: req.user,
        ...(req.echo ? { echo: req.echo } : {}),
        ...(req.conversationId ? { conversationId: req.conversationId } : {}),
      },
    };
    record.params.id = record.id;
    record.params.messageId = record.messageId;
    // The conversation's own items come first; one turn follows for each item of this request.
    const keep = req.conversationId ? conversationKeeper(deps, request.log, req.conversationId, record, conversation.length - req.items.length) : null;
    // Checked and counted with no await between: exact under concurrent requests.
    // Streamed or not: a background response runs on after its client leaves.
    if (req.background && (perAccount.get(auth.account.id) ?? 0) >= MAX_BACKGROUND_PER_ACCOUNT) {
      throw new SvcError('rate_limited', {
        code: 'too_many_background_responses',
        message: `This account already has ${MAX_BACKGROUND_PER_ACCOUNT} background responses running; wait for one to finish (GET /v1/responses/{id}), or send this one without 'background'.`,
        param: 'background',
        retryAfterSeconds: 5,
      });
    }
    // A stored response keeps running when its client leaves, so it can be fetched or
    // resumed later (GET /v1/responses/{id}?stream=true&starting_after=N).
    const run = startRun(deps, request, reply, {
      agent,
      model: ref,
      messages,
      instructions,
      detached: req.store,
      idempotencyKey: request.idempotency?.requestKey,
      maxOutputTokens: req.maxOutputTokens,
    });
    let finished = () => {};
    if (req.background) {
      perAccount.set(auth.account.id, (perAccount.get(auth.account.id) ?? 0) + 1);
      finished = () => {
        const n = (perAccount.get(auth.account.id) ?? 1) - 1;
        if (n > 0) perAccount.set(auth.account.id, n);
        else perAccount.delete(auth.account.id);
      };
    }
    // A background response is answered at once and ends its run itself.
    if (req.background && !req.stream) return inBackground(reply, deps, run, record, finished, keep);
    try {
      return req.stream ? await streamed(reply, deps, run, record, req.store, keep) : await plain(reply, deps, run, record, req.store, keep);
    } finally {
      run.end();
      finished();
    }
  });

  app.get('/v1/responses/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, unknown>;
    const stream = boolQuery(query.stream, 'stream');
    const startingAfter = intQuery(query.starting_after, 'starting_after', -1);
    const accountId = request.auth!.account.id;
    const found = await deps.responses.get(id, accountId);
    if (!found) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    if (!stream) return reply.header('content-type', JSON_TYPE).send(found.live ? found.snapshot() : rebuild(found.stored, { events: false }).response);
    const sse = new SseWriter(reply, deps.config.server.keepAliveIntervalMs);
    sse.open({});
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    const leave = deps.inflight.enter();
    try {
      // At the shutdown deadline a response running here is ended with its error events, which
      // its followers receive too; following one that runs on another replica just stops.
      const events = deps.responses.replay(id, accountId, startingAfter, gone.signal, (stored) => rebuild(stored, { events: true }).events, deps.inflight.deadline);
      for await (const event of events) await sse.write(responsesFrame(event));
    } finally {
      leave();
      await sse.end();
    }
    return reply;
  });

  app.delete('/v1/responses/:id', async (request) => {
    const { id } = request.params as { id: string };
    const found = await deps.responses.get(id, request.auth!.account.id);
    if (!found) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    // Running here or on another replica (whose final write would bring it back).
    const outcome = await deps.responses.delete(id, request.auth!.account.id);
    if (outcome === 'missing') throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    if (outcome === 'busy') {
      const stopping = !found.live && found.stored.status === 'cancelled';
      throw new SvcError('conflict', {
        code: 'response_in_progress',
        message: stopping
          ? `Response '${id}' was cancelled and is still stopping on the server that produces it; delete it in a few seconds.`
          : `Response '${id}' is still in progress; delete it once it has finished.`,
        param: 'id',
        // Stopping takes seconds; a run in progress may take minutes, longer than SDK retries wait.
        ...(stopping ? { retryAfterSeconds: 2 } : { permanent: true }),
      });
    }
    return { id, object: 'response.deleted', deleted: true };
  });

  // Idempotent: cancelling a cancelled response answers it again.
  app.post('/v1/responses/:id/cancel', async (request, reply) => {
    const { id } = request.params as { id: string };
    const accountId = request.auth!.account.id;
    const missing = () => notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    const found = await deps.responses.get(id, accountId);
    if (!found) throw missing();
    if ((found.live ? found.record.params : found.stored.params).background !== true) {
      throw invalidRequest('response_not_background', `Response '${id}' was not created with 'background: true'; only background responses can be cancelled.`, 'id');
    }
    if (found.live || found.stored.status === 'in_progress') await deps.responses.cancel(id, accountId);
    const after = await deps.responses.get(id, accountId);
    if (!after) throw missing();
    const status = after.live ? after.status : after.stored.status;
    if (after.live || status !== 'cancelled') {
      throw new SvcError('conflict', {
        code: 'response_not_cancellable',
        message: `Response '${id}' is ${status === 'in_progress' ? 'still finishing' : `already ${status}`}; only a background response in progress can be cancelled.`,
        param: 'id',
        // A finished response never becomes cancellable: SDKs are told not to retry.
        ...(status === 'in_progress' ? { retryAfterSeconds: 1 } : { permanent: true }),
      });
    }
    return reply.header('content-type', JSON_TYPE).send(rebuild(after.stored, { events: false }).response);
  });

  app.get('/v1/responses/:id/input_items', async (request) => {
    const { id } = request.params as { id: string };
    const q = request.query as Record<string, unknown>;
    const found = await deps.responses.get(id, request.auth!.account.id);
    if (!found) throw notFound('response_not_found', `Response with id '${id}' not found.`, 'id');
    const record = found.live ? found.record : found.stored;
    const limit = intQuery(q.limit, 'limit', 20, 1, 100);
    const order = q.order ?? 'desc';
    if (order !== 'asc' && order !== 'desc') throw invalidRequest('invalid_value', "Invalid value for 'order': use 'asc' or 'desc'.", 'order');
    let items = record.conversation.map((t, i) => ({
      id: t.itemId ?? sentItemId(record.messageId, i),
      type: 'message',
      role: t.role,
      status: 'completed',
      content: [
        t.role === 'assistant'
          ? { type: 'output_text', text: t.content, annotations: placeCitations(t.content, t.citations ?? []).map(responsesAnnotation), logprobs: [] }
          : { type: 'input_text', text: t.content },
      ],
    }));
    if (order === 'desc') items = items.reverse();
    const cursor = (name: 'after' | 'before'): number | null => {
      const value = q[name];
      if (value === undefined) return null;
      if (typeof value !== 'string' || !value) throw invalidRequest('invalid_type', `Invalid type for '${name}': expected one input item id.`, name);
      const at = items.findIndex((i) => i.id === value);
      if (at === -1) throw invalidRequest('invalid_value', `Invalid value for '${name}': no input item '${value}' in this response.`, name);
      return at;
    };
    const after = cursor('after');
    const before = cursor('before');
    // The items strictly between the cursors; with `before`, the page nearest to it.
    const window = items.slice(after === null ? 0 : after + 1, before === null ? items.length : before);
    const page = before === null ? window.slice(0, limit) : window.slice(Math.max(0, window.length - limit));
    return { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: window.length > page.length };
  });
}

/**
 * `background: true`: the response object is returned at once (in progress), the run goes on
 * detached from the request, and the stored response is fetched or followed later (GET, or
 * GET ?stream=true). At the shutdown deadline it ends failed, like a stream.
 */
function inBackground(reply: FastifyReply, deps: ServerDeps, run: Run, record: ResponseRecord, finished: () => void, keep: Keep) {
  const encoder = new ResponsesEncoder(record.params);
  const transcript: TranscriptEntry[] = [];
  const finish = () => live.finish({ status: encoder.status, outputText: encoder.text, transcript, completedAt: Date.now() });
  const live = deps.responses.begin(record, () => encoder.response(), {
    onCancel: () => {
      live.append(cancelled(encoder, transcript));
      finish();
      run.end();
    },
  });
  live.append(encoder.begin());
  const push = async (event: AgentEvent) => {
    const now = nowSeconds();
    const entry = transcriptEntry(event, now);
    if (entry) transcript.push(entry);
    const out = encoder.push(event, now);
    if (event.type === 'done') await keep?.(encoder);
    live.append(out);
  };
  void (async () => {
    try {
      for (;;) {
        const next = await run.next();
        if (encoder.status === 'cancelled') break;
        const event = next ?? { type: 'failed', error: shuttingDown() };
        await push(event);
        if (event.type === 'done' || event.type === 'failed') break;
      }
    } catch (err) {
      reply.log.error({ err }, 'background response failed');
    } finally {
      if (encoder.status === 'in_progress') await push({ type: 'failed', error: shuttingDown() });
      finish();
      run.end();
      finished();
    }
  })();
  return reply.header('content-type', JSON_TYPE).send(encoder.response());
}

/** Ends a response its owner cancelled: the encoder's ending, recorded in the transcript. */
function cancelled(encoder: ResponsesEncoder, transcript: TranscriptEntry[]): WireEvent[] {
  if (encoder.status !== 'in_progress') return [];
  const now = nowSeconds();
  transcript.push(['x', now]);
  return encoder.cancel(now);
}

/** The whole response as one JSON body; errors keep their HTTP status. */
async function plain(reply: FastifyReply, deps: ServerDeps, run: Run, record: ResponseRecord, store: boolean, keep: Keep) {
  const encoder = new ResponsesEncoder(record.params, { emit: false });
  const transcript: TranscriptEntry[] = [];
  const meta: RunMeta = {};
  let failure: SvcError | null = null;
  await run.each((event) => {
    switch (event.type) {
      case 'meta':
        Object.assign(meta, event.meta);
        break;
      case 'failed':
        failure = event.error;
        break;
    }
    // Only the end of a run and stored transcripts need the time.
    const now = store || event.type === 'done' || event.type === 'failed' ? nowSeconds() : 0;
    encoder.push(event, now);
    if (store) {
      const entry = transcriptEntry(event, now);
      if (entry) transcript.push(entry);
    }
  });
  if (failure) return sendError(reply.headers(metaHeaders(meta)), failure);
  // Stopped before its end: the client left, or the server is shutting down.
  if (!ENDED_WITH_ANSWER.has(encoder.status)) return run.clientLeft ? unanswered(reply) : sendError(reply, shuttingDown());
  if (store) deps.responses.save(record, { status: encoder.status, outputText: encoder.text, transcript, completedAt: Date.now() });
  await keep?.(encoder);
  return reply.headers(metaHeaders(meta)).header('content-type', JSON_TYPE).send(encoder.responseBody());
}

/**
 * Server-sent events. The HTTP status is decided by the first event: a run that fails before
 * producing anything gets a real error status; later failures travel as error events. A run
 * silent for a whole keep-alive interval gets its stream opened anyway (its first event's
 * headers and status are then not sent).
 */
async function streamed(reply: FastifyReply, deps: ServerDeps, run: Run, record: ResponseRecord, store: boolean, keep: Keep) {
  const keepAliveMs = deps.config.server.keepAliveIntervalMs;
  const first = run.next();
  let event = await settledWithin(first, keepAliveMs);
  if (event === null) return run.clientLeft ? unanswered(reply) : sendError(reply, shuttingDown());
  if (event !== STILL_WAITING && event.type === 'failed') return sendError(reply, event.error);

  const encoder = new ResponsesEncoder(record.params);
  const transcript: TranscriptEntry[] = [];
  const sse = new SseWriter(reply, keepAliveMs);
  sse.open(event !== STILL_WAITING && event.type === 'meta' ? metaHeaders(event.meta) : {});
  const finishLive = () => live?.finish({ status: encoder.status, outputText: encoder.text, transcript, completedAt: Date.now() });
  // A background stream its owner cancels ends at once for its followers and in the store; its
  // own client is sent the same ending by the loop below, after what it was being sent.
  let cancelFrames: WireEvent[] = [];
  const onCancel = () => {
    cancelFrames = cancelled(encoder, transcript);
    live!.append(cancelFrames);
    finishLive();
    run.stop();
  };
  const live = store ? deps.responses.begin(record, () => encoder.response(), record.params.background ? { onCancel } : {}) : null;
  const send = async (out: WireEvent[]) => {
    if (!out.length) return;
    live?.append(out);
    for (const e of out) await sse.write(responsesFrame(e));
  };
  let failure: SvcError | null = null;
  const push = async (e: AgentEvent) => {
    if (e.type === 'failed') failure = e.error;
    const now = nowSeconds();
    const entry = store ? transcriptEntry(e, now) : null;
    if (entry) transcript.push(entry);
    const out = encoder.push(e, now);
    // The conversation holds this turn before its client reads `response.completed` and asks the next.
    if (e.type === 'done') await keep?.(encoder);
    return send(out);
  };
  const charged = chargedInHeaders(event);
  const stopped = (): AgentEvent => ({ type: 'failed', error: deps.inflight.deadline.aborted ? shuttingDown(charged) : clientLeft() });
  try {
    await send(encoder.begin());
    if (event === STILL_WAITING) event = await first;
    for (;;) {
      if (encoder.status === 'cancelled') {
        for (const e of cancelFrames) await sse.write(responsesFrame(e));
        break;
      }
      event ??= stopped();
      if (event.type === 'progress') await sse.write(commentFrame(event.message));
      await push(event);
      if (event.type === 'done' || event.type === 'failed') break;
      event = await run.next();
    }
  } finally {
    if (encoder.status === 'in_progress') await push({ type: 'failed', error: clientLeft() });
    finishLive();
    // A cancelled stream ends the same way for a retry under its Idempotency-Key: replayed, not run again.
    await sse.end(ENDED_WITH_ANSWER.has(encoder.status) || encoder.status === 'cancelled', failure);
  }
  return reply;
}
