import { once, setMaxListeners } from 'node:events';
import type { FastifyReply } from 'fastify';
import type { AgentEvent, RunMeta } from '../agents/types.js';
import { SvcError } from '../errors.js';
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
      'cache-control': 'no-cache',
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
    if (!this.#raw.write(frame)) {
      await Promise.race([once(this.#raw, 'drain'), once(this.#raw, 'close')]);
    }
  }

  /** Ends the stream; `succeeded` says whether it carried a complete answer (idempotent replays keep only those). */
  async end(succeeded = false): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#ended) return;
    this.#ended = true;
    await this.#reply.request.idempotency?.streamEnded(succeeded);
    if (!this.gone) this.#raw.end();
  }
}

export const shuttingDown = () =>
  new SvcError('unavailable', { code: 'server_shutting_down', message: 'The server is shutting down and ended this request; retry it.', retryAfterSeconds: 1 });

/**
 * Pulls agent events until the run ends or one of the stop signals fires (client gone,
 * shutdown deadline). Listens to the signals once per request, not once per event.
 */
export class EventPump {
  #stopped = false;
  #pending: ((value: AgentEvent | null) => void) | null = null;
  readonly #signals: AbortSignal[];
  readonly #onStop = () => {
    this.#stopped = true;
    this.#pending?.(null);
    this.#pending = null;
  };

  constructor(
    private readonly events: AsyncGenerator<AgentEvent>,
    signals: AbortSignal[],
  ) {
    this.#signals = signals;
    for (const s of signals) {
      if (s.aborted) this.#stopped = true;
      else s.addEventListener('abort', this.#onStop, { once: true });
    }
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** The next event, or null once stopped (the run is then told to finish). */
  next(): Promise<AgentEvent | null> {
    if (this.#stopped) {
      this.close();
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      this.#pending = resolve;
      this.events.next().then(
        (r) => {
          this.#pending = null;
          resolve(r.done ? null : r.value);
        },
        (err) => {
          this.#pending = null;
          reject(err);
        },
      );
    });
  }

  close(): void {
    for (const s of this.#signals) s.removeEventListener('abort', this.#onStop);
    void this.events.return(undefined).catch(() => {});
  }
}

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
 * Requests in flight, for graceful shutdown: `drain` waits for them up to a deadline,
 * then fires `deadline` so streams still running end with a clear error.
 */
export class InFlight {
  #count = 0;
  #idle: (() => void) | null = null;
  readonly #deadline = new AbortController();

  constructor() {
    // Every request in flight listens to the deadline: many listeners are expected, not a leak.
    setMaxListeners(0, this.#deadline.signal);
  }

  get deadline(): AbortSignal {
    return this.#deadline.signal;
  }

  get count(): number {
    return this.#count;
  }

  enter(): () => void {
    this.#count++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
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
      // Give the ended streams a moment to write their error frames.
      await Promise.race([new Promise<void>((resolve) => (this.#idle = resolve)), new Promise((r) => setTimeout(r, 2000).unref())]);
    }
  }
}
