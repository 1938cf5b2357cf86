import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

const { talk, talkOf, consistent } = demoTalk();

/** Gaps an analyst's questions found, on the shipped demo snapshot, offline. */
describe('sec8 gaps (demo snapshot)', () => {
  it('prose pasted before the question does not steer the period: the asking sentence decides it', async () => {
    const a = await talk('The quarterly review was circulated internally before the board meeting. Several directors raised questions about the margins. What was Microsoft net income FY2024?');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$88,136 million\*\*/);
    expect(a.text).not.toContain('| Q1 FY2024');
    consistent(a);
    // (An ellipsis ends the prose too; a quarter named in the prose is not the period asked.)
    const ellipsis = await talk('The quarterly review was circulated internally before the board meeting… What was Microsoft net income FY2024?');
    expect(ellipsis.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: net income for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$88,136 million\*\*/);
    const quarter = await talk('The board reviewed the Q3 results last month and the annual figures were discussed. What was Apple revenue in fiscal 2024?');
    expect(quarter.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    // A table asked in the asking sentence is still a table.
    const table = await talk('We are preparing the deck for the investment committee meeting next week. Show Apple revenue by quarter for fiscal 2024?');
    expect(table.text).toMatch(/^### Apple Inc\. \(AAPL\), by fiscal quarter/);
  });

  it('"and Microsoft?" after two figures set against each other keeps the comparison form', async () => {
    const a = await talk('Apple operating cash flow vs net income FY2024', 'and Microsoft?');
    expect(a.text).toMatch(/^Microsoft's operating cash flow for fiscal year 2024 \(year ended 2024-06-30\), \$118,548 million \[1\], was \*\*\$30,412 million\*\* \(34\.5%\) more than its net income, \$88,136 million \[2\]; 1\.35 times as much\./);
    consistent(a);
    const googl = await talk('Apple capex vs operating cash flow FY2024', 'what about Alphabet?');
    expect(googl.text).toMatch(/^Alphabet's capital expenditure for fiscal year 2024 \(year ended 2024-12-31\), \$52,535 million \[\d\], was \*\*/);
  });

  it('operating leverage: operating income growth over revenue growth, with its working and citations', async () => {
    const a = await talk("What's Microsoft's operating leverage in FY2024?");
    // 20,910 / 88,523 = 23.62%; 33,207 / 211,915 = 15.67%; 1.507.
    expect(a.text).toMatch(/^\*\*Microsoft's degree of operating leverage\*\* for fiscal year 2024 \(year ended 2024-06-30\), year over year: \*\*1\.51x\*\* \(derived: operating income growth over revenue growth\): operating income \+23\.6%, from \$88,523 million \[1\] to \$109,433 million \[2\], against revenue \+15\.7%, from \$211,915 million \[1\] to \$245,122 million \[2\]; operating income grew faster than revenue/);
    expect(a.text).not.toContain('Key figures');
    expect(a.citations.map((c) => c.name)).toEqual(['Microsoft Corp. Form 10-K, fiscal year ended 2023-06-30, page 3', 'Microsoft Corp. Form 10-K, fiscal year ended 2024-06-30, page 3']);
    consistent(a);
    // A follow-up naming another company asks it again; "op leverage" too.
    const apple = await talk("What's Microsoft's operating leverage in FY2024?", 'and Apple?');
    // 8,915 / 114,301 = 7.80%; 7,750 / 383,285 = 2.02%; 3.86.
    expect(apple.text).toMatch(/^\*\*Apple's degree of operating leverage\*\* for fiscal year 2024 \(year ended 2024-09-28\), year over year: \*\*3\.86x\*\*/);
    // A quarter derived from the year less nine months is said to be derived.
    const q4 = await talk('Alphabet operating leverage last quarter');
    expect(q4.text).toMatch(/^\*\*Alphabet's degree of operating leverage\*\* for Q4 2024 \(quarter ended 2024-12-31\), year over year: \*\*2\.61x\*\* \(derived: operating income growth over revenue growth\): operating income \+30\.7%, from \$23,697 million \[1\]\[2\] \(derived\) to \$30,972 million \[3\]\[4\] \(derived\)/);
    consistent(q4);
    const op = await talk('apple op leverage fy2024');
    expect(op.text).toMatch(/^\*\*Apple's degree of operating leverage\*\* for fiscal year 2024/);
  });

  it('of two companies, "higher"/"lower"; of three, the superlative', async () => {
    const two = await talkOf('svc-sec-agent', 'Apple and Microsoft debt to equity', 'which has the highest?');
    expect(two.text).toMatch(/^\*\*Apple\*\* has the higher debt-to-equity ratio, 1\.18x, against Microsoft 0\.12x\./);
    const three = await talk('return on equity for all three fy2024', 'which has the highest?');
    expect(three.text).toMatch(/^\*\*Apple\*\* has the highest return on equity, 157\.4%/);
  });

  it('a margin answer names the figure of its year-over-year line', async () => {
    const a = await talk('Apple gross margin FY2024 vs FY2023');
    expect(a.text).toContain('- Year over year: gross profit for fiscal year 2023 (year ended 2023-09-30) was $169,148 million (Form 10-K filed 2023-11-03) [2]; change +$11,535 million (+6.8%).');
    const op = await talk('Microsoft operating margin FY2024 yoy');
    expect(op.text).toMatch(/- Year over year: operating income for fiscal year 2023 \(year ended 2023-06-30\) was \$88,523 million/);
    consistent(a);
  });

  it('"which is bigger?" after two latest figures ending apart: which latest figure is bigger, then like for like', async () => {
    const a = await talk('Microsoft latest free cash flow', 'and Alphabet?', 'which is bigger?');
    expect(a.text).toContain("- Of the latest figures, Alphabet's free cash flow for Q4 2024 (quarter ended 2024-12-31), $24,846 million, was $4,506 million more than Microsoft's for fiscal Q3 2025 (quarter ended 2025-03-31), $20,340 million; the periods end 3 months apart, so they are compared on periods ending together below.");
    expect(a.text).toContain("On periods ending together, Alphabet's free cash flow was $18,328 million more than Microsoft's.");
    consistent(a);
    // A variant: "who's larger?" asks it too; a comparison asking no size keeps to the like-for-like verdict.
    expect((await talk('Microsoft latest free cash flow', 'and Alphabet?', "who's larger?")).text).toContain("- Of the latest figures, Alphabet's free cash flow for Q4 2024");
    expect((await talk('Microsoft latest free cash flow', 'and Alphabet?', 'compare them')).text).not.toContain('Of the latest figures');
  });

  it('yes or no: a "grow faster than" of companies naming no figure is of revenue; a bare follow-up keeps asking "did it grow?"', async () => {
    const faster = await talk('Did Microsoft grow faster than Apple in fiscal 2024? Just yes or no.');
    // (Cited to both companies' figures, each year and the one before it.)
    expect(faster.text).toBe('Yes [1][2][3][4].\n');
    const chat = await talk('Apple revenue in fiscal 2024', 'did it grow? just yes or no', "and Microsoft's? yes or no");
    expect(chat.text.trim()).toBe('Yes [1].');
    expect(chat.citations.map((c) => c.name)).toEqual(['Microsoft Corp. Form 10-K, fiscal year ended 2024-06-30, page 3']);
    const full = await talk('Apple revenue in fiscal 2024', 'did it grow?', "and Microsoft's?");
    expect(full.text).toMatch(/^\*\*Yes\*\*: Microsoft's revenue rose, \+\$33,207 million \(\+15\.7%\), year over year \(fiscal year 2024\)\./);
    consistent(full);
  });
});
