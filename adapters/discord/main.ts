import { DiscordAPIError, HTTPError } from 'discord.js';
import { ResearchClient } from '../shared/api-client.js';
import { loadDiscordRegistrationSettings, loadDiscordSettings } from '../shared/config.js';
import { createAdapterLogger } from '../shared/log.js';
import { AdapterStartupError, checkResearchService, runAdapter, untilSignal } from '../shared/main-helpers.js';
import { AdapterStore } from '../shared/store.js';
import { createDiscordBot } from './bot.js';
import { registerCommands } from './commands.js';

/** `svc discord`: runs the Discord bot until SIGTERM or SIGINT, or until Discord ends its gateway session for good (exit 1, for a supervisor to restart it). */
export function main(_args?: unknown): Promise<number> {
  return runAdapter(async () => {
    const settings = loadDiscordSettings();
    const log = createAdapterLogger('discord', settings.logLevel);
    const store = AdapterStore.open(settings.dataDir, settings.secret);
    const research = new ResearchClient({ baseUrl: settings.apiUrl, apiKey: settings.apiKey, timeoutMs: settings.apiTimeoutMs, idleTimeoutMs: settings.apiIdleTimeoutMs, linkHint: '/svc link key:', shared: 'server' });
    await checkResearchService(research, { apiKey: settings.apiKey, apiUrl: settings.apiUrl, log });
    const bot = createDiscordBot({ settings, store, research, log });
    await bot.start();
    const stopped = await Promise.race([untilSignal().then((signal) => ({ signal })), bot.ended.then((reason) => ({ reason }))]);
    if ('reason' in stopped) {
      // The bot logged why and stopped itself.
      store.close();
      return 1;
    }
    log.info({ signal: stopped.signal }, 'stopping: finishing answers in progress');
    await bot.stop();
    store.close();
    return 0;
  });
}

/** The `--guild ID` flag, from the CLI's parsed arguments. */
function guildFlag(args: unknown): string | undefined {
  const flags = (args as { flags?: Map<string, string> } | undefined)?.flags;
  const guild = flags?.get('guild');
  return guild && guild !== 'true' ? guild : undefined;
}

/** `svc discord register-commands [--guild ID]`: registers /svc for one guild (instant) or globally. */
export function registerCommandsMain(args?: unknown): Promise<number> {
  return runAdapter(async () => {
    // The command line first (exit 2), then the settings it uses (exit 1).
    const guild = guildFlag(args);
    if ((args as { flags?: Map<string, string> } | undefined)?.flags?.get('guild') === 'true') {
      process.stderr.write('svc: --guild needs a guild id\n');
      return 2;
    }
    if (guild !== undefined && !/^\d{5,25}$/.test(guild)) {
      process.stderr.write(`svc: --guild must be a numeric guild id, got "${guild}"\n`);
      return 2;
    }
    const settings = loadDiscordRegistrationSettings();
    const result = await registerCommands(settings, guild).catch((err: Error) => {
      // Only an answer from Discord is a refusal; a connection that failed names the address tried (SVC_DISCORD_API_URL).
      if (err instanceof DiscordAPIError || err instanceof HTTPError) throw new AdapterStartupError(`Discord refused the command registration: ${err.message}`);
      throw new AdapterStartupError(`cannot reach Discord's REST API at ${settings.discordApiUrl} (SVC_DISCORD_API_URL): ${err.message}`);
    });
    process.stdout.write(`${JSON.stringify({ registered: result.names, scope: result.scope, ...(guild ? { guild_id: guild } : {}) }, null, 2)}\n`);
    return 0;
  });
}
