import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Citation } from '../agents/types.js';
import { SvcError, type ErrorKind } from '../errors.js';
import { newId } from '../ids.js';
import { isUniqueViolation } from '../store/errors.js';
import type { Database } from '../store/schema.js';

export interface Report {
  id: string;
  eventTicker: string;
  version: number;
  seriesTicker: string;
  title: string;
  text: string;
  citations: Citation[];
  outputTokens: number;
  asOf: string;
  source: 'live' | 'snapshot';
  generatedAt: number;
  /** `report:<id>`: stored responses that served this report refer to it by this. */
  textRef: string;
}

export interface ReportVersion {
  id: string;
  version: number;
  generatedAt: number;
  asOf: string;
  source: 'live' | 'snapshot';
}

export type NewReport = Omit<Report, 'id' | 'version' | 'textRef'> & { accountId: string | null; holdId: string | null };

export type JobState =
  | { state: 'claimed' | 'running'; jobId: string; leaseExpiresAt: number; holdId: string | null }
  | { state: 'done'; jobId: string }
  | { state: 'failed'; jobId: string; error: SvcError }
  | null;

type Row = Database['reports'];

const toReport = (r: Row): Report => ({
  id: r.id,
  eventTicker: r.event_ticker,
  version: Number(r.version),
  seriesTicker: r.series_ticker,
  title: r.title,
  text: r.text,
  citations: JSON.parse(r.citations) as Citation[],
  outputTokens: Number(r.output_tokens),
  asOf: r.as_of,
  source: r.source,
  generatedAt: Number(r.generated_at),
  textRef: `${REF_PREFIX}${r.id}`,
});

const REF_PREFIX = 'report:';

/** Bytes a cached report holds, about: UTF-16 text and citations. */
const reportBytes = (report: Report): number => Math.max(1, report.text.length * 2 + JSON.stringify(report.citations).length * 2);

/**
 * Stored reports: every version in the database, the latest per event in an in-process LRU
 * bounded in bytes. A cached entry is trusted for `freshnessMs`, then checked against the
 * database's latest version (a cheap indexed read), so a report generated on another replica
 * is served within that time.
 */
export class ReportStore {
  readonly #cache: LRUCache<string, { report: Report; checkedAt: number }>;
  /** Reports by id, for stored responses that refer to one (often not the latest). */
  readonly #byId: LRUCache<string, Report>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { cacheBytes: number; freshnessMs?: number },
  ) {
    this.#cache = new LRUCache({
      maxSize: Math.max(1, options.cacheBytes),
      sizeCalculation: (v) => reportBytes(v.report),
    });
    this.#byId = new LRUCache({ maxSize: Math.max(1, Math.floor(options.cacheBytes / 4)), sizeCalculation: reportBytes });
  }

  /** The report a `report:<id>` reference names, or null (another kind of reference, or none stored). */
  async byRef(ref: string): Promise<Report | null> {
    if (!ref.startsWith(REF_PREFIX)) return null;
    const id = ref.slice(REF_PREFIX.length);
    const known = this.#byId.get(id);
    if (known) return known;
    const row = await this.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const report = toReport(row);
    if (this.options.cacheBytes > 0) this.#byId.set(id, report);
    return report;
  }

  /** The latest version; `fresh` reads the database whatever the cache holds (deciding to generate, say). */
  async latest(eventTicker: string, options: { fresh?: boolean } = {}): Promise<Report | null> {
    const now = Date.now();
    const cached = this.#cache.get(eventTicker);
    if (cached && !options.fresh && now - cached.checkedAt < (this.options.freshnessMs ?? 2000)) return cached.report;
    const head = await this.db.selectFrom('reports').select(['id', 'version']).where('event_ticker', '=', eventTicker).orderBy('version', 'desc').limit(1).executeTakeFirst();
    if (!head) return null;
    if (cached && cached.report.id === head.id) {
      cached.checkedAt = now;
      return cached.report;
    }
    const row = await this.db.selectFrom('reports').selectAll().where('id', '=', head.id).executeTakeFirstOrThrow();
    const report = toReport(row);
    if (this.options.cacheBytes > 0) this.#cache.set(eventTicker, { report, checkedAt: now });
    return report;
  }

  async version(eventTicker: string, version: number): Promise<Report | null> {
    const row = await this.db.selectFrom('reports').selectAll().where('event_ticker', '=', eventTicker).where('version', '=', version).executeTakeFirst();
    return row ? toReport(row) : null;
  }

  async versions(eventTicker: string): Promise<ReportVersion[]> {
    const rows = await this.db.selectFrom('reports').select(['id', 'version', 'generated_at', 'as_of', 'source']).where('event_ticker', '=', eventTicker).orderBy('version', 'desc').execute();
    return rows.map((r) => ({ id: r.id, version: Number(r.version), generatedAt: Number(r.generated_at), asOf: r.as_of, source: r.source }));
  }

  /** Stores a new version (the next number for its event). */
  async save(report: NewReport): Promise<Report> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const head = await trx.selectFrom('reports').select('version').where('event_ticker', '=', report.eventTicker).orderBy('version', 'desc').limit(1).executeTakeFirst();
          const row: Row = {
            id: newId('rpt_'),
            event_ticker: report.eventTicker,
            version: (head ? Number(head.version) : 0) + 1,
            series_ticker: report.seriesTicker,
            title: report.title,
            text: report.text,
            citations: JSON.stringify(report.citations),
            output_tokens: report.outputTokens,
            as_of: report.asOf,
            source: report.source,
            generated_at: report.generatedAt,
            account_id: report.accountId,
            hold_id: report.holdId,
          };
          await trx.insertInto('reports').values(row).execute();
          const saved = toReport(row);
          if (this.options.cacheBytes > 0) this.#cache.set(report.eventTicker, { report: saved, checkedAt: Date.now() });
          return saved;
        });
      } catch (err) {
        // Two versions numbered at once (only without a claim): take the next number.
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
    }
  }

  /** The report a credit hold paid for, or null when none was stored on it. */
  async paidWith(holdId: string): Promise<Report | null> {
    const row = await this.db.selectFrom('reports').selectAll().where('hold_id', '=', holdId).orderBy('version', 'desc').executeTakeFirst();
    return row ? toReport(row) : null;
  }

  /** Of these credit holds, the ones that paid for a stored report (delivered work). */
  async paidBy(holdIds: string[]): Promise<Set<string>> {
    if (!holdIds.length) return new Set();
    const rows = await this.db.selectFrom('reports').select('hold_id').where('hold_id', 'in', holdIds).execute();
    return new Set(rows.map((r) => r.hold_id!));
  }

  // --- generation claims ------------------------------------------------------------------

  /**
   * Claims the right to generate this event's report. True when this job now holds it: no
   * claim existed, or the previous one finished, or its lease lapsed (its process died).
   */
  async claim(eventTicker: string, jobId: string, owner: string, leaseMs: number, now = Date.now()): Promise<boolean> {
    const fresh = { event_ticker: eventTicker, job_id: jobId, owner, state: 'claimed' as const, lease_expires_at: now + leaseMs, started_at: now, finished_at: null, error: null, hold_id: null };
    const row = await this.db
      .insertInto('report_jobs')
      .values(fresh)
      .onConflict((oc) =>
        oc
          .column('event_ticker')
          .doUpdateSet({ job_id: jobId, owner, state: 'claimed', lease_expires_at: now + leaseMs, started_at: now, finished_at: null, error: null, hold_id: null })
          .where((eb) => eb.or([eb('report_jobs.state', 'in', ['done', 'failed']), eb('report_jobs.lease_expires_at', '<', now)])),
      )
      .returning('job_id')
      .executeTakeFirst();
    return row?.job_id === jobId;
  }

  /** The leader has paid (with `holdId`, when it holds credits for it): the generation is under way. */
  async startClaim(eventTicker: string, jobId: string, holdId: string | null = null): Promise<void> {
    await this.db.updateTable('report_jobs').set({ state: 'running', hold_id: holdId }).where('event_ticker', '=', eventTicker).where('job_id', '=', jobId).where('state', '=', 'claimed').execute();
  }

  async renewClaim(eventTicker: string, jobId: string, leaseMs: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('report_jobs')
      .set({ lease_expires_at: now + leaseMs })
      .where('event_ticker', '=', eventTicker)
      .where('job_id', '=', jobId)
      .where('state', 'in', ['claimed', 'running'])
      .execute();
  }

  async finishClaim(eventTicker: string, jobId: string, outcome: { error?: SvcError } = {}, now = Date.now()): Promise<void> {
    const error = outcome.error ? JSON.stringify({ kind: outcome.error.kind, code: outcome.error.code, message: outcome.error.message }) : null;
    await this.db
      .updateTable('report_jobs')
      .set({ state: outcome.error ? 'failed' : 'done', finished_at: now, error })
      .where('event_ticker', '=', eventTicker)
      .where('job_id', '=', jobId)
      .execute();
  }

  /**
   * Withdraws a claim whose work will not finish (it never started, or its server is shutting
   * down), so another request may claim at once; followers see it gone and start over.
   */
  async dropClaim(eventTicker: string, jobId: string): Promise<void> {
    await this.db.deleteFrom('report_jobs').where('event_ticker', '=', eventTicker).where('job_id', '=', jobId).where('state', 'in', ['claimed', 'running']).execute();
  }

  async job(eventTicker: string): Promise<JobState> {
    const row = await this.db.selectFrom('report_jobs').selectAll().where('event_ticker', '=', eventTicker).executeTakeFirst();
    if (!row) return null;
    if (row.state === 'claimed' || row.state === 'running') return { state: row.state, jobId: row.job_id, leaseExpiresAt: Number(row.lease_expires_at), holdId: row.hold_id ?? null };
    if (row.state === 'done') return { state: 'done', jobId: row.job_id };
    const e = JSON.parse(row.error ?? '{}') as { kind?: ErrorKind; code?: string; message?: string };
    return { state: 'failed', jobId: row.job_id, error: new SvcError(e.kind ?? 'upstream', { code: e.code ?? 'generation_failed', message: e.message ?? 'The report generation failed.' }) };
  }
}
