import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { refusal } from '../helpers/sdk-error.js';

// Chat Completions: `top_logprobs` without `logprobs: true` is a 400 naming `top_logprobs`, as
// OpenAI answers it; Responses has no `logprobs` flag and takes `top_logprobs` alone.

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter.';
const CITATIONS = [{ order: 1, name: 'Apple Inc. Form 10-Q, page 3', url: 'https://docs.example/a.pdf#page=3' }];
const MESSAGES = [{ role: 'user' as const, content: 'What was Apple revenue?' }];

let svc: TestService;
let client: OpenAI;
let runs = 0;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => (runs++, answer(TEXT, CITATIONS)))] });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

describe('chat: top_logprobs needs logprobs: true', () => {
  it.each([
    ['logprobs left out', {}],
    ['logprobs false', { logprobs: false }],
    ['logprobs null', { logprobs: null }],
  ])('%s, streamed or not: a 400 naming top_logprobs, before the agent runs', async (_name, fields) => {
    const before = runs;
    for (const stream of [false, true]) {
      const e = await refusal(client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, top_logprobs: 5, stream, ...fields } as never));
      expect(e.status).toBe(400);
      expect(e.error).toEqual({ message: "Invalid value for 'top_logprobs': 'top_logprobs' is only allowed when 'logprobs' is true.", type: 'invalid_request_error', param: 'top_logprobs', code: 'invalid_value' });
    }
    expect(runs).toBe(before);
  });

  it('with logprobs: true, or top_logprobs null, the request is answered', async () => {
    for (const fields of [{ logprobs: true, top_logprobs: 5 }, { logprobs: true, top_logprobs: 0 }, { top_logprobs: null }]) {
      const c = await client.chat.completions.create({ model: 'svc-test', messages: MESSAGES, ...fields } as never);
      expect((c as OpenAI.Chat.ChatCompletion).choices[0]!.message.content).toBe(TEXT);
    }
  });

  it('responses: top_logprobs alone is still taken and echoed', async () => {
    const r = await client.responses.create({ model: 'svc-test', input: 'What was Apple revenue?', top_logprobs: 5 });
    expect(r.output_text).toBe(TEXT);
    expect(r.top_logprobs).toBe(5);
  });
});
