import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountService } from '../../src/accounts/service.js';
import { IdempotencyStore } from '../../src/billing/idempotency.js';
import { IdempotencySession } from '../../src/server/idempotency.js';
import { openStore } from '../../src/store/db.js';
import { describeBackends, dropTestSchemas } from '../helpers/backends.js';
import { notFound } from '../../src/errors.js';
import { answer, scriptedAgent, sleep } from '../helpers/scripted-agent.js';
import { startService } from '../helpers/service.js';

afterAll(() => dropTestSchemas());

describeBackends('an idempotency key unlocked while a renewal is in flight', (backend) => {
  it('stays unlocked: a retry right after the request failed takes over (no 409)', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-rv-'));
    const store = await openStore({ dataDir, databaseUrl: (await backend.env()).SVC_DATABASE_URL ?? '' });
    try {
      const accountId = (await new AccountService(store.db, { keyCacheTtlMs: 0 }).createAccount({ email: `i-${backend.name}@example.com`, plan: 'pro', credits: 0 })).account.id;
      const idem = new IdempotencyStore(store.db, { ttlMs: 86_400_000, lockMs: 3000 });
      // A renewal whose round trip is slow (a busy pool): it is computed, then lands 150 ms later.
      const renew = idem.renew.bind(idem);
      idem.renew = async (a, k, now = Date.now()) => {
        await sleep(150);
        return renew(a, k, now);
      };
      const req = { accountId, key: 'k1', endpoint: 'POST /v1/responses', fingerprint: 'f' };
      const claim = await idem.claim(req);
      expect(claim.kind).toBe('new');
      const session = new IdempotencySession(idem, accountId, 'k1', claim.kind === 'new' ? claim.since : 0, () => {});
      await sleep(1050); // renewals every 1000 ms: one has just started
      await session.streamEnded(false); // the request failed: unlock
      await sleep(300); // the retry comes shortly after
      await expect(idem.claim(req)).resolves.toMatchObject({ kind: 'new' });
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a request refused after its stream opened', () => {
  it('forgets its key as a quick refusal does: the corrected request runs under the same key', async () => {
    let gate: (() => void) | null = null;
    const svc = await startService({
      env: { SVC_KEEPALIVE_MS: '100' },
      agents: [
        scriptedAgent('svc-refuse', async function* (req) {
          // "slow": refused only once the stream has opened (an exchange answering late).
          if (req.messages.at(-1)!.content === 'slow') await new Promise<void>((resolve) => (gate = resolve));
          throw notFound('event_not_found', 'no such event', 'input');
        }),
        scriptedAgent('svc-ok', () => answer('fine')),
      ],
    });
    try {
      const { apiKey } = await svc.account({ plan: 'pro', credits: 10 });
      const send = (key: string, model: string, content: string) =>
        fetch(`${svc.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
        });
      const quick = await send('k-quick', 'svc-refuse', 'quick');
      expect(quick.status).toBe(404);
      await quick.text();
      const slow = await send('k-slow', 'svc-refuse', 'slow');
      expect(slow.status).toBe(200); // opened before the refusal
      while (!gate) await sleep(10);
      (gate as () => void)();
      expect(await slow.text()).toContain('event_not_found');
      for (const key of ['k-quick', 'k-slow']) {
        const corrected = await send(key, 'svc-ok', 'fixed');
        expect(corrected.status, key).toBe(200);
        expect(await corrected.text()).toContain('fine');
      }
    } finally {
      await svc.close();
    }
  });
});
