import type { Generated } from 'kysely';

/** Times are unix milliseconds; JSON documents are stored as text so both dialects agree. */
export interface AccountsTable {
  id: string;
  email: string;
  plan: string;
  credits: number;
  created_at: number;
  updated_at: number;
  /** scrypt hash (accounts/passwords.ts); null when the account cannot sign in on the web. */
  password_hash: string | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  prefix: string;
  last4: string;
  /** What its owner called it, shown in Settings. */
  name: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** When the settings page showed its secret (keys created there); null otherwise. */
  secret_shown_at?: number | null;
}

export interface ResponsesTable {
  id: string;
  account_id: string;
  model: string;
  status: string;
  message_id: string;
  /** JSON: the turns the agent saw (earlier context plus this input). */
  conversation: string;
  instructions: string | null;
  output_text: string;
  /** JSON: what the Response object echoes (ids, model, request parameters). */
  params: string;
  /** JSON: the run's agent events (responses/transcript.ts), from which the object and its stream are rebuilt. */
  transcript: string;
  created_at: number;
  completed_at: number | null;
  /**
   * While in progress: until when its producer vouches for it (renewed while it runs). A row
   * still in progress after that lost its producer (the process died). Null on rows written
   * before leases, and once finished.
   */
  lease_expires_at: number | null;
}

export interface LedgerTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  kind: 'grant' | 'hold' | 'capture' | 'release' | 'adjustment';
  amount: number;
  balance_after: number;
  reason: string | null;
  request_id: string | null;
  hold_id: string | null;
  created_at: number;
}

export interface HoldsTable {
  id: string;
  account_id: string;
  job_id: string;
  amount: number;
  state: 'held' | 'captured' | 'released';
  reason: string | null;
  request_id: string | null;
  lease_expires_at: number;
  created_at: number;
  settled_at: number | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  endpoint: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  locked_until: number;
  status_code: number | null;
  /** JSON object of the response headers worth replaying. */
  headers: string | null;
  body: string | null;
  created_at: number;
  expires_at: number;
}

export interface RateLimitWindowsTable {
  key_id: string;
  window_start: number;
  count: number;
  /** When its latest request was counted (null: counted before migration 015). */
  last_at: number | null;
}

/** One request start to an upstream, kept for one throttle window (see data/shared-throttle.ts). */
export interface UpstreamStartsTable {
  id: string;
  upstream: string;
  /** The database's clock, in ms: one clock for every replica. */
  at: number;
}

/** An upstream that blocked one replica: every replica refuses to call it until then (ms). */
export interface UpstreamPausesTable {
  upstream: string;
  until: number;
}

export interface ReportsTable {
  id: string;
  event_ticker: string;
  version: number;
  series_ticker: string;
  title: string;
  text: string;
  /** JSON: [{order, name, url}]. */
  citations: string;
  output_tokens: number;
  as_of: string;
  source: 'live' | 'snapshot';
  generated_at: number;
  account_id: string | null;
  hold_id: string | null;
}

export interface ReportJobsTable {
  event_ticker: string;
  job_id: string;
  owner: string;
  state: 'claimed' | 'running' | 'done' | 'failed';
  lease_expires_at: number;
  started_at: number;
  finished_at: number | null;
  /** JSON {kind, code, message} of a failed generation. */
  error: string | null;
  /** The credit hold paying for the generation (none when a joiner took a dead one over for free). */
  hold_id: string | null;
}

/** A chat completion created with `store: true`. */
export interface ChatCompletionsTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  model: string;
  /** JSON: the ChatCompletion object as it was answered. */
  completion: string;
  /** JSON: the request's messages, as the messages endpoint lists them (without their ids). */
  messages: string;
  /** JSON object of string pairs; the same pairs are rows of chat_completion_metadata. */
  metadata: string;
  /** When the request was made (ms): lists are in this order. */
  created_at: number;
  /** Deleted: the row stays, emptied, so cursors past it still work; purged with the rest. */
  deleted_at: number | null;
}

/** One metadata pair of a stored chat completion, for lists filtered by metadata. */
export interface ChatCompletionMetadataTable {
  completion_id: string;
  key: string;
  value: string;
}

/** An OpenAI conversation: its items are rows of conversation_items. */
export interface ConversationsTable {
  id: string;
  account_id: string;
  /** JSON object of string pairs. */
  metadata: string;
  created_at: number;
}

export interface ConversationItemsTable {
  seq: Generated<number>;
  id: string;
  conversation_id: string;
  /** JSON: the message item as listed (type, id, status, role, content). */
  item: string;
  /** The stored report (`report:<id>`) an answer item's text is, if it is one whole. */
  answer_ref: string | null;
  created_at: number;
  /** Deleted: emptied, kept so cursors past it still work, until its conversation is deleted. */
  deleted_at: number | null;
}

/** A signed-in browser. */
export interface WebSessionsTable {
  /** SHA-256 (hex) of the session cookie's token. */
  id: string;
  account_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  responses: ResponsesTable;
  ledger: LedgerTable;
  holds: HoldsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_windows: RateLimitWindowsTable;
  reports: ReportsTable;
  report_jobs: ReportJobsTable;
  web_sessions: WebSessionsTable;
  chat_completions: ChatCompletionsTable;
  chat_completion_metadata: ChatCompletionMetadataTable;
  conversations: ConversationsTable;
  conversation_items: ConversationItemsTable;
  upstream_starts: UpstreamStartsTable;
  upstream_pauses: UpstreamPausesTable;
}

export type { Generated };
