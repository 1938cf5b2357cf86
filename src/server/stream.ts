import { setMaxListeners } from 'node:events';
import type { FastifyReply } from 'fastify';
import type { AgentEvent, RunMeta } from '../agents/types.js';
import { SvcError } from '../errors.js';
import { statusOf } from '../wire/errors.js';
import { commentFrame } from '../wire/sse.js';

/**
 * One server-sent-event response. Takes the socket over from fastify, writes frames with
 * backpressure, and sends a comment keep-alive whenever nothing was written for half the
 * interval (so the longest silence is one interval). Writes after the client left are dropped.
 */
export class SseWriter {
  readonly #reply: FastifyReply;
  #lastWrite = Date.now();
  #timer: NodeJS.Timeout | null = null;
  #ended = false;

  constructor(reply: FastifyReply, private readonly keepAliveMs: number) {
    this.#reply = reply;
  }

  get #raw() {
    return this.#reply.raw;
  }

  get gone(): boolean {
    return this.#raw.destroyed || this.#raw.writableEnded;
  }

  open(headers: Record<string, string>): void {
    this.#reply.hijack();
    const inherited = this.#reply.getHeaders() as Record<string, string>;
    const all = {
      ...inherited,
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // (A scope that must never be cached, the playground's, keeps its no-store.)
      'cache-control': inherited['cache-control'] === 'no-store' ? 'no-store' : 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    this.#reply.request.idempotency?.streamOpened(all);
    this.#raw.writeHead(200, all);
    this.#raw.flushHeaders();
    const half = Math.max(50, Math.floor(this.keepAliveMs / 2));
    this.#timer = setInterval(() => {
      if (Date.now() - this.#lastWrite >= half) void this.write(commentFrame('keep-alive'));
    }, half);
    this.#timer.unref();
  }

  async write(frame: string): Promise<void> {
    if (this.#ended) return;
    // Recorded even when the client has left: a detached run's result is still replayable.
    this.#reply.request.idempotency?.frame(frame);
    if (this.gone) return;
    this.#lastWrite = Date.now();
    // Frames written in one turn of the event loop (a stored answer's, or an agent's burst) go out
    // in one write to the socket, not one system call each; uncorked before anything waits.
    if (!this.#corked) {
      this.#corked = true;
      this.#raw.cork();
      process.nextTick(this.#uncork);
    }
    if (!this.#raw.write(frame)) await drainedOrClosed(this.#raw);
  }

  #corked = false;
  readonly #uncork = () => {
    this.#corked = false;
    this.#raw.uncork();
  };

  /**
   * Ends the stream; `succeeded` says whether it carried a complete answer (idempotent replays
   * keep only those), `failure` the error it ended with otherwise.
   */
  async end(succeeded = false, failure: SvcError | null = null): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#ended) return;
    this.#ended = true;
    await this.#reply.request.idempotency?.streamEnded(succeeded, failure && !this.gone ? statusOf(failure) : null);
    if (!this.gone) this.#raw.end();
  }
}

/** What `settledWithin` gives when the promise had not settled in time. */
export const STILL_WAITING: unique symbol = Symbol('still waiting');

/**
 * The promise's value, or STILL_WAITING after `ms`. A stream waits this long for its run's first
 * event (whose outcome decides the HTTP status) before opening anyway, so that no client or proxy
 * sees a silence longer than one keep-alive interval while, say, an exchange is being retried.
 */
export function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | typeof STILL_WAITING> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof STILL_WAITING>((resolve) => {
    timer = setTimeout(resolve, ms, STILL_WAITING);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A request the shutdown deadline ended. `heldCredits`: what its stream's headers said it was
 * charged, which the generation it started gives back as it stops (or keeps, finished and stored).
 */
export const shuttingDown = (heldCredits = 0) =>
  new SvcError('unavailable', {
    code: 'server_shutting_down',
    message: `The server is shutting down and ended this request; retry it.${heldCredits ? ` The ${heldCredits} credits held for the report are given back, unless it was finished as the server stopped: it is then stored, and the retry receives it free.` : ''}`,
    retryAfterSeconds: 1,
  });

/** The credits a stream's headers said were charged (its first event's meta). */
export const chargedInHeaders = (first: unknown): number =>
  typeof first === 'object' && first !== null && (first as AgentEvent).type === 'meta' ? ((first as Extract<AgentEvent, { type: 'meta' }>).meta.credits?.charged ?? 0) : 0;

/** What a run decided, as response headers. */
export function metaHeaders(meta: RunMeta): Record<string, string> {
  const h: Record<string, string> = {};
  if (meta.reportCache) h['x-report-cache'] = meta.reportCache;
  if (meta.reportGeneratedAt) h['x-report-generated-at'] = meta.reportGeneratedAt;
  if (meta.credits) {
    h['x-credits-charged'] = String(meta.credits.charged);
    h['x-credits-remaining'] = String(meta.credits.remaining);
  }
  return h;
}

/**
 * Waits until a response can take more (drain) or is gone (close), then removes both listeners:
 * racing two `once` promises left the loser's listeners on the response, one more per write that
 * had to wait (697 on a long stream to a slow reader).
 */
export function drainedOrClosed(raw: NodeJS.WritableStream & NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

/**
 * Requests in flight, for graceful shutdown: `drain` waits for them up to a deadline,
 * then fires `deadline` so streams still running end with a clear error.
 */
export class InFlight {
  #count = 0;
  #idle: (() => void) | null = null;
  readonly #deadline = new AbortController();
  /** What each request in flight wants done at the deadline (a Set: cheaper than a listener per request). */
  readonly #onDeadline = new Set<() => void>();

  constructor() {
    // Long replays listen to the deadline: many listeners are expected, not a leak.
    setMaxListeners(0, this.#deadline.signal);
  }

  get deadline(): AbortSignal {
    return this.#deadline.signal;
  }

  get count(): number {
    return this.#count;
  }

  /** Counts a request in; `onDeadline` runs if it is still in flight when the grace period ends. */
  enter(onDeadline?: () => void): () => void {
    this.#count++;
    if (onDeadline) {
      if (this.#deadline.signal.aborted) queueMicrotask(onDeadline);
      else this.#onDeadline.add(onDeadline);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (onDeadline) this.#onDeadline.delete(onDeadline);
      this.#count--;
      if (this.#count === 0) this.#idle?.();
    };
  }

  async drain(graceMs: number): Promise<void> {
    if (this.#count > 0) {
      const idle = new Promise<void>((resolve) => (this.#idle = resolve));
      const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([idle, timer]);
    }
    if (this.#count > 0) {
      this.#deadline.abort();
      for (const stop of [...this.#onDeadline]) stop();
      this.#onDeadline.clear();
      // Give the ended streams a moment to write their error frames.
      await Promise.race([new Promise<void>((resolve) => (this.#idle = resolve)), new Promise((r) => setTimeout(r, 2000).unref())]);
    }
  }
}
