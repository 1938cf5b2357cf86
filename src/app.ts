import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { newId } from './ids.js';
import { ReportFlights } from './reports/flights.js';
import { ReportStore } from './reports/store.js';
import type { Logger } from 'pino';
import { resolveAdminKey, type AdminKey } from './accounts/admin-key.js';
import { AccountService } from './accounts/service.js';
import { SessionStore } from './accounts/sessions.js';
import { builtinAgents } from './agents/index.js';
import { AgentRegistry } from './agents/registry.js';
import { DocumentService } from './data/documents/service.js';
import { resolveSigningSecret } from './data/documents/signing.js';
import type { DataSource } from './data/source.js';
import { kalshiSource, secSources } from './data/sources.js';
import type { Agent } from './agents/types.js';
import { publicUrl, type Config } from './config.js';
import { createLogger } from './logger.js';
import { ResponseStore } from './responses/store.js';
import { ChatCompletionStore } from './chat-completions/store.js';
import { ConversationStore } from './conversations/store.js';
import { buildServer, type ServerHandle } from './server/app.js';
import type { ServerDeps } from './server/deps.js';
import { InFlight, STILL_WAITING, settledWithin } from './server/stream.js';
import { openStore, type Store } from './store/db.js';
import { IdempotencyStore } from './billing/idempotency.js';
import { MemoryRateLimiter, SqlRateLimiter } from './billing/rate-limit.js';
import { Billing } from './billing/service.js';
import { Sweeper } from './billing/sweeper.js';

/** What agents are built from. */
export interface Core {
  config: Config;
  log: Logger;
  store: Store;
  accounts: AccountService;
  billing: Billing;
  kalshi: DataSource;
  sec: { api: DataSource; www: DataSource };
  /** Rendered documents (filing PDFs) and their signed links. */
  documents: DocumentService;
  reports: ReportStore;
  flights: ReportFlights;
  /** The base URL clients reach this server at (SVC_PUBLIC_URL, or the listening address). */
  publicUrl(): string;
}

export interface ServiceOptions {
  config: Config;
  log?: Logger;
  /** Agents registered besides the built-in ones (tests register scripted agents here). */
  agents?: Agent[] | ((core: Core) => Agent[]);
}

export interface Service {
  deps: ServerDeps;
  server: ServerHandle;
  adminKey: AdminKey;
  /** Starts listening; resolves with the base URL (`http://host:port`). */
  listen(): Promise<string>;
  /** Graceful stop: refuse new requests, let in-flight ones finish up to the grace period, flush, close storage. */
  close(): Promise<void>;
}

/**
 * On Postgres, replicas share one database but each reads its admin key and signing secret from
 * its own data dir when SVC_ADMIN_KEY or SVC_SIGNING_SECRET is unset: replicas on other machines
 * then hold other ones (the admin API answers on one replica only, and a document link one replica
 * signed is refused by the others). Says so at start-up, naming the settings; null on SQLite (one
 * process) or when both are set.
 */
export function perReplicaSecretsWarning(config: Config, from: { adminKeyFile: string | null; signingFile: string | null }): string | null {
  if (!config.storage.databaseUrl) return null;
  const unset = [
    ...(from.adminKeyFile ? [['SVC_ADMIN_KEY', from.adminKeyFile, 'the admin API answers on one replica only']] : []),
    ...(from.signingFile ? [['SVC_SIGNING_SECRET', from.signingFile, 'a document link one replica signed is refused by the others']] : []),
  ];
  if (!unset.length) return null;
  const names = unset.map(([name]) => name).join(' and ');
  return `svc: SVC_DATABASE_URL is set, so other replicas may share this database, but ${names} ${unset.length > 1 ? 'are' : 'is'} not: this replica uses ${unset.map(([, file]) => file).join(' and ')} from its own data dir, and a replica with another data dir holds ${unset.length > 1 ? 'others' : 'another'} (${unset.map(([, , what]) => what).join('; ')}). Give every replica the same ${unset.map(([name]) => name).join(' and the same ')} (\`openssl rand -hex 32\`${unset.length > 1 ? ' each' : ''}), or ignore this if every replica uses this data dir.`;
}

/** The composition root: storage, services, agents and the HTTP server, wired once. */
export async function createService(options: ServiceOptions): Promise<Service> {
  const { config } = options;
  const log = options.log ?? createLogger(config.server.logLevel);
  const store = await openStore({
    dataDir: config.storage.dataDir,
    databaseUrl: config.storage.databaseUrl,
    statementTimeoutMs: config.storage.statementTimeoutMs,
    onConnectionError: (err) => log.warn({ err }, 'a database connection failed; the next query opens another'),
  });
  const adminKey = resolveAdminKey(config.auth.adminKey, config.storage.dataDir);
  const background = (what: string) => (err: unknown) => log.error({ err }, `background write failed: ${what}`);
  const accounts = new AccountService(store.db, { keyCacheTtlMs: config.auth.keyCacheTtlMs, onBackgroundError: background('api key last-used') });
  const sessions = new SessionStore(store.db, { idleMs: config.web.sessionIdleHours * 3_600_000, absoluteMs: config.web.sessionMaxHours * 3_600_000 });
  const reports = new ReportStore(store.db, { cacheBytes: config.reports.cacheBytes });
  const billing = new Billing(store.db, { leaseMs: config.billing.holdLeaseMs, delivered: (holds) => reports.paidBy(holds) });
  // Several replicas share Postgres, so their counters must live there; SQLite means one process.
  const rateLimiter = store.dialect === 'postgres' ? new SqlRateLimiter(store.db) : new MemoryRateLimiter();
  let baseUrl = publicUrl(config);
  const signing = resolveSigningSecret(config.documents.signingSecret, config.storage.dataDir);
  // Results that must not lie in the database in clear (a new API key's secret) are sealed with it.
  const idempotency = new IdempotencyStore(store.db, { ttlMs: config.billing.idempotencyTtlMs, lockMs: config.billing.idempotencyLockMs, sealSecret: signing.secret });
  const documents = new DocumentService({
    dataDir: config.storage.dataDir,
    signingSecret: signing.secret,
    linkTtlSeconds: config.documents.linkTtlSeconds,
    publicUrl: () => baseUrl,
  });
  const responses = new ResponseStore(store.db, { onBackgroundError: background('stored responses'), leaseMs: config.responses.leaseMs, answers: (ref) => reports.byRef(ref) });
  const chatCompletions = new ChatCompletionStore(store.db);
  const conversations = new ConversationStore(store.db);
  // A generation's claim lapses at half its hold's lease: a replica that takes over a dead leader's
  // generation finds the hold still held and renews it, before any sweeper could release it.
  const flights = new ReportFlights(reports, { owner: `${os.hostname()}:${process.pid}:${newId('', 8)}`, leaseMs: Math.max(500, Math.floor(config.billing.holdLeaseMs / 2)), pollMs: 500 });
  // Replicas on Postgres usually leave through one address: the upstreams' rates and EDGAR's block are counted for all of them there.
  const budget = store.dialect === 'postgres' ? { db: store.db, onError: background('upstream budget (this process goes on alone)') } : null;
  const core: Core = { config, log, store, accounts, billing, kalshi: kalshiSource(config, budget), sec: secSources(config, log, budget), documents, reports, flights, publicUrl: () => baseUrl };
  const agents = new AgentRegistry();
  for (const agent of builtinAgents(core)) agents.register(agent);
  const extra = typeof options.agents === 'function' ? options.agents(core) : (options.agents ?? []);
  for (const agent of extra) agents.register(agent, { replace: true });
  const inflight = new InFlight();
  const deps: ServerDeps = {
    config,
    log,
    store,
    accounts,
    sessions,
    responses,
    chatCompletions,
    conversations,
    agents,
    billing,
    reports,
    documents,
    idempotency,
    rateLimiter,
    adminKey: adminKey.secret,
    inflight,
    startedAt: Math.floor(Date.now() / 1000),
    publicUrl: () => baseUrl,
  };
  const server = buildServer(deps);
  const sweeper = new Sweeper(config.billing.sweepIntervalMs, log, [
    ['expired credit holds', () => billing.sweep()],
    ['expired idempotency keys', () => idempotency.purge()],
    ['expired web sessions', () => sessions.purge()],
    ['old rate-limit windows', () => rateLimiter.prune().then(() => 0)],
    ...(config.responses.retentionDays > 0
      ? ([
          ['stored responses past their retention', () => responses.purgeCreatedBefore(Date.now() - config.responses.retentionDays * 86_400_000)],
          ['stored chat completions past their retention', () => chatCompletions.purgeCreatedBefore(Date.now() - config.responses.retentionDays * 86_400_000)],
        ] as [string, () => Promise<number>][])
      : []),
  ]);
  let closed: Promise<void> | null = null;

  return {
    deps,
    server,
    adminKey,
    async listen() {
      await server.app.listen({ host: config.server.host, port: config.server.port });
      sweeper.start();
      const addr = server.app.server.address() as AddressInfo;
      baseUrl = publicUrl(config, { host: config.server.host, port: addr.port });
      const perReplica = perReplicaSecretsWarning(config, { adminKeyFile: adminKey.source === 'file' ? (adminKey.file ?? null) : null, signingFile: signing.file });
      if (perReplica) log.warn(perReplica);
      if (!config.server.publicUrl && (config.server.host === '0.0.0.0' || config.server.host === '::')) {
        log.warn(`svc: SVC_PUBLIC_URL is not set, so links in answers (signed document links, the web pages' API address) use ${baseUrl}, which other machines cannot open although SVC_HOST=${config.server.host} accepts them: set SVC_PUBLIC_URL to the address clients use (e.g. https://svc.example.com).`);
      }
      return publicUrl({ ...config, server: { ...config.server, publicUrl: '' } }, { host: config.server.host, port: addr.port });
    },
    close() {
      closed ??= (async () => {
        server.beginClosing();
        sweeper.stop();
        const stopped = server.app.close();
        const started = Date.now();
        await inflight.drain(config.server.shutdownGraceMs);
        // Paid report generations outlive their requests: let them store their reports too.
        await flights.drain(Math.max(0, config.server.shutdownGraceMs - (Date.now() - started)));
        // Past the grace period, those still running stop and give their credits back while storage is open.
        await flights.stop(5000);
        // Streams that ended leave keep-alive sockets behind; nothing more will be served on them.
        server.app.server.closeIdleConnections?.();
        const timer = setTimeout(() => server.app.server.closeAllConnections?.(), 1000);
        timer.unref();
        await stopped;
        clearTimeout(timer);
        // A database that stopped answering must not keep the process from exiting: the orchestrator
        // would kill it anyway, without a word. Bounded, and what may be lost is logged.
        const deadline = Date.now() + config.server.shutdownStorageMs;
        const flushed = await settledWithin(Promise.allSettled([responses.flush(), accounts.flush()]), config.server.shutdownStorageMs);
        if (flushed === STILL_WAITING) {
          log.error({ storage: store.location, waitedMs: config.server.shutdownStorageMs }, 'storage did not answer while shutting down: stored responses and key last-used times still queued are lost');
        }
        const closedStore = await settledWithin(store.close(), Math.max(100, deadline - Date.now()));
        if (closedStore === STILL_WAITING) log.error({ storage: store.location }, 'storage did not close in time; exiting without it');
      })();
      return closed;
    },
  };
}
