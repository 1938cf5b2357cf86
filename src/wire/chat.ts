import type { AgentEvent, Answer, Citation, Usage } from '../agents/types.js';
import type { SvcError } from '../errors.js';
import { answerChunks } from './answer.js';
import { answerCitations, bareCitation, chatAnnotation, placeCitations } from './citations.js';
import { errorBody, type ErrorBody } from './errors.js';
import { completionBody, completionJson } from './chat-json.js';
import { internText } from '../text-memo.js';

export interface ChatParams {
  id: string;
  model: string;
  created: number;
  /** `stream_options.include_usage`: one more chunk with `choices: []` and the usage. */
  includeUsage: boolean;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export type ChatAnnotation = ReturnType<typeof chatAnnotation>;

/** A non-streamed chat completion, its fields in wire order. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: number;
      message: { role: 'assistant'; content: string; refusal: null; annotations: ChatAnnotation[] };
      logprobs: null;
      /** `length`: cut at the caller's `max_completion_tokens`/`max_tokens`. */
      finish_reason: 'stop' | 'length';
      citations: Citation[];
    },
  ];
  usage: ChatUsage;
  citations: Citation[];
}

export function chatUsage(u: Usage): ChatUsage {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

/** A stream frame: a chunk, or a mid-stream error (`data: {"error": …}`). */
export type ChatFrame = Record<string, unknown> | { error: ErrorBody };

/**
 * Turns agent events into Chat Completions chunks and the final completion. Pure.
 * The full annotation list travels once, on the finish chunk, never repeated.
 */
export class ChatEncoder {
  readonly #p: ChatParams;
  readonly #emit: boolean;
  readonly #deltas: string[] = [];
  readonly #citations: Citation[] = [];
  #usage: Usage | null = null;
  #error: SvcError | null = null;
  #finishReason: 'stop' | 'length' = 'stop';
  /** The whole answer event the text and citations came from, when nothing else contributed. */
  #sole: Answer | null = null;
  /** The citations placed in the final text, in the chat and the bare shape; placed once, when the run finishes. */
  #placed: { annotations: ChatAnnotation[]; citations: Citation[] } | null = null;

  /** With `emit: false` (a non-streamed answer) `push` builds no chunks, only the completion. */
  constructor(params: ChatParams, options: { emit?: boolean } = {}) {
    this.#p = params;
    this.#emit = options.emit ?? true;
  }

  #chunk(delta: Record<string, unknown>, finishReason: string | null, extra?: Record<string, unknown>) {
    return {
      id: this.#p.id,
      object: 'chat.completion.chunk',
      created: this.#p.created,
      model: this.#p.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason, ...extra }],
      ...(this.#p.includeUsage ? { usage: null } : {}),
    };
  }

  /** The first chunk: openai-node requires the assistant role before any content. */
  begin(): ChatFrame[] {
    return [this.#chunk({ role: 'assistant', content: '' }, null)];
  }

  push(event: AgentEvent): ChatFrame[] {
    switch (event.type) {
      case 'text':
        this.#sole = null;
        this.#deltas.push(event.delta);
        return this.#emit ? [this.#chunk({ content: event.delta }, null)] : [];
      case 'citation':
        this.#sole = null;
        this.#citations.push(event.citation);
        return [];
      case 'answer': {
        const { answer } = event;
        this.#sole = this.#deltas.length || this.#citations.length ? null : answer;
        if (answer.text) this.#deltas.push(answer.text);
        this.#citations.push(...answer.citations);
        return answer.text && this.#emit ? answerChunks(answer).map((content) => this.#chunk({ content }, null)) : [];
      }
      case 'usage':
        this.#usage = event.usage;
        return [];
      case 'done':
        if (event.incomplete) this.#finishReason = 'length';
        return this.#finish();
      case 'failed':
        this.#error = event.error;
        return [{ error: errorBody(event.error) }];
      default:
        return [];
    }
  }

  get text(): string {
    if (this.#deltas.length > 1) this.#deltas.splice(0, this.#deltas.length, internText(this.#deltas));
    return this.#deltas[0] ?? '';
  }

  /** `JSON.stringify(this.completion())`, the long text escaped once (see wire/json.ts). */
  completionJson(): string {
    return completionJson(this.completion());
  }

  /** `completionJson()` as UTF-8 bytes, from a template when the answer recurs (wire/body-template.ts). */
  completionBody(): Buffer {
    return completionBody(this.completion());
  }

  get failed(): SvcError | null {
    return this.#error;
  }

  #place(): { annotations: ChatAnnotation[]; citations: Citation[] } {
    if (this.#sole) {
      const { chat, bare } = answerCitations(this.#sole);
      return { annotations: chat, citations: bare };
    }
    const placed = placeCitations(this.text, this.#citations);
    return { annotations: placed.map(chatAnnotation), citations: placed.map(bareCitation) };
  }

  #finish(): ChatFrame[] {
    const { annotations, citations } = (this.#placed = this.#place());
    if (!this.#emit) return [];
    const frames: ChatFrame[] = [this.#chunk({ annotations }, this.#finishReason, { citations })];
    if (this.#p.includeUsage && this.#usage) {
      frames.push({
        id: this.#p.id,
        object: 'chat.completion.chunk',
        created: this.#p.created,
        model: this.#p.model,
        choices: [],
        usage: chatUsage(this.#usage),
      });
    }
    return frames;
  }

  /** The non-stream body, once the run has finished. */
  completion(): ChatCompletion {
    if (!this.#placed) throw new Error('completion() before the run finished');
    const { annotations, citations } = this.#placed;
    return {
      id: this.#p.id,
      object: 'chat.completion',
      created: this.#p.created,
      model: this.#p.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: this.text, refusal: null, annotations },
          logprobs: null,
          finish_reason: this.#finishReason,
          citations,
        },
      ],
      usage: this.#usage ? chatUsage(this.#usage) : chatUsage({ inputTokens: 0, outputTokens: 0 }),
      citations,
    };
  }
}
