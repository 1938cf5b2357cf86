import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { predictionMarketsFromCore } from '../../../src/agents/index.js';
import { KalshiClient } from '../../../src/data/kalshi/client.js';
import { WORLD_NOW, addSeries, buildWorld, eventUrl, tenMarketSpec } from '../../fixtures/kalshi-world.js';
import { ReportFlights } from '../../../src/reports/flights.js';
import { SvcError } from '../../../src/errors.js';
import { fingerprint } from '../../../src/billing/idempotency.js';
import { startFakeKalshi, type FakeKalshi } from '../../helpers/fake-kalshi.js';
import type { FakeReply, FakeRequest } from '../../helpers/fake-http.js';
import { sleep } from '../../helpers/scripted-agent.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post, readSse } from '../../helpers/sse.js';

const MODEL = 'svc-prediction-markets-agent';
let fake: FakeKalshi;
let svc: TestService;
let intercept: ((req: FakeRequest) => FakeReply | undefined) | undefined;

beforeAll(async () => {
  // Series of their own for the tests of generations led elsewhere: nothing else stores or claims them.
  const world = buildWorld();
  for (const ticker of ['KXLAPSED', 'KXRETRYLAPSED', 'KXPAIDLAPSED', 'KXNOSTART', 'KXSTOPPED', 'KXSTOREDMEANWHILE', 'KXIDEMSTREAM', 'KXIDEMPLAIN', 'KXIDEMCRASH', 'KXSAVEDTHENDIED', 'KXCANCELLED']) addSeries(world, tenMarketSpec(ticker));
  fake = await startFakeKalshi({ world, intercept: (req) => intercept?.(req) });
  svc = await startService({
    env: { SVC_KALSHI_API_URL: fake.apiUrl, SVC_KALSHI_RETRIES: '2', SVC_KALSHI_TIMEOUT_MS: '400', SVC_KEEPALIVE_MS: '3000' },
    // The fake exchange lives at WORLD_NOW: pin the agent's clock to it.
    agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
  });
});
afterEach(() => {
  intercept = undefined;
});
afterAll(async () => {
  await svc.close();
  await fake.close();
});

const urlOf = (series: string) => eventUrl(fake.world, fake.world.openEvents.find((t) => t.startsWith(`${series}-`))!);
const tickerOf = (series: string) => fake.world.openEvents.find((t) => t.startsWith(`${series}-`))!;
const balance = async (id: string) => (await svc.service.deps.accounts.getAccount(id)).credits;
const ledgerKinds = async (id: string) =>
  (await svc.service.deps.billing.ledger(id, { limit: 100 })).entries.map((e) => `${e.kind}:${e.amount}`).reverse();
const reportsOf = (series: string) => svc.service.deps.reports.versions(tickerOf(series));

describe('input and refusals (nothing charged)', () => {
  it('refuses anything but a Kalshi event address with 400 invalid_event_url', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    for (const input of ['What are the odds of a Fed cut?', 'https://polymarket.com/event/x', 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26dec-t3.0']) {
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input });
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect(err).toMatchObject({ code: 'invalid_event_url', param: 'input' });
      expect(err.message).toContain('https://kalshi.com/markets/<series>/<slug>/<event_ticker>');
    }
    // A market's address names the market's event, as the exchange gives it, for any plan and variant.
    const free = await svc.account({ plan: 'free' });
    for (const [key, model] of [[apiKey, MODEL], [free.apiKey, MODEL], [free.apiKey, `${MODEL}:cache`]] as const) {
      const market = fake.world.events.get(tickerOf('KXCPIYOY'))!.markets[1]!;
      const res = await post(`${svc.baseURL}/responses`, key, { model, input: `https://kalshi.com/markets/kxcpiyoy/cpi/${market.ticker.toLowerCase()}` });
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect(err.code).toBe('invalid_event_url');
      expect(err.message).toContain(`is the market for “${market.yes_sub_title}”, an outcome inside an event, not an event; its event is ${tickerOf('KXCPIYOY')}, at https://kalshi.com/markets/kxcpiyoy/cpi/${tickerOf('KXCPIYOY').toLowerCase()}.`);
    }
    // An empty input too, on both endpoints and every variant, naming the form (the generic check says "empty").
    const empties = [
      ['/responses', { model: MODEL, input: '   ' }, 'input'],
      ['/responses', { model: `${MODEL}:cache`, input: [{ role: 'user', content: '' }] }, 'input[0]'],
      ['/chat/completions', { model: `${MODEL}:refresh`, messages: [{ role: 'user', content: ' ' }] }, 'messages[0]'],
    ] as const;
    for (const [path, body, param] of empties) {
      const res = await post(`${svc.baseURL}${path}`, apiKey, body);
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect(err).toMatchObject({ code: 'invalid_event_url', param });
      expect(err.message).toMatch(/empty.*Send the address of a Kalshi event page: https:\/\/kalshi\.com\/markets\/<series>\/<slug>\/<event_ticker>/);
    }
    expect(await balance(id)).toBe(10);
  });

  it('answers 404 event_not_found for an event the exchange does not know', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: 'https://kalshi.com/markets/kxfeddecision/fed/kxfeddecision-30jan' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.code).toBe('event_not_found');
    expect([res.headers.get('x-credits-charged'), res.headers.get('x-credits-remaining')]).toEqual(['0', '10']);
    expect(await ledgerKinds(id)).toEqual(['grant:10']);
  });

  it('an event the exchange lists without markets is a 422 event_has_no_markets, on every paying variant, before anything is held', async () => {
    const source = fake.world.events.get(tickerOf('KXCPIYOY'))!;
    fake.world.events.set('KXCPIYOY-26NOMARKETS', { ...source, event_ticker: 'KXCPIYOY-26NOMARKETS', markets: [] });
    try {
      const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
      for (const model of [MODEL, `${MODEL}:refresh`]) {
        const res = await post(`${svc.baseURL}/responses`, apiKey, { model, input: 'https://kalshi.com/markets/kxcpiyoy/cpi/kxcpiyoy-26nomarkets' });
        expect(res.status).toBe(422);
        const err = ((await res.json()) as any).error;
        expect(err).toMatchObject({ code: 'event_has_no_markets', param: 'input' });
        expect(err.message).toContain('nothing was charged');
      }
      expect(await ledgerKinds(id)).toEqual(['grant:10']);
      expect(await svc.service.deps.reports.versions('KXCPIYOY-26NOMARKETS')).toEqual([]);
    } finally {
      fake.world.events.delete('KXCPIYOY-26NOMARKETS');
    }
  });

  it(':cache with nothing stored is 404 report_not_cached, naming the model that generates one', async () => {
    const { apiKey } = await svc.account({ plan: 'free' });
    const res = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: `${MODEL}:cache`, messages: [{ role: 'user', content: urlOf('KXSEAICE') }] });
    expect(res.status).toBe(404);
    const err = ((await res.json()) as any).error;
    expect(err.code).toBe('report_not_cached');
    expect(err.message).toContain(`'${MODEL}' generates one`);
    // An event the exchange does not know: said so, not "generate one", which would fail too.
    const unknown = await post(`${svc.baseURL}/chat/completions`, apiKey, { model: `${MODEL}:cache`, messages: [{ role: 'user', content: 'https://kalshi.com/markets/kxseaice/arctic-sea-ice/kxseaice-99jan' }] });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('event_not_found');
  });

  it('generating needs a paid plan (403) and 3 credits (402)', async () => {
    const free = await svc.account({ plan: 'free', credits: 50 });
    const r1 = await post(`${svc.baseURL}/responses`, free.apiKey, { model: MODEL, input: urlOf('KXAIMODEL') });
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as any).error.code).toBe('plan_required');
    expect(r1.headers.get('x-credits-charged')).toBe('0');
    // An event the exchange does not know is a 404 on every plan: no plan would make it one.
    const unknown = await post(`${svc.baseURL}/responses`, free.apiKey, { model: MODEL, input: 'https://kalshi.com/markets/kxseaice/arctic-sea-ice/kxseaice-99jan' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('event_not_found');
    const poor = await svc.account({ plan: 'plus', credits: 2 });
    const r2 = await post(`${svc.baseURL}/responses`, poor.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXAIMODEL'), stream: true });
    expect(r2.status).toBe(402);
    expect(r2.headers.get('x-credits-remaining')).toBe('2');
    expect(await reportsOf('KXAIMODEL')).toEqual([]);
  });
});

describe('variants, caching and billing', () => {
  it('default: generates once (3 credits), then serves the stored report free to everyone', async () => {
    const payer = await svc.account({ plan: 'pro', credits: 10 });
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey: payer.apiKey, maxRetries: 0 });
    const first = await client.responses.create({ model: MODEL, input: urlOf('KXFEDDECISION') }).withResponse();
    expect(first.response.headers.get('x-report-cache')).toBe('miss');
    expect(first.response.headers.get('x-credits-charged')).toBe('3');
    expect(first.response.headers.get('x-credits-remaining')).toBe('7');
    expect(first.response.headers.get('x-report-generated-at')).toMatch(/^2\d{3}-/);
    const text = first.data.output_text;
    expect(text).toContain('## Outcomes: model vs market');
    const annotations = (first.data.output[0] as any).content[0].annotations as any[];
    expect(annotations.length).toBeGreaterThan(5);
    for (const a of annotations) expect(text.slice(a.start_index, a.end_index)).toBe(`[${a.order}]`);
    expect(await ledgerKinds(payer.id)).toEqual(['grant:10', 'hold:-3', 'capture:0']);

    const again = await client.responses.create({ model: MODEL, input: urlOf('KXFEDDECISION') }).withResponse();
    expect(again.response.headers.get('x-report-cache')).toBe('hit');
    expect(again.response.headers.get('x-credits-charged')).toBe('0');
    expect(again.data.output_text).toBe(text);
    expect(await balance(payer.id)).toBe(7);

    // Cached reports are free on every plan, through both endpoints, at any letter case.
    const free = await svc.account({ plan: 'free' });
    const chat = await new OpenAI({ baseURL: svc.baseURL, apiKey: free.apiKey })
      .chat.completions.create({ model: `${MODEL}:cache`, messages: [{ role: 'user', content: urlOf('KXFEDDECISION').toUpperCase() }] })
      .withResponse();
    expect(chat.response.headers.get('x-report-cache')).toBe('hit');
    expect(chat.data.choices[0]!.message.content).toBe(text);
    expect((chat.data.choices[0] as any).citations.length).toBe(annotations.length);
    const defaultFree = await post(`${svc.baseURL}/responses`, free.apiKey, { model: MODEL, input: urlOf('KXFEDDECISION') });
    expect(defaultFree.status).toBe(200);
  });

  it('stored responses that served a report refer to it (one copy of its text) and read back whole: GET, replay, previous_response_id, item_reference', async () => {
    const { apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const input = urlOf('KXBTCD');
    const generated = await client.responses.create({ model: `${MODEL}:refresh`, input });
    const served = await client.responses.create({ model: `${MODEL}:cache`, input });
    const [v1] = await reportsOf('KXBTCD');
    await svc.service.deps.responses.flush();
    const db = svc.service.deps.store.db;
    for (const id of [generated.id, served.id]) {
      const row = await db.selectFrom('responses').select(['output_text', 'transcript']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.output_text).toBe('');
      expect(JSON.parse(row.transcript)).toContainEqual(['R', `report:${v1!.id}`]);
      expect(row.transcript.length).toBeLessThan(200);
    }

    // A newer version does not change what an earlier response said.
    await (await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input, store: false })).text();
    expect((await reportsOf('KXBTCD')).length).toBe(2);
    const read = await client.responses.retrieve(served.id);
    expect(read.output_text).toBe(served.output_text);
    expect(read.output).toEqual(served.output);
    const replayed = await readSse(await fetch(`${svc.baseURL}/responses/${served.id}?stream=true`, { headers: { authorization: `Bearer ${apiKey}` } }));
    const completed = JSON.parse(replayed.frames.find((f) => f.event === 'response.completed')!.data);
    expect(completed.response.output).toEqual(served.output);

    // Later turns see the whole answer as the assistant's turn.
    const next = await client.responses.create({ model: `${MODEL}:cache`, input, previous_response_id: served.id });
    const items = await client.responses.inputItems.list(next.id, { order: 'asc' });
    expect(items.data.map((i: any) => i.content[0].text)).toEqual([input, served.output_text, input]);
    const referenced = await client.responses.create({
      model: `${MODEL}:cache`,
      input: [{ type: 'item_reference', id: (served.output[0] as any).id } as any, { role: 'user', content: input }],
    });
    const referencedItems = await client.responses.inputItems.list(referenced.id, { order: 'asc' });
    expect(referencedItems.data.map((i: any) => i.content[0].text)).toEqual([served.output_text, input]);

    // Continuations keep the report as a reference too, down a chain: no row holds a copy.
    const third = await client.responses.create({ model: `${MODEL}:cache`, input, previous_response_id: next.id });
    await svc.service.deps.responses.flush();
    for (const id of [next.id, referenced.id, third.id]) {
      const row = await db.selectFrom('responses').select(['conversation']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.conversation).toContain(`"answerRef":"report:${v1!.id}"`);
      expect(row.conversation).not.toContain(served.output_text.slice(0, 200));
    }
    const thirdItems = await client.responses.inputItems.list(third.id, { order: 'asc' });
    expect(thirdItems.data.map((i: any) => i.content[0].text)).toEqual([input, served.output_text, input, next.output_text, input]);
  });

  it(':refresh always generates a new version and charges; GET lists every version', async () => {
    const { id, apiKey } = await svc.account({ plan: 'enterprise', credits: 9 });
    for (let i = 0; i < 2; i++) {
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXSPACEX') });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-report-cache')).toBe('miss');
      await res.text();
    }
    expect(await balance(id)).toBe(3);
    const stored = (await (await fetch(`${svc.baseURL}/prediction-markets/reports/${tickerOf('KXSPACEX').toLowerCase()}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as any;
    expect(stored).toMatchObject({ object: 'prediction_market.report', event_ticker: tickerOf('KXSPACEX'), version: 2, source: 'live' });
    expect(stored.versions.map((v: any) => v.version)).toEqual([2, 1]);
    expect(stored.text).toContain('## Contract snapshot');
    const v1 = await fetch(`${svc.baseURL}/prediction-markets/reports/${tickerOf('KXSPACEX')}?version=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(((await v1.json()) as any).version).toBe(1);
    const none = await fetch(`${svc.baseURL}/prediction-markets/reports/KXNOPE-1`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(none.status).toBe(404);
  });

  it("cites the event page built from the exchange's data, not the address it was asked with (the report is shared)", async () => {
    const { apiKey } = await svc.account({ plan: 'pro', credits: 30 });
    const ticker = tickerOf('KXSHUTDOWN');
    const odd = `https://kalshi.com/markets/evil-phish/anything-here/${ticker.toLowerCase()}`;
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: odd });
    expect(res.status).toBe(200);
    const first = ((await res.json()) as any).output[0].content[0].annotations[0];
    expect(first.url).toBe(urlOf('KXSHUTDOWN'));
    expect(first.url).not.toContain('evil-phish');
  });

  it('concurrent requests for one event: exactly one generation and one charge; the rest join free', async () => {
    const accounts = await Promise.all([1, 2, 3].map(() => svc.account({ plan: 'pro', credits: 30 })));
    const before = fake.count(`/trade-api/v2/markets/orderbooks`);
    const eventPath = `/trade-api/v2/events/${tickerOf('KXNBAGAME')}`;
    const eventsBefore = fake.count(eventPath);
    const results = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await post(`${svc.baseURL}/responses`, accounts[i % 3]!.apiKey, { model: MODEL, input: urlOf('KXNBAGAME'), stream: i % 2 === 0 });
        const body = i % 2 === 0 ? (await readSse(res)).raw : await res.text();
        return { cache: res.headers.get('x-report-cache'), generatedAt: res.headers.get('x-report-generated-at'), stream: i % 2 === 0, body };
      }),
    );
    expect(fake.count('/trade-api/v2/markets/orderbooks') - before).toBe(1);
    // The existence check is shared by requests arriving together; the generation reads the event once more.
    expect(fake.count(eventPath) - eventsBefore).toBeLessThanOrEqual(3);
    // A plain answer that joined says when the report it got was generated (a stream's headers left before).
    const generated = new Set(results.filter((r) => !r.stream).map((r) => r.generatedAt));
    expect(generated.size).toBe(1);
    expect([...generated][0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(results.filter((r) => r.cache === 'miss')).toHaveLength(1);
    expect(results.filter((r) => r.cache === 'joined' || r.cache === 'hit')).toHaveLength(11);
    const balances = await Promise.all(accounts.map((a) => balance(a.id)));
    expect(balances.reduce((s, b) => s + b, 0)).toBe(87);
    expect(await reportsOf('KXNBAGAME')).toHaveLength(1);
    expect((await svc.service.deps.billing.verify()).mismatches).toEqual([]);
  });

  it('a generation whose client disconnected still completes, is stored, and stays charged', async () => {
    const slow = await startFakeKalshi({ latencyMs: 120 });
    const other = await startService({
      env: { SVC_KALSHI_API_URL: slow.apiUrl },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const acct = await other.account({ plan: 'pro', credits: 6 });
      const ctrl = new AbortController();
      const res = await fetch(`${other.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acct.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: urlOf('KXPAYROLLS') }], stream: true }),
        signal: ctrl.signal,
      });
      expect(res.headers.get('x-report-cache')).toBe('miss');
      await res.body!.getReader().read();
      ctrl.abort();
      for (let i = 0; i < 100 && !(await other.service.deps.reports.versions(tickerOf('KXPAYROLLS'))).length; i++) await sleep(100);
      expect(await other.service.deps.reports.versions(tickerOf('KXPAYROLLS'))).toHaveLength(1);
      await sleep(100);
      const kinds = (await other.service.deps.billing.ledger(acct.id, { limit: 10 })).entries.map((e) => e.kind).reverse();
      expect(kinds).toEqual(['grant', 'hold', 'capture']);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('streams: created and in_progress at once, keep-alives while generating, then the report; stored ones in chunks', async () => {
    const slowFake = await startFakeKalshi({ latencyMs: 150 });
    const s2 = await startService({
      env: { SVC_KALSHI_API_URL: slowFake.apiUrl, SVC_KEEPALIVE_MS: '100' },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const acct = await s2.account({ plan: 'pro', credits: 10 });
      const res = await post(`${s2.baseURL}/responses`, acct.apiKey, { model: MODEL, input: urlOf('KXETHD'), stream: true });
      const sse = await readSse(res);
      const types = sse.frames.map((f) => f.event);
      expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(sse.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(1);
      expect(sse.comments.some((c) => c.startsWith('Fetching KXETHD'))).toBe(true);
      expect(types.at(-1)).toBe('response.completed');
      const stored = await s2.service.deps.reports.latest(tickerOf('KXETHD'));
      const deltas = sse.frames.filter((f) => f.event === 'response.output_text.delta').map((f) => JSON.parse(f.data).delta as string);
      expect(deltas.join('')).toBe(stored!.text);
      expect(deltas.length).toBeGreaterThan(2);
      // A stored report streams in the same chunks, at once.
      const hit = await readSse(await post(`${s2.baseURL}/responses`, acct.apiKey, { model: `${MODEL}:cache`, input: urlOf('KXETHD'), stream: true }));
      expect(hit.frames.filter((f) => f.event === 'response.output_text.delta').map((f) => JSON.parse(f.data).delta)).toEqual(deltas);
    } finally {
      await s2.close();
      await slowFake.close();
    }
  });

  it('at shutdown, a generation still running past the grace period stops and gives its credits back before storage closes', async () => {
    let hanging = 0;
    const stuck = await startFakeKalshi({ intercept: (req) => (req.path.endsWith('/markets/orderbooks') ? (hanging++, 'hang') : undefined) });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-shutdown-'));
    const other = await startService({
      dataDir,
      env: { SVC_KALSHI_API_URL: stuck.apiUrl, SVC_KALSHI_TIMEOUT_MS: '60000', SVC_SHUTDOWN_GRACE_MS: '300' },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const payer = await other.account({ plan: 'pro', credits: 10 });
      // Streamed: its headers said it was charged, so its ending says the credits come back.
      const asked = post(`${other.baseURL}/responses`, payer.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXSPACEX'), stream: true }).then((r) => r.text());
      while (!hanging) await new Promise((r) => setTimeout(r, 20));
      expect((await other.service.deps.accounts.getAccount(payer.id)).credits).toBe(7);
      const started = Date.now();
      await other.close();
      expect(Date.now() - started).toBeLessThan(5000);
      const ending = await asked;
      expect(ending).toContain('The server is shutting down and ended this request; retry it. The 3 credits held for the report are given back');
      expect(ending).toContain('event: response.failed');
      // Storage is closed: read what it kept straight from the database file.
      const db = new BetterSqlite3(path.join(dataDir, 'svc.db'), { readonly: true });
      try {
        expect(db.prepare('select credits from accounts where id = ?').get(payer.id)).toEqual({ credits: 10 });
        expect(db.prepare('select state from holds where account_id = ?').all(payer.id)).toEqual([{ state: 'released' }]);
        expect(db.prepare('select state from report_jobs').all()).not.toContainEqual({ state: 'running' });
      } finally {
        db.close();
      }
    } finally {
      await stuck.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a generation outlasting the hold lease stays charged (the lease is renewed while it runs); a Free account cannot join it', async () => {
    const slow = await startFakeKalshi({ latencyMs: 300 });
    const other = await startService({
      env: { SVC_KALSHI_API_URL: slow.apiUrl, SVC_HOLD_LEASE_MS: '1000', SVC_SWEEP_INTERVAL_MS: '100' },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const payer = await other.account({ plan: 'pro', credits: 6 });
      const free = await other.account({ plan: 'free', credits: 6 });
      const started = Date.now();
      const generating = post(`${other.baseURL}/responses`, payer.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXCPIYOY') });
      const kinds = async () => (await other.service.deps.billing.ledger(payer.id, { limit: 10 })).entries.map((e) => e.kind).reverse();
      while (!(await kinds()).includes('hold')) await sleep(20);
      // Generating needs a paid plan, also while another request is generating the same event.
      const refused = await post(`${other.baseURL}/responses`, free.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXCPIYOY') });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as any).error.code).toBe('plan_required');
      expect(refused.headers.get('x-credits-remaining')).toBe('6');
      const res = await generating;
      expect(res.status).toBe(200);
      // The premise: the generation took longer than two leases, with the sweeper running throughout.
      expect(Date.now() - started).toBeGreaterThan(2000);
      expect(res.headers.get('x-credits-charged')).toBe('3');
      expect(await kinds()).toEqual(['grant', 'hold', 'capture']);
      expect((await other.service.deps.accounts.getAccount(payer.id)).credits).toBe(3);
      expect((await other.service.deps.billing.verify()).mismatches).toEqual([]);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('a generation whose hold lapsed and was given back meanwhile (its renewals stalled) keeps no report and charges nothing', async () => {
    const slow = await startFakeKalshi({ latencyMs: 150 });
    const other = await startService({
      env: { SVC_KALSHI_API_URL: slow.apiUrl },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const payer = await other.account({ plan: 'pro', credits: 6 });
      const generating = post(`${other.baseURL}/responses`, payer.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXCPIYOY') });
      const kinds = async () => (await other.service.deps.billing.ledger(payer.id, { limit: 10 })).entries.map((e) => e.kind).reverse();
      while (!(await kinds()).includes('hold')) await sleep(10);
      // As if no renewal had reached the database for a whole lease: the sweeper gives the credits back.
      expect(await other.service.deps.billing.sweep(Date.now() + 2 * other.service.deps.billing.leaseMs)).toBe(1);
      const res = await generating;
      expect(res.status).toBe(503);
      expect(((await res.json()) as any).error).toMatchObject({ code: 'generation_unpaid' });
      expect(await kinds()).toEqual(['grant', 'hold', 'release']);
      expect((await other.service.deps.accounts.getAccount(payer.id)).credits).toBe(6);
      expect(await other.service.deps.reports.versions(tickerOf('KXCPIYOY'))).toEqual([]);
      expect((await other.service.deps.billing.verify()).mismatches).toEqual([]);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('a generation that stalled while another replica took it over on its hold (stored, captured) answers with that report, charged once, not a 503 saying nothing was charged', async () => {
    const slow = await startFakeKalshi({ latencyMs: 150 });
    const other = await startService({
      env: { SVC_KALSHI_API_URL: slow.apiUrl },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const { billing, reports, accounts } = other.service.deps;
      const payer = await other.account({ plan: 'pro', credits: 6 });
      const ticker = tickerOf('KXCPIYOY');
      const generating = post(`${other.baseURL}/responses`, payer.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXCPIYOY') });
      let holdId: string | null = null;
      while (!holdId) {
        holdId = (await billing.ledger(payer.id, { limit: 10 })).entries.find((e) => e.kind === 'hold')?.holdId ?? null;
        if (!holdId) await sleep(10);
      }
      // What the replica that took over does: stores its report on the payer's hold, then captures it.
      const takenOver = await reports.save({ eventTicker: ticker, seriesTicker: 'KXCPIYOY', title: 't', text: `The report the takeover stored on ${ticker}.`, citations: [], outputTokens: 8, asOf: new Date().toISOString(), source: 'live', generatedAt: Date.now(), accountId: payer.id, holdId });
      expect(await billing.capture(holdId)).toBe('captured');
      const res = await generating;
      expect(res.status).toBe(200);
      expect(res.headers.get('x-credits-charged')).toBe('3');
      expect(((await res.json()) as any).output[0].content[0].text).toBe(takenOver.text);
      expect((await billing.ledger(payer.id, { limit: 10 })).entries.map((e) => e.kind).reverse()).toEqual(['grant', 'hold', 'capture']);
      expect((await accounts.getAccount(payer.id)).credits).toBe(3);
      // One report, the takeover's: this replica stored none of its own.
      expect((await reports.versions(ticker)).length).toBe(1);
      expect((await billing.verify()).mismatches).toEqual([]);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('an Idempotency-Key retry of a generation never charges twice', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const headers = { 'idempotency-key': `report-${id}` };
    const a = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXHIGHNY') }, headers);
    const b = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXHIGHNY') }, headers);
    expect(await b.text()).toBe(await a.text());
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance(id)).toBe(7);
  });

  const waitForVersions = async (series: string, n: number) => {
    for (let i = 0; i < 400 && (await reportsOf(series)).length < n; i++) await sleep(25);
    expect(await reportsOf(series)).toHaveLength(n);
  };

  it('a client that left mid-generation and retries with its Idempotency-Key gets the report it paid for, free (streamed and plain)', async () => {
    for (const [series, stream] of [
      ['KXIDEMSTREAM', true],
      ['KXIDEMPLAIN', false],
    ] as const) {
      const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
      const headers = { 'idempotency-key': `left-${id}` };
      const body = { model: `${MODEL}:refresh`, messages: [{ role: 'user', content: urlOf(series) }], stream };
      const ctrl = new AbortController();
      const first = fetch(`${svc.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: ctrl.signal,
      });
      if (stream) await (await first).body!.getReader().read();
      else while (!(await ledgerKinds(id)).includes('hold:-3')) await sleep(10);
      ctrl.abort();
      await first.catch(() => {});
      // Retried at once: the generation it paid for is still running (409, nothing charged), or it is served.
      let retry: Response;
      for (;;) {
        retry = await post(`${svc.baseURL}/chat/completions`, apiKey, body, headers);
        if (retry.status !== 409) break;
        expect(((await retry.json()) as any).error.code).toBe('idempotency_key_in_progress');
        await sleep(100);
      }
      expect(retry.status, series).toBe(200);
      expect(retry.headers.get('x-credits-charged')).toBe('0');
      const text = stream ? (await readSse(retry)).raw : ((await retry.json()) as any).choices[0].message.content;
      expect(text).toContain(tickerOf(series));
      await waitForVersions(series, 1);
      expect(await balance(id), series).toBe(7);
      expect(await ledgerKinds(id)).toEqual(['grant:10', 'hold:-3', 'capture:0']);
    }
  });

  it('a retry after the server died between storing a report and capturing its hold is never charged again', async () => {
    const deps = svc.service.deps;
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const ticker = tickerOf('KXIDEMCRASH');
    const body = { model: `${MODEL}:refresh`, input: urlOf('KXIDEMCRASH') };
    const key = `crash-${id}`;
    // What the dead server left: the key in progress (its lock lapsed), the hold held, the report stored with it.
    const since = Date.now() - 120_000;
    await deps.store.db
      .insertInto('idempotency_keys')
      .values({ account_id: id, key, endpoint: 'POST /v1/responses', fingerprint: fingerprint('POST /v1/responses', body), state: 'in_progress', locked_until: since + 60_000, status_code: null, headers: null, body: null, created_at: since, expires_at: since + 86_400_000 })
      .execute();
    const { hold } = await deps.billing.hold({ accountId: id, amount: 3, jobId: `report:${id}:${key}@${since}`, what: 'Generating a prediction-market report' });
    await deps.reports.save({ eventTicker: ticker, seriesTicker: 'KXIDEMCRASH', title: 't', text: `Report on ${ticker}.`, citations: [], outputTokens: 4, asOf: new Date().toISOString(), source: 'live', generatedAt: Date.now(), accountId: id, holdId: hold.id });
    // Its hold still runs its lease: retries wait (409), however many, and pay nothing.
    for (let i = 0; i < 3; i++) {
      const r = await post(`${svc.baseURL}/responses`, apiKey, body, { 'idempotency-key': key });
      expect(r.status).toBe(409);
      expect(((await r.json()) as any).error.code).toBe('idempotency_key_in_progress');
    }
    // The lease lapses: the sweeper captures the hold (its report was stored); the retry is served that report.
    await deps.billing.sweep(Date.now() + deps.billing.leaseMs + 1000);
    const served = await post(`${svc.baseURL}/responses`, apiKey, body, { 'idempotency-key': key });
    expect(served.status).toBe(200);
    expect(served.headers.get('x-credits-charged')).toBe('0');
    expect(((await served.json()) as any).output[0].content[0].text).toBe(`Report on ${ticker}.`);
    expect(await balance(id)).toBe(7);
    expect((await deps.billing.verify()).mismatches).toEqual([]);
  });

  it('an Idempotency-Key reused after it expired is a new request: a new report, charged (not the old one free, nor a 409)', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const headers = { 'idempotency-key': `reused-${id}` };
    const first = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXNFLGAME') }, headers);
    expect(first.status).toBe(200);
    await first.text();
    // The key's TTL passes (24 h by default).
    await svc.service.deps.store.db.updateTable('idempotency_keys').set({ expires_at: 0 }).where('key', '=', headers['idempotency-key']).execute();
    for (const series of ['KXBTCD', 'KXNFLGAME']) {
      const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf(series) }, headers);
      expect(res.status, series).toBe(200);
      expect(res.headers.get('x-report-cache')).toBe('miss');
      expect(res.headers.get('x-credits-charged')).toBe('3');
      expect(((await res.json()) as any).output[0].content[0].text).toContain(tickerOf(series));
      await svc.service.deps.store.db.updateTable('idempotency_keys').set({ expires_at: 0 }).where('key', '=', headers['idempotency-key']).execute();
    }
    expect(await balance(id)).toBe(1);
  });
});

describe('when the exchange misbehaves', () => {
  it('a decided outcome the exchange sends without its status is reported as decided, not a 500', async () => {
    const { apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const ticker = tickerOf('KXHIGHNY');
    const event = fake.world.events.get(ticker)!;
    intercept = (req) => {
      if (!req.path.endsWith(`/events/${ticker}`)) return undefined;
      const markets = event.markets.map(({ anchor: _a, weekAgo: _w, ...m }, i) => (i === 0 ? { ...m, result: 'no', status: undefined } : m));
      return { json: { event: { ...event, markets } } };
    };
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXHIGHNY') });
    // It crashed writing the table ("Cannot read properties of undefined").
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).output[0].content[0].text).toMatch(/\| resolved NO \| — \| — \| — \(decided\) \|/);
  });

  it('an event ticker of three parts is not called a market ticker while the exchange is down: 502, nothing charged', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    intercept = (req) => (/\/(markets|events)\/KXTRIPLE-26DEC-NYC$/.test(req.path) ? { status: 503, json: {} } : undefined);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: 'https://kalshi.com/markets/kxtriple/triple/kxtriple-26dec-nyc' });
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.code).toBe('upstream_unavailable');
    expect(await balance(id)).toBe(10);
  });

  it('retries 429 (honouring Retry-After) and 5xx, then succeeds', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    let n = 0;
    intercept = (req) => {
      if (!req.path.endsWith('/markets/orderbooks')) return undefined;
      n++;
      return n === 1 ? { status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '0' } } : n === 2 ? { status: 503, json: {} } : undefined;
    };
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: urlOf('KXBOXOFFICE') });
    expect(res.status).toBe(200);
    expect(n).toBe(3);
    expect(await balance(id)).toBe(7);
  });

  it('a consumer that stops reading as the hold is taken does not strand the hold or the event', async () => {
    const { id } = await svc.account({ plan: 'pro', credits: 9 });
    const { agent, ref } = svc.service.deps.agents.resolve(`${MODEL}:refresh`);
    const before = (await reportsOf('KXSPACEX')).length;
    const request = (accountId: string) => ({
      model: ref,
      messages: [{ role: 'user' as const, content: urlOf('KXSPACEX') }],
      instructions: null,
      caller: { accountId, plan: 'pro' as const, keyId: null },
      requestId: 'req_test',
      idempotencyKey: null,
      signal: new AbortController().signal,
    });
    const events = agent.run(request(id))[Symbol.asyncIterator]();
    // The first event says a generation was paid for; the consumer then goes away (what a client
    // that disconnects during the exchange lookup amounts to) and the generator is closed there.
    expect(await events.next()).toMatchObject({ value: { type: 'meta', meta: { reportCache: 'miss', credits: { charged: 3, remaining: 6 } } } });
    await events.return!(undefined);
    // The generation still runs to its end: stored, and charged once (never held for the sweeper to give back).
    for (let i = 0; i < 100 && (await reportsOf('KXSPACEX')).length === before; i++) await sleep(50);
    expect(await reportsOf('KXSPACEX')).toHaveLength(before + 1);
    await sleep(50);
    expect(await ledgerKinds(id)).toEqual(['grant:9', 'hold:-3', 'capture:0']);
    // And the event is not left claimed: the next request generates (or is served), it does not wait for ever.
    const next = await svc.account({ plan: 'pro', credits: 3 });
    const res = await post(`${svc.baseURL}/responses`, next.apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXSPACEX') });
    expect(res.status).toBe(200);
    expect(await reportsOf('KXSPACEX')).toHaveLength(before + 2);
  });

  it('gives a clear 502 when the exchange keeps failing, charges nothing and stores nothing', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    intercept = (req) => (req.path.includes('/candlesticks') ? { status: 500, json: { error: 'internal' } } : undefined);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: urlOf('KXAPPROVAL') });
    expect(res.status).toBe(502);
    const err = ((await res.json()) as any).error;
    expect(err).toMatchObject({ code: 'upstream_unavailable', type: 'upstream_error' });
    expect(err.message).toMatch(/Kalshi answered 500 \(3 attempts\)/);
    // The headers tell what the request cost in the end: the hold was released.
    expect(res.headers.get('x-report-cache')).toBe('miss');
    expect([res.headers.get('x-credits-charged'), res.headers.get('x-credits-remaining')]).toEqual(['0', '10']);
    expect(await balance(id)).toBe(10);
    expect(await ledgerKinds(id)).toEqual(['grant:10', 'hold:-3', 'release:3']);
    expect(await reportsOf('KXAPPROVAL')).toEqual([]);
    // Streaming: the failure arrives as an error event, still free. The headers went out with the
    // hold ("charged 3") before the outcome was known, so the error says nothing was charged.
    const streamed = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: urlOf('KXAPPROVAL'), stream: true });
    expect(streamed.headers.get('x-credits-charged')).toBe('3');
    const sse = await readSse(streamed);
    expect(sse.frames.slice(-2).map((f) => f.event)).toEqual(['error', 'response.failed']);
    expect(JSON.parse(sse.frames.at(-2)!.data).message).toMatch(/Nothing was charged: the 3 credits held for this report were given back\.$/);
    expect(await balance(id)).toBe(10);
  });

  it('times out a hanging exchange with 504, free', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    intercept = (req) => (req.path.endsWith('/markets/orderbooks') ? 'hang' : undefined);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXSHUTDOWN') });
    expect(res.status).toBe(504);
    expect(((await res.json()) as any).error.code).toBe('upstream_timeout');
    expect(await balance(id)).toBe(10);
  });

  it('an answer in an unexpected shape is a 502 upstream_invalid_response naming what was wrong, free and not stored', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    intercept = (req) => (req.path.endsWith('/markets/orderbooks') ? { json: { orderbooks: { KXNOPE: 1 } } } : undefined);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXETHD') });
    expect(res.status).toBe(502);
    const err = ((await res.json()) as any).error;
    expect(err).toMatchObject({ code: 'upstream_invalid_response', type: 'upstream_error' });
    expect(err.message).toBe('Kalshi answered GET /markets/orderbooks with data in an unexpected shape: orderbooks is not a list. Try again later. Nothing was charged: the 3 credits held for this report were given back.');
    expect(await ledgerKinds(id)).toEqual(['grant:10', 'hold:-3', 'release:3']);
    expect(await reportsOf('KXETHD')).toEqual([]);

    // A 200 without the event is the exchange's fault, not an unknown event: no 404, no hold.
    intercept = (req) => (/\/events\/[^/]+$/.test(req.path) ? { json: { markets: [] } } : undefined);
    const missing = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXETHD') });
    expect(missing.status).toBe(502);
    expect(((await missing.json()) as any).error.message).toContain('event is not an object');
    expect(await balance(id)).toBe(10);
  });

  it('a failure before anything is charged (the event lookup) is an HTTP error with no hold', async () => {
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    intercept = (req) => (/\/events\/[^/]+$/.test(req.path) ? { status: 502, json: {} } : undefined);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: urlOf('KXCPIYOY'), stream: true });
    expect(res.status).toBe(502);
    // Its headers say what it cost, like any other answer of the paid path.
    expect([res.headers.get('x-credits-charged'), res.headers.get('x-credits-remaining')]).toEqual(['0', '10']);
    expect(await ledgerKinds(id)).toEqual(['grant:10']);
  });
});

describe('a generation led elsewhere (another replica on the same database)', () => {
  const freshEvent = (series: string) => ({ event: tickerOf(series), url: urlOf(series) });
  /** The request has looked the event up on the exchange, its last step before it joins or leads (the exchange's throttle may have delayed it). */
  const lookedUp = async (event: string) => {
    while (!fake.requests.some((r) => r.path.endsWith(`/events/${event}`))) await sleep(10);
  };
  /** What a replica that started generating this event and then died leaves: its claim, running, until `leaseMs` from now. */
  const claimedByDeadReplica = async (event: string, jobId: string, leaseMs: number, holdId: string | null = null) => {
    expect(await svc.service.deps.reports.claim(event, jobId, 'dead-replica', leaseMs)).toBe(true);
    await svc.service.deps.reports.startClaim(event, jobId, holdId);
  };

  it('whose server died mid-generation (its claim lapsed) is taken over: the waiter leads and gets the report, free as it was told', async () => {
    const { event, url } = freshEvent('KXLAPSED');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const reports = svc.service.deps.reports;
    await claimedByDeadReplica(event, 'job_dead_replica', 700);
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('joined');
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).output[0].content[0].text).toContain(event);
    expect(await balance(id)).toBe(10);
    expect(await reports.versions(event)).toHaveLength(1);
  });

  it("whose server died mid-generation, retried under that request's Idempotency-Key: the takeover generates on the first attempt's hold, charged once, not free", async () => {
    const { event, url } = freshEvent('KXRETRYLAPSED');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const key = `retry-after-crash-${id}`;
    const body = { model: MODEL, input: url };
    // What the dead replica's request left: the key in progress (its lock lapsed), its hold (lease running), its claim.
    const since = Date.now() - 120_000;
    await svc.service.deps.store.db
      .insertInto('idempotency_keys')
      .values({ account_id: id, key, endpoint: 'POST /v1/responses', fingerprint: fingerprint('POST /v1/responses', body), state: 'in_progress', locked_until: since + 60_000, status_code: null, headers: null, body: null, created_at: since, expires_at: since + 86_400_000 })
      .execute();
    await svc.service.deps.billing.hold({ accountId: id, amount: 3, jobId: `report:${id}:${key}@${since}`, what: 'Generating a prediction-market report' });
    await claimedByDeadReplica(event, 'job_dead_with_hold', 700);
    const res = await post(`${svc.baseURL}/responses`, apiKey, body, { 'idempotency-key': key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('joined');
    // What this key's request was charged, the first attempt's hold.
    expect(res.headers.get('x-credits-charged')).toBe('3');
    expect(res.headers.get('x-credits-remaining')).toBe('7');
    expect(await ledgerKinds(id)).toEqual(['grant:10', 'hold:-3', 'capture:0']);
    expect(await balance(id)).toBe(7);
    // The sweeper finds nothing to give back.
    await svc.service.deps.billing.sweep(Date.now() + 10 * 60_000); // SWEEP
    expect(await balance(id)).toBe(7);
  });

  it("whose server died mid-generation, paid for by another account: the joiner takes it over on that account's hold (charged once, to the payer), not for free", async () => {
    const { event, url } = freshEvent('KXPAIDLAPSED');
    const payer = await svc.account({ plan: 'pro', credits: 10 });
    const joiner = await svc.account({ plan: 'pro', credits: 10 });
    // What the dead replica left: its payer's hold (lease running) named on its claim.
    const { hold } = await svc.service.deps.billing.hold({ accountId: payer.id, amount: 3, jobId: 'report:job_dead_paid', what: 'Generating a prediction-market report' });
    await claimedByDeadReplica(event, 'job_dead_paid', 700, hold.id);
    const res = await post(`${svc.baseURL}/responses`, joiner.apiKey, { model: MODEL, input: url });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('joined');
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(((await res.json()) as any).output[0].content[0].text).toContain(event);
    expect(await ledgerKinds(payer.id)).toEqual(['grant:10', 'hold:-3', 'capture:0']);
    expect(await ledgerKinds(joiner.id)).toEqual(['grant:10']);
    expect((await svc.service.deps.reports.versions(event))).toHaveLength(1);
    await svc.service.deps.billing.sweep(Date.now() + 10 * 60_000);
    expect(await balance(payer.id)).toBe(7);
  });

  it('that could not be started (storage failed as the claim was marked running): 503, the hold given back, and the event not left waiting on it', async () => {
    const { event, url } = freshEvent('KXNOSTART');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const reports = svc.service.deps.reports;
    const startClaim = reports.startClaim.bind(reports);
    reports.startClaim = async () => {
      reports.startClaim = startClaim;
      throw new Error('Connection terminated unexpectedly');
    };
    const failed = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    expect(failed.status).toBe(503);
    expect(((await failed.json()) as any).error).toMatchObject({ code: 'generation_not_started' });
    expect(await ledgerKinds(id)).toEqual(['grant:10', 'hold:-3', 'release:3']);
    expect(await reports.job(event)).toBeNull();
    // The next request generates at once (it would have waited for ever on the unsettled flight).
    const next = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-report-cache')).toBe('miss');
    expect(await balance(id)).toBe(7);
  });

  it('whose server died right after storing its report: the waiters get that report, not a second generation', async () => {
    const { event, url } = freshEvent('KXSAVEDTHENDIED');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const reports = svc.service.deps.reports;
    // Claimed while the request looks the event up (its answer held back meanwhile), so that the
    // lease runs from then whatever the exchange's throttle made the request wait before.
    intercept = (req) => (req.path.endsWith(`/events/${event}`) ? { ...(fake.reply(req) as Exclude<FakeReply, string>), delayMs: 200 } : undefined);
    const asked = post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: url });
    await lookedUp(event);
    await claimedByDeadReplica(event, 'job_saved_then_died', 900);
    await sleep(300); // following the other replica's claim
    const saved = await reports.save({ eventTicker: event, seriesTicker: 'KXSAVEDTHENDIED', title: 't', text: `The dead replica's report on ${event}.`, citations: [], outputTokens: 6, asOf: new Date().toISOString(), source: 'live', generatedAt: Date.now(), accountId: null, holdId: null });
    const res = await asked;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('joined');
    expect(((await res.json()) as any).output[0].content[0].text).toBe(saved.text);
    expect(await reports.versions(event)).toHaveLength(1);
    expect(await balance(id)).toBe(10);
  });

  it('whose server shut down mid-generation withdraws its claim: waiters here generate instead of failing with its 503', async () => {
    const { event, url } = freshEvent('KXSTOPPED');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    const reports = svc.service.deps.reports;
    // "Replica A" on the same database: it leads, then shuts down past its grace period.
    const replicaA = new ReportFlights(reports, { owner: 'replica-a', leaseMs: 60_000, pollMs: 100 });
    const entry = await replicaA.enter(event);
    if (entry.role !== 'lead') throw new Error('replica A should lead');
    const stopped = new SvcError('unavailable', { code: 'shutting_down', message: 'shut down' });
    void entry.lead.run((_progress, stop) => new Promise((_, reject) => stop.addEventListener('abort', () => reject(stopped)))).catch(() => {});
    while ((await reports.job(event))?.state !== 'running') await sleep(10);
    const asked = post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    await lookedUp(event);
    await sleep(200); // joined: following replica A's claim
    await replicaA.stop(1000);
    const res = await asked;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('joined');
    expect(await balance(id)).toBe(10);
    expect(await reports.versions(event)).toHaveLength(1);
  });

  it('stored while a request looked the event up: served free, not generated and charged again', async () => {
    const { event, url } = freshEvent('KXSTOREDMEANWHILE');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    let lookups = 0;
    intercept = (req) => (req.path.endsWith(`/events/${event}`) && lookups++ === 0 ? { ...(fake.reply(req) as Exclude<FakeReply, string>), delayMs: 400 } : undefined);
    const asked = post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    while (!lookups) await sleep(10);
    // Meanwhile another replica stores a report for the event.
    const saved = await svc.service.deps.reports.save({
      eventTicker: event,
      seriesTicker: 'KXSTOREDMEANWHILE',
      title: 'Stored elsewhere',
      text: `A report on ${event} generated by another replica.`,
      citations: [],
      outputTokens: 10,
      asOf: new Date(WORLD_NOW * 1000).toISOString(),
      source: 'live',
      generatedAt: Date.now(),
      accountId: null,
      holdId: null,
    });
    const res = await asked;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('hit');
    expect(((await res.json()) as any).output[0].content[0].text).toBe(saved.text);
    expect(await balance(id)).toBe(10);
    expect(await svc.service.deps.reports.versions(event)).toHaveLength(1);
  });

  it('a background response cancelled while the event was looked up holds nothing, generates nothing and charges nothing', async () => {
    const { event, url } = freshEvent('KXCANCELLED');
    const { id, apiKey } = await svc.account({ plan: 'pro', credits: 10 });
    let lookups = 0;
    intercept = (req) => (req.path.endsWith(`/events/${event}`) && lookups++ === 0 ? { ...(fake.reply(req) as Exclude<FakeReply, string>), delayMs: 400 } : undefined);
    const started = (await (await post(`${svc.baseURL}/responses`, apiKey, { model: `${MODEL}:refresh`, input: url, background: true })).json()) as { id: string };
    while (!lookups) await sleep(10);
    const cancelled = await post(`${svc.baseURL}/responses/${started.id}/cancel`, apiKey, {});
    expect(((await cancelled.json()) as any).status).toBe('cancelled');
    // Past the lookup, and past when the report would have been generated.
    await sleep(1500);
    expect(await balance(id)).toBe(10);
    expect(await ledgerKinds(id)).toEqual(['grant:10']);
    expect(await svc.service.deps.reports.versions(event)).toHaveLength(0);
    // The event is not left claimed: a later request generates it.
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: MODEL, input: url });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-report-cache')).toBe('miss');
    expect(await balance(id)).toBe(7);
  });
});

describe('shutdown', () => {
  it('lets a report generation whose client left finish and be stored before storage closes', async () => {
    const slow = await startFakeKalshi({ latencyMs: 150 });
    const other = await startService({
      env: { SVC_KALSHI_API_URL: slow.apiUrl, SVC_SHUTDOWN_GRACE_MS: '20000' },
      agents: (core) => [predictionMarketsFromCore(core, new KalshiClient(core.kalshi, () => new Date(WORLD_NOW * 1000)))],
    });
    try {
      const acct = await other.account({ plan: 'pro', credits: 3 });
      const ctrl = new AbortController();
      const res = await fetch(`${other.baseURL}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acct.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, input: urlOf('KXSPACEX'), stream: true, store: false }),
        signal: ctrl.signal,
      });
      await res.body!.getReader().read();
      ctrl.abort();
      await other.service.close();
      const { openStore } = await import('../../../src/store/db.js');
      const store = await openStore({ dataDir: other.dataDir });
      try {
        expect(await store.db.selectFrom('reports').select('event_ticker').execute()).toEqual([{ event_ticker: tickerOf('KXSPACEX') }]);
        const holds = await store.db.selectFrom('holds').select('state').execute();
        expect(holds).toEqual([{ state: 'captured' }]);
      } finally {
        await store.close();
      }
    } finally {
      await other.close();
      await slow.close();
    }
  });
});
