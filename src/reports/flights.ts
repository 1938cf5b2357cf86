import { SvcError, isSvcError } from '../errors.js';
import { newId } from '../ids.js';
import type { Report, ReportStore } from './store.js';

/** The leader of a flight gave up (its caller could not pay) or stopped (its server died or shut down): waiters start over. */
export class FlightAbandoned extends Error {
  override name = 'FlightAbandoned';
  /** The credit hold that was paying for a generation whose server died (the request taking it over generates on it). */
  constructor(
    message: string,
    readonly holdId: string | null = null,
  ) {
    super(message);
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // waiters handle it; nobody waiting is not an error
  return { promise, resolve, reject };
}

/** One generation, shared by everyone who asked for it. */
export class Flight {
  readonly progress: string[] = [];
  readonly #started = deferred<void>();
  readonly #done = deferred<Report>();
  readonly #listeners = new Set<() => void>();
  #settled = false;

  constructor(readonly jobId: string) {}

  /** Resolves once the leader has paid and generation is under way; rejects if it gave up. */
  get started(): Promise<void> {
    return this.#started.promise;
  }

  get done(): Promise<Report> {
    return this.#done.promise;
  }

  get settled(): boolean {
    return this.#settled;
  }

  report(message: string): void {
    this.progress.push(message);
    this.#notify();
  }

  /** Wakes `fn` on progress and on settling; returns the unsubscribe. */
  listen(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  markStarted(): void {
    this.#started.resolve();
  }

  resolve(r: Report): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#started.resolve();
    this.#done.resolve(r);
    this.#notify();
  }

  reject(e: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#started.reject(e);
    this.#done.reject(e);
    this.#notify();
  }

  #notify(): void {
    for (const fn of this.#listeners) fn();
  }
}

/** The caller leads this flight: it pays, runs the generation, and everyone else waits on it. */
export interface Lead {
  flight: Flight;
  /** Gave up before starting (could not pay): withdraws the claim so another request may lead. */
  abandon(): Promise<void>;
  /**
   * Paid: runs the generation detached from any request (it completes and is stored even if
   * every waiter leaves), renewing the claim while it runs; the claim names the hold paying for
   * it (`holdId`). When it cannot even be started (the claim could not be marked running),
   * `notStarted` undoes the payment before everyone is told.
   */
  run(work: (progress: (message: string) => void, stop: AbortSignal) => Promise<Report>, options?: { holdId?: string | null; notStarted?: () => Promise<void> }): Promise<Report>;
}

/**
 * Single-flight report generation. In this process, the first request for an event creates
 * its flight and later ones join it. Across replicas, a leased claim row decides the leader;
 * the others follow it by polling until it is done (then read the new report), failed (then
 * fail alike), withdrawn or lapsed (then start over and perhaps lead).
 */
export class ReportFlights {
  readonly #local = new Map<string, Flight>();

  constructor(
    private readonly store: ReportStore,
    private readonly options: { owner: string; leaseMs: number; pollMs: number },
  ) {}

  current(eventTicker: string): Flight | undefined {
    return this.#local.get(eventTicker);
  }

  /** Waits (at most `ms`) for the generations running in this process: used at shutdown, since they outlive their requests. */
  async drain(ms: number): Promise<void> {
    const running = [...this.#local.values()].map((f) => f.done.catch(() => {}));
    if (!running.length) return;
    await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, ms).unref())]);
  }

  /**
   * Shutdown, once the grace period is over: tells the generations still running here to stop
   * (each gives its credits back and withdraws its claim, while storage is still open), and
   * waits at most `ms` for them to do so.
   */
  async stop(ms: number): Promise<void> {
    const running = [...this.#stops].map(({ controller, generation }) => {
      controller.abort();
      return generation.catch(() => {});
    });
    if (!running.length) return;
    await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, ms).unref())]);
  }

  readonly #stops = new Set<{ controller: AbortController; generation: Promise<Report> }>();

  async enter(eventTicker: string): Promise<{ role: 'join'; flight: Flight } | { role: 'lead'; lead: Lead }> {
    const existing = this.#local.get(eventTicker);
    if (existing) return { role: 'join', flight: existing };
    // Registered before the first await, so a second request in this process joins it.
    const flight = new Flight(newId('job_'));
    this.#local.set(eventTicker, flight);
    const forget = () => {
      if (this.#local.get(eventTicker) === flight) this.#local.delete(eventTicker);
    };
    flight.done.then(forget, forget);
    let claimed: boolean;
    let before: number;
    try {
      // Read before claiming: a generation that finishes between a failed claim and this read
      // would otherwise count as "no new report" and send its followers to generate another.
      before = (await this.store.latest(eventTicker, { fresh: true }))?.version ?? 0;
      claimed = await this.store.claim(eventTicker, flight.jobId, this.options.owner, this.options.leaseMs);
    } catch (err) {
      flight.reject(err);
      throw err;
    }
    if (!claimed) {
      void this.#follow(eventTicker, flight, before);
      return { role: 'join', flight };
    }
    return { role: 'lead', lead: this.#lead(eventTicker, flight) };
  }

  #lead(eventTicker: string, flight: Flight): Lead {
    return {
      flight,
      abandon: async () => {
        await this.store.dropClaim(eventTicker, flight.jobId).catch(() => {});
        flight.reject(new FlightAbandoned('the leader gave up'));
      },
      run: (work, { holdId = null, notStarted } = {}) => {
        const renew = setInterval(() => void this.store.renewClaim(eventTicker, flight.jobId, this.options.leaseMs).catch(() => {}), Math.max(200, this.options.leaseMs / 3));
        renew.unref();
        const controller = new AbortController();
        const generation = (async () => {
          try {
            await this.store.startClaim(eventTicker, flight.jobId, holdId);
          } catch (err) {
            // Unsettled, this flight would hold every request for the event, here and (through
            // its renewed claim) on every replica, until this process restarted.
            clearInterval(renew);
            await notStarted?.().catch(() => {});
            await this.store.dropClaim(eventTicker, flight.jobId).catch(() => {});
            const error = isSvcError(err) ? err : new SvcError('unavailable', { code: 'generation_not_started', message: 'The report generation could not be started (storage did not answer); retry the request.', retryAfterSeconds: 2 });
            flight.reject(error);
            throw error;
          }
          flight.markStarted();
          try {
            const report = await work((m) => flight.report(m), controller.signal);
            await this.store.finishClaim(eventTicker, flight.jobId).catch(() => {});
            flight.resolve(report);
            return report;
          } catch (err) {
            if (controller.signal.aborted) {
              // This server is shutting down, not the generation failing: followers on other
              // replicas start over (one of them leads) instead of failing with our 503.
              await this.store.dropClaim(eventTicker, flight.jobId).catch(() => {});
            } else {
              const error = isSvcError(err) ? err : new SvcError('internal', { code: 'generation_failed', message: 'The report generation failed unexpectedly.' });
              await this.store.finishClaim(eventTicker, flight.jobId, { error }).catch(() => {});
            }
            flight.reject(err);
            throw err;
          } finally {
            clearInterval(renew);
          }
        })();
        generation.catch(() => {});
        const entry = { controller, generation };
        this.#stops.add(entry);
        void generation.finally(() => this.#stops.delete(entry)).catch(() => {});
        return generation;
      },
    };
  }

  /** Follows a generation led by another replica, for every waiter in this process. */
  async #follow(eventTicker: string, flight: Flight, before: number): Promise<void> {
    try {
      for (let first = true; ; first = false) {
        if (!first) await new Promise((r) => setTimeout(r, this.options.pollMs));
        const job = await this.store.job(eventTicker);
        if (!job || ((job.state === 'claimed' || job.state === 'running') && job.leaseExpiresAt < Date.now())) {
          // Its server may have stored the report just before it stopped.
          const stored = job?.state === 'running' ? await this.store.latest(eventTicker, { fresh: true }) : null;
          if (stored && stored.version > before) {
            flight.resolve(stored);
            return;
          }
          throw new FlightAbandoned('the other generation stopped', job?.state === 'running' ? job.holdId : null);
        }
        if (job.state === 'claimed') continue;
        if (job.state === 'running') {
          if (!flight.progress.length) flight.report('Another server is generating this report; waiting for it.');
          flight.markStarted();
          continue;
        }
        if (job.state === 'failed') throw job.error;
        const report = await this.store.latest(eventTicker, { fresh: true });
        if (!report || report.version <= before) throw new FlightAbandoned('no new report was stored');
        flight.resolve(report);
        return;
      }
    } catch (err) {
      flight.reject(err);
    }
  }
}
