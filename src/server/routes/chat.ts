import type { FastifyInstance } from 'fastify';
import { runAgent } from '../../agents/runtime.js';
import type { AgentEvent, RunMeta } from '../../agents/types.js';
import { newId } from '../../ids.js';
import { ChatEncoder } from '../../wire/chat.js';
import { CHAT_DONE, chatFrame, commentFrame } from '../../wire/sse.js';
import type { ServerDeps } from '../deps.js';
import { sendError } from '../errors.js';
import { parseChatRequest } from '../requests.js';
import { SseWriter, metaHeaders, pull, shuttingDown } from '../stream.js';

export async function chatRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.post('/v1/chat/completions', async (request, reply) => {
    const auth = request.auth!;
    const req = parseChatRequest(request.body);
    const { agent, ref } = deps.agents.resolve(req.model);
    const encoder = new ChatEncoder({ id: newId('chatcmpl-', 29), model: req.model, created: Math.floor(Date.now() / 1000), includeUsage: req.includeUsage });

    const clientGone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) clientGone.abort();
    });
    const events = runAgent(
      agent,
      {
        model: ref,
        messages: req.messages,
        instructions: req.instructions,
        caller: { accountId: auth.account.id, plan: auth.account.plan, keyId: auth.keyId },
        requestId: request.id,
        idempotencyKey: null,
        signal: clientGone.signal,
      },
      (err) => request.log.error({ err, agent: agent.id }, 'agent failed'),
    );
    const stop = AbortSignal.any([deps.inflight.deadline, clientGone.signal]);
    const leave = deps.inflight.enter();
    try {
      if (!req.stream) {
        const meta: RunMeta = {};
        for (;;) {
          const event = await pull(events, stop);
          if (!event) {
            void events.return(undefined);
            return sendError(reply, shuttingDown());
          }
          if (event.type === 'meta') Object.assign(meta, event.meta);
          encoder.push(event);
          if (event.type === 'failed') return sendError(reply.headers(metaHeaders(meta)), event.error);
          if (event.type === 'done') break;
        }
        return reply.headers(metaHeaders(meta)).header('content-type', 'application/json; charset=utf-8').send(encoder.completion());
      }

      let event: AgentEvent | null = await pull(events, stop);
      if (!event) {
        void events.return(undefined);
        return reply.raw.destroyed ? reply : sendError(reply, shuttingDown());
      }
      if (event.type === 'failed') return sendError(reply, event.error);
      const sse = new SseWriter(reply, deps.config.server.keepAliveIntervalMs);
      sse.open(event.type === 'meta' ? metaHeaders(event.meta) : {});
      try {
        for (const frame of encoder.begin()) await sse.write(chatFrame(frame));
        for (;;) {
          if (event.type === 'progress') await sse.write(commentFrame(event.message));
          for (const frame of encoder.push(event)) await sse.write(chatFrame(frame));
          if (event.type === 'failed') break;
          if (event.type === 'done') {
            await sse.write(CHAT_DONE);
            break;
          }
          const next: AgentEvent | null = await pull(events, stop);
          if (!next) {
            void events.return(undefined);
            if (clientGone.signal.aborted) break;
            event = { type: 'failed', error: shuttingDown() };
            continue;
          }
          event = next;
        }
      } finally {
        sse.end();
      }
      return reply;
    } finally {
      leave();
    }
  });
}
