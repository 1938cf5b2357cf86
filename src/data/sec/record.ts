import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flag, intFlag, print, recordingFolder, UsageError, type Args } from '../../cli.js';
import type { Config } from '../../config.js';
import { SvcError } from '../../errors.js';
import { LiveSource, RecordingSource, type DataSource, type Query, type SourceResponse } from '../source.js';
import { recordingSummary } from '../recording-summary.js';
import { SecClient, filingsFromColumns } from './client.js';
import { CompanyIndex } from './companies.js';

/** One source for both EDGAR hosts: /files and /Archives live on www.sec.gov, the rest on data.sec.gov. */
class EdgarSource implements DataSource {
  readonly mode = 'live' as const;
  readonly recordedAt = null;
  readonly name = 'SEC EDGAR';
  constructor(
    private readonly api: DataSource,
    private readonly www: DataSource,
  ) {}
  #for(pathname: string): DataSource {
    return /^\/(files|Archives)\//.test(pathname) ? this.www : this.api;
  }
  get<T = unknown>(pathname: string, query?: Query): Promise<SourceResponse<T>> {
    return this.#for(pathname).get<T>(pathname, query);
  }
  getText(pathname: string, query?: Query): Promise<SourceResponse<string>> {
    return this.#for(pathname).getText(pathname, query);
  }
}

const PERIODIC = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F)(\/A)?$/;

export interface RecordOptions {
  api: DataSource;
  www: DataSource;
  /** Tickers or company names. */
  companies: string[];
  out: string;
  /** Periodic filings (10-K, 10-Q and amendments) per company whose primary documents are kept, newest first. */
  filings: number;
  recordedAt: Date;
  /** Marks the snapshot as the demo data (answers then say its figures are illustrative). */
  demo?: boolean;
  description?: string;
}

export interface RecordResult {
  out: string;
  manifest: string;
  companies: { ticker: string; cik: number; name: string; documents: string[] }[];
}

/**
 * Records into a snapshot folder everything answering about these companies needs: the
 * tickers file, their submissions and company facts, and the primary documents of their
 * latest periodic filings (the ones cited).
 */
export async function recordSecSnapshot(o: RecordOptions): Promise<RecordResult> {
  const recorder = new RecordingSource(new EdgarSource(o.api, o.www), o.out, o.recordedAt);
  const client = new SecClient({ api: recorder, www: recorder });
  const companies: RecordResult['companies'] = [];
  try {
    await recordCompanies(o, client, companies);
  } catch (err) {
    recorder.abandon();
    throw err;
  }
  const manifest = recorder.finish();
  if (o.demo || o.description) {
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    const marked = { source: m.source, recordedAt: m.recordedAt, ...(o.demo ? { demo: true } : {}), ...(o.description ? { description: o.description } : {}), entries: m.entries };
    writeFileSync(manifest, `${JSON.stringify(marked, null, 1)}\n`);
  }
  return { out: o.out, manifest, companies };
}

/** Each company's submissions, facts and latest periodic filings' documents, read through the recording. */
async function recordCompanies(o: RecordOptions, client: SecClient, companies: RecordResult['companies']): Promise<void> {
  const index = CompanyIndex.fromTickers(await client.tickers());
  for (const wanted of o.companies) {
    const found = index.lookup(wanted);
    if (found.status !== 'found') {
      const why = found.status === 'ambiguous' ? `matches several companies (${found.candidates.map((c) => c.ticker).join(', ')})` : 'is not a ticker or company name in EDGAR';
      // Found by asking EDGAR (exit 1), not a malformed command line (exit 2).
      throw new SvcError('not_found', { code: 'company_not_found', message: `"${wanted}" ${why}` });
    }
    const { cik, ticker, name } = found.company;
    const [subs] = await Promise.all([client.submissions(cik), client.companyFacts(cik)]);
    const periodic = subs ? filingsFromColumns(cik, subs.filings.recent).filter((f) => PERIODIC.test(f.form) && f.primaryDocument) : [];
    const documents: string[] = [];
    for (const filing of periodic.slice(0, o.filings)) {
      if ((await client.document(filing)) !== null) documents.push(`${filing.form} ${filing.reportDate} ${filing.accessionNumber}`);
    }
    companies.push({ ticker, cik, name, documents });
  }
}

/** `svc snapshot record-sec <ticker>... [--out DIR] [--filings N]`. */
export async function recordSecCommand(args: Args, config: Config): Promise<number> {
  if (!args.positional.length) throw new UsageError('usage: svc snapshot record-sec TICKER... [--out DIR] [--filings N]');
  const s = config.sec;
  const filings = intFlag(args, 'filings', 8, { min: 1, max: 100 });
  const out = recordingFolder(flag(args, 'out') ?? path.join('snapshots', 'sec-recorded'));
  if (!s.userAgent.trim()) {
    throw new SvcError('unavailable', {
      code: 'source_not_configured',
      permanent: true,
      message: 'SEC EDGAR refuses requests without a User-Agent naming a contact: set SVC_SEC_USER_AGENT (e.g. "Acme Research ops@acme.example") to record.',
    });
  }
  // Both hosts share the SEC's per-client limit, so each gets half of it.
  const common = { name: 'SEC EDGAR', requestsPerSecond: Math.max(1, Math.floor(s.requestsPerSecond / 2)), timeoutMs: s.timeoutMs, retries: s.retries, headers: { 'user-agent': s.userAgent } };
  const recordedAt = new Date();
  const result = await recordSecSnapshot({
    api: new LiveSource({ ...common, baseUrl: s.apiUrl }),
    www: new LiveSource({ ...common, baseUrl: s.wwwUrl }),
    companies: args.positional,
    out,
    filings,
    recordedAt,
  });
  const recorded = result.companies.map(({ ticker, name, ...details }) => ({ id: ticker, name, ...details }));
  const counts = { companies: recorded.length, documents: recorded.reduce((n, c) => n + c.documents.length, 0) };
  print(recordingSummary({ source: 'sec', out: result.out, manifest: result.manifest, recordedAt, recorded, counts }));
  return 0;
}
