import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { SvcError } from '../errors.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { SharedThrottle } from './shared-throttle.js';
import { LiveSource, SnapshotSource, Throttle, UpstreamPause, type DataSource, type StartGate } from './source.js';

/**
 * The database replicas share (Postgres): upstream rates and pauses are then counted there, for
 * all of them together. Null for one process alone (SQLite, the CLI).
 */
export interface SharedBudget {
  db: Kysely<Database>;
  onError: (err: unknown) => void;
  /** Each start the database recorded, at its clock (ms): what the budget is kept on. */
  onStart?: (upstream: string, at: number) => void;
}

function gate(upstream: string, perSecond: number, shared: SharedBudget | null, pause?: UpstreamPause): StartGate {
  return shared ? new SharedThrottle(shared.db, upstream, perSecond, { pause, onError: shared.onError, onStart: shared.onStart }) : new Throttle(perSecond);
}

/** Kalshi's public market data: live, or the snapshot folder SVC_KALSHI_SNAPSHOT_DIR. */
export function kalshiSource(config: Config, shared: SharedBudget | null = null): DataSource {
  const k = config.kalshi;
  if (k.snapshotDir) return new SnapshotSource(k.snapshotDir, 'Kalshi');
  return new LiveSource({ name: 'Kalshi', baseUrl: k.apiUrl, requestsPerSecond: k.requestsPerSecond, throttle: gate('kalshi', k.requestsPerSecond, shared), timeoutMs: k.timeoutMs, retries: k.retries });
}

/** A source that cannot be used, saying why (a live SEC source without its required User-Agent). */
class Unconfigured implements DataSource {
  readonly mode = 'live' as const;
  readonly recordedAt = null;
  constructor(
    readonly name: string,
    private readonly why: string,
  ) {}
  get(): never {
    throw new SvcError('unavailable', { code: 'source_not_configured', message: this.why, permanent: true });
  }
  getText(): never {
    return this.get();
  }
}

/**
 * The SEC's EDGAR APIs: data.sec.gov and www.sec.gov, live (which needs SVC_SEC_USER_AGENT),
 * or the snapshot folder SVC_SEC_SNAPSHOT_DIR, which holds answers for both hosts.
 */
export function secSources(config: Config, log: Logger, shared: SharedBudget | null = null): { api: DataSource; www: DataSource } {
  const s = config.sec;
  if (s.snapshotDir) {
    const snapshot = new SnapshotSource(s.snapshotDir, 'SEC EDGAR');
    return { api: snapshot, www: snapshot };
  }
  if (!s.userAgent.trim()) {
    const why = 'SEC EDGAR refuses requests without a User-Agent naming a contact: set SVC_SEC_USER_AGENT (e.g. "Acme Research ops@acme.example"), or SVC_SEC_SNAPSHOT_DIR to use recorded data.';
    log.warn(`svc: SVC_SEC_USER_AGENT is not set; the SEC agents will answer with an error until it is. ${why}`);
    return { api: new Unconfigured('SEC EDGAR', why), www: new Unconfigured('SEC EDGAR', why) };
  }
  if (!/\S@\S+\.\S/.test(s.userAgent)) {
    log.warn(`svc: SVC_SEC_USER_AGENT ("${s.userAgent.trim()}") names no contact e-mail; SEC EDGAR refuses such clients with HTTP 403 and then blocks them for about ten minutes. Use the form "Company Name contact@company.example".`);
  }
  // The SEC's limit and its block are per client across its hosts: both share one throttle and one pause.
  const pause = new UpstreamPause(s.blockPauseMs);
  const common = {
    name: 'SEC EDGAR',
    requestsPerSecond: s.requestsPerSecond,
    // With the pause off (0), pauses other replicas recorded are not taken up either.
    throttle: gate('sec-edgar', s.requestsPerSecond, shared, s.blockPauseMs > 0 ? pause : undefined),
    pauseOn403: pause,
    timeoutMs: s.timeoutMs,
    retries: s.retries,
    headers: { 'user-agent': s.userAgent },
  };
  return { api: new LiveSource({ ...common, baseUrl: s.apiUrl }), www: new LiveSource({ ...common, baseUrl: s.wwwUrl }) };
}
