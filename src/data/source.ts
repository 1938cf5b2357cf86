import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SvcError } from '../errors.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface SourceResponse<T> {
  status: number;
  body: T;
}

/**
 * A read-only upstream API (Kalshi, SEC), live or replayed from a snapshot. `get` returns 2xx
 * and 404 answers; anything else fails with an `upstream` SvcError once retries are spent.
 */
export interface DataSource {
  readonly name: string;
  readonly mode: 'live' | 'snapshot';
  /** When a snapshot was recorded (its data's "as of" time); null when live. */
  readonly recordedAt: Date | null;
  /** What a snapshot's data is, when not a plain recording (e.g. "synthetic demo data"). */
  readonly note?: string;
  get<T = unknown>(path: string, query?: Query): Promise<SourceResponse<T>>;
  getText(path: string, query?: Query): Promise<SourceResponse<string>>;
  /** A snapshot's recorded paths that start with `prefix` (what it can answer); absent when live. */
  paths?(prefix: string): string[];
}

/** `path?k=v&…` with the query sorted and empty values dropped: the identity of a request. */
export function requestKey(pathname: string, query: Query = {}): string {
  const params = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return params.length ? `${pathname}?${params.join('&')}` : pathname;
}

/** Admits request starts to an upstream at its rate: `take` resolves when one may start. */
export interface StartGate {
  readonly perSecond: number;
  take(): Promise<void>;
}

/**
 * At most `perSecond` request starts in any window of a second: a sliding window over the last
 * starts, so a burst of that many goes at once and the next waits until the first is a window
 * old. (A token bucket that starts full lets twice the rate through in one second.) One per
 * upstream, shared by everything in the process that calls it, across its hosts. Replicas on one
 * database share theirs instead (SharedThrottle).
 */
/** A wait as said to a person: "45 seconds", "20 minutes", "2 hours". */
export function waitWords(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return unit(seconds, 'second');
  if (seconds < 90 * 60) return unit(Math.round(seconds / 60), 'minute');
  return unit(Math.round(seconds / 3600), 'hour');
}

export class Throttle implements StartGate {
  readonly #starts: number[] = [];
  readonly #queue: (() => void)[] = [];
  #timer: NodeJS.Timeout | null = null;

  /** `windowMs` is a little over a second so that network jitter cannot squeeze one more into the upstream's second. */
  constructor(
    readonly perSecond: number,
    private readonly windowMs = 1050,
  ) {}

  take(): Promise<void> {
    return new Promise((resolve) => {
      this.#queue.push(resolve);
      this.#drain();
    });
  }

  #drain(): void {
    const now = Date.now();
    while (this.#starts.length && now - this.#starts[0]! >= this.windowMs) this.#starts.shift();
    while (this.#queue.length && this.#starts.length < this.perSecond) {
      this.#starts.push(now);
      this.#queue.shift()!();
    }
    if (this.#queue.length && !this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#drain();
      }, this.#starts[0]! + this.windowMs - now);
    }
  }
}

/**
 * A pause in calling an upstream that has refused this client (EDGAR blocks an address over its
 * rate limit for about ten minutes, and extends the block while requests continue). Shared by the
 * sources of one provider, since the block is per client, not per host.
 */
export class UpstreamPause {
  #until = 0;
  /** `onBegin`: tells the other replicas (SharedThrottle records it, and reads theirs). */
  constructor(
    readonly ms: number,
    private readonly now: () => number = Date.now,
    public onBegin: ((until: number) => void) | null = null,
  ) {}

  begin(): void {
    this.#until = this.now() + this.ms;
    this.onBegin?.(this.#until);
  }

  /** A pause begun by another replica, until `until` (ms since the epoch). */
  extendTo(until: number): void {
    if (until > this.#until) this.#until = until;
  }

  /** Milliseconds left, or 0 when not paused. */
  remaining(): number {
    return Math.max(0, this.#until - this.now());
  }
}

export interface LiveSourceOptions {
  name: string;
  baseUrl: string;
  headers?: Record<string, string>;
  requestsPerSecond: number;
  /** Shared with other sources of the same upstream (the SEC's limit covers both its hosts), or with other replicas. */
  throttle?: StartGate;
  timeoutMs: number;
  retries: number;
  /** Longest Retry-After worth waiting for; longer ones fail at once, passing it on. */
  maxRetryAfterMs?: number;
  /** A 403 starts this pause; while it lasts, requests fail at once without being sent. */
  pauseOn403?: UpstreamPause;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Seconds or an HTTP date, as a delay in ms; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Live HTTP: throttled, with a timeout per attempt and retries of 429/5xx/timeouts (backoff with jitter, Retry-After honoured). */
export class LiveSource implements DataSource {
  readonly mode = 'live' as const;
  readonly recordedAt = null;
  readonly name: string;
  readonly #o: LiveSourceOptions;
  readonly #throttle: StartGate;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: LiveSourceOptions) {
    this.#o = options;
    this.name = options.name;
    this.#throttle = options.throttle ?? new Throttle(options.requestsPerSecond);
    this.#sleep = options.sleep ?? defaultSleep;
  }

  get<T = unknown>(pathname: string, query?: Query): Promise<SourceResponse<T>> {
    return this.#request(pathname, query, async (res) => {
      const text = await res.text();
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new SvcError('upstream', { code: 'upstream_invalid_response', message: `${this.name} answered ${pathname} with something that is not JSON.` });
      }
    });
  }

  getText(pathname: string, query?: Query): Promise<SourceResponse<string>> {
    return this.#request(pathname, query, (res) => res.text());
  }

  async #request<T>(pathname: string, query: Query | undefined, read: (res: Response) => Promise<T>): Promise<SourceResponse<T>> {
    const url = `${this.#o.baseUrl}${requestKey(pathname, query)}`;
    const maxRetryAfter = this.#o.maxRetryAfterMs ?? 30_000;
    let last = '';
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.#o.retries;
      const backoff = Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await this.#throttle.take();
      this.#refuseWhilePaused();
      let res: Response;
      try {
        // The timeout covers the body too: an answer whose body stalls is retried like one that never came.
        res = await fetch(url, { headers: { accept: 'application/json', 'accept-encoding': 'gzip', ...this.#o.headers }, signal: AbortSignal.timeout(this.#o.timeoutMs) });
        if (res.ok || res.status === 404) return { status: res.status, body: await read(res) };
      } catch (err) {
        if (err instanceof SvcError) throw err;
        const timedOut = (err as Error).name === 'TimeoutError';
        // undici says only "fetch failed"; why is in its cause: the system's code (ECONNREFUSED,
        // ENOTFOUND), or without one a short reason of its own ("bad port").
        const cause = (err as Error).cause as { code?: unknown; message?: unknown } | undefined;
        const why = typeof cause?.code === 'string' && /^[A-Z_]+$/.test(cause.code) ? cause.code : typeof cause?.message === 'string' && /^[\w ,.'-]{1,60}$/.test(cause.message) ? cause.message : '';
        last = timedOut ? `timed out after ${this.#o.timeoutMs} ms` : `could not be reached (${(err as Error).message}${why ? `: ${why}` : ''})`;
        if (canRetry) {
          await this.#sleep(backoff);
          continue;
        }
        throw new SvcError(timedOut ? 'upstream_timeout' : 'upstream', {
          code: timedOut ? 'upstream_timeout' : 'upstream_unavailable',
          message: `${this.name} ${last} (${attempt + 1} attempt${attempt ? 's' : ''}). Try again shortly.`,
        });
      }
      await res.body?.cancel().catch(() => {});
      if (res.status === 429 || res.status >= 500) {
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        last = `answered ${res.status}${res.status === 429 ? ' (rate limited)' : ''}`;
        if (canRetry && (retryAfter === null || retryAfter <= maxRetryAfter)) {
          await this.#sleep(retryAfter ?? backoff);
          continue;
        }
        throw new SvcError('upstream', {
          code: 'upstream_unavailable',
          message: `${this.name} ${last}${retryAfter !== null ? ` and asked for ${waitWords(retryAfter)} before the next request` : ''} (${attempt + 1} attempt${attempt ? 's' : ''}). Try again ${retryAfter === null ? 'shortly' : `in ${waitWords(retryAfter)}`}.`,
          retryAfterSeconds: retryAfter !== null ? Math.ceil(retryAfter / 1000) : undefined,
        });
      }
      if (res.status === 403 && this.#o.pauseOn403?.ms) {
        this.#o.pauseOn403.begin();
        this.#refuseWhilePaused();
      }
      throw new SvcError('upstream', { code: 'upstream_rejected', message: `${this.name} refused ${pathname} with HTTP ${res.status}.`, permanent: true });
    }
  }

  #refuseWhilePaused(): void {
    const left = this.#o.pauseOn403?.remaining() ?? 0;
    if (!left) return;
    const until = new Date(Date.now() + left).toISOString().replace(/\.\d+Z$/, 'Z');
    throw new SvcError('upstream', {
      code: 'upstream_blocked',
      message: `${this.name} refused our requests with HTTP 403, which is how it blocks clients over its rate limit (or without a User-Agent naming a contact). Requests to it are paused until ${until} so the block can lapse; try again then.`,
      retryAfterSeconds: Math.ceil(left / 1000),
      permanent: true,
    });
  }
}

interface Manifest {
  source: string;
  recordedAt: string;
  baseUrl?: string;
  /** What the data is, when it is not a plain recording (e.g. "synthetic demo data"). */
  note?: string;
  /** Request key → file (relative to the folder) and the status it answered with. */
  entries: Record<string, { file: string; status?: number }>;
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${dir} is not a snapshot folder: it has no manifest.json`);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest> | null;
  if (typeof manifest?.entries !== 'object' || manifest.entries === null || Array.isArray(manifest.entries)) throw new Error(`${file} has no entries (the recorded answers)`);
  return manifest as Manifest;
}

/**
 * Answers from a recorded snapshot folder: `manifest.json` maps request keys to files. A
 * request not in the snapshot answers 404, or, when the snapshot holds exactly one answer for
 * that path, that answer (recorded time windows differ by seconds from replayed ones).
 */
export class SnapshotSource implements DataSource {
  readonly mode = 'snapshot' as const;
  readonly name: string;
  readonly recordedAt: Date;
  readonly note: string | undefined;
  readonly #dir: string;
  readonly #manifest: Manifest;
  readonly #byPath = new Map<string, string[]>();

  constructor(dir: string, name: string) {
    this.#dir = dir;
    this.name = name;
    this.#manifest = readManifest(dir);
    this.recordedAt = new Date(this.#manifest.recordedAt);
    this.note = this.#manifest.note;
    if (Number.isNaN(this.recordedAt.getTime())) throw new Error(`${dir}/manifest.json: recordedAt is not a date`);
    for (const key of Object.keys(this.#manifest.entries)) {
      const p = key.split('?')[0]!;
      this.#byPath.set(p, [...(this.#byPath.get(p) ?? []), key]);
    }
  }

  #find(pathname: string, query?: Query) {
    const exact = this.#manifest.entries[requestKey(pathname, query)];
    if (exact) return exact;
    const same = this.#byPath.get(pathname);
    return same?.length === 1 ? this.#manifest.entries[same[0]!] : undefined;
  }

  paths(prefix: string): string[] {
    return [...this.#byPath.keys()].filter((p) => p.startsWith(prefix));
  }

  async get<T = unknown>(pathname: string, query?: Query): Promise<SourceResponse<T>> {
    const entry = this.#find(pathname, query);
    if (!entry) return { status: 404, body: { error: { code: 'not_found', message: `not in the ${this.name} snapshot` } } as T };
    return { status: entry.status ?? 200, body: JSON.parse(readFileSync(path.join(this.#dir, entry.file), 'utf8')) as T };
  }

  async getText(pathname: string, query?: Query): Promise<SourceResponse<string>> {
    const entry = this.#find(pathname, query);
    if (!entry) return { status: 404, body: '' };
    return { status: entry.status ?? 200, body: readFileSync(path.join(this.#dir, entry.file), 'utf8') };
  }
}

function fileFor(key: string, ext: string): string {
  const [p, q] = key.split('?') as [string, string | undefined];
  const base = p.replace(/^\/+/, '').replace(/[^A-Za-z0-9._/-]/g, '_') || 'root';
  const hashed = q ? `__${createHash('sha1').update(q).digest('hex').slice(0, 12)}` : '';
  return !hashed && base.endsWith(ext) ? base : `${base}${hashed}${ext}`;
}

/** Live answers, also written into a snapshot folder (`svc snapshot record`). */
export class RecordingSource implements DataSource {
  readonly mode = 'live' as const;
  readonly recordedAt = null;
  readonly name: string;
  readonly #manifest: Manifest;

  constructor(
    private readonly live: DataSource,
    private readonly dir: string,
    recordedAt: Date,
    baseUrl?: string,
    note?: string,
  ) {
    this.name = live.name;
    this.#created = !existsSync(dir);
    // The folder is made with the first response saved: a recording that fails at once leaves none behind.
    const existing = existsSync(path.join(dir, 'manifest.json')) ? readManifest(dir) : null;
    this.#manifest = { source: live.name, recordedAt: recordedAt.toISOString(), baseUrl, note, entries: existing?.entries ?? {} };
  }

  #save(key: string, status: number, content: string, ext: string): void {
    // Requests still in flight when the recording failed (it fails at its first error) save nothing.
    if (this.#abandoned) return;
    const file = fileFor(key, ext);
    mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
    writeFileSync(path.join(this.dir, file), content);
    this.#manifest.entries[key] = status === 200 ? { file } : { file, status };
  }

  async get<T = unknown>(pathname: string, query?: Query): Promise<SourceResponse<T>> {
    const res = await this.live.get<T>(pathname, query);
    this.#save(requestKey(pathname, query), res.status, `${JSON.stringify(res.body)}\n`, '.json');
    return res;
  }

  async getText(pathname: string, query?: Query): Promise<SourceResponse<string>> {
    const res = await this.live.getText(pathname, query);
    this.#save(requestKey(pathname, query), res.status, res.body, path.extname(pathname) || '.txt');
    return res;
  }

  /** Writes manifest.json; call once the recording is complete. */
  finish(): string {
    const file = path.join(this.dir, 'manifest.json');
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(this.#manifest, null, 1)}\n`);
    return file;
  }

  /** The recording failed: a folder it made is removed (half a snapshot, without a manifest, serves nothing); one that was there is left as it was found, apart from the answers written into it. */
  abandon(): void {
    this.#abandoned = true;
    if (this.#created) rmSync(this.dir, { recursive: true, force: true });
  }

  readonly #created: boolean;
  #abandoned = false;
}
