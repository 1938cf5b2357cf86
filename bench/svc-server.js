// The real service (built dist/) with a fixed-answer agent, for the API-overhead benchmark.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createService } from '../dist/src/app.js';
import { loadConfig } from '../dist/src/config.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const config = loadConfig({ ...process.env, SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_RATE_LIMIT_PRO: '10000000' });

/** ~8 KB of report-like Markdown with citations, in 64-character deltas. */
export function benchText() {
  const row = (i) => `| Outcome ${String(i).padStart(2, '0')} | 0.${(37 + i) % 90} | 0.${(41 + i) % 90} | +4.0 pts | medium [${(i % 3) + 1}] |\n`;
  let text = '# Benchmark report\n\n| Outcome | Market | Model | Gap | Confidence |\n|---|---|---|---|---|\n';
  for (let i = 0; text.length < 8000; i++) text += row(i);
  return text;
}

const TEXT = benchText();
// Section-sized deltas, as the deterministic writers emit them; BENCH_DELTA=64 imitates token streaming.
export const DELTA = Number(process.env.BENCH_DELTA ?? 512);
const citations = [1, 2, 3].map((order) => ({ order, name: `Source ${order}`, url: `https://example.com/source/${order}` }));
const agent = {
  id: 'svc-bench',
  description: 'Fixed 8 KB answer',
  async *run() {
    for (let i = 0; i < TEXT.length; i += DELTA) yield { type: 'text', delta: TEXT.slice(i, i + DELTA) };
    for (const citation of citations) yield { type: 'citation', citation };
    yield { type: 'done' };
  },
};

const service = await createService({ config, agents: [agent] });
const url = await service.listen();
const { secret } = await service.deps.accounts.createAccount({ email: 'bench@example.com', plan: 'pro', credits: 1_000_000 });
process.stdout.write(`${JSON.stringify({ url, apiKey: secret })}\n`);
process.on('SIGTERM', () => service.close().then(() => process.exit(0)));
