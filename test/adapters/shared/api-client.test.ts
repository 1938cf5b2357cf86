import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONVERSATION_CHARACTERS, ResearchClient, recentTurns, type AnswerEvent, type AnswerRequest, type Turn } from '../../../adapters/shared/api-client.js';
import type { AgentRequest } from '../../../src/agents/types.js';
import { SvcError } from '../../../src/errors.js';
import { answer, scriptedAgent, sleep } from '../../helpers/scripted-agent.js';
import { startService, type TestService } from '../../helpers/service.js';

const CITATIONS = [
  { order: 1, name: 'Fed statement', url: 'https://fed.gov/statement.pdf#page=2' },
  { order: 2, name: 'Kalshi market', url: 'https://kalshi.com/markets/kxfed/fed/kxfed-25dec' },
];

const seen: AgentRequest[] = [];

const agents = [
  scriptedAgent('svc-agent', (req) => {
    seen.push(req);
    const q = req.messages.at(-1)!.content;
    if (q === 'slow') {
      return (async function* () {
        yield { type: 'text' as const, delta: 'Slow ' };
        await sleep(900);
        yield* answer('but sure [1].', CITATIONS);
      })();
    }
    if (q === 'break') {
      return (async function* () {
        yield { type: 'text' as const, delta: 'Partial answer' };
        throw new SvcError('upstream', { code: 'upstream_error', message: 'SEC timed out' });
      })();
    }
    return answer(`Answer to "${q}" after ${req.messages.length - 1} earlier turns [1][2].`, CITATIONS);
  }),
  scriptedAgent('svc-prediction-markets-agent', (req) => {
    const url = req.messages.at(-1)!.content;
    if (url.includes('free-plan')) throw new SvcError('permission', { code: 'plan_required', message: 'Generating a report needs Plus, Pro or Enterprise.' });
    if (url.includes('no-credits')) throw new SvcError('payment_required', { code: 'insufficient_credits', message: 'Generating a report costs 3 credits; this account has 1.' });
    if (url.includes('unknown')) throw new SvcError('not_found', { code: 'event_not_found', message: "Kalshi has no event 'A-1'. Check the address: it should be the page of an event on kalshi.com." });
    if (!url.startsWith('https://kalshi.com/')) throw new SvcError('invalid_request', { code: 'invalid_event_url', message: 'Not an event URL.', param: 'input' });
    return answer(`# Report\n\nFor ${url} [1].`, CITATIONS);
  }),
];

let service: TestService;
let apiKey: string;

beforeAll(async () => {
  service = await startService({ agents });
  apiKey = (await service.account({ plan: 'pro', credits: 30 })).apiKey;
});
afterAll(() => service?.close());

async function collect(client: ResearchClient, request: AnswerRequest) {
  const events: AnswerEvent[] = [];
  for await (const e of client.answer(request)) events.push(e);
  return { events, text: events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join(''), last: events.at(-1)! };
}

describe.each(['responses', 'chat'] as const)('ResearchClient over /v1/%s', (api) => {
  const client = () => new ResearchClient({ baseUrl: service.url, apiKey, api, maxRetries: 0 });

  it('streams text, then the citations; sends the conversation and the Idempotency-Key', async () => {
    const key = `test-${api}-${Date.now()}`;
    const r = await collect(client(), {
      model: 'svc-agent',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'follow-up' },
      ],
      idempotencyKey: key,
    });
    expect(r.text).toBe('Answer to "follow-up" after 2 earlier turns [1][2].');
    expect(r.last).toEqual({ type: 'done', citations: CITATIONS });
    const req = seen.at(-1)!;
    expect(req.idempotencyKey).toBe(`${key}@${req.idempotencyKey!.split('@').at(-1)}`);
    expect(req.idempotencyKey).toMatch(/@\d{13}$/); // the key within its life (see IdempotencySession.requestKey)
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it.each([
    ['https://kalshi.com/markets/a/free-plan/a-1', 'plan_required', /Plus, Pro or Enterprise plan/],
    // The service's numbers (cost, balance) and the event's ticker reach the person.
    ['https://kalshi.com/markets/a/no-credits/a-1', 'insufficient_credits', /not enough credits .* \(the service says: “Generating a report costs 3 credits; this account has 1”\)\. Add credits/],
    ['https://kalshi.com/markets/a/unknown/a-1', 'event_not_found', /^Kalshi has no event 'A-1'\. Check the address/],
    // What the service says is wrong with this address (a market's ticker, and its event's address) reaches the person.
    ['not a link', 'invalid_event_url', /^That is not a Kalshi event link: Not an event URL\.$/],
  ])('maps the refusal for %s to %s with a specific message', async (input, kind, message) => {
    const r = await collect(client(), { model: 'svc-prediction-markets-agent', messages: [{ role: 'user', content: input }] });
    expect(r.last).toMatchObject({ type: 'failed', interrupted: false, problem: { kind } });
    expect((r.last as { problem: { message: string } }).problem.message).toMatch(message);
  });

  it("sends only the most recent turns of a long thread that fit, starting with a person's turn, so its replies keep working", async () => {
    const report = '# Report\n' + 'x'.repeat(15_000);
    const turns: Turn[] = [];
    for (let i = 0; i < 200; i++) turns.push({ role: 'user', content: `question ${i}` }, { role: 'assistant', content: report });
    turns.push({ role: 'user', content: 'and now?' });
    const sent = recentTurns(turns);
    expect(sent.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(MAX_CONVERSATION_CHARACTERS);
    expect(sent[0]!.role).toBe('user');
    expect(sent.at(-1)!.content).toBe('and now?');
    expect(sent).toEqual(turns.slice(turns.length - sent.length));
    expect(sent.length).toBeGreaterThan(30);
    // Over the service's limits whole (3 MB), the thread is still answered.
    for (const api of ['responses', 'chat'] as const) {
      const { last, text } = await collect(new ResearchClient({ baseUrl: service.url, apiKey, maxRetries: 0, api }), { model: 'svc-agent', messages: turns });
      expect(last.type).toBe('done');
      expect(text).toContain(`after ${sent.length - 1} earlier turns`);
    }
    expect(recentTurns([{ role: 'user', content: 'y'.repeat(MAX_CONVERSATION_CHARACTERS + 1) }])).toHaveLength(1);
  });

  it("leaves nothing on the bot's shutdown signal after each answer, and still stops an answer when it fires", async () => {
    const shutdown = new AbortController();
    for (let i = 0; i < 12; i++) {
      const r = await collect(client(), { model: 'svc-agent', messages: [{ role: 'user', content: `q${i}` }], signal: shutdown.signal });
      expect(r.last.type).toBe('done');
    }
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    const running = collect(client(), { model: 'svc-agent', messages: [{ role: 'user', content: 'slow' }], signal: shutdown.signal });
    await sleep(300);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(1);
    shutdown.abort();
    const stopped = await running;
    expect(stopped.text).toBe('Slow ');
    expect(stopped.last).toMatchObject({ type: 'failed', problem: { kind: 'stopped' } });
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  it('keeps the text of a stream that breaks and marks it interrupted', async () => {
    const r = await collect(client(), { model: 'svc-agent', messages: [{ role: 'user', content: 'break' }] });
    expect(r.text).toBe('Partial answer');
    expect(r.last).toMatchObject({ type: 'failed', interrupted: true });
  });

  it('says the service is unreachable when nothing listens', async () => {
    const r = await collect(new ResearchClient({ baseUrl: 'http://127.0.0.1:9', apiKey, api, maxRetries: 0 }), { model: 'svc-agent', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.last).toMatchObject({ type: 'failed', problem: { kind: 'unreachable' } });
  });

  it('tells a linked key that was refused apart from the workspace key', async () => {
    const bad = await collect(client(), { model: 'svc-agent', messages: [{ role: 'user', content: 'hi' }], apiKey: 'sk-svc-revoked' });
    expect(bad.last).toMatchObject({ type: 'failed', problem: { kind: 'invalid_api_key', message: expect.stringMatching(/linked API key/) } });
  });
});

describe('ResearchClient rate limits and accounts', () => {
  it('says when to try again after a 429', async () => {
    const limited = await startService({ agents, env: { SVC_RATE_LIMIT_FREE: '1' } });
    try {
      const key = (await limited.account()).apiKey;
      const client = new ResearchClient({ baseUrl: limited.url, apiKey: key, maxRetries: 0 });
      await collect(client, { model: 'svc-agent', messages: [{ role: 'user', content: 'one' }] });
      const r = await collect(client, { model: 'svc-agent', messages: [{ role: 'user', content: 'two' }] });
      expect(r.last).toMatchObject({ type: 'failed', problem: { kind: 'rate_limited', message: expect.stringMatching(/try again in \d+ seconds/) } });
    } finally {
      await limited.close();
    }
  });

  it('reads the account behind a key', async () => {
    const client = new ResearchClient({ baseUrl: `${service.url}/`, apiKey: 'unused' });
    expect(await client.account(apiKey)).toMatchObject({ plan: 'pro', credits: 30 });
    await expect(client.account('sk-svc-nope')).rejects.toThrow();
  });
});

/** A server that starts a streaming answer, sends one piece of text, then says nothing more. */
async function silentServer(api: 'responses' | 'chat') {
  const closed: boolean[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    const index = closed.push(false) - 1;
    res.on('close', () => (closed[index] = true));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (api === 'responses') {
      res.write(`event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', sequence_number: 0, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'The first half' })}\n\n`);
    } else {
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'svc-agent', choices: [{ index: 0, delta: { role: 'assistant', content: 'The first half' }, finish_reason: null }] })}\n\n`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closed,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

describe.each(['responses', 'chat'] as const)('ResearchClient when /v1/%s goes silent mid-answer', (api) => {
  it('gives the answer up after the idle allowance, keeps its text, says why, and closes the connection', async () => {
    const silent = await silentServer(api);
    try {
      const client = new ResearchClient({ baseUrl: silent.url, apiKey: 'sk-svc-any', api, maxRetries: 0, idleTimeoutMs: 300 });
      const started = Date.now();
      const r = await collect(client, { model: 'svc-agent', messages: [{ role: 'user', content: 'hi' }] });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.text).toBe('The first half');
      expect(r.last).toMatchObject({ type: 'failed', interrupted: true, problem: { kind: 'server_error', message: expect.stringMatching(/stopped sending this answer \(nothing for 0 s\)/) } });
      await expect.poll(() => silent.closed).toEqual([true]);
    } finally {
      await silent.close();
    }
  });

  it("counts the service's keep-alives as signs of life: a slow answer is not given up", async () => {
    const chatty = await startService({ agents, env: { SVC_KEEPALIVE_MS: '100' } });
    try {
      const key = (await chatty.account()).apiKey;
      const client = new ResearchClient({ baseUrl: chatty.url, apiKey: key, api, maxRetries: 0, idleTimeoutMs: 400 });
      const r = await collect(client, { model: 'svc-agent', messages: [{ role: 'user', content: 'slow' }] });
      expect(r.text).toBe('Slow but sure [1].');
      expect(r.last).toMatchObject({ type: 'done', citations: CITATIONS });
    } finally {
      await chatty.close();
    }
  });
});
