import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/db.js';
import { describeBackends, freshPostgres } from '../helpers/backends.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeBackends('006_normal_emails', (backend) => {
  it('lowers the case of earlier emails, except where two accounts would then share one', async () => {
    const store = await openStore({ dataDir: dir, databaseUrl: backend.name === 'postgres' ? await freshPostgres() : '', migrate: false });
    try {
      const provider = { getMigrations: async () => migrations };
      // As the store's own migrate() does: Kysely's bookkeeping tables in this database's schema.
      const schema = store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]?.s : undefined;
      const migrator = new Migrator({ db: store.db, provider, migrationTableSchema: schema });
      expect((await migrator.migrateTo('005_ledger_no_truncate')).error).toBeUndefined();
      const row = (id: string, email: string) => ({ id, email, plan: 'free', credits: 0, created_at: 1, updated_at: 1 });
      await store.db.insertInto('accounts').values([row('a1', ' Ana@Example.COM'), row('b1', 'Bob@X.com'), row('b2', 'bob@x.com'), row('c1', 'carol@y.com')]).execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const emails = Object.fromEntries((await store.db.selectFrom('accounts').select(['id', 'email']).execute()).map((r) => [r.id, r.email]));
      expect(emails).toEqual({ a1: 'ana@example.com', b1: 'Bob@X.com', b2: 'bob@x.com', c1: 'carol@y.com' });
    } finally {
      await store.close();
    }
  });
});
