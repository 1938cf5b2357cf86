import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "How was Q4 derived?" after a derived fourth quarter: its arithmetic, not a figure called "derived" (demo snapshot, offline). */
describe('svc-sec-agent: how a derived quarter was worked out, asked of the quarter', () => {
  const { talk, talkOf, consistent } = demoTalk();
  const WORKING = /^How the computed figures of that answer are worked out, from the filed figures:/;

  it('"how was Q4 derived?" after Microsoft Q4 FY2024 revenue: the fiscal year less the nine months', async () => {
    const a = await talk('Microsoft Q4 FY2024 revenue', 'how was Q4 derived?');
    expect(a.text).toMatch(WORKING);
    expect(a.text).toContain('- Derived: fiscal year 2024 245,122 − nine months ended March 31, 2024 180,395 = **64,727** (amounts in $ million) [1][2].');
    expect(a.text).not.toContain('figure called');
    consistent(a);
  });

  it('a variant, "how was the fourth quarter computed?", through svc-agent too', async () => {
    const a = await talkOf('svc-agent', 'Alphabet net income Q4 2024', 'how was the fourth quarter computed?');
    expect(a.text).toMatch(WORKING);
    expect(a.text).toContain('= **26,536** (amounts in $ million)');
    consistent(a);
  });

  it('"how is it calculated?", in the present, still asks what the figure is', async () => {
    const a = await talk('Apple gross margin FY2024', 'how is it calculated?');
    expect(a.text).toMatch(/^- \*\*Gross margin\*\* is gross profit divided by revenue/);
  });
});
