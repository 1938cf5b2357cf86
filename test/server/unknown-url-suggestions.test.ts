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

const call = async (method: string, path: string) => {
  const res = await fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}` } });
  return { status: res.status, error: ((await res.json()) as { error: { code: string; message: string } }).error };
};

// `GET /V1/models` was a bare 404 "Unknown request URL": it stays 404, naming the URL meant.
describe('an unknown URL close to a known one', () => {
  it.each([
    ['GET', '/V1/models', '/v1/models'],
    ['POST', '/V1/Chat/Completions', '/v1/chat/completions'],
    ['GET', '/models', '/v1/models'],
    ['POST', '/responses', '/v1/responses'],
    ['GET', '/v1/v1/models', '/v1/models'],
    // An id keeps its case: only the path's fixed words are lowered.
    ['GET', '/V1/Responses/resp_AbC', '/v1/responses/resp_AbC'],
    ['GET', '/v1/Models/svc-Test', '/v1/models/svc-Test'],
  ])('%s %s is 404 unknown_url saying "did you mean %s?"', async (method, path, meant) => {
    const { status, error } = await call(method, path);
    expect(status).toBe(404);
    expect(error.code).toBe('unknown_url');
    expect(error.message).toBe(`Unknown request URL: ${method} ${path}. Did you mean ${meant}? Paths are case-sensitive and the API lives under /v1.`);
  });

  it('a URL close to none keeps the general message', async () => {
    for (const path of ['/v1/nothing', '/nothing', '/V1/Nothing', '/v1/responses//input_items']) {
      const { status, error } = await call('GET', path);
      expect(status).toBe(404);
      expect(error.message).toMatch(/^Unknown request URL: GET \S+\. Check the method and path/);
    }
  });
});
