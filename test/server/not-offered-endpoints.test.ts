import OpenAI, { NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: OpenAI;
let apiKey: string;
beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
  apiKey = (await svc.account()).apiKey;
  client = new OpenAI({ apiKey, baseURL: svc.baseURL, maxRetries: 0 });
});
afterAll(() => svc.close());

/** The error an SDK call ends with. */
const failure = async (call: () => Promise<unknown>): Promise<unknown> => {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('the call succeeded');
};

// `client.embeddings.create(…)` and the other OpenAI endpoints this service has not were a bare
// "Unknown request URL": nothing said the service offers something else instead.
describe('an OpenAI endpoint this service does not offer', () => {
  it.each<[string, () => Promise<unknown>, RegExp]>([
    ['completions', () => client.completions.create({ model: 'svc-test', prompt: 'hi' }), /does not offer the legacy completions endpoint \(POST \/v1\/completions\); use POST \/v1\/responses or POST \/v1\/chat\/completions/],
    ['embeddings', () => client.embeddings.create({ model: 'svc-test', input: 'hi' }), /does not offer embeddings \(POST \/v1\/embeddings\);.*POST \/v1\/responses/],
    ['images', () => client.images.generate({ prompt: 'a cat' }), /does not offer image generation or editing \(POST \/v1\/images\/generations\)/],
    ['audio', () => client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi' }), /does not offer audio .* \(POST \/v1\/audio\/speech\)/],
    ['files', () => client.files.list(), /does not offer file uploads \(GET \/v1\/files\); put the text in the request itself/],
    ['moderations', () => client.moderations.create({ input: 'hi' }), /does not offer moderation \(POST \/v1\/moderations\)/],
    ['batches', () => client.batches.list(), /does not offer the Batch API \(GET \/v1\/batches\);.*"background": true/],
    ['fine-tuning', () => client.fineTuning.jobs.list(), /does not offer fine-tuning \(GET \/v1\/fine_tuning\/jobs\)/],
    ['assistants', () => client.beta.assistants.list(), /does not offer the Assistants API .* \(GET \/v1\/assistants\); use POST \/v1\/responses/],
    ['threads', () => client.beta.threads.create(), /does not offer the Assistants API .* \(POST \/v1\/threads\)/],
    ['containers', () => client.containers.list(), /does not offer containers \(code interpreter\) \(GET \/v1\/containers\)/],
    ['evals', () => client.evals.list(), /does not offer evals \(GET \/v1\/evals\)/],
    ['vector stores', () => client.vectorStores.list(), /does not offer vector stores \(GET \/v1\/vector_stores\)/],
    ['input token counting', () => client.responses.inputTokens.count({ model: 'svc-test', input: 'hi' }), /does not offer token counting .* \(POST \/v1\/responses\/input_tokens\)/],
  ])('%s: the SDK raises NotFoundError with a message naming what is offered instead', async (_name, call, message) => {
    const err = await failure(call);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).status).toBe(404);
    expect((err as NotFoundError).code).toBe('unknown_url');
    expect((err as NotFoundError).message).toMatch(/^404 This service does not offer /);
    expect((err as NotFoundError).message).toMatch(message);
  });

  it('written in another case, without /v1 or with it twice, and asked with any method', async () => {
    for (const [method, path] of [
      ['POST', '/V1/Embeddings'],
      ['POST', '/embeddings'],
      ['POST', '/v1/v1/embeddings'],
      ['GET', '/v1/embeddings'],
      ['DELETE', '/v1/embeddings/'],
    ]) {
      const res = await fetch(`${svc.url}${path}`, { method: method!, headers: { authorization: `Bearer ${apiKey}` } });
      expect(res.status).toBe(404);
      const { error } = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(error).toMatchObject({ type: 'invalid_request_error', code: 'unknown_url' });
      expect(error.message).toBe(`This service does not offer embeddings (${method} ${path}); its models are research agents that answer in text: POST /v1/responses or POST /v1/chat/completions (GET /v1/models lists them).`);
    }
  });

  it('known paths and other unknown ones are answered as before', async () => {
    const other = await fetch(`${svc.url}/v1/nothing`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/^Unknown request URL: GET \/v1\/nothing\./);
    const wrongMethod = await fetch(`${svc.url}/v1/responses`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(wrongMethod.status).toBe(405);
    const chat = await client.chat.completions.create({ model: 'svc-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.choices[0]!.message.content).toBe('ok');
  });
});
