import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeHttpServer } from '../../helpers/fake-http.js';
import { startFakeSec, type FakeSec } from '../../helpers/fake-sec.js';
import { pdfPageTexts } from '../../helpers/pdf-text.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post, readSse } from '../../helpers/sse.js';
import { SEC_ENV, TEST_WORLD } from './world.js';

const MODEL = 'svc-sec-agent';
let fake: FakeSec;
let svc: TestService;
let apiKey: string;

beforeAll(async () => {
  fake = await startFakeSec(TEST_WORLD);
  svc = await startService({ env: SEC_ENV(fake.url) });
  ({ apiKey } = await svc.account());
});
afterAll(async () => {
  await svc.close();
  await fake.close();
});

interface Answer {
  text: string;
  citations: { order: number; name: string; url: string }[];
}

async function ask(...turns: string[]): Promise<Answer> {
  const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: MODEL, messages: turns.map((content) => ({ role: 'user', content })) });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { text: body.choices[0].message.content, citations: body.choices[0].citations };
}

/** Every [n] in the text has a citation n, and every citation is used. */
function expectConsistentCitations(a: Answer): void {
  const markers = [...new Set([...a.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  expect(markers).toEqual(a.citations.map((c) => c.order).sort((x, y) => x - y));
  expect(a.citations.map((c) => c.order)).toEqual(a.citations.map((_, i) => i + 1));
}

const pageOf = (url: string) => Number(new URL(url).hash.replace('#page=', ''));

/** The PDF behind a citation, fetched without an API key through its signed link. */
async function citedPage(url: string): Promise<{ text: string; pages: number; res: Response }> {
  const res = await fetch(url.split('#')[0]!);
  expect(res.status).toBe(200);
  const texts = await pdfPageTexts(new Uint8Array(await res.arrayBuffer()));
  return { text: texts[pageOf(url) - 1] ?? '', pages: texts.length, res };
}

describe('svc-sec-agent answers from XBRL facts and cites the filing page', () => {
  it('is listed by GET /v1/models with a description', async () => {
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const model = (await client.models.retrieve(MODEL)) as any;
    expect(model.description).toMatch(/SEC filings/);
  });

  it.each([
    // [question, figure in the answer, period words, form, page, printed figure on that page]
    ["What was Apple's revenue in Q3 2024?", '$85,777 million', 'fiscal Q3 2024 (quarter ended 2024-06-29)', '10-Q', 3, '85,777'],
    ['AAPL diluted EPS fiscal Q1 2024', '$2.18 per diluted share', 'fiscal Q1 2024 (quarter ended 2023-12-30)', '10-Q', 3, '2.18'],
    ["Apple's total assets as of June 29, 2024", '$331,612 million', 'total assets at the end of fiscal Q3 2024 (2024-06-29) were', '10-Q', 4, '331,612'],
    ['Apple shares outstanding at the end of fiscal Q2 2024', '15,337,686 thousand shares', 'shares outstanding at the end of fiscal Q2 2024 (2024-03-30) were', '10-Q', 4, '15,337,686'],
    ['Apple operating cash flow fiscal year 2024', '$118,254 million', 'fiscal year 2024 (year ended 2024-09-28)', '10-K', 5, '118,254'],
    ['Microsoft R&D expense Q3 FY2024', '$7,653 million', 'fiscal Q3 2024 (quarter ended 2024-03-31)', '10-Q', 3, '7,653'],
    ['MSFT long-term debt for the quarter ended December 31, 2023', '$44,937 million', 'long-term debt at the end of fiscal Q2 2024 (2023-12-31) was', '10-Q', 4, '44,937'],
    ['Alphabet net income Q2 2024', '$23,619 million', 'Q2 2024 (quarter ended 2024-06-30)', '10-Q', 3, '23,619'],
    ['GOOGL cash and cash equivalents 2023', '$24,048 million', 'cash and cash equivalents at the end of fiscal year 2023 (2023-12-31) were', '10-K', 4, '24,048'],
  ])('%s', async (question, figure, period, form, page, printed) => {
    const a = await ask(question);
    expect(a.text).toContain(figure);
    expect(a.text).toContain(period);
    expect(a.text).toMatch(new RegExp(`Form ${form} filed \\d{4}-\\d{2}-\\d{2}`));
    expectConsistentCitations(a);
    expect(a.citations).toHaveLength(1);
    const c = a.citations[0]!;
    expect(c.name).toMatch(new RegExp(`Form ${form}, (quarter|fiscal year) ended \\d{4}-\\d{2}-\\d{2}, page ${page}$`));
    expect(pageOf(c.url)).toBe(page);
    const pdf = await citedPage(c.url);
    expect(pdf.text).toContain(printed);
    expect(pdf.pages).toBe(6);
  });

  it('asked which companies it covers, live: every XBRL filer with a ticker, counted from the tickers file', async () => {
    const a = await ask('Which companies do you cover?');
    expect(a.text).toMatch(/^I answer for any company that files XBRL financial data with the SEC: \d+ filers with a ticker, found by name or ticker/);
    expect(a.citations).toEqual([]);
  });

  it('names citations like "Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3", with absolute signed links', async () => {
    const a = await ask('Apple revenue for the quarter ended June 29, 2024');
    const c = a.citations[0]!;
    expect(c.name).toBe('Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3');
    expect(c.url).toMatch(new RegExp(`^${svc.url}/v1/documents/sec-320193-000032019324000081\\.pdf\\?expires=\\d+&signature=[0-9a-f]{64}#page=3$`));
  });

  it('a fiscal year still under way is not said to have ended: it names how far the filings go', async () => {
    const a = await ask('Apple revenue fiscal 2025');
    expect(a.text).toMatch(/Apple Inc\. \(AAPL\) has not reported fiscal year 2025 yet: its filings go up to the quarter ended \d{4}-\d\d-\d\d, and that year ends about 2025-09-\d\d\./);
    expect(a.text).not.toMatch(/year ended 2025-09/);
  });

  it('derives Q4 as the fiscal year minus nine months, says so, and cites both filings', async () => {
    const a = await ask('Apple revenue Q4 2024');
    expect(a.text).toContain('**$94,930 million**');
    expect(a.text).toContain('fiscal Q4 2024 (quarter ended 2024-09-28)');
    expect(a.text).toMatch(/Derived as fiscal year 2024 \$391,035 million \(Form 10-K filed 2024-11-01\) \[1\] minus nine months ended June 29, 2024 \$296,105 million \(Form 10-Q filed 2024-08-02\) \[2\]/);
    expectConsistentCitations(a);
    expect(a.citations[0]!.name).toMatch(/Form 10-K, fiscal year ended 2024-09-28, page 3/);
    expect(a.citations[1]!.name).toMatch(/Form 10-Q, quarter ended 2024-06-29, page 3/);
    expect((await citedPage(a.citations[0]!.url)).text).toContain('391,035');
    expect((await citedPage(a.citations[1]!.url)).text).toContain('296,105');
  });

  it('says a Q4 per-share figure derived by subtraction is approximate', async () => {
    const a = await ask('Apple EPS Q4 2024');
    expect(a.text).toContain('$0.97 per diluted share');
    expect(a.text).toMatch(/approximate/);
  });

  it('derives the quarter of a year-to-date cash-flow figure from two 10-Qs', async () => {
    const a = await ask('Apple capex Q2 2024');
    expect(a.text).toContain('$1,996 million');
    expect(a.text).toMatch(/six months ended March 30, 2024 \$4,388 million \(Form 10-Q filed 2024-05-03\) \[1\] minus three months ended December 30, 2023 \$2,392 million \(Form 10-Q filed 2024-02-02\) \[2\]/);
    expect((await citedPage(a.citations[0]!.url)).text).toContain('4,388');
  });

  it('answers a June fiscal year in its own terms, stating the period end', async () => {
    const a = await ask('What was Microsoft revenue in fiscal Q1 2025?');
    expect(a.text).toContain('fiscal Q1 2025 (quarter ended 2024-09-30)');
    expect(a.text).toContain('$65,585 million');
    expect(a.text).toMatch(/Microsoft's fiscal year ends on June 30: fiscal Q1 2025 ran from 2024-07-01 to 2024-09-30/);
  });

  it('derives SG&A from sales and marketing plus general and administrative, with the formula', async () => {
    const a = await ask('MSFT SG&A fiscal Q3 2024');
    expect(a.text).toContain('$8,119 million');
    expect(a.text).toMatch(/sales and marketing \$6,207 million \(Form 10-Q filed 2024-04-25\) \[1\] plus general and administrative \$1,912 million \(Form 10-Q filed 2024-04-25\) \[1\]/);
    expect(a.citations).toHaveLength(1);
  });

  it('gives year-over-year change with both periods cited', async () => {
    const a = await ask('Apple revenue Q3 2024 year over year');
    expect(a.text).toContain('$85,777 million');
    expect(a.text).toMatch(/Year over year: fiscal Q3 2023 \(quarter ended 2023-07-01\) was \$81,797 million \(Form 10-Q filed 2023-08-04\) \[2\]; change \+\$3,980 million \(\+4\.9%\)/);
    expectConsistentCitations(a);
    expect((await citedPage(a.citations[1]!.url)).text).toContain('81,797');
  });

  it('reads "Q3 2024 vs Q3 2023" as a year-over-year comparison', async () => {
    const a = await ask('Apple revenue Q3 2023 vs Q3 2024');
    expect(a.text).toContain('revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was **$85,777 million**');
    expect(a.text).toMatch(/Year over year: fiscal Q3 2023 \(quarter ended 2023-07-01\) was \$81,797 million \(Form 10-Q filed 2023-08-04\) \[2\]; change \+\$3,980 million \(\+4\.9%\)/);
  });

  it('gives quarter-over-quarter change', async () => {
    const a = await ask('Alphabet operating income Q3 2024 qoq');
    expect(a.text).toMatch(/Quarter over quarter: Q2 2024 \(quarter ended 2024-06-30\) was \$27,425 million \(Form 10-Q filed 2024-07-24\) \[2\]; change \+\$1,096 million \(\+4\.0%\)/);
  });

  it('puts two companies side by side, each in its own fiscal terms, with the calendar difference said', async () => {
    const a = await ask('Compare Apple and Microsoft net income for Q3 2024');
    expect(a.text).toMatch(/\| Apple Inc\. \(AAPL\) \| Net income \| fiscal Q3 2024 \(quarter ended 2024-06-29\) \| \$21,448 million \[1\] \| Form 10-Q filed 2024-08-02 \|/);
    expect(a.text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| fiscal Q3 2024 \(quarter ended 2024-03-31\) \| \$21,939 million \[2\] \| Form 10-Q filed 2024-04-25 \|/);
    expect(a.text).toMatch(/Fiscal calendars differ: Apple's fiscal Q3 2024 ended 2024-06-29; Microsoft's quarter closest in time is fiscal Q4 2024 \(quarter ended 2024-06-30\)/);
    expectConsistentCitations(a);
  });

  it('quotes a margin asked for as a share of revenue of the same period, its revenue cited', async () => {
    const a = await ask('Apple gross margin Q3 2024');
    // The margin asked for leads; the gross profit is its numerator.
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: gross margin for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*46\.3%\*\*: gross profit of \$39,678 million \[1\] over revenue of \$85,777 million \[1\]\./);
    // 39,678 / 85,777
    expect(a.text).toContain('- Gross margin: **46.3%** of revenue (fiscal Q3 2024 revenue $85,777 million, Form 10-Q filed 2024-08-02 [1]).');
    expectConsistentCitations(a);
    const b = await ask('Alphabet operating margin Q3 2024');
    expect(b.text).toContain('- Operating margin: **32.3%** of revenue (Q3 2024 revenue $88,268 million, Form 10-Q filed 2024-10-30 [1]).');
    const side = await ask('Compare Apple and Microsoft net margin for Q3 2024');
    expect(side.text).toMatch(/- Apple Inc\. \(AAPL\) net margin: \*\*25\.0%\*\* of revenue \(fiscal Q3 2024 revenue \$85,777 million, Form 10-Q filed 2024-08-02 \[1\]\)\./);
    expect(side.text).toMatch(/- Microsoft Corp\. \(MSFT\) net margin: \*\*\d+\.\d%\*\* of revenue \(fiscal Q3 2024 revenue \$61,858 million/);
    expectConsistentCitations(side);
    // Any amount over a period as a share of revenue: 31,370 / 391,035.
    const rd = await ask("What was Apple's R&D spending as a share of revenue in FY2024?");
    expect(rd.text).toContain('R&D expense as a share of revenue for fiscal year 2024 (year ended 2024-09-28) was **8.0%**: R&D expense of $31,370 million');
    expect(rd.text).toContain('- R&D expense: **8.0%** of revenue (fiscal year 2024 revenue $391,035 million, Form 10-K filed 2024-11-01 [1]).');
    // Without the word, no margin line.
    expect((await ask('Apple gross profit Q3 2024')).text).not.toContain('margin:');
  });

  it('gives the compared period\'s margin too when a margin is compared, and the change in points', async () => {
    const amount = async (q: string) => Number(/was \*\*\$([\d,]+) million\*\*/.exec((await ask(q)).text)![1]!.replace(/,/g, ''));
    const [gp, rev] = await Promise.all([amount('Apple gross profit Q2 2024'), amount('Apple revenue Q2 2024')]);
    const prior = ((100 * gp) / rev).toFixed(1);
    const points = (46.3 - Number(prior)).toFixed(1);
    const a = await ask('Apple gross margin Q3 2024 vs Q2 2024');
    const line = a.text.split('\n').find((l) => l.startsWith('- Gross margin:'))!;
    expect(line).toBe(
      `- Gross margin: **46.3%** of revenue (fiscal Q3 2024 revenue $85,777 million, Form 10-Q filed 2024-08-02 [1]); fiscal Q2 2024: ${prior}% (revenue $${rev.toLocaleString('en-US')} million, Form 10-Q filed 2024-05-03 [2]); ${Number(points) > 0 ? '+' : '-'}${Math.abs(Number(points)).toFixed(1)} percentage points.`,
    );
    expect(a.text).toContain('- Quarter over quarter: gross profit for fiscal Q2 2024');
    expectConsistentCitations(a);
    // Year over year, by the router's words.
    const yoy = await ask("What was Microsoft's operating margin in Q3 2024 and how does it compare to a year ago?");
    expect(yoy.text).toMatch(/- Operating margin: \*\*\d+\.\d%\*\* of revenue \(fiscal Q3 2024 revenue [^)]*\); fiscal Q3 2023: \d+\.\d% \(revenue \$[\d,]+ million, Form 10-Q filed [\d-]+ \[\d\]\); (?:[+-]\d+\.\d percentage points|unchanged)\./);
    expectConsistentCitations(yoy);
  });

  it('sums the four quarters for trailing twelve months, each cited, a derived Q4 marked', async () => {
    const a = await ask('Apple revenue TTM Q3 2024');
    // Q4 FY2023 (derived) + Q1–Q3 FY2024: asked for separately, the same figures.
    const quarters = await Promise.all(['Q4 2023', 'Q1 2024', 'Q2 2024', 'Q3 2024'].map((q) => ask(`Apple revenue ${q}`)));
    const millions = quarters.map((q) => Number(/was \*\*\$([\d,]+) million\*\*/.exec(q.text)![1]!.replace(/,/g, '')));
    const total = millions.reduce((x, y) => x + y, 0).toLocaleString('en-US');
    // Asked for the twelve months, they are the headline; their last quarter follows.
    expect(a.text).toContain(`**Apple Inc. (AAPL)**: revenue, trailing twelve months (fiscal Q4 2023 to fiscal Q3 2024, ended 2024-06-29): **$${total} million**, the sum of fiscal Q4 2023 $`);
    expect(a.text).toContain('- The last of those quarters: revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was **$85,777 million**');
    expect(a.text).toMatch(/fiscal Q4 2023 \$[\d,]+ million \(derived\) \[\d+\]\[\d+\]/);
    expectConsistentCitations(a);
  });

  it('answers "quarterly … in <year>" with the quarters of that fiscal year, as the financials table, not the year\'s total', async () => {
    const a = await ask('Apple quarterly revenue in 2024');
    expect(a.text).not.toContain('391,035');
    expect(a.text).toContain('### Apple Inc. (AAPL), by fiscal quarter');
    expect(a.text).toMatch(/\| \| Q1 FY2024 \[1\] \| Q2 FY2024 \[2\] \| Q3 FY2024 \[3\] \| Q4 FY2024 \[4\]\[3\] \|/);
    expect(a.text).toMatch(/\| \*\*Revenue\*\* \(\$ million\) \| 119,575 \| 90,753 \| 85,777 \| 94,930† \|/);
    expectConsistentCitations(a);
    expect(a.citations[3]!.name).toMatch(/Form 10-K, fiscal year ended 2024-09-28, page 3/);
    // A follow-up naming another figure keeps the quarters.
    expect((await ask('Apple quarterly revenue in 2024', 'and net income?')).text).toMatch(/\| \*\*Net income\*\* \(\$ million\) \| 33,916 \| 23,636 \| 21,448 \| 14,736† \|/);
  });

  it('answers "the last 2 quarters", "the past 3 years" and more quarters than a year\'s with each of them, as the financials table', async () => {
    const last = await ask('Apple revenue last two quarters');
    expect(last.text).toMatch(/\| \| Q1 FY2025 \[1\] \| Q2 FY2025 \[2\] \|/);
    expect(last.text).toMatch(/\| \*\*Revenue\*\* \(\$ million\) \| 124,300 \| 95,359 \|/);
    expectConsistentCitations(last);
    expect((await ask('Apple net income past 3 years')).text).toMatch(/\| \| FY2022 \[1\] \| FY2023 \[1\] \| FY2024 \[2\] \|/);
    const range = await ask('Apple revenue Q3 2022 through Q2 2024');
    expect(range.text).toMatch(/\| \| Q3 FY2022 \[\d\] \| Q4 FY2022 [[\]\d]+ \| Q1 FY2023 \[\d\] \| Q2 FY2023 \[\d\] \| Q3 FY2023 \[\d\] \| Q4 FY2023 [[\]\d]+ \| Q1 FY2024 \[\d\] \| Q2 FY2024 \[\d\] \|\n/);
    expectConsistentCitations(range);
    // Three or more periods named one by one, and a range of years: from the first to the last.
    expect((await ask('Apple revenue FY2022, FY2023 and FY2024')).text).toMatch(/\| \| FY2022 \[1\] \| FY2023 \[1\] \| FY2024 \[2\] \|\n[^\n]*\n\| \*\*Revenue\*\* \(\$ million\) \| 394,328 \| 383,285 \| 391,035 \|/);
    expect((await ask('Apple revenue Q1 2024, Q2 2024 and Q3 2024')).text).toMatch(/\| \| Q1 FY2024 \[1\] \| Q2 FY2024 \[2\] \| Q3 FY2024 \[3\] \|\n/);
    expect((await ask('Alphabet revenue between 2022 and 2024')).text).toMatch(/\| \| FY2022 \[1\] \| FY2023 \[1\] \| FY2024 \[2\] \|\n/);
    // Trailing four quarters taken together are one figure, not a table.
    expect((await ask('Apple revenue trailing 4 quarters')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue, trailing twelve months/);
  });

  it('sums the four fiscal quarters ending in a calendar year for a June fiscal year, each cited', async () => {
    const a = await ask('Microsoft revenue for calendar 2024');
    expect(a.text).not.toContain('245,122 million**');
    expect(a.text).toContain('revenue for calendar year 2024 was **$261,802 million** (about $261.8 billion) [1][2][3][4], the sum of the four fiscal quarters ending in 2024.');
    expect(a.text).toContain('- Fiscal Q3 2024 (quarter ended 2024-03-31): $61,858 million (Form 10-Q filed 2024-04-25) [1]');
    expect(a.text).toMatch(/- Fiscal Q4 2024 \(quarter ended 2024-06-30\): \$64,727 million, derived as fiscal year 2024 \$245,122 million \(Form 10-K filed 2024-07-30\) \[2\] minus nine months ended March 31, 2024 \$180,395 million/);
    expect(a.text).toContain('- Fiscal Q1 2025 (quarter ended 2024-09-30): $65,585 million (Form 10-Q filed 2024-10-30) [3]');
    expect(a.text).toContain('- Fiscal Q2 2025 (quarter ended 2024-12-31): $69,632 million (Form 10-Q filed 2025-01-29) [4]');
    expect(a.text).toContain("Microsoft's fiscal year ends on June 30, so calendar 2024 is not one of its fiscal years");
    expectConsistentCitations(a);
    expect(a.citations).toHaveLength(4);
  });

  it('a calendar year is the fiscal year of a calendar-year filer; a balance is the one at its last quarter end', async () => {
    expect((await ask('Alphabet revenue calendar year 2024')).text).toContain('revenue for fiscal year 2024 (year ended 2024-12-31) was **$350,018 million**');
    const assets = await ask('Microsoft total assets calendar 2024');
    expect(assets.text).toContain('total assets at the end of fiscal Q2 2025 (2024-12-31) were **$533,898 million**');
    expect(assets.text).toContain("(Calendar year 2024 ends with the company's fiscal Q2 2025: the balance at 2024-12-31.)");
  });

  it('a calendar year with a quarter missing says so instead of a partial sum', async () => {
    const a = await ask('Microsoft revenue calendar 2025');
    expect(a.citations).toEqual([]);
    expect(a.text).not.toMatch(/\$\d/);
    expect(a.text).toMatch(/^Microsoft's revenue for calendar year 2025 cannot be given: it is the sum of the four fiscal quarters ending in 2025, and fiscal Q4 2025 \(quarter ended 2025-06-30\) has no revenue in the filings/);
  });

  it('prefers an amendment that restated a figure, and says what was first reported', async () => {
    const a = await ask('AMND revenue Q1 2024');
    expect(a.text).toContain('$128 million');
    expect(a.text).toMatch(/Form 10-Q\/A filed 2024-06-15/);
    expect(a.text).toMatch(/First reported as \$130 million in Form 10-Q filed 2024-05-01/);
  });

  it('gives each company the figures and period asked of it, not every figure to every company', async () => {
    const a = await ask('Apple revenue in Q3 2024 and Microsoft net income in Q3 2025');
    expect(a.text).toMatch(/\| Apple Inc\. \(AAPL\) \| Revenue \| fiscal Q3 2024 \(quarter ended 2024-06-29\) \| \$85,777 million/);
    expect(a.text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| fiscal Q3 2025 \(quarter ended 2025-03-31\) \|/);
    expect(a.text).not.toMatch(/Apple Inc\. \(AAPL\) \| Net income|Microsoft Corp\. \(MSFT\) \| Revenue/);
    expectConsistentCitations(a);
  });

  it('gives each company its figure when the figure is named before the company', async () => {
    const a = await ask('revenue of Apple and net income of Microsoft for Q3 2024');
    expect(a.text).toMatch(/\| Apple Inc\. \(AAPL\) \| Revenue \| fiscal Q3 2024 \(quarter ended 2024-06-29\) \| \$85,777 million/);
    expect(a.text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| fiscal Q3 2024 \(quarter ended 2024-03-31\) \|/);
    expect(a.text).not.toMatch(/Apple Inc\. \(AAPL\) \| Net income|Microsoft Corp\. \(MSFT\) \| Revenue/);
    expectConsistentCitations(a);
    const three = await ask('net income for Apple and revenue and net income for Microsoft in Q3 2024');
    expect(three.text).toMatch(/Microsoft Corp\. \(MSFT\) \| Revenue/);
    expect(three.text).toMatch(/Microsoft Corp\. \(MSFT\) \| Net income/);
    expect(three.text).not.toMatch(/Apple Inc\. \(AAPL\) \| Revenue/);
  });

  it('marks a restated figure in a table of periods, with what was first reported', async () => {
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: 'svc-financials-agent', messages: [{ role: 'user', content: 'AMND revenue for the quarters of 2024' }] });
    const text = ((await res.json()) as any).choices[0].message.content as string;
    expect(text).toContain('| **Revenue** ($ million) | 128‡ | 140 | 150 | 170† |');
    expect(text).toContain('‡ Restated after it was first reported; the latest figure is shown, and growth is measured on it: revenue, Q1 2024: 130 as first reported (Form 10-Q filed 2024-05-01).');
  });

  it('still cites a filing EDGAR cannot serve, saying the page was not located', async () => {
    const a = await ask('AMND net income fiscal year 2024');
    expect(a.text).toContain('$60 million');
    expect(a.citations[0]!.name).toMatch(/Form 10-K, fiscal year ended 2024-12-31 \(document not available here; page not located\)/);
    expect(a.citations[0]!.url).toBe(`${fake.url}/Archives/edgar/data/1999001/000199900125000005/amnd-20241231.htm`);
  });
});

describe('questions it cannot answer get a clear answer, never an invented number', () => {
  const noFigures = (a: Answer) => {
    expect(a.citations).toEqual([]);
    expect(a.text).not.toMatch(/\$\d/);
  };

  it('a question about people or words of a filing says it is not answered from figures before giving the key figures', async () => {
    expect((await ask("What are Apple's main risk factors?")).text).toMatch(/^I do not have a figure called "main risk factors": it is what a filing says in words/);
    for (const q of ["Who is Apple's CEO?", 'What did Microsoft say about AI in its latest 10-K?']) {
      const a = await ask(q);
      expect(a.text, q).toMatch(/^I answer from the figures of companies' financial statements in their SEC filings \(XBRL data\), not from what a filing says in words or who runs a company, so I cannot answer that \(ask "list its filings" for the filings themselves\); the key figures are below/);
    }
    // The filings themselves are listed.
    expect((await ask("List Microsoft's filings")).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: \d+ 10-K and 10-Q filings? /);
    expect((await ask('Tell me about Microsoft')).text).toMatch(/^Key figures from the latest filings:/);
    expect((await ask('Apple 10-K 2023')).text).toMatch(/^Key figures:/);
  });

  it('"which one grew faster?" after a comparison compares their growth; the comparative word is no company', async () => {
    for (const q of ['which one grew faster?', 'which grew faster?']) {
      const a = await ask('Compare Apple and Microsoft net income FY2024', q);
      expect(a.text, q).not.toContain('company called');
      expect(a.text, q).toMatch(/net income growth for fiscal year 2024/);
    }
  });

  it('"combined" asks for the companies\' sum, given before how they differ; per-share figures are not added up', async () => {
    const a = await ask('What was Apple and Microsoft combined revenue in fiscal 2024?');
    const [apple, microsoft] = [/\| Apple Inc\. \(AAPL\) \| Revenue \| [^|]+\| \$([\d,]+) million/.exec(a.text)![1]!, /\| Microsoft Corp\. \(MSFT\) \| Revenue \| [^|]+\| \$([\d,]+) million/.exec(a.text)![1]!].map((x) => Number(x.replace(/,/g, '')));
    expect(a.text).toContain(`- Revenue of Apple and Microsoft together, each for its period in the table: $${(apple + microsoft).toLocaleString('en-US')} million`);
    expect((await ask('Apple and Microsoft combined EPS in fiscal 2024')).text).not.toContain('together');
  });

  it('a quarter that does not exist is said so, not answered with the fiscal year', async () => {
    const a = await ask('Apple revenue Q5 2024');
    // Said first, before the latest quarter's figure given in its place.
    expect(a.text).toMatch(/^There is no quarter "Q5 2024": a fiscal year has four, Q1 to Q4\. Ask for one of them, or for the fiscal year; without one, the latest period is given\.\n\n\*\*Apple Inc\. \(AAPL\)\*\*: revenue/);
    expect(a.text).not.toMatch(/fiscal year 2024/);
  });

  it('an unknown company', async () => {
    const a = await ask('What was Foobarco revenue in Q3 2024?');
    noFigures(a);
    expect(a.text).toMatch(/could not find a company called "Foobarco"/);
    // Named in the possessive, it is still called by its name.
    expect((await ask("What was Foobarco's revenue in Q3 2024?")).text).toMatch(/could not find a company called "Foobarco"/);
    expect((await ask('What was Foobarcos’ revenue in Q3 2024?')).text).toMatch(/could not find a company called "Foobarcos"/);
    // A citation marker pasted into the name is not a word of it.
    const pasted = await ask('What was Foo[1]barco revenue in Q3 2024?');
    expect(pasted.text).toMatch(/could not find a company called "Foobarco"/);
    expect(pasted.text.match(/could not find/g)).toHaveLength(1);
    // A ticker that is none: not told to try a ticker.
    const ticker = (await ask('What was ZZZQ revenue in Q3 2024?')).text;
    expect(ticker).toMatch(/could not find a company with the ticker "ZZZQ" among SEC filers/);
    expect(ticker).not.toMatch(/Try its ticker/);
    // Listed beside a company found, an unknown one is still said.
    expect((await ask('Compare Apple and Foobarco revenue in Q3 2024')).text).toMatch(/could not find a company called "Foobarco"/);
  });

  it("a person's or a publication's name beside the company asked about is not taken for a company; a long paste keeps the question at its end", async () => {
    for (const q of ['Quick question from Sarah: what was Apple revenue in Q3 2024?', 'For my Bloomberg notes, what was Apple revenue in Q3 2024?']) {
      const a = await ask(q);
      expect(a.text, q).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024/);
      expect(a.text, q).not.toMatch(/could not find/);
    }
    const long = await ask(`Please tell me ${'very '.repeat(400)}much: what was Apple revenue in Q3 2024?`);
    expect(long.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024/);
    expect(long.text).not.toMatch(/could not find/);
  });

  it('an ambiguous name lists the candidates', async () => {
    const a = await ask('Johnson revenue last quarter');
    noFigures(a);
    expect(a.text).toMatch(/"Johnson" matches several SEC filers: Johnson & Johnson \(JNJ\); Johnson Controls International plc \(JCI\); Johnson Outdoors Inc\. \(JOUT\)/);
  });

  it('a period the filings do not cover says what is available', async () => {
    const a = await ask('Apple revenue Q3 2019');
    expect(a.text).toMatch(/Apple's filings have no revenue for fiscal Q3 2019\. Available for Apple: revenue for quarters from fiscal Q1 2022 \(ended 2021-12-25\) to fiscal Q2 2025 \(ended 2025-03-29\), and fiscal years 2022 to 2024\./);
    // What there is instead: the nearest quarter's figure, cited, never in the place of the one asked.
    expect(a.text).toMatch(/The nearest period with a figure: Apple's revenue for fiscal Q1 2022 \(quarter ended 2021-12-25\) was \*\*\$123,945 million\*\* \[1\] \(Form 10-Q filed \d{4}-\d\d-\d\d\)\./);
    expect(a.citations).toHaveLength(1);
  });

  it('a metric the company does not report lists what it does', async () => {
    const a = await ask('Alphabet shares outstanding');
    expect(a.citations).toEqual([]);
    expect(a.text).toMatch(/Alphabet Inc\. \(GOOGL\) does not report shares outstanding in its XBRL financial data/);
    expect(a.text).toMatch(/Figures I can give for Alphabet: revenue, /);
  });

  it('a company without XBRL data', async () => {
    const a = await ask('NOXB net income');
    noFigures(a);
    expect(a.text).toMatch(/Paperwork Holdings Inc\. \(NOXB\) has no XBRL financial data/);
  });

  it('no company at all gets the list of what it can answer', async () => {
    const a = await ask('hello there');
    noFigures(a);
    expect(a.text).toMatch(/Which company do you mean\?/);
  });

  it('answers for at most six companies at once, naming the ones left out', async () => {
    const a = await ask('revenue of AAPL, MSFT, GOOGL, AMND, NOXB, NVDA, AMZN and META in Q3 2024');
    expect(a.text).toMatch(/I answer for up to 6 companies at a time, so I left out Amazon Com Inc\. \(AMZN\); Meta Platforms, Inc\. \(META\)/);
    expect(a.text).toContain('$85,777 million');
  });

  it('a figure it does not know is named plainly, with the figures it can give, instead of key figures', async () => {
    const a = await ask('Apple EBITDA Q3 2024');
    noFigures(a);
    expect(a.text).not.toMatch(/Key figures/);
    expect(a.text).not.toMatch(/could not find a company/);
    expect(a.text).toMatch(/I do not have a figure called "EBITDA": EBITDA is not a GAAP figure/);
    expect(a.text).toMatch(/Figures I can give for Apple: revenue, cost of revenue, /);
    const goodwill = await ask('Apple goodwill 2024');
    noFigures(goodwill);
    expect(goodwill.text).toMatch(/I do not have a figure called "goodwill"/);
    // Market data is said to be; a line of the statements whose name holds "market" is not.
    expect((await ask('Apple market cap Q3 2024')).text).toMatch(/^A P\/E or a market capitalisation needs a share price, which SEC filings do not hold/);
    expect((await ask('Apple enterprise value')).text).toMatch(/I do not have a figure called "enterprise value": it is market data, not a figure in SEC filings\./);
    expect((await ask('whats aapl trading at rn')).text).toMatch(/^I do not have a figure called "trading at": it is market data, not a figure in SEC filings\./);
    expect((await ask('what did apple guide for next qtr')).text).toMatch(/^I do not have a figure called "guide": it is what a filing says in words/);
    expect((await ask('any news on the DOJ case vs google')).text).toMatch(/^I do not have a figure called "news": news and events are not figures in SEC filings/);
    // Days of inventory are computed now (inventory turnover, said as days held too).
    expect((await ask('apple days inventory outstanding')).text).toMatch(/^- \*\*Apple's inventory turnover\*\*[^\n]*That is about \*\*[\d.]+ days\*\* of inventory held/);
    const securities = await ask('Apple marketable securities Q3 2024');
    expect(securities.text).toMatch(/I do not have a figure called "marketable securities": it is not among the figures I read/);
  });

  it('operating expenses of a filer that lists its expenses without a total are derived, said so, and plural', async () => {
    const a = await ask('Microsoft operating expenses fiscal 2024');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: operating expenses for fiscal year 2024 \(year ended 2024-06-30\) were \*\*\$61,575 million\*\*/);
    expect(a.text).toContain('Derived as revenue $245,122 million (Form 10-K filed 2024-07-30) [1] minus cost of revenue $74,114 million (Form 10-K filed 2024-07-30) [1] minus operating income $109,433 million');
    // Reported as such, the reported total.
    expect((await ask('Apple operating expenses fiscal 2024')).text).toContain('XBRL concept us-gaap:OperatingExpenses');
  });

  it('inventory, dividends per share and buybacks are figures: answered, or said not to be reported, never swapped for key figures', async () => {
    for (const question of ['Alphabet inventory at the end of 2024', 'Apple dividends per share 2024', 'Apple buybacks 2024']) {
      const a = await ask(question);
      noFigures(a);
      expect(a.text, question).not.toMatch(/Key figures/);
      expect(a.text, question).toMatch(/(?:Apple Inc\. \(AAPL\)|Alphabet Inc\. \(GOOGL\)) does not report (inventory|dividends declared per share|share repurchases) in its XBRL financial data/);
    }
    expect((await ask('Apple inventory at June 29, 2024')).text).toMatch(/inventory at the end of fiscal Q3 2024 \(2024-06-29\) was \*\*\$6,165 million\*\*.*\n\n- Source: .*us-gaap:InventoryNet/);
    expect((await ask('AMND inventory at September 30, 2024')).text).toMatch(/inventory at the end of Q3 2024 \(2024-09-30\) was \*\*\$45 million\*\*.*\n\n- Source: .*us-gaap:InventoryNet/);
    expect((await ask('AMND dividends per share 2024')).text).toMatch(/dividends declared per share for fiscal year 2024 \(year ended 2024-12-31\) were \*\*\$1\.04 per share\*\*[^]*us-gaap:CommonStockDividendsPerShareDeclared/);
    expect((await ask('AMND buybacks Q2 2024')).text).toMatch(/share repurchases for Q2 2024 \(quarter ended 2024-06-30\) were \*\*\$7 million\*\*[^]*six months ended June 30, 2024 \$13 million/);
  });

  it('a question about the company in general still gets the key figures', async () => {
    expect((await ask('Apple financials')).text).toMatch(/^Key figures from the latest filings:/);
  });

  it('a figure name with a typo is still the figure, not part of a company name', async () => {
    const a = await ask('Aple revnue Q3 2024');
    expect(a.text).not.toMatch(/could not find a company/);
    expect(a.text).toMatch(/^\(Taking "Aple" to mean Apple Inc\. \(AAPL\)\.\)/);
    expect(a.text).toContain('revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was **$85,777 million**');
  });

  it('a known company next to an unknown one answers the one and names the other', async () => {
    const a = await ask('Revenue of Apple and Foobarco in Q3 2024');
    expect(a.text).toContain('$85,777 million');
    expect(a.text).toMatch(/could not find a company called "Foobarco"/);
    // Named in the possessive, it is still called by its name.
    expect((await ask("What was Foobarco's revenue in Q3 2024?")).text).toMatch(/could not find a company called "Foobarco"/);
    expect((await ask('What was Foobarcos’ revenue in Q3 2024?')).text).toMatch(/could not find a company called "Foobarcos"/);
    // A citation marker pasted into the name is not a word of it.
    const pasted = await ask('What was Foo[1]barco revenue in Q3 2024?');
    expect(pasted.text).toMatch(/could not find a company called "Foobarco"/);
    expect(pasted.text.match(/could not find/g)).toHaveLength(1);
    // A ticker that is none: not told to try a ticker.
    const ticker = (await ask('What was ZZZQ revenue in Q3 2024?')).text;
    expect(ticker).toMatch(/could not find a company with the ticker "ZZZQ" among SEC filers/);
    expect(ticker).not.toMatch(/Try its ticker/);
    // Listed beside a company found, an unknown one is still said.
    expect((await ask('Compare Apple and Foobarco revenue in Q3 2024')).text).toMatch(/could not find a company called "Foobarco"/);
  });

  it("a person's or a publication's name beside the company asked about is not taken for a company; a long paste keeps the question at its end", async () => {
    for (const q of ['Quick question from Sarah: what was Apple revenue in Q3 2024?', 'For my Bloomberg notes, what was Apple revenue in Q3 2024?']) {
      const a = await ask(q);
      expect(a.text, q).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024/);
      expect(a.text, q).not.toMatch(/could not find/);
    }
    const long = await ask(`Please tell me ${'very '.repeat(400)}much: what was Apple revenue in Q3 2024?`);
    expect(long.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal Q3 2024/);
    expect(long.text).not.toMatch(/could not find/);
  });
});

describe('ratios computed from the filed figures, each figure cited', () => {
  it('return on equity is net income over average equity, the balances it averages cited, in reading order', async () => {
    const a = await ask("What is Apple's return on equity?");
    expect(a.text).toMatch(
      /^- \*\*Apple's return on equity\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*157\.4%\*\*: net income of \$93,736 million \[1\] over average shareholders' equity of \$59,548 million, the mean of \$62,146 million \[2\] at 2023-09-30 and \$56,950 million \[3\] at 2024-09-28\./,
    );
    expect(a.text).toContain("_Return on equity is computed here as net income over average shareholders' equity");
    expect(a.text).toContain('The figures it is computed from:');
    expectConsistentCitations(a);
    expect((await ask('Apple ROE fiscal 2024')).text).toContain('**157.4%**');
  });

  it("a quarter's return is annualised beside it", async () => {
    const a = await ask('Apple return on assets Q1 2025');
    expect(a.text).toMatch(/^- \*\*Apple's return on assets\*\* for fiscal Q1 2025 \(quarter ended 2024-12-28\): \*\*10\.2%\*\* \(about 41\.0% annualised\): net income of \$36,330 million \[1\] over average total assets of \$354,532\.5 million/);
  });

  it('debt to equity, book value per share and net debt are balances at one date; several companies are ranked', async () => {
    expect((await ask('Microsoft debt to equity ratio')).text).toMatch(
      /^- \*\*Microsoft's debt-to-equity ratio\*\* at the end of fiscal Q3 2025 \(2025-03-31\): \*\*0\.12x\*\*: long-term debt of \$40,152 million \[1\] over shareholders' equity of \$321,891 million \[1\]\./,
    );
    const book = await ask('book value per share for Apple and Microsoft');
    expect(book.text).toContain("- **Apple's book value per share** at the end of fiscal Q2 2025 (2025-03-29): **$4.47 per share**: shareholders' equity of $66,796 million [1] over shares outstanding of 14,939,315 thousand shares (about 14.94 billion shares) [1].");
    expect(book.text).toContain("- **Microsoft's book value per share** at the end of fiscal Q3 2025 (2025-03-31): **$43.30 per share**");
    expect(book.text).toContain('- Highest book value per share first: Microsoft $43.30 per share, Apple $4.47 per share.');
    expectConsistentCitations(book);
    // "Net cash" is the same difference; below zero it is said to be net cash.
    expect((await ask('alphabet net cash position')).text).toMatch(/^- \*\*Alphabet's net debt\*\* at the end of Q4 2024 \(2024-12-31\): \*\*-\$12,583 million \(about -\$12\.6 billion\), a net cash position of \$12,583 million\*\*/);
    expect((await ask('Apple net cash flow from operations 2024')).text).not.toContain('net debt');
    expect((await ask('Apple net debt')).text).toMatch(/^- \*\*Apple's net debt\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*\$50,404 million \(about \$50\.4 billion\)\*\*: long-term debt of \$78,566 million \[1\] minus cash and cash equivalents of \$28,162 million \[1\]\./);
  });

  it('tax rate and payout ratio; a change in points; a return over negative equity is not meaningful; a missing opening balance is said', async () => {
    expect((await ask('RTIO effective tax rate 2024 vs 2023')).text).toMatch(
      /^- \*\*Ratio Holdings'?s? effective tax rate\*\* for fiscal year 2024 \(year ended 2024-12-31\): \*\*21\.0%\*\*: income tax expense of \$21 million \[\d\] over pre-tax income of \$100 million \[\d\]\. For fiscal year 2023 \(year ended 2023-12-31\): 20\.0%; change \*\*\+1\.0 points\*\*\./,
    );
    expect((await ask('RTIO payout ratio 2023')).text).toContain('**50.0%**: dividends paid of $32 million');
    // What it returned to shareholders: dividends paid plus buybacks, the total first.
    const returned = await ask('how much did RTIO return to shareholders in 2024?');
    expect(returned.text).toMatch(/^Ratio Holdings returned \*\*\$60 million\*\* to shareholders for fiscal year 2024 \(year ended 2024-12-31\) \(derived\): dividends paid \$40 million \[\d\] plus share repurchases \$20 million \[\d\]\./);
    expectConsistentCitations(returned);
    expect((await ask('AMND capital returns 2024')).text).toMatch(/^The total Amended Widgets returned to shareholders \(dividends paid plus share repurchases\) cannot be given: its XBRL financial data has no dividends paid figure for the period\./);
    expect((await ask('RTIO ROE 2024')).text).toMatch(/return on equity is not meaningful for fiscal year 2024 \(year ended 2024-12-31\): net income of \$79 million \[\d\] over average shareholders' equity of -\$10 million, the mean of \$20 million \[2\] at 2023-12-31 and -\$40 million \[3\] at 2024-12-31, and a ratio over a negative or zero shareholders' equity means nothing\./);
    expect((await ask('RTIO ROE 2023')).text).toContain("**320.0%**: net income of $64 million [1] over shareholders' equity at the end of the period, $20 million [2] (no balance is reported for its start, so this is not an average).");
    const none = await ask('Apple effective tax rate');
    expect(none.text).toMatch(/^- Apple's effective tax rate cannot be computed: the filings give no income tax expense or pre-tax income for the period asked\./);
    expect(none.text).not.toMatch(/\d%/);
  });

  it('a follow-up keeps the ratio for another company or period, and a change is in points', async () => {
    const other = await ask('Apple ROE', 'and Microsoft?');
    expect(other.text).toMatch(/^- \*\*Microsoft's return on equity\*\* for fiscal year 2024 \(year ended 2024-06-30\): \*\*37\.1%\*\*/);
    const change = await ask('Apple ROE', 'and Microsoft?', 'how did it change from last year?');
    expect(change.text).toMatch(/\*\*37\.1%\*\*[^\n]* For fiscal year 2023 \(year ended 2023-06-30\): 38\.8%; change \*\*-1\.7 points\*\*\./);
  });

  it('the current ratio and working capital from the balance sheet, interest coverage over a fiscal year; "current assets" is a figure, not the latest period', async () => {
    const current = await ask("What's Apple's current ratio?");
    expect(current.text).toMatch(/^- \*\*Apple's current ratio\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*0\.84x\*\*: total current assets of \$118,674 million \[1\] over total current liabilities of \$141,120 million \[1\]\./);
    expectConsistentCitations(current);
    expect((await ask('Alphabet current ratio 2023 vs 2022')).text).toMatch(/\*\*2\.10x\*\*[^\n]* At the end of fiscal year 2022 \(2022-12-31\): 2\.38x; change \*\*-0\.28x\*\*\./);
    expect((await ask('Apple working capital')).text).toMatch(/^- \*\*Apple's working capital\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*-\$22,446 million \(about -\$22\.4 billion\)\*\*: total current assets of \$118,674 million \[1\] minus total current liabilities of \$141,120 million \[1\]\./);
    const coverage = await ask('Microsoft interest coverage');
    expect(coverage.text).toMatch(/^- \*\*Microsoft's interest coverage\*\* for fiscal year 2024 \(year ended 2024-06-30\): \*\*37\.29x\*\*: operating income of \$109,433 million \[1\] over interest expense of \$2,935 million \[1\]\./);
    expect(coverage.text).toContain('operating income standing in for EBIT');
    // Apple reports no interest expense here: said, not a ratio made up.
    expect((await ask('Apple interest coverage')).text).toMatch(/^- Apple's interest coverage cannot be computed for fiscal year 2024 \(year ended 2024-09-28\): the filings give no interest expense for it\./);
    const both = await ask('Apple current assets and current liabilities');
    expect(both.text).toContain('| Apple Inc. (AAPL) | Total current assets | fiscal Q2 2025 (quarter ended 2025-03-29) | $118,674 million [1] |');
    expect(both.text).toContain('| Apple Inc. (AAPL) | Total current liabilities | fiscal Q2 2025 (quarter ended 2025-03-29) | $141,120 million [1] |');
    expect(both.text).not.toContain('Total assets');
  });

  it('a yes/no comparison with a company it has no figures for is not answered Yes or No; a company named by its CIK is found', async () => {
    const meta = await ask("Did Microsoft's revenue grow faster than Meta's last quarter?");
    expect(meta.text).toMatch(/^\*\*Cannot say\*\*: there is no figure for the other company to compare with \(see below\)\. Microsoft's revenue rose/);
    expect(meta.text).not.toMatch(/\*\*(?:Yes|No)\*\*/);
    // One not even in the tickers file: the same.
    expect((await ask("Did Apple's revenue grow faster than Tesla's?")).text).toMatch(/^\*\*Cannot say\*\*/);
    // Against a period, not a company: the direction is answered.
    expect((await ask('Did Apple revenue grow faster than last year in fiscal 2024?')).text).not.toMatch(/^\*\*Cannot say\*\*/);
    expect((await ask('CIK 320193 revenue FY2024')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024/);
  });

  it('"why?" is said to be in the filing\'s words, before the figures; analysts\' estimates are not filings data', async () => {
    const why = await ask('Apple net income fiscal 2024', 'why did it fall?');
    expect(why.text).toMatch(/^The figures show what changed, not why: the reasons are in what the filing says in words \(its management's discussion and analysis\), which I do not read\. The figures:\n\nApple's net income fell, -\$3,259 million/);
    // After a comparison of two quarters, the change asked about is that one, not a year over year one.
    expect((await ask('Apple revenue Q2 2025 vs Q1 2025', 'why did it fall?')).text).toMatch(/\n\nApple's revenue fell, -\$28,941 million \(-23\.3%\)/);
    const expected = await ask("Apple's revenue last quarter vs analyst expectations");
    expect(expected.text).toContain('I do not have a figure called "analyst expectations": analysts\' estimates are forecasts made outside the company');
    expect(expected.text).not.toContain('could not find a company');
  });

  it('a follow-up keeps the kind of period: the twelve months a year earlier after TTM, a quarter of the calendar year discussed', async () => {
    expect((await ask('Apple TTM revenue', 'and the year before?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue, trailing twelve months \(fiscal Q3 2023 to fiscal Q2 2024, ended 2024-03-30\): \*\*\$381,623 million\*\*/);
    const q2 = await ask('Microsoft revenue calendar 2023', 'and Q2?');
    expect(q2.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q4 2023 \(quarter ended 2023-06-30\) was \*\*\$56,189 million\*\*/);
    expect(q2.text).toContain('(Calendar Q2 2023 is the company\'s fiscal Q4 2023 (ended 2023-06-30).)');
  });

  it('a trend is the table of the latest periods, on this agent too', async () => {
    const a = await ask('Apple operating margin trend over 5 years');
    expect(a.text).toMatch(/\| \| FY2022 \[\d+\] \| FY2023 \[\d+\] \| FY2024 \[\d+\] \|/);
    expect(a.text).toContain('| ↳ operating margin (% of revenue) | 30.3% | 29.8% | 31.5% |');
  });

  it('latest years ending six months apart are not said to end together: no verdict on a year from the other side', async () => {
    const a = await ask('Who had more net income last year, Microsoft or Alphabet?');
    expect(a.text).not.toContain('On periods ending together');
    expect(a.text).toContain("Alphabet's net income for fiscal year 2024 (year ended 2024-12-31) was $11,982 million (13.6%) more than Microsoft's for fiscal year 2024 (year ended 2024-06-30); the periods end 6 months apart.");
  });

  it('ratios of figures it does not read are named as unknown, with the ratios it does compute', async () => {
    for (const q of ['Apple ROIC', 'Apple return on capital employed', 'Apple cash ratio']) {
      const a = await ask(q);
      expect(a.text, q).toMatch(/^I do not have a figure called "(ROIC|return on capital employed|cash ratio)": it is a ratio of figures I do not read \(such as invested capital, or marketable securities and receivables broken out by the company\)\. What I compute from the figures I read: Margins .*Ratios: return on equity, return on assets, debt-to-equity ratio, debt-to-assets ratio, liabilities-to-equity ratio, current ratio, quick ratio, working capital, interest coverage,/);
      expect(a.citations, q).toEqual([]);
    }
  });

  it('the quick ratio takes inventories out of current assets; a company with no inventories line is said to have none', async () => {
    const a = await ask("What's Apple's quick ratio?");
    expect(a.text).toMatch(
      /^- \*\*Apple's quick ratio\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*0\.80x\*\*: total current assets of \$118,674 million \[1\] less inventory of \$6,269 million \[1\], \$112,405 million, over total current liabilities of \$141,120 million \[1\]\./,
    );
    expect(a.text).toContain('Quick ratio is computed here as total current assets less inventories, over total current liabilities');
    expect((await ask('Microsoft acid-test ratio fiscal 2024')).text).toMatch(/^- \*\*Microsoft's quick ratio\*\* at the end of fiscal year 2024 \(2024-06-30\): \*\*1\.27x\*\*/);
    expect((await ask('Alphabet quick ratio')).text).toMatch(/^- Alphabet's quick ratio cannot be computed at the end of Q4 2024 \(2024-12-31\): the filings give no inventory for it\./);
  });

  it('a table of years gets a row of the ratio, with how it is computed', async () => {
    const a = await ask('Apple ROE 2022 to 2024');
    expect(a.text).toContain('| **Return on equity** | 197.0%* | 171.9% | 157.4% |');
    expect(a.text).toContain('* No balance is reported for the start of that period: its end balance stands in for the average.');
    expectConsistentCitations(a);
  });
});

describe('follow-up questions use the conversation', () => {
  it('"what about over the full year?" after a comparison of the latest quarters compares the latest fiscal years', async () => {
    const a = await ask('Compare Apple and Microsoft free cash flow', 'what about over the full year?');
    expect(a.text).toMatch(/\| Apple Inc\. \(AAPL\) \| Free cash flow \| fiscal year 2024 \(year ended 2024-09-28\) \| \$108,807 million/);
    expect(a.text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Free cash flow \| fiscal year 2024 \(year ended 2024-06-30\) \| \$74,071 million/);
  });

  it('a quarter said without "fiscal" of a June fiscal year also gives the calendar quarter, half a year away', async () => {
    const a = await ask('Microsoft Q4 2024 revenue');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q4 2024 \(quarter ended 2024-06-30\) was \*\*\$64,727 million\*\*/);
    expect(a.text).toContain("If calendar Q4 2024 was meant (the quarter ending 2024-12-31), that is Microsoft's fiscal Q2 2025 (quarter ended 2024-12-31): revenue $69,632 million [3].");
    expectConsistentCitations(a);
    // Said as fiscal, or of a September fiscal year (a quarter off, which the fiscal note covers): no such line.
    expect((await ask('Microsoft fiscal Q4 2024 revenue')).text).not.toContain('If calendar');
    expect((await ask('Apple revenue Q3 2024')).text).not.toContain('If calendar');
  });

  it('a fiscal year six months off either way names no "closest" year of the other company', async () => {
    // Microsoft's year ends in June; Alphabet's years end six months before and after it.
    const a = await ask('Microsoft FY2024 net income', 'and for Alphabet?');
    expect(a.text).toMatch(/^\*\*Alphabet Inc\. \(GOOGL\)\*\*: net income for fiscal year 2024 \(year ended 2024-12-31\)/);
    expect(a.text).not.toContain('closest in time');
  });

  it('a yes/no question comparing two companies is answered Yes or No; "which is bigger?" of two companies weighs their key figures', async () => {
    expect((await ask("Did Apple's revenue grow faster than Microsoft's?")).text).toContain("- **No**: Microsoft's revenue growth, +13.3% [1][2], was 8.2 percentage points higher than Apple's, +5.1% [3][4].");
    expect((await ask("Did Microsoft's revenue grow faster than Apple's?")).text).toContain("- **Yes**: Microsoft's revenue growth, +13.3%");
    expect((await ask("Is Apple's net income lower than Microsoft's last quarter?")).text).toContain("- **Yes**: Microsoft's net income, $25,824 million [1], was $1,044 million (4.2%) more than Apple's, $24,780 million [2].");
    const bigger = await ask('Which is bigger, Apple or Microsoft?');
    expect(bigger.text).toMatch(/^Key figures from the latest filings, side by side:/);
    expect(bigger.text).toContain("- Apple's revenue was $25,293 million (36.1%) more than Microsoft's.");
    // A question that asks nothing of that kind gets no verdict.
    expect((await ask('Compare Apple and Microsoft net income last quarter')).text).not.toContain('**Yes**');
  });

  it('"which is bigger?" after "and Microsoft?" weighs the two companies discussed, not the last one alone', async () => {
    for (const q of ['which is bigger?', "who's ahead?", 'compare them', 'by how much?', "what's the difference?"]) {
      const a = await ask('Apple net income last quarter', 'and Microsoft?', q);
      expect(a.text, q).toMatch(/^Net income, side by side/);
      expect(a.text, q).toContain("- Microsoft's net income was $1,044 million (4.2%) more than Apple's.");
      expect(a.text, q).not.toContain('company called');
    }
    const growth = await ask('Apple revenue growth FY2024', 'and Microsoft?', 'which grew faster?');
    expect(growth.text).toContain("- Microsoft's revenue growth for fiscal year 2024 (year ended 2024-06-30), +15.7%, was 13.6 percentage points higher than Apple's for fiscal year 2024 (year ended 2024-09-28), +2.0%");
  });

  it('odds asked of the filings models are pointed to the models that answer them, not read as company names', async () => {
    for (const model of ['svc-sec-agent', 'svc-financials-agent']) {
      for (const q of ['what are the odds of a fed hike in december?', 'kalshi odds of a shutdown']) {
        const r = await new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: q }] });
        const text = r.choices[0]!.message.content!;
        expect(text, `${model}: ${q}`).toMatch(/^This model answers from companies' SEC filings, which hold no odds\. Ask `svc-agent`/);
        expect(text).not.toContain('company called');
      }
    }
  });

  const FIRST = "What was Apple's revenue in Q3 2024?";

  it('a system message naming the company is the context of a question that names none; one that names its own wins', async () => {
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const ask = async (system: string, user: string) => (await client.chat.completions.create({ model: 'svc-agent', messages: [{ role: 'system', content: system }, { role: 'user', content: user }] })).choices[0]!.message.content!;
    expect(await ask('Always answer about Apple Inc.', 'what was revenue in fiscal 2024?')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024/);
    // A ratio alone is a filings question for the router too.
    expect(await ask('Always answer about Alphabet.', 'interest coverage 2023?')).toMatch(/^- \*\*Alphabet's interest coverage\*\* for fiscal year 2023 \(year ended 2023-12-31\): \*\*273\.68x\*\*/);
    expect(await ask('Always answer about Apple Inc.', 'what was Microsoft revenue in fiscal 2024?')).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal year 2024/);
    expect(await ask('Be concise.', 'what was revenue in fiscal 2024?')).toMatch(/company/);
  });

  it('over /v1/chat/completions with the openai SDK', async () => {
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: FIRST }];
    const first = await client.chat.completions.create({ model: MODEL, messages });
    expect(first.choices[0]!.message.content).toContain('$85,777 million');
    messages.push({ role: 'assistant', content: first.choices[0]!.message.content! }, { role: 'user', content: 'and the quarter before?' });
    const second = await client.chat.completions.create({ model: MODEL, messages });
    const secondText = second.choices[0]!.message.content!;
    expect(secondText).toContain('fiscal Q2 2024 (quarter ended 2024-03-30)');
    expect(secondText).toContain('$90,753 million');
    messages.push({ role: 'assistant', content: secondText }, { role: 'user', content: 'how about Microsoft?' });
    const third = await client.chat.completions.create({ model: MODEL, messages });
    const thirdText = third.choices[0]!.message.content!;
    expect(thirdText).toContain('Microsoft Corp. (MSFT)');
    expect(thirdText).toContain('fiscal Q2 2024 (quarter ended 2023-12-31)');
    expect(thirdText).toContain('$62,020 million');
    // The quarter nearest in time to Apple's is given too, and cited.
    expect(thirdText).toMatch(/Microsoft's quarter closest in time is fiscal Q3 2024 \(quarter ended 2024-03-31\): revenue \$61,858 million \[2\]/);
    expect((third.choices[0] as any).citations).toHaveLength(2);
  });

  it('over /v1/responses with previous_response_id, streaming the last turn', async () => {
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const first = await client.responses.create({ model: MODEL, input: FIRST });
    expect(first.output_text).toContain('$85,777 million');
    const second = await client.responses.create({ model: MODEL, input: 'and the quarter before?', previous_response_id: first.id });
    expect(second.output_text).toContain('$90,753 million');
    const stream = client.responses.stream({ model: MODEL, input: 'how about Microsoft?', previous_response_id: second.id });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    const final = await stream.finalResponse();
    expect(text).toContain('$62,020 million');
    const annotations = (final.output[0] as any).content[0].annotations;
    expect(annotations.length).toBe(2);
    expect(annotations[0].url).toMatch(/\/v1\/documents\/sec-789019-000095017024008814\.pdf\?expires=\d+&signature=[0-9a-f]{64}#page=3$/);
  });

  it('a new metric keeps the company and period; "compare with" adds a company', async () => {
    expect((await ask(FIRST, 'and net income?')).text).toContain('$21,448 million');
    const both = await ask(FIRST, 'compare with Alphabet');
    expect(both.text).toContain('$85,777 million');
    expect(both.text).toContain('Alphabet Inc. (GOOGL)');
  });

  it('streams text and citations over chat completions', async () => {
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: MODEL, stream: true, messages: [{ role: 'user', content: FIRST }] });
    expect(res.status).toBe(200);
    const { frames } = await readSse(res);
    expect(frames.at(-1)!.data).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data));
    const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
    expect(text).toMatch(/\*\*\$85,777 million\*\* \(about \$85\.8 billion\) \[1\]/);
    const last = chunks.findLast((c) => c.choices?.[0]?.finish_reason === 'stop');
    expect(last.choices[0].citations[0].name).toBe('Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 3');
  });
});

describe('signed document links behind citations', () => {
  it('serve the PDF without an API key, with caching headers; refuse expired and altered links; 404 an unknown document', async () => {
    const a = await ask("What was Apple's revenue in Q3 2024?");
    const url = new URL(a.citations[0]!.url);
    url.hash = '';
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    const maxAge = Number(/max-age=(\d+)/.exec(ok.headers.get('cache-control') ?? '')?.[1]);
    expect(ok.headers.get('cache-control')).toMatch(/^private/);
    expect(maxAge).toBeGreaterThan(3000);
    expect(maxAge).toBeLessThanOrEqual(3600);
    await ok.arrayBuffer();

    const signature = url.searchParams.get('signature')!;
    const flipped = new URL(url);
    flipped.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
    const tampered = await fetch(flipped);
    expect(tampered.status).toBe(403);
    expect(((await tampered.json()) as any).error).toMatchObject({ type: 'permission_error', code: 'invalid_signature' });

    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1));
    expect((await fetch(later)).status).toBe(403);

    const otherDoc = new URL(url.toString().replace('000032019324000081', '000032019324000069'));
    expect((await fetch(otherDoc)).status).toBe(403);

    const unsigned = new URL(url);
    unsigned.search = '';
    const missing = await fetch(unsigned);
    expect(missing.status).toBe(403);
    expect(((await missing.json()) as any).error.code).toBe('invalid_signature');

    const docs = svc.service.deps.documents;
    const expired = new URL(docs.signedUrl('sec-320193-000032019324000081', { ttlSeconds: -10 }));
    const gone = await fetch(expired);
    expect(gone.status).toBe(403);
    expect(((await gone.json()) as any).error.code).toBe('link_expired');
    // Opened in a browser tab, the refusal is a page saying what to do.
    const page = await fetch(expired, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const body = await page.text();
    expect(body).toContain('<h1>This document link has expired</h1>');
    expect(body).toContain('ask the question again');

    const unknown = await fetch(docs.signedUrl('sec-320193-000032019399999999'));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error).toMatchObject({ code: 'document_not_found', type: 'invalid_request_error' });
    expect((await fetch(docs.signedUrl('nothing-here'))).status).toBe(404);

    // A signed link without its .pdf is unknown, and answered without fetching or rendering the filing.
    const before = fake.count('/Archives/edgar/data/789019/000095017024048288/');
    const bare = await fetch(docs.signedUrl('sec-789019-000095017024048288').replace('.pdf?', '?'));
    expect(bare.status).toBe(404);
    expect(fake.count('/Archives/edgar/data/789019/000095017024048288/')).toBe(before);
  });

  it('renders each filing once and reuses it', async () => {
    const before = fake.count('/Archives/edgar/data/789019/000095017024048288/');
    await ask('Microsoft revenue Q3 FY2024');
    await ask('Microsoft net income Q3 FY2024');
    expect(fake.count('/Archives/edgar/data/789019/000095017024048288/') - before).toBeLessThanOrEqual(1);
    const { readdirSync } = await import('node:fs');
    const pdfs = readdirSync(`${svc.dataDir}/documents`).filter((f) => f.includes('000095017024048288') && f.endsWith('.pdf'));
    expect(pdfs).toHaveLength(1);
  });
});

describe('streaming while EDGAR is slow', () => {
  it('opens the stream (response.created, keep-alives) before reading company facts, then answers', async () => {
    // A proxy in front of the fake EDGAR that holds company facts until released.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow = await new FakeHttpServer(async (req) => {
      if (req.path.startsWith('/api/xbrl/companyfacts/')) await released;
      const res = await fetch(`${fake.url}${req.path}`, { headers: { 'user-agent': String(req.headers['user-agent']) } });
      const type = res.headers.get('content-type') ?? '';
      return type.includes('json') ? { status: res.status, json: await res.json() } : { status: res.status, text: await res.text(), headers: { 'content-type': type } };
    }).start();
    const other = await startService({ env: { ...SEC_ENV(slow.url), SVC_KEEPALIVE_MS: '100' } });
    try {
      const { apiKey: key } = await other.account();
      const res = await post(`${other.baseURL}/responses`, key, { model: MODEL, input: "What was Apple's revenue in Q3 2024?", stream: true });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let head = '';
      while (!head.includes(': keep-alive')) head += new TextDecoder().decode((await reader.read()).value);
      expect(head).toMatch(/^event: response\.created\n[\s\S]*event: response\.in_progress\n/);
      expect(head).toContain(': Reading XBRL company facts for AAPL');
      release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      expect(rest).toContain('event: response.completed');
      expect(rest).toContain('85,777');
    } finally {
      release();
      await other.close();
      await slow.close();
    }
  });
});

describe('conversations as analysts write them (third probe)', () => {
  it('a company listed after "and whats", a valuation "at 200", "for both", "difference?", "combined?" and "same yr" keep the conversation', async () => {
    const mixed = await ask('apple revenue and net income fy2023, and whats msft gross margin fy2023');
    expect(mixed.text).toContain('| Microsoft Corp. (MSFT) | Gross profit | fiscal year 2023 (year ended 2023-06-30) | $146,052 million [2] | 68.9% |');
    expect((await ask('apple revenue and net income fy2023, and whats msft gross margin fy2023', 'which of the two had the higher net margin that year', 'by how many points')).text).toContain("Microsoft's net margin for fiscal year 2023 (year ended 2023-06-30), 34.1%, was 8.8 percentage points higher than Apple's");
    expect((await ask('apple revenue and net income fy2023, and whats msft gross margin fy2023', 'and apples op margin same yr')).text).toContain('operating margin for fiscal year 2023 (year ended 2023-09-30) was **29.8%**');
    expect((await ask('is apple a buy here', 'ok whats its p/e at 200')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\* at \$200\.00 a share: P\/E \*\*31\.2x\*\*/);
    const both = (await ask('current ratio aapl latest', 'quick ratio?', 'same for alphabet', 'working capital for both')).text;
    expect(both).toContain("**Apple's working capital** at the end of fiscal Q2 2025 (2025-03-29): **-$22,446 million");
    expect(both).toContain("**Alphabet's working capital**");
    const difference = (await ask('cash on hand googl end of 2024', 'and msft at the same date', 'difference?')).text;
    expect(difference).toContain('Alphabet');
    expect(difference).toContain('Microsoft');
    expect((await ask('microsoft revenue q4 2024', 'no i meant the calendar quarter, oct-dec 2024', "and apple's for that same calendar quarter", 'combined?')).text).toContain('Revenue of Microsoft and Apple together: $193,932 million.');
  });

  it('a turn about something else between keeps the companies before it; "how about msft eps" puts Microsoft beside Apple', async () => {
    const grew = (await ask('ok just give me aapl eps last q', 'lakers odds tonight?', 'how about msft eps', 'which of the two companies grew eps faster yoy')).text;
    expect(grew).toContain('Apple');
    expect(grew).toContain('Microsoft');
    // A meaning asked after a company the snapshot lacks: the meaning, not that company again.
    const meaning = (await ask('ok nvda revenue last year?', 'whats EPS mean, im new to this')).text;
    expect(meaning).toMatch(/^- \*\*EPS\*\* \(earnings per share\) is net income divided by the weighted-average shares outstanding/);
    expect(meaning).not.toContain('NVDA');
  });

  it('the quarter before a fiscal quarter gets no calendar-quarter note; a ratio\'s meaning in plain words; a margin\'s change quarter over quarter beside year over year, in bps', async () => {
    const before = (await ask('msft net income q3 fy25', 'how about the quarter before')).text;
    expect(before).toContain('net income for fiscal Q2 2025 (quarter ended 2024-12-31) was **$24,108 million**');
    expect(before).not.toContain('If calendar Q2');
    expect((await ask('whats ROE for googl', 'what does roe actually mean, im new to this')).text).toContain('- **Return on equity** tells how much profit the company makes on the money its shareholders have in it');
    expect((await ask('what is a current ratio?')).text).toMatch(/^- \*\*Current ratio\*\*: total current assets over total current liabilities, at the same date; it tells whether what turns into cash within a year covers what falls due within a year/);
    expect((await ask('microsoft operating margin last quarter', 'qoq and yoy change in bps')).text).toContain('- Quarter over quarter: operating income for fiscal Q2 2025 (quarter ended 2024-12-31) was $31,653 million (Form 10-Q filed 2025-01-29) [3]; change +$347 million (+1.1%). The operating margin then was 45.5% (on revenue of $69,632 million): +0.2 percentage points (+21 bps) since.');
  });

  it('"who spends the most in absolute dollars" ranks the amounts of every company discussed; "where\'s that number from?" after a figure it could not give is the one before; "i meant" asks no meaning', async () => {
    const most = (await ask('apple r&d intensity fy2024', 'how about msft and googl', 'who spends the most in absolute dollars')).text;
    expect(most).toMatch(/^R&D expense, side by side[^\n]*\n\n- R&D expense, largest to smallest: Alphabet \$49,326 million [^\n]*, Apple \$31,370 million [^\n]*, Microsoft \$29,510 million/);
    expect((await ask('apple r&d intensity fy2024', 'how about msft')).text).not.toContain('r&D');
    const source = (await ask('apple inventory', 'how did it change over the past year', 'what about goodwill', "where's that number from? source pls")).text;
    expect(source).toMatch(/^The figures of that answer come from these filing pages/);
    expect([...source.matchAll(/page (\d+)\]\(/g)].map((m) => m[1])).toEqual(['4', '4']);
    expect((await ask('microsoft revenue q4 2024', 'no i meant the calendar quarter, oct-dec 2024')).text).not.toContain('**Revenue** is');
    expect((await ask('apple revenue calendar 2024', 'and 2023 calendar for comparison')).text).toContain('- Compared with: calendar year 2023 was $385,706 million');
  });

  it('a turn about prediction markets between is passed over; "which qtr was best" of a table', async () => {
    const best = (await ask("whats apple's gross margin trend last 4 qtrs", 'which qtr was best')).text;
    expect(best).toContain('**Gross margin**, highest in **Q2 FY2025** (47.1%), lowest in **Q4 FY2024** (46.2%), of the 4 shown.');
    expect((await ask("whats apple's gross margin trend last 4 qtrs", 'any kalshi market on apple?', 'ok back to it, which qtr was best')).text).toContain('47.1%');
  });

  it('debt to assets, and "same ratio" of another company', async () => {
    const apple = (await ask('apple debt to assets')).text;
    expect(apple).toMatch(/^- \*\*Apple's debt-to-assets ratio\*\* at the end of fiscal Q2 2025 \(2025-03-29\): \*\*23\.7%\*\*: long-term debt of \$78,566 million \[1\] over total assets of \$331,233 million \[1\]\./);
    expect((await ask('apple debt to assets', 'and googl same ratio')).text).toMatch(/^- \*\*Alphabet's debt-to-assets ratio\*\* at the end of Q4 2024 \(2024-12-31\): \*\*2\.4%\*\*/);
  });

  it('"over the last year" of twelve months or a balance is from a year before the latest quarter', async () => {
    expect((await ask('appl eps q1 fy25', 'ttm eps', 'and msft ttm eps, which grew faster over the last year')).text).toMatch(/^Microsoft's trailing-twelve-month diluted EPS rose, \+\$1\.39 \(\+12\.0%\), year over year \(the twelve months to the end of fiscal Q3 2025\)\./);
    expect((await ask('apple inventory', 'how did it change over the past year')).text).toMatch(/^Apple's inventory rose, \+\$37 million \(\+0\.6%\), year over year \(fiscal Q2 2025\)\./);
  });
});
