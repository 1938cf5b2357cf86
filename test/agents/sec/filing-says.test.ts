import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "Which filing says that?" after a figure: the filing of that figure, on the demo snapshot, offline. */
describe('svc-sec-agent: which filing a figure is from, asked with "says" or "shows"', () => {
  const { talk, talkOf, consistent } = demoTalk();
  const page = (a: { citations: { order: number; name: string }[] }, n: number) => a.citations.find((c) => c.order === n)?.name;

  it('"which filing says that?" after operating income names the 10-K and cites the page of operating income, not revenue', async () => {
    const a = await talk('Microsoft operating income FY2024', 'which filing says that?');
    expect(a.text).toContain('**Microsoft Corp. (MSFT)**: fiscal year 2024 (year ended 2024-06-30) is from its **Form 10-K** filed **2024-07-30**');
    expect(a.text).toContain('accession number **0000950170-24-087843** [1]; operating income for it, $109,433 million, is on page 3 [2].');
    expect(a.text).not.toContain('figure called');
    expect(page(a, 2)).toBe('Microsoft Corp. Form 10-K, fiscal year ended 2024-06-30, page 3');
    consistent(a);
  });

  it.each([['which 10-K shows that?'], ['what report has that?']])('"%s" is the same', async (q) => {
    const a = await talk('Microsoft operating income FY2024', q);
    expect(a.text).toContain('operating income for it, $109,433 million, is on page 3 [2].');
    consistent(a);
  });

  it('a derived quarter names the figure it derives (diluted EPS), from the 10-K and the third-quarter 10-Q', async () => {
    const a = await talk('Alphabet EPS Q4 2024', 'which filing says that?');
    expect(a.text).toContain('Q4 2024 (quarter ended 2024-12-31) is not filed on its own: its diluted EPS is derived (fiscal year 2024 minus nine months ended September 30, 2024) from **Form 10-K** filed **2025-02-05**');
    expect(a.text).toContain('**Form 10-Q** filed **2024-10-30**');
    consistent(a);
  });

  it('"what filing is the latest quarter from?" after a fiscal year is the latest quarter, of the figure discussed', async () => {
    const a = await talk('Microsoft net income FY2024', 'what filing is the latest quarter from?');
    expect(a.text).toContain('fiscal Q3 2025 (quarter ended 2025-03-31) is from its **Form 10-Q** filed **2025-04-30**');
    expect(a.text).toContain('net income for it, $25,824 million, is on page 3 [2].');
    consistent(a);
  });

  it('"which filing says the latest one?" after a table of quarters is its latest quarter, of the table\'s figure', async () => {
    const a = await talk('Alphabet gross margin trend last 8 quarters', 'which filing says the latest one?');
    expect(a.text).toContain('**Alphabet Inc. (GOOGL)**: Q4 2024 (quarter ended 2024-12-31) is not filed on its own: its gross profit is derived');
    expect(a.text).not.toContain('figure called');
    consistent(a);
  });

  it('through svc-agent too', async () => {
    const a = await talkOf('svc-agent', 'Microsoft operating income FY2024', 'which filing says that?');
    expect(a.text).toContain('operating income for it, $109,433 million, is on page 3');
  });
});
