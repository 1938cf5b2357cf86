import { App, LogLevel, SocketModeReceiver, type Logger as BoltLogger } from '@slack/bolt';
import { WebClient, type ChatPostMessageArguments } from '@slack/web-api';
import type { AddressInfo } from 'node:net';
import { runAnswer } from '../shared/answer.js';
import { AnswersInProgress } from '../shared/answers-in-progress.js';
import type { ResearchClient, Turn } from '../shared/api-client.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { SlackSettings } from '../shared/config.js';
import { AdapterStartupError } from '../shared/main-helpers.js';
import { idempotencyKey } from '../shared/idempotency.js';
import { asksBesideLinks, findKalshiEventLinks, notAnEventLink, type KalshiEventLink } from '../shared/kalshi-links.js';
import type { Logger } from '../shared/log.js';
import { escapeMrkdwn, toMrkdwn } from '../shared/mrkdwn.js';
import { settleWithin, withRetries } from '../shared/retry.js';
import { turnSeq, type AdapterStore } from '../shared/store.js';
import { NativeStreaming, SlackAnswer } from './answer.js';
import { SlackBudget } from './budget.js';
import { slackEditErrors, slackErrorCode } from './errors.js';
import { slackHttpReceiver } from './receiver.js';
import { QUESTION_EVENT, threadTurns } from './thread.js';
import { HELP, askedRoot, cannotPostNote, reportRoot, slackToPlain } from './texts.js';

export const ASK_MODEL = 'svc-agent';
export const REPORT_MODEL = 'svc-prediction-markets-agent';
const STATUS_INTERVAL_MS = 10_000;
/** How long after sending it an edit can still address a message to svc. */
const EDIT_TO_ASK_MS = 15 * 60_000;
/** How long a follow-up waits for the answer before it to finish, so that answer is in its context. */
const FOLLOW_UP_WAIT_MS = 60_000;

export interface SlackBotOptions {
  settings: SlackSettings;
  store: AdapterStore;
  research: ResearchClient;
  log: Logger;
  clock?: Clock;
  statusIntervalMs?: number;
}

export interface SlackBot {
  app: App;
  /** Starts receiving; in HTTP mode resolves with the port it listens on. */
  start(): Promise<{ port?: number }>;
  /** Stops receiving, then waits (up to `graceMs`) for answers still streaming. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no answer is being worked on (tests). */
  idle(): Promise<void>;
}

/** Who someone is, for their linked key: one person in one workspace. */
const ownerOf = (teamId: string, userId: string) => `slack:${teamId}:${userId}`;
const threadKey = (teamId: string, channel: string, threadTs: string) => `slack:${teamId}:${channel}:${threadTs}`;
/** A person's message whose answer an edit of it may redo. */
const editKey = (teamId: string, channel: string, ts: string) => `slack:${teamId}:${channel}:${ts}`;

function boltLogger(log: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const text = (msg: unknown[]) => msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  return {
    debug: (...msg) => log.debug(text(msg)),
    info: (...msg) => log.info(text(msg)),
    warn: (...msg) => log.warn(text(msg)),
    error: (...msg) => log.error(text(msg)),
    setLevel: (l) => void (level = l),
    getLevel: () => level,
    setName: () => {},
  };
}

interface Conversation {
  client: WebClient;
  teamId: string;
  channel: string;
  threadTs: string;
  userId: string;
}

/** Checks the bot token (auth.test) and learns the bot's ids; a clear one-line error when Slack refuses. */
async function identify(settings: SlackSettings, logger: BoltLogger): Promise<{ botUserId: string; botId: string }> {
  const client = new WebClient(settings.botToken, { slackApiUrl: settings.slackApiUrl, logger, retryConfig: { retries: 2, minTimeout: 500, maxTimeout: 2000 } });
  try {
    const me = await client.auth.test();
    if (!me.user_id || !me.bot_id) throw new AdapterStartupError('SLACK_BOT_TOKEN is not a bot token (xoxb-…): auth.test returned no bot user');
    return { botUserId: me.user_id, botId: me.bot_id };
  } catch (err) {
    if (err instanceof AdapterStartupError) throw err;
    const code = slackErrorCode(err);
    if (code) throw new AdapterStartupError(`Slack refused SLACK_BOT_TOKEN (${code}): check the bot token`);
    throw new AdapterStartupError(`cannot reach Slack's Web API at ${settings.slackApiUrl}: ${(err as Error).message}`);
  }
}

export async function createSlackBot(options: SlackBotOptions): Promise<SlackBot> {
  const { settings, store, research, log } = options;
  const clock = options.clock ?? systemClock;
  const statusIntervalMs = options.statusIntervalMs ?? STATUS_INTERVAL_MS;
  const logger = boltLogger(log);
  // Rate-limited calls fail fast, so stale edits never queue up; the renderer waits out Retry-After itself.
  const clientOptions = { slackApiUrl: settings.slackApiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 2000 } };
  const receiver =
    settings.mode === 'socket'
      ? new SocketModeReceiver({ appToken: settings.appToken!, logger, installerOptions: { clientOptions: { slackApiUrl: settings.slackApiUrl } } })
      : slackHttpReceiver(settings.signingSecret!, logger, log);
  const { botUserId, botId } = await identify(settings, logger);
  const app = new App({ token: settings.botToken, botUserId, botId, tokenVerificationEnabled: false, receiver, clientOptions, logger, ignoreSelf: true });
  const native = new NativeStreaming(settings.nativeStreaming, log);
  const budget = new SlackBudget(settings, clock);
  const inflight = new Set<Promise<void>>();
  /** Aborted on shutdown once the grace period is over: unfinished answers then say so. */
  const shutdown = new AbortController();
  let stopping: Promise<void> | undefined;
  /** Answers still being written, per thread: a follow-up waits for them so its context has them. */
  const writing = new AnswersInProgress(FOLLOW_UP_WAIT_MS);

  /** Work that outlives the 3-second acknowledgement; errors are logged, never thrown at Bolt. */
  const track = (what: string, work: () => Promise<void>) => {
    const p = work()
      .catch((err) => log.error({ err }, `slack ${what} failed`))
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  /**
   * Answers in the thread, and records the question and the answer (as the service wrote it, not as
   * Slack shows it) under the message `askedTs` they belong to, for the thread's later turns.
   */
  async function answer(c: Conversation, request: { model: string; messages: Turn[]; key: string; what: string; askedTs: string; adopt?: string[] }, running = writing.start(threadKey(c.teamId, c.channel, c.threadTs), request.askedTs)): Promise<void> {
    const thread = threadKey(c.teamId, c.channel, c.threadTs);
    const edited = editKey(c.teamId, c.channel, request.askedTs);
    store.recordTurn(thread, turnSeq(request.askedTs), 'user', request.messages.at(-1)!.content);
    // An edit of the question answers it again in the answer's messages (known once it is written).
    if (!request.adopt) store.recordAnswerMessages(edited, thread, c.channel, []);
    try {
      const { markdown, messageTs } = await respond(c, request);
      if (markdown !== null) store.recordTurn(thread, turnSeq(request.askedTs, true), 'assistant', markdown);
      // An answer given again that did not finish replaced the first one on the screen: a later reply carries neither.
      else if (request.adopt) store.forgetTurn(thread, turnSeq(request.askedTs, true));
      if (messageTs.length) store.recordAnswerMessages(edited, thread, c.channel, messageTs);
    } finally {
      running.end();
    }
  }

  /** Streams one answer into the thread; what the service wrote, or null if it did not finish. */
  async function respond(c: Conversation, request: { model: string; messages: Turn[]; key: string; what: string; subject?: string; adopt?: string[] }): Promise<{ markdown: string | null; messageTs: string[] }> {
    const apiKey = store.linkedKey(ownerOf(c.teamId, c.userId)) ?? undefined;
    const presenter = new SlackAnswer({ client: c.client, channel: c.channel, threadTs: c.threadTs, userId: c.userId, teamId: c.teamId, clock, intervalMs: settings.editIntervalMs, budget, native, log, what: request.what, subject: request.subject, adopt: request.adopt });
    const events = research.answer({ model: request.model, messages: request.messages, apiKey, idempotencyKey: request.key, signal: shutdown.signal });
    const outcome = await runAnswer(events, presenter, { clock, statusIntervalMs });
    log.info({ channel: c.channel, thread: c.threadTs, model: request.model, status: outcome.status, problem: outcome.problem?.kind, landed: outcome.landed }, 'answered');
    return { markdown: outcome.status === 'done' ? outcome.markdown : null, messageTs: presenter.messageTs };
  }

  /** One report per link, in order; the thread records them together as the answer to the message that asked. */
  async function reports(c: Conversation, links: KalshiEventLink[], keyParts: string[], askedTs: string): Promise<void> {
    const thread = threadKey(c.teamId, c.channel, c.threadTs);
    store.recordTurn(thread, turnSeq(askedTs), 'user', links.map((l) => l.url).join('\n'));
    const running = writing.start(thread, askedTs);
    try {
      const written: string[] = [];
      for (const link of links) {
        const { markdown } = await respond(c, {
          model: REPORT_MODEL,
          messages: [{ role: 'user', content: link.url }],
          key: idempotencyKey('slack', ...keyParts, link.eventTicker),
          what: `Preparing the report on ${link.title}`,
          // Several reports share the thread: a refused one says which event it was.
          subject: links.length > 1 ? link.title : undefined,
        });
        if (markdown === null) continue;
        written.push(markdown);
        store.recordTurn(thread, turnSeq(askedTs, true), 'assistant', written.join('\n\n'));
      }
    } finally {
      running.end();
    }
  }

  /**
   * The conversation before message `beforeTs` of a thread: from the recorded turns when the bot has
   * seen the thread from its start (no history call: Slack allows non-Marketplace apps one
   * conversations.replies a minute), else from Slack, falling back to what was recorded.
   */
  async function history(client: WebClient, m: IncomingMessage, threadTs: string, bot: { userId?: string; botId?: string }): Promise<Turn[]> {
    const thread = threadKey(m.teamId, m.channel, threadTs);
    await writing.before(thread, m.ts);
    if (store.isRecordedFromStart(thread)) return store.turns(thread, turnSeq(m.ts));
    try {
      const partial = (err: unknown) => log.warn({ err, channel: m.channel }, 'read only the start of the thread (Slack refused the next page)');
      return await threadTurns(client, { channel: m.channel, threadTs, beforeTs: m.ts, botUserId: bot.userId, botId: bot.botId }, partial);
    } catch (err) {
      log.warn({ err, channel: m.channel }, 'could not read the thread; answering with the turns recorded here');
      return store.turns(thread, turnSeq(m.ts));
    }
  }

  /** A message the bot posts outside an answer, within the channel's share of the rate budget. */
  const post = (client: WebClient, teamId: string, message: ChatPostMessageArguments) =>
    withRetries(
      async () => {
        await budget.slot('chat.postMessage', teamId, message.channel);
        return client.chat.postMessage(message);
      },
      slackEditErrors,
      clock,
    );

  /** Posts the root message of a new conversation in the channel; null (and a private note saying why) when that fails. */
  async function postRoot(client: WebClient, teamId: string, channel: string, text: string, question: string, respond: (text: string) => Promise<unknown>): Promise<string | null> {
    try {
      const root = await post(client, teamId, { channel, text, unfurl_links: false, unfurl_media: false, metadata: { event_type: QUESTION_EVENT, event_payload: { question } } });
      return root.ts ?? null;
    } catch (err) {
      const code = slackErrorCode(err);
      if (code !== 'not_in_channel' && code !== 'channel_not_found') log.warn({ err, channel, code }, 'could not post the first message of a command');
      await respond(cannotPostNote(code));
      return null;
    }
  }

  app.command('/svc', async ({ command, ack, respond, client }) => {
    await ack();
    track('command', async () => {
      const say = (text: string) => respond({ response_type: 'ephemeral', text });
      const [word = '', ...rest] = command.text.trim().split(/\s+/);
      const argument = command.text.trim().slice(word.length).trim();
      const sub = word.toLowerCase();
      const owner = ownerOf(command.team_id, command.user_id);
      switch (sub) {
        case '':
        case 'help':
          await say(HELP);
          return;
        case 'link': {
          const key = rest[0];
          if (!key) return void (await say('Usage: `/svc link &lt;api key&gt;`, with a key of your own svc account (ask whoever runs svc for one).'));
          try {
            const account = await research.account(key);
            store.link(owner, key);
            await say(`Linked: your questions and reports now use your own account (${escapeMrkdwn(account.email)}, plan *${escapeMrkdwn(account.plan)}*, ${account.credits} credits). \`/svc unlink\` goes back to the workspace's account.`);
          } catch (err) {
            await say(`That key did not work, so nothing was linked. ${toMrkdwn(research.linkProblem(err).message)}`);
          }
          return;
        }
        case 'unlink':
          await say(store.unlink(owner) ? "Unlinked: you are using the workspace's account again." : "You had no key linked; you are using the workspace's account.");
          return;
      }
      const isReport = sub === 'report';
      const text = sub === 'ask' || isReport ? argument : command.text.trim();
      const links = findKalshiEventLinks(text);
      if (isReport || (links.length && sub !== 'ask')) {
        if (!links.length) return void (await say(notAnEventLink(slackToPlain(text), 'Usage: `/svc report https://kalshi.com/markets/&lt;series&gt;/&lt;slug&gt;/&lt;event&gt;`')));
        for (const link of links) {
          const ts = await postRoot(client, command.team_id, command.channel_id, reportRoot(command.user_id, link.url, link.title), link.url, say);
          if (!ts) return;
          store.rememberThread(threadKey(command.team_id, command.channel_id, ts));
          store.recordFromStart(threadKey(command.team_id, command.channel_id, ts));
          await reports({ client, teamId: command.team_id, channel: command.channel_id, threadTs: ts, userId: command.user_id }, [link], ['command', command.team_id, command.trigger_id], ts);
        }
        return;
      }
      const question = slackToPlain(text);
      if (!question) return void (await say('Usage: `/svc ask &lt;question&gt;`.'));
      const ts = await postRoot(client, command.team_id, command.channel_id, askedRoot(command.user_id, question), question, say);
      if (!ts) return;
      store.rememberThread(threadKey(command.team_id, command.channel_id, ts));
      store.recordFromStart(threadKey(command.team_id, command.channel_id, ts));
      await answer(
        { client, teamId: command.team_id, channel: command.channel_id, threadTs: ts, userId: command.user_id },
        { model: ASK_MODEL, messages: [{ role: 'user', content: question }], key: idempotencyKey('slack', 'command', command.team_id, command.trigger_id), what: 'Researching your question', askedTs: ts },
      );
    });
  });

  interface IncomingMessage {
    teamId: string;
    channel: string;
    ts: string;
    threadTs: string | undefined;
    userId: string;
    text: string;
    eventId: string | undefined;
  }

  /** A question or link addressed to the bot (mention, DM, or a reply in its thread). */
  async function onMessage(client: WebClient, m: IncomingMessage, bot: { userId?: string; botId?: string }): Promise<void> {
    // Slack retries a delivery it thinks failed; the same message can also arrive as a mention and a message event.
    if (m.eventId && !store.claim(`slack:event:${m.eventId}`)) return;
    if (!store.claim(`slack:message:${m.teamId}:${m.channel}:${m.ts}`)) return;
    const inThread = m.threadTs !== undefined && m.threadTs !== m.ts;
    const threadTs = inThread ? m.threadTs! : m.ts;
    // A thread that grows from this message is the bot's: its replies are answered without a
    // mention, and it is seen from its first turn. A thread of people it was called into is not.
    if (!inThread) {
      store.rememberThread(threadKey(m.teamId, m.channel, threadTs));
      store.recordFromStart(threadKey(m.teamId, m.channel, threadTs));
    }
    const c: Conversation = { client, teamId: m.teamId, channel: m.channel, threadTs, userId: m.userId };
    const links = findKalshiEventLinks(m.text);
    // A question beside a link is answered (the research agent reads the link too), not replaced by a report.
    if (links.length && !asksBesideLinks(m.text)) return reports(c, links, ['message', m.teamId, m.channel, m.ts], m.ts);
    const question = slackToPlain(m.text, bot.userId);
    if (!question) {
      await post(client, m.teamId, { channel: m.channel, thread_ts: threadTs, text: HELP });
      return;
    }
    const earlier = inThread ? await history(client, m, threadTs, bot) : [];
    await answer(c, {
      model: ASK_MODEL,
      messages: [...earlier, { role: 'user', content: question }],
      key: idempotencyKey('slack', 'message', m.teamId, m.channel, m.ts),
      what: 'Researching your question',
      askedTs: m.ts,
    });
  }

  /**
   * A person edited a message (`message_changed` with `edited`): when it is the latest question svc
   * answered in a thread of its own or a DM, and its text changed, it is answered again in the
   * answer's messages, and the thread goes on from the edited question.
   */
  async function onEdit(client: WebClient, m: IncomingMessage & { editedTs: string }, bot: { userId?: string; botId?: string }): Promise<void> {
    const answered = store.answerMessages(editKey(m.teamId, m.channel, m.ts));
    // Not answered: an edit that adds the forgotten @svc to a message just sent (Slack sends no
    // app_mention for it) makes it one for svc, answered as if sent so (once: its ts is claimed).
    if (!answered) {
      const mentions = bot.userId !== undefined && m.text.includes(`<@${bot.userId}>`);
      if (mentions && clock.now() - Number(m.ts.split('.')[0]) * 1000 < EDIT_TO_ASK_MS) await onMessage(client, { ...m, eventId: undefined }, bot);
      return;
    }
    const { conversation } = answered;
    // The answer to the message itself may still be being written: the edit comes after it.
    await writing.through(conversation, m.ts);
    const recorded = store.answerMessages(editKey(m.teamId, m.channel, m.ts))!;
    const question = slackToPlain(m.text, bot.userId);
    const asked = store.turnAt(conversation, turnSeq(m.ts));
    // Unchanged (a link preview added), emptied, or a question that later ones built on: left alone.
    if (!question || question === asked?.content || store.hasTurnsAfter(conversation, turnSeq(m.ts, true))) return;
    // A link alone is now a report request, which an edit does not make (reports cost credits).
    if (findKalshiEventLinks(m.text).length && !asksBesideLinks(m.text)) return;
    if (!store.claim(`slack:edit:${m.teamId}:${m.channel}:${m.ts}:${m.editedTs}`)) return;
    // From here (no wait before it) a later edit, or a reply, waits for this answer.
    const running = writing.start(conversation, m.ts);
    const inThread = m.threadTs !== undefined && m.threadTs !== m.ts;
    const threadTs = inThread ? m.threadTs! : m.ts;
    let earlier: Turn[] = [];
    try {
      earlier = inThread ? await history(client, m, threadTs, bot) : [];
    } catch (err) {
      running.end();
      throw err;
    }
    log.info({ channel: m.channel, thread: threadTs }, 'a question was edited; answering it again');
    await answer(
      { client, teamId: m.teamId, channel: m.channel, threadTs, userId: m.userId },
      {
        model: ASK_MODEL,
        messages: [...earlier, { role: 'user', content: question }],
        key: idempotencyKey('slack', 'message', m.teamId, m.channel, m.ts, 'edited', m.editedTs),
        what: 'Researching your edited question',
        askedTs: m.ts,
        adopt: recorded.ids,
      },
      running,
    );
  }

  app.event('app_mention', async ({ event, body, context, client }) => {
    if (!event.user || event.bot_id) return;
    const incoming: IncomingMessage = { teamId: body.team_id, channel: event.channel, ts: event.ts, threadTs: event.thread_ts, userId: event.user, text: event.text, eventId: body.event_id };
    track('mention', () => onMessage(client, incoming, { userId: context.botUserId, botId: context.botId }));
  });

  app.event('message', async ({ event, body, context, client }) => {
    if (event.subtype === 'message_changed') {
      const changed = event as { channel: string; message?: { user?: string; bot_id?: string; text?: string; ts?: string; thread_ts?: string; edited?: { ts?: string } } };
      const e = changed.message;
      // Only a person's edit: the bot's own edits, and link previews Slack adds, come as message_changed too (without `edited`).
      if (!e?.user || e.bot_id || e.user === context.botUserId || !e.text || !e.ts || !e.edited?.ts) return;
      const incoming = { teamId: body.team_id, channel: changed.channel, ts: e.ts, threadTs: e.thread_ts, userId: e.user, text: e.text, eventId: body.event_id, editedTs: e.edited.ts };
      track('edit', () => onEdit(client, incoming, { userId: context.botUserId, botId: context.botId }));
      return;
    }
    if (event.subtype !== undefined && event.subtype !== 'thread_broadcast' && event.subtype !== 'file_share') return;
    const e = event as { user?: string; bot_id?: string; text?: string; ts: string; thread_ts?: string; channel: string; channel_type?: string };
    if (!e.user || e.bot_id || e.user === context.botUserId || !e.text) return;
    const isDm = e.channel_type === 'im';
    // In channels a mention arrives as app_mention too; that one is answered.
    if (!isDm && context.botUserId && e.text.includes(`<@${context.botUserId}>`)) return;
    const inKnownThread = e.thread_ts !== undefined && e.thread_ts !== e.ts && store.isKnownThread(threadKey(body.team_id, e.channel, e.thread_ts));
    if (!isDm && !inKnownThread) return;
    const incoming: IncomingMessage = { teamId: body.team_id, channel: e.channel, ts: e.ts, threadTs: e.thread_ts, userId: e.user, text: e.text, eventId: body.event_id };
    track('message', () => onMessage(client, incoming, { userId: context.botUserId, botId: context.botId }));
  });

  app.error(async (err) => {
    log.error({ err }, 'slack app error');
  });

  return {
    app,
    async start() {
      try {
        if (settings.mode === 'socket') {
          await app.start();
          return {};
        }
        const server = (await app.start({ port: settings.port, host: settings.host })) as import('node:http').Server;
        return { port: (server.address() as AddressInfo).port };
      } catch (err) {
        // What an operator can fix, said in one line, not as a crash.
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES') throw new AdapterStartupError(`cannot listen on ${settings.host}:${settings.port} (${code}): set SVC_SLACK_PORT or SVC_SLACK_HOST to a free address`);
        const slack = slackErrorCode(err);
        if (slack && settings.mode === 'socket') throw new AdapterStartupError(`Slack refused SLACK_APP_TOKEN (${slack}): check the app-level token (xapp-…, with connections:write)`);
        throw err;
      }
    },
    stop(graceMs = settings.stopGraceMs) {
      stopping ??= (async () => {
        await app.stop();
        await settleWithin(inflight, graceMs);
        shutdown.abort();
        // Stopped answers write their "restarted" note: a few edits.
        await settleWithin(inflight, 5_000);
      })();
      return stopping;
    },
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  };
}
