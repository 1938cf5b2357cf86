import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

/** Answers a probe of real conversations found weak, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: cash burn, TTM margins, the shares behind EPS, FCF conversion (demo snapshot)', () => {
  const { talkOf, consistent } = demoTalk();

  it('"and Alphabet?" after "what\'s Apple\'s cash burn?" carries the burn: whether Alphabet burns cash, through svc-agent too', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, "what's Apple's cash burn?", 'and Alphabet?');
      expect(a.text).toMatch(/^Alphabet did not burn cash in Q4 2024 \(quarter ended 2024-12-31\): its free cash flow \(operating cash flow minus capital expenditure\) was \*\*\+\$24,846 million\*\* \[1\]\[2\] \(derived\), cash generated rather than used\./);
      consistent(a);
    }
    // Carried to two companies at once: whether each burns cash, first, before their table.
    const two = await talkOf('svc-sec-agent', "what's Apple's cash burn?", 'how about Microsoft and Alphabet?');
    expect(two.text).toMatch(/^- Microsoft did not burn cash in fiscal Q3 2025 \(quarter ended 2025-03-31\): .*\*\*\+\$20,340 million\*\* \[\d+\]\[\d+\] \(derived\).*\n- Alphabet did not burn cash in Q4 2024 \(quarter ended 2024-12-31\): .*\*\*\+\$24,846 million\*\* \[\d+\]\[\d+\] \(derived\)/);
    // (Each with its trailing twelve months' free cash flow, every quarter cited.)
    expect(two.text).toMatch(/Over the trailing twelve months \(the four quarters to 2025-03-31\) its free cash flow was \*\*\+\$69,815 million\*\*/);
    consistent(two);
    // The burn asked in other words is the burn, not the cash balance; and carried the same way.
    const m = await talkOf('svc-sec-agent', 'how much cash is Microsoft burning?', 'what about Alphabet?');
    expect(m.text).toMatch(/^Alphabet did not burn cash in Q4 2024/);
    expect((await talkOf('svc-sec-agent', 'how much cash is Microsoft burning?')).text).toMatch(/^Microsoft did not burn cash in fiscal Q3 2025 \(quarter ended 2025-03-31\): its free cash flow .* \*\*\+\$20,340 million\*\*/);
    // A balance named after cash stays the balance.
    expect((await talkOf('svc-sec-agent', 'Apple cash Q1 2023')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: cash and cash equivalents at the end of fiscal Q1 2023/);
  });

  it('"operating margin TTM vs a year earlier": both twelve months\' margins, each derived, and the change in points', async () => {
    const a = await talkOf('svc-sec-agent', "Apple's operating margin TTM vs a year earlier");
    // 127,364 / 400,366 = 31.81%; 118,240 / 381,623 = 30.98%: +0.83 points.
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: operating margin over the trailing twelve months \(fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29\) was \*\*31\.8%\*\* \(derived\): operating income of \$127,364 million over revenue of \$400,366 million, each the sum of the four quarters; a year earlier, over the twelve months fiscal Q3 2023 to fiscal Q2 2024, ended 2024-03-30, it was \*\*31\.0%\*\* \(derived\): operating income of \$118,240 million over revenue of \$381,623 million\. Change: \*\*\+0\.8 percentage points\*\* \(derived\)\./);
    // The earlier twelve months' revenue is cited quarter by quarter in the working.
    expect(a.text).toMatch(/A year earlier: 31\.0% of revenue of \$381,623 million \(the sum of fiscal Q3 2023 \$81,797 million \[\d\], fiscal Q4 2023 \$89,498 million \[\d\]\[\d\], fiscal Q1 2024 \$119,575 million \[\d\], fiscal Q2 2024 \$90,753 million \[\d\]\)\./);
    consistent(a);
    // "Year-ago" hyphenated is the year before, not a company. (84,293 / 307,394 = 27.4%; 112,390 / 350,018 = 32.1%.)
    const g = await talkOf('svc-sec-agent', 'Alphabet operating margin ttm vs year-ago ttm');
    expect(g.text).toMatch(/was \*\*32\.1%\*\* \(derived\).*; a year earlier, over the twelve months Q1 2023 to Q4 2023, ended 2023-12-31, it was \*\*27\.4%\*\* \(derived\).* Change: \*\*\+4\.7 percentage points\*\* \(derived\)\./);
    expect(g.text).not.toContain('year-ago" in this snapshot');
    // Asked whether it expanded: on the twelve months' margins, not the last quarter's.
    const b = await talkOf('svc-agent', 'Microsoft gross margin TTM vs a year ago', 'did it expand?');
    expect(b.text).toMatch(/^\*\*No\*\*: Microsoft's trailing-twelve-month gross margin fell, -0\.8 percentage points, year over year/);
  });

  it('"how many shares is that based on?" after EPS: the weighted-average diluted count is not in the demo data, said plainly; period-end shares outstanding labelled as such', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, 'Apple EPS Q3 2024', 'how many shares is that based on?');
      expect(a.text).toMatch(/^The weighted-average diluted share count that Apple's EPS is computed on \(XBRL us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding\) is not in the data, so the exact count behind the EPS cannot be given\. What the data has is the number of shares outstanding at the period's end/);
      expect(a.text).toContain('**Apple Inc. (AAPL)**: shares outstanding at the end of fiscal Q3 2024 (2024-06-29) were **15,222,259 thousand shares** (about 15.22 billion shares) [1].');
      consistent(a);
    }
    // A company with no share count at all: said plainly, nothing in its place.
    const none = await talkOf('svc-sec-agent', 'Alphabet EPS 2024', 'how many shares is that based on?');
    expect(none.text).toMatch(/^Neither the weighted-average diluted share count that Alphabet's EPS is computed on nor a count of shares outstanding is in the data/);
    expect(none.citations).toHaveLength(0);
    const two = await talkOf('svc-sec-agent', 'Apple and Microsoft EPS FY2024', 'what share count is that using?');
    expect(two.text).toMatch(/^The weighted-average diluted share count that Apple's and Microsoft's EPS is computed on/);
    expect(two.text).toContain('| Microsoft Corp. (MSFT) | Shares outstanding |');
  });

  it('free cash flow to net income ("FCF to NI", "cash conversion", "relative to net income"): FCF (derived) over net income, both cited', async () => {
    for (const q of ['Apple FCF to NI FY2024', 'Apple free cash flow relative to net income FY2024', 'Apple cash conversion FY2024', "how much of Apple's net income converted to free cash flow in FY2024?"]) {
      const a = await talkOf('svc-sec-agent', q);
      // 108,807 / 93,736 = 116.1%.
      expect(a.text, q).toMatch(/^- \*\*Apple's free cash flow conversion\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*116\.1%\*\*: free cash flow of \$108,807 million \[1\] \(derived\) over net income of \$93,736 million \[2\]\./);
      expect(a.text, q).toContain('Derived as operating cash flow $118,254 million');
      consistent(a);
    }
    // Over trailing twelve months: each summed over the four quarters (98,486 / 97,294 = 101.2%), and a year earlier on asking.
    const ttm = await talkOf('svc-sec-agent', 'Apple FCF conversion TTM');
    expect(ttm.text).toMatch(/^- \*\*Apple's free cash flow conversion\*\* for fiscal Q3 2024 to Q2 2025 \(twelve months ended 2025-03-29\): \*\*101\.2%\*\*: free cash flow of \$98,486 million (?:\[\d\])+ \(sum of four quarters\) over net income of \$97,294 million (?:\[\d\])+ \(sum of four quarters\)\./);
    consistent(ttm);
    expect((await talkOf('svc-sec-agent', 'Apple FCF conversion TTM', 'and a year earlier?')).text).toMatch(/^- \*\*Apple's free cash flow conversion\*\* for fiscal Q3 2023 to Q2 2024 \(twelve months ended 2024-03-30\): \*\*101\.5%\*\*/);
    // The cycle is another measure, not computed.
    expect((await talkOf('svc-sec-agent', 'Apple cash conversion cycle')).text).toMatch(/^I do not have a figure called "cash conversion cycle"/);
  });
});

describe('svc-sec-agent: filings cited through their documents, a company not found kept, breakdowns naming no dimension (demo snapshot)', () => {
  const { talkOf, consistent } = demoTalk();

  it('a list of filings, and "latest 10-K?" after it, cite each filing\'s signed PDF at page 1, not EDGAR\'s index', async () => {
    const list = await talkOf('svc-sec-agent', "list Apple's recent filings");
    expect(list.citations).toHaveLength(10);
    for (const c of list.citations) expect(c.url).toMatch(/\/v1\/documents\/sec-\w+-320193-\d{18}\.pdf\?expires=\d+&signature=\w+#page=1$/);
    expect(list.citations[0]!.name).toBe('Apple Inc. Form 10-Q, quarter ended 2025-03-29, filed 2025-05-02, page 1');
    expect(list.text).toContain('Each links to the filing itself, a PDF opened at its first page.');
    expect(list.text).not.toContain('EDGAR');
    consistent(list);
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const latest = await talkOf(model, "list Apple's recent filings", 'latest 10-K?');
      expect(latest.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its latest 10-K, filed 2024-11-01 \(34 days after the period ended\), covers fiscal year 2024 \(year ended 2024-09-28\); accession number 0000320193-24-000123 \[1\]\./);
      expect(latest.citations[0]!.url).toMatch(/\/v1\/documents\/sec-\w+-320193-000032019324000123\.pdf\?expires=\d+&signature=\w+#page=1$/);
      consistent(latest);
    }
    expect((await talkOf('svc-sec-agent', "show me Microsoft's latest 10-Q")).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its latest 10-Q, filed 2025-04-30/);
  });

  it('"revenue for both" after a real company and a made-up one: the real one answered, the other said not to be in the data', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await talkOf(model, "I'm comparing Apple with Zorblax Corp.", 'Apple revenue FY2024', 'revenue for both');
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
      expect(a.text).toContain('I could not find a company called "Zorblax" in this snapshot of SEC data');
      consistent(a);
    }
    // Two companies found stay the two.
    const b = await talkOf('svc-sec-agent', 'Apple revenue FY2024', 'and Microsoft?', 'net income for both');
    expect(b.text).toContain('| Microsoft Corp. (MSFT) | Net income |');
    expect(b.text).not.toContain('could not find');
  });

  it('"break that down" naming no dimension: the lines the data holds for the figure, or which breakdowns there are and a question which', async () => {
    const ni = await talkOf('svc-agent', 'Microsoft net income FY2024', 'can you break it down?');
    expect(ni.text).toMatch(/^Breakdowns by segment, product or geography are not in the data: .* What the data holds for Microsoft's net income is the lines it is made of on the statements:/);
    expect(ni.text).toContain('| Microsoft Corp. (MSFT) | Revenue | fiscal year 2024 (year ended 2024-06-30) | $245,122 million [1] |');
    expect(ni.text).toContain('| Microsoft Corp. (MSFT) | Operating income | fiscal year 2024 (year ended 2024-06-30) | $109,433 million [1] |');
    expect(ni.text).toContain('| Microsoft Corp. (MSFT) | Net income | fiscal year 2024 (year ended 2024-06-30) | $88,136 million [1] |');
    consistent(ni);
    const fcf = await talkOf('svc-sec-agent', 'Apple free cash flow FY2024', 'break that down');
    expect(fcf.text).toContain('| Apple Inc. (AAPL) | Operating cash flow | fiscal year 2024 (year ended 2024-09-28) | $118,254 million [1] |');
    expect(fcf.text).toContain('| Apple Inc. (AAPL) | Capital expenditure | fiscal year 2024 (year ended 2024-09-28) | $9,447 million [1] |');
    // Operating expenses of a filer giving SG&A as two lines: R&D and those two, which add up to the whole (29,510 + 24,456 + 7,609 = 61,575).
    const opex = await talkOf('svc-sec-agent', 'Microsoft opex FY2024', 'break it down');
    expect(opex.text).toContain('| Microsoft Corp. (MSFT) | Sales and marketing expense |');
    expect(opex.text).toContain('| Microsoft Corp. (MSFT) | Operating expenses | fiscal year 2024 (year ended 2024-06-30) | $61,575 million [1] (derived) |');
    expect(opex.text).not.toContain('| Microsoft Corp. (MSFT) | SG&A expense |');
    // Revenue has no parts in the data: which breakdowns there are, and which is wanted; never "break" read as a figure.
    const rev = await talkOf('svc-sec-agent', 'Apple revenue Q3 2024', 'break that down');
    expect(rev.text).toMatch(/^Revenue has no parts in the data to break it into\. Breakdowns by segment, product or geography are not in the data/);
    expect(rev.text).toContain('- Apple: net income (revenue, cost of revenue, gross profit, operating expenses and operating income);');
    expect(rev.text).toContain('free cash flow (operating cash flow and capital expenditure)');
    expect(rev.text).toMatch(/Which would you like\? For example “break down Apple's net income”\./);
    expect(rev.text).not.toMatch(/figure called "break"/);
  });
});
