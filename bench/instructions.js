// node --import tsx bench/instructions.js [--requests N] [--only responses|cache]: main-thread
// instructions per request of the service and of the bare route serving the same bytes, counted
// by valgrind's callgrind: /v1/responses non-streaming (the bench agent's 8 KB answer) and a
// stored prediction-markets report through `:cache` (a fake Kalshi on loopback generates it first). Unlike
// requests/s (which on a shared machine moved by ±40% between runs of the same build), the
// count repeats within about ±3%, so it can tell a 5% change apart. Needs `valgrind` and a
// build (npm run build). Takes about three minutes a scenario: both servers run at once, each ~50× slower.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_DIR, startChild, stopChild } from './lib.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '1000' }, warmup: { type: 'string', default: '2000' }, only: { type: 'string' } } });
const N = Number(values.requests);
const WARMUP = Number(values.warmup);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-instr-'));

/** Starts `node bench/<script> ...args` under callgrind; resolves once it printed its ready line. */
function underCallgrind(script, args, dir, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      ['--tool=callgrind', '--separate-threads=yes', '--dump-instr=no', `--callgrind-out-file=${dir}/out.%p`, process.execPath, path.join(BENCH_DIR, script), ...args],
      { env: { ...process.env, SVC_LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line && buf.includes('\n')) resolve({ child, info: JSON.parse(line) });
    });
    child.on('exit', (code) => reject(new Error(`${script} under valgrind exited with ${code}`)));
  });
}

/** Main-thread instructions per request, counted between a zero after warm-up and a dump. */
async function count({ script, args = [], env, headers, url, body, prepare }) {
  const dir = mkdtempSync(path.join(tmp, 'cg-'));
  const { child, info } = await underCallgrind(script, args, dir, env);
  try {
    if (prepare) await prepare(info);
    const opts = { url: url(info), method: 'POST', headers: headers(info), body, connections: 10, timeout: 120 };
    await autocannon({ ...opts, amount: WARMUP });
    execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' });
    const run = await autocannon({ ...opts, amount: N });
    execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
    if (run.non2xx || run.errors) throw new Error(`${script}: ${run.non2xx} non-2xx, ${run.errors} errors`);
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
  }
  // With --separate-threads, the dump of thread 1 (the event loop) ends in "-01".
  const main = readdirSync(dir).find((f) => /\.1-01$/.test(f));
  const summary = main && /summary: (\d+)/.exec(readFileSync(path.join(dir, main), 'utf8'));
  if (!summary) throw new Error(`${script}: no callgrind dump of the main thread in ${dir}`);
  return Number(summary[1]) / N;
}

const svcHeaders = (i) => ({ authorization: `Bearer ${i.apiKey}`, 'content-type': 'application/json' });

/** The service and the bare route serving the bytes of one of its answers, counted side by side. */
async function scenario({ name, path: route, body, env, prepare }) {
  const { child: plain, info } = await startChild('svc-server.js', [], env);
  if (prepare) await prepare(info);
  const bytes = Buffer.from(await (await fetch(`${info.url}${route}`, { method: 'POST', headers: svcHeaders(info), body })).arrayBuffer());
  await stopChild(plain);
  const file = path.join(tmp, `bytes-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, bytes);
  const [bare, svc] = await Promise.all([
    count({ script: 'bare-server.js', args: [file, 'application/json; charset=utf-8'], headers: () => ({ 'content-type': 'application/json' }), url: (i) => i.url, body }),
    count({ script: 'svc-server.js', env, headers: svcHeaders, url: (i) => `${i.url}${route}`, body, prepare }),
  ]);
  console.log(`${name} (${(bytes.length / 1024).toFixed(1)} KB), ${N} requests after ${WARMUP}:`);
  console.log(`  bare ${Math.round(bare).toLocaleString('en-US')}  svc ${Math.round(svc).toLocaleString('en-US')}  ratio ${(bare / svc).toFixed(2)}`);
}

console.log('main-thread instructions per request (callgrind); the goals are in requests/s, see npm run bench');
if (!values.only || values.only === 'responses') {
  await scenario({ name: '/v1/responses non-streaming store:false (goal >= 0.70)', path: '/v1/responses', body: JSON.stringify({ model: 'svc-bench', input: 'benchmark', store: false }) });
}
if (!values.only || values.only === 'cache') {
  const { startFakeKalshi } = await import('../test/helpers/fake-kalshi.ts');
  const { addSeries, buildWorld, eventUrl, tenMarketSpec } = await import('../test/fixtures/kalshi-world.ts');
  const world = buildWorld();
  const ticker = addSeries(world, tenMarketSpec('KXBENCHA'));
  const fake = await startFakeKalshi({ world });
  const input = eventUrl(world, ticker);
  // Each server has its own data folder: generate the report there before counting.
  const prepare = async (info) => {
    const res = await fetch(`${info.url}/v1/responses`, { method: 'POST', headers: svcHeaders(info), body: JSON.stringify({ model: 'svc-prediction-markets-agent:refresh', input, store: false }) });
    if (res.status !== 200) throw new Error(`report generation failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const body = JSON.stringify({ model: 'svc-prediction-markets-agent:cache', input, store: false });
  await scenario({ name: ':cache non-streaming store:false (goal >= 0.80)', path: '/v1/responses', body, env: { SVC_KALSHI_API_URL: fake.apiUrl }, prepare });
  await fake.close();
}
