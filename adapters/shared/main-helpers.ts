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
