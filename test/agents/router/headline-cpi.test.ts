import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (q: string) => (await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: q }] })).choices[0]!.message.content!;

describe('"headline" in svc-agent', () => {
  it('of a figure ("headline CPI") is the figure, not news asked (it led with "I read no news")', async () => {
    const text = await ask('headline CPI odds for December');
    expect(text).not.toMatch(/news/i);
    expect(text).toContain('1. **CPI year-over-year in December 2026?** (KXCPIYOY-26DEC');
  });

  it('asked as news is still said to be outside what svc reads', async () => {
    expect(await ask('any headlines on the fed?')).toMatch(/no news/);
  });
});
