import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { refusal } from '../helpers/sdk-error.js';

// Findings of a probe of the /v1 API with the openai SDK: fields both endpoints take are checked
// alike on both (as OpenAI checks them), and the Response object repeats what was sent.

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter.';
const CITATIONS = [{ order: 1, name: 'Apple Inc. Form 10-Q, page 3', url: 'https://docs.example/a.pdf#page=3' }];

let svc: TestService;
let client: OpenAI;
let apiKey: string;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer(TEXT, CITATIONS))] });
  apiKey = (await svc.account()).apiKey;
  client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
});

afterAll(() => svc.close());

const MESSAGES = [{ role: 'user' as const, content: 'What was Apple revenue?' }];

// Each wrong value, and the param the 400 must name.
const WRONG: [string, Record<string, unknown>, string][] = [
  ['user of the wrong type', { user: 123 }, 'user'],
  ['user over 256 characters', { user: 'u'.repeat(257) }, 'user'],
  ['parallel_tool_calls not a boolean', { parallel_tool_calls: 'yes' }, 'parallel_tool_calls'],
  ['prompt_cache_key not a string', { prompt_cache_key: 5 }, 'prompt_cache_key'],
  ['safety_identifier not a string', { safety_identifier: 5 }, 'safety_identifier'],
  ['service_tier OpenAI does not define', { service_tier: 'bogus' }, 'service_tier'],
  ['top_logprobs over 20', { top_logprobs: 21 }, 'top_logprobs'],
  ['top_logprobs below 0', { top_logprobs: -1 }, 'top_logprobs'],
  ['top_logprobs not an integer', { top_logprobs: 1.5 }, 'top_logprobs'],
];

describe('fields both endpoints take are checked alike', () => {
  it.each(WRONG)('chat: %s is a 400 naming it, before anything runs', async (_name, fields, param) => {
    const e = await refusal(client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, ...fields } as never));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.param).toBe(param);
    expect(e.type).toBe('invalid_request_error');
  });

  it.each(WRONG)('responses: %s is a 400 naming it, the same', async (_name, fields, param) => {
    const e = await refusal(client.responses.create({ model: 'svc-test', input: 'What was Apple revenue?', ...fields } as never));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.param).toBe(param);
  });

  it('chat: n other than 1 is a 400 naming n, streamed or not (an agent writes one answer; README)', async () => {
    for (const stream of [false, true]) {
      const e = await refusal(client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, n: 2, stream }));
      expect(e).toBeInstanceOf(OpenAI.BadRequestError);
      expect(e.param).toBe('n');
    }
  });

  it('chat: logprobs of the wrong type is a 400 naming it', async () => {
    const e = await refusal(client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, logprobs: 'yes' } as never));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.param).toBe('logprobs');
  });

  it('responses: max_tool_calls of the wrong type or below 0 is a 400 naming it', async () => {
    for (const value of ['3', -1, 2.5]) {
      const e = await refusal(client.responses.create({ model: 'svc-test', input: 'q', max_tool_calls: value } as never));
      expect(e).toBeInstanceOf(OpenAI.BadRequestError);
      expect(e.param).toBe('max_tool_calls');
    }
  });

  it('chat: the right values are accepted and ignored, streamed or not', async () => {
    const fields = { user: 'u-1', parallel_tool_calls: false, prompt_cache_key: 'k', safety_identifier: 's', service_tier: 'flex' as const, logprobs: true, top_logprobs: 20 };
    const c = await client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, ...fields });
    expect(c.choices[0]!.message.content).toBe(TEXT);
    expect(c.choices[0]!.finish_reason).toBe('stop');
    const final = await client.chat.completions.stream({ model: 'svc-test', messages: MESSAGES, ...fields }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe(TEXT);
  });
});

describe('the Response object repeats top_logprobs and max_tool_calls as sent', () => {
  it('in the body, on retrieve, in the stream and in its replay', async () => {
    const sent = { top_logprobs: 3, max_tool_calls: 2 };
    const r = await client.responses.create({ model: 'svc-test', input: 'What was Apple revenue?', ...sent });
    expect(r).toMatchObject(sent);
    expect(r.output_text).toBe(TEXT);
    expect(await client.responses.retrieve(r.id)).toMatchObject(sent);

    const streamed = await client.responses.stream({ model: 'svc-test', input: 'What was Apple revenue?', ...sent }).finalResponse();
    expect(streamed).toMatchObject(sent);
    const replay = await client.responses.retrieve(streamed.id, { stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of replay) if (e.type === 'response.completed') completed = e.response;
    expect(completed).toMatchObject(sent);
  });

  it('absent, they are what OpenAI shows: 0 and null', async () => {
    const r = await client.responses.create({ model: 'svc-test', input: 'q' });
    expect(r.top_logprobs).toBe(0);
    expect((r as unknown as { max_tool_calls: unknown }).max_tool_calls).toBeNull();
  });
});

describe('Idempotency-Key through openai-node', () => {
  // openai-node defines no idempotency header for OpenAI: its `idempotencyKey` request option
  // sends nothing, so the key must go in `headers` (as the README says).
  it("the SDK's idempotencyKey option sends no key; the header sent through `headers` replays", async () => {
    const body = { model: 'svc-test', input: 'What was Apple revenue?' };
    const a = await client.responses.create(body, { idempotencyKey: 'probe-option' });
    const b = await client.responses.create(body, { idempotencyKey: 'probe-option' });
    expect(b.id).not.toBe(a.id);

    const headers = { 'Idempotency-Key': 'probe-header' };
    const first = await client.responses.create(body, { headers });
    const again = await client.responses.create(body, { headers }).withResponse();
    expect(again.data.id).toBe(first.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });
});
