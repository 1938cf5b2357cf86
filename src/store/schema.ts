import type { Generated } from 'kysely';

/** Times are unix milliseconds; JSON documents are stored as text so both dialects agree. */
export interface AccountsTable {
  id: string;
  email: string;
  plan: string;
  credits: number;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
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
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  responses: ResponsesTable;
}

export type { Generated };
