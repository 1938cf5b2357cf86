import type { CompanySpec, LineSpec } from '../../fixtures/sec-world.js';

const line = (id: string, concept: string, label: string, kind: LineSpec['kind'], extra: Partial<LineSpec> = {}): LineSpec => ({
  id,
  concept,
  label,
  kind,
  statement: kind === 'instant' ? 'balance' : kind === 'ytd' ? 'cash' : 'income',
  scale: 6,
  unit: 'USD',
  ...extra,
});

/**
 * A calendar-year filer that burns cash: operating cash flow below zero every quarter, capex on
 * top, a cash balance falling from a raise. Quarterly free cash flow in 2024: -43, -44, -47, -48
 * (millions; operating cash flow -40, -42, -44, -46 less capex 3, 2, 3, 2); cash 420 at 2024-12-31.
 */
export const BURNER: CompanySpec = {
  cik: 1999007,
  tickers: ['EMBR'],
  title: 'Ember Biosciences, Inc.',
  fiscalYearEnd: '1231',
  docPrefix: 'embr',
  breaks: 'hr-after',
  sic: '2836',
  sicDescription: 'Biological Products, (No Diagnostic Substances)',
  lines: [
    line('revenue', 'Revenues', 'Total revenues', 'flow', { total: true }),
    line('net', 'NetIncomeLoss', 'Net loss', 'flow', { total: true }),
    line('cash', 'CashAndCashEquivalentsAtCarryingValue', 'Cash and cash equivalents', 'instant'),
    line('assets', 'Assets', 'Total assets', 'instant', { total: true }),
    line('liabilities', 'Liabilities', 'Total liabilities', 'instant', { total: true }),
    line('equity', 'StockholdersEquity', "Total stockholders' equity", 'instant', { total: true }),
    line('ocf', 'NetCashProvidedByUsedInOperatingActivities', 'Net cash used in operating activities', 'ytd', { total: true }),
    line('capex', 'PaymentsToAcquirePropertyPlantAndEquipment', 'Purchases of property and equipment', 'ytd', { parentheses: true }),
  ],
  years: [
    {
      fy: 2023,
      start: '2023-01-01',
      end: '2023-12-31',
      quarterEnds: ['2023-03-31', '2023-06-30', '2023-09-30'],
      filings: {
        q1: { accn: '0001999007-23-000010', filed: '2023-05-08' },
        q2: { accn: '0001999007-23-000020', filed: '2023-08-07' },
        q3: { accn: '0001999007-23-000030', filed: '2023-11-06' },
        k: { accn: '0001999007-24-000005', filed: '2024-02-27' },
      },
      values: {
        revenue: [10, 12, 14, 52],
        net: [-40, -42, -45, -173],
        cash: [400, 330, 260, 200],
        assets: [450, 380, 310, 250],
        liabilities: [60, 62, 64, 66],
        equity: [390, 318, 246, 184],
        ocf: [-35, -72, -110, -150],
        capex: [2, 4, 6, 8],
      },
    },
    {
      fy: 2024,
      start: '2024-01-01',
      end: '2024-12-31',
      quarterEnds: ['2024-03-31', '2024-06-30', '2024-09-30'],
      filings: {
        q1: { accn: '0001999007-24-000010', filed: '2024-05-06' },
        q2: { accn: '0001999007-24-000020', filed: '2024-08-05' },
        q3: { accn: '0001999007-24-000030', filed: '2024-11-04' },
        k: { accn: '0001999007-25-000005', filed: '2025-02-25' },
      },
      values: {
        revenue: [18, 20, 22, 84],
        net: [-44, -46, -48, -188],
        cash: [560, 515, 468, 420],
        assets: [610, 565, 518, 470],
        liabilities: [70, 72, 74, 76],
        equity: [540, 493, 444, 394],
        ocf: [-40, -82, -126, -172],
        capex: [3, 5, 8, 10],
      },
    },
  ],
};
