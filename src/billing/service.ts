import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Plan } from '../agents/types.js';
import { isUniqueViolation } from '../store/errors.js';
import { SvcError, invalidRequest, isSvcError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Database, LedgerTable } from '../store/schema.js';

/** Plans that may pay for generated work (spec: Plus, Pro and Enterprise). */
export const PAYING_PLANS: readonly Plan[] = ['plus', 'pro', 'enterprise'];

export interface Hold {
  id: string;
  accountId: string;
  jobId: string;
  amount: number;
  state: 'held' | 'captured' | 'released';
  leaseExpiresAt: number;
}

export interface LedgerEntry {
  id: string;
  accountId: string;
  kind: LedgerTable['kind'];
  amount: number;
  balanceAfter: number;
  reason: string | null;
  requestId: string | null;
  holdId: string | null;
  createdAt: number;
}

export interface Mismatch {
  accountId: string;
  balance: number;
  ledgerSum: number;
}

type Db = Kysely<Database> | Transaction<Database>;

/** How a plan is named to people. */
export const PLAN_NAMES: Record<Plan, string> = { free: 'Free', plus: 'Plus', pro: 'Pro', enterprise: 'Enterprise' };

export const mayPay = (plan: Plan): boolean => PAYING_PLANS.includes(plan);

/** 403 plan_required: `plan` may not pay for `what`. */
export function planRequired(plan: Plan, what: string, credits: number): SvcError {
  return new SvcError('permission', {
    code: 'plan_required',
    message: `${what} is available on the Plus, Pro and Enterprise plans; this account is on the ${PLAN_NAMES[plan]} plan.`,
    meta: { credits: { charged: 0, remaining: credits } },
  });
}

const toHold = (r: Database['holds']): Hold => ({
  id: r.id,
  accountId: r.account_id,
  jobId: r.job_id,
  amount: Number(r.amount),
  state: r.state,
  leaseExpiresAt: Number(r.lease_expires_at),
});

const toEntry = (r: Omit<Database['ledger'], 'seq'>): LedgerEntry => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  amount: Number(r.amount),
  balanceAfter: Number(r.balance_after),
  reason: r.reason,
  requestId: r.request_id,
  holdId: r.hold_id,
  createdAt: Number(r.created_at),
});

/**
 * A hold that could not move out of `held`: true when it already reached `wanted` (settling
 * is idempotent); an error when it went the other way or does not exist.
 */
async function alreadySettled(db: Db, holdId: string, wanted: 'captured' | 'released'): Promise<true> {
  const hold = await db.selectFrom('holds').select('state').where('id', '=', holdId).executeTakeFirst();
  if (hold?.state === wanted) return true;
  if (!hold) throw notFound('hold_not_found', `No hold with id '${holdId}'.`);
  throw new SvcError('conflict', { code: `hold_${hold.state}`, message: `Hold ${holdId} was already ${hold.state}; it cannot be ${wanted}.` });
}

/** Appends a ledger row; callers change the balance in the same transaction. */
export async function appendLedger(
  db: Db,
  row: { accountId: string; kind: LedgerTable['kind']; amount: number; balanceAfter: number; reason?: string | null; requestId?: string | null; holdId?: string | null; now: number },
): Promise<LedgerEntry> {
  const values = {
    id: newId('led_'),
    account_id: row.accountId,
    kind: row.kind,
    amount: row.amount,
    balance_after: row.balanceAfter,
    reason: row.reason ?? null,
    request_id: row.requestId ?? null,
    hold_id: row.holdId ?? null,
    created_at: row.now,
  };
  await db.insertInto('ledger').values(values).execute();
  return toEntry(values);
}

/**
 * Credits: every balance change is a conditional update plus its ledger row, in one
 * transaction. Work is paid for with holds: `hold` debits up front, then exactly one of
 * `capture` (the work was delivered) or `release` (it failed: the credits go back). A hold
 * whose worker died is released by `sweep` once its lease has expired.
 */
/**
 * The most credits one account may hold: far above any real balance, and below 2^53, so that every
 * balance, ledger amount and ledger sum stays an exact number in JavaScript (a Postgres bigint past
 * it would be read back rounded).
 */
export const MAX_BALANCE = 1_000_000_000_000_000;

export class Billing {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: {
      leaseMs: number;
      /**
       * Of these holds, the ones whose work was delivered (e.g. a report stored with the hold's
       * id): the sweeper captures those instead of releasing them, since their worker died after
       * delivering and before capturing.
       */
      delivered?: (holdIds: string[]) => Promise<Set<string>>;
    },
  ) {}

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  async balance(accountId: string): Promise<number> {
    const row = await this.db.selectFrom('accounts').select('credits').where('id', '=', accountId).executeTakeFirst();
    if (!row) throw notFound('account_not_found', `No account with id '${accountId}'.`, 'id');
    return Number(row.credits);
  }

  /**
   * Debits `amount` for `jobId`. The same job is never debited twice: a repeated call returns
   * the existing hold. 403 plan_required when the plan may not pay, 402 insufficient_credits
   * when the balance is short; `what` names the work in those messages.
   */
  async hold(input: { accountId: string; amount: number; jobId: string; what: string; requestId?: string | null }, now = Date.now()): Promise<{ hold: Hold; remaining: number; created: boolean }> {
    const existing = await this.findHold(input.jobId);
    if (existing) return { hold: existing, remaining: await this.balance(input.accountId), created: false };
    const hold: Hold = { id: newId('hold_'), accountId: input.accountId, jobId: input.jobId, amount: input.amount, state: 'held', leaseExpiresAt: now + this.options.leaseMs };
    try {
      return await this.db.transaction().execute(async (trx) => {
        const debited = await trx
          .updateTable('accounts')
          .set((eb) => ({ credits: eb('credits', '-', input.amount), updated_at: now }))
          .where('id', '=', input.accountId)
          .where('credits', '>=', input.amount)
          .where('plan', 'in', PAYING_PLANS)
          .returning('credits')
          .executeTakeFirst();
        if (!debited) throw await this.#whyNot(trx, input.accountId, input.amount, input.what);
        const remaining = Number(debited.credits);
        await trx
          .insertInto('holds')
          .values({
            id: hold.id,
            account_id: hold.accountId,
            job_id: hold.jobId,
            amount: hold.amount,
            state: 'held',
            reason: input.what,
            request_id: input.requestId ?? null,
            lease_expires_at: hold.leaseExpiresAt,
            created_at: now,
            settled_at: null,
          })
          .execute();
        await appendLedger(trx, { accountId: hold.accountId, kind: 'hold', amount: -hold.amount, balanceAfter: remaining, reason: input.what, requestId: input.requestId, holdId: hold.id, now });
        return { hold, remaining, created: true };
      });
    } catch (err) {
      // Another request held the same job at the same moment: its hold stands, ours rolled back.
      if (isUniqueViolation(err)) {
        const winner = await this.findHold(input.jobId);
        if (winner) return { hold: winner, remaining: await this.balance(input.accountId), created: false };
      }
      throw err;
    }
  }

  async #whyNot(db: Db, accountId: string, amount: number, what: string): Promise<SvcError> {
    const account = await db.selectFrom('accounts').select(['plan', 'credits']).where('id', '=', accountId).executeTakeFirst();
    if (!account) return notFound('account_not_found', `No account with id '${accountId}'.`, null);
    const credits = Number(account.credits);
    const meta = { credits: { charged: 0, remaining: credits } };
    const plan = account.plan as Plan;
    if (!mayPay(plan)) return planRequired(plan, what, credits);
    return new SvcError('payment_required', {
      code: 'insufficient_credits',
      message: `${what} costs ${amount} credits; this account has ${credits}.`,
      meta,
    });
  }

  async findHold(jobId: string): Promise<Hold | null> {
    const row = await this.db.selectFrom('holds').selectAll().where('job_id', '=', jobId).executeTakeFirst();
    return row ? toHold(row) : null;
  }

  async getHold(holdId: string): Promise<Hold | null> {
    const row = await this.db.selectFrom('holds').selectAll().where('id', '=', holdId).executeTakeFirst();
    return row ? toHold(row) : null;
  }

  /** The work was delivered: the hold's debit stands. Idempotent; a released hold cannot be captured. */
  async capture(holdId: string, requestId: string | null = null, now = Date.now()): Promise<'captured' | 'already_captured'> {
    return this.db.transaction().execute(async (trx) => {
      const settled = await trx
        .updateTable('holds')
        .set({ state: 'captured', settled_at: now })
        .where('id', '=', holdId)
        .where('state', '=', 'held')
        .returning(['account_id', 'reason'])
        .executeTakeFirst();
      if (!settled) return (await alreadySettled(trx, holdId, 'captured')) && 'already_captured';
      // Locks the account row (as every balance change does) before reading the balance, so the
      // ledger row's balance_after follows the balance changes committed before it (Postgres).
      const account = await trx.updateTable('accounts').set({ updated_at: now }).where('id', '=', settled.account_id).returning('credits').executeTakeFirstOrThrow();
      await appendLedger(trx, { accountId: settled.account_id, kind: 'capture', amount: 0, balanceAfter: Number(account.credits), reason: settled.reason, requestId, holdId, now });
      return 'captured';
    });
  }

  /** The work failed: the credits go back. Idempotent; a captured hold cannot be released. */
  release(holdId: string, reason: string, requestId: string | null = null, now = Date.now()): Promise<'released' | 'already_released'> {
    return this.#release(holdId, reason, requestId, now, false) as Promise<'released' | 'already_released'>;
  }

  /**
   * `lapsedOnly`: the sweeper's release, only if the lease is still lapsed in the same statement
   * ('renewed' otherwise): a worker that renewed it after the sweeper found it is alive, and
   * about to store its report.
   */
  #release(holdId: string, reason: string, requestId: string | null, now: number, lapsedOnly: boolean): Promise<'released' | 'already_released' | 'renewed'> {
    return this.db.transaction().execute(async (trx) => {
      let update = trx.updateTable('holds').set({ state: 'released', settled_at: now }).where('id', '=', holdId).where('state', '=', 'held');
      if (lapsedOnly) update = update.where('lease_expires_at', '<', now);
      const settled = await update.returning(['account_id', 'amount']).executeTakeFirst();
      if (!settled) {
        if (lapsedOnly && (await trx.selectFrom('holds').select('state').where('id', '=', holdId).executeTakeFirst())?.state === 'held') return 'renewed';
        return (await alreadySettled(trx, holdId, 'released')) && 'already_released';
      }
      const amount = Number(settled.amount);
      const account = await trx
        .updateTable('accounts')
        .set((eb) => ({ credits: eb('credits', '+', amount), updated_at: now }))
        .where('id', '=', settled.account_id)
        .returning('credits')
        .executeTakeFirstOrThrow();
      await appendLedger(trx, { accountId: settled.account_id, kind: 'release', amount, balanceAfter: Number(account.credits), reason, requestId, holdId, now });
      return 'released';
    });
  }

  /** Extends a running hold's lease (its worker is alive). False once the hold is settled. */
  async renew(holdId: string, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('holds')
      .set({ lease_expires_at: now + this.options.leaseMs })
      .where('id', '=', holdId)
      .where('state', '=', 'held')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Runs `work` while renewing the hold's lease (every third of it), so that the sweeper only
   * releases holds whose worker died, never one whose work merely takes longer than a lease.
   */
  async whileHeld<T>(holdId: string, work: () => Promise<T>, onRenewError: (err: unknown) => void = () => {}): Promise<T> {
    const timer = setInterval(() => void this.renew(holdId).catch(onRenewError), Math.max(250, Math.floor(this.options.leaseMs / 3)));
    timer.unref();
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Settles holds whose lease expired (their worker died): released, or captured when their work
   * had been delivered. Safe to run on every replica at once.
   */
  async sweep(now = Date.now()): Promise<number> {
    const expired = await this.db.selectFrom('holds').select('id').where('state', '=', 'held').where('lease_expires_at', '<', now).limit(500).execute();
    if (!expired.length) return 0;
    const delivered = this.options.delivered ? await this.options.delivered(expired.map((h) => h.id)) : new Set<string>();
    let settled = 0;
    for (const { id } of expired) {
      try {
        const outcome = delivered.has(id) ? await this.capture(id, null, now) : await this.#release(id, 'lease expired: the work did not finish', null, now, true);
        if (outcome === 'captured' || outcome === 'released') settled++;
      } catch (err) {
        // Settled the other way meanwhile (its worker finished after all): the others still get swept.
        if (!isSvcError(err) || err.kind !== 'conflict') throw err;
      }
    }
    return settled;
  }

  /**
   * Admin grant (positive) or correction (negative); the balance never goes below zero. An empty
   * or blank note (`"note": ""`, `--note ""`) is no note: its ledger reason is null, not "".
   */
  async grant(input: { accountId: string; amount: number; note: string | null; requestId?: string | null }, now = Date.now()): Promise<{ balance: number; entry: LedgerEntry }> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set((eb) => ({ credits: eb('credits', '+', input.amount), updated_at: now }))
        .where('id', '=', input.accountId)
        .where(sql<boolean>`credits + ${input.amount} >= 0`)
        .where(sql<boolean>`credits + ${input.amount} <= ${MAX_BALANCE}`)
        .returning('credits')
        .executeTakeFirst();
      if (!updated) {
        const account = await trx.selectFrom('accounts').select('credits').where('id', '=', input.accountId).executeTakeFirst();
        if (!account) throw notFound('account_not_found', `No account with id '${input.accountId}'.`, 'id');
        if (input.amount > 0) {
          throw invalidRequest(
            'balance_too_large',
            `Invalid 'amount': ${input.amount} would take the balance of ${account.credits} above the most an account may hold, ${MAX_BALANCE}; the largest grant possible is ${MAX_BALANCE - Number(account.credits)}.`,
            'amount',
          );
        }
        throw invalidRequest(
          'balance_below_zero',
          `Invalid 'amount': ${input.amount} would take the balance of ${account.credits} below zero; ${Number(account.credits) > 0 ? `the largest correction possible is -${account.credits}` : 'the balance is 0, so nothing can be taken off'}.`,
          'amount',
        );
      }
      const balance = Number(updated.credits);
      const entry = await appendLedger(trx, {
        accountId: input.accountId,
        kind: input.amount > 0 ? 'grant' : 'adjustment',
        amount: input.amount,
        balanceAfter: balance,
        reason: input.note?.trim() ? input.note : null,
        requestId: input.requestId,
        now,
      });
      return { balance, entry };
    });
  }

  /** An account's entries, newest first; `after` is the id of the last entry of the previous page. */
  async ledger(accountId: string, page: { limit: number; after?: string }): Promise<{ entries: LedgerEntry[]; hasMore: boolean }> {
    let q = this.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId);
    if (page.after) {
      const cursor = await this.db.selectFrom('ledger').select('seq').where('id', '=', page.after).where('account_id', '=', accountId).executeTakeFirst();
      if (!cursor) throw invalidRequest('invalid_value', `Invalid value for 'after': no ledger entry '${page.after}' on this account.`, 'after');
      q = q.where('seq', '<', cursor.seq);
    }
    const rows = await q.orderBy('seq', 'desc').limit(page.limit + 1).execute();
    return { entries: rows.slice(0, page.limit).map(toEntry), hasMore: rows.length > page.limit };
  }

  /** Accounts whose balance differs from the sum of their ledger, and holds whose rows disagree with their state. */
  async verify(): Promise<{ mismatches: Mismatch[]; badHolds: { holdId: string; problem: string }[]; accounts: number }> {
    // One snapshot for all three reads, so a hold captured between them is not reported while the server runs.
    const postgres = this.db.getExecutor().adapter instanceof PostgresAdapter;
    const tx = this.db.transaction();
    return (postgres ? tx.setIsolationLevel('repeatable read') : tx).execute((trx) => this.#verifyIn(trx));
  }

  async #verifyIn(db: Kysely<Database>): Promise<{ mismatches: Mismatch[]; badHolds: { holdId: string; problem: string }[]; accounts: number }> {
    const rows = await db
      .selectFrom('accounts')
      .leftJoin('ledger', 'ledger.account_id', 'accounts.id')
      .select(['accounts.id', 'accounts.credits', sql<number | string | null>`sum(ledger.amount)`.as('ledger_sum')])
      .groupBy(['accounts.id', 'accounts.credits'])
      .execute();
    const mismatches = rows
      .map((r) => ({ accountId: r.id, balance: Number(r.credits), ledgerSum: Number(r.ledger_sum ?? 0) }))
      .filter((m) => m.balance !== m.ledgerSum);
    const entries = await db.selectFrom('ledger').select(['hold_id', 'kind', 'amount']).where('hold_id', 'is not', null).execute();
    const byHold = new Map<string, { kind: string; amount: number }[]>();
    for (const e of entries) byHold.set(e.hold_id!, [...(byHold.get(e.hold_id!) ?? []), { kind: e.kind, amount: Number(e.amount) }]);
    const badHolds: { holdId: string; problem: string }[] = [];
    for (const h of await db.selectFrom('holds').select(['id', 'state', 'amount']).execute()) {
      const kinds = (byHold.get(h.id) ?? []).map((e) => e.kind).sort();
      const expected = { held: ['hold'], captured: ['capture', 'hold'], released: ['hold', 'release'] }[h.state];
      if (kinds.join() !== expected.join()) badHolds.push({ holdId: h.id, problem: `state ${h.state} but ledger rows [${kinds.join(', ')}]` });
    }
    return { mismatches, badHolds, accounts: rows.length };
  }
}
