// Shared helpers for `npm run bench`: child-process servers and autocannon runs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Starts `node bench/<script> ...args`; resolves with the JSON line it prints when ready. */
export function startChild(script, args = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, script), ...args], {
      env: { ...process.env, SVC_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl !== -1) resolve({ child, info: JSON.parse(buf.slice(0, nl)) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs autocannon and returns requests/s and latency percentiles (ms). Fails on any non-2xx. */
export async function load({ url, method = 'POST', headers = {}, body, connections = 50, duration = 8, expectBytes }) {
  const result = await autocannon({ url, method, headers, body, connections, duration, pipelining: 1 });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const bytesPerRequest = result.throughput.total / Math.max(1, result.requests.total);
  // Headers count too (about 0.5–1 KB), so small bodies get an absolute allowance.
  if (expectBytes && Math.abs(bytesPerRequest - expectBytes) > Math.max(0.2 * expectBytes, 1024)) {
    throw new Error(`${url}: ${bytesPerRequest.toFixed(0)} bytes per response, expected about ${expectBytes}`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bytes: Math.round(bytesPerRequest), requests: result.requests.total };
}

export function table(rows) {
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(width[i])).join('  ');
  return [line(cols), line(width.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => r[c])))].join('\n');
}

export const ratio = (a, b) => (b ? (a / b).toFixed(2) : 'n/a');

/** CPU time a process has used so far in user space and in the kernel (ms), from /proc (Linux). */
export function cpuSplitMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, sys: Number(fields[12]) * 10 };
}
