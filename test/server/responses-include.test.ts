import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';
import { refusal } from '../helpers/sdk-error.js';

// Responses: `include` takes OpenAI's includable values (accepted, nothing to add: the agents
// search, run and reason nothing); any other is a 400 naming `include` and listing them.

const TEXT = 'Apple reported revenue of $85.8 billion [1] for the quarter.';
const CITATIONS = [{ order: 1, name: 'Apple Inc. Form 10-Q, page 3', url: 'https://docs.example/a.pdf#page=3' }];
// openai-node's ResponseIncludable, every value.
const INCLUDABLE = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
] as const;

let svc: TestService;
let client: OpenAI;
let runs = 0;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => (runs++, answer(TEXT, CITATIONS)))] });
  client = new OpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey, maxRetries: 0 });
});
afterAll(() => svc.close());

describe('responses: include', () => {
  it('an unknown value is a 400 naming include and listing the supported values, streamed or not, before anything runs', async () => {
    const before = runs;
    for (const stream of [false, true]) {
      const e = await refusal(client.responses.create({ model: 'svc-test', input: 'q', include: ['bogus'], stream } as never));
      expect(e.status).toBe(400);
      expect(e.param).toBe('include');
      expect(e.code).toBe('invalid_value');
      expect(e.error).toMatchObject({ type: 'invalid_request_error' });
      expect((e.error as { message: string }).message).toMatch(/^Invalid value for 'include': 'bogus' is not one of /);
      for (const v of INCLUDABLE) expect((e.error as { message: string }).message).toContain(`'${v}'`);
    }
    // One unknown among known ones, too.
    expect((await refusal(client.responses.create({ model: 'svc-test', input: 'q', include: ['reasoning.encrypted_content', 'output_text'] } as never))).param).toBe('include');
    expect(runs).toBe(before);
  });

  it('a value that is not a string, or include not an array, is a 400 naming it', async () => {
    expect((await refusal(client.responses.create({ model: 'svc-test', input: 'q', include: [5] } as never))).param).toBe('include[0]');
    expect((await refusal(client.responses.create({ model: 'svc-test', input: 'q', include: 'reasoning.encrypted_content' } as never))).param).toBe('include');
  });

  it('every value OpenAI defines is accepted (all at once, or each alone), and the answer is as without it', async () => {
    const r = await client.responses.create({ model: 'svc-test', input: 'q', include: [...INCLUDABLE] });
    expect(r.output_text).toBe(TEXT);
    for (const v of INCLUDABLE) expect((await client.responses.create({ model: 'svc-test', input: 'q', include: [v] })).status).toBe('completed');
    expect((await client.responses.create({ model: 'svc-test', input: 'q', include: [] })).output_text).toBe(TEXT);
    expect((await client.responses.create({ model: 'svc-test', input: 'q', include: null })).output_text).toBe(TEXT);
  });
});
