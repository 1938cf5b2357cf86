import { describe, expect, it } from 'vitest';
import { burnerWorld, citedAfter, expectConsistentCitations } from './burner-world.js';

const ask = burnerWorld();

describe('the fiscal calendar named without a question word', () => {
  it.each([['apple fiscal year'], ["Apple's fiscal year end"], ['AAPL fy end'], ['fiscal calendar for aapl']])('"%s" answers when the fiscal year ends, cited, not key figures', async (q) => {
    const a = await ask('svc-sec-agent', q);
    expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: its fiscal year ends in late September, so it is not the calendar year/);
    expect(a.text).not.toMatch(/Key figures/);
    expectConsistentCitations(a);
  });

  it('of two companies, and through svc-agent', async () => {
    const a = await ask('svc-agent', 'MSFT and googl fiscal year end');
    expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its fiscal year ends on June 30/);
    expect(a.text).toMatch(/\*\*Alphabet Inc\. \(GOOGL\)\*\*: its fiscal year is the calendar year/);
  });

  it('a fiscal year named with its number is still that year\'s figures', async () => {
    const a = await ask('svc-sec-agent', 'apple fiscal year 2024');
    expect(a.text).toMatch(/fiscal year 2024 \(year ended 2024-09-28\) \| \$391,035 million/);
    expect(a.text).not.toMatch(/so it is not the calendar year/);
  });
});

describe('free cash flow by quarter of a company burning cash carries its cash and runway', () => {
  it.each([['EMBR free cash flow by quarter'], ['Ember Biosciences free cash flow for the last 4 quarters'], ['EMBR cash burn each quarter of 2024']])('"%s": a table, then the cash at the last quarter\'s end, cited, and the months of runway', async (q) => {
    const a = await ask('svc-sec-agent', q);
    expect(a.text).toMatch(/\| \*\*Free cash flow\*\* \(\$ million\) \|[^\n]* -47† \| -48† \|/);
    // 420 / (48 / 3) = 26.25; 420 / (182 / 12) = 27.7.
    expect(a.text).toMatch(/\*\*Cash and runway\*\*: cash and cash equivalents at the end of Q4 2024 \(2024-12-31\) were \*\*\$420 million\*\* \[\d+\]; at Q4 2024's burn of \$48 million \(\$16 million a month\) that is a runway of about \*\*26\.3 months\*\*, or about 27\.7 months at the pace of the last four quarters \(\$182 million burned, \$15\.2 million a month\)/);
    expect(citedAfter(a, 'were **$420 million**')).toBe('Ember Biosciences, Inc. Form 10-K, fiscal year ended 2024-12-31, page 4');
    expectConsistentCitations(a);
  });

  it('by fiscal year: at the latest year\'s pace', async () => {
    const a = await ask('svc-sec-agent', 'EMBR free cash flow each year');
    expect(a.text).toMatch(/\| FY2023 \[\d+\] \| FY2024 \[\d+\] \|/);
    expect(a.text).toMatch(/cash and cash equivalents at the end of FY2024 \(2024-12-31\) were \*\*\$420 million\*\* \[\d+\]; at FY2024's burn of \$182 million \(\$15\.2 million a month\) that is a runway of about \*\*27\.7 months\*\*/);
    expectConsistentCitations(a);
  });

  it('through svc-agent too; a company generating cash gets no runway line', async () => {
    const a = await ask('svc-agent', 'EMBR free cash flow by quarter');
    expect(a.text).toMatch(/runway of about \*\*26\.3 months\*\*/);
    const apple = await ask('svc-sec-agent', 'apple free cash flow by quarter');
    expect(apple.text).toMatch(/\| \*\*Free cash flow\*\* \(\$ million\) \|/);
    expect(apple.text).not.toMatch(/runway/i);
  });
});

describe('"by quarter" without a period is a table of the latest quarters, as svc-agent gives it', () => {
  it.each([['apple revenue by quarter'], ['msft free cash flow quarterly'], ['googl net income quarter by quarter']])('"%s"', async (q) => {
    const a = await ask('svc-sec-agent', q);
    expect(a.text).toMatch(/, by fiscal quarter/);
    expect((a.text.match(/^\| \| (.*) \|$/m)?.[1] ?? '').split(' | ')).toHaveLength(8);
    expectConsistentCitations(a);
  });
});

describe('cash burn asked of a company that generates cash', () => {
  it('says it does not burn cash, with the trailing twelve months\' free cash flow, each quarter cited', async () => {
    const a = await ask('svc-sec-agent', "what's apple's cash burn?");
    expect(a.text).toMatch(/^Apple did not burn cash in fiscal Q2 2025 \(quarter ended 2025-03-29\): its free cash flow \(operating cash flow minus capital expenditure\) was \*\*\+\$20,881 million\*\* \[1\]\[2\] \(derived\), cash generated rather than used\./);
    // 26,707 + 23,903 + 26,995 + 20,881.
    expect(a.text).toMatch(/Over the trailing twelve months \(the four quarters to 2025-03-29\) its free cash flow was \*\*\+\$98,486 million\*\* \(derived, the sum of fiscal Q3 2024 \+\$26,707 million \[\d\]\[\d\], fiscal Q4 2024 \+\$23,903 million \[\d\]\[\d\], fiscal Q1 2025 \+\$26,995 million \[\d\], fiscal Q2 2025 \+\$20,881 million \[1\]\[2\]\): it does not burn cash\./);
    expect(citedAfter(a, 'fiscal Q3 2024 +$26,707 million')).toBe('Apple Inc. Form 10-Q, quarter ended 2024-06-29, page 5');
    expectConsistentCitations(a);
  });

  it.each([['is microsoft burning cash?', /^\*\*No\*\*: Microsoft did not burn cash in fiscal Q3 2025 .* Over the trailing twelve months \(the four quarters to 2025-03-31\) its free cash flow was \*\*\+\$[\d,]+ million\*\*/], ['alphabet burn rate', /^Alphabet did not burn cash in Q4 2024 .* Over the trailing twelve months \(the four quarters to 2024-12-31\) its free cash flow was \*\*\+\$[\d,]+ million\*\*/]])('"%s" too', async (q, expected) => {
    const a = await ask('svc-agent', q);
    expect(a.text).toMatch(expected);
    expectConsistentCitations(a);
  });
});

describe('geographic figures the filings data does not hold are said plainly, not answered with the total alone', () => {
  it.each([['how much revenue did microsoft make in China?'], ["what share of apple's sales come from Europe?"], ['googl international revenue'], ['apple sales outside the US']])('"%s"', async (q) => {
    const a = await ask('svc-sec-agent', q);
    expect(a.text).toMatch(/^Breakdowns by segment, product or region are not in the XBRL company facts this service reads/);
    expectConsistentCitations(a);
  });

  it('through svc-agent too; a fiscal year is no place', async () => {
    expect((await ask('svc-agent', 'how much revenue did microsoft make in China?')).text).toMatch(/^Breakdowns by segment, product or region are not in/);
    expect((await ask('svc-sec-agent', 'microsoft revenue in fiscal 2024')).text).not.toMatch(/Breakdowns/);
  });
});

describe('"which quarter was best?" is the highest and lowest of the periods, not the latest figure', () => {
  it.each([
    ['which quarter was best for apple revenue?', /^\*\*Revenue\*\*, highest in \*\*Q1 FY2025\*\* \(\$124,300 million\), lowest in \*\*Q3 FY2023\*\* \(\$81,797 million\), of the 8 shown\./m],
    ['which quarter had the highest revenue in fiscal 2024 for apple?', /^\*\*Revenue\*\*, highest in \*\*Q1 FY2024\*\* \(\$119,575 million\), lowest in \*\*Q3 FY2024\*\* \(\$85,777 million\), of the 4 shown\./m],
    ['best year for msft net income?', /^\*\*Net income\*\*, highest in \*\*FY2024\*\* \(\$88,136 million\)/m],
  ])('"%s"', async (q, expected) => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await ask(model, q);
      expect(a.text).toMatch(expected);
      expectConsistentCitations(a);
    }
  });

  it('after a table of the last 4 quarters: of those four', async () => {
    const a = await ask('svc-sec-agent', 'apple revenue last 4 quarters', 'which quarter was best?');
    expect(a.text).toMatch(/highest in \*\*Q1 FY2025\*\* \(\$124,300 million\), lowest in \*\*Q3 FY2024\*\* \(\$85,777 million\), of the 4 shown\./);
  });
});

describe('"put both in a table" after companies asked one after another', () => {
  it.each([['put both in a table'], ['show them side by side in a table'], ['can you put all of them in a table?']])('"%s": the figures given, one row each, cited', async (form) => {
    const a = await ask('svc-sec-agent', 'apple operating margin last quarter', 'and Microsoft?', form);
    expect(a.text).toMatch(/\| Apple \| Operating margin \| fiscal Q2 2025 \(quarter ended 2025-03-29\) \| 31\.0% \[1\] \|\n\| Microsoft \| Operating margin \| fiscal Q3 2025 \(quarter ended 2025-03-31\) \| 45\.7% \[2\] \|/);
    expect(a.text).not.toMatch(/I do not have a figure called/);
    expectConsistentCitations(a);
  });
});

describe('a flow per share asked over the trailing twelve months is of the four quarters, not the latest one', () => {
  it('"apple free cash flow per share ttm": the four quarters\' free cash flow over the shares at the last one\'s end', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await ask(model, 'apple free cash flow per share ttm');
      // 98,486 / 14,939.315 = 6.59.
      expect(a.text).toMatch(/^- \*\*Apple's free cash flow per share\*\* for fiscal Q3 2024 to Q2 2025 \(twelve months ended 2025-03-29\): \*\*\$6\.59 per share\*\*: free cash flow of \$98,486 million (?:\[\d\])+ \(sum of four quarters\)/);
      expectConsistentCitations(a);
    }
  });

  it('revenue per share TTM too; of a quarter alone it stays the quarter', async () => {
    expect((await ask('svc-sec-agent', 'msft revenue per share ttm')).text).toMatch(/^- \*\*Microsoft's revenue per share\*\* for fiscal Q4 2024 to Q3 2025 \(twelve months ended 2025-03-31\): \*\*\$36\.32 per share\*\*/);
    expect((await ask('svc-sec-agent', 'apple free cash flow per share Q2 2025')).text).toMatch(/^- \*\*Apple's free cash flow per share\*\* for fiscal Q2 2025 \(quarter ended 2025-03-29\): \*\*\$1\.40 per share\*\*/);
  });
});

describe('several figures a company\'s data lacks are said in one note', () => {
  it('"buybacks and dividends": one note naming both, the figures it has listed once', async () => {
    const a = await ask('svc-sec-agent', 'how much did apple spend on buybacks and dividends last year?');
    // (Live, as this loopback EDGAR is: what the company reports; a snapshot says what it recorded.)
    expect(a.text).toContain('- Apple Inc. (AAPL) does not report share repurchases or dividends paid in its XBRL financial data, so I cannot give those figures. Figures I can give for Apple: revenue,');
    expect(a.text.match(/Figures I can give for Apple/g)).toHaveLength(1);
    const one = await ask('svc-sec-agent', 'apple revenue and dividends paid fy2024');
    expect(one.text).toContain('- Apple Inc. (AAPL) does not report dividends paid in its XBRL financial data, so I cannot give that figure.');
  });
});

describe('"and msft?" after "apple fiscal year"', () => {
  it('is Microsoft\'s fiscal calendar too, through both models', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await ask(model, 'apple fiscal year', 'and msft?');
      expect(a.text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: its fiscal year ends on June 30/);
      expectConsistentCitations(a);
    }
    // A figure asked after it is that figure, not the calendar.
    expect((await ask('svc-sec-agent', 'apple fiscal year', 'msft revenue')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q3 2025/);
  });
});

describe('"what about last year?" after a fiscal year named', () => {
  it('is the year before it, and "what was the growth?" next is between the two', async () => {
    for (const model of ['svc-sec-agent', 'svc-agent']) {
      const a = await ask(model, 'Apple revenue FY2024', 'what about last year?');
      expect(a.text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2023 \(year ended 2023-09-30\) was \*\*\$383,285 million\*\*/);
    }
    const change = await ask('svc-sec-agent', 'Apple revenue FY2024', 'what about last year?', 'what was the change?');
    expect(change.text).toMatch(/\+\$7,750 million \(\+2\.0%\)/);
    // After the latest quarter, "last year" is the latest fiscal year.
    expect((await ask('svc-sec-agent', 'Apple revenue', 'what about last year?')).text).toMatch(/^\*\*Apple Inc\. \(AAPL\)\*\*: revenue for fiscal year 2024 \(year ended 2024-09-28\)/);
  });
});

describe('"and microsoft?" after a table by quarter', () => {
  it('is the same table of that company', async () => {
    const a = await ask('svc-sec-agent', 'apple revenue by quarter', 'and microsoft?');
    expect(a.text).toMatch(/^### Microsoft Corp\. \(MSFT\), by fiscal quarter/);
    expect((a.text.match(/^\| \| (.*) \|$/m)?.[1] ?? '').split(' | ')).toHaveLength(8);
    // A period named next is that period.
    expect((await ask('svc-sec-agent', 'apple revenue by quarter', 'msft revenue Q2 2025')).text).toMatch(/^\*\*Microsoft Corp\. \(MSFT\)\*\*: revenue for fiscal Q2 2025/);
  });
});
