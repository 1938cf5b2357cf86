// node bench/instructions.js [--requests N]: main-thread instructions per request of the service
// and of the bare route serving the same bytes, counted by valgrind's callgrind. Unlike
// requests/s (which on a shared machine moved by ±40% between runs of the same build), the
// count repeats within about ±3%, so it can tell a 5% change apart. Needs `valgrind` and a
// build (npm run build). Takes about two minutes: both servers run at once, each ~50× slower.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_DIR, startChild, stopChild } from './lib.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '1000' }, warmup: { type: 'string', default: '2000' } } });
const N = Number(values.requests);
const WARMUP = Number(values.warmup);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-instr-'));
const body = JSON.stringify({ model: 'svc-bench', input: 'benchmark', store: false });

/** Starts `node bench/<script>` under callgrind; resolves once it printed its ready line. */
function underCallgrind(script, args, dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      ['--tool=callgrind', '--separate-threads=yes', '--dump-instr=no', `--callgrind-out-file=${dir}/out.%p`, process.execPath, path.join(BENCH_DIR, script), ...args],
      { env: { ...process.env, SVC_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'ignore'] },
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
async function count(script, args, headers, url) {
  const dir = mkdtempSync(path.join(tmp, 'cg-'));
  const { child, info } = await underCallgrind(script, args, dir);
  const target = url(info);
  const opts = { url: target, method: 'POST', headers: headers(info), body, connections: 10, timeout: 120 };
  await autocannon({ ...opts, amount: WARMUP });
  execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' });
  const run = await autocannon({ ...opts, amount: N });
  execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
  if (run.non2xx || run.errors) throw new Error(`${script}: ${run.non2xx} non-2xx, ${run.errors} errors`);
  await new Promise((r) => setTimeout(r, 500));
  child.removeAllListeners('exit');
  child.kill('SIGKILL');
  // With --separate-threads, the dump of thread 1 (the event loop) ends in "-01".
  const main = readdirSync(dir).find((f) => /\.1-01$/.test(f));
  const summary = main && /summary: (\d+)/.exec(readFileSync(path.join(dir, main), 'utf8'));
  if (!summary) throw new Error(`${script}: no callgrind dump of the main thread in ${dir}`);
  return Number(summary[1]) / N;
}

// The bytes the bare route serves: one answer of the service, fetched from a normal run of it.
const { child: plain, info } = await startChild('svc-server.js');
const headers = { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' };
const bytes = Buffer.from(await (await fetch(`${info.url}/v1/responses`, { method: 'POST', headers, body })).arrayBuffer());
await stopChild(plain);
const file = path.join(tmp, 'bytes.json');
writeFileSync(file, bytes);

const [bare, svc] = await Promise.all([
  count('bare-server.js', [file, 'application/json; charset=utf-8'], () => ({ 'content-type': 'application/json' }), (i) => i.url),
  count('svc-server.js', [], (i) => ({ authorization: `Bearer ${i.apiKey}`, 'content-type': 'application/json' }), (i) => `${i.url}/v1/responses`),
]);
console.log(`main-thread instructions per request, /v1/responses non-streaming store:false (${(bytes.length / 1024).toFixed(1)} KB), ${N} requests after ${WARMUP}:`);
console.log(`  bare ${Math.round(bare).toLocaleString('en-US')}  svc ${Math.round(svc).toLocaleString('en-US')}  ratio ${(bare / svc).toFixed(2)} (goal >= 0.70 in requests/s)`);
