import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** "How much cash did X generate from operations?" is operating cash flow, not the cash balance (demo snapshot, offline). */
describe('svc-sec-agent: cash generated from operations', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('"How much cash did Microsoft generate from operations last year?" is fiscal 2024 operating cash flow, cited to the cash flow statement', async () => {
    const a = await talk('How much cash did Microsoft generate from operations last year?');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: operating cash flow for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$118,548 million\*\*/);
    expect(a.text).not.toContain('cash and cash equivalents');
    expect(a.citations.map((c) => c.name)).toEqual(['Microsoft Corp. Form 10-K, fiscal year ended 2024-06-30, page 5']);
    consistent(a);
  });

  it('variants: "produce from its operations", and a follow-up of another company keeps the figure', async () => {
    const b = await talk('how much cash did alphabet produce from its operations in 2024?');
    expect(b.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: operating cash flow for fiscal year 2024 \(year ended 2024-12-31\) was \*\*\$125,299 million\*\*/);
    const c = await talkOf('svc-agent', 'How much cash did Microsoft generate from operations last year?', 'and Apple?');
    expect(c.text).toContain('operating cash flow for fiscal year 2024 (year ended 2024-09-28) was **$118,254 million**');
  });

  it('cash held is still the balance', async () => {
    const a = await talk('how much cash does Apple have?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: cash and cash equivalents at the end of fiscal Q2 2025 \(2025-03-29\) were \*\*\$28,162 million\*\*/);
  });
});
