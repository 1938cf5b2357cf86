import {
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  type AnyThreadChannel,
  type ChatInputCommandInteraction,
  type Interaction,
  type Message,
  type NewsChannel,
  type SendableChannels,
  type TextChannel,
} from 'discord.js';
import { editingPresenter, runAnswer, type AnswerOutcome } from '../shared/answer.js';
import { AnswersInProgress } from '../shared/answers-in-progress.js';
import type { ResearchClient, Turn } from '../shared/api-client.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { DiscordSettings } from '../shared/config.js';
import { idempotencyKey } from '../shared/idempotency.js';
import { asksBesideLinks, findKalshiEventLinks, findKalshiSeriesLinks, notAnEventLink, type KalshiEventLink } from '../shared/kalshi-links.js';
import type { Logger } from '../shared/log.js';
import { AdapterStartupError } from '../shared/main-helpers.js';
import { MessageStream, type MessageSink } from '../shared/message-stream.js';
import { RateBudget } from '../shared/rate-budget.js';
import { settleWithin, withRetries } from '../shared/retry.js';
import { turnSeq, type AdapterStore } from '../shared/store.js';
import { THREAD_ALREADY_EXISTS, describeDiscordError, discordEditErrors, isMissingPermissions, isRefusal } from './errors.js';
import { InteractionSink } from './interaction-sink.js';
import { interactionToken } from './interaction-token.js';
import { channelSink, type DiscordBudget } from './sinks.js';
import { GONE_NOTE, HELP, cannotPostNote, discordView, noThreadNote, threadName } from './texts.js';
import { mentionsBot, plainContent, readableText, threadTurns } from './thread.js';

export const ASK_MODEL = 'svc-agent';
export const REPORT_MODEL = 'svc-prediction-markets-agent';
/** Discord's message content limit. */
export const DISCORD_MESSAGE_LIMIT = 2000;
const STATUS_INTERVAL_MS = 10_000;
const READY_TIMEOUT_MS = 60_000;
/** How long a follow-up waits for the answers before it to finish, so they are in its context. */
const FOLLOW_UP_WAIT_MS = 60_000;

/**
 * Gateway close codes after which Discord does not take the session back (discord.js does not
 * reconnect): what is wrong, for the one log line (or start-up error) that says so.
 */
const SESSION_ENDED: Record<number, string> = {
  4004: 'Discord ended the gateway session: authentication failed (close code 4004). The bot token was reset or is wrong: put the current one (Developer Portal, Bot page, Reset Token) in DISCORD_TOKEN',
  4010: 'Discord ended the gateway session: invalid shard (close code 4010)',
  4011: 'Discord ended the gateway session: sharding required (close code 4011)',
  4012: 'Discord ended the gateway session: invalid API version (close code 4012)',
  4013: 'Discord ended the gateway session: invalid intents (close code 4013)',
  4014: 'Discord ended the gateway session: disallowed intents (close code 4014). Enable the Message Content Intent in the Discord Developer Portal (your application, Bot page, Privileged Gateway Intents), then start the bot again',
};

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
  /**
   * Resolves, with the reason, once Discord has ended the gateway session for good (a reset token,
   * an intent not enabled): the bot has logged it and stops itself; the process should exit non-zero.
   */
  ended: Promise<string>;
}

const ownerOf = (userId: string) => `discord:${userId}`;
const threadKey = (threadId: string) => `discord:thread:${threadId}`;
const dmKey = (channelId: string) => `discord:dm:${channelId}`;
/** The conversation of an answer given outside svc's threads, by its command's interaction id or its message's id. */
const answeredKey = (id: string) => `discord:answered:${id}`;
/** The person's message whose answer an edit of it may redo. */
const editKey = (messageId: string) => `discord:${messageId}`;
/** How long after sending it an edit can still address a message to svc. */
const EDIT_TO_ASK_MS = 15 * 60_000;
/** How many of a DM's latest turns go along with a question there. */
const DM_HISTORY_TURNS = 20;

export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const { settings, store, research, log } = options;
  const clock = options.clock ?? systemClock;
  const statusIntervalMs = options.statusIntervalMs ?? STATUS_INTERVAL_MS;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
    // Message: an edit of a message sent before a restart (not cached) still arrives.
    partials: [Partials.Channel, Partials.Message],
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
  /** Answers still being written, per thread: a follow-up waits for them so its context has them. */
  const writing = new AnswersInProgress(FOLLOW_UP_WAIT_MS);
  /**
   * Answers given outside svc's threads and DMs still being written, per channel they are written
   * in: a reply to one of them waits for it (as a follow-up in svc's threads does), so that it is
   * recorded, whole, before the reply is read as continuing it.
   */
  const writingOutside = new AnswersInProgress(FOLLOW_UP_WAIT_MS);
  const track = (what: string, work: () => Promise<void>) => {
    const p = work()
      .catch((err) => log.error({ err }, `discord ${what} failed`))
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  /** Answers into `sink`; `stop` ends the answer early (its messages cannot be posted). */
  async function answer<H>(
    sink: MessageSink<H>,
    userId: string,
    request: { model: string; messages: Turn[]; key: string; what: string; subject?: string },
    stop?: AbortSignal,
    /** Messages of an earlier answer to write this one into (an edited question answered again). */
    adopt: H[] = [],
  ): Promise<AnswerOutcome & { messageIds: string[] }> {
    const stream = new MessageStream(sink, {
      limit: DISCORD_MESSAGE_LIMIT,
      intervalMs: settings.editIntervalMs,
      clock,
      ...discordEditErrors,
      onError: (err) => log.warn({ err }, 'discord message update failed'),
      goneNote: GONE_NOTE,
      onGone: () => log.info({ model: request.model }, 'an answer message was deleted while the answer was written; posting the answer again'),
    });
    stream.adopt(adopt);
    const apiKey = store.linkedKey(ownerOf(userId)) ?? undefined;
    const signal = stop ? AbortSignal.any([shutdown.signal, stop]) : shutdown.signal;
    const events = research.answer({ model: request.model, messages: request.messages, apiKey, idempotencyKey: request.key, signal });
    const outcome = await runAnswer(events, editingPresenter(stream, discordView(request.what, request.subject)), { clock, statusIntervalMs });
    log.info({ model: request.model, status: outcome.status, problem: outcome.problem?.kind, landed: outcome.landed }, 'answered');
    // The bot's messages of the answer (sent with the bot token), so a reply to one of them continues it.
    // (A command's reply moved to the channel after its token's 15 minutes is such a message too.)
    const idOf = (h: unknown): string | null =>
      h && typeof h === 'object' ? ('id' in h && typeof h.id === 'string' ? h.id : 'message' in h ? idOf(h.message) : null) : null;
    const messageIds = stream.handles.flatMap((h) => idOf(h) ?? []);
    return { ...outcome, messageIds };
  }

  /**
   * Remembers a conversation whose last answer was given outside svc's threads and DMs (a command's
   * reply in a channel, an answer in a thread of people's) under each of that answer's messages
   * (`answered`: the command's interaction id, or the messages' ids), so a reply to one of them
   * continues it. `at` (a snowflake: the question's) orders it before any reply.
   */
  function rememberConversation(answered: string[], at: string, turns: Turn[]): void {
    const base = turnSeq(at).replace(/:0$/, '');
    for (const id of answered) turns.forEach((t, i) => store.recordTurn(answeredKey(id), `${base}:${String(i).padStart(4, '0')}`, t.role, t.content));
  }

  /**
   * The bot's answer a message replies to (Discord's message reference), when that answer was
   * given outside svc's threads and its conversation is recorded: the conversation, and the thread
   * someone started on the answer's message, if any.
   */
  async function repliedAnswer(message: Message, botId: string): Promise<{ key: string; turns: Turn[]; thread: AnyThreadChannel | null } | null> {
    if (message.mentions.repliedUser?.id !== botId || !message.reference?.messageId || !message.inGuild()) return null;
    let answer: Message;
    try {
      answer = await withRetries(() => message.fetchReference(), discordEditErrors, clock);
    } catch (err) {
      log.warn({ err, channel: message.channelId }, 'could not read the message a reply answers');
      return null;
    }
    if (answer.author.id !== botId) return null;
    const key = answeredKey(answer.interactionMetadata?.id ?? answer.id);
    // Its conversation is recorded once it is written: a reply made while it still streams waits for it.
    if (!store.turns(key, turnSeq(message.id)).length) await writingOutside.before(answer.channelId, message.id);
    const turns = store.turns(key, turnSeq(message.id));
    if (!turns.length) return null;
    let thread: AnyThreadChannel | null = answer.thread ?? null;
    if (!thread && answer.hasThread && 'threads' in answer.channel) {
      thread = await (answer.channel as TextChannel | NewsChannel).threads.fetch(answer.id).catch(() => null);
    }
    return { key, turns, thread };
  }

  const reportRequest = (link: KalshiEventLink, key: string) => ({
    model: REPORT_MODEL,
    messages: [{ role: 'user' as const, content: link.url }],
    key,
    what: `Preparing the report on ${link.title}`,
    subject: link.title,
  });

  /** The thread for the reports on `message`: started from it, or the one it already has. */
  /** The thread on `message` for its answer, named `names` (the events' titles, or the question). */
  async function threadFor(message: Message<true>, names: string[]): Promise<SendableChannels> {
    if (message.thread) return message.thread;
    try {
      const thread = await withRetries(() => message.startThread({ name: threadName(names), autoArchiveDuration: 1440 }), discordEditErrors, clock);
      store.recordFromStart(threadKey(thread.id));
      return thread;
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === THREAD_ALREADY_EXISTS) {
        const existing = await (message.channel as TextChannel | NewsChannel).threads.fetch(message.id);
        if (existing) return existing;
      }
      throw err;
    }
  }

  /** No thread for the reports: the person is told in a reply to their message (nobody pinged); if even that fails, only the log says so. */
  async function explainNoThread(message: Message<true>, err: unknown, subject: 'report' | 'question'): Promise<void> {
    log.warn({ err, channel: message.channelId }, `could not start a thread for a ${subject}`);
    await replyInstead(message, noThreadNote(message.channelId, { missingPermissions: isMissingPermissions(err), what: describeDiscordError(err) }, subject), `could not start a thread for a ${subject}, nor reply to say so`);
  }

  /** The thread was started but Discord refuses the bot's messages in it: the person is told the same way. */
  async function explainCannotPost(message: Message<true>, err: unknown, subject: 'report' | 'question' = 'report'): Promise<void> {
    log.warn({ err, channel: message.channelId }, `could not post a ${subject} in its thread`);
    await replyInstead(message, cannotPostNote(message.channelId, { missingPermissions: isMissingPermissions(err), what: describeDiscordError(err) }, subject), `could not post a ${subject} in its thread, nor reply to say so`);
  }

  async function replyInstead(message: Message<true>, content: string, failure: string): Promise<void> {
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
      log.error({ err: replyErr, channel: message.channelId }, failure);
    }
  }

  /**
   * A sink whose first refused post (403 Missing Permissions in a thread…) is the last call to
   * Discord: later posts fail with the same error at once, and `stop` ends the answer.
   */
  function refusable(sink: MessageSink<Message>): MessageSink<Message> & { refusal: unknown; stop: AbortSignal } {
    const stopping = new AbortController();
    const refusing: MessageSink<Message> & { refusal: unknown; stop: AbortSignal } = {
      ...sink,
      refusal: undefined,
      stop: stopping.signal,
      post: async (text, key) => {
        if (refusing.refusal !== undefined) throw refusing.refusal;
        try {
          return await sink.post(text, key);
        } catch (err) {
          if (isRefusal(err)) {
            refusing.refusal = err;
            stopping.abort();
          }
          throw err;
        }
      },
    };
    return refusing;
  }

  async function onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.webhookId || message.system) return;
    const botId = client.user!.id;
    const channel = message.channel;
    const inOurThread = channel.isThread() && channel.ownerId === botId;
    // A DM is a conversation with svc, as its threads are: every message there is for it.
    const inDm = channel.isDMBased();
    const links = findKalshiEventLinks(message.content);
    // A series' page (no event in it) is a question about the series: its open events, answered by svc-agent.
    const series = links.length ? [] : findKalshiSeriesLinks(message.content);
    // Elsewhere only a link, or a mention of svc ("@svc what are the odds of a cut?"), is for it.
    const mentioned = mentionsBot(message, botId);
    // A reply to one of svc's answers given outside its threads (a command's reply in the channel)
    // continues that answer's conversation, pinging svc or not.
    const replied = !inOurThread && !inDm && !links.length ? await repliedAnswer(message, botId) : null;
    if (!inOurThread && !inDm && !links.length && !series.length && !mentioned && !replied) return;
    // A gateway may deliver a message again (after a resume); it is answered once.
    const claim = `discord:message:${message.id}`;
    if (!store.claim(claim)) return;
    // "@svc" alone asks nothing: it gets the help, not an empty thread (in a DM too, as on Slack).
    if (!links.length && !inOurThread && !plainContent(message, botId)) return void (await replyInstead(message as Message<true>, HELP, 'could not answer a bare mention with the help'));
    const canStartThread = message.inGuild() && (channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement);
    let target = channel as SendableChannels;
    // Answered in the thread of the answer replied to, if someone started one on it.
    if (replied?.thread) target = replied.thread;
    else if (canStartThread && !inOurThread) {
      try {
        target = await threadFor(message as Message<true>, links.length ? links.map((l) => l.title) : series.length ? series.map((l) => l.title) : [plainContent(message, botId) || 'Question']);
      } catch (err) {
        // A failure that may pass (5xx, network, rate limit) gives the claim back, so a redelivery
        // tries again; a refusal (missing permissions…) keeps it, as a redelivery would only repeat
        // the refusal, the note, and another 403 towards Discord's invalid-request limit.
        if (!isRefusal(err)) store.release(claim);
        await explainNoThread(message as Message<true>, err, links.length ? 'report' : 'question');
        return;
      }
    }
    // The conversation of a thread is recorded as the service wrote it (not as Discord shows it: tables
    // re-rendered, sources and notes added) under the message each turn belongs to.
    const thread = target.isThread() ? threadKey(target.id) : inDm ? dmKey(channel.id) : null;
    const question = plainContent(message, botId);
    // The thread of a reply to an answer starts with that answer's conversation.
    if (thread && replied) store.copyTurns(replied.key, thread);
    if (thread) store.recordTurn(thread, turnSeq(message.id), 'user', question);
    const running = thread ? writing.start(thread, message.id) : null;
    // Answered outside svc's threads (a mention in a thread of people's, a reply to an answer there):
    // a reply to this answer made while it is written waits for it.
    const outside = !inOurThread && !inDm && !(target.isThread() && target.ownerId === botId) ? writingOutside.start(target.id, message.id) : null;
    try {
      // In its thread, a question beside a link is answered with the thread's context (the research
      // agent reads the link too), not replaced by a new report.
      const asks = asksBesideLinks(message.content);
      if (links.length && !((inOurThread || inDm) && asks)) {
        const reports: string[] = [];
        for (const link of links) {
          const sink = refusable(channelSink(target, budget));
          const outcome = await answer(sink, message.author.id, reportRequest(link, idempotencyKey('discord', 'message', message.id, link.eventTicker)), sink.stop);
          if (sink.refusal !== undefined && !outcome.landed && message.inGuild()) return await explainCannotPost(message, sink.refusal);
          if (outcome.status === 'done' && thread) store.recordTurn(thread, turnSeq(message.id, true), 'assistant', [...reports, outcome.markdown].join('\n\n'));
          if (outcome.status === 'done') reports.push(outcome.markdown);
        }
        // "is the cut overpriced? <link>": the report first, then the question, answered from it.
        if (!asks || !reports.length || !question) return;
        const followUp = await answer(channelSink(target, budget), message.author.id, {
          model: ASK_MODEL,
          messages: [
            { role: 'user', content: links.map((l) => l.url).join('\n') },
            { role: 'assistant', content: reports.join('\n\n') },
            { role: 'user', content: question },
          ],
          key: idempotencyKey('discord', 'message', message.id),
          what: 'Researching your question',
        });
        if (followUp.status === 'done' && thread) store.recordTurn(thread, turnSeq(message.id, true), 'assistant', [...reports, followUp.markdown].join('\n\n'));
        return;
      }
      if (!question) return;
      // In svc's threads and DMs, an edit of the question answers it again (in the answer's messages, known once it is written).
      if (thread) store.recordAnswerMessages(editKey(message.id), thread, target.id, []);
      // A mention in a thread of people's starts no conversation of svc's: the question goes alone
      // (or with the answer it replies to).
      const history = replied ? replied.turns : inOurThread && thread ? await threadHistory(channel as AnyThreadChannel, thread, message.id, botId) : inDm && thread ? await dmHistory(thread, message.id) : [];
      const sink = refusable(channelSink(target, budget));
      const outcome = await answer(
        sink,
        message.author.id,
        {
          model: ASK_MODEL,
          messages: [...history, { role: 'user', content: question }],
          key: idempotencyKey('discord', 'message', message.id),
          what: 'Researching your question',
        },
        sink.stop,
      );
      // A thread started for the question where Discord refuses svc's messages: the person is told in a reply.
      if (sink.refusal !== undefined && !outcome.landed && message.inGuild() && target.id !== channel.id) return await explainCannotPost(message, sink.refusal, 'question');
      if (outcome.status === 'done' && thread) store.recordTurn(thread, turnSeq(message.id, true), 'assistant', outcome.markdown);
      // In svc's threads and DMs, an edit of the question answers it again in these messages.
      if (thread && outcome.messageIds.length) store.recordAnswerMessages(editKey(message.id), thread, target.id, outcome.messageIds);
      // Answered outside svc's threads (in a thread of people's, or on an answer): a reply to it goes on from here.
      if (outcome.status === 'done' && !inOurThread && !inDm && !(target.isThread() && target.ownerId === botId)) {
        rememberConversation(outcome.messageIds, message.id, [...history, { role: 'user', content: question }, { role: 'assistant', content: outcome.markdown }]);
      }
    } finally {
      running?.end();
      outside?.end();
    }
  }

  /**
   * The conversation before message `beforeId` of one of the bot's threads, once the answers before
   * it are written: the recorded turns when the bot has seen the thread from its start, else what
   * Discord shows (rate limits waited out), falling back to what was recorded here.
   */
  async function threadHistory(channel: AnyThreadChannel, thread: string, beforeId: string, botId: string): Promise<Turn[]> {
    await writing.before(thread, beforeId);
    if (store.isRecordedFromStart(thread)) return store.turns(thread, turnSeq(beforeId));
    try {
      return await threadTurns(channel, beforeId, botId, clock);
    } catch (err) {
      log.warn({ err, thread: channel.id }, 'could not read the thread; answering with the turns recorded here');
      return store.turns(thread, turnSeq(beforeId));
    }
  }

  /** A DM's latest turns as recorded here (a DM has no start to read back from, and no end). */
  async function dmHistory(dm: string, beforeId: string): Promise<Turn[]> {
    await writing.before(dm, beforeId);
    const turns = store.turns(dm, turnSeq(beforeId)).slice(-DM_HISTORY_TURNS);
    // The conversation sent starts with a question, never with an answer whose question was cut off.
    return turns[0]?.role === 'assistant' ? turns.slice(1) : turns;
  }

  /**
   * A person edited a message: when it is the latest question svc answered in one of its threads or
   * a DM, and its text changed (not an embed Discord added to it), it is answered again, in the
   * messages of the first answer, and the conversation goes on from the edited question.
   */
  async function onMessageUpdate(message: Message): Promise<void> {
    if (message.partial || message.author.bot || message.webhookId || message.system) return;
    const answered = store.answerMessages(editKey(message.id));
    // Not answered: an edit that adds the forgotten @svc (or a link) to a message just sent makes it
    // one for svc, answered as if sent so (once: a message is claimed when answered).
    if (!answered) {
      if (message.editedTimestamp !== null && clock.now() - message.createdTimestamp < EDIT_TO_ASK_MS) await onMessage(message);
      return;
    }
    const botId = client.user!.id;
    const { conversation } = answered;
    // The answer to the message itself (and those before it) may still be being written: the edit comes after it.
    await writing.through(conversation, message.id);
    const recorded = store.answerMessages(editKey(message.id))!;
    const question = plainContent(message, botId);
    const asked = store.turnAt(conversation, turnSeq(message.id));
    // Unchanged (Discord added a link's embed, or this edit was answered already), emptied, or a
    // question that later ones built on: left alone.
    if (!question || question === asked?.content || store.hasTurnsAfter(conversation, turnSeq(message.id, true))) return;
    // A link alone is now a report request, which an edit does not make (reports cost credits).
    if (findKalshiEventLinks(message.content).length && !asksBesideLinks(message.content)) return;
    if (!store.claim(`discord:edit:${message.id}:${message.editedTimestamp ?? question}`)) return;
    // From here (no wait before it) a later edit, or a reply, waits for this answer.
    const running = writing.start(conversation, message.id);
    store.recordTurn(conversation, turnSeq(message.id), 'user', question);
    try {
      const target = await client.channels.fetch(recorded.channel).catch(() => null);
      if (!target?.isSendable()) return;
      const adopt: Message[] = [];
      for (const id of recorded.ids) {
        const shown = await withRetries(() => target.messages.fetch(id), discordEditErrors, clock).catch(() => null);
        if (shown) adopt.push(shown);
      }
      // A thread svc started on the question is named after it: after the edited words now.
      if (target.isThread() && target.id === message.id && target.ownerId === botId && target.name !== threadName([question])) {
        await target.setName(threadName([question])).catch((err: unknown) => log.warn({ err, thread: target.id }, 'could not rename the thread of an edited question'));
      }
      const history = target.isThread() ? await threadHistory(target, conversation, message.id, botId) : await dmHistory(conversation, message.id);
      log.info({ channel: target.id }, 'a question was edited; answering it again');
      const outcome = await answer(
        channelSink(target, budget),
        message.author.id,
        {
          model: ASK_MODEL,
          messages: [...history, { role: 'user', content: question }],
          key: idempotencyKey('discord', 'message', message.id, 'edited', message.editedTimestamp ?? Date.now()),
          what: 'Researching your edited question',
        },
        undefined,
        adopt,
      );
      // The first answer is gone from the screen: a later reply carries the new one, or none.
      if (outcome.status === 'done') store.recordTurn(conversation, turnSeq(message.id, true), 'assistant', outcome.markdown);
      else store.forgetTurn(conversation, turnSeq(message.id, true));
      if (outcome.messageIds.length) store.recordAnswerMessages(editKey(message.id), conversation, target.id, outcome.messageIds);
    } finally {
      running.end();
    }
  }

  async function unknownCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    if (!store.claim(`discord:interaction:${interaction.id}`)) return;
    log.info({ command: interaction.commandName }, 'a command svc does not have');
    await interaction.reply({ content: `I have no \`/${interaction.commandName}\` command any more (a server admin can refresh my commands with \`svc discord register-commands\`). Here is what I can do:\n\n${HELP}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
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
        const question = readableText(interaction.options.getString('question', true), interaction.channel, client.user!.id);
        if (!question) return void (await privately('Usage: `/svc ask question:` followed by your question, such as “what are the odds of a Fed cut in December?”'));
        await interaction.deferReply();
        // In one of the bot's threads, the question continues its conversation, and becomes part of it.
        const channel = interaction.channel;
        const botId = client.user!.id;
        const ours = channel?.isThread() && channel.ownerId === botId ? channel : null;
        const thread = ours ? threadKey(ours.id) : null;
        const history = ours && thread ? await threadHistory(ours, thread, interaction.id, botId) : [];
        if (thread) store.recordTurn(thread, turnSeq(interaction.id), 'user', question);
        const running = thread ? writing.start(thread, interaction.id) : null;
        // In a channel, a reply to the answer made while it is written waits for it.
        const outside = !thread && interaction.channelId ? writingOutside.start(interaction.channelId, interaction.id) : null;
        try {
          const outcome = await answer(replySink(true), userId, {
            model: ASK_MODEL,
            messages: [...history, { role: 'user', content: question }],
            key: idempotencyKey('discord', 'interaction', interaction.id),
            what: 'Researching your question',
          });
          if (outcome.status === 'done' && thread) store.recordTurn(thread, turnSeq(interaction.id, true), 'assistant', outcome.markdown);
          // In a channel, a reply to the answer continues it.
          if (outcome.status === 'done' && !thread) rememberConversation([interaction.id, ...outcome.messageIds], interaction.id, [...history, { role: 'user', content: question }, { role: 'assistant', content: outcome.markdown }]);
        } finally {
          running?.end();
          outside?.end();
        }
        return;
      }
      case 'report': {
        const links = findKalshiEventLinks(interaction.options.getString('url', true));
        if (!links.length) {
          await privately(notAnEventLink(interaction.options.getString('url', true), 'Use the address of an event page: `https://kalshi.com/markets/<series>/<slug>/<event>`.'));
          return;
        }
        await interaction.deferReply();
        let first = true;
        const reports: string[] = [];
        const ours = interaction.channel?.isThread() && interaction.channel.ownerId === client.user!.id;
        const outside = !ours && interaction.channelId ? writingOutside.start(interaction.channelId, interaction.id) : null;
        try {
          for (const link of links) {
            const outcome = await answer(replySink(first), userId, reportRequest(link, idempotencyKey('discord', 'interaction', interaction.id, link.eventTicker)));
            first = false;
            if (outcome.status === 'done') reports.push(outcome.markdown);
            // A reply to a report continues from it (and the reports before it in this reply).
            if (outcome.status === 'done' && !ours) {
              rememberConversation([interaction.id, ...outcome.messageIds], interaction.id, [{ role: 'user', content: links.map((l) => l.url).join('\n') }, { role: 'assistant', content: reports.join('\n\n') }]);
            }
          }
        } finally {
          outside?.end();
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
          await interaction.editReply(`That key did not work, so nothing was linked. ${research.linkProblem(err).message}`);
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
  client.on(Events.MessageUpdate, (_old, message) => track('edit', () => onMessageUpdate(message as Message)));
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (interaction.isChatInputCommand() && interaction.commandName === 'svc') track('command', () => onCommand(interaction));
    // A command svc no longer has (registered by an older version, or left over): Discord would
    // show "The application did not respond"; svc says what it has instead.
    else if (interaction.isChatInputCommand()) track('command', () => unknownCommand(interaction));
  });
  client.on(Events.Error, (err) => log.error({ err }, 'discord client error'));

  let connected = false;
  /** Why Discord ended the session for good, once it has. */
  let endedFor: string | undefined;
  let endSession!: (reason: string) => void;
  const ended = new Promise<string>((resolve) => (endSession = resolve));
  client.on(Events.ShardDisconnect, ({ code }) => {
    const reason = SESSION_ENDED[code];
    if (!reason || endedFor) return;
    endedFor = reason;
    // During start-up, start() rejects with the reason instead.
    if (!connected) return;
    log.error({ code }, `${reason}; stopping`);
    void bot.stop().then(() => endSession(reason));
  });

  const bot: DiscordBot = {
    ended,
    client,
    async start() {
      let timer: NodeJS.Timeout | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        client.once(Events.ClientReady, () => resolve());
        client.once(Events.ShardDisconnect, ({ code }) => SESSION_ENDED[code] && reject(new AdapterStartupError(SESSION_ENDED[code])));
        timer = setTimeout(() => reject(new AdapterStartupError(`no Discord gateway session within ${READY_TIMEOUT_MS / 1000} s (REST at ${settings.discordApiUrl})`)), READY_TIMEOUT_MS);
      });
      // login() may fail first; the reason then comes from the catch below.
      ready.catch(() => undefined);
      try {
        await client.login(settings.token);
        await ready;
      } catch (err) {
        await client.destroy();
        if (err instanceof AdapterStartupError) throw err;
        if (endedFor) throw new AdapterStartupError(endedFor);
        if (/disallowed intents/i.test((err as Error).message)) throw new AdapterStartupError(SESSION_ENDED[4014]!);
        if ((err instanceof DiscordAPIError && err.status === 401) || (err as { code?: unknown }).code === 'TokenInvalid') {
          throw new AdapterStartupError('Discord refused DISCORD_TOKEN: check the bot token');
        }
        throw new AdapterStartupError(`cannot reach Discord at ${settings.discordApiUrl}: ${(err as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
      connected = true;
      log.info({ user: client.user?.tag }, 'discord adapter connected');
    },
    stop(graceMs = settings.stopGraceMs) {
      stopping ??= (async () => {
        client.removeAllListeners(Events.MessageCreate).removeAllListeners(Events.MessageUpdate).removeAllListeners(Events.InteractionCreate);
        await settleWithin(inflight, graceMs);
        shutdown.abort();
        // Stopped answers write their "restarted" note: a few edits.
        await settleWithin(inflight, 5_000);
        await client.destroy();
      })();
      return stopping;
    },
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  };
  return bot;
}
