import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADAPTER_SETTINGS } from '../adapters/shared/config.js';
import { redactUrl } from './redact.js';

/**
 * Every setting the service reads: its place in config/default.json, the environment
 * variable that overrides it, and how it is validated. The README's settings table is
 * checked against this list by a test, so the two cannot drift apart.
 */
type Kind =
  | { type: 'string' }
  /** A host name or IP address to listen on; never empty (an empty host would listen on every interface). */
  | { type: 'host' }
  /** Empty, or at least `minLength` characters. */
  | { type: 'secret'; minLength?: number; hint?: string }
  /** `base`: paths are appended to it, so it has no query or fragment; `required`: never empty. */
  | { type: 'url'; protocols?: string[]; base?: boolean; required?: boolean }
  | { type: 'int'; min: number; max: number }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'bool' }
  /** `required`: an empty value is refused (not read as the current directory). */
  | { type: 'path'; required?: boolean }
  /** Comma-separated web origins ("https://app.example.com"), or "*". */
  | { type: 'origins' }
  /** Which proxies in front are trusted: off, a number of hops, or their addresses (see SVC_TRUST_PROXY). */
  | { type: 'proxies' };

export interface SettingSpec {
  env: string;
  path: string;
  kind: Kind;
  doc: string;
}

const HTTP = ['http:', 'https:'];

export const SETTINGS: readonly SettingSpec[] = [
  { env: 'SVC_HOST', path: 'server.host', kind: { type: 'host' }, doc: 'Interface the HTTP server listens on.' },
  { env: 'SVC_PORT', path: 'server.port', kind: { type: 'int', min: 0, max: 65535 }, doc: 'TCP port of the HTTP server (0 picks a free one).' },
  {
    env: 'SVC_PUBLIC_URL',
    path: 'server.publicUrl',
    kind: { type: 'url', protocols: HTTP, base: true },
    doc: 'Address clients reach the service at, used to build links (signed document URLs). Default: http://SVC_HOST:SVC_PORT.',
  },
  {
    env: 'SVC_TRUST_PROXY',
    path: 'server.trustProxy',
    kind: { type: 'proxies' },
    doc: 'Behind reverse proxies: how many (true is one), or their addresses and CIDR ranges, comma-separated; the client address and scheme are then read from X-Forwarded-For and X-Forwarded-Proto as those proxies wrote them (log-in throttling, Secure cookies). false when clients connect directly.',
  },
  {
    env: 'SVC_CORS_ORIGINS',
    path: 'server.corsOrigins',
    kind: { type: 'origins' },
    doc: 'Web origins whose pages may call the API-key routes under /v1 from the browser (CORS), comma-separated, or * for any; empty: none. The admin API, the playground and the web pages are never opened to other origins.',
  },
  { env: 'SVC_BODY_LIMIT_BYTES', path: 'server.bodyLimitBytes', kind: { type: 'int', min: 1024, max: 64 * 1024 * 1024 }, doc: 'Largest accepted request body; larger bodies get 413.' },
  {
    env: 'SVC_REQUEST_TIMEOUT_MS',
    path: 'server.requestTimeoutMs',
    kind: { type: 'int', min: 1000, max: 3_600_000 },
    doc: 'Longest a client may take to send a whole request (headers and body); slower ones get 408 and are closed.',
  },
  { env: 'SVC_SHUTDOWN_GRACE_MS', path: 'server.shutdownGraceMs', kind: { type: 'int', min: 0, max: 3_600_000 }, doc: 'On SIGTERM, how long in-flight streams may run before they are ended.' },
  { env: 'SVC_SHUTDOWN_STORAGE_MS', path: 'server.shutdownStorageMs', kind: { type: 'int', min: 100, max: 600_000 }, doc: 'On SIGTERM, how long the last writes and closing storage may take before the process exits anyway.' },
  { env: 'SVC_KEEPALIVE_MS', path: 'server.keepAliveIntervalMs', kind: { type: 'int', min: 100, max: 15_000 }, doc: 'Interval of SSE comment keep-alives while a stream is waiting (at most 15 s).' },
  {
    env: 'SVC_LOG_LEVEL',
    path: 'server.logLevel',
    kind: { type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    doc: 'pino log level.',
  },
  { env: 'SVC_DATA_DIR', path: 'storage.dataDir', kind: { type: 'path', required: true }, doc: 'Directory for the SQLite database, the generated admin key and secrets, rendered documents.' },
  {
    env: 'SVC_DATABASE_URL',
    path: 'storage.databaseUrl',
    kind: { type: 'url', protocols: ['postgres:', 'postgresql:'] },
    doc: 'postgres://… switches storage from the embedded SQLite database to Postgres.',
  },
  {
    env: 'SVC_DATABASE_STATEMENT_TIMEOUT_MS',
    path: 'storage.statementTimeoutMs',
    kind: { type: 'int', min: 1000, max: 600_000 },
    doc: 'Postgres: the longest one query may take (a lock held elsewhere, a stalled connection) before it fails and its request gets an error, instead of hanging; migrations at start-up have no limit.',
  },
  {
    env: 'SVC_ADMIN_KEY',
    path: 'auth.adminKey',
    kind: { type: 'secret', minLength: 16, hint: 'generate one with `openssl rand -hex 32`, or leave it empty to have one generated into SVC_DATA_DIR/admin.key' },
    doc: 'Bearer key for /v1/admin (at least 16 characters). When empty, one is generated on first start and stored in SVC_DATA_DIR/admin.key.',
  },
  { env: 'SVC_KEY_CACHE_TTL_MS', path: 'auth.keyCacheTtlMs', kind: { type: 'int', min: 0, max: 5000 }, doc: 'How long a verified API key is trusted before it is looked up again (bounds how fast a revocation reaches every replica).' },
  { env: 'SVC_WEB_SIGNUP', path: 'web.signup', kind: { type: 'bool' }, doc: 'Whether anyone may create an account at /signup (off: accounts only through the admin API or CLI).' },
  {
    env: 'SVC_SECURE_COOKIES',
    path: 'web.secureCookies',
    kind: { type: 'enum', values: ['auto', 'always', 'never'] },
    doc: 'Secure attribute of the sign-in cookies. auto: over https (or an https SVC_PUBLIC_URL) and on loopback hosts; never is only for plain-http tests on another host.',
  },
  { env: 'SVC_SESSION_IDLE_HOURS', path: 'web.sessionIdleHours', kind: { type: 'int', min: 1, max: 24 * 90 }, doc: 'A web session unused this long ends.' },
  { env: 'SVC_SESSION_MAX_HOURS', path: 'web.sessionMaxHours', kind: { type: 'int', min: 1, max: 24 * 365 }, doc: 'A web session ends this long after sign-in, however active.' },
  {
    env: 'SVC_LOGIN_ATTEMPTS_PER_MINUTE',
    path: 'web.loginAttemptsPerMinute',
    kind: { type: 'int', min: 1, max: 1000 },
    doc: 'Log-in attempts allowed per email from one client address per minute (four times as many per client address across emails); sign-ups per client address per minute.',
  },
  { env: 'SVC_REPORT_COST_CREDITS', path: 'billing.reportCostCredits', kind: { type: 'int', min: 1, max: 1_000_000 }, doc: 'Credits one generated prediction-market report costs (at least 1).' },
  { env: 'SVC_HOLD_LEASE_MS', path: 'billing.holdLeaseMs', kind: { type: 'int', min: 1000, max: 86_400_000 }, doc: 'Lease of a credit hold; a running job renews it, and the sweeper releases holds whose lease lapsed.' },
  { env: 'SVC_SWEEP_INTERVAL_MS', path: 'billing.sweepIntervalMs', kind: { type: 'int', min: 100, max: 3_600_000 }, doc: 'How often expired holds are released, expired idempotency keys and sessions purged, and stored responses and chat completions past their retention deleted.' },
  { env: 'SVC_IDEMPOTENCY_TTL_MS', path: 'billing.idempotencyTtlMs', kind: { type: 'int', min: 60_000, max: 30 * 86_400_000 }, doc: 'How long an Idempotency-Key and its stored result are kept (24 h).' },
  { env: 'SVC_IDEMPOTENCY_LOCK_MS', path: 'billing.idempotencyLockMs', kind: { type: 'int', min: 1000, max: 3_600_000 }, doc: 'Lock of a running idempotent request, renewed while it runs; if its process dies, a retry may take over after this.' },
  { env: 'SVC_RATE_LIMIT_FREE', path: 'rateLimits.free', kind: { type: 'int', min: 1, max: 10_000_000 }, doc: 'Requests per minute per API key on the Free plan.' },
  { env: 'SVC_RATE_LIMIT_PLUS', path: 'rateLimits.plus', kind: { type: 'int', min: 1, max: 10_000_000 }, doc: 'Requests per minute per API key on the Plus plan.' },
  { env: 'SVC_RATE_LIMIT_PRO', path: 'rateLimits.pro', kind: { type: 'int', min: 1, max: 10_000_000 }, doc: 'Requests per minute per API key on the Pro plan.' },
  { env: 'SVC_RATE_LIMIT_ENTERPRISE', path: 'rateLimits.enterprise', kind: { type: 'int', min: 1, max: 10_000_000 }, doc: 'Requests per minute per API key on the Enterprise plan.' },
  { env: 'SVC_KALSHI_API_URL', path: 'kalshi.apiUrl', kind: { type: 'url', protocols: HTTP, base: true, required: true }, doc: "Kalshi's public Trade API v2 base URL." },
  { env: 'SVC_KALSHI_SNAPSHOT_DIR', path: 'kalshi.snapshotDir', kind: { type: 'path' }, doc: 'Read Kalshi data from this recorded snapshot folder instead of the network.' },
  { env: 'SVC_KALSHI_RPS', path: 'kalshi.requestsPerSecond', kind: { type: 'int', min: 1, max: 20 }, doc: 'Most requests per second sent to Kalshi, by all replicas together on Postgres (by this process on SQLite).' },
  { env: 'SVC_KALSHI_TIMEOUT_MS', path: 'kalshi.timeoutMs', kind: { type: 'int', min: 100, max: 120_000 }, doc: 'Timeout of one Kalshi request.' },
  { env: 'SVC_KALSHI_RETRIES', path: 'kalshi.retries', kind: { type: 'int', min: 0, max: 10 }, doc: 'Retries of a Kalshi request that got 429, 5xx or timed out (exponential backoff, Retry-After honoured).' },
  { env: 'SVC_SEC_API_URL', path: 'sec.apiUrl', kind: { type: 'url', protocols: HTTP, base: true, required: true }, doc: 'SEC data API base URL (submissions, companyfacts).' },
  { env: 'SVC_SEC_WWW_URL', path: 'sec.wwwUrl', kind: { type: 'url', protocols: HTTP, base: true, required: true }, doc: 'SEC website base URL (company_tickers.json, filing documents under /Archives).' },
  { env: 'SVC_SEC_USER_AGENT', path: 'sec.userAgent', kind: { type: 'string' }, doc: 'User-Agent with a contact, which the SEC requires (e.g. "Acme Research ops@acme.example").' },
  { env: 'SVC_SEC_SNAPSHOT_DIR', path: 'sec.snapshotDir', kind: { type: 'path' }, doc: 'Read SEC data from this recorded snapshot folder instead of the network.' },
  { env: 'SVC_SEC_RPS', path: 'sec.requestsPerSecond', kind: { type: 'int', min: 1, max: 10 }, doc: 'Most requests per second sent to the SEC, by all replicas together on Postgres (its fair-access limit is 10 per address).' },
  { env: 'SVC_SEC_TIMEOUT_MS', path: 'sec.timeoutMs', kind: { type: 'int', min: 100, max: 120_000 }, doc: 'Timeout of one SEC request.' },
  { env: 'SVC_SEC_BLOCK_PAUSE_MS', path: 'sec.blockPauseMs', kind: { type: 'int', min: 0, max: 3_600_000 }, doc: 'After the SEC answers 403 (it blocks clients over its rate limit for about 10 minutes, longer if requests go on), send it nothing for this long; 0 disables the pause.' },
  { env: 'SVC_SEC_RETRIES', path: 'sec.retries', kind: { type: 'int', min: 0, max: 10 }, doc: 'Retries of an SEC request that got 429, 5xx or timed out.' },
  { env: 'SVC_SIGNING_SECRET', path: 'documents.signingSecret', kind: { type: 'secret', minLength: 16, hint: 'generate one with `openssl rand -hex 32`, or leave it empty to have one generated into SVC_DATA_DIR/signing.key' }, doc: 'HMAC secret for signed document links; when empty, one is generated into SVC_DATA_DIR. Give every replica the same.' },
  { env: 'SVC_DOCUMENT_LINK_TTL_S', path: 'documents.linkTtlSeconds', kind: { type: 'int', min: 60, max: 7 * 86_400 }, doc: 'Lifetime of a signed document link.' },
  {
    env: 'SVC_RESPONSE_RETENTION_DAYS',
    path: 'responses.retentionDays',
    kind: { type: 'int', min: 0, max: 3650 },
    doc: 'Days a stored response, or a chat completion created with store: true, is kept after it was created (OpenAI keeps them 30); older ones are deleted by the sweeper. 0 keeps them for ever.',
  },
  {
    env: 'SVC_RESPONSE_LEASE_MS',
    path: 'responses.leaseMs',
    kind: { type: 'int', min: 1000, max: 3_600_000 },
    doc: 'How long a stored response in progress outlives the last renewal by the process producing it; after that, readers on any replica find it failed (response_interrupted).',
  },
  { env: 'SVC_REPORT_CACHE_BYTES', path: 'reports.cacheBytes', kind: { type: 'int', min: 0, max: 8 * 1024 ** 3 }, doc: 'Memory for stored reports kept in this process (LRU, bounded in bytes).' },
  { env: 'SVC_MARKETS_SEARCH_REFRESH_MS', path: 'search.refreshMs', kind: { type: 'int', min: 1000, max: 86_400_000 }, doc: 'How often the index of open Kalshi events used by svc-markets-search-agent is refreshed.' },
  { env: 'SVC_LLM_BASE_URL', path: 'llm.baseUrl', kind: { type: 'url', protocols: HTTP }, doc: 'OpenAI-compatible upstream (OpenAI, vLLM, Ollama, LM Studio) for routing and writing; empty: deterministic writers only.' },
  { env: 'SVC_LLM_API_KEY', path: 'llm.apiKey', kind: { type: 'secret' }, doc: 'API key of the LLM upstream.' },
  { env: 'SVC_LLM_MODEL', path: 'llm.model', kind: { type: 'string' }, doc: 'Model name at the LLM upstream.' },
  { env: 'SVC_LLM_TIMEOUT_MS', path: 'llm.timeoutMs', kind: { type: 'int', min: 100, max: 600_000 }, doc: 'Timeout of one LLM call; on timeout or error the deterministic writer answers instead.' },
];

export interface Config {
  server: {
    host: string;
    port: number;
    publicUrl: string;
    /** false, a number of proxy hops, or the proxies' addresses and CIDR ranges (fastify's trustProxy). */
    trustProxy: false | number | string[];
    /** Allowed browser origins for /v1 (CORS); ['*'] for any, [] for none. */
    corsOrigins: string[];
    bodyLimitBytes: number;
    requestTimeoutMs: number;
    shutdownGraceMs: number;
    /** After the grace period: the bound on the last writes and closing storage (a database that stopped answering). */
    shutdownStorageMs: number;
    keepAliveIntervalMs: number;
    logLevel: string;
  };
  storage: { dataDir: string; databaseUrl: string; statementTimeoutMs: number };
  auth: { adminKey: string; keyCacheTtlMs: number };
  web: { signup: boolean; secureCookies: 'auto' | 'always' | 'never'; sessionIdleHours: number; sessionMaxHours: number; loginAttemptsPerMinute: number };
  billing: { reportCostCredits: number; holdLeaseMs: number; sweepIntervalMs: number; idempotencyTtlMs: number; idempotencyLockMs: number };
  rateLimits: Record<'free' | 'plus' | 'pro' | 'enterprise', number>;
  kalshi: SourceSettings;
  sec: SourceSettings & { wwwUrl: string; userAgent: string; blockPauseMs: number };
  documents: { signingSecret: string; linkTtlSeconds: number };
  reports: { cacheBytes: number };
  responses: { leaseMs: number; retentionDays: number };
  search: { refreshMs: number };
  llm: { baseUrl: string; apiKey: string; model: string; timeoutMs: number };
}

/** An upstream data source: where it is, or the snapshot standing in for it, and how politely to call it. */
export interface SourceSettings {
  apiUrl: string;
  snapshotDir: string;
  requestsPerSecond: number;
  timeoutMs: number;
  retries: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The project folder (the nearest one with a package.json), whether running from src/ or dist/. */
export const PACKAGE_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

export function readDefaults(file = path.join(PACKAGE_ROOT, 'config', 'default.json')): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

function flatten(obj: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, out);
    else out.set(key, v);
  }
  return out;
}

function parseValue(spec: SettingSpec, raw: unknown, source: string): unknown {
  const fail = (why: string): never => {
    // A URL's password (a database URL's) is never shown either.
    const shown = spec.kind.type === 'secret' ? '(hidden)' : typeof raw === 'string' ? JSON.stringify(redactUrl(raw)) : JSON.stringify(raw);
    throw new ConfigError(`invalid setting ${spec.env} (${source}) = ${shown}: ${why}`);
  };
  const k = spec.kind;
  switch (k.type) {
    case 'string':
      if (typeof raw !== 'string') fail('must be a string');
      return raw;
    case 'path': {
      if (typeof raw !== 'string') fail('must be a string');
      const p = (raw as string).trim();
      if (k.required && !p) fail('must not be empty (it would mean the current directory): name a directory, or leave the variable unset for ./data');
      return p;
    }
    case 'secret': {
      if (typeof raw !== 'string') fail('must be a string');
      // A secret from a file or a Kubernetes secret often ends with a newline: it is not part of it.
      const secret = (raw as string).trim();
      if (/\s/.test(secret)) fail('must not contain spaces or line breaks');
      if (k.minLength && raw !== '' && secret.length < k.minLength) fail(`must be at least ${k.minLength} characters${k.hint ? `; ${k.hint}` : ''}`);
      return secret;
    }
    case 'host': {
      if (typeof raw !== 'string') fail('must be a string');
      const host = (raw as string).trim();
      if (!host) fail('must not be empty (an empty host listens on every interface): use 127.0.0.1 for this machine only, or 0.0.0.0 to mean every interface');
      if (/\s/.test(host)) fail('must be a host name or IP address, without spaces');
      if (host.includes('/')) fail('must be a host name or IP address, not a URL (the port is SVC_PORT)');
      return host;
    }
    case 'url': {
      if (typeof raw !== 'string') fail('must be a string');
      const s = (raw as string).trim();
      if (s === '') return k.required ? fail('must not be empty: it is where this data comes from') : '';
      let u: URL;
      try {
        // `http:host` parses (as http://host/) but is a typo more often than not.
        if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) throw new TypeError('no //');
        u = new URL(s);
      } catch {
        return fail('must be an absolute URL, like https://host/path');
      }
      if (k.protocols && !k.protocols.includes(u.protocol)) fail(`must use ${k.protocols.map((p) => p.replace(':', '')).join(' or ')}`);
      if (k.base && /[?#]/.test(s)) fail('must not have a query string or fragment: paths are appended to it');
      // The scheme as URLs compare it (`HTTPS://` is https), the rest as written.
      return `${u.protocol}${s.slice(s.indexOf(':') + 1)}`.replace(/\/+$/, '');
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (!Number.isSafeInteger(n)) fail('must be an integer');
      if (n < k.min || n > k.max) fail(`must be between ${k.min} and ${k.max}`);
      return n;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      return fail(s ? 'must be true or false' : 'must be true or false (it is set but empty: unset it to keep the default)');
    }
    case 'enum': {
      // Named values in any case (`INFO` is `info`), as plan names are in the admin API and CLI.
      const value = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      const known = k.values.find((v) => v.toLowerCase() === value);
      return known ?? fail(`must be one of ${k.values.join(', ')}`);
    }
    case 'proxies': {
      if (raw === false || raw === true) return raw ? 1 : false;
      const s = (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : fail('must be true, false, a number of proxies, or their addresses')).trim();
      const word = s.toLowerCase();
      // "true" is the one proxy in front: trusting every hop would let a client name its own address.
      if (['true', 'yes', 'on'].includes(word)) return 1;
      if (['false', 'no', 'off', '', '0'].includes(word)) return false;
      if (/^\d+$/.test(s)) return Number(s) <= 10 ? Number(s) : fail('must be at most 10 proxies');
      return s.split(',').map((entry) => {
        const e = entry.trim();
        const [address, bits, extra] = e.split('/');
        const family = isIP(address ?? '');
        const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
        if (['loopback', 'linklocal', 'uniquelocal'].includes(e) || (family && okBits && extra === undefined)) return e;
        return fail(`'${e}' is not a proxy address (an IP address, a CIDR range such as 10.0.0.0/8, or loopback, linklocal, uniquelocal)`);
      });
    }
    case 'origins': {
      const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : fail('must be a list of origins');
      const origins = (list as unknown[]).map((o) => (typeof o === 'string' ? o.trim() : fail('must be a list of origins'))).filter(Boolean);
      if (origins.includes('*')) return origins.length === 1 ? ['*'] : fail('* stands alone: it allows every origin');
      return origins.map((o) => {
        let u: URL;
        try {
          u = new URL(o);
        } catch {
          return fail(`'${o}' is not an origin such as https://app.example.com`);
        }
        if (!HTTP.includes(u.protocol) || u.origin !== o.replace(/\/$/, '')) fail(`'${o}' is not an origin such as https://app.example.com (scheme, host and port only)`);
        return u.origin;
      });
    }
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = target;
  for (const p of parts.slice(0, -1)) {
    cur[p] ??= {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/**
 * Pairs of settings where the first must not exceed the second (same unit), with why: each value
 * alone is in range, but together one of them would never take effect.
 */
export const ORDERED_SETTINGS: readonly (readonly [string, string, string])[] = [
  ['web.sessionIdleHours', 'web.sessionMaxHours', 'a web session ends at its maximum lifetime anyway, so an idle limit longer than that never applies'],
  ['billing.idempotencyLockMs', 'billing.idempotencyTtlMs', 'an Idempotency-Key is forgotten when it expires, so a lock outliving the key protects nothing'],
  // Rate limits rise with the plan (free, plus, pro, enterprise): an upgrade never lowers one.
  ['rateLimits.free', 'rateLimits.plus', 'a higher plan allows at least as many requests per minute as a lower one, so an upgrade never lowers the limit'],
  ['rateLimits.plus', 'rateLimits.pro', 'a higher plan allows at least as many requests per minute as a lower one, so an upgrade never lowers the limit'],
  ['rateLimits.pro', 'rateLimits.enterprise', 'a higher plan allows at least as many requests per minute as a lower one, so an upgrade never lowers the limit'],
];

const specOf = (dotted: string) => SETTINGS.find((s) => s.path === dotted)!;
const valueAt = (config: Config, dotted: string) => dotted.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config) as number;

/**
 * Builds the configuration from config/default.json overlaid by environment variables.
 * Throws ConfigError with one line naming the offending setting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: Record<string, unknown> = readDefaults()): Config {
  const flat = flatten(defaults);
  const known = new Set(SETTINGS.map((s) => s.path));
  for (const key of flat.keys()) {
    if (!known.has(key)) throw new ConfigError(`unknown setting "${key}" in config/default.json`);
  }
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined) setPath(out, spec.path, parseValue(spec, fromEnv, 'environment'));
    else if (flat.has(spec.path)) setPath(out, spec.path, parseValue(spec, flat.get(spec.path), 'config/default.json'));
    else throw new ConfigError(`missing setting "${spec.path}" in config/default.json`);
  }
  const config = out as unknown as Config;
  // Half an LLM upstream would leave LLM writing off without a word.
  config.llm.model = config.llm.model.trim();
  if (Boolean(config.llm.baseUrl) !== Boolean(config.llm.model)) {
    const [set, missing] = config.llm.baseUrl ? ['SVC_LLM_BASE_URL', 'SVC_LLM_MODEL'] : ['SVC_LLM_MODEL', 'SVC_LLM_BASE_URL'];
    throw new ConfigError(`invalid setting ${missing}: it is empty while ${set} is set; LLM writing needs both (the upstream's address and its model name), or neither`);
  }
  for (const [shorter, longer, why] of ORDERED_SETTINGS) {
    const [a, b] = [valueAt(config, shorter), valueAt(config, longer)];
    if (a <= b) continue;
    const [sa, sb] = [specOf(shorter), specOf(longer)];
    const from = (spec: SettingSpec) => (env[spec.env] !== undefined ? 'environment' : 'config/default.json');
    throw new ConfigError(`invalid settings: ${sa.env} (${from(sa)}) = ${a} is more than ${sb.env} (${from(sb)}) = ${b}; ${why}: make ${sa.env} at most ${b}, or raise ${sb.env}`);
  }
  config.storage.dataDir = path.resolve(config.storage.dataDir);
  for (const source of [config.kalshi, config.sec]) if (source.snapshotDir) source.snapshotDir = path.resolve(source.snapshotDir);
  return config;
}

/** The base URL links are built from: SVC_PUBLIC_URL, or the listening address. */
export function publicUrl(config: Config, listening?: { host: string; port: number }): string {
  if (config.server.publicUrl) return config.server.publicUrl;
  const host = listening?.host ?? config.server.host;
  const port = listening?.port ?? config.server.port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${port}`;
}

/**
 * SVC_* variables that are not settings but are read by the tests and tooling, or used by the
 * README's examples (`$SVC_KEY` holds an API key); they draw no warning.
 */
export const TOOLING_VARIABLES: readonly string[] = ['SVC_TEST_DATABASE_URL', 'SVC_TEST_ADAPTER_LOG', 'SVC_KEY'];

/** Edit distance counting an adjacent transposition as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name `name` was most likely meant as, if one is close enough (SVC_DATABASE → SVC_DATABASE_URL). */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const strip = (n: string) => n.toUpperCase().replace(/^SVC_/, '');
  const typed = strip(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const c = strip(candidate);
    const distance = editDistance(typed, c);
    // A name cut short or run on (SVC_DATABASE, SVC_DATA_DIRECTORY) counts as close too.
    const prefix = Math.min(typed.length, c.length) >= 4 && (c.startsWith(typed) || typed.startsWith(c));
    if (distance > Math.max(1, Math.floor(Math.max(typed.length, c.length) / 3)) && !prefix) continue;
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best?.name;
}

/**
 * One warning per SVC_* environment variable that nothing reads: neither a core setting, nor an
 * adapter's (the two share an environment), nor a tooling variable. A mistyped name
 * (SVC_DATABASE for SVC_DATABASE_URL) would otherwise be ignored in silence.
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  const settings = [...new Set([...SETTINGS.map((s) => s.env), ...ADAPTER_SETTINGS.map((s) => s.env).filter((e) => e.startsWith('SVC_'))])];
  const known = new Set([...settings, ...TOOLING_VARIABLES]);
  return Object.keys(env)
    .filter((name) => /^SVC_/i.test(name) && !known.has(name))
    .sort()
    .map((name) => {
      const meant = closestName(name, settings);
      return `${name} is not a setting svc knows, so it is ignored${meant ? `; did you mean ${meant}?` : ' (the settings are listed in the README)'}`;
    });
}
