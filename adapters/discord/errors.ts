import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';

/** Reading Discord REST errors for the renderer: rate limits (rejected, not queued) and errors no retry fixes. */

export function discordRetryAfterMs(err: unknown): number | null {
  if (err instanceof RateLimitError) return Math.max(err.retryAfter, err.timeToReset, 1);
  if (err instanceof DiscordAPIError && err.status === 429) return 1000;
  return null;
}

/** Discord's code for an interaction token it no longer honours (401 "Invalid Webhook Token"). */
export const INVALID_WEBHOOK_TOKEN = 50027;

/**
 * Discord refused the call (any 4xx but a rate limit: unknown message/channel/webhook, missing
 * access or permissions, an expired interaction token, a body it refuses, "thread already exists",
 * too many active threads…): doing the same again gets the same answer.
 */
export function discordIsPermanent(err: unknown): boolean {
  // Never retry 401/403 in a loop: they count towards Discord's invalid-request ban.
  return err instanceof DiscordAPIError && err.status >= 400 && err.status < 500 && err.status !== 429;
}

/** Discord's code for a message that no longer exists (deleted while the answer was being written into it). */
export const UNKNOWN_MESSAGE = 10008;

export const discordIsGone = (err: unknown): boolean => err instanceof DiscordAPIError && err.code === UNKNOWN_MESSAGE;

export const discordEditErrors = { retryAfterMs: discordRetryAfterMs, isPermanent: discordIsPermanent, isGone: discordIsGone };

/** A webhook call refused because the interaction token expired (webhook calls carry no bot token, so any 401 is the interaction's). */
export function isRefusedInteractionToken(err: unknown): boolean {
  return err instanceof DiscordAPIError && (err.code === INVALID_WEBHOOK_TOKEN || err.status === 401);
}

/** Discord's code for "this message already has a thread". */
export const THREAD_ALREADY_EXISTS = 160004;

/** Discord's codes for a channel the bot may not see (50001) or act in (50013). */
export const MISSING_ACCESS = 50001;
export const MISSING_PERMISSIONS = 50013;

export function isMissingPermissions(err: unknown): boolean {
  return err instanceof DiscordAPIError && (err.code === MISSING_ACCESS || err.code === MISSING_PERMISSIONS);
}

/** Discord refused the call (a 4xx other than a rate limit): doing the same again gets the same answer. */
export const isRefusal = discordIsPermanent;

/** What went wrong with a Discord call, in a few words for a person (the error itself goes to the log). */
export function describeDiscordError(err: unknown): string {
  if (err instanceof DiscordAPIError) return `Discord refused it: "${err.message}" (error ${err.code})`;
  if (err instanceof HTTPError) return `Discord had a server error (HTTP ${err.status})`;
  if (err instanceof RateLimitError) return 'Discord is limiting how fast I may act';
  return 'Discord could not be reached';
}
