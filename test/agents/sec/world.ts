import { DEMO_WORLD, type CompanySpec, type LineSpec, type SecWorld } from '../../fixtures/sec-world.js';

const line = (id: string, concept: string, label: string, kind: LineSpec['kind'] = 'flow'): LineSpec => ({
  id,
  concept,
  label,
  kind,
  statement: kind === 'instant' ? 'balance' : kind === 'ytd' ? 'cash' : 'income',
  scale: kind === 'eps' ? 0 : 6,
  unit: kind === 'eps' ? 'USD/shares' : 'USD',
});

/** A calendar-year filer whose Q1 2024 revenue was amended by a 10-Q/A, and whose 10-K document EDGAR cannot serve. */
export const AMENDED: CompanySpec = {
  cik: 1999001,
  tickers: ['AMND'],
  title: 'AMENDED WIDGETS INC',
  fiscalYearEnd: '1231',
  docPrefix: 'amnd',
  breaks: 'hr-after',
  lines: [
    line('revenue', 'Revenues', 'Revenues'),
    line('net', 'NetIncomeLoss', 'Net income'),
    line('dps', 'CommonStockDividendsPerShareDeclared', 'Dividends declared per share', 'eps'),
    line('inventory', 'InventoryNet', 'Inventories', 'instant'),
    line('buybacks', 'PaymentsForRepurchaseOfCommonStock', 'Repurchases of common stock', 'ytd'),
  ],
  years: [
    {
      fy: 2023,
      start: '2023-01-01',
      end: '2023-12-31',
      quarterEnds: ['2023-03-31', '2023-06-30', '2023-09-30'],
      values: { revenue: [100, 110, 120, 460], net: [10, 11, 12, 46], dps: [0.25, 0.25, 0.25, 1], inventory: [null, null, null, 40], buybacks: [5, 11, 18, 25] },
    },
    {
      fy: 2024,
      start: '2024-01-01',
      end: '2024-12-31',
      quarterEnds: ['2024-03-31', '2024-06-30', '2024-09-30'],
      filings: {
        q1: { accn: '0001999001-24-000010', filed: '2024-05-01' },
        q2: { accn: '0001999001-24-000020', filed: '2024-08-01' },
        q3: { accn: '0001999001-24-000030', filed: '2024-11-01' },
        k: { accn: '0001999001-25-000005', filed: '2025-02-20' },
      },
      values: { revenue: [130, 140, 150, 590], net: [13, 14, 15, 60], dps: [0.26, 0.26, 0.26, 1.04], inventory: [42, 44, 45, 47], buybacks: [6, 13, 20, 28] },
    },
  ],
  restatements: [
    {
      filing: { accn: '0001999001-24-000015', filed: '2024-06-15', form: '10-Q/A', reportDate: '2024-03-31', fy: 2024, fp: 'Q1' },
      line: 'revenue',
      start: '2024-01-01',
      end: '2024-03-31',
      value: 128,
    },
  ],
  missingDocuments: ['0001999001-25-000005'],
};

/**
 * A calendar-year filer with taxes and dividends, and shareholders' equity that turns negative in
 * 2024: every kind of ratio, and the ones that mean nothing.
 */
export const RATIOED: CompanySpec = {
  cik: 1999003,
  tickers: ['RTIO'],
  title: 'RATIO HOLDINGS CORP',
  fiscalYearEnd: '1231',
  docPrefix: 'rtio',
  breaks: 'hr-after',
  lines: [
    line('revenue', 'Revenues', 'Revenues'),
    line('pretax', 'IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest', 'Income before income taxes'),
    line('tax', 'IncomeTaxExpenseBenefit', 'Provision for income taxes'),
    line('net', 'NetIncomeLoss', 'Net income'),
    line('dividends', 'PaymentsOfDividends', 'Dividends paid', 'ytd'),
    line('buybacks', 'PaymentsForRepurchaseOfCommonStock', 'Repurchases of common stock', 'ytd'),
    line('equity', 'StockholdersEquity', "Total stockholders' equity", 'instant'),
  ],
  years: [
    {
      fy: 2023,
      start: '2023-01-01',
      end: '2023-12-31',
      quarterEnds: ['2023-03-31', '2023-06-30', '2023-09-30'],
      filings: {
        q1: { accn: '0001999003-23-000010', filed: '2023-05-01' },
        q2: { accn: '0001999003-23-000020', filed: '2023-08-01' },
        q3: { accn: '0001999003-23-000030', filed: '2023-11-01' },
        k: { accn: '0001999003-24-000005', filed: '2024-02-20' },
      },
      values: { revenue: [100, 100, 100, 400], pretax: [20, 20, 20, 80], tax: [4, 4, 4, 16], net: [16, 16, 16, 64], dividends: [8, 16, 24, 32], buybacks: [1, 2, 3, 4], equity: [50, 40, 30, 20] },
    },
    {
      fy: 2024,
      start: '2024-01-01',
      end: '2024-12-31',
      quarterEnds: ['2024-03-31', '2024-06-30', '2024-09-30'],
      filings: {
        q1: { accn: '0001999003-24-000010', filed: '2024-05-01' },
        q2: { accn: '0001999003-24-000020', filed: '2024-08-01' },
        q3: { accn: '0001999003-24-000030', filed: '2024-11-01' },
        k: { accn: '0001999003-25-000005', filed: '2025-02-20' },
      },
      values: { revenue: [100, 100, 100, 400], pretax: [25, 25, 25, 100], tax: [5, 5, 5, 21], net: [20, 20, 20, 79], dividends: [10, 20, 30, 40], buybacks: [5, 10, 15, 20], equity: [-10, -20, -30, -40] },
    },
  ],
};

/** A filer in EDGAR with no XBRL financial data. */
export const NO_FACTS: CompanySpec = {
  cik: 1999002,
  tickers: ['NOXB'],
  title: 'Paperwork Holdings Inc.',
  fiscalYearEnd: '1231',
  docPrefix: 'noxb',
  breaks: 'hr-after',
  lines: [],
  years: [],
  noFacts: true,
};

export const TEST_WORLD: SecWorld = { companies: [...DEMO_WORLD.companies, AMENDED, RATIOED, NO_FACTS], otherTickers: DEMO_WORLD.otherTickers };

export const SEC_ENV = (url: string) => ({ SVC_SEC_API_URL: url, SVC_SEC_WWW_URL: url, SVC_SEC_USER_AGENT: 'svc tests ops@example.com' });
