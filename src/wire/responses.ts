import type { AgentEvent, Answer, Citation, Usage } from '../agents/types.js';
import { SvcError } from '../errors.js';
import { answerChunks } from './answer.js';
import { answerCitations, bareCitation, placeCitations, responsesAnnotation } from './citations.js';
import { errorBody } from './errors.js';
import { responseBody, responseJson } from './response-json.js';
import { internText } from '../text-memo.js';

/** What the Responses object echoes back from the request, plus the ids chosen for it. */
export interface ResponseParams {
  id: string;
  messageId: string;
  model: string;
  createdAt: number;
  instructions: string | null;
  previousResponseId: string | null;
  metadata: Record<string, string>;
  store: boolean;
  /** Answered at once and run on (`background: true`); absent in records from before it existed. */
  background?: boolean;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  /** `text.verbosity` as sent; absent in records from before it was echoed. */
  verbosity?: 'low' | 'medium' | 'high' | null;
  user: string | null;
  /** Tool and routing fields as sent, echoed as OpenAI does (the agents call no tools); absent when none was. */
  echo?: RequestEcho;
  /** The conversation the response belongs to; absent when none. */
  conversationId?: string;
}

/** Request fields the Response object repeats though the agents do not act on them. */
export interface RequestEcho {
  tools?: unknown[];
  toolChoice?: string | Record<string, unknown>;
  parallelToolCalls?: boolean;
  truncation?: 'auto' | 'disabled';
  reasoning?: { effort: string | null; summary: string | null };
  promptCacheKey?: string;
  safetyIdentifier?: string;
  topLogprobs?: number;
  maxToolCalls?: number;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed' | 'cancelled';

export type ResponsesEvent = { type: string; sequence_number: number } & Record<string, unknown>;

const NONE: ResponsesEvent[] = [];
Object.freeze(NONE);

type Annotation = ReturnType<typeof responsesAnnotation>;

interface OutputText {
  type: 'output_text';
  text: string;
  annotations: Annotation[];
  logprobs: [];
}

interface MessageItem {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: OutputText[];
}

export function usageObject(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

function cancelledError(id: string): SvcError {
  return new SvcError('conflict', { code: 'response_cancelled', message: `Response '${id}' was cancelled (POST /v1/responses/${id}/cancel) before it finished.` });
}

/**
 * Turns agent events into Responses API stream events and the final Response object.
 * Pure: no I/O, no clocks (the completion time is passed in), so it is unit-tested directly.
 */
export class ResponsesEncoder {
  readonly #p: ResponseParams;
  readonly #emit: boolean;
  #seq = 0;
  #opened = false;
  readonly #deltas: string[] = [];
  readonly #citations: Citation[] = [];
  #usage: Usage | null = null;
  #status: ResponseStatus = 'in_progress';
  #output: MessageItem[] = [];
  #error: { code: string; message: string } | null = null;
  #incomplete: { reason: 'max_output_tokens' } | null = null;
  #completedAt: number | null = null;
  #citationList: Citation[] | null = null;
  /** The whole answer event the text and citations came from, when nothing else contributed (see answerCitations). */
  #sole: Answer | null = null;

  /** With `emit: false` only the final object is wanted: no stream events are built. */
  constructor(params: ResponseParams, options: { emit?: boolean } = {}) {
    this.#p = params;
    this.#emit = options.emit ?? true;
  }

  get status(): ResponseStatus {
    return this.#status;
  }

  /** `response.created` then `response.in_progress`. */
  begin(): ResponsesEvent[] {
    const snapshot = this.response();
    return [this.#event('response.created', { response: snapshot }), this.#event('response.in_progress', { response: snapshot })];
  }

  /** The wire events for one agent event; none once the response has ended (completed, failed or cancelled). */
  push(event: AgentEvent, now: number): ResponsesEvent[] {
    if (this.#status !== 'in_progress') return NONE;
    switch (event.type) {
      case 'text': {
        this.#sole = null;
        this.#deltas.push(event.delta);
        if (!this.#emit) return NONE;
        const out = this.#opened ? [] : this.#open();
        out.push(this.#event('response.output_text.delta', { ...this.#at(), delta: event.delta, logprobs: [] }));
        return out;
      }
      case 'citation':
        this.#sole = null;
        this.#citations.push(event.citation);
        return NONE;
      case 'answer': {
        const { answer } = event;
        this.#sole = this.#deltas.length || this.#citations.length ? null : answer;
        if (answer.text) this.#deltas.push(answer.text);
        this.#citations.push(...answer.citations);
        if (!this.#emit || !answer.text) return NONE;
        const out = this.#opened ? [] : this.#open();
        for (const delta of answerChunks(answer)) out.push(this.#event('response.output_text.delta', { ...this.#at(), delta, logprobs: [] }));
        return out;
      }
      case 'usage':
        this.#usage = event.usage;
        return NONE;
      case 'done':
        return this.#complete(now, event.incomplete ?? null);
      case 'failed': {
        const events = this.#fail(event.error, now);
        return this.#emit ? events : NONE;
      }
      default:
        return NONE;
    }
  }

  /** The Response object as it stands: the non-stream body once the run has ended. */
  response() {
    const p = this.#p;
    const echo = p.echo;
    return {
      id: p.id,
      object: 'response' as const,
      created_at: p.createdAt,
      status: this.#status,
      background: p.background === true,
      error: this.#error,
      incomplete_details: this.#incomplete,
      instructions: p.instructions,
      max_output_tokens: p.maxOutputTokens,
      max_tool_calls: echo?.maxToolCalls ?? null,
      model: p.model,
      output: this.#output,
      parallel_tool_calls: echo?.parallelToolCalls ?? true,
      previous_response_id: p.previousResponseId,
      prompt_cache_key: echo?.promptCacheKey ?? null,
      reasoning: echo?.reasoning ?? null,
      safety_identifier: echo?.safetyIdentifier ?? null,
      service_tier: 'default',
      store: p.store,
      temperature: p.temperature ?? 1,
      text: { format: { type: 'text' }, verbosity: p.verbosity ?? 'medium' },
      tool_choice: echo?.toolChoice ?? 'auto',
      tools: echo?.tools ?? [],
      top_logprobs: echo?.topLogprobs ?? 0,
      top_p: p.topP ?? 1,
      truncation: echo?.truncation ?? 'disabled',
      usage: this.#status === 'in_progress' ? null : usageObject(this.#usage ?? { inputTokens: 0, outputTokens: 0 }),
      user: p.user,
      metadata: p.metadata,
      completed_at: this.#completedAt,
      presence_penalty: 0,
      frequency_penalty: 0,
      ...(p.conversationId ? { conversation: { id: p.conversationId } } : {}),
      ...(this.#citationList ? { citations: this.#citationList } : {}),
    };
  }

  /** The kept answer (`report:<id>`) the whole output is, when it is one (see Answer.textRef). */
  get answerRef(): string | undefined {
    return this.#sole?.textRef;
  }

  get text(): string {
    if (this.#deltas.length > 1) this.#deltas.splice(0, this.#deltas.length, internText(this.#deltas));
    return this.#deltas[0] ?? '';
  }

  /** `JSON.stringify(this.response())`, written from the known shape (see wire/response-json.ts). */
  responseJson(): string {
    return responseJson(this.response());
  }

  /** `responseJson()` as UTF-8 bytes, a long answer's bytes reused (see wire/response-json.ts). */
  responseBody(): Buffer {
    return responseBody(this.response());
  }

  #event(type: string, fields: Record<string, unknown>): ResponsesEvent {
    return { type, sequence_number: this.#seq++, ...fields };
  }

  #at() {
    return { item_id: this.#p.messageId, output_index: 0, content_index: 0 };
  }

  #open(): ResponsesEvent[] {
    if (this.#opened) return [];
    this.#opened = true;
    return [
      this.#event('response.output_item.added', {
        output_index: 0,
        item: { id: this.#p.messageId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      }),
      this.#event('response.content_part.added', { ...this.#at(), part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }),
    ];
  }

  #item(status: MessageItem['status'], text: string, annotations: Annotation[]): MessageItem {
    return { id: this.#p.messageId, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text, annotations, logprobs: [] }] };
  }

  /** Ends the response `completed`, or `incomplete` when the answer was cut at `max_output_tokens`. */
  #complete(now: number, incomplete: 'max_output_tokens' | null): ResponsesEvent[] {
    const events = this.#emit ? this.#open() : [];
    const text = this.text;
    let annotations: Annotation[];
    if (this.#sole) {
      ({ responses: annotations, bare: this.#citationList } = answerCitations(this.#sole));
    } else {
      const placed = placeCitations(text, this.#citations);
      annotations = placed.map(responsesAnnotation);
      this.#citationList = placed.map(bareCitation);
    }
    const item = this.#item(incomplete ? 'incomplete' : 'completed', text, annotations);
    this.#status = incomplete ? 'incomplete' : 'completed';
    if (incomplete) this.#incomplete = { reason: incomplete };
    this.#output = [item];
    this.#completedAt = now;
    if (!this.#emit) return events;
    annotations.forEach((annotation, i) =>
      events.push(this.#event('response.output_text.annotation.added', { ...this.#at(), annotation_index: i, annotation })),
    );
    events.push(this.#event('response.output_text.done', { ...this.#at(), text, logprobs: [] }));
    events.push(this.#event('response.content_part.done', { ...this.#at(), part: item.content[0] }));
    events.push(this.#event('response.output_item.done', { output_index: 0, item }));
    events.push(this.#event(incomplete ? 'response.incomplete' : 'response.completed', { response: this.response() }));
    return events;
  }

  /**
   * Ends a background response its owner cancelled (POST /v1/responses/{id}/cancel): status
   * `cancelled`, no error, the text so far kept as an incomplete message. A stream ends the way
   * a failed one does, since OpenAI defines no stream event for it: an `error` event saying it
   * was cancelled, then `response.failed` carrying the cancelled response.
   */
  cancel(now: number): ResponsesEvent[] {
    if (this.#status !== 'in_progress') return NONE;
    this.#status = 'cancelled';
    this.#completedAt = now;
    if (this.#deltas.length) this.#output = [this.#item('incomplete', this.text, [])];
    if (!this.#emit) return NONE;
    const body = errorBody(cancelledError(this.#p.id));
    return [this.#event('error', { code: body.code, message: body.message, param: body.param, error: body }), this.#event('response.failed', { response: this.response() })];
  }

  #fail(error: SvcError, now: number): ResponsesEvent[] {
    const body = errorBody(error);
    const events = [this.#event('error', { code: body.code, message: body.message, param: body.param, error: body })];
    this.#status = 'failed';
    this.#error = { code: body.code, message: body.message };
    this.#completedAt = now;
    // Text already streamed stays in the failed response, marked incomplete.
    if (this.#deltas.length) this.#output = [this.#item('incomplete', this.text, [])];
    events.push(this.#event('response.failed', { response: this.response() }));
    return events;
  }
}
