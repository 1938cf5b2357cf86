import { APIError } from 'openai';
import type { Logger } from 'pino';
import type { ResearchClient } from './api-client.js';
import { AdapterSettingsError } from './config.js';

/** A platform refused the adapter's credentials or could not be reached at start-up. */
export class AdapterStartupError extends Error {
  override name = 'AdapterStartupError';
}

/**
 * Runs an adapter's command the way `svc` reports errors: a bad setting, or a platform that
 * refuses the credentials, is one line on stderr (exit 1); anything else propagates to the CLI.
 */
export async function runAdapter(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AdapterSettingsError || err instanceof AdapterStartupError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** Resolves on the first SIGTERM or SIGINT. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => resolve(signal);
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/**
 * Asks the research service who SVC_API_KEY is (GET /v1/account) before the bot answers anyone:
 * a refused key stops the start-up with one clear line, rather than telling every person who
 * asks to contact whoever runs the bot; a service that cannot be reached now is only a warning
 * (it may start after the bot), and answers say so until it can.
 */
export async function checkResearchService(research: ResearchClient, o: { apiKey: string; apiUrl: string; log: Logger; timeoutMs?: number }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${(o.timeoutMs ?? 10_000) / 1000} s`)), o.timeoutMs ?? 10_000)));
  try {
    const account = await Promise.race([research.account(o.apiKey), timedOut]);
    o.log.info({ api: o.apiUrl, account: account.id, plan: account.plan, credits: account.credits }, 'research service reachable; SVC_API_KEY accepted');
  } catch (err) {
    if (err instanceof APIError && (err.status === 401 || err.status === 403)) {
      throw new AdapterStartupError(`the research service at ${o.apiUrl} refused SVC_API_KEY (${err.status}${err.code ? ` ${err.code}` : ''}): check the key, or create one under Settings → API Keys`);
    }
    o.log.warn({ api: o.apiUrl, reason: (err as Error).message }, 'the research service cannot be reached now; answers will say so until it can');
  } finally {
    clearTimeout(timer);
  }
}
