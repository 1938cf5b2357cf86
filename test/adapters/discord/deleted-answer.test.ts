import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../adapters/discord/bot.js';
import { GONE_NOTE, STREAMING_MARK } from '../../../adapters/discord/texts.js';
import { ResearchClient } from '../../../adapters/shared/api-client.js';
import { citationFooter } from '../../../adapters/shared/citations.js';
import { systemClock } from '../../../adapters/shared/clock.js';
import { loadDiscordSettings, type DiscordSettings } from '../../../adapters/shared/config.js';
import { AdapterStore } from '../../../adapters/shared/store.js';
import { startService, type TestService } from '../../helpers/service.js';
import { CITATIONS, newAgentLog, researchAgents, type AgentLog } from '../helpers/agents.js';
import { APP_ID, BOT, CHANNEL, FakeDiscord } from './fake-discord.js';

// Someone deletes the bot's answer message while the answer streams into it (the edit answers
// 404 Unknown Message, code 10008): the adapter stops editing it and posts the answer again in the
// thread under a note saying why, as the Slack adapter does.

interface Harness {
  service: TestService;
  discord: FakeDiscord;
  bot: DiscordBot;
  close(): Promise<void>;
}

let h: Harness | undefined;
let log: AgentLog;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<Harness> {
  log = newAgentLog();
  const service = await startService({ agents: researchAgents(log) });
  const account = await service.account({ plan: 'pro', credits: 100 });
  const discord = await new FakeDiscord({ now: () => Date.now() }).start();
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
  const settings: DiscordSettings = { ...base, editIntervalMs: 50, sendRate: { count: 10_000, perMs: 1000 } };
  const store = AdapterStore.open(dataDir, undefined);
  const bot = createDiscordBot({
    settings,
    store,
    research: new ResearchClient({ baseUrl: service.url, apiKey: account.apiKey, maxRetries: 0, linkHint: '/svc link key:', shared: 'server' }),
    log: pino({ level: 'silent' }),
    clock: systemClock,
  });
  await bot.start();
  h = {
    service,
    discord,
    bot,
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
const LINK = 'https://kalshi.com/markets/kxfeddecision/fed-meeting/kxfeddecision-25dec';
const botTexts = (channel: string) => h!.discord.shown(channel).filter((m) => m.author.id === BOT.id).map((m) => m.content);

describe('Discord: the answer message deleted while it streams', () => {
  it('the answer comes again as a new message in the thread, whole, under a note; the deleted one is tried once', async () => {
    await start();
    const pasted = h!.discord.userMessage(CHANNEL, LINK);
    await until(() => expect(h!.discord.threads()).toHaveLength(1));
    await until(() => expect(botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h!.bot.idle();
    const before = botTexts(pasted.id).length;
    h!.discord.userMessage(pasted.id, 'feed: slow');
    log.feed.text('First words');
    await until(() => expect(botTexts(pasted.id).at(-1)).toBe(`First words${STREAMING_MARK}`));
    const answer = h!.discord.shown(pasted.id).findLast((m) => m.author.id === BOT.id)!;
    answer.deleted = true; // by a user
    log.feed.text(' and more');
    await until(() => expect(h!.discord.calls.some((c) => c.method === 'PATCH' && c.status === 404)).toBe(true));
    log.feed.text(' and the end [1].');
    log.feed.done(CITATIONS.slice(0, 1));
    await until(() => expect(botTexts(pasted.id).at(-1) ?? '').toContain('**Sources**'));
    await h!.bot.idle();
    const texts = botTexts(pasted.id);
    expect(texts.slice(before)).toEqual([`${GONE_NOTE}\n\nFirst words and more and the end [1].${citationFooter(CITATIONS.slice(0, 1), 'discord')}`]);
    expect(h!.discord.calls.filter((c) => c.method === 'PATCH' && c.status === 404)).toHaveLength(1);
  });
});
