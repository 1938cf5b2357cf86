// Regenerates snapshots/sec: the SEC demo snapshot shipped with svc (Apple, Microsoft, Alphabet).
// Records the hand-written EDGAR of test/fixtures/sec-world.ts, served by the fake SEC server,
// through the same code path as `svc snapshot record-sec`, as of DEMO_RECORDED_AT.
//   npx tsx scripts/make-sec-demo-snapshot.ts
import { rmSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/config.js';
import { recordSecSnapshot } from '../src/data/sec/record.js';
import { LiveSource } from '../src/data/source.js';
import { DEMO_RECORDED_AT, DEMO_WORLD } from '../test/fixtures/sec-world.js';
import { startFakeSec } from '../test/helpers/fake-sec.js';

const out = path.join(PACKAGE_ROOT, 'snapshots', 'sec');
const fake = await startFakeSec(DEMO_WORLD);
try {
  rmSync(out, { recursive: true, force: true });
  const source = new LiveSource({ name: 'SEC EDGAR', baseUrl: fake.url, requestsPerSecond: 50, timeoutMs: 10_000, retries: 1, headers: { 'user-agent': 'svc demo builder ops@example.com' } });
  const result = await recordSecSnapshot({
    api: source,
    www: source,
    companies: DEMO_WORLD.companies.map((c) => c.tickers[0]!),
    out,
    filings: 100,
    recordedAt: DEMO_RECORDED_AT,
    demo: true,
    description: 'svc demo data: Apple, Microsoft and Alphabet, written by hand after their filings (figures illustrative). Regenerate with: npx tsx scripts/make-sec-demo-snapshot.ts',
  });
  for (const c of result.companies) console.log(`${c.ticker}: ${c.documents.length} filing documents`);
  console.log(`recorded into ${out}`);
} finally {
  await fake.close();
}
