import type { Database } from '../../src/store/schema.js';
import type { ResponseParams } from '../../src/wire/responses.js';

/** What a Responses encoder echoes, with fixed ids and time: a stored request with every parameter left to its default. */
export const responseParams: ResponseParams = Object.freeze({
  id: 'resp_1',
  messageId: 'msg_1',
  model: 'svc-test',
  createdAt: 1_700_000_000,
  instructions: null,
  previousResponseId: null,
  metadata: {},
  store: true,
  temperature: null,
  topP: null,
  maxOutputTokens: null,
  user: null,
});

/**
 * A stored response row as its producer leaves it while it runs (on another replica, or in a
 * process that died): in progress, nothing written yet, its lease until `leaseExpiresAt`.
 */
export function inProgressRow(id: string, accountId: string, o: { createdAt: number; leaseExpiresAt: number | null; background?: boolean }): Database['responses'] {
  const messageId = `msg_${id.replace(/^resp_/, '')}`;
  return {
    id,
    account_id: accountId,
    model: 'svc-test',
    status: 'in_progress',
    message_id: messageId,
    conversation: '[]',
    instructions: null,
    output_text: '',
    params: JSON.stringify({ ...responseParams, id, messageId, ...(o.background ? { background: true } : {}) }),
    transcript: '[]',
    created_at: o.createdAt,
    completed_at: null,
    lease_expires_at: o.leaseExpiresAt,
  };
}
