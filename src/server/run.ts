import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AgentRun } from '../agents/runtime.js';
import { withOutputLimit } from '../agents/output-limit.js';
import { withStopSequences } from '../agents/stop-sequences.js';
import type { Agent, AgentEvent, AgentRequest, Caller, ModelRef, Turn } from '../agents/types.js';
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
  /** Stops the agent; the response may still be being written (a cancelled stream's ending), so it is still in flight. */
  stop(): void;
  /** Call once the response is over: stops the agent if it is still going (graceful-shutdown bookkeeping too). */
  end(): void;
}

interface RunOptions {
  agent: Agent;
  model: ModelRef;
  messages: Turn[];
  instructions: string | null;
  idempotencyKey?: string | null;
  detached: boolean;
  /** The caller's output token limit: the answer is cut there (see agents/output-limit.ts). */
  maxOutputTokens?: number | null;
  /** Chat's `stop`: the answer ends before the first of them (see agents/stop-sequences.ts). */
  stop?: readonly string[] | null;
}

// Classes, not object literals, on purpose: an object literal with a getter is a dictionary-mode
// object in V8 (its accessor is a new closure each time). Measured: through such objects each
// request's whole run state (request, reply, agent run) survived every minor GC and was promoted,
// ~2 MB per scavenge, until the next full GC; that cost about a third of a small response's CPU.
// test/server/run.test.ts checks these objects stay fast and share one shape.

/** What the agent sees of the request; its signal is made on first use (most runs never look). */
class HttpAgentRequest implements AgentRequest {
  readonly model: ModelRef;
  readonly messages: Turn[];
  readonly instructions: string | null;
  readonly caller: Caller;
  readonly requestId: string;
  readonly idempotencyKey: string | null;
  readonly #detached: boolean;
  #gone: AbortController | null = null;
  #left = false;
  #stopped = false;

  constructor(run: RunOptions, caller: Caller, requestId: string) {
    this.#detached = run.detached;
    this.model = run.model;
    this.messages = run.messages;
    this.instructions = run.instructions;
    this.caller = caller;
    this.requestId = requestId;
    this.idempotencyKey = run.idempotencyKey ?? null;
  }

  get signal(): AbortSignal {
    if (this.#detached && !this.#stopped) return NEVER;
    if (!this.#gone) {
      this.#gone = new AbortController();
      if (this.#left || this.#stopped) this.#gone.abort();
    }
    return this.#gone.signal;
  }

  /** The client went away: aborts the signal (now, or when it is first asked for), unless the run is detached from its client. */
  clientLeft(): void {
    this.#left = true;
    if (!this.#detached) this.#gone?.abort();
  }

  /** The run was stopped (a background response cancelled): aborts the signal, detached or not, so nothing is started or paid for after. */
  stopped(): void {
    this.#stopped = true;
    this.#gone?.abort();
  }
}

class HttpRun implements Run {
  readonly #agentRun: AgentRun;
  readonly #request: HttpAgentRequest;
  readonly #leave: () => void;
  readonly #detached: boolean;
  #left = false;

  constructor(deps: ServerDeps, request: FastifyRequest, reply: FastifyReply, run: RunOptions) {
    const auth = request.auth!;
    this.#detached = run.detached;
    this.#request = new HttpAgentRequest(run, { accountId: auth.account.id, plan: auth.account.plan, keyId: auth.keyId }, request.id);
    const ended = run.stop?.length ? withStopSequences(run.agent, run.stop) : run.agent;
    const agent = run.maxOutputTokens ? withOutputLimit(ended, run.maxOutputTokens) : ended;
    const agentRun = new AgentRun(agent, this.#request, (err) => request.log.error({ err, agent: run.agent.id }, 'agent failed'));
    this.#agentRun = agentRun;
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.#clientLeft();
    });
    this.#leave = deps.inflight.enter(() => agentRun.stop());
  }

  #clientLeft(): void {
    this.#left = true;
    this.#request.clientLeft();
    if (!this.#detached) this.#agentRun.stop();
  }

  next(): Promise<AgentEvent | null> {
    return this.#agentRun.next();
  }

  each(onEvent: (event: AgentEvent) => void): Promise<void> {
    return this.#agentRun.each(onEvent);
  }

  get clientLeft(): boolean {
    return this.#left;
  }

  stop(): void {
    this.#request.stopped();
    this.#agentRun.stop();
  }

  end(): void {
    this.#request.stopped();
    this.#agentRun.stop();
    this.#leave();
  }
}

/**
 * Starts an agent for one request. With `detached`, the run keeps going when the client
 * leaves (a stored response can then be fetched or resumed later); otherwise it is stopped.
 */
export function startRun(deps: ServerDeps, request: FastifyRequest, reply: FastifyReply, run: RunOptions): Run {
  return new HttpRun(deps, request, reply, run);
}
