// npm run bench: throughput and latency of the service against a bare fastify route
// serving the same bytes, measured in the same run so the ratio cancels out the machine.
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSplitMs, load, ratio, startChild, stopChild, table } from './lib.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' }, only: { type: 'string' } } });
const duration = Number(values.duration);
const CONNECTIONS = 50;
let CONNECTIONS_OVERRIDE = null;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-bytes-'));

/** Measures the bare route and then the service on the very same request and response bytes. */
async function compare({ name, endpoint, headers, body, goal, method = 'POST', pid }) {
  const bytes = Buffer.from(await (await fetch(endpoint, { method, headers, body })).arrayBuffer());
  const file = path.join(tmp, `bytes-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  const type =
    bytes.subarray(0, 6).toString() === 'event:' || bytes.subarray(0, 5).toString() === 'data:'
      ? 'text/event-stream; charset=utf-8'
      : bytes.subarray(0, 9).toString() === '<!doctype'
        ? 'text/html; charset=utf-8'
        : 'application/json; charset=utf-8';
  const { child: bare, info: bareInfo } = await startChild('bare-server.js', [file, type]);
  const request = { method, headers, body, connections: CONNECTIONS_OVERRIDE ?? CONNECTIONS };
  // Server CPU per request: steadier than requests/s on a shared machine, so printed beside them.
  const measured = async (url, serverPid) => {
    const before = cpuSplitMs(serverPid);
    const r = await load({ url, ...request, duration, expectBytes: bytes.length });
    const after = cpuSplitMs(serverPid);
    const per = (ms) => (1000 * ms) / Math.max(1, r.requests);
    const userUs = per(after.user - before.user);
    const sysUs = per(after.sys - before.sys);
    return { ...r, cpuUs: userUs + sysUs, userUs, sysUs };
  };
  await load({ url: bareInfo.url, ...request, duration: 2 });
  const base = await measured(bareInfo.url, bare.pid);
  await stopChild(bare);
  await load({ url: endpoint, ...request, duration: 2 });
  const ours = await measured(endpoint, pid);
  return {
    scenario: `${name} (${(bytes.length / 1024).toFixed(1)} KB)`,
    'bare req/s': base.rps.toFixed(0),
    'svc req/s': ours.rps.toFixed(0),
    ratio: ratio(ours.rps, base.rps),
    'CPU µs/req bare/svc (ratio)': `${base.cpuUs.toFixed(0)}/${ours.cpuUs.toFixed(0)} (${ratio(base.cpuUs, ours.cpuUs)})`,
    'user+kernel µs bare | svc': `${base.userUs.toFixed(0)}+${base.sysUs.toFixed(0)} | ${ours.userUs.toFixed(0)}+${ours.sysUs.toFixed(0)}`,
    'bare p50/p99 ms': `${base.p50}/${base.p99}`,
    'svc p50/p99 ms': `${ours.p50}/${ours.p99}`,
    goal: goal ?? '-',
  };
}

async function apiOverhead() {
  const { child: svc, info } = await startChild('svc-server.js');
  const headers = { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' };
  const endpoint = `${info.url}/v1/responses`;
  const body = (extra) => JSON.stringify({ model: 'svc-bench', input: 'benchmark', ...extra });
  const rows = [
    await compare({ pid: svc.pid, name: '/v1/responses non-streaming, store:false', endpoint, headers, body: body({ store: false }), goal: '>= 0.70' }),
    await compare({ pid: svc.pid, name: '  floor: those bytes behind the API-key hooks, no agent run', endpoint: `${info.url}/bench/floor/v1/responses`, headers, body: body({ store: false }) }),
    await compare({ pid: svc.pid, name: '/v1/responses non-streaming, stored', endpoint, headers, body: body({}) }),
    await compare({ pid: svc.pid, name: '/v1/responses streaming, store:false', endpoint, headers, body: body({ stream: true, store: false }) }),
    await compare({ pid: svc.pid, name: '/v1/chat/completions non-streaming', endpoint: `${info.url}/v1/chat/completions`, headers, body: JSON.stringify({ model: 'svc-bench', messages: [{ role: 'user', content: 'benchmark' }] }) }),
  ];
  await stopChild(svc);
  return rows;
}

/** Generation time of a 10-market event behind a 50 ms exchange, then `:cache` throughput. */
async function reports() {
  const { startFakeKalshi } = await import('../test/helpers/fake-kalshi.ts');
  const { addSeries, buildWorld, eventUrl, tenMarketSpec } = await import('../test/fixtures/kalshi-world.ts');
  const world = buildWorld();
  const tickers = ['KXBENCHA', 'KXBENCHB', 'KXBENCHC', 'KXBENCHD', 'KXBENCHE'].map((t) => addSeries(world, tenMarketSpec(t)));
  const fake = await startFakeKalshi({ world, latencyMs: 50 });
  const { child: svc, info } = await startChild('svc-server.js', [], { SVC_KALSHI_API_URL: fake.apiUrl });
  const headers = { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' };
  const endpoint = `${info.url}/v1/responses`;
  const generate = async (ticker) => {
    const before = fake.requests.length;
    const t0 = performance.now();
    const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ model: 'svc-prediction-markets-agent:refresh', input: eventUrl(world, ticker), store: false }) });
    if (res.status !== 200) throw new Error(`generation failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return { ms: performance.now() - t0, requests: fake.requests.length - before };
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Cold: a series never seen (no cached history), after a pause that refills the 10 req/s throttle.
  const cold = [];
  for (const t of tickers) {
    await new Promise((r) => setTimeout(r, 1100));
    cold.push(await generate(t));
  }
  // Warm: the same event again at once; settled history is cached, quotes are fetched fresh.
  const warm = [];
  for (let i = 0; i < 5; i++) warm.push(await generate(tickers[0]));
  const row = (name, runs) => ({
    scenario: `report generation, 10 markets, 50 ms exchange latency, ${name} (${median(runs.map((r) => r.requests))} requests)`,
    'bare req/s': '-',
    'svc req/s': '-',
    ratio: '-',
    'CPU µs/req bare/svc (ratio)': '-',
    'user+kernel µs bare | svc': '-',
    'bare p50/p99 ms': '-',
    'svc p50/p99 ms': `median ${median(runs.map((r) => r.ms)).toFixed(0)} / max ${Math.max(...runs.map((r) => r.ms)).toFixed(0)}`,
    goal: '< 2000 ms',
  });
  const rows = [row('cold', cold), row('warm', warm)];
  const input = eventUrl(world, tickers[0]);
  for (const store of [false, true]) {
    const body = JSON.stringify({ model: 'svc-prediction-markets-agent:cache', input, ...(store ? {} : { store: false }) });
    CONNECTIONS_OVERRIDE = 100;
    rows.push(await compare({ pid: svc.pid, name: `:cache non-streaming, ${store ? 'stored' : 'store:false'}, 100 connections`, endpoint, headers, body, goal: store ? '-' : '>= 0.80' }));
    if (!store) rows.push(await compare({ pid: svc.pid, name: '  floor: those bytes behind the API-key hooks, no agent run', endpoint: `${info.url}/bench/floor/v1/responses`, headers, body }));
    CONNECTIONS_OVERRIDE = null;
  }
  await stopChild(svc);
  await fake.close();
  return rows;
}

/** The web pages, signed in as a browser would be, against a bare route serving the same bytes. */
async function pages() {
  const { child: svc, info } = await startChild('svc-server.js');
  const { WebClient } = await import('../test/helpers/web-client.ts');
  const web = new WebClient(info.url);
  await web.signUp('bench-web@example.com');
  const rows = [];
  for (const [name, path, signedIn] of [
    ['GET /login (signed out)', '/login', false],
    ['GET /settings/api-keys (session lookup, keys)', '/settings/api-keys', true],
    ['GET /playground', '/playground', true],
  ]) {
    const headers = signedIn ? { cookie: web.cookieHeader() } : {};
    rows.push(await compare({ pid: svc.pid, name, endpoint: `${info.url}${path}`, headers, method: 'GET' }));
  }
  await stopChild(svc);
  return rows;
}

const SCENARIOS = { api: apiOverhead, reports, pages };
const results = [];
for (const [name, run] of Object.entries(SCENARIOS)) {
  if (values.only && values.only !== name) continue;
  process.stderr.write(`bench: ${name}…\n`);
  results.push(...(await run()));
}
console.log(`\nsvc benchmark (${os.cpus().length} cores, node ${process.version}, ${duration}s per measurement, ${CONNECTIONS} connections unless stated)`);
console.log('Each bare baseline is a fastify route receiving the same request and returning the same bytes.');
console.log('CPU µs/req is the server process\'s CPU time per request (from /proc), a steadier measure on a shared machine; its ratio is bare/svc; split into user space + kernel beside it.');
console.log('A floor row serves the row above\'s bytes from a route behind the same API-key hooks (key, rate limit, idempotency) without running an agent: the most any real route could reach.');
console.log('The bench agent answers ~8 KB of Markdown in 512-character deltas (BENCH_DELTA changes it).\n');
console.log(table(results));
