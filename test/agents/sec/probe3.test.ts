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
});
