import { MessageFlags, type ChatInputCommandInteraction, type Message, type SendableChannels } from 'discord.js';
import type { MessageSink } from '../shared/message-stream.js';

/** Nobody is pinged by what an agent writes, and links stay previews-free. */
const QUIET = { allowedMentions: { parse: [] }, flags: MessageFlags.SuppressEmbeds } as const;

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

/** The reply to a slash command: its deferred original first, then follow-ups. */
export function interactionSink(interaction: ChatInputCommandInteraction, useOriginal: boolean): MessageSink<string> {
  let originalFree = useOriginal;
  return {
    async post(content) {
      if (originalFree) {
        originalFree = false;
        await interaction.editReply({ content, ...QUIET });
        return '@original';
      }
      const message = await interaction.followUp({ content, ...QUIET });
      return message.id;
    },
    async edit(id, content) {
      await interaction.webhook.editMessage(id, { content, ...QUIET });
    },
    async remove(id) {
      await interaction.deleteReply(id);
    },
  };
}
