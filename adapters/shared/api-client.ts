import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { Citation } from './citations.js';
import { IdleBodyError, idleTimeoutFetch } from './idle-fetch.js';
import { nameSeriesLinks } from './kalshi-links.js';
import { describeProblem, type Problem, type ProblemContext } from './problems.js';

/**
 * The adapters' only way into the service: its public /v1 API through the `openai` SDK, so an
 * adapter works against a remote deployment as well as a local one.
 */

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export type Api = 'responses' | 'chat';

/**
 * The most conversation sent with a question, in characters. A thread's turns are all resent
 * with each reply, and reports run to about 15,000 characters: a long-lived thread would
 * outgrow the service's 1 MiB request body (and its 1,048,576-character conversation limit),
 * and from then on every reply in it would fail. This stays well under both in any encoding.
 */
export const MAX_CONVERSATION_CHARACTERS = 300_000;

/**
 * The most recent turns that fit in `max` characters, oldest first, starting with a person's
 * turn; the last turn (the question) always goes, even alone over the limit (the service then
 * says what is wrong).
 */
export function recentTurns(turns: readonly Turn[], max = MAX_CONVERSATION_CHARACTERS): Turn[] {
  if (!turns.length) return [];
  let used = turns.at(-1)!.content.length;
  let from = turns.length - 1;
  while (from > 0 && used + turns[from - 1]!.content.length <= max) used += turns[--from]!.content.length;
  while (from < turns.length - 1 && turns[from]!.role === 'assistant') from++;
  return turns.slice(from);
}

/**
 * The turns as sent: the most recent (recentTurns), people's Kalshi series links written as the
 * series they name (nameSeriesLinks), since the service refuses a series page's address but
 * answers about the series named by its ticker.
 */
export function turnsToSend(turns: readonly Turn[]): Turn[] {
  return recentTurns(turns).map((t) => (t.role === 'user' ? { role: t.role, content: nameSeriesLinks(t.content) } : { role: t.role, content: t.content }));
}

export interface AnswerRequest {
  model: string;
  /** Oldest first; the last one is the person's question (or, for reports, the event link). */
  messages: Turn[];
  /** The person's own linked key; the workspace key when absent. */
  apiKey?: string;
  /** Derived from the platform's ids, so a retried delivery is never answered (or charged) twice. */
  idempotencyKey?: string;
  /** Aborting ends the answer with a `stopped` failure (the adapter is shutting down). */
  signal?: AbortSignal;
}

export type AnswerEvent =
  | { type: 'text'; delta: string }
  | { type: 'done'; citations: Citation[] }
  /** `interrupted`: some text had arrived before the failure; it stays on screen. */
  | { type: 'failed'; problem: Problem; interrupted: boolean };

export interface AccountSummary {
  id: string;
  email: string;
  plan: string;
  credits: number;
}

export interface ResearchClientOptions {
  /** The service's base URL, without /v1 (`http://127.0.0.1:8080`). */
  baseUrl: string;
  apiKey: string;
  /** Time allowed until the answer starts streaming (a new report can take minutes). */
  timeoutMs?: number;
  /** Time allowed between two pieces of a streaming answer; the service's keep-alives count. */
  idleTimeoutMs?: number;
  /** Which endpoint answers: POST /v1/responses (default) or /v1/chat/completions. */
  api?: Api;
  /** How people link their own key on this platform, for error messages. */
  linkHint?: string;
  /** What shares the bot's account here, for error messages: a Slack workspace (default), a Discord server. */
  shared?: 'workspace' | 'server';
  maxRetries?: number;
}

interface RawCitation {
  order?: unknown;
  name?: unknown;
  title?: unknown;
  url?: unknown;
  url_citation?: { url?: unknown; title?: unknown };
}

/** Our citations ride in OpenAI's annotation shapes plus `{order, name, url}`; either form is read. */
export function citationsFrom(raw: unknown): Citation[] {
  if (!Array.isArray(raw)) return [];
  const out: Citation[] = [];
  raw.forEach((item: RawCitation, i) => {
    const url = typeof item.url === 'string' ? item.url : typeof item.url_citation?.url === 'string' ? item.url_citation.url : null;
    if (!url) return;
    const name = typeof item.name === 'string' ? item.name : typeof item.title === 'string' ? item.title : typeof item.url_citation?.title === 'string' ? item.url_citation.title : url;
    const order = typeof item.order === 'number' && Number.isInteger(item.order) ? item.order : i + 1;
    out.push({ order, name, url });
  });
  return out;
}

/** Four of the service's 15-second keep-alives missed in a row. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export class ResearchClient {
  readonly #clients = new Map<string, OpenAI>();
  readonly #options: Required<ResearchClientOptions>;

  constructor(options: ResearchClientOptions) {
    this.#options = { timeoutMs: 15 * 60_000, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, api: 'responses', linkHint: '/svc link <api key>', shared: 'workspace', maxRetries: 2, ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
  }

  #client(apiKey: string): OpenAI {
    let client = this.#clients.get(apiKey);
    if (!client) {
      client = new OpenAI({
        apiKey,
        baseURL: `${this.#options.baseUrl}/v1`,
        timeout: this.#options.timeoutMs,
        maxRetries: this.#options.maxRetries,
        fetch: idleTimeoutFetch(this.#options.idleTimeoutMs),
      });
      if (this.#clients.size > 500) this.#clients.clear();
      this.#clients.set(apiKey, client);
    }
    return client;
  }

  /**
   * Streams one answer: text deltas, then `done` with the citations, or `failed` with a
   * Problem to show. Never throws: every failure becomes a `failed` event.
   */
  async *answer(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    // openai-node adds an abort listener to the signal of every request and never removes it: the
    // bots' one shutdown signal would collect one per answer (and keep each request alive) for the
    // life of the process. Each answer gets its own signal, unlinked from shutdown when it ends.
    const shutdown = request.signal;
    if (!shutdown) return yield* this.#answer(request);
    const own = new AbortController();
    const stop = () => own.abort(shutdown.reason);
    if (shutdown.aborted) stop();
    else shutdown.addEventListener('abort', stop, { once: true });
    try {
      return yield* this.#answer({ ...request, signal: own.signal });
    } finally {
      shutdown.removeEventListener('abort', stop);
    }
  }

  async *#answer(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const ctx: ProblemContext = { linkedKey: request.apiKey !== undefined, linkHint: this.#options.linkHint, shared: this.#options.shared };
    let receivedText = false;
    try {
      const source = this.#options.api === 'chat' ? this.#chat(request) : this.#responses(request);
      for await (const event of source) {
        if (event.type === 'text') receivedText = true;
        yield event;
        if (event.type !== 'text') return;
      }
      // The stream ended without its terminal event: stopped by us, or the connection broke.
      yield { type: 'failed', problem: request.signal?.aborted ? stoppedProblem() : interruptedProblem(), interrupted: receivedText };
    } catch (err) {
      if (request.signal?.aborted) {
        yield { type: 'failed', problem: stoppedProblem(), interrupted: receivedText };
        return;
      }
      // A connection that breaks mid-answer is an interruption; one that never opens means the service is unreachable.
      const broken = err instanceof APIConnectionError ? receivedText : !(err instanceof APIError) || (err.status === undefined && !err.code);
      const problem = err instanceof IdleBodyError ? silentProblem(err) : broken ? interruptedProblem() : describeProblem(err, ctx);
      yield { type: 'failed', problem, interrupted: receivedText };
    }
  }

  /** openai-node only sends `idempotencyKey` for clients that declare the header, so it is set here. */
  #requestOptions(request: AnswerRequest) {
    return { signal: request.signal, headers: request.idempotencyKey ? { 'Idempotency-Key': request.idempotencyKey } : undefined };
  }

  async *#responses(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const stream = await this.#client(request.apiKey ?? this.#options.apiKey).responses.create(
      { model: request.model, input: turnsToSend(request.messages), stream: true, store: false },
      this.#requestOptions(request),
    );
    const annotations: unknown[] = [];
    for await (const event of stream) {
      switch (event.type) {
        case 'response.output_text.delta':
          if (event.delta) yield { type: 'text', delta: event.delta };
          break;
        case 'response.output_text.annotation.added':
          annotations.push(event.annotation);
          break;
        case 'response.completed': {
          const response = event.response as typeof event.response & { citations?: unknown };
          const fromParts = response.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((c) => (c.type === 'output_text' ? c.annotations : [])) : []));
          const citations = citationsFrom(response.citations).length ? citationsFrom(response.citations) : citationsFrom(fromParts.length ? fromParts : annotations);
          yield { type: 'done', citations };
          return;
        }
        case 'response.incomplete':
          yield { type: 'done', citations: citationsFrom(annotations) };
          return;
        case 'response.failed': {
          const error = event.response.error;
          throw new APIError(undefined, { code: error?.code ?? 'server_error', message: error?.message ?? 'The answer failed.' }, undefined, undefined);
        }
      }
    }
  }

  async *#chat(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const stream = await this.#client(request.apiKey ?? this.#options.apiKey).chat.completions.create(
      { model: request.model, messages: turnsToSend(request.messages), stream: true },
      this.#requestOptions(request),
    );
    let citations: Citation[] = [];
    let finished = false;
    for await (const chunk of stream) {
      const choice = chunk.choices[0] as (typeof chunk.choices)[number] & { citations?: unknown; delta: { annotations?: unknown } };
      if (!choice) continue;
      if (choice.delta?.content) yield { type: 'text', delta: choice.delta.content };
      const found = citationsFrom(choice.citations).length ? citationsFrom(choice.citations) : citationsFrom(choice.delta?.annotations);
      if (found.length) citations = found;
      if (choice.finish_reason) finished = true;
    }
    if (finished) yield { type: 'done', citations };
  }

  /** The account behind a key (GET /v1/account): checks a key before it is linked. */
  async account(apiKey: string): Promise<AccountSummary> {
    return this.#client(apiKey).get<AccountSummary>('/account');
  }

  /** The Problem for an error from checking a key before it is linked (`account`). */
  linkProblem(err: unknown): Problem {
    return describeProblem(err, { linkedKey: false, linking: true, linkHint: this.#options.linkHint, shared: this.#options.shared });
  }
}

function stoppedProblem(): Problem {
  return { kind: 'stopped', message: 'The bot was restarted before this answer was finished. Please ask again.' };
}

function silentProblem(err: IdleBodyError): Problem {
  return { kind: 'server_error', message: `The research service stopped sending this answer (nothing for ${Math.round(err.idleMs / 1000)} s), so it was given up. Please ask again.` };
}

function interruptedProblem(): Problem {
  return { kind: 'server_error', message: 'The connection to the research service broke before the answer was complete. Please ask again.' };
}
