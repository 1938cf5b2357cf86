import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORLD } from '../../fixtures/sec-world.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';
import { expectConsistentCitations } from './burner-world.js';
import { RATIOED, SEC_ENV } from './world.js';

/** "Is X buying back stock?" is share repurchases (loopback EDGAR: RATIO HOLDINGS repurchased $5, $10, $15 million year to date in 2024, $20 million in the year). */
describe('buybacks asked as a verb', () => {
  let fake: FakeSec;
  let svc: TestService;
  let apiKey: string;
  beforeAll(async () => {
    fake = await startFakeSec({ companies: [...DEMO_WORLD.companies, RATIOED], otherTickers: [] });
    svc = await startService({ env: SEC_ENV(fake.url) });
    ({ apiKey } = await svc.account({ plan: 'pro', credits: 1000 }));
  });
  afterAll(async () => {
    await svc?.close();
    await fake?.close();
  });
  const ask = async (model: string, content: string) => {
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model, messages: [{ role: 'user', content }] });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    return { text: body.choices[0].message.content as string, citations: body.choices[0].citations };
  };

  it.each([['how much stock did RTIO buy back in 2024?'], ['how much stock did RTIO buying back in 2024?'], ['how much did RTIO spend repurchasing shares in 2024?'], ['how much has RTIO bought back in fiscal 2024?']])('"%s" is share repurchases, cited', async (q) => {
    const a = await ask('svc-sec-agent', q);
    expect(a.text).toMatch(/^\*\*Ratio Holdings Corp\. \(RTIO\)\*\*: share repurchases for fiscal year 2024 \(year ended 2024-12-31\) were \*\*\$20 million\*\* \[1\]/);
    expectConsistentCitations(a);
  });

  it('"Is Apple buying back stock?" of the demo companies, whose recorded facts have no repurchases, says so rather than giving key figures', async () => {
    const a = await ask('svc-sec-agent', 'Is Apple buying back stock?');
    expect(a.text).toMatch(/^Apple Inc\. \(AAPL\) does not report share repurchases in its XBRL financial data, so I cannot give that figure\./);
    expect(a.text).not.toContain('| Diluted EPS |');
  });
});
