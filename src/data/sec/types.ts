/** The shapes of the EDGAR JSON documents this library reads (only the fields it uses). */

/** `www.sec.gov/files/company_tickers.json`: `{"0": {cik_str, ticker, title}, …}`, largest companies first. */
export type CompanyTickersFile = Record<string, { cik_str: number; ticker: string; title: string }>;

/** One row of a companyfacts concept: a value for a period, as reported by one filing. */
export interface FactRow {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy?: number | null;
  fp?: string | null;
  form: string;
  filed: string;
  frame?: string;
}

export interface ConceptFacts {
  label?: string | null;
  description?: string | null;
  units: Record<string, FactRow[]>;
}

/** `data.sec.gov/api/xbrl/companyfacts/CIK##########.json`. */
export interface CompanyFactsFile {
  cik: number;
  entityName: string;
  facts: Record<string, Record<string, ConceptFacts>>;
}

/** The parallel arrays of `filings.recent` (index i is one filing). */
export interface FilingColumns {
  accessionNumber: string[];
  filingDate: string[];
  reportDate: string[];
  form: string[];
  primaryDocument: string[];
  isInlineXBRL?: number[];
  isXBRL?: number[];
  primaryDocDescription?: string[];
}

/** `data.sec.gov/submissions/CIK##########.json`. */
export interface SubmissionsFile {
  cik: string | number;
  name: string;
  tickers?: string[];
  exchanges?: string[];
  fiscalYearEnd?: string | null;
  filings: { recent: FilingColumns; files?: { name: string; filingCount?: number; filingFrom?: string; filingTo?: string }[] };
}

/** One filing, joined from the submissions arrays. */
export interface Filing {
  cik: number;
  accessionNumber: string;
  form: string;
  filingDate: string;
  reportDate: string;
  primaryDocument: string;
  isInlineXBRL: boolean;
}

/** A company as the tickers file and submissions name it. */
export interface CompanyRef {
  cik: number;
  /** The first (primary) ticker; empty when the company has none. */
  ticker: string;
  name: string;
}

export const padCik = (cik: number) => String(cik).padStart(10, '0');
export const accessionFolder = (accn: string) => accn.replace(/-/g, '');
