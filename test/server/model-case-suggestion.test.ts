import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
let apiKey: string;
beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
  apiKey = (await svc.account()).apiKey;
});
afterAll(() => svc.close());

const post = (path: string, body: unknown) =>
  fetch(`${svc.baseURL}${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const error = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: { code: string; message: string } }).error });

// A model id in the wrong case ('SVC-TEST') was only "does not exist": it stays a 404, naming the id meant.
describe('a model id in another case', () => {
  it.each(['SVC-TEST', 'Svc-Test', ' svc-test '])('%j on /v1/responses, /v1/chat/completions and /v1/models/{id} names the id meant', async (model) => {
    for (const res of [await post('/responses', { model, input: 'hi' }), await post('/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })]) {
      const e = await error(res);
      expect(e.status).toBe(404);
      expect(e.code).toBe('model_not_found');
      expect(e.message).toMatch(new RegExp(`^The model '${model}' does not exist\\. Did you mean 'svc-test'\\? GET /v1/models lists the available models: `));
    }
    const one = await error(await fetch(`${svc.baseURL}/models/${encodeURIComponent(model)}`, { headers: { authorization: `Bearer ${apiKey}` } }));
    expect(one).toMatchObject({ status: 404, code: 'model_not_found', message: `The model '${model}' does not exist. Did you mean 'svc-test'? GET /v1/models lists the available models.` });
  });

  it('an id close to none says nothing more', async () => {
    const e = await error(await post('/responses', { model: 'gpt-4o', input: 'hi' }));
    expect(e.message).toMatch(/^The model 'gpt-4o' does not exist\. GET \/v1\/models lists the available models: /);
  });
});
