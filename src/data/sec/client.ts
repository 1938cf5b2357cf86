import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SvcError } from '../../errors.js';
import type { DataSource } from '../source.js';
import { AsyncCache } from './cache.js';
import { accessionFolder, padCik, type CompanyFactsFile, type CompanyTickersFile, type Filing, type FilingColumns, type SubmissionsFile } from './types.js';

export interface SecClientOptions {
  /** data.sec.gov: submissions and companyfacts. */
  api: DataSource;
  /** www.sec.gov: company_tickers.json and filing documents under /Archives. */
  www: DataSource;
  /** How long tickers, submissions and company facts are kept (they change during the day). */
  ttlMs?: number;
  /** Memory for tickers, submissions and company facts (bytes of JSON, LRU). */
  jsonCacheBytes?: number;
  /** Memory for filing documents, which never change (bytes, LRU). */
  documentCacheBytes?: number;
  /** A folder where fetched filing documents are also kept on disk, for good (live mode only). */
  archiveDir?: string | null;
}

const invalid = (what: string) =>
  new SvcError('upstream', { code: 'upstream_invalid_response', message: `SEC EDGAR answered ${what} with data in an unexpected shape. Try again later.` });

/** The HTTP paths of the EDGAR documents used; they are also the request keys of snapshots. */
export const secPaths = {
  tickers: () => '/files/company_tickers.json',
  submissions: (cik: number) => `/submissions/CIK${padCik(cik)}.json`,
  submissionsPage: (name: string) => `/submissions/${name}`,
  companyFacts: (cik: number) => `/api/xbrl/companyfacts/CIK${padCik(cik)}.json`,
  document: (f: Pick<Filing, 'cik' | 'accessionNumber' | 'primaryDocument'>) => `/Archives/edgar/data/${f.cik}/${accessionFolder(f.accessionNumber)}/${f.primaryDocument}`,
};

// Document names come from EDGAR; anything that could climb out of the archive folder is not kept on disk.
const SAFE_ARCHIVE_KEY = /^\/Archives\/edgar\/data\/\d+\/\d+\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Cell `i` of a column when it is text; a column that is not a list, or a cell of another type, reads as empty. */
const cell = (column: unknown, i: number): string => {
  const v = Array.isArray(column) ? (column[i] as unknown) : undefined;
  return typeof v === 'string' ? v : '';
};

/** The filings in submissions' parallel arrays, newest first as EDGAR lists them; rows without an accession number are left out. */
export function filingsFromColumns(cik: number, c: FilingColumns): Filing[] {
  const out: Filing[] = [];
  const n = Array.isArray(c.accessionNumber) ? c.accessionNumber.length : 0;
  for (let i = 0; i < n; i++) {
    const accessionNumber = cell(c.accessionNumber, i);
    if (!accessionNumber) continue;
    out.push({
      cik,
      accessionNumber,
      form: cell(c.form, i),
      filingDate: cell(c.filingDate, i),
      reportDate: cell(c.reportDate, i),
      primaryDocument: cell(c.primaryDocument, i),
      isInlineXBRL: Array.isArray(c.isInlineXBRL) && c.isInlineXBRL[i] === 1,
    });
  }
  return out;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/**
 * A submissions file's descriptive fields as the agents read them: of the wrong type, they are
 * dropped (shown as missing) rather than failing the answer; the filing columns are checked by
 * the caller, and their cells by filingsFromColumns.
 */
function readableSubmissions(file: SubmissionsFile): SubmissionsFile {
  const f = file as unknown as Record<string, unknown>;
  if (typeof f.name !== 'string') f.name = '';
  f.tickers = strings(f.tickers);
  f.exchanges = strings(f.exchanges);
  if (f.fiscalYearEnd !== undefined && f.fiscalYearEnd !== null && typeof f.fiscalYearEnd !== 'string') delete f.fiscalYearEnd;
  const files = file.filings.files as unknown;
  file.filings.files = Array.isArray(files) ? files.filter((p): p is { name: string } => typeof p === 'object' && p !== null && typeof p.name === 'string') : undefined;
  return file;
}

/**
 * EDGAR over the service's data sources (which throttle, time out, retry, and replay snapshots):
 * tickers, submissions and company facts cached for minutes, filing documents for good.
 */
export class SecClient {
  readonly #o: SecClientOptions;
  readonly #json: AsyncCache<{ value: unknown; size: number }>;
  readonly #documents: AsyncCache<{ value: string | null }>;

  constructor(options: SecClientOptions) {
    this.#o = options;
    // Company facts run to megabytes each: bounded by the size of the JSON read.
    this.#json = new AsyncCache({ maxSize: options.jsonCacheBytes ?? 128 * 1024 * 1024, sizeCalculation: (v) => Math.max(1, v.size), ttl: options.ttlMs ?? 10 * 60_000 });
    this.#documents = new AsyncCache({ maxSize: options.documentCacheBytes ?? 64 * 1024 * 1024, sizeCalculation: (v) => Math.max(1, v.value?.length ?? 1) });
  }

  get api(): DataSource {
    return this.#o.api;
  }

  /** JSON read as text: EDGAR answers a missing CIK with a 404 whose body is XML, not JSON. */
  async #getJson<T>(source: DataSource, pathname: string): Promise<T | null> {
    const { value } = await this.#json.get(pathname, async () => {
      const res = await source.getText(pathname);
      if (res.status === 404) return { value: null, size: 1 };
      try {
        return { value: JSON.parse(res.body) as unknown, size: res.body.length };
      } catch {
        throw invalid(pathname);
      }
    });
    return value as T | null;
  }

  async tickers(): Promise<CompanyTickersFile> {
    const file = await this.#getJson<CompanyTickersFile>(this.#o.www, secPaths.tickers());
    if (!file || typeof file !== 'object') throw invalid(secPaths.tickers());
    return file;
  }

  /** A company's filing history; null when EDGAR has no such CIK. */
  async submissions(cik: number): Promise<SubmissionsFile | null> {
    const file = await this.#getJson<SubmissionsFile>(this.#o.api, secPaths.submissions(cik));
    if (!file) return null;
    if (typeof file !== 'object' || !Array.isArray(file.filings?.recent?.accessionNumber)) throw invalid(secPaths.submissions(cik));
    return readableSubmissions(file);
  }

  /** Every XBRL fact a company reported; null when it has none (no XBRL financial statements). */
  async companyFacts(cik: number): Promise<CompanyFactsFile | null> {
    const file = await this.#getJson<CompanyFactsFile>(this.#o.api, secPaths.companyFacts(cik));
    if (file && (typeof file.facts !== 'object' || file.facts === null)) throw invalid(secPaths.companyFacts(cik));
    return file;
  }

  /** The filing with this accession number, from the recent list or, failing that, the older pages. */
  async filing(cik: number, accessionNumber: string): Promise<Filing | null> {
    const subs = await this.submissions(cik);
    if (!subs) return null;
    const recent = filingsFromColumns(cik, subs.filings.recent).find((f) => f.accessionNumber === accessionNumber);
    if (recent) return recent;
    for (const page of subs.filings.files ?? []) {
      const columns = await this.#getJson<FilingColumns>(this.#o.api, secPaths.submissionsPage(page.name));
      const found = columns && Array.isArray(columns.accessionNumber) ? filingsFromColumns(cik, columns).find((f) => f.accessionNumber === accessionNumber) : undefined;
      if (found) return found;
    }
    return null;
  }

  /** The filing's primary document (HTML); null when EDGAR (or the snapshot) does not have it. */
  async document(filing: Pick<Filing, 'cik' | 'accessionNumber' | 'primaryDocument'>): Promise<string | null> {
    const key = secPaths.document(filing);
    const { value } = await this.#documents.get(key, async () => {
      const archived = this.#archived(key);
      if (archived !== null) return { value: archived };
      const res = await this.#o.www.getText(key);
      if (res.status === 404) return { value: null };
      this.#archive(key, res.body);
      return { value: res.body };
    });
    return value;
  }

  #archived(key: string): string | null {
    if (!this.#o.archiveDir || !SAFE_ARCHIVE_KEY.test(key)) return null;
    const file = path.join(this.#o.archiveDir, key);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }

  #archive(key: string, body: string): void {
    if (!this.#o.archiveDir || !SAFE_ARCHIVE_KEY.test(key)) return;
    const file = path.join(this.#o.archiveDir, key);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, body, { mode: 0o600 });
    renameSync(tmp, file);
  }
}
