import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORLD } from '../../fixtures/sec-world.js';
import { runCli } from '../../helpers/cli.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { startService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

let fake: FakeSec;
const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'svc-record-')), 'snap');
beforeAll(async () => {
  fake = await startFakeSec(DEMO_WORLD);
});
afterAll(async () => {
  await fake.close();
  rmSync(path.dirname(out), { recursive: true, force: true });
});

describe('svc snapshot record-sec', () => {
  it('needs SVC_SEC_USER_AGENT', async () => {
    const r = await runCli(['snapshot', 'record-sec', 'AAPL', '--out', out], { SVC_SEC_API_URL: fake.url, SVC_SEC_WWW_URL: fake.url, SVC_SEC_USER_AGENT: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^svc: SEC EDGAR refuses requests without a User-Agent.*SVC_SEC_USER_AGENT/);
    expect(existsSync(out)).toBe(false);
  });

  it('names what it cannot find', async () => {
    const r = await runCli(['snapshot', 'record-sec', 'Foobarco', '--out', out], { SVC_SEC_API_URL: fake.url, SVC_SEC_WWW_URL: fake.url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/"Foobarco" is not a ticker or company name in EDGAR/);
  });

  it('records tickers, submissions, company facts and the latest filings\' documents, which then answer offline', async () => {
    const env = { SVC_SEC_API_URL: fake.url, SVC_SEC_WWW_URL: fake.url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com' };
    const r = await runCli(['snapshot', 'record-sec', 'AAPL', 'Microsoft', '--out', out, '--filings', '3'], env);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.recorded.map((c: any) => [c.id, c.documents.length])).toEqual([
      ['AAPL', 3],
      ['MSFT', 3],
    ]);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.entries)).toEqual(
      expect.arrayContaining([
        '/files/company_tickers.json',
        '/submissions/CIK0000320193.json',
        '/api/xbrl/companyfacts/CIK0000320193.json',
        '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm',
        '/Archives/edgar/data/789019/000095017025061046/msft-20250331.htm',
      ]),
    );

    const before = fake.count('/');
    const svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: out } });
    try {
      const { apiKey } = await svc.account();
      const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-sec-agent', messages: [{ role: 'user', content: 'Microsoft revenue last quarter' }] });
      const body = (await res.json()) as any;
      expect(body.choices[0].message.content).toContain('$70,066 million');
      expect(body.choices[0].message.content).toMatch(/Data: SEC EDGAR snapshot recorded \d{4}-\d{2}-\d{2}\./);
      expect(body.choices[0].citations[0].name).toMatch(/page 3$/);
    } finally {
      await svc.close();
    }
    expect(fake.count('/')).toBe(before);
  });
});
