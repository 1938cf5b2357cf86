import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoThreads, type DemoThreads } from '../../helpers/report-threads.js';

// A question across the companies covered that names no period: flows over their latest fiscal
// years, but balances (cash, debt) as of their latest balance sheets, since a balance is had at a
// date. What "debt" leaves out is said once for all of them, and each comparison on periods
// ending together is its own paragraph.

let demo: DemoThreads;
beforeAll(async () => {
  demo = await startDemoThreads();
});
afterAll(() => demo.svc.close());

const ask = async (model: string, input: string) => (await demo.client.responses.create({ model, input })).output_text;

describe('across the companies covered, no period said', () => {
  it.each(['svc-agent', 'svc-sec-agent'])('%s: "which company has the most cash?" ranks the latest balances, not fiscal year-ends', async (model) => {
    const text = await ask(model, 'which company has the most cash?');
    const ranking = /largest to smallest: ([^\n]+)/.exec(text)?.[1] ?? '';
    // (Demo: Microsoft's fiscal Q3 2025 $28,828 million over Apple's fiscal Q2 2025 $28,162 million; the fiscal years ranked Apple first.)
    expect(ranking).toMatch(/^Microsoft \$28,828 million for fiscal Q3 2025/);
    expect(ranking).toMatch(/Apple \$28,162 million for fiscal Q2 2025/);
    expect(text).not.toMatch(/fiscal year 2024 \(year ended 2024-09-28\)/);
  });

  it('"which of them has the most debt?" too, with what long-term debt leaves out said once for all three', async () => {
    const text = await ask('svc-agent', 'which of the three companies has the most debt?');
    expect(text).toMatch(/largest to smallest: Apple \$78,566 million for fiscal Q2 2025/);
    expect(text.match(/This is long-term debt|this is long-term debt/g)).toHaveLength(1);
    expect(text).toMatch(/^- For each company: this is long-term debt due after one year/m);
    // Two comparisons on periods ending together, each a paragraph of its own.
    const paragraphs = text.split(/\n{2,}/).filter((p) => p.startsWith('The latest figures end at different dates'));
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs.every((p) => !p.includes('\n'))).toBe(true);
  });

  it('flows keep the latest fiscal years: "which company has the highest revenue?"', async () => {
    const text = await ask('svc-sec-agent', 'which company has the highest revenue?');
    expect(text).toMatch(/largest to smallest: Apple \$391,035 million for fiscal year 2024/);
  });

  it('one company asked for its debt keeps the note under its own name', async () => {
    const text = await ask('svc-sec-agent', "What's Apple's total debt?");
    expect(text).toMatch(/This is long-term debt due after one year/);
    expect(text).not.toMatch(/For each company/);
  });
});
