import { DiscordAPIError, RateLimitError } from 'discord.js';

/** Reading Discord REST errors for the renderer: rate limits (rejected, not queued) and errors no retry fixes. */

export function discordRetryAfterMs(err: unknown): number | null {
  if (err instanceof RateLimitError) return Math.max(err.retryAfter, err.timeToReset, 1);
  if (err instanceof DiscordAPIError && err.status === 429) return 1000;
  return null;
}

/** Discord's code for an interaction token it no longer honours (401 "Invalid Webhook Token"). */
export const INVALID_WEBHOOK_TOKEN = 50027;

/** Unknown message/channel/webhook, missing access or permissions, an expired interaction token, a body Discord refuses. */
const PERMANENT_CODES = new Set([10003, 10008, 10015, 50001, 50013, INVALID_WEBHOOK_TOKEN, 50035, 160002, 30046]);

export function discordIsPermanent(err: unknown): boolean {
  if (!(err instanceof DiscordAPIError)) return false;
  // Never retry 401/403 in a loop: they count towards Discord's invalid-request ban.
  return err.status === 401 || err.status === 403 || err.status === 404 || (typeof err.code === 'number' && PERMANENT_CODES.has(err.code));
}

export const discordEditErrors = { retryAfterMs: discordRetryAfterMs, isPermanent: discordIsPermanent };

/** A webhook call refused because the interaction token expired (webhook calls carry no bot token, so any 401 is the interaction's). */
export function isRefusedInteractionToken(err: unknown): boolean {
  return err instanceof DiscordAPIError && (err.code === INVALID_WEBHOOK_TOKEN || err.status === 401);
}

/** Discord's code for "this message already has a thread". */
export const THREAD_ALREADY_EXISTS = 160004;
