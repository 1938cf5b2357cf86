import { companyFactsFile, documentsOf, submissionsFile, tickersFile, type SecWorld } from '../fixtures/sec-world.js';
import { FakeHttpServer, type FakeReply } from './fake-http.js';

export interface FakeSec {
  server: FakeHttpServer;
  /** Base URL for both SVC_SEC_API_URL and SVC_SEC_WWW_URL. */
  url: string;
  world: SecWorld;
  /** Requests for a path prefix, e.g. '/Archives/'. */
  count(prefix: string): number;
  close(): Promise<void>;
}

const padCik = (cik: number) => String(cik).padStart(10, '0');

/**
 * A loopback EDGAR serving a world's tickers, submissions, companyfacts and filing documents,
 * in the SEC's formats and paths (data.sec.gov and www.sec.gov on one port). Like the SEC, it
 * refuses requests without a User-Agent.
 */
export async function startFakeSec(world: SecWorld): Promise<FakeSec> {
  const json = new Map<string, unknown>();
  const docs = new Map<string, string>();
  json.set('/files/company_tickers.json', tickersFile(world));
  for (const c of world.companies) {
    json.set(`/submissions/CIK${padCik(c.cik)}.json`, submissionsFile(c));
    if (!c.noFacts) json.set(`/api/xbrl/companyfacts/CIK${padCik(c.cik)}.json`, companyFactsFile(c));
    for (const [p, html] of documentsOf(c)) docs.set(p, html);
  }
  const server = await new FakeHttpServer((req): FakeReply => {
    if (!req.headers['user-agent'] || !/@/.test(String(req.headers['user-agent']))) {
      return { status: 403, text: 'Your Request Originates from an Undeclared Automated Tool' };
    }
    const body = json.get(req.path);
    if (body !== undefined) return { json: body };
    const doc = docs.get(req.path);
    if (doc !== undefined) return { text: doc, headers: { 'content-type': 'text/html' } };
    return { status: 404, text: 'Not Found' };
  }).start();
  return { server, url: server.url, world, count: (p) => server.count(p), close: () => server.close() };
}
