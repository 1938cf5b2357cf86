import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TextChannel } from 'discord.js';
import pino from 'pino';
import { createAdapterLogger, scrubSecrets } from '../../../adapters/shared/log.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../adapters/discord/bot.js';
import { main as discordMain } from '../../../adapters/discord/main.js';
import { registerCommands } from '../../../adapters/discord/commands.js';
import { CONTINUED_BELOW, STREAMING_MARK } from '../../../adapters/discord/texts.js';
import { ResearchClient } from '../../../adapters/shared/api-client.js';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { systemClock, type Clock } from '../../../adapters/shared/clock.js';
import { loadDiscordSettings, type DiscordSettings } from '../../../adapters/shared/config.js';
import type { Logger } from '../../../adapters/shared/log.js';
import { AdapterStore } from '../../../adapters/shared/store.js';
import { convertTables } from '../../../adapters/shared/tables.js';
import type { StartOptions, TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { CITATIONS, longReport, namedFeed, newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { RequestsInFlight, runClockUntil } from '../helpers/requests-in-flight.js';
import { busiestWindow } from '../helpers/windows.js';
import { ANA, APP_ID, BOT, CHANNEL, FakeDiscord, GUILD, OTHER_BOT, type FakeMessage } from './fake-discord.js';

interface Harness {
  service: TestService;
  discord: FakeDiscord;
  bot: DiscordBot;
  store: AdapterStore;
  settings: DiscordSettings;
  close(): Promise<void>;
}

let h: Harness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The real clock, except that a test can move it forward at once (timers still run in real time). */
class JumpingClock implements Clock {
  #offset = 0;
  now = () => Date.now() + this.#offset;
  setTimeout = systemClock.setTimeout;
  clearTimeout = systemClock.clearTimeout;

  jump(ms: number): void {
    this.#offset += ms;
  }
}

/** Keep the adapter's rate budget (its default); otherwise there is practically none, so tests on the real clock finish quickly. */
async function start(opts: { agents?: StartOptions['agents']; editIntervalMs?: number; clock?: Clock; rateBudget?: boolean; log?: Logger } = {}): Promise<Harness> {
  log = newAgentLog();
  const service = await startService({ agents: opts.agents ?? researchAgents(log) });
  const account = await service.account({ plan: 'pro', credits: 100 });
  const clock = opts.clock ?? systemClock;
  const discord = await new FakeDiscord({ now: () => clock.now() }).start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-discord-'));
  const base = loadDiscordSettings({
    SVC_API_URL: service.url,
    SVC_API_KEY: account.apiKey,
    DISCORD_TOKEN: 'discord-test-token',
    DISCORD_APPLICATION_ID: APP_ID,
    SVC_DISCORD_API_URL: `${discord.url}/api`,
    SVC_ADAPTER_DATA_DIR: dataDir,
    SVC_LOG_LEVEL: 'silent',
  });
  // Below the production minimum so tests on the real clock finish quickly; the 429 test uses 1200.
  const settings: DiscordSettings = { ...base, editIntervalMs: opts.editIntervalMs ?? 50, sendRate: opts.rateBudget ? base.sendRate : { count: 10_000, perMs: 1000 } };
  const store = AdapterStore.open(dataDir, undefined);
  const bot = createDiscordBot({
    settings,
    store,
    research: new ResearchClient({ baseUrl: service.url, apiKey: account.apiKey, maxRetries: 0, linkHint: '/svc link key:', shared: 'server' }),
    log: opts.log ?? pino({ level: process.env.SVC_TEST_ADAPTER_LOG ?? 'silent' }),
    clock,
  });
  await bot.start();
  h = {
    service,
    discord,
    bot,
    store,
    settings,
    async close() {
      await bot.stop(1000);
      store.close();
      await discord.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}

const until = (check: () => void, timeout = 20_000) => vi.waitFor(check, { timeout, interval: 20 });

/** Waits for an answer's final state: the sources footer (or a warning) is in the last message, and nothing is in flight. */
async function finished(channelId: string): Promise<string[]> {
  await until(() => {
    const texts = h!.discord.shown(channelId).filter((m) => m.author.id === BOT.id).map((m) => m.content);
    expect(texts.at(-1) ?? '').toMatch(/\*\*Sources\*\*|⚠️/);
  });
  await h!.bot.idle();
  return h!.discord.shown(channelId).filter((m) => m.author.id === BOT.id).map((m) => m.content);
}

const withoutFenceLines = (s: string) =>
  s
    .split('\n')
    .filter((l) => !l.startsWith('```'))
    .join('\n');

const LINK = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';

describe('Discord: pasted Kalshi links', () => {
  it('a pasted link gets a thread on the message, titled with the event, with the whole report and its sources', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, `what do you make of ${LINK} ?`);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const [thread] = h!.discord.threads();
    expect(thread).toMatchObject({ id: pasted.id, parent_id: CHANNEL, name: 'Fed meeting (KXFEDDECISION-25DEC)' });
    const texts = await finished(thread!.id);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toBe(
      convertTables('# Report for fed-meeting\n\n| Outcome | Model | Market |\n|---|---:|---:|\n| Yes | 62% | 55% |\n| No | 38% | 45% |\n\nThe market underprices *Yes* [1][2].') +
        citationFooter(CITATIONS, 'discord'),
    );
    expect(texts[0]).toContain(`[1] [${CITATIONS[0]!.name}](<${CITATIONS[0]!.url}>)`);
    const request = log.requests.at(-1)!;
    expect(request.model.id).toBe('svc-prediction-markets-agent');
    expect(request.messages).toEqual([{ role: 'user', content: LINK }]);
    expect(request.idempotencyKey).toMatch(new RegExp(`^svc:discord:message:${pasted.id}:KXFEDDECISION-25DEC@\\d+$`));
    // The status line came first, with the elapsed time.
    const first = h!.discord.callsTo('POST', new RegExp(`^/channels/${thread!.id}/messages$`))[0]!;
    expect((first.body as { content: string }).content).toMatch(/^⏳ Preparing the report on Fed meeting \(KXFEDDECISION-25DEC\)… \(0:00\)/);
    expect((first.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it('a question beside a pasted link is answered in the thread after the report, from it', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, `is Yes overpriced here? ${LINK}`);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const thread = h!.discord.threads()[0]!;
    await until(() => expect(h!.discord.shown(thread.id).filter((m) => m.content.includes('**Sources**'))).toHaveLength(2));
    await h!.bot.idle();
    const texts = h!.discord.shown(thread.id).map((m) => m.content);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Report for fed-meeting');
    expect(texts[1]).toMatch(new RegExp(`^Answer to "is Yes overpriced here\\? ${LINK.replace(/[.?]/g, '\\$&')}" \\[1\\]\\.`));
    const [report, question] = log.requests.slice(-2);
    expect(report!.model.id).toBe('svc-prediction-markets-agent');
    expect(question!.model.id).toBe('svc-agent');
    expect(question!.messages).toEqual([
      { role: 'user', content: LINK },
      { role: 'assistant', content: expect.stringContaining('# Report for fed-meeting') },
      { role: 'user', content: `is Yes overpriced here? ${LINK}` },
    ]);
    expect(question!.idempotencyKey).toMatch(new RegExp(`^svc:discord:message:${pasted.id}@\\d+$`));
    // A reply in the thread carries the report and the answer as the turn before it.
    h!.discord.userMessage(thread.id, 'and the No side?');
    await until(() => expect(h!.discord.shown(thread.id).filter((m) => m.content.includes('**Sources**'))).toHaveLength(3));
    expect(log.requests.at(-1)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(log.requests.at(-1)!.messages[1]!.content).toMatch(/# Report for fed-meeting[\s\S]*Answer to "is Yes overpriced here\?/);
  });

  it('a 9,000-character report arrives whole across messages of at most 2,000 characters', async () => {
    await start();
    h!.discord.userMessage(CHANNEL, 'https://kalshi.com/markets/kxbig/long-9000/kxbig-26');
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const texts = await finished(h!.discord.threads()[0]!.id);
    expect(texts.length).toBeGreaterThanOrEqual(5);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(2000);
    for (const t of texts) expect((t.match(/^```/gm) ?? []).length % 2).toBe(0);
    const expected = convertTables(longReport(9000, 'Report for long-9000')) + citationFooter(CITATIONS, 'discord');
    expect(withoutFenceLines(texts.join(''))).toBe(withoutFenceLines(expected));
  });

  it('several links in one message get one report each, in one thread', async () => {
    await start();
    h!.discord.userMessage(CHANNEL, `${LINK} vs https://kalshi.com/markets/kxcpi/cpi-print/kxcpi-26jan`);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const thread = h!.discord.threads()[0]!;
    expect(thread.name).toBe('Fed meeting (KXFEDDECISION-25DEC) and 1 more');
    await until(() => expect(h!.discord.shown(thread.id).filter((m) => m.content.includes('**Sources**'))).toHaveLength(2));
    const texts = h!.discord.shown(thread.id).map((m) => m.content);
    expect(texts[0]).toContain('Report for fed-meeting');
    expect(texts[1]).toContain('Report for cpi-print');
  });

  it('a report refused among several names its event, since the thread holds them all', async () => {
    await start();
    h!.discord.userMessage(CHANNEL, `${LINK} and https://kalshi.com/markets/kxnope/unknown-event/kxnope-1`);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const thread = h!.discord.threads()[0]!;
    await until(() => expect(h!.discord.shown(thread.id).map((m) => m.content)).toEqual([expect.stringContaining('**Sources**'), '**Unknown event (KXNOPE-1)**\n⚠️ No Kalshi event KXNOPE.']));
  });

  it('ignores messages without a link, links quoted as code, its own messages and other bots', async () => {
    await start();
    h!.discord.userMessage(CHANNEL, 'just chatting, no link');
    h!.discord.userMessage(CHANNEL, `why does this log say 404?\n\`\`\`\nGET ${LINK} 404\n\`\`\``);
    h!.discord.userMessage(CHANNEL, `the bot answers links like \`${LINK}\``);
    h!.discord.userMessage(CHANNEL, `a bot posting ${LINK}`, OTHER_BOT);
    h!.discord.userMessage(CHANNEL, `echo ${LINK}`, BOT);
    // A link from a person is answered: by then the messages before it were looked at.
    const sentinel = h!.discord.userMessage(CHANNEL, 'https://kalshi.com/markets/kxs/sentinel/kxs-1');
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(sentinel.id);
    expect(h!.discord.threads().map((t) => t.id)).toEqual([sentinel.id]);
    expect(log.requests).toHaveLength(1);
  });

  it('a message delivered twice is answered once', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    h!.discord.dispatch('MESSAGE_CREATE', { id: pasted.id, channel_id: CHANNEL, guild_id: GUILD, author: ANA, content: LINK, timestamp: new Date().toISOString(), edited_timestamp: null, tts: false, mention_everyone: false, mentions: [], mention_roles: [], attachments: [], embeds: [], pinned: false, type: 0, flags: 0 });
    const sentinel = h!.discord.userMessage(CHANNEL, 'https://kalshi.com/markets/kxs/sentinel/kxs-1');
    await until(() => expect(h!.discord.threads()).toHaveLength(2));
    await finished(sentinel.id);
    expect(log.requests.filter((r) => r.messages[0]!.content === LINK)).toHaveLength(1);
  });
});

describe('Discord: when no thread can be started', () => {
  const SENTINEL = 'https://kalshi.com/markets/kxs/sentinel/kxs-1';
  /** The bot's replies in the channel itself (reports go to threads). */
  const notes = () => h!.discord.callsTo('POST', new RegExp(`^/channels/${CHANNEL}/messages$`)).filter((c) => c.status === 200);
  /** The gateway delivers the message again to a process that has not cached it (discord.js drops a cached one itself), as after a restart. */
  const redeliver = (m: FakeMessage) => {
    (h!.bot.client.channels.cache.get(CHANNEL) as TextChannel).messages.cache.delete(m.id);
    h!.discord.redeliver(m);
  };

  it.each([
    [50013, 'Missing Permissions'],
    [50001, 'Missing Access'],
  ])('a 403 with %i (%s) gets a reply on the message naming the permissions needed there; a redelivery does not repeat it', async (code, message) => {
    await start();
    h!.discord.threadError = { status: 403, code, message };
    const pasted = h!.discord.userMessage(CHANNEL, `what about ${LINK}`);
    await until(() => expect(notes()).toHaveLength(1));
    const body = notes()[0]!.body as { content: string; allowed_mentions: unknown; message_reference: { message_id: string } };
    expect(body.message_reference.message_id).toBe(pasted.id);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toBe(
      `I could not start a thread for this report: I need the **Create Public Threads** and **Send Messages in Threads** permissions in <#${CHANNEL}>. Ask a server admin to give me both there, then post the link again.`,
    );
    expect(h!.discord.callsTo('POST', /\/threads$/)).toHaveLength(1); // a refusal is not retried
    // Permissions fixed; a redelivery of the same message is still not answered again (the person was told to post it again).
    h!.discord.threadError = null;
    redeliver(pasted);
    const sentinel = h!.discord.userMessage(CHANNEL, SENTINEL);
    await finished(sentinel.id);
    expect(h!.discord.threads().map((t) => t.id)).toEqual([sentinel.id]);
    expect(notes()).toHaveLength(1);
    expect(log.requests.map((r) => r.messages[0]!.content)).toEqual([SENTINEL]);
  });

  it('a server error says what went wrong, and gives the message back so a redelivery is answered', async () => {
    await start();
    h!.discord.threadError = { status: 502, code: 0, message: 'Bad Gateway' };
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(notes()).toHaveLength(1), 30_000);
    const body = notes()[0]!.body as { content: string; message_reference: { message_id: string } };
    expect(body.message_reference.message_id).toBe(pasted.id);
    expect(body.content).toBe('I could not start a thread for this report (Discord had a server error (HTTP 502)). Please post the link again in a little while; if it keeps happening, tell a server admin.');
    expect(h!.discord.threads()).toHaveLength(0);
    expect(log.requests).toHaveLength(0);
    h!.discord.threadError = null;
    redeliver(pasted);
    await until(() => expect(h!.discord.threads().map((t) => t.id)).toEqual([pasted.id]));
    expect((await finished(pasted.id)).at(-1)).toContain('**Sources**');
  });

  it('another refusal is quoted in the reply, with its code', async () => {
    await start();
    h!.discord.threadError = { status: 400, code: 160006, message: 'Maximum number of active threads reached' };
    h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(notes()).toHaveLength(1));
    expect((notes()[0]!.body as { content: string }).content).toBe(
      'I could not start a thread for this report (Discord refused it: "Maximum number of active threads reached" (error 160006)). Please post the link again in a little while; if it keeps happening, tell a server admin.',
    );
    expect(h!.discord.callsTo('POST', /\/threads$/)).toHaveLength(1); // a refusal is not retried
  });

  it('a message whose thread already exists (160004) gets its report in that thread at once, without retries', async () => {
    await start();
    // The thread was started before a restart: Discord has it, this process has not seen it.
    const starter = h!.discord.existingThread(LINK, false);
    redeliver(starter);
    await until(() => expect(h!.discord.shown(starter.id).some((m) => m.content.includes('**Sources**'))).toBe(true));
    const starts = h!.discord.callsTo('POST', /\/threads$/);
    expect(starts.map((c) => c.status)).toEqual([400]);
    expect(h!.discord.threads()).toHaveLength(1);
  });

  it('a thread started but refusing the bot\'s messages (403) gets a reply on the message naming Send Messages in Threads, at once', async () => {
    await start();
    h!.discord.threadSendError = { status: 403, code: 50013, message: 'Missing Permissions' };
    const pasted = h!.discord.userMessage(CHANNEL, `what about ${LINK}`);
    await until(() => expect(notes()).toHaveLength(1));
    expect(h!.discord.threads().map((t) => t.id)).toEqual([pasted.id]);
    const body = notes()[0]!.body as { content: string; allowed_mentions: unknown; message_reference: { message_id: string } };
    expect(body.message_reference.message_id).toBe(pasted.id);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toBe(
      `I started a thread for this report but cannot write in it: I need the **Send Messages in Threads** permission in <#${CHANNEL}>. Ask a server admin to give it to me there, then post the link again.`,
    );
    await h!.bot.idle();
    expect(h!.discord.callsTo('POST', new RegExp(`^/channels/${pasted.id}/messages$`))).toHaveLength(1); // one refused post, not retried
  });

  it("an interaction's token never reaches the logs, nor an answer's text (a reply deleted mid-answer makes an edit fail)", async () => {
    const lines: string[] = [];
    await start({ log: createAdapterLogger('discord', 'warn', { write: (line: string) => void lines.push(line) }) });
    const { token } = h!.discord.slashCommand('ask', { question: 'feed: a question' });
    log.feed.text('The first half of the answer,');
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toBe(`The first half of the answer,${STREAMING_MARK}`));
    h!.discord.interactionReplies(token)[0]!.deleted = true; // someone deletes the reply
    log.feed.text(' and the second half [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await until(() => expect(lines.length).toBeGreaterThan(0));
    await h!.bot.idle();
    expect(lines.join('\n')).toContain('discord message update failed');
    expect(lines.join('\n')).toContain('/webhooks/');
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
    expect(lines.filter((l) => l.includes('second half'))).toEqual([]);
    // Slack's response_url is a secret in a URL too.
    expect(scrubSecrets('POST https://hooks.slack.com/commands/T0001/1234/AbCdEf failed')).toBe('POST https://hooks.slack.com/commands/[redacted] failed');
  });

  it('a message Discord created but whose answer was lost (500) is not posted twice: every attempt carries one nonce Discord enforces', async () => {
    await start();
    h!.discord.sendsStoredThenFailed = 1;
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const texts = await finished(pasted.id);
    expect(texts.map((t) => t.slice(0, 60))).toEqual([expect.stringContaining('Report for fed-meeting')]);
  });

  it('when even the reply cannot be sent, the log says so', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    await start({ log: pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    h!.discord.threadError = { status: 403, code: 50013, message: 'Missing Permissions' };
    h!.discord.sendError = { status: 403, code: 50013, message: 'Missing Permissions' };
    h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(lines.map((l) => l.msg)).toContain('could not start a thread for a report, nor reply to say so'));
    expect(lines.find((l) => l.msg === 'could not start a thread for a report, nor reply to say so')!.level).toBe(50); // error
    expect(h!.discord.callsTo('POST', new RegExp(`^/channels/${CHANNEL}/messages$`))).toHaveLength(1); // one refused attempt, not retried
  });
});

describe('Discord: thread follow-ups', () => {
  it('a reply in the bot\'s thread carries the earlier turns', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    h!.discord.userMessage(pasted.id, `<@${BOT.id}> why is **Yes** underpriced?`);
    await until(() => expect(h!.discord.shown(pasted.id).filter((m) => m.author.id === BOT.id && m.content.includes('Sources'))).toHaveLength(2));
    const followUp = log.requests.at(-1)!;
    expect(followUp.model.id).toBe('svc-agent');
    expect(followUp.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(followUp.messages[0]!.content).toBe(LINK);
    expect(followUp.messages[1]!.content).toContain('The market underprices *Yes* [1][2].');
    expect(followUp.messages[2]!.content).toBe('why is **Yes** underpriced?');
    expect(followUp.idempotencyKey).toMatch(/^svc:discord:message:\d+@\d+$/);
    // A question beside another link, in the thread: answered with the thread's turns, the link in it, not a new report.
    const other = 'https://kalshi.com/markets/kxb/beta/kxb-2';
    h!.discord.userMessage(pasted.id, `How does this compare with ${other}? Which is mispriced more?`);
    await until(() => expect(log.requests).toHaveLength(3));
    const compared = log.requests.at(-1)!;
    expect(compared.model.id).toBe('svc-agent');
    expect(compared.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(compared.messages.at(-1)!.content).toBe(`How does this compare with ${other}? Which is mispriced more?`);
  });
});

describe('Discord: thread conversations', () => {
  const REPORT_MARKDOWN = '# Report for fed-meeting\n\n| Outcome | Model | Market |\n|---|---:|---:|\n| Yes | 62% | 55% |\n| No | 38% | 45% |\n\nThe market underprices *Yes* [1][2].';

  it('in a thread the bot started, follow-ups carry the turns as the service wrote them: no sources footer, tables as Markdown, no ⚠️ notes', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    h!.discord.userMessage(pasted.id, 'please break');
    await until(() => expect(h!.discord.shown(pasted.id).some((m) => m.author.id === BOT.id && m.content.includes('⚠️'))).toBe(true));
    await h!.bot.idle();
    h!.discord.userMessage(pasted.id, 'and now?');
    await until(() => expect(log.requests).toHaveLength(3));
    await h!.bot.idle();
    expect(log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: LINK },
      { role: 'assistant', content: REPORT_MARKDOWN },
      { role: 'user', content: 'please break' },
      { role: 'user', content: 'and now?' },
    ]);
    // Recorded turns: Discord's history was not read.
    expect(h!.discord.calls.filter((c) => c.method === 'GET' && c.path.includes('/messages'))).toEqual([]);
  });

  it('a follow-up sent while an answer is still being written waits for it, and carries it whole', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    h!.discord.userMessage(pasted.id, 'feed: a long one');
    const long = Array.from({ length: 10 }, (_, i) => `Paragraph ${i}: ${'the market moved on the news and the model followed. '.repeat(5)}`).join('\n\n');
    log.feed.text(long);
    await until(() => expect(h!.discord.shown(pasted.id).filter((m) => m.author.id === BOT.id)).toHaveLength(3));
    h!.discord.userMessage(pasted.id, 'meanwhile, another question');
    await new Promise((r) => setTimeout(r, 500));
    expect(log.requests).toHaveLength(2); // not asked yet: the answer before it is still being written
    log.feed.text(' The end.');
    log.feed.done([]);
    await until(() => expect(log.requests).toHaveLength(3));
    await h!.bot.idle();
    expect(log.requests.at(-1)!.messages.slice(2)).toEqual([
      { role: 'user', content: 'feed: a long one' },
      { role: 'assistant', content: `${long} The end.` },
      { role: 'user', content: 'meanwhile, another question' },
    ]);
  });

  it('in a thread of the bot\'s it has no record of, Discord\'s history is read without sources footers and ⚠️ notes', async () => {
    await start();
    const starter = h!.discord.existingThread(LINK);
    h!.discord.botMessage(starter.id, `The earlier report.${citationFooter(CITATIONS, 'discord')}`);
    h!.discord.userMessage(starter.id, 'why?');
    await until(() => expect(log.requests).toHaveLength(1));
    await h!.bot.idle();
    h!.discord.botMessage(starter.id, 'The first half of the answer\n\n⚠️ The answer was interrupted before it finished: The SEC did not answer.');
    h!.discord.userMessage(starter.id, 'and now?');
    await until(() => expect(log.requests).toHaveLength(2));
    await h!.bot.idle();
    // The answer to "why?" is Discord's own message here; the one read back is the bot's answer as shown, without its sources.
    expect(log.requests[0]!.messages).toEqual([
      { role: 'user', content: LINK },
      { role: 'assistant', content: 'The earlier report.' },
      { role: 'user', content: 'why?' },
    ]);
    expect(log.requests[1]!.messages).toEqual([
      { role: 'user', content: LINK },
      { role: 'assistant', content: 'The earlier report.' },
      { role: 'user', content: 'why?' },
      { role: 'assistant', content: 'Answer to "why?" [1].\n\nThe first half of the answer' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('a 429 while reading the thread is waited out (retry_after): the follow-up still carries the earlier turns', async () => {
    await start();
    const starter = h!.discord.existingThread(LINK);
    h!.discord.botMessage(starter.id, 'The earlier report.');
    h!.discord.readRateLimits = 2;
    h!.discord.userMessage(starter.id, 'why?');
    await until(() => expect(log.requests).toHaveLength(1));
    await h!.bot.idle();
    expect(log.requests[0]!.messages).toEqual([
      { role: 'user', content: LINK },
      { role: 'assistant', content: 'The earlier report.' },
      { role: 'user', content: 'why?' },
    ]);
    const reads = h!.discord.calls.filter((c) => c.method === 'GET' && c.path.includes('/messages'));
    expect(reads.filter((c) => c.status === 429)).toHaveLength(2);
    expect(reads.filter((c) => c.status === 200)).toHaveLength(2);
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(900);
  });
});

describe('Discord: rate limits', () => {
  it('honours a 429 on an edit (waits retry_after) and the final edit lands', async () => {
    await start({ editIntervalMs: 1200 });
    h!.discord.rateLimitEdits = [2.5];
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    const texts = await finished(pasted.id);
    expect(texts[0]).toContain('**Sources**');
    const edits = h!.discord.callsTo('PATCH', new RegExp(`^/channels/${pasted.id}/messages/\\d+$`));
    const limited = edits.findIndex((c) => c.status === 429);
    expect(limited).toBeGreaterThanOrEqual(0);
    const next = edits[limited + 1]!;
    expect(next.status).toBe(200);
    expect(next.at - edits[limited]!.at).toBeGreaterThanOrEqual(2500);
    for (let i = 1; i < edits.length; i++) expect(edits[i]!.at - edits[i - 1]!.at).toBeGreaterThanOrEqual(1000); // 1200 in the adapter; loopback jitter allowed
    // The gateway session stayed up meanwhile: heartbeats were sent and acknowledged.
    expect(h!.discord.heartbeats).toBeGreaterThan(0);
    expect(h!.bot.client.ws.ping).toBeGreaterThanOrEqual(0);
  });
});

describe('Discord: edits Discord refuses', () => {
  it.each([
    [403, 50013, 'Missing Permissions'],
    [404, 10008, 'Unknown Message'],
  ])('an edit refused with %i (%i %s) is never tried again: not while the answer streams, nor at its end', async (status, code, message) => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    h!.discord.userMessage(pasted.id, 'feed: slow');
    log.feed.text('First words');
    await until(() => expect(h!.discord.shown(pasted.id).some((m) => m.author.id === BOT.id && m.content.startsWith('First words'))).toBe(true));
    h!.discord.editError = { status, code, message };
    log.feed.text(' and more');
    await new Promise((r) => setTimeout(r, 1500)); // 30 edit intervals with an update waiting
    log.feed.text(' and the end.');
    log.feed.done([]);
    await h!.bot.idle();
    expect(h!.discord.calls.filter((c) => c.method === 'PATCH' && c.status === status)).toHaveLength(1);
  });
});

describe('Discord: one rate budget for every answer', () => {
  it('five answers streaming at once into one thread keep to 5 sends and edits per 5 s there, each arrives whole, no 429', async () => {
    const clock = new FakeClock(Date.now());
    await start({ clock, editIntervalMs: 1200, rateBudget: true });
    h!.discord.sendLimit = { count: 5, perMs: 5000 }; // Discord's per-channel figure, as the adapter's default assumes it
    const requests = new RequestsInFlight(h!.discord.url);
    try {
      // A thread of the bot's: the one it starts for a pasted link.
      const pasted = h!.discord.userMessage(CHANNEL, LINK);
      await runClockUntil(clock, requests, () => h!.discord.shown(pasted.id).some((m) => m.content.includes('**Sources**')));
      const thread = pasted.id;

      const names = ['a1', 'a2', 'a3', 'a4', 'a5'];
      for (const name of names) h!.discord.userMessage(thread, `<@${BOT.id}> feed ${name}: go`);
      const texts = new Map(names.map((name) => [name, '']));
      for (let k = 0; k < 15; k++) {
        for (const name of names) {
          const piece = `${k ? '\n\n' : ''}Answer ${name}, paragraph ${k}: ${'the market moved on the news and the model followed. '.repeat(3)}[1]`;
          texts.set(name, texts.get(name)! + piece);
          namedFeed(log, name).text(piece);
        }
        await clock.advance(1000, () => requests.drained());
      }
      for (const name of names) namedFeed(log, name).done(CITATIONS.slice(0, 1));
      const expected = (name: string) => texts.get(name)! + citationFooter(CITATIONS.slice(0, 1), 'discord');
      /** An answer's messages in the thread, oldest first (each part begins inside one of its paragraphs). */
      const partsOf = (name: string) => h!.discord.shown(thread).filter((m) => m.author.id === BOT.id && /Answer (a\d),/.exec(m.content)?.[1] === name);
      const shown = (name: string) => partsOf(name).map((m) => m.content).join('');
      await runClockUntil(clock, requests, () => names.every((name) => shown(name) === expected(name)));

      for (const name of names) {
        expect(shown(name)).toBe(expected(name));
        expect(partsOf(name)).toHaveLength(2); // past 2,000 characters: a second message was sent
      }
      const sendsAndEdits = h!.discord.calls.filter((c) => (c.method === 'POST' && c.path === `/channels/${thread}/messages`) || (c.method === 'PATCH' && c.path.startsWith(`/channels/${thread}/messages/`)));
      expect(sendsAndEdits.length).toBeGreaterThan(5); // more than one window's worth: the budget had to spread them out
      expect(busiestWindow(sendsAndEdits.map((c) => c.at), 5000)).toBeLessThanOrEqual(5);
      expect(h!.discord.calls.filter((c) => c.status === 429)).toEqual([]);
      // The answers streamed: messages were sent or edited with text still coming, not only at the end.
      const interim = sendsAndEdits.filter((c) => String((c.body as { content?: unknown }).content).endsWith(STREAMING_MARK));
      expect(interim.length).toBeGreaterThanOrEqual(names.length);
    } finally {
      requests.close();
    }
  });
});

describe('Discord: slash commands', () => {
  it('/svc ask is deferred, then answered in the reply', async () => {
    await start();
    const { token } = h!.discord.slashCommand('ask', { question: 'What did the Fed decide?' });
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toContain('**Sources**'));
    expect(h!.discord.interactionCallbacks).toEqual([expect.objectContaining({ token, type: 5 })]);
    const [reply] = h!.discord.interactionReplies(token);
    expect(reply!.content).toBe(`Answer to "What did the Fed decide?" [1].${citationFooter(CITATIONS.slice(0, 1), 'discord')}`);
    const callback = h!.discord.interactionCallbacks[0]!;
    const firstEdit = h!.discord.callsTo('PATCH', /\/messages\/@original$/)[0]!;
    expect(callback.at).toBeLessThanOrEqual(firstEdit.at);
    expect(log.requests.at(-1)!.idempotencyKey).toMatch(/^svc:discord:interaction:\d+@\d+$/);
  });

  it("/svc ask in one of the bot's threads continues its conversation, and a later reply there carries it", async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await finished(pasted.id);
    const { token } = h!.discord.slashCommand('ask', { question: 'why is Yes underpriced?' }, pasted.id);
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toContain('**Sources**'));
    const asked = log.requests.at(-1)!;
    expect(asked.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(asked.messages[0]!.content).toBe(LINK);
    expect(asked.messages[2]!.content).toBe('why is Yes underpriced?');
    h!.discord.userMessage(pasted.id, 'and the No side?');
    await until(() => expect(log.requests).toHaveLength(3));
    expect(log.requests.at(-1)!.messages.map((m) => m.content).slice(2)).toEqual(['why is Yes underpriced?', 'Answer to "why is Yes underpriced?" [1].', 'and the No side?']);
  });

  it('/svc report streams a long report into the reply and follow-ups', async () => {
    await start();
    const { token } = h!.discord.slashCommand('report', { url: 'https://kalshi.com/markets/kxbig/long-5000/kxbig-26' });
    await until(() => expect(h!.discord.interactionReplies(token).at(-1)?.content).toContain('**Sources**'));
    await h!.bot.idle();
    const replies = h!.discord.interactionReplies(token);
    expect(replies.every((m) => (m.flags & 128) === 0)).toBe(true); // the deferred "thinking…" became the report's first part
    const texts = replies.map((m) => m.content);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(2000);
    const expected = convertTables(longReport(5000, 'Report for long-5000')) + citationFooter(CITATIONS, 'discord');
    expect(withoutFenceLines(texts.join(''))).toBe(withoutFenceLines(expected));
  });

  it('/svc report without a Kalshi link answers privately, without deferring', async () => {
    await start();
    h!.discord.slashCommand('report', { url: 'https://example.com' });
    await until(() => expect(h!.discord.interactionCallbacks).toHaveLength(1));
    expect(h!.discord.interactionCallbacks[0]!.type).toBe(4);
    const body = h!.discord.callsTo('POST', /\/callback$/)[0]!.body as { data: { content: string; flags: number } };
    expect(body.data.content).toMatch(/not a Kalshi event link/);
    expect(body.data.flags & 64).toBe(64);
  });

  it('errors are specific: a plan that cannot generate reports', async () => {
    await start();
    const { token } = h!.discord.slashCommand('report', { url: 'https://kalshi.com/markets/kx/free-plan/kx-1' });
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toMatch(/^\*\*Free plan \(KX-1\)\*\*\n⚠️ Generating new reports needs the Plus, Pro or Enterprise plan, and this server's account is not on one.*`\/svc link key:`/));
  });

  it('/svc link binds the person\'s own key, privately', async () => {
    await start();
    const own = await h!.service.account({ plan: 'plus', credits: 4, email: 'ana@example.com' });
    const { token } = h!.discord.slashCommand('link', { key: own.apiKey });
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toMatch(/Linked: .*ana@example.com, plan \*\*plus\*\*, 4 credits/));
    expect(h!.discord.interactionCallbacks[0]).toMatchObject({ type: 5 });
    expect((h!.discord.callsTo('POST', /\/callback$/)[0]!.body as { data: { flags: number } }).data.flags & 64).toBe(64);
    h!.discord.slashCommand('ask', { question: 'mine?' });
    await until(() => expect(log.requests).toHaveLength(1));
    expect(log.requests[0]!.caller.accountId).toBe(own.id);
  });
});

describe('Discord: slash command answers that outlive the interaction token', () => {
  /** Markdown paragraphs numbered `from` to `to - 1`, each about 190 characters. */
  const paragraphs = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `Paragraph ${from + i} of the slow answer: ${'the market moved on the news '.repeat(5).trim()} [1].`).join('\n\n');
  const webhookCalls = () => h!.discord.calls.filter((c) => c.path.startsWith('/webhooks/'));
  /** The bot's messages in the channel as people read them, oldest first, without the pointer left in the reply. */
  const readable = () =>
    h!.discord
      .shown(CHANNEL)
      .filter((m) => m.author.id === BOT.id && m.content !== CONTINUED_BELOW)
      .map((m) => m.content);

  it('past 14.5 minutes the answer continues in channel messages, whole, in order and with its sources', async () => {
    const clock = new JumpingClock();
    await start({ clock });
    const { token } = h!.discord.slashCommand('ask', { question: 'feed: a slow question' });
    // Two parts so far: the deferred original and a follow-up that is still growing.
    log.feed.text(paragraphs(0, 14));
    await until(() => expect(h!.discord.interactionReplies(token).map((m) => m.content).join('')).toBe(paragraphs(0, 14) + STREAMING_MARK));
    expect(h!.discord.interactionReplies(token)).toHaveLength(2);

    clock.jump(14 * 60_000 + 40_000); // Discord still takes the token for 20 s, but the reply stops relying on it
    log.feed.text(`\n\n${paragraphs(14, 16)}`);
    await until(() => expect(h!.discord.interactionReplies(token).map((m) => m.content)).toContain(CONTINUED_BELOW));
    const channelMessages = () => h!.discord.shown(CHANNEL).filter((m) => m.author.id === BOT.id && !m.interaction_token);
    await until(() => expect(channelMessages()[0]?.content).toContain('Paragraph 15 of the slow answer'));

    clock.jump(60_000); // the token has expired: everything from here is sent with the bot token
    const callsBefore = h!.discord.calls.length;
    log.feed.text(`\n\n${paragraphs(16, 26)}`);
    log.feed.done(CITATIONS);
    await finished(CHANNEL);

    const expected = paragraphs(0, 26) + citationFooter(CITATIONS, 'discord');
    const texts = readable();
    expect(texts.join('')).toBe(expected);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(2000);
    // The growing follow-up moved to the channel, and the answer's third part was posted there too.
    expect(channelMessages().length).toBeGreaterThanOrEqual(2);
    expect(channelMessages().at(-1)!.content).toContain('**Sources**');
    expect(h!.discord.calls.slice(callsBefore).filter((c) => c.path.startsWith('/webhooks/'))).toEqual([]);
    expect(webhookCalls().every((c) => c.status < 400)).toBe(true);
    expect(h!.discord.callsTo('PATCH', new RegExp(`^/channels/${CHANNEL}/messages/\\d+$`)).length).toBeGreaterThan(0);
  });

  it('Discord refusing the token (50027) on an edit moves the answer to a channel message the same way', async () => {
    await start();
    const { token } = h!.discord.slashCommand('ask', { question: 'feed: a refused token' });
    log.feed.text('The first half of the answer,');
    await until(() => expect(h!.discord.interactionReplies(token)[0]?.content).toBe(`The first half of the answer,${STREAMING_MARK}`));
    h!.discord.refusedTokens.add(token);
    log.feed.text(' and the second half [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await finished(CHANNEL);

    const inChannel = h!.discord.shown(CHANNEL).filter((m) => m.author.id === BOT.id && !m.interaction_token);
    expect(inChannel.map((m) => m.content)).toEqual([`The first half of the answer, and the second half [1].${citationFooter(CITATIONS.slice(0, 1), 'discord')}`]);
    // Refused once, then the token is not tried again; the original could not be changed.
    const refused = webhookCalls().filter((c) => c.status === 401);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ method: 'PATCH', path: `/webhooks/${APP_ID}/${token}/messages/@original` });
    expect(webhookCalls().at(-1)).toBe(refused[0]);
    expect(h!.discord.interactionReplies(token)[0]!.content).toBe(`The first half of the answer,${STREAMING_MARK}`);
  });
});

describe('Discord: a gateway session Discord ends for good', () => {
  /** Settings for a bot that only meets the fake Discord (no service behind it). */
  const env = (discord: FakeDiscord, dataDir: string) => ({
    SVC_API_URL: 'http://127.0.0.1:9',
    SVC_API_KEY: 'sk-unused',
    DISCORD_TOKEN: 'discord-test-token',
    DISCORD_APPLICATION_ID: APP_ID,
    SVC_DISCORD_API_URL: `${discord.url}/api`,
    SVC_ADAPTER_DATA_DIR: dataDir,
    SVC_LOG_LEVEL: 'silent',
  });

  it('a close with 4004 later on is logged once, saying the token was reset, and the bot stops', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    await start({ log: pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    h!.discord.closeSessions(4004);
    const reason = await h!.bot.ended;
    expect(reason).toMatch(/authentication failed \(close code 4004\)\. The bot token was reset/);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toContain('The bot token was reset');
    expect(h!.bot.client.isReady()).toBe(false);
  });

  it('`svc discord` exits non-zero when Discord ends the session (4014: Message Content Intent)', async () => {
    const discord = await new FakeDiscord().start();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-discord-'));
    try {
      for (const [k, v] of Object.entries(env(discord, dataDir))) vi.stubEnv(k, v);
      const exit = discordMain();
      await until(() => expect(discord.heartbeats).toBeGreaterThan(0));
      discord.closeSessions(4014);
      expect(await exit).toBe(1);
    } finally {
      vi.unstubAllEnvs();
      await discord.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('at start-up, a 4014 close says to enable the Message Content Intent in the Developer Portal', async () => {
    const discord = await new FakeDiscord().start();
    discord.closeOnIdentify = 4014;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-discord-'));
    const store = AdapterStore.open(dataDir, undefined);
    try {
      const bot = createDiscordBot({ settings: loadDiscordSettings(env(discord, dataDir)), store, research: new ResearchClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-unused' }), log: pino({ level: 'silent' }) });
      const err = await bot.start().then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/Enable the Message Content Intent in the Discord Developer Portal \(your application, Bot page/);
      expect(err?.message).not.toMatch(/cannot reach Discord/);
    } finally {
      store.close();
      await discord.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('Discord: command registration', () => {
  it('registers /svc with its subcommands for a guild or globally', async () => {
    await start();
    expect(await registerCommands(h!.settings, GUILD)).toEqual({ scope: 'guild', names: ['svc'] });
    expect(await registerCommands(h!.settings)).toEqual({ scope: 'global', names: ['svc'] });
    expect(h!.discord.commands.map((c) => c.path)).toEqual([`/applications/${APP_ID}/guilds/${GUILD}/commands`, `/applications/${APP_ID}/commands`]);
    const [svc] = h!.discord.commands[0]!.body as Array<{ name: string; options: Array<{ name: string; options?: Array<{ name: string; required: boolean }> }> }>;
    expect(svc!.options.map((o) => o.name)).toEqual(['ask', 'report', 'link', 'unlink', 'help']);
    expect(svc!.options[0]!.options).toEqual([expect.objectContaining({ name: 'question', required: true })]);
    expect(svc!.options[1]!.options).toEqual([expect.objectContaining({ name: 'url', required: true })]);
  });
});
