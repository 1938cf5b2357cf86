import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { Throttle, type StartGate, type UpstreamPause } from './source.js';

/** Namespace of the advisory locks taken here (ASCII "svc0"), beside the hash of the upstream's name. */
const LOCK_NAMESPACE = 0x73766330;

export interface SharedThrottleOptions {
  /** The window the rate is counted over: a little over a second, as for Throttle. */
  windowMs?: number;
  /** This process's pause for the upstream: kept in step with the other replicas' through the database. */
  pause?: UpstreamPause;
  /** A database error (the throttle then goes on with this process's own starts alone). */
  onError?: (err: unknown) => void;
}

/**
 * Throttle's sliding window, counted in the database so that every replica on it together stays
 * within the upstream's rate: replicas usually leave through one address, and EDGAR, which
 * counts per address, blocks one over its limit for about ten minutes. A start is recorded under
 * a per-upstream advisory lock and timed by the database's clock, so replicas' clocks need not
 * agree. A pause one replica begins (EDGAR's 403) is recorded too, and read by the others before
 * each request they start. Postgres only: SQLite means one process, for which Throttle suffices.
 *
 * Waiters in this process queue here, and one of them at a time asks the database, so a burst
 * of requests costs one transaction per start, not one per waiter per retry. If the database
 * cannot be reached, starts are admitted by this process's own Throttle meanwhile.
 */
export class SharedThrottle implements StartGate {
  readonly #queue: (() => void)[] = [];
  readonly #windowMs: number;
  readonly #local: Throttle;
  #asking = false;

  constructor(
    private readonly db: Kysely<Database>,
    readonly upstream: string,
    readonly perSecond: number,
    private readonly options: SharedThrottleOptions = {},
  ) {
    this.#windowMs = options.windowMs ?? 1050;
    this.#local = new Throttle(perSecond, this.#windowMs);
    const pause = options.pause;
    if (pause) pause.onBegin = (until) => void this.#recordPause(until).catch((err) => options.onError?.(err));
  }

  take(): Promise<void> {
    return new Promise((resolve) => {
      this.#queue.push(resolve);
      if (!this.#asking) void this.#ask();
    });
  }

  async #ask(): Promise<void> {
    this.#asking = true;
    try {
      while (this.#queue.length) {
        let wait: number;
        try {
          wait = await this.#tryStart();
        } catch (err) {
          this.options.onError?.(err);
          await this.#local.take();
          wait = 0;
        }
        if (wait === 0) this.#queue.shift()!();
        else await new Promise((r) => setTimeout(r, wait));
      }
    } finally {
      this.#asking = false;
    }
  }

  /** Records a start if the window has room (0), else says how long until it will (ms). */
  #tryStart(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${this.upstream}))`.execute(trx);
      const now = Number((await sql<{ now: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(trx)).rows[0]!.now);
      await trx.deleteFrom('upstream_starts').where('upstream', '=', this.upstream).where('at', '<=', now - this.#windowMs).execute();
      const starts = await trx.selectFrom('upstream_starts').select('at').where('upstream', '=', this.upstream).orderBy('at').limit(this.perSecond).execute();
      const pause = await trx.selectFrom('upstream_pauses').select('until').where('upstream', '=', this.upstream).executeTakeFirst();
      if (pause) this.options.pause?.extendTo(Number(pause.until));
      if (starts.length < this.perSecond) {
        await trx.insertInto('upstream_starts').values({ id: randomUUID(), upstream: this.upstream, at: now }).execute();
        return 0;
      }
      return Math.max(1, Number(starts[0]!.at) + this.#windowMs - now);
    });
  }

  async #recordPause(until: number): Promise<void> {
    await this.db
      .insertInto('upstream_pauses')
      .values({ upstream: this.upstream, until })
      .onConflict((oc) => oc.column('upstream').doUpdateSet({ until }).where('upstream_pauses.until', '<', until))
      .execute();
  }
}
