import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResearchClient } from '../../adapters/shared/api-client.js';
import { loadSlackSettings } from '../../adapters/shared/config.js';
import { AdapterStartupError, checkResearchService } from '../../adapters/shared/main-helpers.js';
import { AdapterStore } from '../../adapters/shared/store.js';
import { createSlackBot } from '../../adapters/slack/bot.js';
import { startService, type TestService } from '../helpers/service.js';
import { FakeSlack } from './slack/fake-slack.js';

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: Array<{ level: number; msg: string; [k: string]: unknown }> = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

describe('adapters at start-up: the research service and its key are checked first', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('a key the service accepts: started, and the account logged', async () => {
    const { apiKey } = await svc.account({ plan: 'pro', credits: 7 });
    const { lines, log } = recordingLog();
    await checkResearchService(new ResearchClient({ baseUrl: svc.url, apiKey, maxRetries: 0 }), { apiKey, apiUrl: svc.url, log });
    expect(lines.find((l) => l.msg === 'research service reachable; SVC_API_KEY accepted')).toMatchObject({ plan: 'pro', credits: 7 });
  });

  it('a key the service refuses stops the start-up with one line naming SVC_API_KEY', async () => {
    const apiKey = 'sk-svc-notarealkeynotarealkeynotarealkey0000';
    const err = await checkResearchService(new ResearchClient({ baseUrl: svc.url, apiKey, maxRetries: 0 }), { apiKey, apiUrl: svc.url, log: pino({ level: 'silent' }) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AdapterStartupError);
    expect((err as Error).message).toBe(`the research service at ${svc.url} refused SVC_API_KEY (401 invalid_api_key): check the key, or create one under Settings → API Keys`);
  });

  it('a service that cannot be reached now is a warning only (it may start after the bot)', async () => {
    const { lines, log } = recordingLog();
    await checkResearchService(new ResearchClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-x', maxRetries: 0 }), { apiKey: 'sk-x', apiUrl: 'http://127.0.0.1:9', log });
    expect(lines.find((l) => l.level === 40)?.msg).toBe('the research service cannot be reached now; answers will say so until it can');
  });
});

describe('Slack adapter at start-up', () => {
  it('a port already in use is one line naming SVC_SLACK_PORT, not a crash', async () => {
    const slack = await new FakeSlack().start();
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-slack-start-'));
    const store = AdapterStore.open(dataDir, undefined);
    try {
      const settings = loadSlackSettings({
        SVC_API_URL: 'http://127.0.0.1:9',
        SVC_API_KEY: 'sk-unused',
        SLACK_BOT_TOKEN: 'xoxb-test-token',
        SLACK_SIGNING_SECRET: 'test-signing-secret',
        SVC_SLACK_HOST: '127.0.0.1',
        SVC_SLACK_PORT: String(port),
        SVC_SLACK_API_URL: `${slack.url}/api/`,
        SVC_ADAPTER_DATA_DIR: dataDir,
        SVC_LOG_LEVEL: 'silent',
      });
      const bot = await createSlackBot({ settings, store, research: new ResearchClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey, maxRetries: 0 }), log: pino({ level: 'silent' }) });
      const err = await bot.start().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AdapterStartupError);
      expect((err as Error).message).toBe(`cannot listen on 127.0.0.1:${port} (EADDRINUSE): set SVC_SLACK_PORT or SVC_SLACK_HOST to a free address`);
    } finally {
      store.close();
      taken.close();
      await slack.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
