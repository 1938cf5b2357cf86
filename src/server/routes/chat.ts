import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AgentEvent, RunMeta } from '../../agents/types.js';
import { SvcError } from '../../errors.js';
import { newId } from '../../ids.js';
import { ChatEncoder, type ChatCompletion } from '../../wire/chat.js';
import { errorBody } from '../../wire/errors.js';
import { CHAT_DONE, chatFrame, commentFrame } from '../../wire/sse.js';
import type { ServerDeps } from '../deps.js';
import { sendError } from '../errors.js';
import { idempotency, unanswered } from '../idempotency.js';
import { parseChatRequest } from '../requests.js';
import { startRun, type Run } from '../run.js';
import { storedCompletionRoutes } from './stored-chat.js';
import { STILL_WAITING, SseWriter, chargedInHeaders, metaHeaders, settledWithin, shuttingDown } from '../stream.js';

/** Stores a finished completion (`store: true`); null when the request did not ask for it. */
type Keep = ((completion: ChatCompletion) => Promise<SvcError | null>) | null;

export async function chatRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.post('/v1/chat/completions', { preHandler: idempotency(deps, 'POST /v1/chat/completions') }, async (request, reply) => {
    const req = deps.agents.parseFor(request.body, parseChatRequest);
    const { agent, ref } = deps.agents.resolve(req.model);
    const createdAt = Date.now();
    const id = newId('chatcmpl-', 29);
    const encoder = new ChatEncoder({ id, model: req.model, created: Math.floor(createdAt / 1000), includeUsage: req.includeUsage }, { emit: req.stream });
    const accountId = request.auth!.account.id;
    const keep: Keep = req.store
      ? (completion) =>
          deps.chatCompletions.save({ id, accountId, model: req.model, createdAt, completion, messages: req.storedMessages, metadata: req.metadata }).then(
            () => null,
            (err: unknown) => {
              request.log.error({ err }, 'a stored chat completion could not be written');
              return notStored(err);
            },
          )
      : null;
    const run = startRun(deps, request, reply, {
      agent,
      model: ref,
      messages: req.messages,
      instructions: req.instructions,
      detached: false,
      idempotencyKey: request.idempotency?.requestKey,
      maxOutputTokens: req.maxOutputTokens,
      stop: req.stop,
    });
    try {
      return req.stream ? await streamed(reply, deps, run, encoder, keep) : await plain(reply, run, encoder, keep);
    } finally {
      run.end();
    }
  });
  storedCompletionRoutes(app, deps);
}

const notStored = (cause: unknown) =>
  new SvcError(
    'unavailable',
    { code: 'storage_unavailable', message: "The answer was written but could not be stored, as 'store': true asked: the database refused it. Retry shortly, or send 'store': false.", retryAfterSeconds: 1 },
    { cause },
  );

async function plain(reply: FastifyReply, run: Run, encoder: ChatEncoder, keep: Keep) {
  const meta: RunMeta = {};
  let failure: SvcError | null = null;
  let done = false;
  await run.each((event) => {
    if (event.type === 'meta') Object.assign(meta, event.meta);
    encoder.push(event);
    if (event.type === 'failed') failure = event.error;
    if (event.type === 'done') done = true;
  });
  if (failure) return sendError(reply.headers(metaHeaders(meta)), failure);
  // Stopped before its end: the client left, or the server is shutting down.
  if (!done) return run.clientLeft ? unanswered(reply) : sendError(reply, shuttingDown());
  const notKept = keep && (await keep(encoder.completion()));
  if (notKept) return sendError(reply.headers(metaHeaders(meta)), notKept);
  return reply.headers(metaHeaders(meta)).header('content-type', 'application/json; charset=utf-8').send(encoder.completionBody());
}

/** `data:` lines only, `[DONE]` at the end; a failure after the first byte is a `data: {"error": …}` frame. */
async function streamed(reply: FastifyReply, deps: ServerDeps, run: Run, encoder: ChatEncoder, keep: Keep) {
  const keepAliveMs = deps.config.server.keepAliveIntervalMs;
  const first = run.next();
  // A run silent for a whole keep-alive interval gets its stream opened anyway (see responses.ts).
  let event: AgentEvent | null | typeof STILL_WAITING = await settledWithin(first, keepAliveMs);
  if (event === null) return run.clientLeft ? unanswered(reply) : sendError(reply, shuttingDown());
  if (event !== STILL_WAITING && event.type === 'failed') return sendError(reply, event.error);
  const sse = new SseWriter(reply, keepAliveMs);
  sse.open(event !== STILL_WAITING && event.type === 'meta' ? metaHeaders(event.meta) : {});
  const charged = chargedInHeaders(event);
  let completed = false;
  let failure: SvcError | null = null;
  try {
    for (const frame of encoder.begin()) await sse.write(chatFrame(frame));
    if (event === STILL_WAITING) {
      event = await first;
      if (!event) {
        if (run.clientLeft) return reply;
        event = { type: 'failed', error: shuttingDown(charged) };
      }
    }
    for (;;) {
      if (event.type === 'progress') await sse.write(commentFrame(event.message));
      for (const frame of encoder.push(event)) await sse.write(chatFrame(frame));
      if (event.type === 'failed') {
        failure = event.error;
        break;
      }
      if (event.type === 'done') {
        // Stored before [DONE], so a client that reads it can fetch the completion at once.
        const notKept = keep && (await keep(encoder.completion()));
        if (notKept) {
          failure = notKept;
          await sse.write(chatFrame({ error: errorBody(notKept) }));
          break;
        }
        await sse.write(CHAT_DONE);
        completed = true;
        break;
      }
      event = await run.next();
      if (!event) {
        if (run.clientLeft) break;
        event = { type: 'failed', error: shuttingDown(charged) };
      }
    }
  } finally {
    await sse.end(completed, failure);
  }
  return reply;
}
