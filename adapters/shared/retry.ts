import { sleep, type Clock } from './clock.js';
import type { EditErrors } from './throttled-editor.js';

/**
 * Runs a platform call that must happen (posting a thread's first message, starting a thread):
 * rate limits are waited out for as long as they say, other errors retried a few times with
 * backoff, permanent errors thrown at once.
 */
export async function withRetries<T>(call: () => Promise<T>, errors: EditErrors, clock: Clock, attempts = 4): Promise<T> {
  for (let failures = 0, rateLimited = 0; ; ) {
    try {
      return await call();
    } catch (err) {
      const wait = errors.retryAfterMs(err);
      if (wait !== null && ++rateLimited < 20) {
        await sleep(clock, wait);
        continue;
      }
      if (errors.isPermanent(err) || ++failures >= attempts) throw err;
      await sleep(clock, 500 * 2 ** (failures - 1));
    }
  }
}

/** Waits for `work` to settle, or `ms` at most. */
export async function settleWithin(work: Set<Promise<void>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...work]), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
