import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "9 months fiscal 2024" (no "first", no "ended"): the first nine months of that year, not the whole year (demo snapshot, offline). */
describe('svc-sec-agent: the first months of a year said as "9 months fiscal 2024"', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it.each([['Apple revenue 9 months fiscal 2024'], ['Apple revenue nine months of fiscal 2024']])('"%s" is the nine months ended 2024-06-29, from the third-quarter 10-Q', async (q) => {
    const a = await talk(q);
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for the first nine months of fiscal 2024 \(nine months ended 2024-06-29\) was \*\*\$296,105 million\*\*/);
    expect(a.citations.map((c) => c.name)).toEqual(['Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3']);
    consistent(a);
  });

  it('against the same months of the year before', async () => {
    const a = await talk('Apple revenue 9 months fiscal 2024 vs 9 months fiscal 2023');
    expect(a.text).toContain('- Year over year: the first nine months of fiscal 2023 (nine months ended 2023-07-01) was $293,787 million (Form 10-Q filed 2023-08-04) [2]; change +$2,318 million (+0.8%).');
    consistent(a);
  });

  it('six months, and a calendar-year filer, through svc-agent too; "last 9 months" stays the latest nine', async () => {
    const six = await talk('Microsoft net income 6 months FY2025');
    expect(six.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for the first half of fiscal 2025 \(six months ended 2024-12-31\) was \*\*\$48,775 million\*\*/);
    const googl = await talkOf('svc-agent', 'Alphabet revenue 9 months 2024');
    expect(googl.text).toContain('revenue for the first nine months of 2024 (nine months ended 2024-09-30) was **$253,549 million**');
    const last = await talk('Apple revenue last 9 months');
    expect(last.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q4 2024 to Q2 2025 \(nine months ended 2025-03-29\)/);
  });
});
