import type { ChatInputCommandInteraction, Message } from 'discord.js';
import type { Clock } from '../shared/clock.js';
import { postKey, type MessageSink } from '../shared/message-stream.js';
import { withRetries } from '../shared/retry.js';
import { discordEditErrors, isRefusedInteractionToken } from './errors.js';
import type { InteractionToken } from './interaction-token.js';
import { QUIET, channelSink, type DiscordBudget } from './sinks.js';
import { CONTINUED_BELOW } from './texts.js';

/** One message of a command's reply: a webhook message while the token works, a channel message after. */
export interface ReplyPart {
  /** `@original` or a follow-up's id, until the part moves to the channel. */
  webhookId: string | null;
  /** The bot's own message, once the part lives in the channel. */
  message: Message | null;
  /** What the message shows. */
  text: string;
}

export interface InteractionSinkOptions {
  /** Shared by every answer to one command. */
  token: InteractionToken;
  clock: Clock;
  budget: DiscordBudget;
  /** A message left behind by a move could not be tidied up. */
  onError?(err: unknown): void;
}

const NO_TOKEN = Symbol('no token');

/**
 * The reply to a slash command: its deferred original first, then follow-ups, through the
 * interaction's token. Once the token has expired (by age, or Discord refuses it) the reply goes
 * on in channel messages sent with the bot token: a part that still changes is posted again in
 * the channel together with every part after it, so the answer reads in order; its old message
 * points below (while Discord still takes the token), and later edits go to the new messages.
 */
export class InteractionSink implements MessageSink<ReplyPart> {
  readonly #parts: ReplyPart[] = [];
  #originalFree: boolean;
  #channel: MessageSink<Message> | null = null;
  /** Calls run one at a time: a move to the channel must not interleave with other parts' posts and edits. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly interaction: ChatInputCommandInteraction,
    useOriginal: boolean,
    private readonly options: InteractionSinkOptions,
  ) {
    this.#originalFree = useOriginal;
  }

  post(text: string, key?: string): Promise<ReplyPart> {
    return this.#serially(async () => {
      const webhookId = await this.#throughToken(() => this.#postThroughToken(text));
      const part: ReplyPart = { webhookId: null, message: null, text };
      if (webhookId === NO_TOKEN) part.message = await (await this.#inChannel()).post(text, key);
      else part.webhookId = webhookId;
      this.#parts.push(part);
      return part;
    });
  }

  edit(part: ReplyPart, text: string): Promise<void> {
    return this.#serially(async () => {
      if (part.message) {
        await (await this.#inChannel()).edit(part.message, text);
      } else {
        const edited = await this.#throughToken(() => this.interaction.webhook.editMessage(part.webhookId!, { content: text, ...QUIET }));
        if (edited === NO_TOKEN) return this.#moveToChannel(part, text);
      }
      part.text = text;
    });
  }

  waitForSlot(part?: ReplyPart): Promise<void> {
    // Where the call will go: through the token while it is usable, in the channel after. A part
    // that has to move takes channel slots of its own for the move (#moveToChannel).
    const inChannel = part?.message || !this.options.token.usable;
    return inChannel ? this.options.budget.take('channel', this.interaction.channelId) : this.options.budget.take('interaction', this.interaction.id);
  }

  remove(part: ReplyPart): Promise<void> {
    return this.#serially(async () => {
      this.#parts.splice(this.#parts.indexOf(part), 1);
      if (part.message) await (await this.#inChannel()).remove(part.message);
      else if (this.options.token.accepted) await this.interaction.deleteReply(part.webhookId!);
      else throw new Error('the interaction token has expired: a reply message it wrote cannot be removed');
    });
  }

  async #postThroughToken(text: string): Promise<string> {
    if (this.#originalFree) {
      this.#originalFree = false;
      await this.interaction.editReply({ content: text, ...QUIET });
      return '@original';
    }
    return (await this.interaction.followUp({ content: text, ...QUIET })).id;
  }

  /** Posts `from` (now showing `text`) and every part after it in the channel, in order. */
  async #moveToChannel(from: ReplyPart, text: string): Promise<void> {
    const channel = await this.#inChannel();
    let pointedBelow = false;
    for (const part of this.#parts.slice(this.#parts.indexOf(from))) {
      const content = part === from ? text : part.text;
      const key = postKey();
      // Rate limits are waited out here: a part left behind would break the reading order.
      const message = await withRetries(
        async () => {
          await channel.waitForSlot?.();
          return channel.post(content, key);
        },
        discordEditErrors,
        this.options.clock,
      );
      const left = { ...part };
      Object.assign(part, { webhookId: null, message, text: content });
      if (left.message) {
        await channel.remove(left.message).catch((err) => this.options.onError?.(err));
        continue;
      }
      await this.#retire(left.webhookId!, pointedBelow ? 'delete' : 'point below');
      pointedBelow = true;
    }
  }

  /** A webhook message whose text now lives in the channel: it points there, or goes. */
  async #retire(webhookId: string, how: 'point below' | 'delete'): Promise<void> {
    if (!this.options.token.accepted) return;
    try {
      if (how === 'point below') {
        await this.options.budget.take('interaction', this.interaction.id);
        await this.interaction.webhook.editMessage(webhookId, { content: CONTINUED_BELOW, ...QUIET });
      } else await this.interaction.deleteReply(webhookId);
    } catch (err) {
      if (isRefusedInteractionToken(err)) this.options.token.refuse();
      this.options.onError?.(err);
    }
  }

  /** Runs a call through the interaction's token, or says there is no usable token (any more). */
  async #throughToken<T>(call: () => Promise<T>): Promise<T | typeof NO_TOKEN> {
    if (!this.options.token.usable) return NO_TOKEN;
    try {
      return await call();
    } catch (err) {
      if (!isRefusedInteractionToken(err)) throw err;
      this.options.token.refuse();
      return NO_TOKEN;
    }
  }

  /** The channel (or thread) the command was used in, written to with the bot token. */
  async #inChannel(): Promise<MessageSink<Message>> {
    if (this.#channel) return this.#channel;
    const { interaction } = this;
    const channel = interaction.channel ?? (interaction.channelId ? await interaction.client.channels.fetch(interaction.channelId) : null);
    if (!channel?.isSendable()) throw new Error(`the reply cannot continue in channel ${interaction.channelId}: the bot cannot send messages there`);
    this.#channel = channelSink(channel, this.options.budget);
    return this.#channel;
  }

  #serially<T>(call: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(call);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
