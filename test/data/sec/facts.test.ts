import { describe, expect, it } from 'vitest';
import { FiscalCalendar } from '../../../src/data/sec/calendar.js';
import { CompanyFinancials, chooseRow } from '../../../src/data/sec/facts.js';
import type { CompanyFactsFile, FactRow } from '../../../src/data/sec/types.js';
import { APPLE, companyFactsFile } from '../../fixtures/sec-world.js';

type Row = Partial<FactRow> & { end: string; val: number };
const row = (r: Row): FactRow => ({ accn: '0000000001-24-000001', form: '10-Q', filed: '2024-08-01', fy: 2024, fp: 'Q3', ...r });

function facts(concepts: Record<string, Record<string, Row[]>>, taxonomy = 'us-gaap'): CompanyFactsFile {
  const out: CompanyFactsFile = { cik: 1, entityName: 'Example Widgets, Inc.', facts: { [taxonomy]: {} } };
  for (const [name, units] of Object.entries(concepts)) {
    const [tax, concept] = name.includes(':') ? name.split(':') : [taxonomy, name];
    out.facts[tax!] ??= {};
    out.facts[tax!]![concept!] = { label: concept, units: Object.fromEntries(Object.entries(units).map(([u, rows]) => [u, rows.map(row)])) };
  }
  return out;
}

/** A calendar-year filer: FY2023 (10-K), 2024 Q1-Q3 (10-Qs, with year-to-date rows), FY2024 (10-K). */
const K24 = { accn: '0000000001-25-000010', form: '10-K', filed: '2025-02-20', fy: 2024, fp: 'FY' };
const Q3 = { accn: '0000000001-24-000030', form: '10-Q', filed: '2024-10-30', fy: 2024, fp: 'Q3' };
const Q2 = { accn: '0000000001-24-000020', form: '10-Q', filed: '2024-07-30', fy: 2024, fp: 'Q2' };
const Q1 = { accn: '0000000001-24-000010', form: '10-Q', filed: '2024-04-30', fy: 2024, fp: 'Q1' };
const revenueRows: Row[] = [
  { start: '2023-01-01', end: '2023-12-31', val: 8_410, ...K24 },
  { start: '2024-01-01', end: '2024-03-31', val: 2_000, ...Q1 },
  { start: '2024-04-01', end: '2024-06-30', val: 2_100, ...Q2 },
  { start: '2024-01-01', end: '2024-06-30', val: 4_100, ...Q2 },
  { start: '2024-07-01', end: '2024-09-30', val: 2_305, ...Q3 },
  { start: '2024-01-01', end: '2024-09-30', val: 6_405, ...Q3 },
  { start: '2024-01-01', end: '2024-12-31', val: 9_180, ...K24 },
];

describe('fiscal calendars, from start and end dates', () => {
  it('projects a 52/53-week year a whole number of weeks on, nearest the stated year end; a calendar year to the same date', () => {
    // Apple: years ending 2022-09-24, 2023-09-30, 2024-09-28 (364 and 371 days apart), then a quarter of fiscal 2025.
    const K = (fy: number, start: string, end: string, val: number) => ({ start, end, val, accn: `0000000001-${fy - 2000 + 1}-000010`, form: '10-K', filed: `${fy}-11-01`, fy, fp: 'FY' });
    const weekly = facts({
      Revenues: {
        USD: [
          K(2022, '2021-09-26', '2022-09-24', 1),
          K(2023, '2022-09-25', '2023-09-30', 1),
          K(2024, '2023-10-01', '2024-09-28', 1),
          { start: '2024-09-29', end: '2024-12-28', val: 1, accn: '0000000001-25-000001', form: '10-Q', filed: '2025-01-31', fy: 2025, fp: 'Q1' },
        ],
      },
    });
    expect(FiscalCalendar.fromFacts(weekly, '0927').years.at(-1)).toMatchObject({ fy: 2025, start: '2024-09-29', end: '2025-09-27', projected: true });
    expect(FiscalCalendar.fromFacts(weekly).years.at(-1)).toMatchObject({ fy: 2025, end: '2025-09-27' });
    const calendar = FiscalCalendar.fromFacts(facts({ Revenues: { USD: [...revenueRows, { start: '2025-01-01', end: '2025-03-31', val: 1, accn: '0000000001-25-000030', form: '10-Q', filed: '2025-04-30', fy: 2025, fp: 'Q1' }] } }), '1231');
    expect(calendar.years.at(-1)).toMatchObject({ fy: 2025, end: '2025-12-31' });
  });

  it('labels years the way the company does (the fy of the annual report whose own period it is), not by a row\'s fy', () => {
    const cal = FiscalCalendar.fromFacts(facts({ Revenues: { USD: revenueRows } }));
    expect(cal.years.map((y) => [y.fy, y.start, y.end])).toEqual([
      [2023, '2023-01-01', '2023-12-31'],
      [2024, '2024-01-01', '2024-12-31'],
    ]);
    expect(cal.quarters.map((q) => `${q.fy}Q${q.q} ${q.start}..${q.end}`)).toEqual([
      '2024Q1 2024-01-01..2024-03-31',
      '2024Q2 2024-04-01..2024-06-30',
      '2024Q3 2024-07-01..2024-09-30',
      '2024Q4 2024-10-01..2024-12-31',
    ]);
    expect(cal.isCalendarYear).toBe(true);
  });

  it('handles a 52/53-week year ending in late September (Apple) and a June year (Microsoft)', () => {
    const apple = new CompanyFinancials(companyFactsFile(APPLE), '0927').calendar;
    expect(apple.year(2024)).toMatchObject({ start: '2023-10-01', end: '2024-09-28' });
    expect(apple.quarter(2024, 3)).toMatchObject({ start: '2024-03-31', end: '2024-06-29' });
    expect(apple.quarter(2025, 2)).toMatchObject({ start: '2024-12-29', end: '2025-03-29' });
    expect(apple.describeYearEnd()).toBe('in late September');
    expect(apple.isCalendarYear).toBe(false);
  });

  it('names a year ending in late January for the year it ends in, and projects the year in progress', () => {
    const K = { form: '10-K', fp: 'FY', accn: '0001045810-25-000023', filed: '2025-02-26', fy: 2025 };
    const Q = { form: '10-Q', fp: 'Q1', accn: '0001045810-25-000116', filed: '2025-05-28', fy: 2026 };
    const cal = FiscalCalendar.fromFacts(
      facts({
        Revenues: {
          USD: [
            { start: '2024-01-29', end: '2025-01-26', val: 130_497, ...K },
            { start: '2023-01-30', end: '2024-01-28', val: 60_922, ...K },
            { start: '2025-01-27', end: '2025-04-27', val: 44_062, ...Q },
          ],
        },
      }),
      '0126',
    );
    expect(cal.year(2025)).toMatchObject({ start: '2024-01-29', end: '2025-01-26' });
    expect(cal.year(2024)).toMatchObject({ end: '2024-01-28' });
    expect(cal.quarters.find((q) => q.end === '2025-04-27')).toMatchObject({ fy: 2026, q: 1 });
  });
});

describe('figures per period (the traps)', () => {
  it('takes single quarters by duration, never a year-to-date row; a comparative\'s fy/fp does not move its period', () => {
    const comparative = { start: '2023-07-01', end: '2023-09-30', val: 1_900, ...Q3 }; // filed in 2024 with fy 2024, fp Q3
    const fin = new CompanyFinancials(facts({ Revenues: { USD: [...revenueRows, comparative, { start: '2023-01-01', end: '2023-09-30', val: 6_000, ...Q3 }] } }));
    expect(fin.value('revenue', fin.calendar.quarter(2024, 3)!)?.value).toBe(2_305);
    expect(fin.value('revenue', fin.calendar.quarter(2024, 2)!)?.value).toBe(2_100);
    expect(fin.calendar.quarter(2023, 3)).toMatchObject({ start: '2023-07-01', end: '2023-09-30' });
    expect(fin.value('revenue', fin.calendar.quarter(2023, 3)!)?.value).toBe(1_900);
  });

  it('derives Q4 as the fiscal year minus the nine months, naming both facts', () => {
    const fin = new CompanyFinancials(facts({ Revenues: { USD: revenueRows } }));
    const q4 = fin.value('revenue', fin.calendar.quarter(2024, 4)!)!;
    expect(q4.value).toBe(9_180 - 6_405);
    expect(q4.derivation).toBe('fiscal year 2024 minus nine months ended September 30, 2024');
    expect(q4.terms.map((t) => [t.sign, t.fact.value, t.fact.form])).toEqual([
      [1, 9_180, '10-K'],
      [-1, 6_405, '10-Q'],
    ]);
  });

  it('derives Q4 from one concept when one has both facts, never a total of one concept less a part of another', () => {
    const RFC = 'RevenueFromContractWithCustomerExcludingAssessedTax';
    const fin = new CompanyFinancials(
      facts({
        // The 10-K tags the total with another interest line as Revenues; the 10-Qs tag contract revenue only.
        Revenues: { USD: [{ start: '2024-01-01', end: '2024-12-31', val: 10_000, ...K24 }] },
        [RFC]: {
          USD: [
            { start: '2024-01-01', end: '2024-12-31', val: 9_000, ...K24 },
            { start: '2024-07-01', end: '2024-09-30', val: 2_200, ...Q3 },
            { start: '2024-01-01', end: '2024-09-30', val: 6_500, ...Q3 },
          ],
        },
      }),
    );
    const q4 = fin.value('revenue', fin.calendar.quarter(2024, 4)!)!;
    expect(q4.value).toBe(2_500);
    expect(q4.terms.map((t) => t.fact.concept)).toEqual([RFC, RFC]);
    // The year alone is still the largest total.
    expect(fin.value('revenue', fin.calendar.year(2024)!)?.value).toBe(10_000);
  });

  it('takes an instant Q4 as the fiscal-year-end balance', () => {
    const fin = new CompanyFinancials(facts({ Revenues: { USD: revenueRows }, Assets: { USD: [{ end: '2024-12-31', val: 15_902, ...K24 }] } }));
    const q4 = fin.value('totalAssets', fin.calendar.quarter(2024, 4)!)!;
    expect(q4).toMatchObject({ value: 15_902, derivation: null });
  });

  it('of duplicates keeps the original filing, a restated later figure, or an amendment', () => {
    const original = row({ start: '2024-01-01', end: '2024-03-31', val: 2_000, ...Q1 });
    const sameLater = row({ start: '2024-01-01', end: '2024-03-31', val: 2_000, accn: '0000000001-25-000020', filed: '2025-04-30', fy: 2025, fp: 'Q1' });
    expect(chooseRow([sameLater, original])).toEqual({ row: original, restatedFrom: null });
    const restated = { ...sameLater, val: 1_950 };
    expect(chooseRow([original, restated])).toEqual({ row: restated, restatedFrom: original });
    const amendment = row({ start: '2024-01-01', end: '2024-03-31', val: 2_000, accn: '0000000001-24-000015', form: '10-Q/A', filed: '2024-06-01' });
    expect(chooseRow([original, amendment]).row).toBe(amendment);
  });

  it('takes the latest filed figure, amendment or not: a later 10-K wins over an earlier 10-K/A', () => {
    const FY23 = { start: '2022-09-25', end: '2023-09-30', fy: 2023, fp: 'FY' };
    const k23 = row({ ...FY23, val: 383_285, form: '10-K', accn: '0000320193-23-000106', filed: '2023-11-03' });
    const amended = row({ ...FY23, val: 383_000, form: '10-K/A', accn: '0000320193-24-000010', filed: '2024-02-15' });
    const k24 = row({ ...FY23, val: 383_285, form: '10-K', accn: '0000320193-24-000123', filed: '2024-11-01', fy: 2024 });
    expect(chooseRow([k24, amended, k23])).toEqual({ row: k24, restatedFrom: null });

    const net23 = row({ ...FY23, val: 96_995, form: '10-K', accn: '0000320193-23-000106', filed: '2023-11-03' });
    const netAmended = row({ ...FY23, val: 96_995, form: '10-K/A', accn: '0000320193-24-000010', filed: '2024-02-15' });
    const net24 = row({ ...FY23, val: 96_000, form: '10-K', accn: '0000320193-24-000123', filed: '2024-11-01', fy: 2024 });
    expect(chooseRow([net23, netAmended, net24])).toEqual({ row: net24, restatedFrom: net23 });

    // Through CompanyFinancials: the value, its filing, and the note's source.
    const fin = new CompanyFinancials(facts({ Revenues: { USD: [k23, amended, k24] }, NetIncomeLoss: { USD: [net23, netAmended, net24] } }));
    const year = fin.calendar.year(2023)!;
    expect(fin.value('revenue', year)).toMatchObject({ value: 383_285, terms: [{ fact: { form: '10-K', filed: '2024-11-01' } }], restatedFrom: null });
    expect(fin.value('netIncome', year)).toMatchObject({ value: 96_000, terms: [{ fact: { form: '10-K', filed: '2024-11-01' } }], restatedFrom: { value: 96_995, form: '10-K', filed: '2023-11-03' } });
  });

  it('carries a restatement into what is derived from it: Q4, and a sum of quarters, with what the figures as first reported gave', () => {
    // The next year's 10-K restates fiscal 2024 from 9,180 to 9,240; the nine months stay as filed.
    const K25 = { accn: '0000000001-26-000010', form: '10-K', filed: '2026-02-20', fy: 2025, fp: 'FY' };
    const fin = new CompanyFinancials(facts({ Revenues: { USD: [...revenueRows, { start: '2024-01-01', end: '2024-12-31', val: 9_240, ...K25 }] } }));
    expect(fin.value('revenue', fin.calendar.year(2024)!)).toMatchObject({ value: 9_240, restatedFrom: { value: 9_180, form: '10-K', filed: '2025-02-20' } });
    // The whole restatement lands in Q4 (9,240 − 6,405); as first reported Q4 was 2,775.
    expect(fin.value('revenue', fin.calendar.quarter(2024, 4)!)).toMatchObject({ value: 2_835, restatedFrom: { value: 2_775, form: '10-K', filed: '2025-02-20' } });
    // The second half, filed as no period of its own: Q3 as filed plus that Q4.
    const second = fin.value('revenue', fin.calendar.span(fin.calendar.quarter(2024, 4)!, 2)!);
    expect(second).toMatchObject({ value: 5_140, derivation: 'the sum of its two quarters', restatedFrom: { value: 5_080, form: '10-K', filed: '2025-02-20' } });
    // Nothing restated, nothing said.
    expect(fin.value('revenue', fin.calendar.quarter(2024, 3)!)!.restatedFrom).toBeNull();
  });

  it('merges concept synonyms per period (the 2018 move from SalesRevenueNet) and prefers the top-line total', () => {
    const fin = new CompanyFinancials(
      facts({
        SalesRevenueNet: { USD: [{ start: '2017-01-01', end: '2017-12-31', val: 700, ...K24, fy: 2017, accn: '0000000001-18-000001', filed: '2018-02-20' }] },
        Revenues: { USD: [...revenueRows, { start: '2024-07-01', end: '2024-09-30', val: 2_400, ...Q3 }].filter((r) => !(r.end === '2024-09-30' && r.val === 2_305)) },
        RevenueFromContractWithCustomerExcludingAssessedTax: { USD: [{ start: '2024-07-01', end: '2024-09-30', val: 2_305, ...Q3 }] },
      }),
    );
    expect(fin.value('revenue', fin.calendar.year(2017)!)?.terms[0]!.fact.concept).toBe('SalesRevenueNet');
    expect(fin.value('revenue', fin.calendar.quarter(2024, 3)!)).toMatchObject({ value: 2_400, terms: [{ fact: { concept: 'Revenues' } }] });
  });

  it('keeps EPS in USD/shares and never mixes units; a foreign filer is read in its currency', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        EarningsPerShareDiluted: { 'USD/shares': [{ start: '2024-07-01', end: '2024-09-30', val: 0.71, ...Q3 }] },
      }),
    );
    expect(fin.value('dilutedEps', fin.calendar.quarter(2024, 3)!)).toMatchObject({ unit: 'USD/shares', value: 0.71 });
    const eur = new CompanyFinancials(facts({ Revenue: { EUR: [{ start: '2024-01-01', end: '2024-12-31', val: 5_000, ...K24, form: '20-F' }] } }, 'ifrs-full'));
    expect(eur.unitOf('revenue')).toBe('EUR');
    expect(eur.value('revenue', eur.calendar.year(2024)!)?.value).toBe(5_000);
  });

  it('uses the cover-page share count only as a fallback, dated as it is', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        'dei:EntityCommonStockSharesOutstanding': { shares: [{ end: '2024-10-25', val: 412_336_081, ...Q3 }] },
      }),
    );
    expect(fin.value('sharesOutstanding', fin.calendar.quarter(2024, 3)!)).toMatchObject({ value: 412_336_081, asOf: '2024-10-25' });
  });

  it('derives total liabilities from liabilities and equity minus equity, and never substitutes pre-tax income for operating income', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        LiabilitiesAndStockholdersEquity: { USD: [{ end: '2024-09-30', val: 1_000, ...Q3 }] },
        StockholdersEquity: { USD: [{ end: '2024-09-30', val: 400, ...Q3 }] },
        IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest: { USD: [{ start: '2024-07-01', end: '2024-09-30', val: 300, ...Q3 }] },
      }),
    );
    const q3 = fin.calendar.quarter(2024, 3)!;
    expect(fin.value('totalLiabilities', q3)).toMatchObject({ value: 600, derivation: "total liabilities and shareholders' equity minus total equity" });
    expect(fin.value('operatingIncome', q3)).toBeNull();
    expect(fin.reports('operatingIncome')).toBe(false);
  });

  it('reads inventory, dividends declared per share and share repurchases from their us-gaap concepts, with fallbacks', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        InventoryNet: { USD: [{ end: '2024-09-30', val: 6_165, ...Q3 }] },
        CommonStockDividendsPerShareDeclared: { 'USD/shares': [{ start: '2024-07-01', end: '2024-09-30', val: 0.25, ...Q3 }] },
        CommonStockDividendsPerShareCashPaid: { 'USD/shares': [{ start: '2024-07-01', end: '2024-09-30', val: 0.24, ...Q3 }, { start: '2024-04-01', end: '2024-06-30', val: 0.24, ...Q2 }] },
        PaymentsForRepurchaseOfCommonStock: { USD: [{ start: '2024-01-01', end: '2024-06-30', val: 40, ...Q2 }, { start: '2024-01-01', end: '2024-09-30', val: 70, ...Q3 }] },
      }),
    );
    const q3 = fin.calendar.quarter(2024, 3)!;
    expect(fin.value('inventory', q3)).toMatchObject({ value: 6_165, terms: [{ fact: { concept: 'InventoryNet' } }] });
    expect(fin.value('dividendsPerShare', q3)).toMatchObject({ unit: 'USD/shares', value: 0.25, terms: [{ fact: { concept: 'CommonStockDividendsPerShareDeclared' } }] });
    expect(fin.value('dividendsPerShare', fin.calendar.quarter(2024, 2)!)).toMatchObject({ value: 0.24, terms: [{ fact: { concept: 'CommonStockDividendsPerShareCashPaid' } }] });
    expect(fin.value('shareRepurchases', q3)).toMatchObject({ value: 30, derivation: 'nine months ended September 30, 2024 minus six months ended June 30, 2024' });
    expect(fin.value('shareRepurchases', q3)!.terms.map((t) => t.fact.concept)).toEqual(['PaymentsForRepurchaseOfCommonStock', 'PaymentsForRepurchaseOfCommonStock']);
  });

  it('never derives a quarter of an average share count by subtraction', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        WeightedAverageNumberOfDilutedSharesOutstanding: { shares: [{ start: '2024-01-01', end: '2024-12-31', val: 1_000, ...K24 }, { start: '2024-01-01', end: '2024-09-30', val: 1_010, ...Q3 }] },
      }),
    );
    expect(fin.value('dilutedShares', fin.calendar.year(2024)!)?.value).toBe(1_000);
    expect(fin.value('dilutedShares', fin.calendar.quarter(2024, 4)!)).toBeNull();
  });

  it('gives quarters taken together as filed year to date, or else as the sum of their quarters', () => {
    const fin = new CompanyFinancials(
      facts({
        Revenues: { USD: revenueRows },
        WeightedAverageNumberOfDilutedSharesOutstanding: { shares: [{ start: '2024-01-01', end: '2024-06-30', val: 1_005, ...Q2 }, { start: '2024-07-01', end: '2024-09-30', val: 990, ...Q3 }] },
      }),
    );
    const cal = fin.calendar;
    const h1 = cal.span(cal.quarter(2024, 2)!, 2)!;
    expect(h1).toEqual({ kind: 'span', fy: 2024, q: 2, quarters: 2, start: '2024-01-01', end: '2024-06-30' });
    // Filed as such in the Q2 10-Q: cited as it is, not added up.
    expect(fin.value('revenue', h1)).toMatchObject({ value: 4_100, derivation: null, terms: [{ role: 'six months ended June 30, 2024', fact: { form: '10-Q', start: '2024-01-01' } }] });
    expect(fin.value('revenue', cal.span(cal.quarter(2024, 3)!, 3)!)).toMatchObject({ value: 6_405, derivation: null });
    // The second half is filed nowhere: Q3, plus Q4 (the year less nine months).
    const h2 = cal.span(cal.quarter(2024, 4)!, 2)!;
    expect(h2).toMatchObject({ start: '2024-07-01', end: '2024-12-31' });
    const second = fin.value('revenue', h2)!;
    expect(second.value).toBe(2_305 + (9_180 - 6_405));
    expect(second.derivation).toBe('the sum of its two quarters');
    expect(second.terms.map((t) => [t.sign, t.fact.value])).toEqual([
      [1, 2_305],
      [1, 9_180],
      [-1, 6_405],
    ]);
    // An average share count is never added up.
    expect(fin.value('dilutedShares', h1)?.value).toBe(1_005);
    expect(fin.value('dilutedShares', h2)).toBeNull();
    // A span whose quarters the filings lack is none.
    expect(cal.span(cal.quarter(2024, 1)!, 3)).toBeNull();
  });

  it('lists a metric per quarter and finds the latest', () => {
    const fin = new CompanyFinancials(facts({ Revenues: { USD: revenueRows } }));
    expect(fin.series('revenue', 'quarter').map((v) => v.value)).toEqual([2_000, 2_100, 2_305, 2_775]);
    expect(fin.latest('revenue', 'year')?.period.fy).toBe(2024);
  });

  it('ignores rows with malformed dates or values instead of failing', () => {
    const fin = new CompanyFinancials(facts({ Revenues: { USD: [...revenueRows, { start: '2024-13-01', end: '2024-14-45', val: 1, ...Q3 }, { start: '2024-07-01', end: 'soon', val: 2, ...Q3 }, { end: '2024-09-30', val: 'x' as never, ...Q3 }] } }));
    expect(fin.value('revenue', fin.calendar.quarter(2024, 3)!)?.value).toBe(2_305);
    expect(fin.calendar.years.map((y) => y.fy)).toEqual([2023, 2024]);
  });
});
