import { SvcError, isSvcError } from '../errors.js';
import type { Agent, AgentEvent, AgentRequest, Usage } from './types.js';
import { internText } from '../text-memo.js';
import { measureUsage } from './usage.js';

/**
 * One run of an agent, its stream normalised for the wire encoders:
 * - exactly one terminal event (`done` or `failed`), nothing after it;
 * - a thrown error becomes `failed` (unexpected errors as `internal`, message kept out of the wire);
 * - a `usage` event before `done`, counted with the tokenizer when the agent reported none;
 * - `stop()` ends a pending `next()` at once (client gone, shutdown deadline), whatever the agent is doing.
 *
 * A hand-written iterator rather than an async generator wrapped in a pump: every event used to
 * cross three layers of promises, now it crosses one.
 */
export class AgentRun {
  #iterator: AsyncIterator<AgentEvent> | null = null;
  readonly #text: string[] = [];
  #usage: Usage | null = null;
  /** `done`, held back while the usage event before it is delivered. */
  #held: AgentEvent | null = null;
  #ended = false;
  #stopped = false;
  #pending: ((event: AgentEvent | null) => void) | null = null;

  constructor(
    private readonly agent: Agent,
    private readonly request: AgentRequest,
    private readonly onInternalError?: (err: unknown) => void,
  ) {}

  get stopped(): boolean {
    return this.#stopped;
  }

  /** The next event, or null once the run is over or stopped. */
  next(): Promise<AgentEvent | null> {
    if (this.#held) {
      const event = this.#held;
      this.#held = null;
      return Promise.resolve(event);
    }
    if (this.#ended || this.#stopped) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#pending = resolve;
      this.#pull();
    });
  }

  /**
   * Hands every event to `onEvent` as it comes, then resolves once the run is over or stopped.
   * For callers that need no backpressure (a non-streamed answer): no promise per event.
   */
  each(onEvent: (event: AgentEvent) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const handle = (first: AgentEvent | null): void => {
        for (let event = first; event; ) {
          try {
            onEvent(event);
          } catch (err) {
            this.stop();
            return reject(err);
          }
          event = this.#held;
          this.#held = null;
        }
        if (this.#ended || this.#stopped) return resolve();
        this.#pending = handle;
        this.#pull();
      };
      const held = this.#held;
      this.#held = null;
      handle(held);
    });
  }

  /** Ends the run: a pending `next()` resolves to null and the agent is told to finish. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#deliver(null);
    this.#close();
  }

  #pull(): void {
    let step: Promise<IteratorResult<AgentEvent>>;
    try {
      this.#iterator ??= this.agent.run(this.request)[Symbol.asyncIterator]();
      step = this.#iterator.next();
    } catch (err) {
      this.#onError(err);
      return;
    }
    step.then(this.#onResult, this.#onError);
  }

  readonly #onResult = (result: IteratorResult<AgentEvent>): void => {
    if (this.#stopped) return;
    if (result.done) {
      this.#end({ type: 'failed', error: new SvcError('internal', { code: 'server_error', message: `The agent ${this.agent.id} ended without an answer.` }) });
      return;
    }
    const event = result.value;
    switch (event.type) {
      case 'text':
        if (!event.delta) return this.#pull();
        this.#text.push(event.delta);
        return this.#deliver(event);
      case 'answer':
        if (!event.answer.text && !event.answer.citations.length) return this.#pull();
        if (event.answer.text) this.#text.push(event.answer.text);
        return this.#deliver(event);
      case 'usage':
        this.#usage = event.usage;
        return this.#pull();
      case 'done':
        this.#held = event;
        return this.#end({ type: 'usage', usage: this.#usage ?? measureUsage(this.request.messages, this.request.instructions, internText(this.#text)) });
      case 'failed':
        return this.#end(event);
      default:
        return this.#deliver(event);
    }
  };

  readonly #onError = (err: unknown): void => {
    if (this.#stopped || this.#ended) return;
    if (isSvcError(err)) return this.#end({ type: 'failed', error: err });
    this.onInternalError?.(err);
    this.#end({ type: 'failed', error: new SvcError('internal', { code: 'server_error', message: 'The agent failed unexpectedly. The error was logged with this request id.' }) });
  };

  /** Delivers the last event the agent may produce (the held `done` may still follow) and lets it finish. */
  #end(event: AgentEvent): void {
    this.#ended = true;
    this.#deliver(event);
    this.#close();
  }

  #deliver(event: AgentEvent | null): void {
    const resolve = this.#pending;
    this.#pending = null;
    resolve?.(event);
  }

  #close(): void {
    const iterator = this.#iterator;
    this.#iterator = null;
    if (iterator?.return) void Promise.resolve(iterator.return(undefined)).catch(() => {});
  }
}
