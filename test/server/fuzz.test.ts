import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/config.js';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

// Seeded random mutations of valid requests to every /v1 route, against the built-in agents on
// the shipped demo snapshots and a scripted agent. Whatever a caller sends: never a 5xx, every
// error an OpenAI-style JSON body, no stream that fails as server_error, and credits that still
// add up to their ledger afterwards. A failure prints the request, so it can be replayed.

const SEED = 20261121;
const REQUESTS = 700;
const IN_FLIGHT = 8;

let svc: TestService;
let paidKey: string;
let freeKey: string;
let paidAccount: string;

beforeAll(async () => {
  svc = await startService({
    env: { SVC_KALSHI_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'kalshi'), SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec') },
    agents: [scriptedAgent('svc-test', () => answer('An answer [1].', [{ order: 1, name: 'Source', url: 'https://example.com/1' }]), [{ name: 'cache', description: 'cached' }])],
  });
  const paid = await svc.account({ plan: 'pro', credits: 60 });
  paidKey = paid.apiKey;
  paidAccount = paid.id;
  freeKey = (await svc.account()).apiKey;
});
afterAll(() => svc.close());

/** mulberry32: small, seedable, good enough to pick mutations. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EVENT = 'https://kalshi.com/markets/kxnbagame/nba-game-winner/kxnbagame-26nov21lalbos';
const STRINGS = [
  '', ' ', 'hi', 'x'.repeat(5000), '\u0000', '\ud800', 'é✓🙂', '../../etc/passwd', '%00', '<script>', '{"a":1}', 'null', '-1', '1e309',
  'svc-agent', 'svc-sec-agent', 'svc-test', 'svc-test:cache', 'svc-agent:cache', 'svc-agent:', ':cache', 'svc-prediction-markets-agent',
  'svc-prediction-markets-agent:cache', 'svc-prediction-markets-agent:refresh', EVENT, `${EVENT.toUpperCase()}/?x=1#y`,
  'https://kalshi.com/markets/kxnbagame/x/KXNOPE-1', 'https://evil.example/markets/a/b/c', 'What was Apple revenue in Q3 2024?',
  'user', 'assistant', 'system', 'developer', 'tool', 'input_text', 'output_text', 'text', 'message', 'item_reference',
  'function_call_output', 'resp_x', 'msg_x', 'constructor', '__proto__', 'toString', 'hasOwnProperty',
];
const NUMBERS = [0, -1, 1, 1.5, 2 ** 53 + 1, 1e308, -1e308, 1e-320, 42, 100_000_000, 3];
const KEYS = ['type', 'role', 'content', 'text', 'id', 'name', 'url', 'model', 'input', 'format', 'x', 'constructor', 'toString', 'valueOf', 'length'];
const FIELDS = [
  'temperature', 'top_p', 'max_output_tokens', 'max_tokens', 'max_completion_tokens', 'n', 'metadata', 'previous_response_id', 'stream',
  'store', 'user', 'tools', 'tool_choice', 'text', 'include', 'stream_options', 'response_format', 'instructions', 'seed', 'stop',
  'reasoning', 'truncation', 'parallel_tool_calls', 'background', 'prompt', 'amount', 'reason', 'plan', 'credits', 'email', 'name',
];

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function generator(rnd: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const value = (depth = 0): unknown => {
    const r = rnd();
    if (r < 0.3) return pick(STRINGS);
    if (r < 0.45) return pick(NUMBERS);
    if (r < 0.53) return pick([true, false, null]);
    if (depth > 3) return null;
    if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 4); i > 0; i--) o[pick(KEYS)] = value(depth + 1);
    return o;
  };
  const mutate = (valid: Record<string, unknown>) => {
    const o = structuredClone(valid);
    for (let ops = 1 + Math.floor(rnd() * 3); ops > 0; ops--) {
      const keys = Object.keys(o);
      const r = rnd();
      if (r < 0.45 && keys.length) o[pick(keys)] = value();
      else if (r < 0.65) o[pick(FIELDS)] = value();
      else if (r < 0.8 && keys.length) delete o[pick(keys)];
      else {
        const list = (Array.isArray(o.messages) ? o.messages : Array.isArray(o.input) ? o.input : null) as unknown[] | null;
        if (list?.length) list[Math.floor(rnd() * list.length)] = value();
      }
    }
    return o;
  };
  const user = (content: unknown) => ({ role: 'user', content });
  const posts: [string, () => Record<string, unknown>, ('admin' | 'key')?][] = [
    ['/v1/responses', () => ({ model: 'svc-test', input: 'hi' })],
    ['/v1/responses', () => ({ model: 'svc-test', input: 'in the background', background: true })],
    ['/v1/responses/ID/cancel', () => ({})],
    ['/v1/responses', () => ({ model: 'svc-agent', input: 'What was Apple revenue in Q3 2024?', store: false })],
    ['/v1/responses', () => ({ model: pick(['svc-prediction-markets-agent', 'svc-prediction-markets-agent:cache', 'svc-prediction-markets-agent:refresh']), input: EVENT })],
    ['/v1/responses', () => ({ model: 'svc-sec-agent', input: [user([{ type: 'input_text', text: 'Apple revenue 2024' }])], instructions: 'be brief', stream: true })],
    ['/v1/responses', () => ({ model: 'svc-test:cache', input: [user('a'), { role: 'assistant', content: 'b' }, user('c')], previous_response_id: 'resp_x' })],
    ['/v1/chat/completions', () => ({ model: 'svc-test', messages: [{ role: 'system', content: 'x' }, user('Microsoft net income')] })],
    ['/v1/chat/completions', () => ({ model: 'svc-prediction-markets-agent:cache', messages: [user([{ type: 'text', text: EVENT }])], stream: true, stream_options: { include_usage: true } })],
    ['/v1/admin/accounts', () => ({ email: `fuzz${Math.floor(rnd() * 1e9)}@example.com`, plan: 'pro', credits: 5 }), 'admin'],
    [`/v1/admin/accounts/ACCOUNT`, () => ({ plan: 'plus' }), 'admin'],
    [`/v1/admin/accounts/ACCOUNT/credits`, () => ({ amount: 5, reason: 'fuzz' }), 'admin'],
    ['/v1/account/keys', () => ({ name: 'k' })],
  ];
  const gets = [
    '/v1/responses/ID', '/v1/responses/ID?stream=true&starting_after=2', '/v1/responses/ID/input_items?limit=3&order=asc', '/v1/models',
    '/v1/models/svc-test:cache', '/v1/prediction-markets/reports/KXNBAGAME-26NOV21LALBOS', '/v1/account', '/v1/account/ledger?limit=2',
    '/v1/account/keys', '/v1/documents/x.pdf?sig=1&exp=2', '/v1/admin/accounts/ACCOUNT', '/v1/admin/keys/ID',
  ];
  // Path and query values: escaped strings, and now and then escapes no URL decoder accepts.
  const encode = (s: string) => {
    if (rnd() < 0.1) return pick(['%E0%A4%A', '%', '%zz', '%ED%A0%80', '%C0%AF']);
    try {
      return encodeURIComponent(s);
    } catch {
      return '%ED%A0%80';
    }
  };
  return (known: { responseId: string }): Sent => {
    let method: string;
    let route: string;
    let body: string | undefined;
    let who: 'admin' | 'key' = 'key';
    if (rnd() < 0.2) {
      method = pick(['GET', 'DELETE', 'PATCH']);
      route = pick(gets);
      if (rnd() < 0.5) route = route.replace(/=[^&]+/, `=${encode(pick(STRINGS))}`);
    } else {
      const [p, valid, w] = pick(posts);
      method = p.endsWith('ACCOUNT') ? 'PATCH' : 'POST';
      route = p;
      who = w ?? 'key';
      body = JSON.stringify(mutate(valid()));
      if (rnd() < 0.05) body = body.slice(0, Math.floor(rnd() * body.length));
    }
    route = route.replace('ACCOUNT', rnd() < 0.7 ? paidAccount : encode(pick(STRINGS))).replace('ID', rnd() < 0.7 ? known.responseId : encode(pick(STRINGS)));
    const key = who === 'admin' ? svc.adminKey : rnd() < 0.8 ? paidKey : freeKey;
    const headers: Record<string, string> = { authorization: rnd() < 0.03 ? pick(['Bearer', `bearer  ${key}`, 'Basic eDp5', 'Bearer sk-svc-nope']) : `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = rnd() < 0.05 ? pick(['application/json; charset=latin1', 'application/JSON', 'text/plain', 'application/x-www-form-urlencoded']) : 'application/json';
    if (rnd() < 0.1) headers['idempotency-key'] = pick(['', ' ', 'x'.repeat(300), 'k1', 'k2', 'a b']);
    return { method, path: route, headers, body };
  };
}

/** What is wrong with one response, or null. */
function problemWith(status: number, type: string, text: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status >= 400) {
    if (!type.startsWith('application/json')) return `error with content type ${type}`;
    let error: Record<string, unknown> | undefined;
    try {
      error = (JSON.parse(text) as { error?: Record<string, unknown> }).error;
    } catch {
      return 'error body is not JSON';
    }
    if (!error || typeof error.message !== 'string' || !error.message || typeof error.type !== 'string') return 'error body without message and type';
    if (!('param' in error) || !('code' in error)) return 'error body without param and code';
    if (error.code === 'server_error') return 'server_error';
  }
  if (status === 200 && type.startsWith('text/event-stream') && text.includes('server_error')) return 'stream failed with server_error';
  return null;
}

it(`${REQUESTS} seeded random requests to the /v1 routes: no 5xx, OpenAI-style errors, credits that add up`, async () => {
  const next = generator(random(SEED));
  const known = { responseId: 'resp_none' };
  const problems: string[] = [];
  const statuses: Record<number, number> = {};
  let sent = 0;
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++;
      const req = next(known);
      const res = await fetch(svc.url + req.path, { method: req.method, headers: req.headers, body: req.body });
      const text = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const problem = problemWith(res.status, res.headers.get('content-type') ?? '', text);
      if (problem) problems.push(`${problem}: ${req.method} ${req.path.slice(0, 300)} ${JSON.stringify(req.headers)} ${req.body?.slice(0, 500) ?? ''} → ${res.status} ${text.slice(0, 300)}`);
      if (res.status === 200 && req.method === 'POST' && req.path === '/v1/responses' && text.startsWith('{')) {
        const r = JSON.parse(text) as { id?: string; store?: boolean };
        if (r.id && r.store !== false) known.responseId = r.id;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

  expect(problems).toEqual([]);
  // The mix reached past validation: answers, generations and every kind of refusal.
  expect(statuses[200]).toBeGreaterThan(REQUESTS / 20);
  expect(statuses[400]).toBeGreaterThan(REQUESTS / 5);
  expect(statuses[404]).toBeGreaterThan(0);
  expect(statuses[401]).toBeGreaterThan(0);

  expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  const check = await svc.service.deps.billing.verify();
  expect(check.mismatches).toEqual([]);
  expect(check.badHolds).toEqual([]);
  const ledger = (await (await fetch(`${svc.url}/v1/account/ledger?limit=100`, { headers: { authorization: `Bearer ${paidKey}` } })).json()) as { data: { kind: string }[] };
  expect(ledger.data.some((e) => e.kind === 'hold')).toBe(true);
}, 120_000);

it('streams cut off at random points: every run ends, no hold is left open, credits add up', async () => {
  const rnd = random(SEED + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const { id: account, apiKey } = await svc.account({ plan: 'pro', credits: 300 });
  const bodies = [
    (): [string, unknown] => ['/v1/responses', { model: pick(['svc-prediction-markets-agent', 'svc-prediction-markets-agent:refresh']), input: EVENT, stream: true, store: rnd() < 0.5 }],
    (): [string, unknown] => ['/v1/responses', { model: 'svc-agent', input: 'What was Apple revenue in Q3 2024?', stream: true }],
    (): [string, unknown] => ['/v1/chat/completions', { model: 'svc-prediction-markets-agent:refresh', messages: [{ role: 'user', content: EVENT }], stream: true }],
    (): [string, unknown] => ['/v1/chat/completions', { model: 'svc-sec-agent', messages: [{ role: 'user', content: 'Microsoft net income Q2 2024' }], stream: true }],
  ];
  const cut = async () => {
    const [route, body] = pick(bodies)();
    const ctrl = new AbortController();
    const keep = Math.floor(rnd() * 4000);
    try {
      const res = await fetch(svc.url + route, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: ctrl.signal });
      const reader = res.body!.getReader();
      for (let read = 0; read <= keep; ) {
        const { value, done } = await reader.read();
        if (done) return;
        read += value.length;
      }
      ctrl.abort();
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  };
  for (let round = 0; round < 10; round++) await Promise.all(Array.from({ length: 6 }, cut));

  // Runs whose clients left finish (or stop) on their own; then every hold is settled.
  const deps = svc.service.deps;
  const settled = async () => {
    const open = await deps.store.db.selectFrom('holds').select('id').where('account_id', '=', account).where('state', '=', 'held').execute();
    return deps.inflight.count === 0 && open.length === 0;
  };
  for (let waited = 0; !(await settled()); waited += 50) {
    if (waited > 20_000) throw new Error(`still in flight: ${deps.inflight.count} runs`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const check = await deps.billing.verify();
  expect(check.mismatches).toEqual([]);
  expect(check.badHolds).toEqual([]);
  // What was charged is exactly the reports generated for this account (3 credits each), no more.
  const captured = await deps.store.db.selectFrom('holds').select('id').where('account_id', '=', account).where('state', '=', 'captured').execute();
  const balance = (await deps.accounts.getAccount(account)).credits;
  expect(captured.length).toBeGreaterThan(0);
  expect(balance).toBe(300 - 3 * captured.length);
  expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
}, 120_000);
