import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (content: string) => (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content }] })).choices[0]!.message.content!;

describe('a topic word misspelt finds the events its synonyms name', () => {
  it("'inflaton', 'unemploymnet' and 'paroll' find the CPI and jobs events, as their spellings do", async () => {
    const cpi = await ask('odds of inflaton above 3%?');
    expect(cpi).toContain('**CPI year-over-year in December 2026?** (KXCPIYOY-26DEC');
    expect(cpi).toContain('**Above 3.0 86.5%**');
    expect(await ask('odds of inflation above 3%?')).toContain('**Above 3.0 86.5%**');
    for (const q of ['what does the market say about unemploymnet?', 'paroll odds']) {
      expect(await ask(q), q).toContain('**Jobs added in December 2026?** (KXPAYROLLS-26DEC');
    }
  });

  it('a short word is not read as another one letter away, and a word no topic is near finds nothing', async () => {
    // "gold" is not "hold" (the Fed's): no event mentions gold.
    expect(await ask('odds of gold above 3000?')).not.toContain('KXFEDDECISION');
    expect(await ask('odds of inflammation above 3%?')).toMatch(/^No open Kalshi event matches/);
  });
});
