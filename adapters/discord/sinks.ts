import { MessageFlags, type Message, type SendableChannels } from 'discord.js';
import type { MessageSink } from '../shared/message-stream.js';
import type { RateBudget } from '../shared/rate-budget.js';

/** Nobody is pinged by what an agent writes, and links stay previews-free. */
export const QUIET = { allowedMentions: { parse: [] }, flags: MessageFlags.SuppressEmbeds } as const;

/**
 * Discord's limit on message sends and edits, shared by every answer: per channel (or thread)
 * for the bot's messages, per interaction for a command's reply sent through its token.
 */
export type DiscordBudget = RateBudget<'channel' | 'interaction'>;

/** Messages in a channel or thread, sent with the bot token. */
export function channelSink(channel: SendableChannels, budget: DiscordBudget): MessageSink<Message> {
  return {
    // With a nonce it enforces, Discord returns the message a lost answer had created instead of a second one.
    post: (content, key) => channel.send({ content, ...QUIET, ...(key ? { nonce: key, enforceNonce: true } : {}) }),
    edit: async (message, content) => {
      await message.edit({ content, ...QUIET });
    },
    remove: async (message) => {
      await message.delete();
    },
    waitForSlot: () => budget.take('channel', channel.id),
  };
}
