import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../adapters/discord/bot.js';
import { answerPart } from '../../adapters/discord/thread.js';
import { ResearchClient } from '../../adapters/shared/api-client.js';
import { loadDiscordSettings, type DiscordSettings } from '../../adapters/shared/config.js';
import { AdapterStore } from '../../adapters/shared/store.js';
import { startService, type TestService } from '../helpers/service.js';
import { newAgentLog, researchAgents, type AgentLog } from './helpers/agents.js';
import { APP_ID, BOT, CHANNEL, FakeDiscord } from './discord/fake-discord.js';

/** Findings of probing the Discord adapter as a server meets it (adapters-probe). */

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
  const discord = await new FakeDiscord().start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-discord-probe-'));
  const base = loadDiscordSettings({
    SVC_API_URL: service.url,
    SVC_API_KEY: account.apiKey,
    DISCORD_TOKEN: 'discord-test-token',
    DISCORD_APPLICATION_ID: APP_ID,
    SVC_DISCORD_API_URL: `${discord.url}/api`,
    SVC_ADAPTER_DATA_DIR: dataDir,
    SVC_LOG_LEVEL: 'silent',
  });
  // Below the production minimum so tests on the real clock finish quickly.
  const settings: DiscordSettings = { ...base, editIntervalMs: 50, sendRate: { count: 10_000, perMs: 1000 } };
  const store = AdapterStore.open(dataDir, undefined);
  const bot = createDiscordBot({
    settings,
    store,
    research: new ResearchClient({ baseUrl: service.url, apiKey: account.apiKey, maxRetries: 0, linkHint: '/svc link key:', shared: 'server' }),
    log: pino({ level: process.env.SVC_TEST_ADAPTER_LOG ?? 'silent' }),
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
const botTexts = (channelId: string) => h!.discord.shown(channelId).filter((m) => m.author.id === BOT.id).map((m) => m.content);

describe('Discord probe: a named refusal read back from Discord', () => {
  it('is no part of the answer', () => {
    expect(answerPart('**Unknown event (KX-1)**\n⚠️ No Kalshi event KXNOPE.')).toBe('');
    expect(answerPart('**Key point**\nRates hold.')).toBe('**Key point**\nRates hold.');
  });

  it('a reply in a thread of the bot\'s it has no record of carries the report, not the refusal named beside it', async () => {
    await start();
    const starter = h!.discord.existingThread('https://kalshi.com/markets/kxfed/fed/kxfed-25dec https://kalshi.com/markets/kx/unknown-event/kx-1');
    h!.discord.botMessage(starter.id, 'The Fed report.');
    h!.discord.botMessage(starter.id, '**Unknown event (KX-1)**\n⚠️ No Kalshi event KXNOPE.');
    h!.discord.userMessage(starter.id, 'why?');
    await until(() => expect(botTexts(starter.id).at(-1)).toContain('**Sources**'));
    await h!.bot.idle();
    expect(log.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'https://kalshi.com/markets/kxfed/fed/kxfed-25dec https://kalshi.com/markets/kx/unknown-event/kx-1' },
      { role: 'assistant', content: 'The Fed report.' },
      { role: 'user', content: 'why?' },
    ]);
  });
});
