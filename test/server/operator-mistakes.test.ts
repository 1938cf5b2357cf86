import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptedAgent } from '../helpers/scripted-agent.js';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
let account: { id: string; apiKey: string };

beforeAll(async () => {
  svc = await startService({ agents: [scriptedAgent('svc-test', () => answer('ok'))] });
  account = await svc.account();
});
afterAll(() => svc.close());

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${svc.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${svc.adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; type: string; param: string | null; code: string } }).error;

// `POST /v1/admin/accounts?plan=pro` created a Free account: the query string was ignored in silence.
describe('the admin API takes no query parameters', () => {
  it('refuses one, naming it, and does nothing', async () => {
    const res = await admin('POST', '/v1/admin/accounts?plan=pro&credits=30', { email: 'query-plan@example.com' });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      message: "Unknown query parameter: 'plan'. The admin API takes no query parameters; send its fields in the JSON body.",
      type: 'invalid_request_error',
      param: 'plan',
      code: 'unknown_parameter',
    });
    // Nothing was created: the same email is free, and the plan goes in the body.
    const created = await admin('POST', '/v1/admin/accounts', { email: 'query-plan@example.com', plan: 'pro' });
    expect(created.status).toBe(201);
    for (const [method, path, body] of [
      ['PATCH', `/v1/admin/accounts/${account.id}?plan=pro`, { plan: 'plus' }],
      ['POST', `/v1/admin/accounts/${account.id}/credits?amount=5`, { amount: 1 }],
      ['GET', `/v1/admin/accounts/${account.id}?expand=keys`, undefined],
      ['DELETE', '/v1/admin/keys/key_x?force=true', undefined],
    ] as const) {
      const refused = await admin(method, path, body);
      expect(refused.status, path).toBe(400);
      expect((await errorOf(refused)).code, path).toBe('unknown_parameter');
    }
    const view = await admin('GET', `/v1/admin/accounts/${account.id}`);
    expect(await view.json()).toMatchObject({ plan: 'free', credits: 0 });
  });

  it('the admin key is still checked first', async () => {
    const res = await fetch(`${svc.url}/v1/admin/accounts?plan=pro`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"x@example.com"}' });
    expect(res.status).toBe(401);
  });
});

// A key named with a bell or a right-to-left override ("\u202Eevil") was stored and listed as sent.
describe('key names with invisible characters', () => {
  it('are refused through the admin API and the self-service API, naming the character', async () => {
    for (const [name, code] of [
      ['ci\u0007', 'U+0007'],
      ['\u001b[31mred', 'U+001B'],
      ['\u202Eevil', 'U+202E'],
      ['a\u2066b', 'U+2066'],
      ['next\u0085line', 'U+0085'],
    ]) {
      const viaAdmin = await admin('POST', `/v1/admin/accounts/${account.id}/keys`, { name });
      expect(viaAdmin.status, JSON.stringify(name)).toBe(400);
      expect(await errorOf(viaAdmin)).toEqual({
        message: `Invalid 'name': it contains the invisible character ${code} (a control or text-direction character); use letters, digits, spaces and punctuation.`,
        type: 'invalid_request_error',
        param: 'name',
        code: 'invalid_value',
      });
      const own = await fetch(`${svc.baseURL}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect(own.status, JSON.stringify(name)).toBe(400);
    }
    const keys = (await (await fetch(`${svc.baseURL}/account/keys`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { data: unknown[] };
    expect(keys.data).toHaveLength(1);
  });

  it('tabs and line breaks are still tidied to spaces, and emoji (joined ones too) and accents are kept', async () => {
    for (const [name, stored] of [
      ['CI\tdeploys\n', 'CI deploys'],
      ['équipe 👩‍💻', 'équipe 👩‍💻'],
    ]) {
      const res = await admin('POST', `/v1/admin/accounts/${account.id}/keys`, { name });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { name: string }).name).toBe(stored);
    }
  });
});

describe('other mistakes are named as what they are', () => {
  // It said "expected an integer" of `?limit=1&limit=2`, which is two integers.
  it('a query parameter given twice', async () => {
    const res = await fetch(`${svc.baseURL}/account/ledger?limit=1&limit=2`, { headers: { authorization: `Bearer ${account.apiKey}` } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ message: "Invalid type for 'limit': expected one integer (it was given more than once).", type: 'invalid_request_error', param: 'limit', code: 'invalid_type' });
  });

  // The admin key on /v1/models was "unknown or has been revoked", which sent operators looking for a revocation.
  it('the admin key used as an API key', async () => {
    const res = await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${svc.adminKey}` } });
    expect(res.status).toBe(401);
    const error = await errorOf(res);
    expect(error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', param: null });
    expect(error.message).toBe(
      "This is the admin key: it opens the admin API (/v1/admin) only. Other /v1 routes take an account's API key; create one with POST /v1/admin/accounts/{id}/keys or `svc keys create --account ID`.",
    );
    expect(error.message).not.toContain(svc.adminKey.slice(-4));
    // Any other unknown key is still said to be unknown.
    const other = await fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer sk-svc-${'x'.repeat(40)}` } });
    expect((await errorOf(other)).message).toMatch(/^Incorrect API key provided: sk-svc-\*+xxxx\. The key is unknown or has been revoked\.$/);
  });
});
