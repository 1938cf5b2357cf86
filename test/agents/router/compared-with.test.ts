import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (q: string) => (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: q }] })).choices[0]!;

describe('one market compared with another, in svc-agent', () => {
  it('weighs both events: "compare X with Y" was one search for both, which said none mentions Y', async () => {
    const choice = await ask('compare the odds of a fed cut with the cpi market');
    const text = choice.message.content!;
    expect(text).not.toMatch(/none mentions/);
    expect(text).toContain('**Fed decision in December 2026?** (KXFEDDECISION-26DEC)');
    expect(text).toContain('**CPI year-over-year in December 2026?** (KXCPIYOY-26DEC)');
    const names = (choice as unknown as { citations: { name: string }[] }).citations.map((c) => c.name);
    expect(names).toEqual(['Kalshi: Fed decision in December 2026?', 'Kalshi: CPI year-over-year in December 2026?']);
  });

  it('weighs "compare to" and "against" questions too, and leaves "with" alone where nothing is compared', async () => {
    const against = (await ask('compare payrolls against the shutdown market')).message.content!;
    expect(against).toContain('(KXPAYROLLS-26DEC');
    expect(against).toContain('(KXSHUTDOWN-26DEC31');
    const to = (await ask('how does the fed market compare to the cpi one?')).message.content!;
    expect(to).toContain('(KXFEDDECISION-26DEC');
    expect(to).toContain('(KXCPIYOY-26DEC');
    // (No comparison: "with" joins nothing to weigh, so it is one search, as before.)
    const one = (await ask('fed decision odds with the latest prices')).message.content!;
    expect(one).toContain('(KXFEDDECISION-26DEC');
    expect(one).not.toContain('(KXCPIYOY-26DEC');
  });
});

describe('two topics joined before the market noun they share', () => {
  it('is one search listing both ("what do the fed and inflation markets say?" was split into "What do the fed" and "Inflation markets say?")', async () => {
    for (const q of ['what do the fed and inflation markets say?', 'fed and cpi odds']) {
      const text = (await ask(q)).message.content!;
      expect(text, q).toMatch(/^Open Kalshi events matching/);
      expect(text, q).not.toContain('###');
      expect(text, q).toContain('1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC');
      expect(text, q).toContain('2. **CPI year-over-year in December 2026?** (KXCPIYOY-26DEC');
    }
  });

  it('still answers two questions with levels of their own apart', async () => {
    const text = (await ask('BTC above 100k and ETH above 4k?')).message.content!;
    expect(text).toContain('### BTC above 100k');
    expect(text).toContain('### ETH above 4k?');
  });
});
