import type { Logger } from 'pino';
import type { AccountService } from '../accounts/service.js';
import type { SessionStore } from '../accounts/sessions.js';
import type { AgentRegistry } from '../agents/registry.js';
import type { Config } from '../config.js';
import type { DocumentService } from '../data/documents/service.js';
import type { IdempotencyStore } from '../billing/idempotency.js';
import type { RateLimiter } from '../billing/rate-limit.js';
import type { Billing } from '../billing/service.js';
import type { ChatCompletionStore } from '../chat-completions/store.js';
import type { ConversationStore } from '../conversations/store.js';
import type { ReportStore } from '../reports/store.js';
import type { ResponseStore } from '../responses/store.js';
import type { Store } from '../store/db.js';
import type { InFlight } from './stream.js';

/** Everything the HTTP layer needs from the core, built once by the composition root. */
export interface ServerDeps {
  config: Config;
  log: Logger;
  store: Store;
  accounts: AccountService;
  /** Signed-in browsers of the web pages. */
  sessions: SessionStore;
  responses: ResponseStore;
  /** Chat completions created with `store: true`. */
  chatCompletions: ChatCompletionStore;
  conversations: ConversationStore;
  agents: AgentRegistry;
  billing: Billing;
  reports: ReportStore;
  documents: DocumentService;
  idempotency: IdempotencyStore;
  rateLimiter: RateLimiter;
  adminKey: string;
  inflight: InFlight;
  /** When the server was started (seconds), reported as the models' `created`. */
  startedAt: number;
  /** The base URL clients reach this server at. */
  publicUrl(): string;
}
