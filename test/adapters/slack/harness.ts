import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { vi } from 'vitest';
import { ResearchClient } from '../../../adapters/shared/api-client.js';
import type { Clock } from '../../../adapters/shared/clock.js';
import { loadSlackSettings, type SlackSettings } from '../../../adapters/shared/config.js';
import type { Rate } from '../../../adapters/shared/rate-budget.js';
import { AdapterStore } from '../../../adapters/shared/store.js';
import { createSlackBot, type SlackBot } from '../../../adapters/slack/bot.js';
import type { StartOptions, TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { BOT_USER, FakeSlack, TEAM, postSigned } from './fake-slack.js';

export const CHANNEL = 'C0GENERAL';
export const USER = 'U0ANA';

export interface SlackHarness {
  service: TestService;
  slack: FakeSlack;
  bot: SlackBot;
  store: AdapterStore;
  dataDir: string;
  apiKey: string;
  accountId: string;
  eventsUrl: string;
  /** Sends `/svc <text>` as Slack would (signed, form-encoded); `timestamp` (seconds) dates the signature, now by default. */
  command(text: string, opts?: { user?: string; triggerId?: string; timestamp?: number }): Promise<Response>;
  /** Sends an event_callback envelope as Slack would (signed JSON). */
  event(event: Record<string, unknown>, opts?: { eventId?: string; retryNum?: number }): Promise<Response>;
  /** Waits until `check` passes. */
  until(check: () => void, timeoutMs?: number): Promise<void>;
  /** Waits until no answer is in progress. */
  quiet(): Promise<void>;
  /**
   * Sends a DM question and waits for its answer, then for quiet: events sent before it have
   * surely been handled (or ignored) by then. Returns the DM's answer texts.
   */
  sentinel(): Promise<void>;
  /** A second adapter process on the same data dir (to test restarts). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface SlackHarnessOptions {
  agents: StartOptions['agents'];
  clock?: Clock;
  nativeStreaming?: boolean;
  editIntervalMs?: number;
  statusIntervalMs?: number;
  /** Point the adapter at another API address (e.g. one where nothing listens). */
  apiUrl?: string;
  plan?: 'free' | 'plus' | 'pro';
  credits?: number;
  /** Keep the adapter's rate budgets (its defaults); otherwise there is practically no budget, so tests on the real clock finish quickly. */
  rateBudgets?: boolean;
}

const UNLIMITED: Rate = { count: 10_000, perMs: 1000 };

let eventCounter = 0;

export async function startSlackHarness(opts: SlackHarnessOptions): Promise<SlackHarness> {
  const service = await startService({ agents: opts.agents });
  const account = await service.account({ plan: opts.plan ?? 'pro', credits: opts.credits ?? 100 });
  const slack = await new FakeSlack().start();
  if (opts.clock) slack.clock = opts.clock;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-slack-'));
  const base = loadSlackSettings({
    SVC_API_URL: opts.apiUrl ?? service.url,
    SVC_API_KEY: account.apiKey,
    SLACK_BOT_TOKEN: 'xoxb-test-token',
    SLACK_SIGNING_SECRET: 'test-signing-secret',
    SVC_SLACK_HOST: '127.0.0.1',
    SVC_SLACK_PORT: '0',
    SVC_SLACK_API_URL: `${slack.url}/api/`,
    SVC_SLACK_NATIVE_STREAMING: String(opts.nativeStreaming ?? false),
    SVC_ADAPTER_DATA_DIR: dataDir,
    SVC_LOG_LEVEL: 'silent',
  });
  // Below the production minimum, so tests on the real clock finish quickly; the edit-rate test uses 1000 on a fake clock.
  const settings: SlackSettings = {
    ...base,
    editIntervalMs: opts.editIntervalMs ?? 50,
    ...(opts.rateBudgets ? {} : { postRate: UNLIMITED, updateRate: UNLIMITED, streamAppendRate: UNLIMITED, streamStartStopRate: UNLIMITED }),
  };
  const log = pino({ level: process.env.SVC_TEST_ADAPTER_LOG ?? 'silent' });
  let store = AdapterStore.open(dataDir, undefined);
  const makeBot = () =>
    createSlackBot({
      settings,
      store,
      research: new ResearchClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey, maxRetries: 0 }),
      log,
      clock: opts.clock,
      statusIntervalMs: opts.statusIntervalMs,
    });
  let bot = await makeBot();
  let port = (await bot.start()).port!;

  const harness: SlackHarness = {
    service,
    slack,
    get bot() {
      return bot;
    },
    get store() {
      return store;
    },
    dataDir,
    apiKey: account.apiKey,
    accountId: account.id,
    get eventsUrl() {
      return `http://127.0.0.1:${port}/slack/events`;
    },
    command(text, { user = USER, triggerId = `trigger-${++eventCounter}`, timestamp } = {}) {
      const body = new URLSearchParams({
        token: 'legacy',
        team_id: TEAM,
        team_domain: 'test',
        channel_id: CHANNEL,
        channel_name: 'general',
        user_id: user,
        user_name: 'ana',
        command: '/svc',
        text,
        api_app_id: 'A0APP',
        is_enterprise_install: 'false',
        response_url: `${slack.url}/response/${triggerId}`,
        trigger_id: triggerId,
      }).toString();
      return postSigned(harness.eventsUrl, body, 'application/x-www-form-urlencoded', {}, undefined, timestamp);
    },
    event(event, { eventId = `Ev${++eventCounter}`, retryNum } = {}) {
      const body = JSON.stringify({
        token: 'legacy',
        team_id: TEAM,
        api_app_id: 'A0APP',
        event: { event_ts: event.ts, ...event },
        type: 'event_callback',
        event_id: eventId,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
      });
      const headers: Record<string, string> = retryNum ? { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' } : {};
      return postSigned(harness.eventsUrl, body, 'application/json', headers);
    },
    async until(check, timeoutMs = 15_000) {
      await vi.waitFor(check, { timeout: timeoutMs, interval: 20 });
    },
    quiet() {
      return bot.idle();
    },
    async sentinel() {
      const dm = slack.addUserMessage('D0SENTINEL', USER, `sentinel ${++eventCounter}`);
      await harness.event({ type: 'message', channel_type: 'im', user: USER, text: dm.text, ts: dm.ts, channel: 'D0SENTINEL' });
      await harness.until(() => {
        if (!slack.threadReplies('D0SENTINEL', dm.ts).some((m) => m.text.includes('Sources'))) throw new Error('sentinel not answered yet');
      });
      await bot.idle();
    },
    async restart() {
      await bot.stop(1000);
      store.close();
      store = AdapterStore.open(dataDir, undefined);
      bot = await makeBot();
      port = (await bot.start()).port!;
    },
    async close() {
      await bot.stop(1000);
      store.close();
      await slack.close();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The text a person sees in a thread: every bot reply (streamed or posted), oldest first. */
export function shownTexts(slack: FakeSlack, threadTs: string): string[] {
  return slack.threadReplies(CHANNEL, threadTs).map((m) => m.markdown ?? m.text);
}
