import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriesNamed } from '../../../src/agents/router/classify.js';
import { eventQuestion } from '../../../src/agents/router/event-questions.js';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (...turns: string[]) => {
  const messages = turns.map((content, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content }));
  return (await demo.client.chat.completions.create({ model: 'svc-agent', messages })).choices[0]!.message.content!;
};

describe('a Kalshi series page or series ticker sent to svc-agent', () => {
  it('is said as the series, an event page is left alone', () => {
    expect(seriesNamed('https://kalshi.com/markets/kxfeddecision')).toBe('Kalshi series KXFEDDECISION');
    expect(seriesNamed('see kalshi.com/markets/kxcpiyoy/cpi-year-over-year.')).toBe('see Kalshi series KXCPIYOY.');
    expect(seriesNamed('kxbtcd?')).toBe('Kalshi series KXBTCD');
    const event = 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision/kxfeddecision-26dec';
    expect(seriesNamed(event)).toBe(event);
    expect(seriesNamed(`${event} and https://kalshi.com/markets/kxbtcd`)).toBe(`${event} and Kalshi series KXBTCD`);
  });

  it("lists the series' open events with their prices instead of refusing the address (was 400 invalid_event_url)", async () => {
    for (const q of ['https://kalshi.com/markets/kxfeddecision', 'https://kalshi.com/markets/kxfeddecision/fed-rate-decision', 'whats in https://kalshi.com/markets/kxfeddecision?']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^Open Kalshi events matching/);
      expect(text, q).toContain('1. **Fed decision in December 2026?** (KXFEDDECISION-26DEC, Economics) [1]');
    }
    // A series ticker alone was the help text.
    expect(await ask('kxbtcd')).toContain('1. **Bitcoin price on November 20, 2026 at 10am ET?** (KXBTCD-26NOV20');
  });

  it('"events" is no "EV": asking for the events of a topic lists them, not one event\'s quotes', async () => {
    for (const q of ['list the bitcoin events', 'what events are in the fed series?', 'Open events in the Kalshi series KXCPIYOY']) {
      const text = await ask(q);
      expect(text, q).toMatch(/^Open Kalshi events matching/);
      expect(text, q).not.toContain('bid $');
    }
    expect(eventQuestion('bitcoin events')).toBeNull();
    expect(eventQuestion("what's the ev of 100 yes on hike?")).toBe('quote');
    expect(eventQuestion('EV?')).toBe('quote');
  });
});
