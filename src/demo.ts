import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT, type Config } from './config.js';
import { randomToken } from './ids.js';
import { serve } from './serve.js';

const DEMO_EMAIL = 'demo@svc.local';
const DEMO_KEY_NAME = 'svc demo (printed at start)';

/**
 * `svc demo` (npm run demo): the whole service offline, on the snapshots shipped in
 * snapshots/, with its own data dir and a Pro demo account whose key and web password (new at
 * every start) are printed.
 */
export async function demo(config: Config): Promise<number> {
  const kalshiDir = path.join(PACKAGE_ROOT, 'snapshots', 'kalshi');
  const secDir = path.join(PACKAGE_ROOT, 'snapshots', 'sec');
  if (!config.kalshi.snapshotDir && existsSync(kalshiDir)) config.kalshi.snapshotDir = kalshiDir;
  if (!config.sec.snapshotDir && existsSync(secDir)) config.sec.snapshotDir = secDir;
  if (!process.env.SVC_DATA_DIR) config.storage.dataDir = path.resolve('data', 'demo');
  // Its Pro account and its reports on synthetic data must never reach a real database, where
  // live servers would serve those reports as stored ones: the demo keeps to SQLite in its data dir.
  if (config.storage.databaseUrl) {
    process.stderr.write(`svc demo: SVC_DATABASE_URL is ignored; the demo keeps its accounts and reports in SQLite under ${config.storage.dataDir}, apart from your database.\n`);
    config.storage.databaseUrl = '';
  }
  return serve(config, async (service, url) => {
    const accounts = service.deps.accounts;
    const existing = await service.deps.store.db.selectFrom('accounts').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
    const accountId = existing?.id ?? (await accounts.createAccount({ email: DEMO_EMAIL, plan: 'pro', credits: 100 })).account.id;
    // The key printed at this start replaces the one printed at the last (and an account's first,
    // unnamed key): restarts do not pile keys up to the account's limit. Keys made on the web stay.
    for (const k of await accounts.listKeys(accountId)) {
      if (k.revokedAt === null && (k.name === DEMO_KEY_NAME || (!existing && k.name === null))) await accounts.revokeKey(k.id);
    }
    const { secret } = await accounts.issueKey(accountId, { name: DEMO_KEY_NAME });
    const password = randomToken(20);
    await accounts.setPassword(accountId, password);
    const events = config.kalshi.snapshotDir ? demoEventUrls(config.kalshi.snapshotDir) : [];
    const ask = (model: string, input: string) => [
      `  curl -s ${url}/v1/responses -H "Authorization: Bearer $SVC_KEY" -H 'Content-Type: application/json' \\`,
      `    -d '{"model":"${model}","input":"${input}"}' | jq -r '.output[0].content[0].text'`,
    ];
    return [
      '',
      `svc demo is running offline at ${url} (data in ${config.storage.dataDir}).`,
      `Demo account ${accountId} (Pro plan): API key ${secret}`,
      '',
      `Web pages: log in at ${url}/login as ${DEMO_EMAIL} with password ${password}, then open the playground.`,
      '',
      `  export SVC_KEY=${secret}`,
      ...(config.sec.snapshotDir ? [...ask('svc-agent', 'What was Apple revenue in Q3 2024?'), ...ask('svc-agent', 'Microsoft revenue and net income for the last 8 quarters'), ''] : []),
      ...ask('svc-agent', 'what are the odds of a Fed cut in December?'),
      '',
      ...(events[0]
        ? [
            ...ask('svc-prediction-markets-agent', events[0]),
            '',
            `Events in the Kalshi demo snapshot (${events.length}):`,
            ...events.map((e) => `  ${e}`),
          ]
        : []),
      '',
    ];
  });
}

/** Event page addresses for the events recorded in a Kalshi snapshot folder. */
export function demoEventUrls(dir: string): string[] {
  const file = path.join(dir, 'events.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { url: string }[]).map((e) => e.url);
}
