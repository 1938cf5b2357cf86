import { AccountService, validateEmail, validatePlan } from './accounts/service.js';
import { Billing } from './billing/service.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { SvcError } from './errors.js';
import { openStore, type Store } from './store/db.js';

export class UsageError extends Error {}

interface Parsed {
  positional: string[];
  flags: Map<string, string>;
}

/** `--name value`, `--name=value`; a flag without a value reads as "true". */
export function parseArgs(argv: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq !== -1) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags.set(a.slice(2), argv[++i]!);
      else flags.set(a.slice(2), 'true');
    } else positional.push(a);
  }
  return { positional, flags };
}

function flag(p: Parsed, name: string, required: true): string;
function flag(p: Parsed, name: string, required?: false): string | undefined;
function flag(p: Parsed, name: string, required = false): string | undefined {
  const v = p.flags.get(name);
  if (required && (v === undefined || v === 'true')) throw new UsageError(`missing --${name}`);
  return v;
}

function intFlag(p: Parsed, name: string, fallback: number): number {
  const v = flag(p, name);
  if (v === undefined) return fallback;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer, got "${v}"`);
  return Number(v);
}

const HELP = `svc: the Agent Research API

Usage:
  svc serve                                         start the HTTP API (what npm start runs)
  svc accounts create --email E [--plan P] [--credits N]
  svc accounts set-plan --account ACCOUNT_ID --plan P
  svc credits grant --account ACCOUNT_ID --amount N [--note TEXT]   (negative N corrects a balance)
  svc keys create --account ACCOUNT_ID
  svc keys revoke KEY_ID
  svc ledger verify                                 exits 1 naming any account whose balance != sum of its ledger

Settings come from config/default.json overlaid by SVC_* environment variables (see README).
Admin commands talk to the same database as the server and print JSON.`;

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: config.storage.dataDir, databaseUrl: config.storage.databaseUrl });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function serve(config: Config): Promise<number> {
  const { createService } = await import('./app.js');
  const service = await createService({ config });
  const url = await service.listen();
  const log = service.deps.log;
  const admin = service.adminKey;
  log.info({ url, storage: service.deps.store.location }, `svc listening on ${url}`);
  if (admin.source === 'file') log.info({ file: admin.file }, admin.created ? `generated the admin key; it is in ${admin.file}` : `admin key read from ${admin.file}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      service.close().then(resolve, (err) => {
        log.error({ err }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  log.info('stopped');
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${HELP}\n`);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const key = `${command}${sub && !sub.startsWith('--') ? ` ${sub}` : ''}`;
  const args = parseArgs(sub && !sub.startsWith('--') ? rest : argv.slice(1));
  switch (key) {
    case 'serve':
      return serve(config);
    case 'accounts create':
      return withStore(config, async (store) => {
        const accounts = new AccountService(store.db, { keyCacheTtlMs: 0 });
        const credits = intFlag(args, 'credits', 0);
        if (credits < 0) throw new UsageError('--credits must not be negative');
        const { account, key: k, secret } = await accounts.createAccount({
          email: validateEmail(flag(args, 'email', true), '--email'),
          plan: validatePlan(flag(args, 'plan') ?? 'free', '--plan'),
          credits,
        });
        print({ id: account.id, email: account.email, plan: account.plan, credits: account.credits, api_key: secret, key_id: k.id });
        return 0;
      });
    case 'accounts set-plan':
      return withStore(config, async (store) => {
        const accounts = new AccountService(store.db, { keyCacheTtlMs: 0 });
        const a = await accounts.setPlan(flag(args, 'account', true), validatePlan(flag(args, 'plan', true), '--plan'));
        print({ id: a.id, email: a.email, plan: a.plan, credits: a.credits });
        return 0;
      });
    case 'credits grant':
      return withStore(config, async (store) => {
        const amount = intFlag(args, 'amount', 0);
        if (amount === 0) throw new UsageError('--amount must be a non-zero integer');
        const billing = new Billing(store.db, { leaseMs: config.billing.holdLeaseMs });
        const { balance, entry } = await billing.grant({ accountId: flag(args, 'account', true), amount, note: flag(args, 'note') ?? null });
        print({ account_id: entry.accountId, credits: balance, entry: { id: entry.id, kind: entry.kind, amount: entry.amount, balance_after: entry.balanceAfter, reason: entry.reason } });
        return 0;
      });
    case 'ledger verify':
      return withStore(config, async (store) => {
        const report = await new Billing(store.db, { leaseMs: config.billing.holdLeaseMs }).verify();
        print({ accounts: report.accounts, mismatches: report.mismatches, bad_holds: report.badHolds });
        if (report.mismatches.length || report.badHolds.length) {
          const names = [...report.mismatches.map((m) => `${m.accountId} (balance ${m.balance}, ledger ${m.ledgerSum})`), ...report.badHolds.map((h) => `${h.holdId}: ${h.problem}`)];
          process.stderr.write(`svc: ledger verification failed: ${names.join('; ')}\n`);
          return 1;
        }
        return 0;
      });
    case 'keys create':
      return withStore(config, async (store) => {
        const { key: k, secret } = await new AccountService(store.db, { keyCacheTtlMs: 0 }).issueKey(flag(args, 'account', true));
        print({ id: k.id, account_id: k.accountId, api_key: secret, prefix: k.prefix, last4: k.last4 });
        return 0;
      });
    case 'keys revoke': {
      const keyId = args.positional[0];
      if (!keyId) throw new UsageError('usage: svc keys revoke KEY_ID');
      return withStore(config, async (store) => {
        const k = await new AccountService(store.db, { keyCacheTtlMs: 0 }).revokeKey(keyId);
        print({ id: k.id, account_id: k.accountId, revoked: true, revoked_at: k.revokedAt });
        return 0;
      });
    }
    default:
      throw new UsageError(`unknown command "${key}"; run svc help`);
  }
}

/** Runs one command; returns the process exit code. Errors are one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof ConfigError) process.stderr.write(`svc: ${err.message}\n`);
    else if (err instanceof UsageError) process.stderr.write(`svc: ${err.message}\n`);
    else if (err instanceof SvcError) process.stderr.write(`svc: ${err.message}\n`);
    else process.stderr.write(`svc: ${(err as Error)?.stack ?? String(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
