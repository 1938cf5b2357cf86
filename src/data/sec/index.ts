import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Core } from '../../app.js';
import { SecClient } from './client.js';
import { SecLibrary, snapshotTag, type SecDataOrigin } from './library.js';

/**
 * The SEC filings library, one per service (its caches are shared by every agent that uses it):
 *
 *   const sec = secLibrary(core);
 *   const index = await sec.companyIndex();                 // tickers and names
 *   const q = parseConversation(request.messages, index);   // companies, metrics, period, comparison
 *   const { company, financials } = await sec.profile(ref);  // figures per fiscal period
 *   const period = resolvePeriod(q.period, financials, 'revenue');
 *   const value = financials.value('revenue', period);      // with the facts it rests on
 *   const citation = await sec.cite(company, value.terms[0].fact); // signed PDF link at the page
 */
export function secLibrary(core: Core): SecLibrary {
  let library = libraries.get(core);
  if (!library) {
    library = new SecLibrary({
      client: new SecClient({
        api: core.sec.api,
        www: core.sec.www,
        archiveDir: core.sec.api.mode === 'live' ? path.join(core.config.storage.dataDir, 'sec-archive') : null,
      }),
      documents: core.documents,
      origin: originOf(core),
      wwwUrl: core.config.sec.wwwUrl,
    });
    libraries.set(core, library);
  }
  return library;
}

const libraries = new WeakMap<Core, SecLibrary>();

function originOf(core: Core): SecDataOrigin {
  const dir = core.config.sec.snapshotDir;
  if (core.sec.api.mode !== 'snapshot' || !dir) return { mode: 'live', recordedAt: null, demo: false, documentTag: null };
  let demo = false;
  try {
    demo = (JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { demo?: unknown }).demo === true;
  } catch {
    // SnapshotSource already read this manifest; a failure here only loses the demo marking.
  }
  return { mode: 'snapshot', recordedAt: core.sec.api.recordedAt, demo, documentTag: snapshotTag(dir, core.sec.api.recordedAt) };
}

export { SecClient, secPaths } from './client.js';
export { CompanyIndex, type CompanyLookup } from './companies.js';
export { CompanyFinancials, type MetricValue, type ReportedFact, type FactTerm } from './facts.js';
export type { FiscalPeriod, FiscalQuarter, FiscalSpan, FiscalYear } from './calendar.js';
export { METRICS, metricById, type MetricId, type MetricDef } from './metrics.js';
export { parseSecQuestion, parseConversation, KEY_METRICS, type SecQuestion, type PeriodSpec, type CompanyMention } from './question.js';
export { resolvePeriod, describeSpec, type PeriodResolution } from './resolve.js';
export { SecLibrary, type CompanyProfile, type FactCitation } from './library.js';
export type { CompanyRef, Filing } from './types.js';
