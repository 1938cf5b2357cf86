import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Llm } from '../../../src/agents/llm/llm.js';
import { PACKAGE_ROOT } from '../../../src/config.js';
import { CLASSIFY_MAX_MS, classifyWithLlm, rewrite } from '../../../src/agents/llm/writer.js';
import { FakeHttpServer, type FakeReply } from '../../helpers/fake-http.js';
import { startFakeKalshi, type FakeKalshi } from '../../helpers/fake-kalshi.js';
import { pinnedMarketAgents } from '../../helpers/market-agents.js';
import { startService, type TestService } from '../../helpers/service.js';
import { post } from '../../helpers/sse.js';

let fake: FakeKalshi;
let upstream: FakeHttpServer;
let svc: TestService;
/** What the fake model answers: to a classification, and to a rewrite request. */
let script: { classify?: () => FakeReply; write?: (prompt: string) => FakeReply } = {};

const completion = (content: string, usage = { prompt_tokens: 120, completion_tokens: 30 }): FakeReply => ({
  json: {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  },
});

beforeAll(async () => {
  fake = await startFakeKalshi();
  upstream = await new FakeHttpServer((req) => {
    if (req.path !== '/v1/chat/completions') return { status: 404, json: { error: 'no' } };
    const body = JSON.parse(req.body) as { messages: { role: string; content: string }[] };
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    if (system.startsWith('Classify')) return script.classify?.() ?? completion('help');
    return script.write?.(user) ?? completion('');
  }).start();
  svc = await startService({
    env: { SVC_KALSHI_API_URL: fake.apiUrl, SVC_SEC_SNAPSHOT_DIR: path.join(PACKAGE_ROOT, 'snapshots', 'sec'), SVC_LLM_BASE_URL: `${upstream.url}/v1`, SVC_LLM_MODEL: 'fake-model', SVC_LLM_API_KEY: 'sk-upstream', SVC_LLM_TIMEOUT_MS: '400' },
    agents: pinnedMarketAgents,
  });
});
afterAll(async () => {
  await svc.close();
  await upstream.close();
  await fake.close();
});

async function ask(model: string, input: string) {
  const { apiKey } = await svc.account();
  const r = await new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 }).responses.create({ model, input });
  return { text: r.output_text, annotations: (r.output[0] as any).content[0].annotations as any[], usage: r.usage!, citations: (r as any).citations };
}

describe('answers phrased by an LLM upstream', () => {
  it('keeps only real sources, renumbered by first use, strips invented links, and reports the upstream usage', async () => {
    script.write = () =>
      completion('The December Fed meeting is priced in [1]; see also [7] and https://made-up.example/fed for details. Bitcoin is elsewhere [1].', { prompt_tokens: 321, completion_tokens: 45 });
    // No outcome named: a rewrite need not repeat any outcome's figures (one naming "a cut" must give the cuts').
    const r = await ask('svc-markets-search-agent', 'what are the odds for the Fed in December?');
    expect(r.text).toBe('The December Fed meeting is priced in [1]; see also and for details. Bitcoin is elsewhere [1].\n');
    expect(r.annotations).toHaveLength(1);
    expect(r.annotations[0].url).toMatch(/^https:\/\/kalshi\.com\/markets\/kxfeddecision\//);
    expect(r.text.slice(r.annotations[0].start_index, r.annotations[0].end_index)).toBe('[1]');
    expect(r.usage).toMatchObject({ input_tokens: 321, output_tokens: 45 });
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-upstream');
  });

  it.each([
    ['an empty answer', () => completion('   '), 'it returned an empty answer'],
    ['an answer citing nothing', () => completion('The Fed will cut.'), 'its answer cited none of the sources'],
    ['a failing upstream', (): FakeReply => ({ status: 500, json: { error: { message: 'boom' } } }), 'it failed'],
    ['a malformed body', (): FakeReply => ({ status: 200, text: 'not json at all' }), 'it failed'],
    ['a figure the sources do not have', () => completion('A shutdown is priced at 99.9% [1].'), 'it wrote figures the sources do not have: 99.9'],
    ['a date changed', () => completion('As of 2031-01-01 the market is open [1].'), 'it wrote figures the sources do not have: 2031'],
    [
      'an upstream refusal with words of its own',
      (): FakeReply => ({ status: 401, json: { error: { message: 'Incorrect API key provided: sk-proj-AbC1****wXyZ. You can find your API key at https://platform.openai.com/account/api-keys.' } } }),
      'it failed with HTTP 401',
    ],
    ['a slow upstream', (): FakeReply => ({ ...(completion('late [1]') as Exclude<FakeReply, 'hang' | 'stall-body'>), delayMs: 1500 }), 'it did not answer within 400 ms'],
  ])('falls back to the built-in writer, with a note, on %s', async (_name, reply, why) => {
    script.write = reply;
    const r = await ask('svc-markets-search-agent', 'odds of a government shutdown');
    expect(r.text).toMatch(/^Open Kalshi events matching/);
    expect(r.text).toContain(`_Note: the language model could not write this answer (${why}`);
    expect(r.text).not.toContain('platform.openai.com');
    expect(r.annotations.length).toBeGreaterThan(0);
    for (const a of r.annotations) expect(r.text.slice(a.start_index, a.end_index)).toBe(`[${a.order}]`);
  });

  it('the router asks the model where a question belongs, and falls back to its rules when it cannot', async () => {
    script.write = () => completion('Rates: the Fed decision is the market to watch [1].');
    script.classify = () => completion('odds');
    const routed = await ask('svc-agent', 'something about rates');
    expect(routed.text).toBe('Rates: the Fed decision is the market to watch [1].\n');
    script.classify = () => ({ status: 503, json: {} });
    const fallback = await ask('svc-agent', 'something about rates');
    expect(fallback.text).toContain('I answer financial research questions');
    // The label is the one the model answered with, even when it names another after it.
    script.classify = () => completion('help (not odds, not filings)');
    expect((await ask('svc-agent', 'something about rates')).text).toContain('I answer financial research questions');
  });

  it("counts every upstream call in a routed answer's usage: the classification and the specialist's rewrite", async () => {
    script.classify = () => completion('filings', { prompt_tokens: 100, completion_tokens: 10 });
    // The rewrite gives the draft back as it is.
    script.write = (prompt) => completion(prompt.split('Draft answer (its facts and citations are correct):\n')[1]!.split('\n\nSources:')[0]!, { prompt_tokens: 321, completion_tokens: 45 });
    const r = await ask('svc-agent', "What was Apple's revenue in Q3 2024?");
    expect(r.text).not.toContain('_Note:');
    expect(r.usage).toMatchObject({ input_tokens: 421, output_tokens: 55 });
    // A classification with no usable label routes by the rules, and its tokens count all the same.
    script.classify = () => completion('I cannot tell.', { prompt_tokens: 100, completion_tokens: 10 });
    const unsure = await ask('svc-agent', "What was Apple's revenue in Q3 2024?");
    expect(unsure.text).toContain('85,777');
    expect(unsure.usage).toMatchObject({ input_tokens: 421, output_tokens: 55 });
  });

  it('streams the rewritten answer on both endpoints exactly as the plain answer: same text, sources and [n] positions; a failing upstream streams the built-in answer', async () => {
    script.write = () => completion('The December Fed meeting is priced in [1]; Bitcoin is elsewhere [1].');
    const { apiKey } = await svc.account();
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const model = 'svc-markets-search-agent';
    const input = 'what are the odds for the Fed in December?';
    const plain = await client.responses.create({ model, input });
    const streamed = await client.responses.stream({ model, input }).finalResponse();
    expect(streamed.output_text).toBe(plain.output_text);
    expect(streamed.output_text).toContain('The December Fed meeting is priced in [1]');
    const annotations = (r: typeof plain) => (r.output[0] as any).content[0].annotations as any[];
    expect(annotations(streamed)).toEqual(annotations(plain));
    for (const a of annotations(streamed)) expect(streamed.output_text.slice(a.start_index, a.end_index)).toBe('[1]');

    const chat = await client.chat.completions.stream({ model, messages: [{ role: 'user', content: input }] }).finalChatCompletion();
    expect(chat.choices[0]!.message.content).toBe(plain.output_text);
    expect(chat.choices[0]!.finish_reason).toBe('stop');

    script.write = () => ({ status: 500, json: { error: { message: 'boom' } } });
    const fallback = await client.responses.stream({ model, input }).finalResponse();
    expect(fallback.status).toBe('completed');
    expect(fallback.output_text).not.toContain('The December Fed meeting is priced in');
    expect(fallback.output_text).not.toMatch(/boom/);
    expect(annotations(fallback).length).toBeGreaterThan(0);
    script = {};
  });

  it('a stream opens (response.in_progress) while the model is still classifying the question', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let classifying!: () => void;
    const asked = new Promise<void>((r) => (classifying = r));
    script.write = () => completion('Rates: the Fed decision is the market to watch [1].');
    script.classify = () => (classifying(), held.then(() => completion('odds'))) as unknown as FakeReply;
    const { apiKey } = await svc.account();
    const res = await post(`${svc.baseURL}/responses`, apiKey, { model: 'svc-agent', input: 'something about rates', stream: true });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let seen = '';
    await asked;
    while (!seen.includes('response.in_progress')) seen += new TextDecoder().decode((await reader.read()).value);
    release();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain('Rates: the Fed decision is the market to watch');
    expect(seen).toContain('response.completed');
  });
});

describe('rewrite checks', () => {
  const fixed = (text: string) => ({ complete: async () => ({ text, usage: { inputTokens: 1, outputTokens: 1 } }) }) as unknown as Llm;
  const source = { order: 1, name: 'Apple 10-Q', url: 'https://svc.example/documents/a.pdf#page=3' };
  const draft = { text: 'Apple revenue for fiscal Q3 2024 was $85,777 million [1].\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._', citations: [source] };

  it("keeps the draft's data line when the rewrite drops it", async () => {
    const out = await rewrite(fixed('In fiscal Q3 2024 Apple took in **$85,777 million** [1].'), 'Apple revenue Q3 2024', draft);
    expect(out).toMatchObject({ ok: true });
    expect((out as { text: string }).text).toBe('In fiscal Q3 2024 Apple took in **$85,777 million** [1].\n\n_Data: demo snapshot recorded 2025-05-15; figures are illustrative._\n');
  });

  it("refuses a rewrite that changes a figure's size or sign with the same digits; takes one that rephrases", async () => {
    const growth = { text: 'Apple revenue for fiscal Q3 2024 was $85,777 million [1], up $4,980 million (+6.2%) from $80,797 million a year earlier [1].', citations: [source] };
    const q = 'Apple revenue Q3 2024';
    expect(await rewrite(fixed('Apple revenue for fiscal Q3 2024 was $85,777 billion [1].'), q, growth)).toMatchObject({ ok: false, why: 'it changed the size of a figure: 85777 billion' });
    expect(await rewrite(fixed('Revenue was $85,777 million [1], down -6.2% from $80,797 million [1].'), q, growth)).toMatchObject({ ok: false, why: 'it made a figure negative: -6.2' });
    expect(await rewrite(fixed('Revenue grew 6.2 bps to $85,777 million [1].'), q, growth)).toMatchObject({ ok: false, why: 'it changed the size of a figure: 6.2 bps' });
    const fine = await rewrite(fixed('In fiscal Q3 2024 (its third quarter) Apple took in **$85,777 million** [1], $4,980 million or 6.2% more than the $80,797 million of a year before [1].'), q, growth);
    expect(fine).toMatchObject({ ok: true });
    expect(await rewrite(fixed('Revenue was $85,777 million [1], up $4,980 million (6.2%) from $80,797 million [1].'), q, growth)).toMatchObject({ ok: true });
  });

  it('refuses the other ways a rewrite can change a figure: a dash or brackets for minus, a fall for a rise, words, a dropped size, a dropped answer', async () => {
    // The draft svc-sec-agent writes for "Apple revenue growth yoy Q2 2025" (probe).
    const draft = {
      text: '**Apple Inc. (AAPL)**: revenue for fiscal Q2 2025 (quarter ended 2025-03-29) was **$95,359 million** (about $95.4 billion) [1].\n\n- Year over year: fiscal Q2 2024 (quarter ended 2024-03-30) was $90,753 million [2]; change +$4,606 million (+5.1%).',
      citations: [source, { ...source, order: 2 }],
    };
    const q = 'Apple revenue growth yoy Q2 2025';
    const why = async (text: string) => ((await rewrite(fixed(text), q, draft)) as { why?: string }).why ?? 'accepted';
    const keep = 'Revenue for fiscal Q2 2025 was **$95,359 million** [1]';
    expect(await why(`${keep}, a change of –$4,606 million (–5.1%) from $90,753 million [2].`)).toBe('it made a figure negative: -4606');
    expect(await why(`${keep}, a change of ($4,606 million) from $90,753 million [2].`)).toBe('it made a figure negative: -4606');
    expect(await why(`${keep}, a decline of 5.1% from $90,753 million [2].`)).toBe('it made a figure negative: -5.1');
    expect(await why('Revenue for fiscal Q2 2025 was **about ninety-nine billion dollars** [1].')).toBe('it wrote a figure in words: ninety-nine billion');
    expect(await why('Revenue for fiscal Q2 2025 was **$95,359** (about $95.4 billion) [1].')).toBe('it dropped the size of a figure: $95359');
    // The question's own number passed off as the answer (the figure it asked about is allowed, the answer's may not go).
    expect(await rewrite(fixed('Revenue for fiscal Q2 2025 was **$120 billion** [1].'), 'Was Apple revenue above $120 billion in Q2 2025?', draft)).toMatchObject({ ok: false, why: "it left out the answer's figures: 95359" });
    expect(await why(`${keep}, up 5.1% (+$4,606 million) from $90,753 million a year earlier [2].`)).toBe('accepted');
  });

  it("refuses a rewrite that gives the answer's amount for another period, accepting any way of naming the right one", async () => {
    const draft = {
      text: '**Apple Inc. (AAPL)**: revenue for fiscal Q2 2025 (quarter ended 2025-03-29) was **$95,359 million** (about $95.4 billion) [1].\n\n- Year over year: fiscal Q2 2024 (quarter ended 2024-03-30) was $90,753 million [2]; change +$4,606 million (+5.1%).',
      citations: [source, { order: 2, name: 'Apple 10-Q Q2 2024', url: 'https://www.sec.gov/q2-2024' }],
    };
    const why = async (text: string) => ((await rewrite(fixed(text), 'Apple revenue Q2 2025', draft)) as { why?: string }).why ?? 'accepted';
    expect(await why('In fiscal Q2 2024, Apple revenue was **$95,359 million** [1], up from $90,753 million [2].')).toBe("it gave 95359 for another period than the draft's (q2-2024)");
    expect(await why('Apple revenue for fiscal year 2025 was **$95,359 million** [1].')).toBe("it gave 95359 for another period than the draft's (fy-2025)");
    for (const fine of [
      'Revenue for Q2 FY2025 was **$95,359 million** [1], up 5.1% from $90,753 million in Q2 2024 [2].',
      'In fiscal 2025 Q2 revenue reached **$95,359 million** [1], 5.1% above fiscal Q2 2024 [2].',
      'Apple revenue was $90,753 million in Q2 2024 [2] and **$95,359 million** in Q2 2025 [1].',
      'In the quarter ended 2025-03-29 Apple took in **$95,359 million** [1], against $90,753 million a year before [2].',
      'Apple took in **$95,359 million** in its second quarter [1], against $90,753 million a year before [2].',
    ])
      expect(await why(fine), fine).toBe('accepted');
  });

  it('refuses a rewrite of an answer without sources that adds figures', async () => {
    const out = await rewrite(fixed('Tesla revenue in Q3 2024 was $25,182 million.'), 'Tesla revenue Q3 2024', { text: 'I could not find a company called "Tesla" in this snapshot.', citations: [] });
    expect(out).toMatchObject({ ok: false, why: 'it wrote figures the sources do not have: 25182' });
  });
});

describe('classification time', () => {
  it('asks the upstream for at most CLASSIFY_MAX_MS, whatever a rewrite may take', async () => {
    const budgets: number[] = [];
    const llm = { complete: async (_s: string, _p: string, _signal?: AbortSignal, maxMs?: number) => (budgets.push(maxMs ?? Infinity), { text: 'odds', usage: { inputTokens: 1, outputTokens: 1 } }) } as unknown as Llm;
    expect(await classifyWithLlm(llm, 'something about rates', [])).toMatchObject({ kind: 'odds' });
    expect(budgets).toEqual([CLASSIFY_MAX_MS]);
    // A reply with no label is not a route, but its tokens were spent.
    const unsure = { complete: async () => ({ text: 'I am not sure.', usage: { inputTokens: 7, outputTokens: 4 } }) } as unknown as Llm;
    expect(await classifyWithLlm(unsure, 'something about rates', [])).toEqual({ kind: null, usage: { inputTokens: 7, outputTokens: 4 } });
    expect(CLASSIFY_MAX_MS).toBeLessThanOrEqual(5000);
  });
});
