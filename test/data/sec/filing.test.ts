import { describe, expect, it } from 'vitest';
import type { ReportedFact } from '../../../src/data/sec/facts.js';
import { parseFiling } from '../../../src/data/sec/filing-html.js';
import { ixValue, locateFact } from '../../../src/data/sec/locate.js';
import { pageText } from '../../../src/data/documents/model.js';

const pagesOf = (html: string) => parseFiling(html).pages.map(pageText);

describe('page breaks, as the filing marks them', () => {
  it.each([
    ['<hr style="page-break-after:always"/>', 'Workiva hr separator'],
    ['<hr style="PAGE-BREAK-AFTER:  ALWAYS ;"/>', 'case and spaces'],
    ['<div style="break-after: page"></div>', 'CSS3 break-after'],
    ['<p style="page-break-after: always">Footer 1</p>', 'on an element with content'],
  ])('%s (%s) ends the page', (marker) => {
    expect(pagesOf(`<body><p>One</p>${marker}<p>Two</p></body>`)).toEqual([expect.stringContaining('One'), 'Two']);
  });

  it.each([
    ['<div style="page-break-before:always">Two</div>'],
    ['<div style="Page-Break-Before : Always">Two</div>'],
    ['<div style="break-before:page">Two</div>'],
    ['<div class="BRPFPageBreak"></div><p>Two</p>'],
    ['<div style="height:792pt;position:relative">Page box</div><p>Two</p>'],
  ])('%s starts a new page', (marker) => {
    const pages = pagesOf(`<body><p>One</p>${marker}</body>`);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain('Two');
  });

  it('never makes a blank page: a break at the start, a break after the end, and two breaks at one boundary count once', () => {
    const html = `<body><div style="page-break-before:always">One</div><hr style="page-break-after:always"/><div style="page-break-before:always">Two</div>
      <hr style="page-break-after:always"/><hr style="page-break-after:always"/><p>Three</p><hr style="page-break-after:always"/></body>`;
    expect(pagesOf(html)).toEqual(['One', 'Two', 'Three']);
  });

  it('page n = 1 + the breaks before: counting in document order through nested elements and tables', () => {
    const html = `<body><div><div><span>Cover</span></div><div><hr style="page-break-after:always"></div></div>
      <table><tr><td>Row A</td></tr><tr style="page-break-before:always"><td>Row B</td></tr></table>
      <div style="display:none"><hr style="page-break-after:always"/></div><p>Still B</p></body>`;
    expect(pagesOf(html)).toEqual(['Cover', 'Row A', 'Row B\nStill B']);
  });

  it('skips what is not shown: head, scripts, styles, display:none and ix:header', () => {
    const html = `<html><head><title>doc</title><style>p{}</style></head><body><script>var x = 1</script><div style="display:none"><ix:header>hidden</ix:header></div><p>Shown</p></body></html>`;
    const parsed = parseFiling(html);
    expect(parsed.pages.map(pageText)).toEqual(['Shown']);
    expect(parsed.title).toBe('doc');
  });

  it('reads tables as rows of cells with their spans, and gives each tagged figure its row label', () => {
    const html = `<table><tr><td colspan="3"><div><span>Total net sales</span></div></td><td>$</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="c1" scale="6">85,777</ix:nonFraction></td><td>&#160;</td></tr></table>`;
    const parsed = parseFiling(html);
    expect(parsed.pages[0]!.blocks[0]).toEqual({
      kind: 'table',
      rows: [
        [
          { text: 'Total net sales', colspan: 3, bold: false, align: 'left' },
          { text: '$', colspan: 1, bold: false, align: 'left' },
          { text: '85,777', colspan: 1, bold: false, align: 'left' },
          { text: '', colspan: 1, bold: false, align: 'left' },
        ],
      ],
    });
    expect(parsed.facts[0]).toMatchObject({ text: '85,777', rowLabel: 'Total net sales', page: 1, hidden: false });
  });
});

const CONTEXTS = `<div style="display:none"><ix:header><ix:hidden>
  <ix:nonFraction name="us-gaap:Revenues" contextRef="q3" unitRef="usd" decimals="-6" scale="6">85,777</ix:nonFraction></ix:hidden>
  <ix:resources>
  <xbrli:context id="q3"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2024-03-31</xbrli:startDate><xbrli:endDate>2024-06-29</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="q3-products"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier><xbrli:segment><xbrldi:explicitMember dimension="srt:ProductOrServiceAxis">us-gaap:ProductMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:startDate>2024-03-31</xbrli:startDate><xbrli:endDate>2024-06-29</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="ytd"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-06-29</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="i"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2024-06-29</xbrli:instant></xbrli:period></xbrli:context>
  </ix:resources></ix:header></div>`;

const fact = (over: Partial<ReportedFact>): ReportedFact => ({
  taxonomy: 'us-gaap',
  concept: 'Revenues',
  label: 'Revenues',
  unit: 'USD',
  start: '2024-03-31',
  end: '2024-06-29',
  value: 85_777_000_000,
  accn: '0000000001-24-000001',
  form: '10-Q',
  filed: '2024-08-02',
  ...over,
});

describe('finding the page of a fact', () => {
  // Page 1: the same concept and period, but a product breakdown (dimensional) of the same value.
  // Page 2: the year-to-date figure. Page 3: the face statement. Page 4: MD&A repeats it.
  const html = `<html><body>${CONTEXTS}
    <p>Highlights: products <ix:nonFraction name="us-gaap:Revenues" contextRef="q3-products" unitRef="usd" decimals="-6" scale="6">85,777</ix:nonFraction></p>
    <hr style="page-break-after:always"/>
    <p>Nine months <ix:nonFraction name="us-gaap:Revenues" contextRef="ytd" unitRef="usd" decimals="-6" scale="6">296,105</ix:nonFraction></p>
    <hr style="page-break-after:always"/>
    <table><tr><td>Total net sales</td><td>$</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="q3" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal">85,777</ix:nonFraction></td></tr>
    <tr><td>Other income/(expense), net</td><td>(</td><td><ix:nonFraction name="us-gaap:NonoperatingIncomeExpense" contextRef="q3" unitRef="usd" decimals="-6" scale="6" sign="-">1,234</ix:nonFraction></td><td>)</td></tr>
    <tr><td>Restructuring</td><td><ix:nonFraction name="us-gaap:RestructuringCharges" contextRef="q3" unitRef="usd" decimals="-6" scale="6" format="ixt:fixed-zero">—</ix:nonFraction></td></tr>
    <tr><td>Diluted</td><td>$</td><td><ix:nonFraction name="us-gaap:EarningsPerShareDiluted" contextRef="q3" unitRef="usdPerShare" decimals="2">1.40</ix:nonFraction></td></tr>
    <tr><td>Cash</td><td><ix:nonFraction name="us-gaap:CashAndCashEquivalentsAtCarryingValue" contextRef="i" unitRef="usd" decimals="-6" scale="6">25,565</ix:nonFraction></td></tr></table>
    <hr style="page-break-after:always"/>
    <p>Net sales were $<ix:nonFraction name="us-gaap:Revenues" contextRef="q3" unitRef="usd" decimals="-6" scale="6">85,777</ix:nonFraction> million.</p>
    </body></html>`;
  const parsed = parseFiling(html);

  it('resolves the context period, skips dimensional and hidden facts, and takes the first visible one', () => {
    expect(locateFact(parsed, fact({}))).toEqual({ page: 3, how: 'ixbrl', printed: '85,777', rowLabel: 'Total net sales', scale: 6 });
    expect(locateFact(parsed, fact({ start: '2023-10-01', value: 296_105_000_000 }))?.page).toBe(2);
  });

  it('matches the value within its rounding, applying scale and sign, and a dash for zero', () => {
    expect(locateFact(parsed, fact({ value: 85_777_400_000 }))?.page).toBe(3);
    expect(locateFact(parsed, fact({ value: 85_778_000_000 }))).toBeNull();
    expect(locateFact(parsed, fact({ concept: 'NonoperatingIncomeExpense', value: -1_234_000_000 }))).toMatchObject({ page: 3, how: 'ixbrl' });
    expect(locateFact(parsed, fact({ concept: 'RestructuringCharges', value: 0 }))).toMatchObject({ page: 3, how: 'ixbrl' });
    expect(locateFact(parsed, fact({ concept: 'EarningsPerShareDiluted', unit: 'USD/shares', value: 1.4 }))).toMatchObject({ page: 3, printed: '1.40' });
  });

  it('matches an instant by its date, never a duration', () => {
    expect(locateFact(parsed, fact({ concept: 'CashAndCashEquivalentsAtCarryingValue', start: null, value: 25_565_000_000 }))?.page).toBe(3);
    expect(locateFact(parsed, fact({ concept: 'CashAndCashEquivalentsAtCarryingValue', start: '2024-03-31', value: 25_565_000_000 }))?.how).toBe('printed');
  });

  it('falls back to the printed figure in a filing without inline XBRL', () => {
    const plain = parseFiling(`<html><body><p>Cover 85</p><hr style="page-break-after:always"/><table><tr><td>Net sales</td><td>$ 123,456</td></tr></table></body></html>`);
    expect(locateFact(plain, fact({ value: 123_456_000_000 }))).toEqual({ page: 2, how: 'printed', printed: '123,456', rowLabel: null, scale: null });
    expect(locateFact(plain, fact({ value: 999_000_000 }))).toBeNull();
  });

  it('never cites the cover page for a financial figure, nor a figure of two digits found in the text', () => {
    const plain = parseFiling(
      `<html><body><p>Commission file number 001-36743. 4,321 shares. Fiscal year ended 28</p><hr style="page-break-after:always"/><p>Revenue $ 4,321 million</p><hr style="page-break-after:always"/><p>Note 28</p></body></html>`,
    );
    expect(locateFact(plain, fact({ value: 4_321_000_000 }))).toMatchObject({ page: 2, how: 'printed' });
    expect(locateFact(plain, fact({ taxonomy: 'dei', concept: 'EntityCommonStockSharesOutstanding', unit: 'shares', start: null, value: 4_321 }))).toMatchObject({ page: 1 });
    // "28" is a date on the cover and a note number: not where a $28 figure is shown.
    expect(locateFact(plain, fact({ value: 28 }))).toBeNull();
  });

  it('reads displayed values per format', () => {
    expect(ixValue({ text: '1.234,5', format: 'ixt:num-comma-decimal', scale: 3, sign: 1 })).toBe(1_234_500);
    expect(ixValue({ text: '12,345', format: 'ixt:numdotdecimal', scale: 6, sign: -1 })).toBe(-12_345_000_000);
    expect(ixValue({ text: 'n/a', format: null, scale: 0, sign: 1 })).toBeNull();
  });
});

describe('a break inside a table row', () => {
  it('moves the whole row, and its figures, to the new page', () => {
    const parsed = parseFiling(
      `<p>Intro</p><table><tr><td>A</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="c">10</ix:nonFraction></td><td style="page-break-before:always">B</td></tr><tr><td>C</td></tr></table>`,
    );
    expect(parsed.pages.map(pageText)).toEqual(['Intro', 'A 10 B\nC']);
    expect(parsed.facts[0]!.page).toBe(2);
  });
});
