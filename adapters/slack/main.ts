import { ResearchClient } from '../shared/api-client.js';
import { loadSlackSettings } from '../shared/config.js';
import { createAdapterLogger } from '../shared/log.js';
import { checkResearchService, runAdapter, untilSignal } from '../shared/main-helpers.js';
import { AdapterStore } from '../shared/store.js';
import { createSlackBot } from './bot.js';

/** `svc slack`: runs the Slack app until SIGTERM or SIGINT. */
export function main(_args?: unknown): Promise<number> {
  return runAdapter(async () => {
    const settings = loadSlackSettings();
    const log = createAdapterLogger('slack', settings.logLevel);
    const store = AdapterStore.open(settings.dataDir, settings.secret);
    const research = new ResearchClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey, timeoutMs: settings.apiTimeoutMs, idleTimeoutMs: settings.apiIdleTimeoutMs, linkHint: '/svc link <api key>' });
    await checkResearchService(research, { apiKey: settings.apiKey, apiUrl: settings.apiUrl, log });
    const bot = await createSlackBot({ settings, store, research, log });
    const { port } = await bot.start();
    log.info({ mode: settings.mode, port, api: settings.apiUrl }, settings.mode === 'socket' ? 'slack adapter connected (Socket Mode)' : `slack adapter listening on ${settings.host}:${port}/slack/events`);
    const signal = await untilSignal();
    log.info({ signal }, 'stopping: finishing answers in progress');
    await bot.stop();
    store.close();
    return 0;
  });
}
