import type { SvcError } from '../errors.js';

/** A numbered source. `order` matches the `[n]` marker in the answer text. */
export interface Citation {
  order: number;
  name: string;
  url: string;
}

/**
 * A whole answer known at once, such as a stored report: its text and the citations its `[n]`
 * markers refer to. The same object may be served to many requests, so the wire encoders
 * remember what they derive from it (chunks, placed citations, escaped bytes); never mutate one.
 */
export interface Answer {
  readonly text: string;
  readonly citations: readonly Citation[];
  /**
   * Where this exact answer is kept for good (`report:<id>` for a stored report). Stored
   * responses refer to it rather than keeping a copy of the text of every response that served it.
   */
  readonly textRef?: string;
}

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  /** The kept answer (`report:<id>`) this turn's content is: stored conversations keep the reference, not a copy. */
  answerRef?: string;
  /** Its input item id, kept along a conversation (`msg_…` of the answer it was, `msg_in_…` of a message sent); agents ignore it. */
  itemId?: string;
  /** An earlier answer's sources, listed with it by input_items; agents ignore them. */
  citations?: Citation[];
}

/**
 * A turn of a Responses input as it is kept: the agent's turns, and the system and developer
 * messages, which the agent is given as instructions but which stay in the conversation (listed
 * by input_items, carried on by `previous_response_id`, unlike the `instructions` field).
 */
export type InputTurn = Turn | { role: 'system' | 'developer'; content: string; answerRef?: undefined; itemId?: string; citations?: undefined };

export const isInstruction = (t: InputTurn): t is Extract<InputTurn, { role: 'system' | 'developer' }> => t.role === 'system' || t.role === 'developer';

export type Plan = 'free' | 'plus' | 'pro' | 'enterprise';

/** A model id split into its agent and variant (`svc-prediction-markets-agent:cache`). */
export interface ModelRef {
  id: string;
  agent: string;
  variant: string | null;
}

export interface Caller {
  accountId: string;
  plan: Plan;
  keyId: string | null;
}

export interface AgentRequest {
  model: ModelRef;
  /** The conversation, oldest first; the last turn is the user's current query. */
  messages: Turn[];
  /** System/developer text and `instructions`, joined; null when there is none. */
  instructions: string | null;
  caller: Caller;
  requestId: string;
  /** Identifies one logical request across retries (the Idempotency-Key), when the caller sent one. */
  idempotencyKey: string | null;
  /** Aborted when the caller goes away. Work that must finish regardless (a paid generation) ignores it. */
  signal: AbortSignal;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** What a run decided before doing its work; the HTTP layer reports it as headers. */
export interface RunMeta {
  reportCache?: 'hit' | 'miss' | 'joined';
  reportGeneratedAt?: string;
  credits?: { charged: number; remaining: number };
}

/**
 * The typed events an agent yields. A run ends with exactly one `done` or `failed`.
 * A stream's HTTP status is fixed by the first event: a run whose first event is
 * `failed` becomes an HTTP error; later failures travel inside the stream. Agents
 * therefore do their checks (input, plan, credits) before yielding anything.
 */
export type AgentEvent =
  | { type: 'meta'; meta: RunMeta }
  | { type: 'progress'; message: string }
  | { type: 'text'; delta: string }
  | { type: 'citation'; citation: Citation }
  /** Means the same as a text delta of `answer.text` followed by a citation event per citation. */
  | { type: 'answer'; answer: Answer }
  | { type: 'usage'; usage: Usage }
  /** `incomplete`: the answer was cut where the caller's output token limit fell (see output-limit.ts). */
  | { type: 'done'; incomplete?: 'max_output_tokens' }
  | { type: 'failed'; error: SvcError };

export interface AgentVariant {
  /** The suffix after the colon, e.g. `cache`. */
  name: string;
  description: string;
}

export interface Agent {
  id: string;
  description: string;
  variants?: readonly AgentVariant[];
  /** How to tell a caller whose question is empty what this agent takes (default: `empty_input`). */
  emptyInput?: { code: string; hint: string };
  run(request: AgentRequest): AsyncIterable<AgentEvent>;
}
