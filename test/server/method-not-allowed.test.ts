import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
  key = (await svc.account()).apiKey;
});
afterAll(() => svc.close());

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...headers } });

describe('a known path asked with a method it does not take', () => {
  it.each([
    ['GET', '/v1/responses', 'POST, OPTIONS', 'Method GET is not allowed on /v1/responses: it takes POST.'],
    ['DELETE', '/v1/chat/completions', 'GET, HEAD, POST, OPTIONS', 'Method DELETE is not allowed on /v1/chat/completions: it takes GET or POST.'],
    ['PUT', '/v1/account', 'GET, HEAD, OPTIONS', 'Method PUT is not allowed on /v1/account: it takes GET.'],
    ['POST', '/v1/models', 'GET, HEAD, OPTIONS', 'Method POST is not allowed on /v1/models: it takes GET.'],
    ['PATCH', '/v1/responses/resp_123', 'GET, HEAD, DELETE, OPTIONS', 'Method PATCH is not allowed on /v1/responses/resp_123: it takes GET or DELETE.'],
    ['PUT', '/v1/admin/accounts/acct_x', 'GET, HEAD, PATCH, OPTIONS', 'Method PUT is not allowed on /v1/admin/accounts/acct_x: it takes GET or PATCH.'],
    ['GET', '/v1/admin/keys/key_x', 'DELETE, OPTIONS', 'Method GET is not allowed on /v1/admin/keys/key_x: it takes DELETE.'],
    ['GET', '/playground/v1/responses', 'POST, OPTIONS', 'Method GET is not allowed on /playground/v1/responses: it takes POST.'],
    // A trailing slash and a query string name the same path.
    ['GET', '/v1/responses/?x=1', 'POST, OPTIONS', 'Method GET is not allowed on /v1/responses/: it takes POST.'],
  ])('%s %s → 405, Allow: %s', async (method, path, allow, message) => {
    const res = await call(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await res.json()).toEqual({ error: { message, type: 'invalid_request_error', param: null, code: 'method_not_allowed' } });
  });

  it('HEAD of a POST-only path is 405 with the same Allow, without a body', async () => {
    const res = await call('HEAD', '/v1/responses');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await res.text()).toBe('');
  });

  it('is said before the key is checked: the method is wrong whoever asks', async () => {
    const res = await fetch(`${svc.url}/v1/responses`, { method: 'GET' });
    expect(res.status).toBe(405);
  });

  it('a plain OPTIONS is told the methods (204 with Allow); a CORS preflight, with CORS off, still gets 404', async () => {
    const plain = await fetch(`${svc.url}/v1/chat/completions`, { method: 'OPTIONS' });
    expect(plain.status).toBe(204);
    expect(plain.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const preflight = await fetch(`${svc.url}/v1/responses`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('unknown paths stay 404 unknown_url, an empty id included', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nope'],
      ['POST', '/v1/nothing/here'],
      ['OPTIONS', '/v1/nope'],
      ['GET', '/v1/responses//input_items'],
      ['DELETE', '/v1/admin/nothing'],
    ] as const) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('allow'), `${method} ${path}`).toBeNull();
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
    }
  });

  it('openai-node raises an APIError with status 405 and the code (not NotFoundError)', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: svc.baseURL, maxRetries: 0 });
    const err = await client.get('/responses').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).not.toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(405);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('method_not_allowed');
  });
});
