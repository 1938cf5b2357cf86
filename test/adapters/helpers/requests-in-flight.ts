import diagnostics from 'node:diagnostics_channel';
import { settle, type FakeClock } from './fake-clock.js';

type Listener = (message: unknown) => void;

/**
 * The HTTP requests to one origin (a fake platform) that were sent and not answered yet, as
 * undici reports them: fetch (the Slack SDK) and discord.js's REST client both run on undici.
 * A test on a fake clock waits for them before moving time on, so the fake platform records
 * every request at the (fake) time it was sent, however slow the machine.
 */
export class RequestsInFlight {
  readonly #open = new Set<unknown>();
  readonly #listeners: Array<[string, Listener]>;

  constructor(origin: string) {
    const requestOf = (message: unknown) => (message as { request: { origin?: unknown } }).request;
    this.#listeners = [
      [
        'undici:request:create',
        (m) => {
          if (String(requestOf(m).origin) === origin) this.#open.add(requestOf(m));
        },
      ],
      ['undici:request:trailers', (m) => this.#open.delete(requestOf(m))],
      ['undici:request:error', (m) => this.#open.delete(requestOf(m))],
    ];
    for (const [name, listener] of this.#listeners) diagnostics.subscribe(name, listener);
  }

  /** Resolves once every request sent to the origin has its answer, and what the answers set off has run. */
  async drained(timeoutMs = 10_000): Promise<void> {
    const giveUp = Date.now() + timeoutMs;
    for (;;) {
      await settle();
      if (!this.#open.size) {
        await settle();
        if (!this.#open.size) return;
      }
      if (Date.now() > giveUp) throw new Error(`${this.#open.size} request(s) to the fake still unanswered after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  close(): void {
    for (const [name, listener] of this.#listeners) diagnostics.unsubscribe(name, listener);
  }
}

/**
 * Runs `clock` in steps of `stepMs` (timer by timer, each one's requests answered before the next
 * fires) until `done()`; real time passes between steps for what arrives on its own (gateway
 * events, answer text). Throws when `limitMs` of fake time pass first.
 */
export async function runClockUntil(clock: FakeClock, requests: RequestsInFlight, done: () => boolean, { stepMs = 250, limitMs = 30 * 60_000 } = {}): Promise<void> {
  const end = clock.now() + limitMs;
  while (!done()) {
    if (clock.now() >= end) throw new Error(`not done after ${limitMs} ms on the fake clock`);
    await clock.advance(stepMs, () => requests.drained());
    await new Promise((r) => setTimeout(r, 2));
  }
}
