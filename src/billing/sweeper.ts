import type { Logger } from 'pino';

type Task = [name: string, run: () => Promise<number>];

/**
 * Periodic housekeeping: releases holds whose worker died, purges expired idempotency keys,
 * prunes rate-limit windows. Every replica runs it; each task is safe to run concurrently.
 */
export class Sweeper {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly log: Logger,
    private readonly tasks: Task[],
  ) {}

  start(): void {
    if (this.#timer) return;
    void this.runOnce();
    this.#timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async runOnce(): Promise<void> {
    if (this.#running) return this.#running;
    this.#running = (async () => {
      for (const [name, run] of this.tasks) {
        try {
          const n = await run();
          if (n > 0) this.log.info({ task: name, count: n }, `sweeper: ${name}`);
        } catch (err) {
          this.log.error({ err, task: name }, `sweeper failed: ${name}`);
        }
      }
    })();
    try {
      await this.#running;
    } finally {
      this.#running = null;
    }
  }
}
