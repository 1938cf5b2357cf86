import { describe, expect, it } from 'vitest';
import { demoTalk } from './demo-talk.js';

const COVERED = /^This snapshot of SEC data has figures for 3 companies: Apple Inc\. \(AAPL\), Alphabet Inc\. \(GOOGL\) and Microsoft Corp\. \(MSFT\)\./;

/** Questions a third round of probes (an equity analyst's threads) found misread, on the shipped demo snapshot, offline. */
describe('svc-sec-agent: probe round 3 (demo snapshot)', () => {
  const { talk, talkOf, consistent } = demoTalk();

  it('which companies are covered, however it is asked, also in the middle of a thread; a ranking of companies is no such question', async () => {
    const thread = ['Compare Apple, Microsoft and Alphabet operating cash flow and capex for their latest fiscal year', 'Free cash flow for each?', 'Rank them by FCF margin'];
    expect((await talk(...thread, 'Which companies are in your dataset?')).text).toMatch(COVERED);
    for (const q of ['what tickers can I ask about?', "what's in your database?", 'whats your coverage', 'which stocks does the snapshot contain?', 'which names are in your universe?']) {
      expect((await talk(q)).text, q).toMatch(COVERED);
    }
    expect((await talkOf('svc-agent', 'what companies are in the data set?')).text).toMatch(COVERED);
    const ranked = await talk('Which companies have the highest net margin?');
    expect(ranked.text).not.toMatch(COVERED);
    expect(ranked.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
  });

  it('Tesla and other large caps resolve to their names and tickers, each said not to be in the snapshot; "for both" keeps both', async () => {
    const both = await talk('Amazon total debt and cash at the end of 2023', 'Net debt?', "What about Tesla's?", 'Debt to equity for both');
    expect(both.text).toContain('Amazon Com Inc. (AMZN) is not in this snapshot of SEC data');
    expect(both.text).toContain('Tesla, Inc. (TSLA) is not in this snapshot of SEC data');
    const margin = await talkOf('svc-agent', 'I have $1000. Is Tesla a good company?', "what's their profit margin");
    expect(margin.text).toMatch(/^Tesla, Inc\. \(TSLA\) is not in this snapshot of SEC data/);
    expect(margin.text).not.toContain('could not find');
    for (const [name, said] of [['Walmart', 'Walmart Inc. (WMT)'], ['JPMorgan', '(JPM)'], ['Exxon', '(XOM)'], ['Netflix', '(NFLX)'], ['Broadcom', 'Broadcom Inc. (AVGO)'], ['Eli Lilly', '(LLY)']] as const) {
      const a = await talk(`${name} revenue 2024`);
      expect(a.text, name).toContain(`${said} is not in this snapshot of SEC data`);
    }
  });

  it('a ranking asked after a comparison is of the companies compared: an uncovered company asked about before is not said again', async () => {
    const a = await talk(
      "What's Apple's revenue for Q3 2031?",
      "What is Berkshire Hathaway's revenue?",
      'Apple gross margin vs Microsoft gross margin vs NVIDIA gross margin, latest fiscal year',
      "Which one's highest and by how many points?",
    );
    expect(a.text).toContain("Microsoft's gross margin for fiscal year 2024 (year ended 2024-06-30), 69.8%, was 23.6 percentage points higher than Apple's");
    expect(a.text).not.toContain('Berkshire');
    consistent(a);
    // Companies asked one at a time are still all ranked.
    const each = await talk('return on equity for all three fy2024', "why is apple's so high?", 'and ROA?', 'which is most efficient with its assets?');
    expect(each.text).toMatch(/^\*\*Apple\*\* has the highest return on assets, 26\.1%, against Alphabet 23\.5% and Microsoft 19\.1%\./);
  });

  it('a filing deadline on a weekend or holiday moves to the next business day; filing-date answers cite the filing PDFs, signed', async () => {
    const due = await talk('Alphabet revenue trailing twelve months', 'annualize its latest quarterly EPS', 'is this a good company?', 'when is the next 10-Q due?');
    expect(due.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: its next 10-Q, for Q1 2025 \(the quarter ending about 2025-03-31\), is due by about \*\*2025-05-12\*\*, the next business day \(40 days after that quarter ends is 2025-05-10, a Saturday\)\./);
    expect(due.text).not.toContain('2025-05-10**');
    const signed = /^http:\/\/127\.0\.0\.1:\d+\/v1\/documents\/sec-\w+-1652044-\d{18}\.pdf\?expires=\d+&signature=\w+#page=1$/;
    expect(due.citations.map((c) => c.url)).toEqual([expect.stringMatching(signed)]);
    expect(due.citations[0]!.name).toBe('Alphabet Inc. Form 10-K, fiscal year ended 2024-12-31, filed 2025-02-05, page 1');
    consistent(due);
    const age = await talk('Alphabet revenue trailing twelve months', 'annualize its latest quarterly EPS', 'is this a good company?', 'when is the next 10-Q due?', 'how old is this data?');
    expect(age.citations.length).toBeGreaterThan(0);
    for (const c of age.citations) expect(c.url).toMatch(signed);
    consistent(age);
    // A business day stays as it is.
    expect((await talk('Apple revenue Q3 2024', "when's the next 10-K due?")).text).toMatch(/is due by about \*\*2025-11-26\*\*, 60 days after that year ends\./);
  });

  it('a breakdown by segment, product or region says it is not in the XBRL company facts read here, then gives the company-wide figures asked before', async () => {
    const a = await talk('What was Apple revenue in Q3 2024?', 'And Q3 2023?', 'Percentage change?', 'Break it down by segment or product');
    expect(a.text).toMatch(/^Breakdowns by segment, product or region are not in the XBRL company facts this service reads: companies give them in the notes to their financial statements \(segment information\), and I read only their company-wide figures\. The company-wide figures:/);
    expect(a.text).toContain('**Apple Inc. (AAPL)**: revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was **$85,777 million**');
    expect(a.text).toContain('change +$3,980 million (+4.9%)');
    expect(a.text).not.toContain('I do not have a figure called');
    consistent(a);
    for (const turns of [['Microsoft revenue Q1 2025', 'split that by region'], ['Microsoft revenue Q1 2025', "what's the product mix?"]]) {
      const b = await talkOf('svc-agent', ...turns);
      expect(b.text, turns[1]).toMatch(/^Breakdowns by segment, product or region are not in the XBRL company facts/);
      expect(b.text, turns[1]).toContain('**Microsoft Corp. (MSFT)**: revenue for fiscal Q1 2025 (quarter ended 2024-09-30) was **$65,585 million**');
    }
    // Asked with nothing to fall back on: what there is instead, company-wide.
    const c = await talk('Alphabet revenue by segment FY2024');
    expect(c.text).toMatch(/^Breakdowns by segment, product or region are not in the XBRL company facts/);
    expect(c.text).toContain('What I have for Alphabet, company-wide: revenue, cost of revenue, gross profit');
    // A product named alone keeps its own answer.
    expect((await talk('Google Cloud revenue')).text).toMatch(/^I do not have a figure called "Google Cloud revenue": it is one part of the company's total/);
  });

  it('the 10-Q and 10-K numbers of a fourth quarter: there is no Q4 10-Q, the quarter is the year less the nine months, with the figures discussed', async () => {
    const a = await talk(
      'Apple gross margin vs Microsoft gross margin vs NVIDIA gross margin, latest fiscal year',
      "Which one's highest and by how many points?",
      "What's the difference between the 10-Q and 10-K numbers for Apple Q4?",
    );
    expect(a.text).toMatch(/^There is no 10-Q for a fourth quarter: a company files a 10-Q for each of its first three fiscal quarters, and its 10-K covers the whole fiscal year instead\./);
    expect(a.text).toContain("the fourth quarter is the 10-K's fiscal year less the nine months to the end of the third quarter");
    expect(a.text).toContain('**Apple Inc. (AAPL)**: gross margin for fiscal Q4 2024 (quarter ended 2024-09-28) was **46.2%**');
    expect(a.text).toContain('Derived as fiscal year 2024 $180,683 million (Form 10-K filed 2024-11-01) [1] minus nine months ended June 29, 2024 $136,804 million (Form 10-Q filed 2024-08-02) [2]');
    consistent(a);
    const why = await talk('Microsoft revenue FY2024', 'why is there no fourth quarter 10-Q?');
    expect(why.text).toMatch(/^There is no 10-Q for a fourth quarter/);
    expect(why.text).toContain('revenue for fiscal Q4 2024 (quarter ended 2024-06-30) was **$64,727 million**');
    expect(why.text).not.toContain('The figures show what changed, not why');
    // No figure discussed: the note, and how to ask for one.
    const bare = await talk("where is apple's Q4 10-Q?");
    expect(bare.text).toMatch(/^There is no 10-Q for a fourth quarter.*Ask for a figure of the fourth quarter/s);
    expect(bare.citations).toEqual([]);
  });

  it('"show the formula you used", "how did you calculate that?", "formula?": the arithmetic of each computed figure of the answer before, with its numbers, cited', async () => {
    const cagr = await talk('Microsoft SG&A, S&M and G&A for fiscal 2023 and 2024 as % of revenue', "What's the 2-year revenue CAGR from FY2022 to FY2024?", 'Show the formula you used');
    expect(cagr.text).toContain('Revenue, FY2022 to FY2024: compound annual growth = (245,122 / 198,270)^(1/2) − 1 = **+11.2% a year**; total change = (245,122 − 198,270) / 198,270 = +23.6% (amounts in $ million) [1][2].');
    expect(cagr.text).not.toContain('| FY2022');
    consistent(cagr);
    const shares = await talk('Microsoft SG&A, S&M and G&A for fiscal 2023 and 2024 as % of revenue', 'show your working');
    expect(shares.text).toContain('Microsoft Corp. (MSFT) SG&A expense, fiscal year 2024 against fiscal year 2023: (32,065 − 30,334) / 30,334 = **+5.7%**');
    expect(shares.text).toContain('Microsoft Corp. (MSFT) sales and marketing expense, fiscal year 2024: sales and marketing expense / revenue = 24,456 / 245,122 = **10.0%**');
    expect(shares.text).toContain('Microsoft Corp. (MSFT) SG&A expense, fiscal year 2024: sales and marketing 24,456 + general and administrative 7,609 = **32,065**');
    consistent(shares);
    const yoy = await talk('Apple revenue Q3 2024', 'yoy?', 'how did you calculate that?');
    expect(yoy.text).toContain('Revenue, fiscal Q3 2024 against fiscal Q3 2023 (year over year): (85,777 − 81,797) / 81,797 = **+4.9%** (amounts in $ million) [1][2].');
    expect(yoy.citations.map((c) => c.name)).toEqual([expect.stringContaining('quarter ended 2024-06-29'), expect.stringContaining('quarter ended 2023-07-01')]);
    // Through the router too: margins, and the gap between them from the margins before rounding.
    const gap = await talkOf('svc-agent', "What's Microsoft's operating margin in their most recent quarter, and how does it compare to Apple's most recent quarter?", 'how was that computed?');
    expect(gap.text).toContain('Microsoft Corp. (MSFT) operating margin, fiscal Q3 2025: operating income / revenue = 32,000 / 70,066 = **45.7%**');
    expect(gap.text).toContain("Microsoft's operating margin against Apple's: 45.67% − 31.03% = **14.6 percentage points** (the margins before rounding to 45.7% and 31.0%).");
    consistent(gap);
    // Trailing twelve months, a derived fourth quarter, an annualized quarter, growth in a table of quarters.
    const ttm = await talk('Alphabet revenue trailing twelve months', 'formula?');
    expect(ttm.text).toContain('80,539 + 84,742 + 88,268 + 96,469 = **350,018** (amounts in $ million)');
    expect(ttm.text).toContain('Derived: fiscal year 2024 350,018 − nine months ended September 30, 2024 253,549 = **96,469** (amounts in $ million)');
    consistent(ttm);
    const annual = await talk('Alphabet revenue trailing twelve months', 'annualize its latest quarterly EPS', 'show your working');
    expect(annual.text).toContain('Annualized: the quarter times four = 2.14 × 4 = **8.56** ($ per diluted share)');
    const opm = await talk('MSFT op margin ttm', 'show your work');
    expect(opm.text).toContain('Operating margin over the twelve months: operating income / revenue = 122,130 / 270,010 = **45.2%**');
    expect(opm.text).toContain('Revenue, the sum of fiscal Q4 2024, fiscal Q1 2025, fiscal Q2 2025, fiscal Q3 2025: 64,727 + 65,585 + 69,632 + 70,066 = **270,010**');
    const qoq = await talk('Alphabet quarterly revenue 2024', 'qoq growth each quarter?', 'how did you calculate the growth?');
    expect(qoq.text).toContain('Revenue, Q4 2024 against Q3 2024 (quarter over quarter): (96,469 − 88,268) / 88,268 = **+9.3%**');
    consistent(qoq);
    // Nothing computed: said so, no formula made up.
    const filed = await talk('Apple revenue Q3 2024', 'formula?');
    expect(filed.text).toMatch(/^Nothing in that answer was computed/);
    expect(filed.citations).toEqual([]);
  });

  it('own probes: "is that healthy?" of a ratio is a judgement left to the asker, with the ratio; "what\'s driving it?" of a table says the figures show what, not why', async () => {
    const healthy = await talk("Apple's current ratio at the latest quarter", 'is that healthy?');
    expect(healthy.text).toMatch(/^Whether that is good is a judgement I leave to you[^\n]*\n\n- \*\*Apple's current ratio\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*0\.84x\*\*/);
    expect(healthy.text).not.toContain('I do not have a figure called');
    // The ratio is kept past it.
    expect((await talk("Apple's current ratio at the latest quarter", 'is that healthy?', 'what was it a year ago?')).text).toMatch(/^- \*\*Apple's current ratio\*\* at the end of fiscal Q2 2024 \(2024-03-30\): \*\*1\.04x\*\*/);
    expect((await talk('Microsoft operating margin FY2024', 'is that sustainable?')).text).toMatch(/^Whether that is good is a judgement I leave to you/);
    const driving = await talk('Microsoft revenue growth last 3 years', "what's driving it?");
    expect(driving.text).toMatch(/^The figures show what changed, not why: the reasons are in what the filing says in words \(its management's discussion and analysis\), which I do not read\. The figures:\n\n### Microsoft Corp\. \(MSFT\), by fiscal year/);
    consistent(driving);
    expect((await talk('Microsoft revenue FY2024', "what's driving it?")).text).toMatch(/^The figures show what changed, not why/);
  });

  it('own probes: the working of ratios, net debt and a per-share change; "the ones you have" after a company not covered is every company covered', async () => {
    const nd = await talk('Microsoft cash and long-term debt, latest quarter', 'net debt?', 'show your working');
    expect(nd.text).toContain("Microsoft's net debt, at the end of fiscal Q3 2025: long-term debt − cash and cash equivalents = 40,152 − 28,828 = **11,324** (amounts in $ million) [1].");
    consistent(nd);
    const cr = await talk("Apple's current ratio at the latest quarter", 'how did you calculate that?');
    expect(cr.text).toContain("Apple's current ratio, at the end of fiscal Q2 2025: total current assets / total current liabilities = 118,674 / 141,120 = **0.84x**");
    const eps = await talk('Apple EPS FY2024 vs FY2023', 'how did you get the change?');
    expect(eps.text).toContain('Diluted EPS, fiscal year 2024 against fiscal year 2023 (year over year): (6.08 − 6.13) / 6.13 = **-0.8%** [1][2].');
    const ones = await talk('which companies do you have?', 'what about tesla?', 'ok compare the ones you have on net margin');
    expect(ones.text).toContain('Net margin, highest to lowest: Microsoft 36.0%');
    expect(ones.text).not.toContain('Tesla');
    consistent(ones);
  });

  it('own probes: "is there a Q1 2025 10-Q?" when there is none says so, with the latest there is, cited', async () => {
    const none = await talk('Alphabet operating income Q1 2025', 'is there a Q1 2025 10-Q?');
    expect(none.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: no 10-Q for Q1 2025 is in this snapshot; its latest 10-Q covers Q3 2024 \(quarter ended 2024-09-30\), filed 2024-10-30 \[1\]\./);
    consistent(none);
    expect((await talk('msft revenue', 'are there any 10-Ks for fiscal 2025?')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: no 10-K for fiscal year 2025 is in this snapshot; its latest 10-K covers fiscal year 2024/);
    // One that is there: the filing.
    expect((await talk('is there a Q3 2024 10-Q for apple?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its 10-Q for fiscal Q3 2024, filed 2024-08-02/);
  });

  it('after a table of quarters, through the router: a breakdown by product keeps the table; its working is each growth rate from the columns shown', async () => {
    const turns = ['Apple revenue last 4 quarters', 'break it down by product'];
    const table = await talkOf('svc-agent', ...turns);
    expect(table.text).toMatch(/^Breakdowns by segment, product or region are not in the XBRL company facts[^\n]*\n\n### Apple Inc\. \(AAPL\), by fiscal quarter/);
    expect(table.text).toContain('| **Revenue** ($ million) | 85,777 | 94,930† | 124,300 | 95,359 |');
    consistent(table);
    const working = await talkOf('svc-agent', ...turns, 'ok, show your working for the growth');
    expect(working.text).toContain('Revenue, Q2 FY2025 against Q1 FY2025 (quarter over quarter): (95,359 − 124,300) / 124,300 = **-23.3%** (amounts in $ million)');
    consistent(working);
  });
});
