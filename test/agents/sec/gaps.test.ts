import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Follow-ups and questions earlier probes found answered thinly, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: follow-ups, derived figures, filing dates and judgement questions (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('a derived figure is labelled "(derived)" where it is given, not only in the note under it', async () => {
    const fcf = await talk('Apple free cash flow FY2024');
    expect(fcf.text.split('\n')[0]).toMatch(/free cash flow for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$108,807 million\*\* \(about \$108\.8 billion\) \[1\] \(derived\)\./);
    expect(fcf.text).toContain('Derived as operating cash flow $118,254 million');
    // A fourth quarter is the year less nine months: derived too.
    const q4 = await talk('Alphabet cost of revenue Q4 2022');
    expect(q4.text.split('\n')[0]).toMatch(/\*\*\$35,342 million\*\* \(about \$35\.3 billion\) \[1\]\[2\] \(derived\)\./);
    // A reported figure is not.
    expect((await talk("What was Apple's revenue in Q3 2024?")).text.split('\n')[0]).not.toContain('(derived)');
  });

  it('a period with no figure says what is missing and gives the nearest period\'s figure instead, cited, for each company of a comparison too', async () => {
    const a = await talk('Apple revenue FY2019');
    expect(a.text).toMatch(/^Apple's filings have no revenue for fiscal year 2019\. Available for Apple: .* The nearest period with a figure: Apple's revenue for fiscal year 2022 \(year ended 2022-09-24\) was \*\*\$394,328 million\*\* \[1\] \(Form 10-K filed 2023-11-03\)\./);
    consistent(a);
    const fcf = await talk('Apple free cash flow FY2021');
    expect(fcf.text).toContain("The nearest period with a figure: Apple's free cash flow for fiscal year 2022 (year ended 2022-09-24) was **$111,443 million** [1] (derived) (operating cash flow minus capital expenditure).");
    const both = await talk('Apple and Microsoft revenue FY2021');
    expect(both.text).toContain("The nearest period with a figure: Apple's revenue for fiscal year 2022 (year ended 2022-09-24) was **$394,328 million** [1]");
    expect(both.text).toContain("The nearest period with a figure: Microsoft's revenue for fiscal year 2022 (year ended 2022-06-30) was **$198,270 million** [2]");
    consistent(both);
  });

  it('"annualize that EPS" after a quarter\'s EPS: the quarter times four, a simple annualization, set against the twelve months and the fiscal year', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, 'Apple EPS Q3 2024', 'annualize that EPS');
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: diluted EPS for fiscal Q3 2024 \(quarter ended 2024-06-29\), simply annualized, is \*\*\$5\.60 per diluted share\*\* \(derived\): \$1\.40 per diluted share \[1\] times four\. A simple annualization/);
      expect(a.text).toMatch(/Trailing twelve months to 2024-06-29: \$6\.58 per diluted share \(derived, approximate: the sum of fiscal Q4 2023 \$1\.47 per diluted share \(derived\)/);
      expect(a.text).toMatch(/the annualized figure is \$0\.98 per diluted share \(14\.9%\) below it/);
      expect(a.text).toMatch(/Fiscal year 2024 \(year ended 2024-09-28\) as filed: \$6\.08 per diluted share \[\d\]; the annualized figure is \$0\.48 per diluted share \(7\.9%\) below it/);
      consistent(a);
    }
  });
});

describe('svc-sec-agent: "why" and judgement questions are answered with what the figures show (demo snapshot)', () => {
  const { talkOf } = demoTalk();

  it('"why did margins fall?" corrects the direction and names the lines behind the move, against revenue, before saying the reasons are not in the figures', async () => {
    const a = await talkOf('svc-sec-agent', 'Apple gross margin FY2024', 'why did margins fall?');
    expect(a.text).toMatch(/^What the figures show:\n\n\*\*Apple\*\*, fiscal year 2024 against fiscal year 2023:\n- Revenue grew 2\.0% \(\$383,285 million \[\d\] to \$391,035 million \[\d\]\)\.\n- Gross margin did not fall: it rose from 44\.1% to 46\.2% \(\+2\.1 percentage points\); gross profit grew 6\.8% \[\d\]\[\d\], faster than revenue\.\n- Cost of revenue fell 1\.8% \[\d\]\[\d\], while revenue grew: a cost taking a smaller share of revenue, which lifts the margins\./);
    expect(a.text).toContain("The figures show what changed, not why: the reasons are in what the filing says in words");
    // Only the margin asked about is corrected: the others are said as they moved.
    const b = await talkOf('svc-agent', 'Microsoft operating margin last quarter', 'why did its operating margin rise?');
    expect(b.text).toMatch(/- Operating margin rose from 44\.6% to 45\.7% \(\+1\.1 percentage points\); operating income grew 16\.0%/);
    expect(b.text).toMatch(/- Gross margin fell from 70\.1% to 68\.7%/);
    expect(b.text).toMatch(/- Operating expenses grew 2\.4% \[\d\]\[\d\] \(derived\), slower than revenue: a cost taking a smaller share of revenue/);
  });

  it('"is this a good company?" gets no verdict and no advice: what the figures show against the year before, what they cannot tell, the figures cited', async () => {
    const a = await talkOf('svc-sec-agent', 'Apple gross margin FY2024', 'is this a good company?');
    expect(a.text).toMatch(/^Whether it is a good company, or a good investment, is a judgement I leave to you: I give no investment advice\. What its filings' figures show:/);
    expect(a.text).toContain('- Operating margin rose from 29.8% to 31.5% (+1.7 percentage points); operating income grew 7.8%');
    expect(a.text).toMatch(/- Net margin fell from 25\.3% to 24\.0% \(-1\.3 percentage points\); net income fell 3\.4% \[\d\]\[\d\], while revenue grew\./);
    expect(a.text).toMatch(/- Free cash flow margin rose from 26\.0% to 27\.8% .*\(derived\), faster than revenue\./);
    expect(a.text).toContain('- Net margin fell while operating margin rose: the difference lies below operating income');
    expect(a.text).toContain('What the figures cannot tell: the share price');
    expect(a.text).toContain('| Apple Inc. (AAPL) | Free cash flow | fiscal year 2024 (year ended 2024-09-28) | $108,807 million');
    const m = await talkOf('svc-agent', 'is Microsoft a good company?');
    expect(m.text).toContain('**Microsoft**, fiscal year 2024 against fiscal year 2023:\n- Revenue grew 15.7%');
    expect(m.text).not.toMatch(/\b(?:buy|sell) (?:it|the stock)\b/i);
  });
});

describe('svc-sec-agent: when filings come (demo snapshot)', () => {
  const { talkOf } = demoTalk();

  it('"when is the next 10-Q due?": an estimate from the SEC deadline, the period reckoned from the fiscal calendar, the filer category assumed and said so', async () => {
    const apple = await talkOf('svc-sec-agent', "what period does Apple's latest 10-K cover?", 'when is the next 10-Q due?');
    expect(apple.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its next 10-Q, for fiscal Q3 2025 \(the quarter ending about 2025-06-28\), is due by about \*\*2025-08-07\*\*, 40 days after that quarter ends\. This is an estimate from the SEC's filing deadline/);
    expect(apple.text).toContain('The latest filing in the data: Form 10-Q for fiscal Q2 2025 (quarter ended 2025-03-29), filed 2025-05-02, 34 days after the period ended [1]');
    expect(apple.text).toMatch(/does not give Apple's filer category: this assumes a large accelerated filer/);
    expect(apple.citations[0]!.url).toMatch(/\/v1\/documents\/sec-\w+-320193-000032019325000057\.pdf\?expires=\d+&signature=\w+#page=1$/);
    // Microsoft's next period is its fiscal year's end: the 10-K comes first, said so, through the router too.
    const msft = await talkOf('svc-agent', 'Microsoft net income last quarter', 'when is the next 10-Q due?');
    expect(msft.text).toMatch(/its next 10-Q, for fiscal Q1 2026 \(the quarter ending about 2025-09-30\), is due by about \*\*2025-11-10\*\*, the next business day \(40 days after that quarter ends is 2025-11-09, a Sunday\)/);
    expect(msft.text).toContain('Before it comes the 10-K for fiscal year 2025 (ending about 2025-06-30), due by about 2025-08-29.');
    expect((await talkOf('svc-sec-agent', 'Apple revenue Q3 2024', "when's the next 10-K due?")).text).toMatch(/its next 10-K, for fiscal year 2025 \(the year ending about 2025-09-27\), is due by about \*\*2025-11-26\*\*, 60 days after that year ends/);
  });

  it('"how many days after the quarter end did they file?" is of the filing the figure before came from, with the others and the deadline', async () => {
    const a = await talkOf('svc-sec-agent', 'Apple revenue Q3 2024', 'how many days after the quarter end did they file?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its 10-Q for fiscal Q3 2024 \(quarter ended 2024-06-29\) was filed 2024-08-02, \*\*34 days\*\* after the quarter ended \[1\]; the deadline for a large accelerated filer is 40 days\./);
    expect(a.text).toMatch(/All 8 of its 10-Qs in the data were filed 34 days after the quarter ended/);
  });

  it('"how old is this data?" gives the period end and filing date of the figures given before, and whether newer ones are in the data', async () => {
    const a = await talkOf('svc-sec-agent', 'Apple revenue Q3 2024', 'how old is this data?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: the figures given before are for the period ended 2024-06-29, from filings made on 2024-08-02: the latest of those periods ended \*\*\d+ days ago\*\*/);
    expect(a.text).toContain('Newer in the data: Form 10-Q for fiscal Q2 2025 (quarter ended 2025-03-29), filed 2025-05-02');
    expect(a.text).toContain('a snapshot of SEC EDGAR recorded 2025-05-15');
    // Passed over: a turn about the filings themselves between.
    const b = await talkOf('svc-sec-agent', 'Microsoft net income last quarter', 'when is the next 10-Q due?', 'how old is this data?');
    expect(b.text).toMatch(/the figures given before are for the period ended 2025-03-31, from filings made on 2025-04-30/);
    expect(b.text).toContain('That is the latest quarterly period the data holds for Microsoft');
  });
});
