import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AgentRun } from '../agents/runtime.js';
import type { Agent, AgentEvent, AgentRequest, ModelRef, Turn } from '../agents/types.js';
import type { ServerDeps } from './deps.js';

/** The signal of a run that must not stop when its client leaves; shared, so many listeners are expected. */
const NEVER = new AbortController().signal;
setMaxListeners(0, NEVER);

export interface Run {
  /** The agent's next event; null once the run is over or was stopped (client gone, shutdown deadline). */
  next(): Promise<AgentEvent | null>;
  /** Every event to `onEvent` as it comes; settles when the run is over or was stopped (see AgentRun.each). */
  each(onEvent: (event: AgentEvent) => void): Promise<void>;
  /** Whether the client disconnected before the response finished. */
  readonly clientLeft: boolean;
  /** Call once the response is over: stops the agent if it is still going (graceful-shutdown bookkeeping too). */
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
  let left = false;
  // Made on first use: most runs never look at their signal, and an AbortController per request shows in profiles.
  let gone: AbortController | null = null;
  const agentRequest: AgentRequest = {
    model: run.model,
    messages: run.messages,
    instructions: run.instructions,
    caller: { accountId: auth.account.id, plan: auth.account.plan, keyId: auth.keyId },
    requestId: request.id,
    idempotencyKey: run.idempotencyKey ?? null,
    get signal() {
      if (run.detached) return NEVER;
      if (!gone) {
        gone = new AbortController();
        if (left) gone.abort();
      }
      return gone.signal;
    },
  };
  const agentRun = new AgentRun(run.agent, agentRequest, (err) => request.log.error({ err, agent: run.agent.id }, 'agent failed'));
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    left = true;
    gone?.abort();
    if (!run.detached) agentRun.stop();
  });
  const leave = deps.inflight.enter(() => agentRun.stop());
  return {
    next: () => agentRun.next(),
    each: (onEvent) => agentRun.each(onEvent),
    get clientLeft() {
      return left;
    },
    end() {
      agentRun.stop();
      leave();
    },
  };
}
