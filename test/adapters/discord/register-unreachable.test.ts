import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { FakeHttpServer } from '../../helpers/fake-http.js';

const env = () => ({
  SVC_API_URL: 'https://svc.example.com',
  SVC_API_KEY: 'sk-svc-x',
  DISCORD_TOKEN: 't',
  DISCORD_APPLICATION_ID: '123456789012345678',
  SVC_ADAPTER_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-register-')),
});

// A Discord address nothing answers at was reported as "Discord refused the command registration:
// connect ECONNREFUSED …", as if Discord had said no.
describe('svc discord register-commands when Discord does not answer', () => {
  it('names the address it tried and the setting holding it', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const r = await runCli(['discord', 'register-commands', '--guild', '123456789'], { ...env(), SVC_DISCORD_API_URL: `http://127.0.0.1:${port}/api` });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`svc: cannot reach Discord's REST API at http://127.0.0.1:${port}/api (SVC_DISCORD_API_URL): connect ECONNREFUSED 127.0.0.1:${port}\n`);
  }, 60_000);

  it('an answer from Discord refusing it is still called a refusal', async () => {
    const fake = await new FakeHttpServer(() => ({ status: 401, json: { message: '401: Unauthorized', code: 0 } })).start();
    try {
      const r = await runCli(['discord', 'register-commands', '--guild', '123456789'], { ...env(), SVC_DISCORD_API_URL: `${fake.url}/api` });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('svc: Discord refused the command registration: 401: Unauthorized\n');
    } finally {
      await fake.close();
    }
  }, 60_000);
});
