import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "How many bps?" after a margin's two periods asked one after the other: the move between them, on the demo snapshot, offline. */
describe('svc-sec-agent: basis points between two periods asked in turn', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('"how many bps?" after Apple operating margin Q1 2025, then "and a year earlier?": +69 bps between the two quarters', async () => {
    const a = await talk("What was Apple's operating margin in fiscal Q1 2025?", 'and a year earlier?', 'how many bps?');
    // 42,832 / 124,300 = 34.459%; 40,373 / 119,575 = 33.764%: 0.695 points.
    expect(a.text).toMatch(/^Apple's operating margin rose, \+0\.7 percentage points \(\+69 bps\), year over year \(fiscal Q1 2025\)\./);
    expect(a.text).toContain('was **34.5%**, against 33.8% for fiscal Q1 2024');
    consistent(a);
  });

  it('a variant: gross margin FY2024, "and FY2023?", "how many basis points?": +208 bps', async () => {
    const a = await talk('Apple gross margin FY2024', 'and FY2023?', 'how many basis points?');
    // 180,683 / 391,035 = 46.207%; 169,148 / 383,285 = 44.131%.
    expect(a.text).toMatch(/^Apple's gross margin rose, \+2\.1 percentage points \(\+208 bps\), year over year \(fiscal year 2024\)\./);
    consistent(a);
  });

  it('through svc-agent too', async () => {
    const a = await talkOf('svc-agent', "What was Apple's operating margin in fiscal Q1 2025?", 'and Q1 2024?', 'how many bps?');
    expect(a.text).toContain('+0.7 percentage points (+69 bps)');
  });
});
