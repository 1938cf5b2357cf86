import {
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  type ChatInputCommandInteraction,
  type Interaction,
  type Message,
  type NewsChannel,
  type SendableChannels,
  type TextChannel,
} from 'discord.js';
import { editingPresenter, runAnswer } from '../shared/answer.js';
import type { ResearchClient, Turn } from '../shared/api-client.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { DiscordSettings } from '../shared/config.js';
import { idempotencyKey } from '../shared/idempotency.js';
import { findKalshiEventLinks, type KalshiEventLink } from '../shared/kalshi-links.js';
import type { Logger } from '../shared/log.js';
import { AdapterStartupError } from '../shared/main-helpers.js';
import { MessageStream, type MessageSink } from '../shared/message-stream.js';
import { RateBudget } from '../shared/rate-budget.js';
import { settleWithin, withRetries } from '../shared/retry.js';
import type { AdapterStore } from '../shared/store.js';
import { THREAD_ALREADY_EXISTS, describeDiscordError, discordEditErrors, isMissingPermissions, isRefusal } from './errors.js';
import { InteractionSink } from './interaction-sink.js';
import { interactionToken } from './interaction-token.js';
import { channelSink, type DiscordBudget } from './sinks.js';
import { HELP, discordView, noThreadNote, threadName } from './texts.js';
import { plainContent, threadTurns } from './thread.js';

export const ASK_MODEL = 'svc-agent';
export const REPORT_MODEL = 'svc-prediction-markets-agent';
/** Discord's message content limit. */
export const DISCORD_MESSAGE_LIMIT = 2000;
const STATUS_INTERVAL_MS = 10_000;
const READY_TIMEOUT_MS = 60_000;

export interface DiscordBotOptions {
  settings: DiscordSettings;
  store: AdapterStore;
  research: ResearchClient;
  log: Logger;
  clock?: Clock;
  statusIntervalMs?: number;
}

export interface DiscordBot {
  client: Client;
  /** Logs in; resolves once the gateway session is ready. */
  start(): Promise<void>;
  /** Disconnects, after waiting (up to `graceMs`) for answers still streaming. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no answer is being worked on (tests). */
  idle(): Promise<void>;
}

const ownerOf = (userId: string) => `discord:${userId}`;

export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const { settings, store, research, log } = options;
  const clock = options.clock ?? systemClock;
  const statusIntervalMs = options.statusIntervalMs ?? STATUS_INTERVAL_MS;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
    partials: [Partials.Channel],
    allowedMentions: { parse: [] },
    rest: {
      api: settings.discordApiUrl,
      // Message sends and edits fail fast on a rate limit instead of queueing stale edits; the
      // renderer waits out retry_after itself and retries what must land.
      rejectOnRateLimit: (data) => /^\/(channels|webhooks)\//.test(data.route),
    },
  });
  const budget: DiscordBudget = new RateBudget({ channel: settings.sendRate, interaction: settings.sendRate }, clock);
  const inflight = new Set<Promise<void>>();
  /** Aborted on shutdown once the grace period is over: unfinished answers then say so. */
  const shutdown = new AbortController();
  let stopping: Promise<void> | undefined;
  const track = (what: string, work: () => Promise<void>) => {
    const p = work()
      .catch((err) => log.error({ err }, `discord ${what} failed`))
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  async function answer<H>(sink: MessageSink<H>, userId: string, request: { model: string; messages: Turn[]; key: string; what: string }): Promise<void> {
    const stream = new MessageStream(sink, {
      limit: DISCORD_MESSAGE_LIMIT,
      intervalMs: settings.editIntervalMs,
      clock,
      ...discordEditErrors,
      onError: (err) => log.warn({ err }, 'discord message update failed'),
    });
    const apiKey = store.linkedKey(ownerOf(userId)) ?? undefined;
    const events = research.answer({ model: request.model, messages: request.messages, apiKey, idempotencyKey: request.key, signal: shutdown.signal });
    const outcome = await runAnswer(events, editingPresenter(stream, discordView(request.what)), { clock, statusIntervalMs });
    log.info({ model: request.model, status: outcome.status, problem: outcome.problem?.kind, landed: outcome.landed }, 'answered');
  }

  const reportRequest = (link: KalshiEventLink, key: string) => ({
    model: REPORT_MODEL,
    messages: [{ role: 'user' as const, content: link.url }],
    key,
    what: `Preparing the report on ${link.title}`,
  });

  /** The thread for the reports on `message`: started from it, or the one it already has. */
  async function threadFor(message: Message<true>, links: KalshiEventLink[]): Promise<SendableChannels> {
    if (message.thread) return message.thread;
    try {
      return await withRetries(() => message.startThread({ name: threadName(links.map((l) => l.title)), autoArchiveDuration: 1440 }), discordEditErrors, clock);
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === THREAD_ALREADY_EXISTS) {
        const existing = await (message.channel as TextChannel | NewsChannel).threads.fetch(message.id);
        if (existing) return existing;
      }
      throw err;
    }
  }

  /** No thread for the reports: the person is told in a reply to their message (nobody pinged); if even that fails, only the log says so. */
  async function explainNoThread(message: Message<true>, err: unknown): Promise<void> {
    log.warn({ err, channel: message.channelId }, 'could not start a thread for a report');
    const content = noThreadNote(message.channelId, { missingPermissions: isMissingPermissions(err), what: describeDiscordError(err) });
    try {
      await withRetries(
        async () => {
          await budget.take('channel', message.channelId);
          return message.reply({ content, allowedMentions: { parse: [] } });
        },
        discordEditErrors,
        clock,
      );
    } catch (replyErr) {
      log.error({ err: replyErr, channel: message.channelId }, 'could not start a thread for a report, nor reply to say so');
    }
  }

  async function onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.webhookId || message.system) return;
    const botId = client.user!.id;
    const channel = message.channel;
    const inOurThread = channel.isThread() && channel.ownerId === botId;
    const links = findKalshiEventLinks(message.content);
    if (!inOurThread && !links.length) return;
    // A gateway may deliver a message again (after a resume); it is answered once.
    const claim = `discord:message:${message.id}`;
    if (!store.claim(claim)) return;
    const canStartThread = message.inGuild() && (channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement);
    let target = channel as SendableChannels;
    if (canStartThread && !inOurThread) {
      try {
        target = await threadFor(message as Message<true>, links);
      } catch (err) {
        // A failure that may pass (5xx, network, rate limit) gives the claim back, so a redelivery
        // tries again; a refusal (missing permissions…) keeps it, as a redelivery would only repeat
        // the refusal, the note, and another 403 towards Discord's invalid-request limit.
        if (!isRefusal(err)) store.release(claim);
        await explainNoThread(message as Message<true>, err);
        return;
      }
    }
    for (const link of links) await answer(channelSink(target, budget), message.author.id, reportRequest(link, idempotencyKey('discord', 'message', message.id, link.eventTicker)));
    if (links.length || !channel.isThread()) return;
    const history = await threadTurns(channel, message.id, botId).catch((err) => {
      log.warn({ err }, 'could not read the thread; answering the message on its own');
      return [] as Turn[];
    });
    const question = plainContent(message, botId);
    if (!question) return;
    await answer(channelSink(target, budget), message.author.id, {
      model: ASK_MODEL,
      messages: [...history, { role: 'user', content: question }],
      key: idempotencyKey('discord', 'message', message.id),
      what: 'Researching your question',
    });
  }

  async function onCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    if (!store.claim(`discord:interaction:${interaction.id}`)) return;
    const userId = interaction.user.id;
    const privately = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    const token = interactionToken(interaction, clock);
    const replySink = (useOriginal: boolean) =>
      new InteractionSink(interaction, useOriginal, { token, clock, budget, onError: (err) => log.warn({ err }, 'discord reply message left behind by the move to the channel could not be tidied up') });
    switch (interaction.options.getSubcommand(false)) {
      case 'ask': {
        await interaction.deferReply();
        const question = interaction.options.getString('question', true);
        await answer(replySink(true), userId, {
          model: ASK_MODEL,
          messages: [{ role: 'user', content: question }],
          key: idempotencyKey('discord', 'interaction', interaction.id),
          what: 'Researching your question',
        });
        return;
      }
      case 'report': {
        const links = findKalshiEventLinks(interaction.options.getString('url', true));
        if (!links.length) {
          await privately('That is not a Kalshi event link. Use the address of an event page: `https://kalshi.com/markets/<series>/<slug>/<event>`.');
          return;
        }
        await interaction.deferReply();
        let first = true;
        for (const link of links) {
          await answer(replySink(first), userId, reportRequest(link, idempotencyKey('discord', 'interaction', interaction.id, link.eventTicker)));
          first = false;
        }
        return;
      }
      case 'link': {
        await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        const key = interaction.options.getString('key', true).trim();
        try {
          const account = await research.account(key);
          store.link(ownerOf(userId), key);
          await interaction.editReply(`Linked: your questions and reports now use your own account (${account.email}, plan **${account.plan}**, ${account.credits} credits). \`/svc unlink\` goes back to the server's account.`);
        } catch (err) {
          await interaction.editReply(`That key did not work, so nothing was linked. ${research.problemOf(err, true).message}`);
        }
        return;
      }
      case 'unlink':
        await privately(store.unlink(ownerOf(userId)) ? "Unlinked: you are using the server's account again." : "You had no key linked; you are using the server's account.");
        return;
      default:
        await privately(HELP);
    }
  }

  client.on(Events.MessageCreate, (message) => track('message', () => onMessage(message)));
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (interaction.isChatInputCommand() && interaction.commandName === 'svc') track('command', () => onCommand(interaction));
  });
  client.on(Events.Error, (err) => log.error({ err }, 'discord client error'));

  return {
    client,
    async start() {
      let timer: NodeJS.Timeout | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        client.once(Events.ClientReady, () => resolve());
        timer = setTimeout(() => reject(new AdapterStartupError(`no Discord gateway session within ${READY_TIMEOUT_MS / 1000} s (REST at ${settings.discordApiUrl})`)), READY_TIMEOUT_MS);
      });
      try {
        await client.login(settings.token);
        await ready;
      } catch (err) {
        await client.destroy();
        if (err instanceof AdapterStartupError) throw err;
        if ((err instanceof DiscordAPIError && err.status === 401) || (err as { code?: unknown }).code === 'TokenInvalid') {
          throw new AdapterStartupError('Discord refused DISCORD_TOKEN: check the bot token');
        }
        throw new AdapterStartupError(`cannot reach Discord at ${settings.discordApiUrl}: ${(err as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
      log.info({ user: client.user?.tag }, 'discord adapter connected');
    },
    stop(graceMs = 30_000) {
      stopping ??= (async () => {
        client.removeAllListeners(Events.MessageCreate).removeAllListeners(Events.InteractionCreate);
        await settleWithin(inflight, graceMs);
        shutdown.abort();
        await settleWithin(inflight, 15_000);
        await client.destroy();
      })();
      return stopping;
    },
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  };
}
