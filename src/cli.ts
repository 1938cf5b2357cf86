import { AccountService, validateEmail, validatePlan } from './accounts/service.js';
import { Billing } from './billing/service.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { SvcError } from './errors.js';
import { openStore, type Store } from './store/db.js';

export class UsageError extends Error {}

export interface Args {
  positional: string[];
  flags: Map<string, string>;
}

/** `--name value`, `--name=value`; a flag without a value reads as "true". */
export function parseArgs(argv: string[]): Args {
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

export function flag(p: Args, name: string, required: true): string;
export function flag(p: Args, name: string, required?: false): string | undefined;
export function flag(p: Args, name: string, required = false): string | undefined {
  const v = p.flags.get(name);
  if (required && (v === undefined || v === 'true')) throw new UsageError(`missing --${name}`);
  return v;
}

export function intFlag(p: Args, name: string, fallback: number): number {
  const v = flag(p, name);
  if (v === undefined) return fallback;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer, got "${v}"`);
  return Number(v);
}

export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: config.storage.dataDir, databaseUrl: config.storage.databaseUrl });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

interface Command {
  usage: string;
  run(args: Args, config: Config): Promise<number>;
}

const accountsOf = (store: Store) => new AccountService(store.db, { keyCacheTtlMs: 0 });
const billingOf = (store: Store, config: Config) => new Billing(store.db, { leaseMs: config.billing.holdLeaseMs });

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('the password is read from standard input, not typed at a terminal prompt: pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every command, by its words. Modules with commands of their own are imported only when used. */
const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'svc serve                                   start the HTTP API (what npm start runs)',
    run: async (_args, config) => (await import('./serve.js')).serve(config),
  },
  'accounts create': {
    usage: 'svc accounts create --email E [--plan P] [--credits N]',
    run: (args, config) =>
      withStore(config, async (store) => {
        const credits = intFlag(args, 'credits', 0);
        if (credits < 0) throw new UsageError('--credits must not be negative');
        const { account, key, secret } = await accountsOf(store).createAccount({
          email: validateEmail(flag(args, 'email', true), '--email'),
          plan: validatePlan(flag(args, 'plan') ?? 'free', '--plan'),
          credits,
        });
        print({ id: account.id, email: account.email, plan: account.plan, credits: account.credits, api_key: secret, key_id: key.id });
        return 0;
      }),
  },
  'accounts set-plan': {
    usage: 'svc accounts set-plan --account ID --plan P',
    run: (args, config) =>
      withStore(config, async (store) => {
        const a = await accountsOf(store).setPlan(flag(args, 'account', true), validatePlan(flag(args, 'plan', true), '--plan'));
        print({ id: a.id, email: a.email, plan: a.plan, credits: a.credits });
        return 0;
      }),
  },
  'accounts set-password': {
    usage: 'svc accounts set-password --account ID   (reads the new password from standard input; ends its web sessions)',
    run: (args, config) =>
      withStore(config, async (store) => {
        const accountId = flag(args, 'account', true);
        const password = (await readStdin()).replace(/\r?\n$/, '');
        if (!password) throw new UsageError('send the new password on standard input, e.g. `read -rs P && printf %s "$P" | svc accounts set-password --account acct_…`');
        const a = await accountsOf(store).setPassword(accountId, password);
        print({ id: a.id, email: a.email, password_set: true });
        return 0;
      }),
  },
  'credits grant': {
    usage: 'svc credits grant --account ID --amount N [--note TEXT]   (a negative N corrects a balance)',
    run: (args, config) =>
      withStore(config, async (store) => {
        const amount = intFlag(args, 'amount', 0);
        if (amount === 0) throw new UsageError('--amount must be a non-zero integer');
        const { balance, entry } = await billingOf(store, config).grant({ accountId: flag(args, 'account', true), amount, note: flag(args, 'note') ?? null });
        print({ account_id: entry.accountId, credits: balance, entry: { id: entry.id, kind: entry.kind, amount: entry.amount, balance_after: entry.balanceAfter, reason: entry.reason } });
        return 0;
      }),
  },
  'ledger verify': {
    usage: 'svc ledger verify                           exit 1 naming any account whose balance differs from its ledger',
    run: (_args, config) =>
      withStore(config, async (store) => {
        const report = await billingOf(store, config).verify();
        print({ accounts: report.accounts, mismatches: report.mismatches, bad_holds: report.badHolds });
        if (!report.mismatches.length && !report.badHolds.length) return 0;
        const names = [...report.mismatches.map((m) => `${m.accountId} (balance ${m.balance}, ledger ${m.ledgerSum})`), ...report.badHolds.map((h) => `${h.holdId}: ${h.problem}`)];
        process.stderr.write(`svc: ledger verification failed: ${names.join('; ')}\n`);
        return 1;
      }),
  },
  'snapshot record': {
    usage: 'svc snapshot record <kalshi event url>... [--out DIR]   record what those reports need, for offline use',
    run: async (args, config) => (await import('./agents/prediction-markets/cli.js')).snapshotRecord(args, config),
  },
  'snapshot record-sec': {
    usage: 'svc snapshot record-sec TICKER... [--out DIR] [--filings N]   record SEC data for those companies, for offline use',
    run: async (args, config) => (await import('./data/sec/record.js')).recordSecCommand(args, config),
  },
  backtest: {
    usage: 'svc backtest --series TICKER [--hours 24] [--chart FILE.svg] [--json]   market vs model on settled markets',
    run: async (args, config) => (await import('./agents/prediction-markets/cli.js')).backtestCommand(args, config),
  },
  demo: {
    usage: 'svc demo                                    the service offline on the shipped snapshots, with a demo key',
    run: async (_args, config) => (await import('./demo.js')).demo(config),
  },
  'keys create': {
    usage: 'svc keys create --account ID',
    run: (args, config) =>
      withStore(config, async (store) => {
        const { key, secret } = await accountsOf(store).issueKey(flag(args, 'account', true));
        print({ id: key.id, account_id: key.accountId, api_key: secret, prefix: key.prefix, last4: key.last4 });
        return 0;
      }),
  },
  'keys revoke': {
    usage: 'svc keys revoke KEY_ID',
    run: (args, config) => {
      const keyId = args.positional[0];
      if (!keyId) throw new UsageError('usage: svc keys revoke KEY_ID');
      return withStore(config, async (store) => {
        const k = await accountsOf(store).revokeKey(keyId);
        print({ id: k.id, account_id: k.accountId, revoked: true, revoked_at: k.revokedAt });
        return 0;
      });
    },
  },
  slack: {
    usage: 'svc slack                                   run the Slack app (settings: README "Slack")',
    run: async (args) => (await import('../adapters/slack/main.js')).main(args),
  },
  discord: {
    usage: 'svc discord                                 run the Discord bot (settings: README "Discord")',
    run: async (args) => (await import('../adapters/discord/main.js')).main(args),
  },
  'discord register-commands': {
    usage: 'svc discord register-commands [--guild ID]  register /svc for one guild (instant) or globally',
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
    'Settings come from config/default.json overlaid by SVC_* environment variables (see README).',
    'Admin commands talk to the same database as the server and print JSON.',
  ].join('\n');
}

async function run(argv: string[]): Promise<number> {
  if (!argv.length || ['help', '--help', '-h'].includes(argv[0]!)) {
    process.stdout.write(`${help()}\n`);
    return argv.length ? 0 : 2;
  }
  // The longest run of leading words that names a command: `discord register-commands`, `serve`.
  const words = argv.filter((a) => !a.startsWith('--')).slice(0, 3);
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const name = words.slice(0, n).join(' ');
    if (argv.slice(0, n).join(' ') !== name) continue;
    const command = COMMANDS[name];
    if (command) return command.run(parseArgs(argv.slice(n)), loadConfig());
  }
  throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"; run svc help`);
}

/** Runs one command; returns the process exit code. Errors are one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError || err instanceof SvcError) process.stderr.write(`svc: ${err.message}\n`);
    else process.stderr.write(`svc: ${(err as Error)?.stack ?? String(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
