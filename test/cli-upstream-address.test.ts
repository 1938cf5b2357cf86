import { existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveSource } from '../src/data/source.js';
import { runCli } from './helpers/cli.js';

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

// An operator who mistyped SVC_KALSHI_API_URL read "Kalshi could not be reached (fetch failed) …
// Try again shortly", as for an outage: neither why nor which address was tried.
describe('an upstream that cannot be reached', () => {
  it('the error says why (the system code, or fetch\'s own reason)', async () => {
    const port = await closedPort();
    const refused = new LiveSource({ name: 'Kalshi', baseUrl: `http://127.0.0.1:${port}/trade-api/v2`, requestsPerSecond: 20, timeoutMs: 5000, retries: 0 });
    await expect(refused.get('/events/X')).rejects.toThrow('Kalshi could not be reached (fetch failed: ECONNREFUSED) (1 attempt). Try again shortly.');
    // Port 9 is one fetch refuses to use at all.
    const badPort = new LiveSource({ name: 'Kalshi', baseUrl: 'http://127.0.0.1:9/trade-api/v2', requestsPerSecond: 20, timeoutMs: 5000, retries: 0 });
    await expect(badPort.get('/events/X')).rejects.toThrow('Kalshi could not be reached (fetch failed: bad port) (1 attempt). Try again shortly.');
  });

  it('svc snapshot record and svc backtest name the setting holding its address', async () => {
    const port = await closedPort();
    const api = `http://127.0.0.1:${port}/trade-api/v2`;
    const env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-upstream-')), SVC_KALSHI_API_URL: api, SVC_KALSHI_RETRIES: '0' };
    const out = path.join(env.SVC_DATA_DIR, 'snap');
    const record = await runCli(['snapshot', 'record', 'KXFEDDECISION-26DEC', '--out', out], env);
    expect(record.code).toBe(1);
    expect(record.stderr).toBe(`svc: Kalshi could not be reached (fetch failed: ECONNREFUSED) (1 attempt). Try again shortly, or check SVC_KALSHI_API_URL (${api}).\n`);
    expect(existsSync(out)).toBe(false);
    const backtest = await runCli(['backtest', '--series', 'KXFEDDECISION'], env);
    expect(backtest.code).toBe(1);
    expect(backtest.stderr).toBe(`svc: Kalshi could not be reached (fetch failed: ECONNREFUSED) (1 attempt). Try again shortly, or check SVC_KALSHI_API_URL (${api}).\n`);
  }, 60_000);

  it('svc snapshot record-sec names both SEC addresses', async () => {
    const port = await closedPort();
    const env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-upstream-')), SVC_SEC_USER_AGENT: 'Probe ops@example.com', SVC_SEC_API_URL: `http://127.0.0.1:${port}`, SVC_SEC_WWW_URL: `http://127.0.0.1:${port}/www`, SVC_SEC_RETRIES: '0' };
    const r = await runCli(['snapshot', 'record-sec', 'AAPL', '--out', path.join(env.SVC_DATA_DIR, 'sec')], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: SEC EDGAR could not be reached (fetch failed: ECONNREFUSED) (1 attempt). Try again shortly, or check SVC_SEC_API_URL (http://127.0.0.1:${port}) and SVC_SEC_WWW_URL (http://127.0.0.1:${port}/www).\n`);
  }, 60_000);
});
