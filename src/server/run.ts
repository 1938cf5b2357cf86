import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { runAgent } from '../agents/runtime.js';
import type { Agent, ModelRef, Turn } from '../agents/types.js';
import type { ServerDeps } from './deps.js';
import { EventPump } from './stream.js';

/** The signal of a run that must not stop when its client leaves; shared, so many listeners are expected. */
const NEVER = new AbortController().signal;
setMaxListeners(0, NEVER);

export interface Run {
  pump: EventPump;
  /** Fires when the client disconnects before the response finished. */
  clientGone: AbortSignal;
  /** Call once the response is over (graceful-shutdown bookkeeping). */
  end(): void;
}

/**
 * Starts an agent for one request. With `detached`, the run keeps going when the client
 * leaves (a stored response can then be fetched or resumed later); otherwise it is stopped.
 */
export function startRun(
  deps: ServerDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  run: { agent: Agent; model: ModelRef; messages: Turn[]; instructions: string | null; idempotencyKey?: string | null; detached: boolean },
): Run {
  const auth = request.auth!;
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  const events = runAgent(
    run.agent,
    {
      model: run.model,
      messages: run.messages,
      instructions: run.instructions,
      caller: { accountId: auth.account.id, plan: auth.account.plan, keyId: auth.keyId },
      requestId: request.id,
      idempotencyKey: run.idempotencyKey ?? null,
      signal: run.detached ? NEVER : gone.signal,
    },
    (err) => request.log.error({ err, agent: run.agent.id }, 'agent failed'),
  );
  const pump = new EventPump(events, run.detached ? [deps.inflight.deadline] : [deps.inflight.deadline, gone.signal]);
  const leave = deps.inflight.enter();
  return {
    pump,
    clientGone: gone.signal,
    end() {
      pump.close();
      leave();
    },
  };
}
