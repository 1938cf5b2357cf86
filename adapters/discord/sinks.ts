import { MessageFlags, type Message, type SendableChannels } from 'discord.js';
import type { MessageSink } from '../shared/message-stream.js';

/** Nobody is pinged by what an agent writes, and links stay previews-free. */
export const QUIET = { allowedMentions: { parse: [] }, flags: MessageFlags.SuppressEmbeds } as const;

/** Messages in a channel or thread, sent with the bot token. */
export function channelSink(channel: SendableChannels): MessageSink<Message> {
  return {
    post: (content) => channel.send({ content, ...QUIET }),
    edit: async (message, content) => {
      await message.edit({ content, ...QUIET });
    },
    remove: async (message) => {
      await message.delete();
    },
  };
}
