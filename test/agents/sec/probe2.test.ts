import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

const DEMO = path.join(PACKAGE_ROOT, 'snapshots', 'sec');

/** Questions a second round of probes (analyst, journalist, student, sloppy typist) found misread, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: probe round 2 (demo snapshot)', () => {
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

  it('lower-case tickers run together with no comma are each a company, and follow-ups keep all three', async () => {
    const a = await talk('compare aapl msft googl net margin fy2024');
    expect(a.text).not.toContain('could not find');
    expect(a.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
    expect(a.text).toContain('Alphabet 28.6%');
    expect(a.text).toContain('Apple 24.0%');
    consistent(a);
    const b = await talk('net margin fy2024 for aapl msft googl');
    expect(b.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
    const cash = await talk('compare aapl msft googl net margin fy2024', 'which has the most cash?');
    expect(cash.text).toMatch(/Cash and cash equivalents, largest to smallest: Apple \$29,943 million .*Alphabet \$23,466 million .*Microsoft \$18,315 million/);
  });

  it('a plain-English, quotable or general-audience request is a form of the figures, not a figure called "plain-English"', async () => {
    const plain = await talk("Give me a plain-English summary of Microsoft's latest quarter");
    expect(plain.text).not.toContain('I do not have a figure');
    expect(plain.text).toMatch(/^In the three months to March 31, 2025, Microsoft took in about \$70 billion from selling its products and services \[1\]; it kept about \$26 billion as profit/);
    // The period is said once, not once per figure; a per-share figure is not "a share for each of its shares".
    expect(plain.text.match(/March 31, 2025/g)).toHaveLength(1);
    expect(plain.text).toContain('earned $3.46 for each of its shares');
    consistent(plain);
    const quote = await talk("Give me a plain-English summary of Microsoft's latest quarter", 'one quotable sentence');
    expect(quote.text).toMatch(/^In fiscal Q3 2025 \(quarter ended 2025-03-31\), Microsoft's revenue was \$70\.1 billion \[1\]/);
    const written = await talk('hows alphabet doing', 'write one sentence I can quote');
    // Alphabet's fourth quarter is the year less nine months: said to be derived in the sentence too.
    expect(written.text).toMatch(/^In Q4 2024 \(quarter ended 2024-12-31\), Alphabet's revenue was \$96\.5 billion \[1\]\[2\] \(derived\)/);
    const general = await talk("compare apple and microsoft's latest year for a general audience");
    expect(general.text).toMatch(/^In the year to September 28, 2024, Apple took in about \$391 billion from selling its products and services \[1\]/);
    expect(general.text).toContain('In the year to June 30, 2024, Microsoft took in about $245 billion');
  });

  it('a form asked after another form restates the figures asked before them both', async () => {
    const a = await talk('How did Apple do in fiscal 2024?', 'what changed vs last year?', 'give me one headline number', "explain like I'm 12");
    expect(a.text).toMatch(/^In the year to September 28, 2024, Apple took in about \$391 billion from selling its products and services \[1\], 2% more than a year before; it kept about \$94 billion as profit/);
    expect(a.text).not.toContain('| Company |');
    const b = await talk("compare apple and microsoft's latest year for a general audience", 'in one sentence');
    expect(b.text).toMatch(/^In fiscal year 2024 \(year ended 2024-09-28\), Apple's revenue was \$391\.0 billion \[1\]/);
    expect(b.text).not.toContain('| Company |');
  });
});
