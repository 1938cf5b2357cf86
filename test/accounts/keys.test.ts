import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountService, MAX_ACTIVE_KEYS } from '../../src/accounts/service.js';
import { openStore } from '../../src/store/db.js';
import { PG_URL, describeBackends, dropTestSchemas, freshPostgres } from '../helpers/backends.js';

afterAll(() => dropTestSchemas());

/** Holds back the result of the key lookup (the one query that selects `key_id`) until let go. */
class SlowKeyLookup implements KyselyPlugin {
  gate: Promise<void> | null = null;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.gate && args.result.rows[0] && 'key_id' in args.result.rows[0]) await this.gate;
    return args.result;
  }
}

// On SQLite the queries of one process run one at a time on its one connection, so a revocation
// cannot overlap a lookup; on Postgres (a pool) it can.
describe.skipIf(!PG_URL)(`API key lookups on Postgres${PG_URL ? '' : ' (skipped: set SVC_TEST_DATABASE_URL=postgres://… to run)'}`, () => {
  it('a key revoked while a lookup of it was reading the database is refused at once afterwards (that lookup caches nothing); so is a plan change', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-keys-'));
    const store = await openStore({ dataDir, databaseUrl: await freshPostgres() });
    try {
      const slow = new SlowKeyLookup();
      const accounts = new AccountService(store.db.withPlugin(slow), { keyCacheTtlMs: 60_000 });
      const { account, key, secret } = await accounts.createAccount({ email: 'race@example.com', plan: 'free', credits: 0 });
      let open!: () => void;
      slow.gate = new Promise((r) => (open = r));
      const inFlight = accounts.authenticate(secret); // its lookup has read the row, still valid
      await new Promise((r) => setTimeout(r, 20));
      await accounts.revokeKey(key.id);
      open();
      expect(await inFlight).not.toBeNull(); // it started before the revocation
      slow.gate = null;
      expect(accounts.cachedAuthentication(secret)).toBeUndefined();
      expect(await accounts.authenticate(secret)).toBeNull();

      // A plan change is not undone by a lookup that read the old plan.
      const { secret: other } = await accounts.issueKey(account.id);
      slow.gate = new Promise((r) => (open = r));
      const reading = accounts.authenticate(other);
      await new Promise((r) => setTimeout(r, 20));
      await accounts.setPlan(account.id, 'pro');
      open();
      await reading;
      slow.gate = null;
      expect((await accounts.authenticate(other))!.account.plan).toBe('pro');
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describeBackends('active keys per account', (backend) => {
  it(`holds at most ${MAX_ACTIVE_KEYS}, exactly, when many are issued at once; revoking one makes room`, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-keys-'));
    const env = await backend.env();
    const store = await openStore({ dataDir, databaseUrl: env.SVC_DATABASE_URL });
    try {
      const accounts = new AccountService(store.db, { keyCacheTtlMs: 1000 });
      const { account, key } = await accounts.createAccount({ email: 'many@example.com', plan: 'free', credits: 0 });
      const outcomes = await Promise.allSettled(Array.from({ length: MAX_ACTIVE_KEYS + 20 }, () => accounts.issueKey(account.id)));
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(outcomes.length - refused.length).toBe(MAX_ACTIVE_KEYS - 1);
      expect(refused[0]).toMatchObject({ reason: { kind: 'conflict', code: 'too_many_keys', permanent: true } });
      expect((await accounts.listKeys(account.id)).filter((k) => k.revokedAt === null)).toHaveLength(MAX_ACTIVE_KEYS);
      await accounts.revokeKey(key.id);
      await accounts.issueKey(account.id);
      await expect(accounts.issueKey(account.id)).rejects.toMatchObject({ code: 'too_many_keys' });
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
