import { ErrorCode } from '@slack/web-api';

/** Reading Slack Web API errors (web-api 8: typed errors; older shapes by their `code`). */

interface SlackLikeError {
  code?: string;
  data?: { error?: string };
  retryAfter?: number;
}

/** The Slack error string (`feature_not_enabled`, `ratelimited`…), or null for network and other errors. */
export function slackErrorCode(err: unknown): string | null {
  const e = err as SlackLikeError | null;
  if (!e || typeof e !== 'object') return null;
  if (e.code === ErrorCode.RateLimitedError) return 'ratelimited';
  if (e.code === ErrorCode.PlatformError && typeof e.data?.error === 'string') return e.data.error;
  return null;
}

/** A 429 (with `rejectRateLimitedCalls`) or a `ratelimited` answer: how long to wait. */
export function slackRetryAfterMs(err: unknown): number | null {
  const e = err as SlackLikeError | null;
  if (e?.code === ErrorCode.RateLimitedError) return Math.max(1, e.retryAfter ?? 1) * 1000;
  if (slackErrorCode(err) === 'ratelimited') return 1000;
  return null;
}

const PERMANENT = new Set([
  'message_not_found',
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'cant_update_message',
  'edit_window_closed',
  'msg_too_long',
  'no_text',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'restricted_action',
]);

export function slackIsPermanent(err: unknown): boolean {
  const code = slackErrorCode(err);
  return code !== null && PERMANENT.has(code);
}

/** The message was deleted (by someone in the channel, while the answer was being written into it). */
export const slackIsGone = (err: unknown): boolean => slackErrorCode(err) === 'message_not_found';

export const slackEditErrors = { retryAfterMs: slackRetryAfterMs, isPermanent: slackIsPermanent, isGone: slackIsGone };
