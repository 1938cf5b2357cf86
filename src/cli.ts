import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { KEY_PREFIX } from './accounts/keys.js';
import { AccountService, validateEmail, validateKeyName, validatePlan, type Account } from './accounts/service.js';
import { Billing } from './billing/service.js';
import { ConfigError, PACKAGE_ROOT, SETTINGS, closestName, loadConfig, unknownVariableWarnings, type Config } from './config.js';
import { SvcError, withMessage } from './errors.js';
import { MAX_CREDITS, MAX_NOTE_LENGTH } from './server/routes/admin.js';
import { accountJson, entryJson, keyJson } from './server/views.js';
import { openStore, type Store } from './store/db.js';
import { redactUrl } from './redact.js';

export class UsageError extends Error {}

export interface Args {
  positional: string[];
  flags: Map<string, string>;
  /** Flags given with no value (their value in `flags` reads "true"). */
  bare?: Set<string>;
}

/**
 * `--name value`, `--name=value`; a flag without a value reads as "true". A flag given twice is
 * refused (which one was meant?). `switches` are the boolean flags (`--json`): they never take a
 * value, so the word after one is an argument (`--json extra` is not `--json=extra`).
 */
export function parseArgs(argv: string[], switches: readonly string[] = []): Args {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const bare = new Set<string>();
  const set = (name: string, value: string) => {
    if (flags.has(name)) throw new UsageError(`--${name} is given twice; give it once`);
    flags.set(name, value);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq !== -1 && switches.includes(a.slice(2, eq))) throw new UsageError(`--${a.slice(2, eq)} takes no value (it is on when given), got "${a}"`);
      if (eq !== -1) set(a.slice(2, eq), a.slice(eq + 1));
      else if (!switches.includes(a.slice(2)) && i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) set(a.slice(2), argv[++i]!);
      else {
        set(a.slice(2), 'true');
        bare.add(a.slice(2));
      }
    } else positional.push(a);
  }
  return { positional, flags, bare };
}

export function flag(p: Args, name: string, required: true): string;
export function flag(p: Args, name: string, required?: false): string | undefined;
export function flag(p: Args, name: string, required = false): string | undefined {
  const v = p.flags.get(name);
  if (required && (v === undefined || (p.bare ? p.bare.has(name) : v === 'true'))) throw new UsageError(`missing --${name}`);
  // `--account ""` (an unset shell variable) names nothing: said as such, not looked up.
  if (required && !v!.trim()) throw new UsageError(`--${name} is empty; give its value`);
  return v;
}

/**
 * Refuses flags a command does not take (a typo was silently ignored). A flag named after a
 * setting (`svc serve --port 9000`) is answered with that setting's variable, since settings are
 * never flags.
 */
export function onlyFlags(p: Args, names: readonly string[]): void {
  for (const name of p.flags.keys()) {
    if (names.includes(name)) continue;
    const env = `SVC_${name.toUpperCase().replace(/-/g, '_')}`;
    const spec = SETTINGS.find((s) => s.env === env);
    // The value is repeated only where it cannot be a secret (a key, a database URL's password).
    const shown = spec && ['int', 'bool', 'enum', 'host', 'path'].includes(spec.kind.type) && !p.bare?.has(name) && /^[\w./:,+-]+$/.test(p.flags.get(name)!);
    const setting = spec ? `; settings are environment variables, not flags: ${env}=${shown ? p.flags.get(name) : '…'} before the command` : '';
    throw new UsageError(`unknown flag --${name}; this command takes ${names.length ? names.map((n) => `--${n}`).join(', ') : 'no flags'}${setting}`);
  }
}

/** The flag, not given, that a lone argument is the value of by its shape: an email address, an account id. */
function flagForValue(value: string, names: readonly string[], args: Args): string | undefined {
  const shapes: [string, RegExp][] = [
    ['email', /^[^\s@]+@[^\s@]+$/],
    ['account', /^acct_\w+$/],
  ];
  return shapes.find(([name, shape]) => names.includes(name) && !args.flags.has(name) && shape.test(value))?.[0];
}

/**
 * A flag written short or with one dash (`-e a@b.c`, `-email`) was read as arguments ("unexpected
 * arguments "-e" "a@b.c""): said to be a flag, written in full, naming the closest one the
 * command takes. A negative number (`-5`) is an argument as typed.
 */
export function singleDashFlags(p: Args, names: readonly string[]): void {
  const word = p.positional.find((a) => /^-[A-Za-z]/.test(a));
  if (word === undefined) return;
  const typed = word.slice(1).split('=')[0]!.toLowerCase();
  const meant = typed.length === 1 ? names.filter((n) => n.startsWith(typed)) : [closestName(typed, names) ?? names.find((n) => n.startsWith(typed) || typed.startsWith(n))].filter((n) => n !== undefined);
  const takes = names.length ? `this command takes ${names.map((n) => `--${n}`).join(', ')}` : 'this command takes no flags';
  const hint = meant.length ? `did you mean ${meant.map((n) => `--${n}`).join(' or ')}? ` : '';
  throw new UsageError(`${word} is not a flag svc knows: flags are written in full with two dashes; ${hint}${takes}`);
}

/**
 * The folder a recording writes into (`--out`), checked before anything is fetched: a folder, or
 * one that can be made, in a place this process may write.
 */
export function recordingFolder(out: string): string {
  const dir = path.resolve(out);
  let probe = dir;
  while (!existsSync(probe)) {
    const parent = path.dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  if (!statSync(probe).isDirectory()) throw new UsageError(`--out ${out}: ${probe === dir ? 'is a file, not a folder' : `${probe} is a file, not a folder`}`);
  try {
    accessSync(probe, constants.W_OK);
  } catch {
    throw new UsageError(`--out ${out}: ${probe} is not writable by this user`);
  }
  return dir;
}

/** An integer flag; never one that loses precision, and within `bounds` when given. */
export function intFlag(p: Args, name: string, fallback: number, bounds?: { min: number; max: number }): number {
  const v = flag(p, name);
  if (v === undefined) return fallback;
  const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
  const inRange = bounds ? n >= bounds.min && n <= bounds.max : true;
  if (!Number.isSafeInteger(n) || !inRange) throw new UsageError(`--${name} must be an integer${bounds ? ` between ${bounds.min} and ${bounds.max}` : ''}, got "${v}"`);
  return n;
}

/**
 * A command-line value checked by the API's own validator: a value it refuses is a usage error
 * (exit 2), as every malformed flag or argument is, not a runtime failure (exit 1).
 */
export function checkedValue<T>(validate: () => T): T {
  try {
    return validate();
  } catch (err) {
    return refusedValue(err);
  }
}

/** Rethrows `err`, as a usage error when it is a value the API's validators refused. */
export function refusedValue(err: unknown): never {
  if (err instanceof SvcError && err.kind === 'invalid_request') throw new UsageError(err.message);
  throw err;
}

export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await atStartup(config, openStore({ dataDir: config.storage.dataDir, databaseUrl: config.storage.databaseUrl }));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

type SystemError = Error & { code?: string; syscall?: string; hostname?: string; address?: string; port?: number; path?: string; cause?: unknown };

const isWithin = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A Postgres URL as it may be shown (without its password), and where it points. */
function postgresTarget(url: string): { shown: string; host: string; port: string } {
  try {
    const u = new URL(url);
    return { shown: redactUrl(url), host: u.hostname, port: u.port || '5432' };
  } catch {
    return { shown: '(unparsable URL)', host: '', port: '' };
  }
}

/** What is wrong with a snapshot folder, or '' if it looks usable. */
function snapshotProblem(dir: string): string {
  if (!existsSync(dir)) return 'does not exist';
  if (!statSync(dir).isDirectory()) return 'is not a folder';
  const manifest = path.join(dir, 'manifest.json');
  if (!existsSync(manifest)) return 'has no manifest.json, so it is not a snapshot folder';
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch (err) {
    return `has an unreadable manifest.json (${(err as Error).message})`;
  }
  const m = parsed as { recordedAt?: unknown; entries?: unknown } | null;
  if (typeof m !== 'object' || m === null || typeof m.entries !== 'object' || m.entries === null || Array.isArray(m.entries)) return 'has a manifest.json without its entries (the recorded answers), so it is not a snapshot folder';
  if (typeof m.recordedAt !== 'string' || Number.isNaN(Date.parse(m.recordedAt))) return 'has a manifest.json without a recordedAt date';
  return '';
}

/**
 * The one line that explains a start-up failure (storage, the data dir, snapshot folders, the
 * listening address) by the setting behind it, its value and what to do; null when the error is
 * not one of those.
 */
export function explainStartupError(error: unknown, config: Config): string | null {
  const chain: SystemError[] = [];
  for (let e = error; e instanceof Error && chain.length < 5; e = (e as SystemError).cause) chain.push(e as SystemError);
  const { host, port } = config.server;
  const { dataDir, databaseUrl } = config.storage;
  const pgTarget = postgresTarget(databaseUrl);
  const dbHost = databaseUrl ? pgTarget.host : '';
  const db = `SVC_DATABASE_URL ${pgTarget.shown}`;
  for (const err of chain) {
    const code = err.code ?? '';
    // A database a newer svc migrated (a rolling deploy's old replicas, a rollback).
    const newer = /previously executed migration (\S+) is missing/.exec(err.message);
    if (newer) {
      const where = databaseUrl ? db : `SVC_DATA_DIR ${dataDir}`;
      return `${where}: the database was migrated by a newer version of svc (it has migration ${newer[1]}, which this version does not know); run that version or a newer one against it.`;
    }
    // Listening: SVC_HOST and SVC_PORT.
    if (err.syscall === 'listen' || err.syscall === 'bind') {
      if (code === 'EADDRINUSE') return `SVC_PORT ${port} is already in use by another process; choose another port with SVC_PORT.`;
      if (code === 'EACCES') return `SVC_PORT ${port} needs privileges this process does not have (ports below 1024 usually do); choose a port of 1024 or more with SVC_PORT.`;
      if (code === 'EADDRNOTAVAIL') return `SVC_HOST ${host} is not an address of this machine; use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or the address of one of its interfaces.`;
    }
    if (err.syscall === 'getaddrinfo' && err.hostname === host && err.hostname !== dbHost) {
      return `SVC_HOST ${host} is neither an IP address nor a host name that resolves (${code}); use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or the address of one of its interfaces.`;
    }
    // Postgres: SVC_DATABASE_URL.
    if (databaseUrl) {
      if (code === 'ECONNREFUSED') return `${db}: nothing accepts connections at ${err.address ?? dbHost}:${err.port ?? pgTarget.port} (ECONNREFUSED); start Postgres there, or correct the host and port in SVC_DATABASE_URL.`;
      if ((code === 'ENOTFOUND' || code === 'EAI_AGAIN') && err.hostname === dbHost) return `${db}: the host ${dbHost} does not resolve (${code}); correct the host in SVC_DATABASE_URL.`;
      if (['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code)) return `${db}: cannot reach Postgres (${code}); check the host and port in SVC_DATABASE_URL and the network between them.`;
      if (code === '3D000') return `${db}: ${err.message} (${code}); create that database, or name an existing one in SVC_DATABASE_URL.`;
      if (code.startsWith('28')) return `${db}: Postgres refused the log-in: ${err.message} (${code}); check the user and password in SVC_DATABASE_URL.`;
      if (/^(08|3F|53|57P0)/.test(code) || code === '42501') return `${db}: Postgres refused to start svc: ${err.message} (${code}); check SVC_DATABASE_URL and the database's permissions.`;
      if (/SSL|Connection terminated/i.test(err.message) && !code) return `${db}: ${err.message}; check SVC_DATABASE_URL (sslmode) and the server's settings.`;
    }
    // The data dir: SVC_DATA_DIR.
    if (err.path && /^E[A-Z]+$/.test(code) && (isWithin(err.path, dataDir) || isWithin(dataDir, err.path))) {
      if (code === 'EEXIST' || code === 'ENOTDIR') return `SVC_DATA_DIR ${dataDir} is not a directory (a file is in the way at ${err.path}); point SVC_DATA_DIR at a directory svc may create or write to.`;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `SVC_DATA_DIR ${dataDir} is not writable by this process (${code} at ${err.path}); point SVC_DATA_DIR at a directory this user may write to, or fix its permissions.`;
      if (code === 'ENOSPC' || code === 'EDQUOT') return `SVC_DATA_DIR ${dataDir}: the disk is full (${code}); free some space or point SVC_DATA_DIR elsewhere.`;
      return `SVC_DATA_DIR ${dataDir} cannot be used: ${err.message}; point SVC_DATA_DIR at a writable directory.`;
    }
    if (!databaseUrl && /^SQLITE_(CANTOPEN|READONLY|NOTADB|CORRUPT|IOERR|FULL|PERM)/.test(code)) {
      return `SVC_DATA_DIR ${dataDir}: cannot use the SQLite database ${path.join(dataDir, 'svc.db')} (${code}: ${err.message}); point SVC_DATA_DIR at a writable directory, or move the damaged file aside.`;
    }
    // Snapshot folders.
    for (const [env, dir, record, live] of [
      ['SVC_KALSHI_SNAPSHOT_DIR', config.kalshi.snapshotDir, 'svc snapshot record', 'the live Kalshi API'],
      ['SVC_SEC_SNAPSHOT_DIR', config.sec.snapshotDir, 'svc snapshot record-sec', 'the live SEC APIs'],
    ] as const) {
      if (!dir || !(err.message.includes(dir) || (err.path && isWithin(err.path, dir)) || err instanceof SyntaxError)) continue;
      const problem = snapshotProblem(dir);
      if (problem || !(err instanceof SyntaxError)) return `${env} ${dir} ${problem || `cannot be used: ${err.message}`}; point it at a folder recorded with ${record}, or leave ${env} empty to use ${live}.`;
    }
  }
  return null;
}

/** Start-up work: its failures become one line naming the setting behind them (see explainStartupError). */
export async function atStartup<T>(config: Config, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const explained = explainStartupError(err, config);
    throw explained ? new ConfigError(explained.replace(/\s*\n\s*/g, ' ')) : err;
  }
}

interface Command {
  usage: string;
  /**
   * The flags it takes, each with a value; any other flag, or one without its value, is a usage
   * error before anything runs (`--note` alone was recorded as the note "true"). Commands that
   * check their own flags leave this out.
   */
  flags?: readonly string[];
  /** Its boolean flags (`--json`): given alone, never with a value, and never taking the next word as one. */
  switches?: readonly string[];
  /** The most arguments it takes besides its flags (0 unless given): more is a usage error, not ignored. */
  positionals?: number;
  run(args: Args, config: Config): Promise<number>;
}

/** `--name` given with no value: parseArgs reads it as "true", which no value-taking flag means. */
function checkFlags(args: Args, flags: readonly string[], switches: readonly string[] = []): void {
  onlyFlags(args, [...flags, ...switches]);
  for (const name of flags) if (args.bare?.has(name)) throw new UsageError(`--${name} needs a value`);
}

/** The account named by `--account ID` or `--email E` (one of them), checked before storage is opened. */
function accountLookup(args: Args): (accounts: AccountService) => Promise<Account> {
  const id = flag(args, 'account');
  const email = flag(args, 'email');
  if ((id === undefined) === (email === undefined)) throw new UsageError('give --account ID or --email E (one of them)');
  if (id !== undefined && !id.trim()) throw new UsageError('--account is empty; give its value');
  if (email !== undefined) checkedValue(() => validateEmail(email, '--email'));
  return (accounts) => (id !== undefined ? accounts.getAccount(id) : accounts.findByEmail(email!));
}

const accountsOf = (store: Store) => new AccountService(store.db, { keyCacheTtlMs: 0 });
const billingOf = (store: Store, config: Config) => new Billing(store.db, { leaseMs: config.billing.holdLeaseMs });

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('the password is read from standard input, not typed at a terminal prompt: pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A command's work against an upstream: when it cannot be reached or times out, the error also
 * names the setting holding its address, since a mistyped address looks the same as an outage.
 */
async function naming<T>(work: Promise<T>, settings: readonly (readonly [string, string])[]): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof SvcError) || !['upstream_unavailable', 'upstream_timeout'].includes(err.code)) throw err;
    throw withMessage(err, `${err.message.replace(/\.$/, '')}, or check ${settings.map(([env, url]) => `${env} (${redactUrl(url)})`).join(' and ')}.`);
  }
}

/** Every command, by its words. Modules with commands of their own are imported only when used. */
const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'svc serve                                   start the HTTP API (what npm start runs)',
    flags: [],
    run: async (_args, config) => atStartup(config, (await import('./serve.js')).serve(config)),
  },
  'accounts create': {
    usage: 'svc accounts create --email E [--plan free|plus|pro|enterprise] [--credits N]',
    flags: ['email', 'plan', 'credits'],
    run: (args, config) => {
      // Flags are checked before storage is opened: a usage error never depends on the database.
      // The admin API's bounds.
      const credits = intFlag(args, 'credits', 0, { min: 0, max: MAX_CREDITS });
      const email = checkedValue(() => validateEmail(flag(args, 'email', true), '--email'));
      const plan = checkedValue(() => validatePlan(flag(args, 'plan') ?? 'free', '--plan'));
      return withStore(config, async (store) => {
        const { account, key, secret } = await accountsOf(store).createAccount({ email, plan, credits });
        // What POST /v1/admin/accounts answers, and the key's id on its own for scripts.
        print({ ...accountJson(account), api_key: secret, key: keyJson(key), key_id: key.id });
        return 0;
      });
    },
  },
  'accounts set-plan': {
    usage: 'svc accounts set-plan --account ID --plan free|plus|pro|enterprise',
    flags: ['account', 'plan'],
    run: (args, config) => {
      const accountId = flag(args, 'account', true);
      const plan = checkedValue(() => validatePlan(flag(args, 'plan', true), '--plan'));
      return withStore(config, async (store) => {
        const { account, previousPlan } = await accountsOf(store).changePlan(accountId, plan);
        // What PATCH /v1/admin/accounts/{id} answers: the account (`plan` is the new one) and the plan it replaced.
        print({ ...accountJson(account), previous_plan: previousPlan });
        return 0;
      });
    },
  },
  'accounts set-password': {
    usage: 'svc accounts set-password --account ID   (reads the new password from standard input; ends its web sessions)',
    flags: ['account'],
    run: (args, config) => {
      const accountId = flag(args, 'account', true);
      return withStore(config, async (store) => {
        const password = (await readStdin()).replace(/\r?\n$/, '');
        if (!password) throw new UsageError('send the new password on standard input, e.g. `read -rs P && printf %s "$P" | svc accounts set-password --account acct_…`');
        // A password the rules refuse (too short, the email) is a value refused, like a flag's (exit 2).
        const a = await accountsOf(store).setPassword(accountId, password).catch(refusedValue);
        print({ id: a.id, email: a.email, password_set: true });
        return 0;
      });
    },
  },
  'accounts show': {
    usage: 'svc accounts show (--account ID | --email E)   an account, its API keys and its 20 newest ledger entries',
    flags: ['account', 'email'],
    run: (args, config) => {
      const lookup = accountLookup(args);
      return withStore(config, async (store) => {
        const accounts = accountsOf(store);
        const account = await lookup(accounts);
        const keys = await accounts.listKeys(account.id);
        const { entries, hasMore } = await billingOf(store, config).ledger(account.id, { limit: 20 });
        const ledger = entries.map(entryJson);
        // GET /v1/admin/accounts/{id}, with what GET /v1/account/keys and /v1/account/ledger answer that account.
        print({
          ...accountJson(account),
          keys: { object: 'list', data: keys.map((k) => keyJson(k)) },
          ledger: { object: 'list', data: ledger, first_id: ledger[0]?.id ?? null, last_id: ledger.at(-1)?.id ?? null, has_more: hasMore },
        });
        return 0;
      });
    },
  },
  'accounts list': {
    usage: 'svc accounts list [--limit N]                 accounts, newest first (20 unless --limit, at most 1000)',
    flags: ['limit'],
    run: (args, config) => {
      const limit = intFlag(args, 'limit', 20, { min: 1, max: 1000 });
      return withStore(config, async (store) => {
        const { accounts, hasMore } = await accountsOf(store).listAccounts(limit);
        print({ object: 'list', data: accounts.map(accountJson), has_more: hasMore });
        return 0;
      });
    },
  },
  'credits grant': {
    usage: 'svc credits grant --account ID --amount N [--note TEXT]   (a negative N corrects a balance)',
    flags: ['account', 'amount', 'note'],
    run: (args, config) => {
      // The admin API's bounds: a negative amount corrects a balance.
      if (!args.flags.has('amount')) throw new UsageError(`missing --amount (a non-zero integer between ${-MAX_CREDITS} and ${MAX_CREDITS}; a negative one corrects a balance)`);
      const amount = intFlag(args, 'amount', 0, { min: -MAX_CREDITS, max: MAX_CREDITS });
      if (amount === 0) throw new UsageError(`--amount must be a non-zero integer between ${-MAX_CREDITS} and ${MAX_CREDITS}`);
      const accountId = flag(args, 'account', true);
      const note = flag(args, 'note') ?? null;
      if (note !== null && note.length > MAX_NOTE_LENGTH) throw new UsageError(`--note is ${note.length} characters; at most ${MAX_NOTE_LENGTH} (as the admin API takes)`);
      return withStore(config, async (store) => {
        const { balance, entry } = await billingOf(store, config).grant({ accountId, amount, note });
        // What POST /v1/admin/accounts/{id}/credits answers (the balance this grant left, not a later
        // read), and for scripts the account id and that balance at the top, as earlier versions printed.
        const account = { ...accountJson(await accountsOf(store).getAccount(accountId)), credits: balance };
        print({ account, entry: entryJson(entry), account_id: entry.accountId, credits: balance });
        return 0;
      });
    },
  },
  'ledger verify': {
    usage: 'svc ledger verify                           exit 1 naming any account whose balance differs from its ledger',
    flags: [],
    run: (_args, config) =>
      withStore(config, async (store) => {
        const report = await billingOf(store, config).verify();
        // snake_case, as every other command prints.
        print({
          accounts: report.accounts,
          mismatches: report.mismatches.map((m) => ({ account_id: m.accountId, balance: m.balance, ledger_sum: m.ledgerSum })),
          bad_holds: report.badHolds.map((h) => ({ hold_id: h.holdId, problem: h.problem })),
        });
        if (!report.mismatches.length && !report.badHolds.length) return 0;
        const names = [...report.mismatches.map((m) => `${m.accountId} (balance ${m.balance}, ledger ${m.ledgerSum})`), ...report.badHolds.map((h) => `${h.holdId}: ${h.problem}`)];
        process.stderr.write(`svc: ledger verification failed: ${names.join('; ')}\n`);
        return 1;
      }),
  },
  'snapshot record': {
    usage: 'svc snapshot record <kalshi event url>... [--out DIR]   record what those reports need, for offline use',
    flags: ['out'],
    positionals: Infinity,
    run: async (args, config) => naming((await import('./agents/prediction-markets/cli.js')).snapshotRecord(args, config), [['SVC_KALSHI_API_URL', config.kalshi.apiUrl]]),
  },
  'snapshot record-sec': {
    usage: 'svc snapshot record-sec TICKER... [--out DIR] [--filings N]   record SEC data for those companies, for offline use',
    flags: ['out', 'filings'],
    positionals: Infinity,
    run: async (args, config) => naming((await import('./data/sec/record.js')).recordSecCommand(args, config), [['SVC_SEC_API_URL', config.sec.apiUrl], ['SVC_SEC_WWW_URL', config.sec.wwwUrl]]),
  },
  backtest: {
    usage: 'svc backtest --series TICKER [--hours 24] [--max-events 200] [--chart FILE.svg] [--json]   market vs model on settled markets',
    flags: ['series', 'hours', 'max-events', 'chart'],
    switches: ['json'],
    run: async (args, config) => naming((await import('./agents/prediction-markets/cli.js')).backtestCommand(args, config), [['SVC_KALSHI_API_URL', config.kalshi.apiUrl]]),
  },
  demo: {
    usage: 'svc demo                                    the service offline on the shipped snapshots, with a demo key',
    flags: [],
    run: async (_args, config) => atStartup(config, (await import('./demo.js')).demo(config)),
  },
  'keys create': {
    usage: 'svc keys create --account ID [--name NAME]   another key for the account; the name (at most 60 characters) shows in key listings',
    flags: ['account', 'name'],
    run: (args, config) => {
      const accountId = flag(args, 'account', true);
      const name = checkedValue(() => validateKeyName(flag(args, 'name'), '--name'));
      return withStore(config, async (store) => {
        const { key, secret } = await accountsOf(store).issueKey(accountId, { name });
        print(keyJson(key, secret));
        return 0;
      });
    },
  },
  'keys list': {
    usage: 'svc keys list (--account ID | --email E)     the account\'s API keys, revoked ones too (prefix, last 4, name, created, last used)',
    flags: ['account', 'email'],
    run: (args, config) => {
      const lookup = accountLookup(args);
      return withStore(config, async (store) => {
        const accounts = accountsOf(store);
        const account = await lookup(accounts);
        // What GET /v1/account/keys answers that account.
        print({ object: 'list', data: (await accounts.listKeys(account.id)).map((k) => keyJson(k)) });
        return 0;
      });
    },
  },
  'keys revoke': {
    usage: 'svc keys revoke KEY_ID | SECRET                a key, by its id or by its secret (sk-svc-…, when that is what leaked)',
    flags: [],
    positionals: 1,
    run: (args, config) => {
      const given = args.positional[0];
      if (!given) throw new UsageError('usage: svc keys revoke KEY_ID | SECRET');
      return withStore(config, async (store) => {
        const accounts = accountsOf(store);
        // A secret is looked up by its hash, and never repeated whole (it may be on a shared screen or in a log).
        const keyId = given.startsWith(KEY_PREFIX) ? await accounts.keyIdOfSecret(given) : given;
        if (keyId === null) throw new SvcError('not_found', { code: 'key_not_found', message: `No API key has the secret ${given.slice(0, KEY_PREFIX.length + 4)}… (its first characters); check it was copied whole, or find the key's id with svc keys list.`, param: 'id' });
        const k = await accounts.revokeKey(keyId);
        print({ ...keyJson(k), revoked: true });
        return 0;
      });
    },
  },
  slack: {
    usage: 'svc slack                                   run the Slack app (settings: README "Slack")',
    flags: [],
    run: async (args) => (await import('../adapters/slack/main.js')).main(args),
  },
  discord: {
    usage: 'svc discord                                 run the Discord bot (settings: README "Discord")',
    flags: [],
    run: async (args) => (await import('../adapters/discord/main.js')).main(args),
  },
  'discord register-commands': {
    usage: 'svc discord register-commands [--guild ID]  register /svc for one guild (instant) or globally',
    flags: ['guild'],
    run: async (args) => (await import('../adapters/discord/main.js')).registerCommandsMain(args),
  },
};

function help(): string {
  return [
    'svc: the Agent Research API',
    '',
    'Usage:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'svc <command> --help prints that command\'s usage; svc --version the version and the newest database migration it knows.',
    'Settings come from config/default.json overlaid by SVC_* environment variables (see README).',
    'Admin commands talk to the same database as the server and print JSON.',
  ].join('\n');
}

/** `svc --version`: the package's version and the newest migration it knows (what a database it migrated has). */
async function version(): Promise<string> {
  const { version: v } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  const names = Object.keys((await import('./store/migrations/index.js')).migrations).sort();
  return `svc ${v} (database migrations up to ${names[names.length - 1]})`;
}

async function run(argv: string[]): Promise<number> {
  if (argv.length === 1 && ['--version', '-v', 'version'].includes(argv[0]!)) {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }
  // `svc help accounts create` is `svc accounts create --help`.
  if (argv[0] === 'help' && argv.length > 1) return run([...argv.slice(1).filter((a) => a !== '--help' && a !== '-h'), '--help']);
  if (!argv.length || ['help', '--help', '-h'].includes(argv[0]!)) {
    process.stdout.write(`${help()}\n`);
    return argv.length ? 0 : 2;
  }
  // The longest run of leading words that names a command: `discord register-commands`, `serve`.
  const words = argv.filter((a) => !a.startsWith('--')).slice(0, 3);
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const name = words.slice(0, n).join(' ');
    if (argv.slice(0, n).join(' ') !== name) continue;
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) continue;
    // Warn, not stop: the adapters and the core share an environment.
    for (const warning of unknownVariableWarnings(process.env)) process.stderr.write(`svc: warning: ${warning}\n`);
    // `svc <command> --help`: that command's usage, nothing run.
    if (argv.slice(n).some((a) => a === '--help' || a === '-h')) {
      // A command that also heads a group (`svc discord`, `svc discord register-commands`): both.
      const under = Object.entries(COMMANDS).filter(([other]) => other.startsWith(`${name} `));
      process.stdout.write(under.length ? `Usage:\n${[command, ...under.map(([, c]) => c)].map((c) => `  ${c.usage}`).join('\n')}\n` : `Usage: ${command.usage}\n`);
      return 0;
    }
    const args = parseArgs(argv.slice(n), command.switches);
    singleDashFlags(args, [...(command.flags ?? []), ...(command.switches ?? [])]);
    if (command.flags) checkFlags(args, command.flags, command.switches);
    const most = command.positionals ?? 0;
    if (args.positional.length > most) {
      // `svc accounts create ana@example.com`: a value of a flag the command takes, given without the flag.
      const extra = args.positional.slice(most);
      const meant = extra.length === 1 ? flagForValue(extra[0]!, command.flags ?? [], args) : undefined;
      if (meant) throw new UsageError(`unexpected argument "${extra[0]}"; did you mean --${meant} ${extra[0]}? usage: ${command.usage.split(/\s{3,}/)[0]}`);
      throw new UsageError(`unexpected ${most ? 'extra ' : ''}argument${args.positional.length - most > 1 ? 's' : ''} ${args.positional.slice(most).map((a) => `"${a}"`).join(' ')}; usage: ${command.usage.split(/\s{3,}/)[0]}`);
    }
    return command.run(args, loadConfig());
  }
  // A group's name alone (`svc accounts`, `svc keys --help`): the usage of its commands.
  const group = Object.entries(COMMANDS).filter(([name]) => name.startsWith(`${words[0]} `));
  if (group.length && (argv.length === 1 || (argv.length === 2 && ['--help', '-h'].includes(argv[1]!)))) {
    process.stdout.write(`Usage:\n${group.map(([, c]) => `  ${c.usage}`).join('\n')}\n`);
    return argv.length === 1 ? 2 : 0;
  }
  // The words before the first flag name what was asked for (`svc nothing --x 1`: "nothing").
  const firstFlag = argv.findIndex((a) => a.startsWith('-'));
  const asked = firstFlag === 0 ? argv.slice(0, 1) : argv.slice(0, firstFlag === -1 ? 2 : Math.min(2, firstFlag));
  throw new UsageError(unknownCommand(asked));
}

/**
 * Words an operator reaches for that name a command of the group by another word (`keys delete`
 * is `keys revoke`): tried when no command word is close in spelling.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  create: ['new', 'add', 'make', 'issue', 'mint'],
  revoke: ['delete', 'del', 'remove', 'rm', 'disable', 'deactivate'],
  show: ['get', 'view', 'info', 'describe', 'inspect', 'display', 'balance'],
  list: ['ls', 'all', 'index'],
  grant: ['add', 'give', 'topup', 'top-up', 'credit'],
  verify: ['check', 'audit', 'validate'],
  'set-plan': ['plan', 'upgrade', 'downgrade', 'change-plan'],
  'set-password': ['password', 'passwd', 'reset-password'],
};

/**
 * Why a command is unknown, with the one meant when one is close (`acounts create`, `accounts
 * creat`, `keys delete`) and what exists where it was looked for: the group's commands when its
 * first word names (or nearly names) a group, else every command's first word.
 */
function unknownCommand(asked: readonly string[]): string {
  const head = `unknown command "${asked.join(' ')}"; ${suggestion(asked)}`;
  if (asked[0]?.startsWith('-')) return `${head}run svc help`;
  const names = Object.keys(COMMANDS);
  const groups = [...new Set(names.filter((n) => n.includes(' ')).map((n) => n.split(' ')[0]!))];
  const group = groups.includes(asked[0]!) ? asked[0]! : closestName(asked[0]!, groups);
  if (group && asked.length > 1) {
    const words = names.filter((n) => n.startsWith(`${group} `)).map((n) => n.slice(group.length + 1));
    // `credits show`, `ledger list`: an account's credits, ledger and keys are read with accounts show.
    const reading = ['show', 'list', ...SYNONYMS.show!, ...SYNONYMS.list!].includes(asked[1]!.toLowerCase());
    const elsewhere = reading && !head.includes('did you mean') && ['credits', 'ledger'].includes(group) ? `svc accounts show (--account ID | --email E) shows an account's credits and ledger; ` : '';
    return `${head}${elsewhere}svc ${group} has: ${words.join(', ')}; run svc ${group} --help for their usage`;
  }
  return `${head}svc has: ${[...new Set(names.map((n) => n.split(' ')[0]!))].join(', ')}; run svc help for their usage`;
}

/**
 * `did you mean "svc accounts create"? ` for a command mistyped (`acounts create`, `accounts creat`,
 * `acount`) or named by another word (`keys delete`), or nothing: the command or group whose
 * words are closest to those typed.
 */
function suggestion(asked: readonly string[]): string {
  if (asked[0]?.startsWith('-')) return '';
  const names = Object.keys(COMMANDS);
  const groups = [...new Set(names.filter((n) => n.includes(' ')).map((n) => n.split(' ')[0]!))];
  const firsts = [...new Set(names.map((n) => n.split(' ')[0]!))];
  // The first word alone, then, in a group, the command word within it (each held to being close).
  const first = firsts.includes(asked[0]!) ? asked[0]! : closestName(asked[0]!, firsts);
  if (!first) return '';
  if (asked.length < 2 || !groups.includes(first)) return first === asked[0] ? '' : `did you mean "svc ${first}"? `;
  const words = names.filter((n) => n.startsWith(`${first} `)).map((n) => n.slice(first.length + 1));
  const typed = asked[1]!.toLowerCase();
  const second = words.includes(typed) ? typed : (closestName(typed, words) ?? words.find((w) => SYNONYMS[w]?.includes(typed)));
  return second ? `did you mean "svc ${first} ${second}"? ` : first === asked[0] ? '' : `did you mean "svc ${first}"? `;
}

/** An error nobody foresaw: one line saying so, then its stack for the bug report. */
function unexpected(err: unknown): string {
  if (!(err instanceof Error)) return `svc: unexpected error: ${String(err)}\n`;
  const head = `${err.name}: ${err.message}`;
  const stack = err.stack ?? '';
  const frames = stack.startsWith(head) ? stack.slice(head.length).replace(/^\n/, '') : stack;
  return `svc: unexpected error (a bug, or a failure svc does not explain yet): ${head.split('\n')[0]}\n${frames ? `${frames}\n` : ''}`;
}

/** Runs one command; returns the process exit code. Errors are one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError || err instanceof SvcError) process.stderr.write(`svc: ${err.message}\n`);
    else process.stderr.write(unexpected(err));
    return err instanceof UsageError ? 2 : 1;
  }
}
