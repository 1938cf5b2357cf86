import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startService, type TestService } from '../helpers/service.js';

/**
 * An API key's secret sent where a key's id goes (`DELETE /v1/admin/keys/sk-svc-…`, an operator
 * pasting the leaked key): the 404 said the whole secret back and the access log wrote it down.
 */
let svc: TestService | null = null;
afterEach(async () => {
  await svc?.close();
  svc = null;
});

function capturingLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: createLogger('info', sink), lines };
}

describe('a key secret sent in place of its id', () => {
  it('is refused by its first characters only, and the access log keeps none of it', async () => {
    const { log, lines } = capturingLog();
    svc = await startService({ log });
    const { apiKey } = await svc.account();
    for (const [method, path, auth] of [
      ['DELETE', `/v1/admin/keys/${apiKey}`, svc.adminKey],
      ['DELETE', `/v1/account/keys/${apiKey}`, apiKey],
    ] as const) {
      const res = await fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${auth}` } });
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { error: { message: string; code: string; param: string } };
      expect(body.error.code).toBe('key_not_found');
      expect(body.error.param).toBe('id');
      expect(body.error.message).toBe(`'${apiKey.slice(0, 11)}…' is an API key's secret, not its id: revoke a key by its id (key_…), which the account's list of keys gives.`);
      expect(body.error.message).not.toContain(apiKey);
    }
    // The key still works: nothing was revoked.
    expect((await fetch(`${svc.url}/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const access = lines.filter((l) => l.includes('"msg":"request"') && l.includes('/keys/'));
    expect(access).toHaveLength(2);
    for (const line of access) {
      expect(line).toContain('sk-svc-…');
      expect(line).not.toContain(apiKey.slice(7));
    }
  });

  it('an unknown id is still said as sent', async () => {
    svc = await startService();
    const res = await fetch(`${svc.url}/v1/admin/keys/key_nope`, { method: 'DELETE', headers: { authorization: `Bearer ${svc.adminKey}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("No API key with id 'key_nope'.");
  });
});
