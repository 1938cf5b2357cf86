import { createHash } from 'node:crypto';
import type { PagedDocument } from '../documents/model.js';
import type { DocumentService } from '../documents/service.js';
import { AsyncCache } from './cache.js';
import { secPaths, type SecClient } from './client.js';
import { CompanyIndex, type CompanyLookup } from './companies.js';
import { CompanyFinancials, type ReportedFact } from './facts.js';
import { parseFiling, type ParsedFiling } from './filing-html.js';
import { locateFact, type FactLocation } from './locate.js';
import { displayName } from './names.js';
import { accessionFolder, type CompanyRef, type Filing, type SubmissionsFile } from './types.js';

/** Where the data comes from, for the line that says so in answers. */
export interface SecDataOrigin {
  mode: 'live' | 'snapshot';
  recordedAt: Date | null;
  /** The shipped demo snapshot: figures are illustrative. */
  demo: boolean;
  /** Distinguishes documents rendered from a snapshot from those rendered from live EDGAR. */
  documentTag: string | null;
}

export interface CompanyProfile {
  company: CompanyRef;
  /** The company's figures; null when it files no XBRL financial data. */
  financials: CompanyFinancials | null;
  submissions: SubmissionsFile | null;
}

/** A citation of one fact: the filing's PDF at the page showing it. */
export interface FactCitation {
  name: string;
  url: string;
  /** Two facts on the same page of the same document share a citation. */
  key: string;
  page: number | null;
  filing: Filing | null;
  location: FactLocation | null;
}

export interface SecLibraryOptions {
  client: SecClient;
  documents: DocumentService;
  origin: SecDataOrigin;
  /** Public EDGAR address for links to filings that cannot be rendered. */
  wwwUrl: string;
}

/**
 * The SEC filings library the agents share: companies by ticker or name, their figures per
 * fiscal period (from XBRL company facts), and citations of the filing page showing a figure,
 * as signed links to a PDF rendered from the filing.
 */
export class SecLibrary {
  readonly client: SecClient;
  readonly origin: SecDataOrigin;
  readonly #documents: DocumentService;
  readonly #wwwUrl: string;
  readonly #indexes = new WeakMap<object, CompanyIndex>();
  readonly #financials = new WeakMap<object, CompanyFinancials>();
  // A parsed filing takes memory in proportion to its HTML: bounded by that.
  readonly #parsed = new AsyncCache<{ value: ParsedFiling | null; size: number }>({ maxSize: 96 * 1024 * 1024, sizeCalculation: (v) => Math.max(1, v.size) });

  constructor(options: SecLibraryOptions) {
    this.client = options.client;
    this.origin = options.origin;
    this.#documents = options.documents;
    this.#wwwUrl = options.wwwUrl.replace(/\/+$/, '');
    options.documents.registerProducer('sec', (id) => this.#produce(id));
  }

  /** Every filer with a ticker, searchable by name and ticker (rebuilt when the tickers file is refetched). */
  async companyIndex(): Promise<CompanyIndex> {
    const file = await this.client.tickers();
    let index = this.#indexes.get(file);
    if (!index) {
      index = CompanyIndex.fromTickers(file);
      this.#indexes.set(file, index);
    }
    return index;
  }

  /** The companies a snapshot has figures for, by ticker; null when live (every XBRL filer). */
  async recordedCompanies(): Promise<CompanyRef[] | null> {
    const paths = this.client.api.paths?.('/api/xbrl/companyfacts/');
    if (!paths) return null;
    const index = await this.companyIndex();
    const ciks = paths.map((p) => Number(/CIK(\d{10})\.json$/.exec(p)?.[1] ?? NaN)).filter((cik) => Number.isInteger(cik));
    return ciks
      .map((cik) => {
        const entry = index.byCik(cik);
        return { cik, ticker: entry?.ticker ?? '', name: entry ? displayName(entry.name) : `CIK ${cik}` };
      })
      .sort((a, b) => (a.ticker || a.name).localeCompare(b.ticker || b.name));
  }

  async resolveCompany(text: string): Promise<CompanyLookup> {
    return (await this.companyIndex()).lookup(text);
  }

  /** A company's name (as EDGAR spells it now), fiscal calendar and figures. */
  async profile(company: CompanyRef): Promise<CompanyProfile> {
    const [submissions, facts] = await Promise.all([this.client.submissions(company.cik), this.client.companyFacts(company.cik)]);
    let financials: CompanyFinancials | null = null;
    if (facts) {
      financials = this.#financials.get(facts) ?? null;
      if (!financials) {
        financials = new CompanyFinancials(facts, submissions?.fiscalYearEnd ?? null);
        this.#financials.set(facts, financials);
      }
    }
    const name = displayName(submissions?.name || facts?.entityName || company.name);
    return { company: { ...company, name }, financials, submissions };
  }

  /** "Data: demo snapshot recorded 2025-05-15; figures are illustrative." (null when live). */
  dataNote(): string | null {
    if (this.origin.mode !== 'snapshot') return null;
    const when = this.origin.recordedAt?.toISOString().slice(0, 10) ?? 'at an unknown date';
    return this.origin.demo ? `Data: demo snapshot recorded ${when}; figures are illustrative.` : `Data: SEC EDGAR snapshot recorded ${when}.`;
  }

  /** The id of the PDF rendered from a filing. */
  documentId(filing: Pick<Filing, 'cik' | 'accessionNumber'>): string {
    return ['sec', this.origin.documentTag, String(filing.cik), accessionFolder(filing.accessionNumber)].filter(Boolean).join('-');
  }

  async #parsedFiling(filing: Filing): Promise<ParsedFiling | null> {
    const { value } = await this.#parsed.get(secPaths.document(filing), async () => {
      const html = await this.client.document(filing);
      return { value: html === null ? null : parseFiling(html), size: html?.length ?? 1 };
    });
    return value;
  }

  #pagedDocument(company: string, filing: Filing, parsed: ParsedFiling): PagedDocument {
    const period = filingPeriod(filing);
    const demo = this.origin.demo ? ' (demo snapshot: illustrative figures)' : '';
    return {
      title: `${company} Form ${filing.form}${period ? `, ${period}` : ''} (accession ${filing.accessionNumber})`,
      footer: `${company} Form ${filing.form}, accession ${filing.accessionNumber}, filed ${filing.filingDate}; rendered by svc from SEC EDGAR${demo}`,
      pages: parsed.pages,
    };
  }

  /** Makes the PDF of a filing named by its document id (a link from another replica, or after a restart). */
  async #produce(id: string): Promise<PagedDocument | null> {
    const parts = id.split('-');
    const [cikText, accnDigits] = parts.slice(-2);
    const tag = parts.length === 4 ? parts[1] : null;
    if (parts.length < 3 || parts.length > 4 || tag !== this.origin.documentTag || !/^\d{1,10}$/.test(cikText ?? '') || !/^\d{18}$/.test(accnDigits ?? '')) return null;
    const accn = `${accnDigits!.slice(0, 10)}-${accnDigits!.slice(10, 12)}-${accnDigits!.slice(12)}`;
    const filing = await this.client.filing(Number(cikText), accn);
    if (!filing) return null;
    const parsed = await this.#parsedFiling(filing);
    if (!parsed) return null;
    const subs = await this.client.submissions(filing.cik);
    return this.#pagedDocument(displayName(subs?.name ?? `CIK ${filing.cik}`), filing, parsed);
  }

  /**
   * The citation of a fact: the page of its filing that shows it (the inline-XBRL element, or
   * the printed figure), as a signed link to the filing's PDF, which is rendered once and kept.
   */
  /** EDGAR's folder of a filing: the link when its document cannot be rendered. */
  folderUrl(cik: number, accn: string): string {
    return `${this.#wwwUrl}/Archives/edgar/data/${cik}/${accessionFolder(accn)}/`;
  }

  /**
   * The citation of a filing as a whole ("when was it filed?", "when is the next one due?"): its PDF
   * at the first page, the cover that gives its form, period and filer; EDGAR's folder when it
   * cannot be rendered.
   */
  async citeFiling(company: CompanyRef, filing: Filing): Promise<{ name: string; url: string }> {
    const parsed = await this.#parsedFiling(filing).catch(() => null);
    const period = filingPeriod(filing);
    const label = `${company.name} Form ${filing.form}${period ? `, ${period}` : ''}, filed ${filing.filingDate}`;
    if (!parsed) return { name: `${label} (EDGAR filing index)`, url: this.folderUrl(filing.cik, filing.accessionNumber) };
    const id = this.documentId(filing);
    await this.#documents.ensure(id, async () => this.#pagedDocument(company.name, filing, parsed));
    return { name: `${label}, page 1`, url: this.#documents.signedUrl(id, { page: 1 }) };
  }

  async cite(company: CompanyRef, fact: ReportedFact): Promise<FactCitation> {
    const filing = await this.client.filing(company.cik, fact.accn);
    if (!filing) {
      const url = this.folderUrl(company.cik, fact.accn);
      return { name: `${company.name} Form ${fact.form} filed ${fact.filed} (accession ${fact.accn}; document not available, page not located)`, url, key: url, page: null, filing: null, location: null };
    }
    const parsed = await this.#parsedFiling(filing);
    const period = filingPeriod(filing);
    const label = `${company.name} Form ${filing.form}${period ? `, ${period}` : ''}`;
    if (!parsed) {
      const url = `${this.#wwwUrl}${secPaths.document(filing)}`;
      return { name: `${label} (document not available here; page not located)`, url, key: url, page: null, filing, location: null };
    }
    const location = locateFact(parsed, fact);
    const id = this.documentId(filing);
    await this.#documents.ensure(id, async () => this.#pagedDocument(company.name, filing, parsed));
    const page = location?.page ?? null;
    return {
      name: page ? `${label}, page ${page}` : `${label} (figure not located on a page)`,
      url: this.#documents.signedUrl(id, { page: page ?? 1 }),
      key: `${id}#${page ?? 1}`,
      page,
      filing,
      location,
    };
  }
}

/** "quarter ended 2024-06-29" / "fiscal year ended 2024-09-28", from the filing's report date. */
export function filingPeriod(filing: Filing): string {
  if (!filing.reportDate) return '';
  if (/^10-Q/.test(filing.form)) return `quarter ended ${filing.reportDate}`;
  if (/^(10-K|20-F|40-F)/.test(filing.form)) return `fiscal year ended ${filing.reportDate}`;
  return `period ended ${filing.reportDate}`;
}

/** A short, stable tag for documents rendered from a given snapshot. */
export function snapshotTag(dir: string, recordedAt: Date | null): string {
  return `s${createHash('sha256').update(`${dir}\n${recordedAt?.toISOString() ?? ''}`).digest('hex').slice(0, 8)}`;
}
