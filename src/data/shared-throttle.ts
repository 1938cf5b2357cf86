import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { Throttle, type StartGate, type UpstreamPause } from './source.js';

/** Namespace of the advisory locks taken here (ASCII "svc0"), beside the hash of the upstream's name. */
const LOCK_NAMESPACE = 0x73766330;
/** Longest wait for the lock (a replica stalled while holding it) and for the database's answer. */
const LOCK_TIMEOUT_MS = 1000;
const ANSWER_TIMEOUT_MS = 3000;
/** After a failure, how long this process counts its starts alone before asking the database again. */
const ALONE_MS = 5000;

export interface SharedThrottleOptions {
  /** The window the rate is counted over: a little over a second, as for Throttle. */
  windowMs?: number;
  /** This process's pause for the upstream: kept in step with the other replicas' through the database. */
  pause?: UpstreamPause;
  /** A database error or silence (the throttle then goes on with this process's own starts alone for a while). */
  onError?: (err: unknown) => void;
  /** A start recorded, at the database's clock (ms), once its transaction committed. */
  onStart?: (upstream: string, at: number) => void;
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
 * fails, or does not answer within ANSWER_TIMEOUT_MS, or another replica holds the lock longer
 * than LOCK_TIMEOUT_MS (stalled holding it), starts are admitted by this process's own Throttle
 * for the next ALONE_MS, so upstream requests never wait on the database for long.
 */
export class SharedThrottle implements StartGate {
  readonly #queue: (() => void)[] = [];
  readonly #windowMs: number;
  readonly #local: Throttle;
  #asking = false;
  /** Until when starts are counted by this process alone (after a database failure). */
  #aloneUntil = 0;

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
        if (Date.now() < this.#aloneUntil) {
          await this.#local.take();
          wait = 0;
        } else {
          try {
            wait = await this.#tryStartInTime();
          } catch (err) {
            this.options.onError?.(err);
            this.#aloneUntil = Date.now() + ALONE_MS;
            await this.#local.take();
            wait = 0;
          }
        }
        if (wait === 0) this.#queue.shift()!();
        else await new Promise((r) => setTimeout(r, wait));
      }
    } finally {
      this.#asking = false;
    }
  }

  /** #tryStart, or an error when the database has not answered in time (a start it records later only makes the budget stricter). */
  #tryStartInTime(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the ${this.upstream} throttle shared in Postgres got no answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
    });
    const attempt = this.#tryStart();
    attempt.catch(() => {}); // its failure after the deadline is already accounted for
    return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
  }

  /** Records a start if the window has room (0), else says how long until it will (ms). */
  async #tryStart(): Promise<number> {
    let recorded: number | null = null;
    const wait = await this.db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${`${LOCK_TIMEOUT_MS}ms`}, true), set_config('statement_timeout', ${`${ANSWER_TIMEOUT_MS}ms`}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${this.upstream}))`.execute(trx);
      const now = Number((await sql<{ now: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as now`.execute(trx)).rows[0]!.now);
      await trx.deleteFrom('upstream_starts').where('upstream', '=', this.upstream).where('at', '<=', now - this.#windowMs).execute();
      const starts = await trx.selectFrom('upstream_starts').select('at').where('upstream', '=', this.upstream).orderBy('at').limit(this.perSecond).execute();
      const pause = await trx.selectFrom('upstream_pauses').select('until').where('upstream', '=', this.upstream).executeTakeFirst();
      if (pause) this.options.pause?.extendTo(Number(pause.until));
      if (starts.length < this.perSecond) {
        await trx.insertInto('upstream_starts').values({ id: randomUUID(), upstream: this.upstream, at: now }).execute();
        recorded = now;
        return 0;
      }
      return Math.max(1, Number(starts[0]!.at) + this.#windowMs - now);
    });
    if (recorded !== null) this.options.onStart?.(this.upstream, recorded);
    return wait;
  }

  async #recordPause(until: number): Promise<void> {
    await this.db
      .insertInto('upstream_pauses')
      .values({ upstream: this.upstream, until })
      .onConflict((oc) => oc.column('upstream').doUpdateSet({ until }).where('upstream_pauses.until', '<', until))
      .execute();
  }
}
