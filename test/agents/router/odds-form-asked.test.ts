import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

let demo: DemoThreads;

beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const FED = 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-26dec';

describe('just the number or a table asked in the question itself, in a report thread', () => {
  it("'what are the odds of a hike? just the number' is the price alone, cited; 'as a table' the outcomes named, one row each", async () => {
    const fed = await demo.thread(FED);
    const number = await fed('what are the odds of a hike? just the number');
    expect(number).toMatch(/^\*\*51\.5%\*\* \(the Kalshi market price of “Hike 25bps”\) \[1\]\n/);
    expect(number).toContain('_From the stored report on **Fed decision in December 2026?**');
    const table = await fed('odds of hike and hold as a table');
    expect(table).toMatch(/^\| Outcome \| Market \| Model \| Gap \|\n\|---\|---\|---\|---\|\n\| Hold \[1\] \| 16\.0% \(mid; 14\.5% normalised\) \| 12\.4% \| −2\.1 pts \|\n\| Hike 25bps \[2\] \| 51\.5%/);
  });

  it("'the odds of each outcome? as a table' is the report's outcome table alone, not the whole report", async () => {
    const fed = await demo.thread(FED);
    const text = await fed('what are the odds of each outcome? as a table');
    expect(text).toMatch(/^\| Outcome \| Market \| Model \| Gap \| Confidence \|\n/);
    expect(text.split('\n').filter((l) => /^\| (?:Cut|Hold|Hike)/.test(l))).toHaveLength(4);
    expect(text).toContain('_From the report on **Fed decision in December 2026?**, as of 2026-11-19 15:00 UTC._');
    expect(text).not.toContain('## Key claims');
  });

  it('a company figure asked as just the number through svc-agent is the SEC agent\'s own form, untouched', async () => {
    const r = await demo.client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'user', content: 'Apple revenue Q3 2024, just the number' }] });
    expect(r.choices[0]!.message.content).toMatch(/^\*\*\$85\.8 billion\*\*/);
  });
});
