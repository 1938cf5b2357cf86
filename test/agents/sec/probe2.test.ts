import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Questions a second round of probes (analyst, journalist, student, sloppy typist) found misread, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: probe round 2 (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('lower-case tickers run together with no comma are each a company, and follow-ups keep all three', async () => {
    const a = await talk('compare aapl msft googl net margin fy2024');
    expect(a.text).not.toContain('could not find');
    expect(a.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
    expect(a.text).toContain('Alphabet 28.6%');
    expect(a.text).toContain('Apple 24.0%');
    consistent(a);
    const b = await talk('net margin fy2024 for aapl msft googl');
    expect(b.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
    const cash = await talk('compare aapl msft googl net margin fy2024', 'which has the most cash?');
    expect(cash.text).toMatch(/Cash and cash equivalents, largest to smallest: Apple \$29,943 million .*Alphabet \$23,466 million .*Microsoft \$18,315 million/);
  });

  it('a plain-English, quotable or general-audience request is a form of the figures, not a figure called "plain-English"', async () => {
    const plain = await talk("Give me a plain-English summary of Microsoft's latest quarter");
    expect(plain.text).not.toContain('I do not have a figure');
    expect(plain.text).toMatch(/^In the three months to March 31, 2025, Microsoft took in about \$70 billion from selling its products and services \[1\]; it kept about \$26 billion as profit/);
    // The period is said once, not once per figure; a per-share figure is not "a share for each of its shares".
    expect(plain.text.match(/March 31, 2025/g)).toHaveLength(1);
    expect(plain.text).toContain('earned $3.46 for each of its shares');
    consistent(plain);
    const quote = await talk("Give me a plain-English summary of Microsoft's latest quarter", 'one quotable sentence');
    expect(quote.text).toMatch(/^In fiscal Q3 2025 \(quarter ended 2025-03-31\), Microsoft's revenue was \$70\.1 billion \[1\]/);
    const written = await talk('hows alphabet doing', 'write one sentence I can quote');
    // Alphabet's fourth quarter is the year less nine months: said to be derived in the sentence too.
    expect(written.text).toMatch(/^In Q4 2024 \(quarter ended 2024-12-31\), Alphabet's revenue was \$96\.5 billion \[1\]\[2\] \(derived\)/);
    const general = await talk("compare apple and microsoft's latest year for a general audience");
    expect(general.text).toMatch(/^In the year to September 28, 2024, Apple took in about \$391 billion from selling its products and services \[1\]/);
    expect(general.text).toContain('In the year to June 30, 2024, Microsoft took in about $245 billion');
  });

  it('a form asked after another form restates the figures asked before them both', async () => {
    const a = await talk('How did Apple do in fiscal 2024?', 'what changed vs last year?', 'give me one headline number', "explain like I'm 12");
    expect(a.text).toMatch(/^In the year to September 28, 2024, Apple took in about \$391 billion from selling its products and services \[1\], 2% more than a year before; it kept about \$94 billion as profit/);
    expect(a.text).not.toContain('| Company |');
    const b = await talk("compare apple and microsoft's latest year for a general audience", 'in one sentence');
    expect(b.text).toMatch(/^In fiscal year 2024 \(year ended 2024-09-28\), Apple's revenue was \$391\.0 billion \[1\]/);
    expect(b.text).not.toContain('| Company |');
  });

  it('"which is bigger?" after growth rates weighs the sizes; "who has the most net cash?" is the lowest net debt', async () => {
    const bigger = await talk('aple revnue last qtr', 'and yoy?', 'wat about msft', 'which 1 is bigger lol');
    expect(bigger.text).toContain("Apple's revenue was $25,293 million (36.1%) more than Microsoft's.");
    expect(bigger.text).not.toMatch(/revenue growth, \+13\.3%, was/);
    // Asked as growth, it is still growth.
    const faster = await talk('aple revnue last qtr', 'and yoy?', 'wat about msft', 'which grew faster?');
    expect(faster.text).toContain("Microsoft's revenue growth, +13.3%, was 8.2 percentage points higher than Apple's, +5.1%.");
    const cash = await talkOf('svc-agent', 'how much cash does apple have', 'and debt?', 'net debt?', 'same for msft and googl', 'who has the most net cash?');
    expect(cash.text).toMatch(/^\*\*Alphabet\*\* has the most net cash, net cash of \$12,583 million, against Microsoft net debt of \$11,324 million and Apple net debt of \$50,404 million\./);
    const debt = await talk('net debt of all three', 'who has the most net debt?');
    expect(debt.text).toMatch(/^\*\*Apple\*\* has the highest net debt, \$55,807 million/);
  });

  it('a superlative naming no company, after all three were compared and one of them asked about, weighs all three again', async () => {
    const a = await talk('return on equity for all three fy2024', "why is apple's so high?", 'and ROA?', 'which is most efficient with its assets?');
    expect(a.text).toMatch(/^\*\*Apple\*\* has the highest return on assets, 26\.1%, against Alphabet 23\.5% and Microsoft 19\.1%\./);
    consistent(a);
    // A superlative of periods stays with the one company's table.
    const q = await talk('Alphabet quarterly revenue 2024', 'which quarter was strongest?');
    expect(q.text).toContain('highest in **Q4 2024** ($96,469 million)');
  });

  it('"which grew fastest?" after trailing twelve months of two companies compares the twelve months\' growth, both companies', async () => {
    const eps = await talk('Apple EPS last 4 quarters', 'ttm eps?', 'yoy growth of ttm eps?', 'and msft?', 'which grew faster');
    expect(eps.text).toContain("Microsoft's trailing-twelve-month diluted EPS growth, +12.0%, was 12.4 percentage points higher than Apple's, -0.3%.");
    const rev = await talk('MSFT revenue TTM', 'and yoy growth?', 'op margin ttm?', 'what about googl?', 'which grew fastest?');
    expect(rev.text).toContain("Microsoft's trailing-twelve-month revenue growth for the twelve months to fiscal Q3 2025 (quarter ended 2025-03-31), +14.1%, was 0.3 percentage points higher than Alphabet's for the twelve months to Q4 2024 (quarter ended 2024-12-31), +13.9%");
  });

  it('a table asked again for its unit only ("qoq growth each quarter?") keeps its quarters for the follow-ups after it', async () => {
    const turns = ['Alphabet quarterly revenue 2024', 'qoq growth each quarter?'];
    const strongest = await talk(...turns, 'which quarter was strongest?');
    expect(strongest.text).toContain('**Revenue**, highest in **Q4 2024** ($96,469 million), lowest in **Q1 2024** ($80,539 million), of the 4 shown.');
    const average = await talk(...turns, 'which quarter was strongest?', 'average?');
    expect(average.text).toContain('**Revenue**, average per quarter over the 4 shown: **$87,505 million**.');
    const billions = await talk(...turns, 'which quarter was strongest?', 'average?', 'in billions');
    expect(billions.text).toContain('| **Revenue** ($ billion) | 80.54 | 84.74 | 88.27 | 96.47† |');
  });

  it('a student\'s phrasings of what a term means: "how is X different from Y", "(derived)", "… and is higher better", a margin\'s formula', async () => {
    const basic = await talk("apple's latest eps", 'how is diluted different from basic');
    expect(basic.text).toMatch(/^- \*\*Basic EPS\*\* divides net income by the weighted-average shares outstanding; \*\*diluted EPS\*\* also counts/);
    expect(basic.text).not.toContain('I do not have a figure');
    const derived = await talk('msft fcf fy2024', 'what does (derived) mean?');
    expect(derived.text).toMatch(/^- \*\*\(derived\)\*\* marks a figure computed here from figures the filings report, not reported as such: free cash flow \(operating cash flow minus capital expenditure\)/);
    const current = await talk('whats a current ratio and is higher better');
    expect(current.text).toMatch(/^- \*\*Current ratio\*\*: total current assets over total current liabilities, at the same date; it tells whether what turns into cash within a year covers what falls due within a year; above 1, it does\./);
    const margin = await talk('what does operating margin mean', 'how is it computed');
    expect(margin.text).toMatch(/^- \*\*Operating margin\*\* is operating income divided by revenue for the same period, as a percentage \(operating income ÷ revenue × 100\)/);
    expect(margin.text).toContain('(“Apple operating margin”)');
  });

  it('after a list of 10-Qs, "when was the latest filed?" and "when is the next one due?" are of that form', async () => {
    const latest = await talk('which 10-Qs do you have for msft', 'when was the latest filed?');
    expect(latest.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its latest 10-Q, filed 2025-04-30 \(30 days after the period ended\), covers fiscal Q3 2025 \(quarter ended 2025-03-31\); accession number 0000950170-25-061046 \[1\]\./);
    const next = await talk('which 10-Qs do you have for msft', 'when was the latest filed?', 'when is the next one due?');
    expect(next.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its next 10-Q, for fiscal Q1 2026 \(the quarter ending about 2025-09-30\), is due by about \*\*2025-11-10\*\*, the next business day \(40 days after that quarter ends is 2025-11-09, a Sunday\)/);
    // A figure's follow-up is not a filing's: "and the latest quarter?" after revenue is still revenue.
    expect((await talk('msft revenue fy2024', 'and the latest quarter?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025/);
  });

  it('"is growth accelerating?" weighs the growth of the period discussed against the period before\'s, each cited', async () => {
    const a = await talk('Apple revenue growth Q1 FY25 yoy', 'and Q2 FY25?', 'so is growth accelerating?');
    expect(a.text).toMatch(/^\*\*Yes\*\*: Apple's revenue growth picked up, from \*\*\+4\.0%\*\* year over year in fiscal Q1 2025 \(quarter ended 2024-12-28\) to \*\*\+5\.1%\*\* in fiscal Q2 2025 \(quarter ended 2025-03-29\)/);
    expect(a.text).toContain('- Fiscal Q2 2025: $95,359 million [1] against $90,753 million [2] a year earlier.');
    expect(a.text).toContain('- Fiscal Q1 2025: $124,300 million [3] against $119,575 million [4] a year earlier.');
    consistent(a);
    const slowing = await talk('msft revenue fy2024', 'is growth slowing down?');
    expect(slowing.text).toMatch(/^\*\*No\*\*: Microsoft's revenue growth picked up, from \*\*\+6\.9%\*\* year over year in fiscal year 2023 \(year ended 2023-06-30\) to \*\*\+15\.7%\*\* in fiscal year 2024/);
  });

  it('"and per share?" after free cash flow (or its margin) is free cash flow per share, computed and cited', async () => {
    const a = await talk('Microsoft free cash flow fiscal 2024', 'fcf margin?', 'and per share?');
    expect(a.text).toMatch(/^- \*\*Microsoft's free cash flow per share\*\* for fiscal year 2024 \(year ended 2024-06-30\): \*\*\$9\.96 per share\*\*: free cash flow of \$74,071 million \[1\] \(derived\) over shares outstanding of 7,434 million shares/);
    consistent(a);
    // Per share of equity is book value per share.
    expect((await talk('apple shareholders equity fy2024', 'per share?')).text).toMatch(/^- \*\*Apple's book value per share\*\*/);
  });
});
