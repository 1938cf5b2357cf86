import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerTables, spanOf } from '../../../src/agents/financials/table.js';
import { answerSecQuestion } from '../../../src/agents/sec/agent.js';
import type { AgentEvent } from '../../../src/agents/types.js';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { DocumentService } from '../../../src/data/documents/service.js';
import { SecClient } from '../../../src/data/sec/client.js';
import { SecLibrary } from '../../../src/data/sec/library.js';
import { parseConversation } from '../../../src/data/sec/question.js';
import { SnapshotSource } from '../../../src/data/source.js';

/** The svc-sec-agent's answer on the shipped demo snapshot. */
let lib: SecLibrary;
beforeAll(() => {
  const source = new SnapshotSource(path.join(PACKAGE_ROOT, 'snapshots', 'sec'), 'SEC EDGAR');
  const documents = new DocumentService({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'svc-periods-')), signingSecret: 's', linkTtlSeconds: 60, publicUrl: () => 'http://x' });
  lib = new SecLibrary({ client: new SecClient({ api: source, www: source }), documents, origin: { mode: 'snapshot', recordedAt: source.recordedAt, demo: true, documentTag: 'sdemo' }, wwwUrl: 'https://www.sec.gov' });
});

async function answer(question: string): Promise<string> {
  const events: AsyncIterable<AgentEvent> = answerSecQuestion(lib, parseConversation([{ role: 'user', content: question }], await lib.companyIndex()));
  let text = '';
  for await (const e of events) if (e.type === 'text') text += e.delta;
  return text;
}

describe('a quarter whose year is said apart from it', () => {
  it.each([["What was Apple's Q3 revenue in 2023?"], ['Apple Q3 revenue for fiscal 2023'], ['Apple revenue for Q3, 2023'], ["Apple's revenue for the third quarter in 2023"], ['In 2023, what was Apple Q3 revenue?']])('%s: fiscal Q3 2023, not the latest Q3', async (q) => {
    const text = await answer(q);
    expect(text).toMatch(/fiscal Q3 2023 \(quarter ended 2023-07-01\)/);
    expect(text).not.toMatch(/fiscal Q3 2024/);
  });

  it.each([['Microsoft revenue Q3 calendar 2024'], ['Microsoft revenue Q3 of calendar year 2024'], ['Microsoft revenue for the third quarter of calendar year 2024']])('%s: the quarter ended in September 2024', async (q) => {
    expect(await answer(q)).toMatch(/quarter ended 2024-09-30/);
  });

  it('two quarters with their own years are still compared', async () => {
    const text = await answer('Apple revenue Q3 2024 vs Q3 2023');
    expect(text).toMatch(/Q3 2024/);
    expect(text).toMatch(/Q3 2023/);
  });
});

describe('quarters taken together: the figure for those months, never one quarter in their place', () => {
  it('six months ended a date: the year-to-date figure the 10-Q files, cited', async () => {
    const text = await answer('Apple revenue for the six months ended March 30, 2024');
    expect(text).toMatch(/revenue for the first half of fiscal 2024 \(six months ended 2024-03-30\) was \*\*\$210,328 million\*\*/);
    expect(text).toMatch(/Form 10-Q filed 2024-05-03 .* \[1\]/);
    expect(text).not.toMatch(/quarter ended 2024-03-30/);
  });

  it.each([['Apple net income for the first nine months of fiscal 2024'], ['Apple net income 9M FY24'], ['Apple net income YTD through Q3 2024']])('%s: nine months', async (q) => {
    expect(await answer(q)).toMatch(/net income for the first nine months of fiscal 2024 \(nine months ended 2024-06-29\) was \*\*\$79,000 million\*\*/);
  });

  it('year to date: through the latest quarter reported; a finished year is the year, said so', async () => {
    expect(await answer('Apple revenue YTD')).toMatch(/revenue for the first half of fiscal 2025 \(six months ended 2025-03-29\) was \*\*\$219,659 million\*\*/);
    const year = await answer('Apple revenue year to date 2024');
    expect(year).toMatch(/revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    expect(year).toMatch(/Fiscal year 2024 is complete: year to date is the whole year/);
  });

  it('a second half no filing reports is the sum of its quarters, Q4 derived, every term cited', async () => {
    const text = await answer('Microsoft revenue H2 FY24');
    expect(text).toMatch(/revenue for the second half of fiscal 2024 \(six months ended 2024-06-30\) was \*\*\$126,585 million\*\*/);
    expect(text).toMatch(/Derived as three months ended March 31, 2024 \$61,858 million \(Form 10-Q filed 2024-04-25\) \[1\] plus fiscal year 2024 \$245,122 million \(Form 10-K filed 2024-07-30\) \[2\] minus nine months ended March 31, 2024 \$180,395 million/);
    expect(text).toMatch(/the sum of their quarters, Q4 being the fiscal year less the first nine months/);
    expect(61_858 + 245_122 - 180_395).toBe(126_585);
  });

  it('the same months a year earlier, compared', async () => {
    const text = await answer('Apple revenue H1 2024 vs H1 2023');
    expect(text).toMatch(/Year over year: the first half of fiscal 2023 \(six months ended 2023-04-01\) was \$211,990 million .*change -\$1,662 million \(-0\.8%\)/);
  });

  it('a calendar half of a company with another fiscal year: its fiscal quarters in those months', async () => {
    const text = await answer('Microsoft revenue first half of calendar 2024');
    expect(text).toMatch(/second half of fiscal 2024 \(six months ended 2024-06-30\)/);
    expect(text).toMatch(/The first half of calendar 2024 is, in the company's fiscal quarters, 2024-01-01 to 2024-06-30/);
  });

  it('a balance has no total over months: the one at their end, said so', async () => {
    const text = await answer('Apple cash H1 2024');
    expect(text).toMatch(/cash and cash equivalents at the end of fiscal Q2 2024 \(2024-03-30\) were \*\*\$32,695 million\*\*/);
    expect(text).toMatch(/is a balance, not a total over months/);
  });

  it('months the filings do not cover are said to be missing, with what is there', async () => {
    expect(await answer('Apple revenue H1 FY2015')).toMatch(/Apple's filings have no revenue for the first half of fiscal 2015\. Available for Apple: revenue for quarters from/);
  });

  it('side by side, each company in its own fiscal terms, with the months nearest in time', async () => {
    const text = await answer('Apple and Microsoft revenue 1H24');
    expect(text).toMatch(/\| Apple Inc\. \(AAPL\) \| Revenue \| the first half of fiscal 2024 \(six months ended 2024-03-30\) \| \$210,328 million \[1\] \|/);
    expect(text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Revenue \| the first half of fiscal 2024 \(six months ended 2023-12-31\) \| \$118,537 million \[2\] \|/);
    expect(text).toMatch(/Microsoft's quarters closest in time are fiscal Q2 2024 to Q3 2024 \(six months ended 2024-03-31\)/);
  });
});

describe('quarters from one to another, and the latest months: their total, never one of them', () => {
  it('Q1-Q3: the nine months the 10-Q files', async () => {
    const text = await answer('Apple revenue Q1-Q3 2024');
    expect(text).toMatch(/revenue for the first nine months of fiscal 2024 \(nine months ended 2024-06-29\) was \*\*\$296,105 million\*\*/);
    expect(text).not.toMatch(/fiscal Q1 2025/);
  });

  it('across two fiscal years: the quarters added up, a derived Q4 entering as the year less nine months', async () => {
    const text = await answer('Apple revenue Q4 2023 through Q1 2024');
    expect(text).toMatch(/revenue for fiscal Q4 2023 to Q1 2024 \(six months ended 2023-12-30\) was \*\*\$209,073 million\*\*/);
    expect(text).toMatch(/Derived as fiscal year 2023 \$383,285 million .* minus nine months ended July 1, 2023 \$293,787 million .* plus three months ended December 30, 2023 \$119,575 million/);
    expect(383_285 - 293_787 + 119_575).toBe(209_073);
  });

  it('four quarters not a fiscal year: twelve months added up; Q1 to Q4 is the fiscal year', async () => {
    expect(await answer('Apple revenue Q2 2024 - Q1 2025')).toMatch(/revenue for fiscal Q2 2024 to Q1 2025 \(twelve months ended 2024-12-28\) was \*\*\$395,760 million\*\*/);
    expect(90_753 + 85_777 + (391_035 - 296_105) + 124_300).toBe(395_760);
    expect(await answer('Apple revenue Q1 through Q4 2024')).toMatch(/revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
  });

  it('the last six months: the two latest quarters together', async () => {
    expect(await answer('Apple revenue for the last six months')).toMatch(/revenue for the first half of fiscal 2025 \(six months ended 2025-03-29\) was \*\*\$219,659 million\*\*/);
    expect(await answer('Apple revenue past 3 months')).toMatch(/revenue for fiscal Q2 2025 \(quarter ended 2025-03-29\) was \*\*\$95,359 million\*\*/);
  });

  it('halves in a row: compared with the six months before, named so', async () => {
    const text = await answer('Microsoft revenue H1 2025 vs H2 2024');
    expect(text).toMatch(/revenue for the first half of fiscal 2025 \(six months ended 2024-12-31\) was \*\*\$135,217 million\*\*/);
    expect(text).toMatch(/- Against the six months before: the second half of fiscal 2024 \(six months ended 2024-06-30\) was \$126,585 million \[2\]\[3\]; change \+\$8,632 million \(\+6\.8%\)/);
  });
});

describe('two periods named further apart than a year or a quarter: compared, never one of them dropped', () => {
  it('months of a year against another year, or "vs last": the same months of that year', async () => {
    // 253,549 - 221,084 = 32,465, +14.7%.
    expect(await answer('Alphabet revenue for the first nine months of 2024 vs 2023')).toContain('- Year over year: the first nine months of 2023 (nine months ended 2023-09-30) was $221,084 million (Form 10-Q filed 2023-10-25) [2]; change +$32,465 million (+14.7%).');
    // 74,599 - 66,100 = 8,499, +12.9%.
    expect(await answer('Microsoft net income so far this fiscal year vs last')).toContain('- Year over year: the first nine months of fiscal 2024 (nine months ended 2024-03-31) was $66,100 million (Form 10-Q filed 2024-04-25) [2]; change +$8,499 million (+12.9%).');
  });

  it('a fiscal year with one two years earlier', async () => {
    const text = await answer('Apple revenue in fiscal 2024 versus fiscal 2022');
    expect(text).toMatch(/revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    expect(text).toMatch(/- Compared with: fiscal year 2022 \(year ended 2022-09-24\) was \$394,328 million \(Form 10-K filed 2023-11-03\) \[2\]; change -\$3,293 million \(-0\.8%\)/);
  });

  it('quarters two apart, calendar years, and side by side', async () => {
    expect(await answer('Apple revenue Q3 2024 vs Q1 2024')).toMatch(/- Compared with: fiscal Q1 2024 \(quarter ended 2023-12-30\) was \$119,575 million .*; change -\$33,798 million \(-28\.3%\)/);
    expect(await answer('Microsoft revenue calendar 2024 vs calendar 2022')).toMatch(/- Compared with: calendar year 2022 was \$204,094 million \[5\]\[6\]\[7\]\[8\], the sum of the four fiscal quarters ending in 2022 .*change \+\$57,708 million \(\+28\.3%\)/);
    expect(await answer('Compare Apple and Microsoft net income FY2024 vs FY2022')).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| fiscal year 2024 \(year ended 2024-06-30\) \| \$88,136 million \[3\] \| fiscal year 2022 \(year ended 2022-06-30\) \| \$72,738 million \[4\] \| \+\$15,398 million \(\+21\.2%\) \|/);
  });

  it('two quarters without a year, months-named quarters, and growth said as "add"', async () => {
    expect(await answer('Apple revenue Q2 vs Q1')).toMatch(/revenue for fiscal Q2 2025 \(quarter ended 2025-03-29\) was \*\*\$95,359 million\*\*[^]*- Quarter over quarter: fiscal Q1 2025 \(quarter ended 2024-12-28\) was \$124,300 million .*; change -\$28,941 million \(-23\.3%\)/);
    expect(await answer('Apple revenue Q3 vs Q1')).toMatch(/revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\)[^]*- Compared with: fiscal Q1 2024 \(quarter ended 2023-12-30\) was \$119,575 million .*; change -\$33,798 million \(-28\.3%\)/);
    expect(await answer('Apple revenue September quarter vs June quarter')).toMatch(/revenue for fiscal Q4 2024 \(quarter ended 2024-09-28\) was \*\*\$94,930 million\*\*[^]*- Quarter over quarter: fiscal Q3 2024 \(quarter ended 2024-06-29\) was \$85,777 million .*; change \+\$9,153 million \(\+10\.7%\)/);
    expect(await answer('How much revenue did Apple add in fiscal 2024?')).toMatch(/- Year over year: fiscal year 2023 \(year ended 2023-09-30\) was \$383,285 million .*; change \+\$7,750 million \(\+2\.0%\)/);
  });

  it('"the same quarter two years ago" beside the latest quarter: compared with that quarter, not answered alone', async () => {
    const text = await answer('Apple revenue most recent quarter vs same quarter two years ago');
    expect(text).toMatch(/revenue for fiscal Q2 2025 \(quarter ended 2025-03-29\) was \*\*\$95,359 million\*\*[^]*- Compared with: fiscal Q2 2023 \(quarter ended 2023-04-01\) was \$94,836 million .*; change \+\$523 million \(\+0\.6%\)/);
    expect(await answer('Apple revenue Q3 2024 vs the same quarter three years earlier')).toContain('- Compared with: no revenue for fiscal Q3 2021 to compare with.');
  });

  it('year over year and quarter over quarter asked together: both changes, each cited; a fiscal year says it has no quarter before it', async () => {
    const both = await answer('Apple revenue growth yoy and qoq in Q3 2024');
    expect(both).toMatch(/- Year over year: fiscal Q3 2023 \(quarter ended 2023-07-01\) was \$81,797 million \(Form 10-Q filed 2023-08-04\) \[2\]; change \+\$3,980 million \(\+4\.9%\)\.\n- Quarter over quarter: fiscal Q2 2024 \(quarter ended 2024-03-30\) was \$90,753 million \(Form 10-Q filed 2024-05-03\) \[3\]; change -\$4,976 million \(-5\.5%\)\./);
    const year = await answer('Apple revenue FY2024 yoy and qoq');
    expect(year).toContain('- Year over year (a fiscal year has no previous quarter, so there is no quarter-over-quarter change): fiscal year 2023');
    expect(year.match(/Year over year/g)).toHaveLength(1);
    const side = await answer('Apple and Microsoft revenue, q/q and y/y growth, latest quarter');
    expect(side).toMatch(/\| Apple Inc\. \(AAPL\) \| Revenue \| fiscal Q2 2025 \(quarter ended 2025-03-29\) \| \$95,359 million \[1\] \| fiscal Q2 2024/);
    expect(side).toMatch(/- Apple Inc\. \(AAPL\) revenue, quarter over quarter: fiscal Q1 2025 \(quarter ended 2024-12-28\) was \$124,300 million \(Form 10-Q filed 2025-01-31\) \[\d\]; change -\$28,941 million \(-23\.3%\)/);
    expect(side).toMatch(/- Microsoft Corp\. \(MSFT\) revenue, quarter over quarter: fiscal Q2 2025 \(quarter ended 2024-12-31\) was \$69,632 million/);
  });

  it('companies side by side: by how much one exceeds the other, or largest to smallest', async () => {
    const two = await answer('How much more revenue did Microsoft have than Apple in fiscal 2024?');
    // 391,035 - 245,122 = 145,913, which is 59.5% of 245,122; no change over time was asked for.
    // Fiscal years ending months apart are named with their ends.
    expect(two).toContain("- Apple's revenue for fiscal year 2024 (year ended 2024-09-28) was $145,913 million (59.5%) more than Microsoft's for fiscal year 2024 (year ended 2024-06-30); the periods end 3 months apart.");
    expect(two).not.toContain('Prior period');
    const three = await answer('Compare net income of Apple, Microsoft and Alphabet in fiscal 2024');
    expect(three).toContain(
      '- Net income, largest to smallest: Alphabet $100,118 million for fiscal year 2024 (year ended 2024-12-31), Apple $93,736 million for fiscal year 2024 (year ended 2024-09-28), Microsoft $88,136 million for fiscal year 2024 (year ended 2024-06-30); the periods end up to 6 months apart.',
    );
    // Periods ending together are not named: 30,299 - 17,482 = 12,817, 73.3% of 17,482.
    expect(await answer('Compare Apple and Microsoft cash at the end of 2024')).toContain("- Apple's cash and cash equivalents were $12,817 million (73.3%) more than Microsoft's.");
    expect(await answer('Compare Apple and Microsoft revenue calendar 2024')).toContain("- Apple's revenue was $133,958 million (51.2%) more than Microsoft's.");
    // The latest quarters end months apart: compared on periods ending together (124,300 - 96,469 = 27,831), not on the latest ones.
    const latest = await answer('Compare Apple and Alphabet revenue last quarter');
    expect(latest).not.toContain('more than Apple');
    expect(latest).toContain(
      "The latest figures end at different dates, so they are not like for like: Alphabet's Q4 2024 ended 2024-12-31; Apple's quarter closest in time is fiscal Q1 2025 (quarter ended 2024-12-28): revenue $124,300 million [4]. On periods ending together, Apple's revenue was $27,831 million more than Alphabet's.",
    );
    // A balance: 23,466 at 2024-12-31 against Microsoft's 17,482 then, whatever Microsoft's later quarter says.
    const cash = await answer('Who has more cash, Microsoft or Google?');
    expect(cash).toContain("On periods ending together, Alphabet's cash and cash equivalents were $5,984 million more than Microsoft's.");
    expect(cash).not.toContain("Microsoft's cash and cash equivalents for fiscal Q3 2025");
  });

  it('a calendar year against a fiscal year: the sum of its quarters compared with the fiscal year, or one period when they are the same', async () => {
    const apple = await answer('Apple revenue fiscal 2024 vs calendar 2024');
    expect(apple).toMatch(/revenue for calendar year 2024 was \*\*\$395,760 million\*\*/);
    // 395,760 - 391,035 = 4,725, 1.2% of 391,035.
    expect(apple).toMatch(/- Compared with: fiscal year 2024 \(year ended 2024-09-28\) was \$391,035 million \(Form 10-K filed 2024-11-01\) \[3\]; change \+\$4,725 million \(\+1\.2%\)\./);
    // Asked for a margin, the margin leads, over the summed revenue.
    expect(await answer("what was microsoft's operating margin in calendar 2024?")).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: operating margin for calendar year 2024 was \*\*45\.0%\*\*: operating income of \$117,711 million over revenue of \$261,802 million, each the sum of the four fiscal quarters ending in 2024\./);
    const margin = await answer('Apple gross margin calendar 2024 vs fiscal 2024');
    expect(margin).toMatch(/- Gross margin: \*\*46\.5%\*\* of revenue \(calendar year 2024 revenue \$395,760 million, [^]*\); fiscal year 2024: 46\.2% \(revenue \$391,035 million, Form 10-K filed 2024-11-01 \[3\]\); \+0\.3 percentage points\./);
    const side = await answer('Compare Apple and Microsoft revenue calendar 2024 vs fiscal 2024');
    expect(side).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Revenue \| calendar year 2024 \| \$261,802 million \[5\]\[6\]\[7\]\[8\] \(sum of four quarters\) \| fiscal year 2024 \(year ended 2024-06-30\) \| \$245,122 million \[6\] \| \+\$16,680 million \(\+6\.8%\) \|/);
    const alphabet = await answer('Alphabet revenue calendar 2024 vs fiscal 2024');
    expect(alphabet).toMatch(/revenue for fiscal year 2024 \(year ended 2024-12-31\) was \*\*\$350,018 million\*\*[^]*\(Calendar year 2024 and fiscal year 2024 are the same period for this company\.\)/);
    expect(alphabet).not.toContain('Compared with');
  });

  it('companies compared on the measure asked for: margins in points, growth, trailing twelve months', async () => {
    // Gross margins 180,683 / 391,035 = 46.2% and 171,008 / 245,122 = 69.8%: the verdict is Microsoft's, not Apple's larger gross profit.
    const margin = await answer("Whose gross margin was higher in fiscal 2024, Apple's or Microsoft's?");
    expect(margin).toContain(
      "- Microsoft's gross margin for fiscal year 2024 (year ended 2024-06-30), 69.8%, was 23.6 percentage points higher than Apple's for fiscal year 2024 (year ended 2024-09-28), 46.2%; the periods end 3 months apart.",
    );
    expect(margin).not.toContain('company called');
    expect(await answer('Rank Apple, Microsoft and Alphabet by net margin in fiscal 2024')).toMatch(/- Net margin, highest to lowest: Microsoft 36\.0% .*, Alphabet 28\.6% .*, Apple 24\.0% /);
    expect(await answer('Rank Apple, Microsoft and Alphabet by revenue growth in 2024')).toMatch(/- Revenue growth, highest to lowest: Microsoft \+15\.7% .*, Alphabet \+13\.9% .*, Apple \+2\.0% /);
    // The twelve months, not the last quarter: Apple 97,294 is above Microsoft's 96,635, though its quarter is below.
    expect(await answer('Compare AAPL, MSFT, GOOGL net income TTM')).toMatch(/- Trailing-twelve-month net income, largest to smallest: Alphabet \$100,118 million .*, Apple \$97,294 million .*, Microsoft \$96,635 million /);
    // The table shows the twelve months asked for, not the last quarter.
    const table = await answer('Apple TTM net income vs Microsoft');
    expect(table).toMatch(/\| Apple Inc\. \(AAPL\) \| Net income \| twelve months to fiscal Q2 2025 \(quarter ended 2025-03-29\) \| \$97,294 million \[\d+\] \(sum of four quarters\) \|/);
    expect(table).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Net income \| twelve months to fiscal Q3 2025 \(quarter ended 2025-03-31\) \| \$96,635 million /);
    expect(table).not.toMatch(/\| \$24,780 million/);
    // Order words are not companies.
    const ordered = await answer('Apple vs Microsoft revenue fiscal 2024, largest to smallest');
    expect(ordered).toContain("- Apple's revenue for fiscal year 2024 (year ended 2024-09-28) was $145,913 million (59.5%) more than Microsoft's");
    expect(ordered).not.toContain('company called');
    // One period said twice is not compared with itself.
    expect(await answer('Apple cash at the end of December 2024 and Microsoft cash at the end of December 2024')).not.toContain('same period');
  });

  it('growth said as "gain" or "shrink"; per-share and per-employee figures not replaced by the total', async () => {
    expect(await answer('How much revenue did Alphabet gain in 2024?')).toMatch(/- Year over year: fiscal year 2023 \(year ended 2023-12-31\) was \$307,394 million .*; change \+\$42,624 million \(\+13\.9%\)/);
    expect(await answer("Did Apple's net income shrink in fiscal 2024?")).toMatch(/change -\$3,259 million \(-3\.4%\)/);
    expect(await answer('Microsoft net income per share FY2024')).toMatch(/diluted EPS for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$11\.80 per diluted share\*\*/);
    const text = await answer('Apple revenue per employee FY2024');
    expect(text).toMatch(/^I do not have a figure called "revenue per employee"/);
    expect(text).not.toContain('$391,035');
    // Revenue per share is computed (revenue over the shares outstanding), not the total given in its place.
    expect(await answer('Apple revenue per share FY2024')).toMatch(/^- \*\*Apple's revenue per share\*\* for fiscal year 2024 \(year ended 2024-09-28\): \*\*\$25\.87 per share\*\*/);
  });

  it("a balance's change during a quarter is from the quarter's start, not a year earlier", async () => {
    // Cash 80,452 at 2023-09-30, 17,305 at 2023-12-31.
    expect(await answer("How much did Microsoft's cash change during fiscal Q2 2024?")).toMatch(/- Quarter over quarter: at the end of fiscal Q1 2024 \(2023-09-30\), they were \$80,452 million .*; change -\$63,147 million \(-78\.5%\)/);
    expect(await answer("How much did Apple's cash fall during fiscal Q3 2024?")).toMatch(/change -\$7,130 million \(-21\.8%\)/);
    // During a year: from the year's start; asked year over year: as asked.
    expect(await answer("How much did Apple's cash change during fiscal 2024?")).toMatch(/- Year over year: at the end of fiscal year 2023 \(2023-09-30\), they were/);
    expect(await answer('Apple cash change year over year during Q3 2024')).toMatch(/- Year over year: at the end of fiscal Q3 2023 \(2023-07-01\), they were/);
  });

  it('the twelve months ended a date no fiscal year ends on: the trailing twelve months to the quarter ending then', async () => {
    for (const [q, quarter, sum] of [
      ['Microsoft revenue for the twelve months ended March 31, 2025', 'fiscal Q3 2025 (quarter ended 2025-03-31)', '$270,010 million'],
      ['Apple revenue for the 12 months ended December 2024', 'fiscal Q1 2025 (quarter ended 2024-12-28)', '$395,760 million'],
      ['Alphabet revenue twelve months ended September 30, 2024', 'Q3 2024 (quarter ended 2024-09-30)', '$339,859 million'],
    ]) {
      const text = await answer(q!);
      expect(text, q).toContain(`revenue for ${quarter} was`);
      expect(text, q).toMatch(/\(No fiscal year of the company ends on \d{4}-\d{2}-\d{2}: the twelve months ended then are the four quarters to this one, added up below\.\)/);
      expect(text, q).toMatch(/^\*\*[^*]+\*\*: [a-z ]+, trailing twelve months \([^)]*\): \*\*/);
      expect(text, q).toContain(`): **${sum}**, the sum of`);
    }
    // A fiscal year that ends then is that year; a balance is the one at the date.
    expect(await answer('Apple revenue for the fiscal year ended September 28, 2024')).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/);
    const cash = await answer('Microsoft cash for the twelve months ended March 31, 2025');
    expect(cash).toContain('cash and cash equivalents at the end of fiscal Q3 2025 (2025-03-31) were **$28,828 million**');
    expect(cash).not.toContain('Trailing twelve months');
  });

  it('a margin asked for with TTM is the twelve months\' margin too', async () => {
    // 127,364 / 400,366 = 31.8%, where the quarter alone is 31.0%.
    const text = await answer('Apple operating margin TTM');
    expect(text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: operating margin over the trailing twelve months \(fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29\) was \*\*31\.8%\*\*/);
    expect(text).toContain('Operating margin over the twelve months: 31.8% of revenue of $400,366 million (the sum of fiscal Q3 2024 $85,777 million [1], fiscal Q4 2024 $94,930 million [2][1], fiscal Q1 2025 $124,300 million [3], fiscal Q2 2025 $95,359 million [4]).');
    // A figure as a share of revenue said with its span: 11,070 / 400,366 = 2.8%.
    expect(await answer('Apple TTM capex as a % of TTM revenue')).toContain('Capital expenditure over the twelve months: **2.8%** of revenue of $400,366 million');
    expect(await answer('Compare Apple and Microsoft operating margin TTM')).toMatch(/- Microsoft's trailing-twelve-month operating margin, \d+\.\d%, was [\d.]+ percentage points higher than Apple's, 31\.8%\./);
  });

  it('each company with the period asked for it', async () => {
    const text = await answer("What was Apple's revenue in Q3 2024 and Microsoft's revenue in Q2 2025?");
    expect(text).toMatch(/\| Apple Inc\. \(AAPL\) \| Revenue \| fiscal Q3 2024 \(quarter ended 2024-06-29\) \| \$85,777 million \[1\] \|/);
    expect(text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Revenue \| fiscal Q2 2025 \(quarter ended 2024-12-31\) \| \$69,632 million \[2\] \|/);
    // 85,777 - 69,632 = 16,145, 23.2% of 69,632.
    expect(text).toContain("- Apple's revenue for fiscal Q3 2024 (quarter ended 2024-06-29) was $16,145 million (23.2%) more than Microsoft's for fiscal Q2 2025 (quarter ended 2024-12-31); the periods end 6 months apart.");
    expect(text).not.toContain('Prior period');
    expect(await answer('Apple revenue FY2024 vs Microsoft revenue FY2023')).toContain('was $179,120 million (84.5%) more than Microsoft\'s for fiscal year 2023 (year ended 2023-06-30)');
  });

  it('a period the filings do not cover is named as missing', async () => {
    expect(await answer('Apple revenue FY2024 vs FY2015')).toMatch(/- Compared with: no revenue for fiscal year 2015 to compare with\./);
  });
});

describe('periods said in other words: the one meant, never the latest or a year in its place', () => {
  it.each([
    ['Apple third-quarter 2024 revenue', /revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\*/],
    ["Alphabet's fourth-quarter 2023 net income", /net income for Q4 2023 \(quarter ended 2023-12-31\) was \*\*\$20,687 million\*\*/],
    ['Microsoft second-quarter fiscal 2025 net income', /net income for fiscal Q2 2025 \(quarter ended 2024-12-31\) was \*\*\$24,108 million\*\*/],
    ["Microsoft revenue in fiscal year '24", /revenue for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$245,122 million\*\*/],
    ['Microsoft revenue calendar H1 2024', /revenue for the second half of fiscal 2024 \(six months ended 2024-06-30\) was \*\*\$126,585 million\*\*/],
    ['Apple revenue in the June quarter', /revenue for fiscal Q3 2024 \(quarter ended 2024-06-29\) was \*\*\$85,777 million\*\*[^]*The June quarter is the company's fiscal Q3 2024/],
    ['Alphabet revenue in the quarter after Q2 2024', /revenue for Q3 2024 \(quarter ended 2024-09-30\) was \*\*\$88,268 million\*\*/],
    ['Microsoft revenue one year before Q2 FY2025', /revenue for fiscal Q2 2024 \(quarter ended 2023-12-31\) was \*\*\$62,020 million\*\*/],
    ['Apple net income for the year before fiscal 2024', /net income for fiscal year 2023 \(year ended 2023-09-30\) was \*\*\$96,995 million\*\*/],
    ["What was Apple's revenue in the same quarter last year?", /revenue for fiscal Q2 2024 \(quarter ended 2024-03-30\) was \*\*\$90,753 million\*\*/],
    ['Apple net income in the quarter before last', /net income for fiscal Q1 2025 \(quarter ended 2024-12-28\) was \*\*\$36,330 million\*\*/],
    ['Microsoft net income prior fiscal year', /net income for fiscal year 2024 \(year ended 2024-06-30\) was \*\*\$88,136 million\*\*/],
    ['Apple revenue last quarter and the quarter before', /- Quarter over quarter: fiscal Q1 2025 \(quarter ended 2024-12-28\) was \$124,300 million/],
    // A month of a year, or the end of one, is the quarter ending then, never the fiscal year-end.
    ['How much cash did Apple have at the end of December 2024?', /cash and cash equivalents at the end of fiscal Q1 2025 \(2024-12-28\) were \*\*\$30,299 million\*\*/],
    ['Apple total liabilities December 2024', /total liabilities at the end of fiscal Q1 2025 \(2024-12-28\) were \*\*\$277,327 million\*\*/],
    ['Apple total assets at end of 2024', /total assets at the end of fiscal Q1 2025 \(2024-12-28\) were \*\*\$344,085 million\*\*[^]*\(The quarter ended 2024-12-28, the closest to 2024-12-31\.\)/],
    ['Microsoft cash at the end of 2024', /cash and cash equivalents at the end of fiscal Q2 2025 \(2024-12-31\) were \*\*\$17,482 million\*\*/],
    ['Apple cash at end of March 2025', /cash and cash equivalents at the end of fiscal Q2 2025 \(2025-03-29\) were \*\*\$28,162 million\*\*/],
    ['Apple revenue for the fiscal year ended September 2024', /revenue for fiscal year 2024 \(year ended 2024-09-28\) was \*\*\$391,035 million\*\*/],
  ])('%s', async (q, expected) => {
    expect(await answer(q)).toMatch(expected);
  });

  it('a period after the filings is said not to be reported yet, up to the last quarter that is', async () => {
    expect(await answer('Microsoft revenue fiscal 2025')).toMatch(/has not reported fiscal year 2025 yet: its filings go up to the quarter ended 2025-03-31, and that year ends about 2025-06-30/);
    expect(await answer('Microsoft revenue Q4 fiscal 2025')).toMatch(/has not reported fiscal Q4 2025 yet: its filings go up to the quarter ended 2025-03-31\./);
  });
});

describe('more of a question kept: a quarter of two years, balances at two dates, a share of revenue, growth', () => {
  it('a quarter named with two years is that quarter of each, compared', async () => {
    expect(await answer("Apple's Q2 revenue in fiscal 2023 and fiscal 2024")).toMatch(/revenue for fiscal Q2 2023 \(quarter ended 2023-04-01\) was \*\*\$94,836 million\*\* \[1\], and for fiscal Q2 2024 \(quarter ended 2024-03-30\) \*\*\$90,753 million\*\* \[2\]\.[^]*- Year over year: fiscal Q2 2023 \(quarter ended 2023-04-01\) was \$94,836 million/);
  });

  it('balances at two dates of different kinds: the later one, compared with the earlier', async () => {
    const text = await answer('Microsoft cash at end of last quarter vs end of fiscal 2024');
    expect(text).toMatch(/cash and cash equivalents at the end of fiscal Q3 2025 \(2025-03-31\) were \*\*\$28,828 million\*\*/);
    expect(text).toMatch(/- Compared with: at the end of fiscal year 2024 \(2024-06-30\), they were \$18,315 million .*; change \+\$10,513 million \(\+57\.4%\)/);
  });

  it('"what percentage of Apple\'s revenue was net income" is the net margin; "growing faster" asks for growth', async () => {
    expect(await answer("What percentage of Apple's revenue was net income in Q1 FY25?")).toMatch(/- Net margin: \*\*29\.2%\*\* of revenue/);
    expect(await answer('Is Microsoft growing revenue faster than Alphabet?')).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Revenue \| fiscal Q3 2025 \(quarter ended 2025-03-31\) \| \$70,066 million \[1\] \| fiscal Q3 2024 \(quarter ended 2024-03-31\) \| \$61,858 million \[2\] \| \+\$8,208 million \(\+13\.3%\) \|/);
  });
});

describe('debt asked for as a whole', () => {
  it('is answered with long-term debt, saying what that leaves out; asked as long-term debt, no such note', async () => {
    const text = await answer('Microsoft total debt');
    expect(text).toMatch(/long-term debt at the end of fiscal Q3 2025 \(2025-03-31\) was \*\*\$40,152 million\*\*/);
    expect(text).toMatch(/- This is long-term debt due after one year \(the non-current part\), the debt figure the filings tag: its current portion and short-term borrowings such as commercial paper are not included/);
    expect(await answer("What's Apple's debt load?")).toMatch(/This is long-term debt due after one year/);
    expect(await answer('Apple long-term debt')).not.toMatch(/This is long-term debt/);
  });
});

describe('trailing twelve months, asked of figures that are not amounts', () => {
  it('per-share figures are the four quarters added up, marked approximate', async () => {
    const text = await answer('Apple TTM diluted EPS');
    expect(text).toMatch(/trailing twelve months \(fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29\): \*\*\$6\.42 per diluted share\*\*, the sum of fiscal Q3 2024 \$1\.40 per diluted share \[\d\], fiscal Q4 2024 \$0\.97 per diluted share \(derived\)/);
    expect(text).toMatch(/approximate: per-share figures of different quarters rest on different share counts/);
  });

  it('a balance, and a fiscal year, say why there is no sum', async () => {
    expect(await answer('Apple TTM cash')).toMatch(/Trailing twelve months: cash and cash equivalents is a balance at a date, not a total over months/);
    expect(await answer('Apple TTM revenue FY2024')).toMatch(/Trailing twelve months: a fiscal year is twelve months already\./);
  });

  it('a change asked for with TTM is the twelve months against the twelve months a year earlier, each quarter cited', async () => {
    const text = await answer('Apple TTM revenue vs a year ago');
    // The change first, then what each twelve months is the sum of.
    expect(text).toMatch(/trailing twelve months \(fiscal Q3 2024 to fiscal Q2 2025, ended 2025-03-29\): \*\*\$400,366 million\*\*, change \*\*\+\$18,743 million \(\+4\.9%\)\*\* from \$381,623 million a year earlier \(fiscal Q3 2023 to fiscal Q2 2024, ended 2024-03-30\)\. The sum of .*; a year earlier, of fiscal Q3 2023 \$81,797 million \[\d+\], fiscal Q4 2023 \$89,498 million \(derived\) \[\d+\]\[\d+\], /);
    expect(81_797 + 89_498 + 119_575 + 90_753).toBe(381_623);
    expect(await answer('Alphabet capex TTM vs a year earlier')).toMatch(/change \*\*\+\$20,284 million \(\+62\.9%\)\*\* from \$32,251 million a year earlier \(Q1 2023 to Q4 2023, ended 2023-12-31\)\./);
  });

  it('asked how the twelve months moved, the lead is their change, not the last quarter\'s', async () => {
    // Apple's fiscal Q2 2025 net income rose year over year; its trailing twelve months fell.
    expect(await answer("How much did Apple's trailing twelve month net income grow?")).toMatch(/^It did not grow: Apple's trailing-twelve-month net income fell, -\$3,095 million \(-3\.1%\), year over year \(the twelve months to the end of fiscal Q2 2025\)\./);
    expect(await answer('Did Microsoft TTM revenue grow?')).toMatch(/^\*\*Yes\*\*: Microsoft's trailing-twelve-month revenue rose, \+\$33,426 million \(\+14\.1%\), year over year/);
  });

  it('months taken together count back from their last quarter', async () => {
    expect(await answer('Apple TTM revenue H1 2024')).toMatch(/trailing twelve months \(fiscal Q3 2023 to fiscal Q2 2024, ended 2024-03-30\): \*\*\$381,623 million\*\*/);
  });
});

describe('a calendar year summed from fiscal quarters keeps the change and margin asked for', () => {
  async function answerCited(question: string): Promise<{ text: string; orders: number[] }> {
    const events: AsyncIterable<AgentEvent> = answerSecQuestion(lib, parseConversation([{ role: 'user', content: question }], await lib.companyIndex()));
    let text = '';
    const orders: number[] = [];
    for await (const e of events) {
      if (e.type === 'text') text += e.delta;
      if (e.type === 'citation') orders.push(e.citation.order);
    }
    return { text, orders };
  }
  const markers = (text: string) => [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

  it('year over year: the calendar year before, summed the same way, each term cited', async () => {
    const { text, orders } = await answerCited('Microsoft revenue calendar 2024 yoy');
    expect(text).toMatch(/revenue for calendar year 2024 was \*\*\$261,802 million\*\* \(about \$261\.8 billion\) \[1\]\[2\]\[3\]\[4\]/);
    expect(text).toMatch(/- Year over year: calendar year 2023 was \$227,583 million \[5\]\[6\]\[7\]\[8\], the sum of the four fiscal quarters ending in 2023 \(derived as three months ended March 31, 2023 \$52,857 million \(Form 10-Q filed 2023-04-25\) \[5\]/);
    expect(text).toMatch(/change \+\$34,219 million \(\+15\.0%\)/);
    expect(markers(text)).toEqual(orders.sort((a, b) => a - b));
  });

  it('a margin: over the calendar year\'s revenue, and against the year before in points', async () => {
    const { text, orders } = await answerCited('Microsoft gross margin calendar 2024 yoy');
    expect(text).toMatch(/- Gross margin: \*\*69\.4%\*\* of revenue \(calendar year 2024 revenue \$261,802 million, derived as/);
    expect(text).toMatch(/calendar year 2023: 69\.7% \(revenue \$227,583 million, derived as .*\); -0\.3 percentage points\./);
    expect(markers(text)).toEqual(orders.sort((a, b) => a - b));
  });

  it('side by side, the prior calendar year fills the comparison columns', async () => {
    const { text, orders } = await answerCited('Compare Apple and Microsoft revenue for calendar 2024 year over year');
    expect(text).toMatch(/\| Microsoft Corp\. \(MSFT\) \| Revenue \| calendar year 2024 \| \$261,802 million \[\d+\]\[\d+\]\[\d+\]\[\d+\] \(sum of four quarters\) \| calendar year 2023 \| \$227,583 million \[\d+\]\[\d+\]\[\d+\]\[\d+\] \(sum of four quarters\) \| \+\$34,219 million \(\+15\.0%\) \|/);
    expect(markers(text)).toEqual(orders.sort((a, b) => a - b));
  });

  it('a year before the filings is said to be missing', async () => {
    expect((await answerCited('Microsoft revenue calendar 2022 yoy')).text).toMatch(/Year over year: no revenue for calendar year 2021 to compare with, because a fiscal quarter ending in it has no figure in the filings\./);
  });
});

describe("a 52/53-week filer's longer periods", () => {
  it('says a 14-week quarter or a 53-week year holds an extra week, and what that does to a change', async () => {
    // Apple's fiscal 2023 ran 53 weeks (2022-09-25 to 2023-09-30), its Q1 14 (to 2022-12-31).
    expect(await answer('Apple revenue Q1 2023')).toMatch(/- Fiscal Q1 2023 had 14 weeks, one more than usual, which adds to its amounts\./);
    expect(await answer('Apple revenue Q1 2024 year over year')).toMatch(/- Fiscal Q1 2023 had 14 weeks, one more than usual, so the change from it understates the trend by about that week\./);
    expect(await answer('Apple revenue fiscal 2023 year over year')).toMatch(/- Fiscal year 2023 had 53 weeks, one more than usual, which adds to its amounts and to the change against a period of the usual length\./);
    // A calendar year's sum holding that quarter, or compared with one.
    expect(await answer('Apple net income calendar 2023 vs calendar 2022')).toMatch(/- Calendar 2022's quarters include fiscal Q1 2023, of 14 weeks, one more than usual, so the change from it understates the trend by about that week\./);
    // Under a table of several figures or companies too, once per company.
    const table = await answer('Compare Apple and Microsoft revenue growth in fiscal 2024');
    expect(table).toContain('- For Apple, fiscal year 2023 had 53 weeks, one more than usual, so the change from it understates the trend by about that week.');
    expect(table).not.toMatch(/For Microsoft, .*weeks/);
    const two = await answer('Apple revenue and net income FY2023');
    expect(two.match(/For Apple, fiscal year 2023 had 53 weeks, one more than usual, which adds to its amounts\./g)).toHaveLength(1);
    // Periods of the usual length, a balance, and a calendar-year filer: nothing said.
    for (const q of ['Apple revenue Q3 2024 year over year', 'Apple cash Q1 2023', 'Microsoft revenue fiscal 2024']) expect(await answer(q), q).not.toMatch(/weeks, one more than usual/);
  });

  it('a table of periods says which of its columns is a week longer', async () => {
    const asked = 'Apple revenue for the quarters of fiscal 2023';
    const events: AsyncIterable<AgentEvent> = answerTables(lib, parseConversation([{ role: 'user', content: asked }], await lib.companyIndex())!, spanOf(asked)!);
    let text = '';
    for await (const e of events) if (e.type === 'text') text += e.delta;
    expect(text).toContain('Q1 FY2023 had 14 weeks, one more than usual: amounts over it include an extra week, which lifts growth to it and lowers growth from it.');
    // Not a column, but the base of a growth row shown (probe: nothing was said).
    const eight = 'Apple revenue and net income for the last 8 quarters';
    let later = '';
    for await (const e of answerTables(lib, parseConversation([{ role: 'user', content: eight }], await lib.companyIndex())!, spanOf(eight)!)) if (e.type === 'text') later += e.delta;
    expect(later).toContain('Q1 FY2023, not shown, had 14 weeks, one more than usual, which lowers the growth measured from it (Q1 FY2024).');
  });
});
