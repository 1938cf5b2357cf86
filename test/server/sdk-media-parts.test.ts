import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

// The agents read text only: an image or file the AI SDK sends, on either of its OpenAI models, is
// a 400 naming the part's type (not retried), rather than a question answered without it.

let svc: TestService;
let runs = 0;
let openai: ReturnType<typeof createOpenAI>;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => (runs++, answer('Fine.')))] });
  openai = createOpenAI({ baseURL: svc.baseURL, apiKey: (await svc.account()).apiKey });
});
afterAll(() => svc.close());

const ask = (part: Exclude<Extract<ModelMessage, { role: 'user' }>['content'], string>[number]): ModelMessage[] => [{ role: 'user', content: [{ type: 'text', text: 'What does this show?' }, part] }];
const IMAGE = { type: 'image' as const, image: new URL('https://example.com/chart.png') };
const PDF = { type: 'file' as const, data: Buffer.from('%PDF-1.4'), mediaType: 'application/pdf', filename: 'a.pdf' };

describe('AI SDK image and file parts', () => {
  it.each([
    ['responses', IMAGE, 'input[0].content[1].type', 'input_image'],
    ['responses', PDF, 'input[0].content[1].type', 'input_file'],
    ['chat', IMAGE, 'messages[0].content[1].type', 'image_url'],
    ['chat', PDF, 'messages[0].content[1].type', 'file'],
  ] as const)('openai.%s: a 400 naming %s', async (kind, part, param, type) => {
    const before = runs;
    const err = await generateText({ model: openai[kind]('svc-test'), messages: ask(part), maxRetries: 2 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(err)).toBe(true);
    const call = err as APICallError;
    expect(call.statusCode).toBe(400);
    expect(call.isRetryable).toBe(false);
    expect(JSON.parse(call.responseBody!).error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_content_type', param });
    expect(call.message).toContain(`'${type}'`);
    // Refused before the agent ran.
    expect(runs).toBe(before);
  });

  it('the same question in text alone is answered', async () => {
    expect((await generateText({ model: openai.responses('svc-test'), prompt: 'What does this show?' })).text).toBe('Fine.');
  });
});
