import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Two figures of one company set against each other in one question (demo snapshot, offline). */
describe('svc-sec-agent: "X vs Y" of one company', () => {
  const { talk, talkOf, consistent } = demoTalk();
  const cited = (a: { text: string; citations: { order: number; name: string }[] }, words: string) => {
    const n = Number(/\[(\d+)\]/.exec(a.text.slice(a.text.indexOf(words)))![1]);
    return a.citations.find((c) => c.order === n)!.name;
  };

  it('"Apple operating cash flow vs net income FY2024" leads with which is larger, by how much and how many times, each cited to its page', async () => {
    const a = await talk('Apple operating cash flow vs net income FY2024');
    // 118,254 − 93,736 = 24,518 (26.2% of 93,736); 118,254 / 93,736 = 1.26.
    expect(a.text).toMatch(/^Apple's operating cash flow for fiscal year 2024 \(year ended 2024-09-28\), \$118,254 million \[1\], was \*\*\$24,518 million\*\* \(26\.2%\) more than its net income, \$93,736 million \[2\]; 1\.26 times as much\./);
    expect(cited(a, '$118,254 million')).toBe('Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 5');
    expect(cited(a, '$93,736 million')).toBe('Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3');
    consistent(a);
  });

  it('a part against its whole says its share ("Alphabet capex versus operating cash flow 2024"), through svc-agent too', async () => {
    const a = await talkOf('svc-agent', 'Alphabet capex versus operating cash flow 2024');
    // 52,535 / 125,299 = 41.9%.
    expect(a.text).toContain('capital expenditure was **41.9%** of operating cash flow.');
    consistent(a);
  });

  it('two companies\' figures against each other are not read as one company\'s two figures', async () => {
    const a = await talk('Apple revenue vs Microsoft net income FY2024');
    expect(a.text).not.toMatch(/times as much/);
  });
});
