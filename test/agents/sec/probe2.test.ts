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
});
