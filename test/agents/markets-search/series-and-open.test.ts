import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (content: string, model = 'svc-markets-search-agent') =>
  (await demo.client.chat.completions.create({ model, messages: [{ role: 'user', content }] })).choices[0]!.message.content!;

describe('a series named by its ticker, and "open" as in "open events"', () => {
  it('a series ticker written out (KXCPIYOY, kxfeddecision) finds its events, not the box office through "open"', async () => {
    const cpi = await ask('Open events in the Kalshi series KXCPIYOY');
    expect(cpi).toMatch(/^Open Kalshi events matching/);
    expect(cpi).toContain('1. **CPI year-over-year in December 2026?** (KXCPIYOY-26DEC');
    expect(cpi).not.toContain('KXBOXOFFICE');
    const fed = await ask('which events are open in the kxfeddecision series?');
    expect(fed).toContain('1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC');
    expect(fed).not.toContain('KXBOXOFFICE');
    const btc = await ask('Kalshi series KXBTCD', 'svc-agent');
    expect(btc).toContain('1. **Bitcoin price on November 20, 2026 at 10am ET?** (KXBTCD-26NOV20');
    expect(btc).not.toContain('KXETHD');
  });

  it('"open" names no topic: "open events for bitcoin" is Bitcoin alone, while the box office is still found by its own words', async () => {
    const btc = await ask('open events for bitcoin');
    expect(btc).toContain('KXBTCD-26NOV20');
    expect(btc).not.toContain('KXBOXOFFICE');
    expect(await ask('odds on the opening weekend box office?')).toContain('(KXBOXOFFICE-26NOV22');
  });

  it('"what\'s open right now?" and "what is still open?" list every open event, soonest first', async () => {
    for (const q of ["what's open right now?", 'what is still open?']) {
      for (const model of ['svc-markets-search-agent', 'svc-agent']) {
        const text = await ask(q, model);
        expect(text, `${model}: ${q}`).toMatch(/^Open Kalshi events, soonest to settle first/);
        expect(text, `${model}: ${q}`).toContain('1. **Bitcoin price on November 20, 2026 at 10am ET?** (KXBTCD-26NOV20');
      }
    }
  });
});
