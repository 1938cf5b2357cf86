// Regenerates snapshots/kalshi: the Kalshi demo snapshot shipped with svc.
// Records every open event of the synthetic exchange (test/fixtures/kalshi-world.ts), served by
// the fake Kalshi API, through the same code path as `svc snapshot record`, as of WORLD_NOW.
//   npx tsx scripts/make-demo-snapshot.ts
import { rmSync } from 'node:fs';
import path from 'node:path';
import { recordKalshi } from '../src/agents/prediction-markets/cli.js';
import { PACKAGE_ROOT } from '../src/config.js';
import { LiveSource } from '../src/data/source.js';
import { WORLD_NOW, eventUrl } from '../test/fixtures/kalshi-world.js';
import { startFakeKalshi } from '../test/helpers/fake-kalshi.js';

const out = path.join(PACKAGE_ROOT, 'snapshots', 'kalshi');
const fake = await startFakeKalshi();
try {
  rmSync(out, { recursive: true, force: true });
  const live = new LiveSource({ name: 'Kalshi', baseUrl: fake.apiUrl, requestsPerSecond: 20, timeoutMs: 10_000, retries: 2 });
  const urls = fake.world.openEvents.map((t) => eventUrl(fake.world, t));
  const result = await recordKalshi(live, urls, out, new Date(WORLD_NOW * 1000), 'https://api.elections.kalshi.com/trade-api/v2', 'synthetic demo data');
  console.log(`recorded ${result.events.length} events into ${out}`);
} finally {
  await fake.close();
}
