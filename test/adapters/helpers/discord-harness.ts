import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, vi } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../../../adapters/discord/bot.js';
import { ResearchClient } from '../../../adapters/shared/api-client.js';
import { loadDiscordSettings, type DiscordSettings } from '../../../adapters/shared/config.js';
import { AdapterStore } from '../../../adapters/shared/store.js';
import { startService, type TestService } from '../../helpers/service.js';
import { APP_ID, BOT, FakeDiscord } from '../discord/fake-discord.js';
import { newAgentLog, researchAgents, type AgentLog } from './agents.js';

/**
 * The Discord adapter against the loopback fake Discord and a real service with the scripted
 * research agents: the set-up the Discord probe tests share. The real clock, an edit interval
 * below the production minimum and practically no send budget, so tests finish quickly.
 */
export interface DiscordHarness {
  service: TestService;
  discord: FakeDiscord;
  bot: DiscordBot;
  store: AdapterStore;
  settings: DiscordSettings;
  /** What the scripted agents were asked. */
  log: AgentLog;
  /** The bot's messages in a channel or thread as shown now, oldest first. */
  botTexts(channelId: string): string[];
  close(): Promise<void>;
}

export async function startDiscordHarness(opts: { settings?: Partial<DiscordSettings> } = {}): Promise<DiscordHarness> {
  const log = newAgentLog();
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
  const settings: DiscordSettings = { ...base, editIntervalMs: 50, sendRate: { count: 10_000, perMs: 1000 }, ...opts.settings };
  const store = AdapterStore.open(dataDir, undefined);
  const bot = createDiscordBot({
    settings,
    store,
    research: new ResearchClient({ baseUrl: service.url, apiKey: account.apiKey, maxRetries: 0, linkHint: '/svc link key:', shared: 'server' }),
    log: pino({ level: process.env.SVC_TEST_ADAPTER_LOG ?? 'silent' }),
  });
  await bot.start();
  return {
    service,
    discord,
    bot,
    store,
    settings,
    log,
    botTexts: (channelId) => discord.shown(channelId).filter((m) => m.author.id === BOT.id).map((m) => m.content),
    async close() {
      await bot.stop(1000);
      store.close();
      await discord.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits (up to `timeout` ms) until `check` passes. */
export const until = (check: () => void, timeout = 20_000) => vi.waitFor(check, { timeout, interval: 20 });

export interface DiscordHarnessPerTest {
  /** Starts this test's harness (closed after the test). */
  start(opts?: { settings?: Partial<DiscordSettings> }): Promise<DiscordHarness>;
  /** The harness the running test started (for helpers outside the test's body). */
  readonly h: DiscordHarness;
}

/**
 * One harness per test, closed after it: call at the top of a test file, then `const h = await
 * harness.start()` in each test that needs one.
 */
export function discordHarnessPerTest(): DiscordHarnessPerTest {
  let current: DiscordHarness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async start(opts) {
      current = await startDiscordHarness(opts);
      return current;
    },
    get h() {
      if (!current) throw new Error('no Discord harness started in this test');
      return current;
    },
  };
}
