import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountService } from '../../src/accounts/service.js';
import { SessionStore } from '../../src/accounts/sessions.js';
import { openStore, type Store } from '../../src/store/db.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 21, 12);

afterAll(() => dropTestSchemas());

describeBackends('web sessions', (backend) => {
  let store: Store;
  let dataDir: string;
  let sessions: SessionStore;
  let accountId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-sessions-'));
    store = await openStore({ dataDir, databaseUrl: (await backend.env()).SVC_DATABASE_URL ?? '' });
    const accounts = new AccountService(store.db, { keyCacheTtlMs: 0, scrypt: { N: 1024, r: 8, p: 1 } });
    accountId = (await accounts.signUp({ email: `s-${backend.name}@example.com`, password: 'plum orbit canyon lantern' })).id;
    sessions = new SessionStore(store.db, { idleMs: 2 * HOUR, absoluteMs: 5 * HOUR });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds a session by its token only; each token and CSRF token is new', async () => {
    const a = await sessions.create(accountId, T0);
    const b = await sessions.create(accountId, T0);
    expect(a.token).not.toBe(b.token);
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    expect(a.session.id).not.toBe(a.token);
    expect((await sessions.lookup(a.token, T0 + 1000))?.account.id).toBe(accountId);
    expect(await sessions.lookup(a.token.slice(0, -1) + (a.token.endsWith('A') ? 'B' : 'A'), T0)).toBeNull();
    expect(await sessions.lookup('', T0)).toBeNull();
  });

  it('slides the idle expiry while used, up to the absolute limit', async () => {
    const { token } = await sessions.create(accountId, T0);
    // Unused for longer than the idle time: gone.
    expect(await sessions.lookup(token, T0 + 2 * HOUR)).toBeNull();

    const kept = (await sessions.create(accountId, T0)).token;
    for (let t = T0 + HOUR; t < T0 + 5 * HOUR; t += HOUR) expect(await sessions.lookup(kept, t)).not.toBeNull();
    // Used every hour, but the absolute limit still ends it.
    expect(await sessions.lookup(kept, T0 + 5 * HOUR)).toBeNull();
  });

  it('ends a session when it is destroyed, and purges expired rows', async () => {
    const { token } = await sessions.create(accountId, T0);
    await sessions.destroy(token);
    expect(await sessions.lookup(token, T0)).toBeNull();
    const fresh = await sessions.create(accountId, T0 + 10 * HOUR);
    const purged = await sessions.purge(T0 + 10 * HOUR);
    expect(purged).toBeGreaterThan(0);
    expect(await sessions.lookup(fresh.token, T0 + 10 * HOUR)).not.toBeNull();
    expect(await sessions.purge(T0 + 10 * HOUR)).toBe(0);
  });
});
