import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Answers a third probe of real conversations found weak, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: doubt cast on figures, bullets asked, sums of quarters labelled alike, cash burn over periods (demo snapshot)', () => {
  const { talkOf, consistent } = demoTalk();

  it('"what would make you wrong?", "how reliable are these numbers?", "can I trust that?" after figures: what they depend on, cited, as svc-agent answers', async () => {
    for (const doubt of ['what would make you wrong?', 'how reliable are these numbers?', 'can I trust that?']) {
      const a = await talkOf('svc-sec-agent', 'Apple revenue FY2024', doubt);
      expect(a.text, doubt).toMatch(/^That figure is read from SEC filings, not forecast, so no later event proves it wrong/);
      expect(a.text, doubt).toContain(`Apple Inc.'s revenue for fiscal year 2024 (year ended 2024-09-28): Form 10-K filed 2024-11-01 as "Total net sales" on page 3 [1].`);
      expect(a.text, doubt).toContain("Apple's fiscal year ends in late September");
      expect(a.text, doubt).not.toMatch(/figure called/);
      expect(a.citations).toHaveLength(1);
      consistent(a);
      // The same answer as the router's.
      if (doubt === 'can I trust that?') expect((await talkOf('svc-agent', 'Apple revenue FY2024', doubt)).text, doubt).toBe(a.text);
    }
    // A derived ratio: its inputs, and free cash flow's own derivation, named as derived.
    const fcf = await talkOf('svc-sec-agent', 'Apple fcf conversion fy2024', 'how reliable are these numbers?');
    expect(fcf.text).toContain("Apple Inc.'s free cash flow, fiscal year 2024: derived as operating cash flow $118,254 million (Form 10-K filed 2024-11-01) [1] minus capital expenditure $9,447 million (Form 10-K filed 2024-11-01) [1].");
    expect(fcf.text).toContain("Apple's free cash flow conversion for fiscal year 2024 is computed, not filed: free cash flow of $108,807 million [1] (derived) over net income of $93,736 million [2].");
    expect(fcf.text).not.toContain('Derived figures:** none here');
    consistent(fcf);
    // A table's derived cells: every way the note gives, not only the fourth quarter's.
    const table = await talkOf('svc-sec-agent', 'Apple free cash flow each quarter of 2024', 'can I trust these numbers?');
    expect(table.text).toContain('are derived, not reported as such: a fourth quarter is the fiscal year minus the first nine months (10-K minus the third-quarter 10-Q); cash-flow quarters are year-to-date differences; totals a filer does not tag follow their formula.');
    consistent(table);
    // Figures named with the doubt are those weighed.
    const named = await talkOf('svc-sec-agent', "can I trust Microsoft's net income FY2024?");
    expect(named.text).toContain("Microsoft Corp.'s net income for fiscal year 2024 (year ended 2024-06-30): Form 10-K filed 2024-07-30");
    consistent(named);
    // No figure given yet: said so, nothing cited.
    const none = await talkOf('svc-sec-agent', 'can I trust that?');
    expect(none.text).toMatch(/^No figure has been given yet, so there is nothing of mine to weigh\./);
    expect(none.citations).toHaveLength(0);
  });

  it('"as bullet points", "in bullets", "bullet list", "bullet points please": the figures as bullets, cited', async () => {
    // 391,035 and 93,736, in billions to one decimal.
    const a = await talkOf('svc-sec-agent', "Apple's revenue and net income FY2024 as bullet points");
    expect(a.text).toMatch(/^- Apple, fiscal year 2024: revenue \$391\.0 billion \[1\]\n- Apple, fiscal year 2024: net income \$93\.7 billion \[1\]\n/);
    consistent(a);
    const after = await talkOf('svc-sec-agent', 'Apple and Microsoft revenue FY2024', 'bullet points please');
    expect(after.text).toMatch(/^- Apple, fiscal year 2024: revenue \$391\.0 billion \[1\]\n- Microsoft, fiscal year 2024: revenue \$245\.1 billion \[2\]\n/);
    consistent(after);
    expect((await talkOf('svc-sec-agent', 'Apple revenue Q3 2024', 'in bullets')).text).toMatch(/^- Apple, fiscal Q3 2024: revenue \$85\.8 billion \[1\]\n/);
    // 180,683 / 391,035 = 46.2%.
    expect((await talkOf('svc-sec-agent', 'Apple gross margin FY2024 bullet list')).text).toMatch(/^- Apple, fiscal year 2024: gross margin 46\.2% \[1\]\n/);
  });

  it('a sum of four quarters is labelled "(sum of four quarters)" in the headline as in the table; a calendar year of a non-calendar filer gets its ratio', async () => {
    // 98,486 / 97,294 = 101.2%.
    const ttm = await talkOf('svc-sec-agent', 'Apple FCF conversion TTM');
    expect(ttm.text).toMatch(/^- \*\*Apple's free cash flow conversion\*\* for fiscal Q3 2024 to Q2 2025 \(twelve months ended 2025-03-29\): \*\*101\.2%\*\*: free cash flow of \$98,486 million (?:\[\d\])+ \(sum of four quarters\) over net income of \$97,294 million (?:\[\d\])+ \(sum of four quarters\)\./);
    expect(ttm.text).toMatch(/\| Free cash flow \| twelve months to fiscal Q2 2025 \(quarter ended 2025-03-29\) \| \$98,486 million (?:\[\d\])+ \(sum of four quarters\) \|/);
    consistent(ttm);
    // Calendar 2024 of Apple: fiscal Q2 2024 to Q1 2025. FCF 20,694 + 26,707 + 23,903 + 26,995 = 98,299; net income
    // 23,636 + 21,448 + 14,736 + 36,330 = 96,150; 98,299 / 96,150 = 102.2%. Calendar 2023: 106,869 / 100,913 = 105.9%.
    const cal = await talkOf('svc-sec-agent', 'Apple fcf conversion calendar 2024 vs calendar 2023');
    expect(cal.text).toMatch(/^- \*\*Apple's free cash flow conversion\*\* for calendar year 2024, fiscal Q2 2024 to Q1 2025 \(twelve months ended 2024-12-28\): \*\*102\.2%\*\*: free cash flow of \$98,299 million (?:\[\d\])+ \(sum of four quarters\) over net income of \$96,150 million (?:\[\d\])+ \(sum of four quarters\)\. For calendar year 2023, fiscal Q2 2023 to Q1 2024 \(twelve months ended 2023-12-30\): 105\.9%; change \*\*-3\.7 points\*\*\./);
    expect(cal.text).not.toContain('cannot be computed');
    consistent(cal);
    // Microsoft calendar 2024 (fiscal Q3 2024 to Q2 2025): 70,049 / 92,750 = 75.5%.
    expect((await talkOf('svc-sec-agent', 'Microsoft fcf conversion calendar 2024')).text).toMatch(/^- \*\*Microsoft's free cash flow conversion\*\* for calendar year 2024, fiscal Q3 2024 to Q2 2025 \(twelve months ended 2024-12-31\): \*\*75\.5%\*\*/);
  });

  it('cash burn over several periods: per period, burn or not and by how much, and plainly none in any', async () => {
    const a = await talkOf('svc-sec-agent', "Apple's cash burn each quarter of 2024");
    expect(a.text).toContain('**No cash burn in any of the 4 quarters shown**: free cash flow (operating cash flow minus capital expenditure) was positive in each, cash generated rather than used.');
    expect(a.text).toContain('- Q1 FY2024: no burn (free cash flow +$37,503 million)\n- Q2 FY2024: no burn (free cash flow +$20,694 million)\n- Q3 FY2024: no burn (free cash flow +$26,707 million)\n- Q4 FY2024: no burn (free cash flow +$23,903 million)');
    expect(a.text).toContain('| **Free cash flow** ($ million) | 37,503† | 20,694† | 26,707† | 23,903† |');
    consistent(a);
    const years = await talkOf('svc-agent', 'Alphabet cash burn over the last 3 years');
    expect(years.text).toContain('**No cash burn in any of the 3 fiscal years shown**');
    expect(years.text).toContain('- FY2024: no burn (free cash flow +$72,764 million)');
    // Asked yes or no of a table: the answer first.
    const asked = await talkOf('svc-sec-agent', 'Microsoft quarterly free cash flow 2025', 'is it burning cash?');
    expect(asked.text).toContain('**No**: no cash burn in any of the 3 quarters shown');
    expect(asked.text).toContain('- Q2 FY2025: no burn (free cash flow +$6,518 million)');
    // Free cash flow asked without a burn: no verdict.
    expect((await talkOf('svc-sec-agent', 'Apple free cash flow each quarter of 2024')).text).not.toContain('cash burn');
  });
});

describe('svc-sec-agent: analyst questions found weak (demo snapshot)', () => {
  const { talkOf, consistent } = demoTalk();

  it('a return asked over the trailing twelve months is of those months, not the last fiscal year', async () => {
    // Net income 97,294 over the mean of 74,194 and 66,796 (70,495): 138.0%.
    const roe = await talkOf('svc-sec-agent', 'Apple ROE TTM');
    expect(roe.text).toMatch(/^- \*\*Apple's return on equity\*\* for fiscal Q3 2024 to Q2 2025 \(twelve months ended 2025-03-29\): \*\*138\.0%\*\*: net income of \$97,294 million (?:\[\d\])+ \(sum of four quarters\) over average shareholders' equity of \$70,495 million, the mean of \$74,194 million \[\d\] at 2024-03-30 and \$66,796 million \[\d\] at 2025-03-29\./);
    expect(roe.text).not.toContain('annualised');
    consistent(roe);
    // 96,635 over the mean of 484,275 and 562,624 (523,449.5): 18.5%.
    expect((await talkOf('svc-sec-agent', 'Microsoft return on assets ttm')).text).toMatch(/^- \*\*Microsoft's return on assets\*\* for fiscal Q4 2024 to Q3 2025 \(twelve months ended 2025-03-31\): \*\*18\.5%\*\*/);
    // Without TTM, still the fiscal year.
    expect((await talkOf('svc-sec-agent', 'Apple ROE')).text).toMatch(/^- \*\*Apple's return on equity\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*157\.4%\*\*/);
  });

  it('a margin\'s trend over the latest quarters is the margin\'s, in points, before the figure\'s growth', async () => {
    // Q3 FY2025 25,824 / 70,066 = 36.9%; Q3 FY2024 21,939 / 61,858 = 35.5%: +1.4 points. Four quarters 96,635 / 270,010 = 35.8%
    // against 86,181 / 236,584 = 36.4%: -0.6 points. Net income +17.7% and +12.1% (96,635 / 86,181).
    const a = await talkOf('svc-sec-agent', 'Microsoft net margin trend over the last 4 quarters');
    expect(a.text).toContain('**Net margin**, Q3 FY2025, the latest, 36.9% against 35.5% in Q3 FY2024, a year before, **+1.4 percentage points**; the four quarters to Q3 FY2025 together 35.8% against 36.4% for the four before, **−0.6 percentage points**; net income, Q3 FY2025, the latest, **+17.7%** year over year; net income over the four quarters to Q3 FY2025 together $96,635 million, **+12.1%** over the four before.');
    consistent(a);
    // A figure without a margin reads as before.
    expect((await talkOf('svc-sec-agent', 'Apple revenue trend over the last 4 quarters')).text).toContain('**Revenue**, Q2 FY2025, the latest, **+5.1%** year over year; the four quarters to Q2 FY2025 together $400,366 million, **+4.9%** over the four before.');
  });

  it('a ratio\'s trend asked over periods: the ratio\'s own change, not only its parts\'', async () => {
    // 47,032 / 166,542 = 0.28x; 42,688 / 268,477 = 0.16x; 0.1590 - 0.2824 = -0.12x.
    const a = await talkOf('svc-sec-agent', 'Microsoft debt to equity trend over the last 3 years');
    expect(a.text).toContain('**Debt-to-equity ratio**, FY2022 to FY2024: 0.28x → 0.16x, **−0.12x**.');
    consistent(a);
    // Over the latest quarters: the latest against the same quarter a year before (118,674 / 141,120 = 0.84x).
    expect((await talkOf('svc-sec-agent', 'Apple current ratio trend over the last 4 quarters')).text).toContain('**Current ratio**, Q2 FY2024 to Q2 FY2025 (a year apart): 1.04x → 0.84x, **−0.20x**.');
  });

  it('"what is Apple\'s fiscal year?", "when does Microsoft\'s fiscal year end?": the calendar from the filings, cited, not key figures', async () => {
    const a = await talkOf('svc-sec-agent', "what is Apple's fiscal year?");
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its fiscal year ends in late September, so it is not the calendar year: its quarters are named for the fiscal year, and fiscal Q1 is not calendar Q1\. Its latest fiscal year in the filings, fiscal year 2024, ran from 2023-10-01 to 2024-09-28 \[1\]\. Its latest quarter, fiscal Q2 2025, ran from 2024-12-29 to 2025-03-29 \[2\]\./);
    // (The earlier years' ends of a 52/53-week year are cited too: see gaps4.test.ts.)
    expect(a.citations.map((c) => c.name)).toEqual(['Apple Inc. Form 10-K, fiscal year ended 2024-09-28, page 3', 'Apple Inc. Form 10-Q, quarter ended 2025-03-29, page 3', 'Apple Inc. Form 10-K, fiscal year ended 2023-09-30, page 3']);
    consistent(a);
    const two = await talkOf('svc-sec-agent', "when does Microsoft's fiscal year end? and Alphabet's?");
    expect(two.text).toContain('**Microsoft Corp. (MSFT)**: its fiscal year ends on June 30, so it is not the calendar year');
    expect(two.text).toContain('**Alphabet Inc. (GOOGL)**: its fiscal year is the calendar year: it ends on December 31');
    consistent(two);
    // A figure asked with the fiscal year is the figure.
    expect((await talkOf('svc-sec-agent', "what was Apple's revenue in its latest fiscal year?")).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024/);
  });

  it('revenue per share: revenue over the shares outstanding at the period\'s end, and "and per share?" after revenue', async () => {
    // 391,035 / 15,116.786 = $25.87.
    const a = await talkOf('svc-sec-agent', 'Apple revenue per share FY2024');
    expect(a.text).toMatch(/^- \*\*Apple's revenue per share\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*\$25\.87 per share\*\*: revenue of \$391,035 million \[1\] over shares outstanding of 15,116,786 thousand shares \(about 15\.12 billion shares\) \[2\]\./);
    expect(a.text).not.toContain('figure called');
    consistent(a);
    expect((await talkOf('svc-sec-agent', 'Apple revenue FY2024', 'and per share?')).text).toMatch(/^- \*\*Apple's revenue per share\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*\$25\.87 per share\*\*/);
    // No share count for Alphabet in the data: said so.
    expect((await talkOf('svc-sec-agent', 'Alphabet revenue per share FY2024')).text).toMatch(/^- Alphabet's revenue per share cannot be computed for fiscal year 2024 \(year ended 2024-12-31\): the filings give no shares outstanding for it\./);
  });

  it('"which has the best ROE?" naming no company ranks every company covered', async () => {
    // Apple 93,736 / 59,548 = 157.4%; Microsoft 88,136 / 237,350 = 37.1%; Alphabet 100,118 / 304,231.5 = 32.9%.
    const a = await talkOf('svc-sec-agent', 'which has the best ROE?');
    expect(a.text).toMatch(/^\*\*Apple\*\* has the highest return on equity, 157\.4%, against Microsoft 37\.1% and Alphabet 32\.9%\./);
    expect(a.text).not.toContain('could not tell which company');
    consistent(a);
  });

  it('"what were the latest filing dates for all three?": each company\'s latest filing, not their key figures', async () => {
    const a = await talkOf('svc-sec-agent', 'what were the latest filing dates for all three?');
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its latest 10-Q, filed 2025-05-02 \(34 days after the period ended\), covers fiscal Q2 2025/);
    expect(a.text).toContain('**Alphabet Inc. (GOOGL)**: its latest 10-K, filed 2025-02-05 (36 days after the period ended), covers fiscal year 2024 (year ended 2024-12-31)');
    expect(a.text).toContain('**Microsoft Corp. (MSFT)**: its latest 10-Q, filed 2025-04-30 (30 days after the period ended), covers fiscal Q3 2025 (quarter ended 2025-03-31)');
    expect(a.text).not.toContain('Key figures');
    consistent(a);
  });
});
