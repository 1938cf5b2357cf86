// The real service (built dist/) with a fixed-answer agent, for the API-overhead benchmark.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createService } from '../dist/src/app.js';
import { loadConfig } from '../dist/src/config.js';
import { apiKeyHooks } from '../dist/src/server/app.js';
import { idempotency } from '../dist/src/server/idempotency.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const config = loadConfig({ ...process.env, SVC_PORT: '0', SVC_DATA_DIR: dataDir, SVC_RATE_LIMIT_PRO: '10000000', SVC_RATE_LIMIT_ENTERPRISE: '10000000' });

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

// The floor: `POST /bench/floor/v1/...` answers with the bytes the real route gave the same request,
// remembered, from a route behind the same API-key hooks (key, rate limit, idempotency) and the same
// server options. What the real route costs above it is its own work: the agent run and the body.
const floorBodies = new Map();
service.server.app.register(async (scope) => {
  apiKeyHooks(scope, service.deps);
  for (const url of ['/v1/responses', '/v1/chat/completions']) scope.post(`/bench/floor${url}`, { preHandler: idempotency(service.deps, `POST /bench/floor${url}`) }, async (request, reply) => {
    const { model, input, store, stream } = request.body;
    const key = `${url} ${model} ${store} ${stream} ${input}`;
    let known = floorBodies.get(key);
    if (!known) {
      const real = await service.server.app.inject({ method: 'POST', url, headers: { authorization: request.headers.authorization, 'content-type': 'application/json' }, payload: request.body });
      if (real.statusCode !== 200) return reply.code(real.statusCode).send(real.rawPayload);
      known = { type: real.headers['content-type'], body: real.rawPayload };
      floorBodies.set(key, known);
    }
    return reply.header('content-type', known.type).send(known.body);
  });
});
const url = await service.listen();
const { secret } = await service.deps.accounts.createAccount({ email: 'bench@example.com', plan: 'pro', credits: 1_000_000 });
process.stdout.write(`${JSON.stringify({ url, apiKey: secret })}\n`);
process.on('SIGTERM', () => service.close().then(() => process.exit(0)));
