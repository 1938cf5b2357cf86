import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');

/** Follow-ups and questions earlier probes found answered thinly, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: follow-ups, derived figures, filing dates and judgement questions (demo snapshot)', () => {
  let svc: TestService;
  let apiKey: string;
  beforeAll(async () => {
    svc = await startService({ env: { SVC_SEC_SNAPSHOT_DIR: DEMO, SVC_SEC_API_URL: 'http://127.0.0.1:9', SVC_SEC_WWW_URL: 'http://127.0.0.1:9' } });
    ({ apiKey } = await svc.account());
  });
  afterAll(() => svc.close());

  /** A chat conversation with each answer kept in it; returns the last answer and its citations. */
  const talkOf = async (model: string, ...turns: string[]) => {
    const messages: { role: string; content: string }[] = [];
    let last = { text: '', citations: [] as { order: number; name: string; url: string }[] };
    for (const content of turns) {
      messages.push({ role: 'user', content });
      const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model, messages });
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      last = { text: body.choices[0].message.content, citations: body.choices[0].citations ?? [] };
      messages.push({ role: 'assistant', content: last.text });
    }
    return last;
  };
  const talk = (...turns: string[]) => talkOf('svc-sec-agent', ...turns);
  /** Every [n] in the text has a citation n, and every citation is used. */
  const consistent = (a: { text: string; citations: { order: number }[] }) => {
    const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
    expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
  };

  it('a derived figure is labelled "(derived)" where it is given, not only in the note under it', async () => {
    const fcf = await talk('Apple free cash flow FY2024');
    expect(fcf.text.split('\n')[0]).toMatch(/free cash flow for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$108,807 million\*\* \(about \$108\.8 billion\) \[1\] \(derived\)\./);
    expect(fcf.text).toContain('Derived as operating cash flow $118,254 million');
    // A fourth quarter is the year less nine months: derived too.
    const q4 = await talk('Alphabet cost of revenue Q4 2022');
    expect(q4.text.split('\n')[0]).toMatch(/\*\*\$35,342 million\*\* \(about \$35\.3 billion\) \[1\]\[2\] \(derived\)\./);
    // A reported figure is not.
    expect((await talk("What was Apple's revenue in Q3 2024?")).text.split('\n')[0]).not.toContain('(derived)');
  });

  it('"annualize that EPS" after a quarter\'s EPS: the quarter times four, a simple annualization, set against the twelve months and the fiscal year', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, 'Apple EPS Q3 2024', 'annualize that EPS');
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal Q3 2024 \(quarter ended 2024-06-29\), simply annualized, is \*\*\$5\.60 per diluted share\*\* \(derived\): \$1\.40 per diluted share \[1\] times four\. A simple annualization/);
      expect(a.text).toMatch(/Trailing twelve months to 2024-06-29: \$6\.58 per diluted share \(derived, approximate: the sum of fiscal Q4 2023 \$1\.47 per diluted share \(derived\)/);
      expect(a.text).toMatch(/the annualized figure is \$0\.98 per diluted share \(14\.9%\) below it/);
      expect(a.text).toMatch(/Fiscal year 2024 \(year ended 2024-09-28\) as filed: \$6\.08 per diluted share \[\d\]; the annualized figure is \$0\.48 per diluted share \(7\.9%\) below it/);
      consistent(a);
    }
  });
});
