import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

// `{"email": "…", "credit": 30}` made an account with 0 credits and said nothing; `{"plan": "pro",
// "credits": 5}` on PATCH changed the plan and dropped the credits. A field a route does not take
// is refused, naming it, before anything is done.
describe('admin and key routes refuse fields they do not take', () => {
  let svc: TestService;
  let accountId: string;
  let apiKey: string;
  beforeAll(async () => {
    svc = await startService();
    ({ id: accountId, apiKey } = await svc.account({ plan: 'free', credits: 1 }));
  });
  afterAll(() => svc.close());

  const admin = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${svc.baseURL}${path}`, { method, headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; param: string; message: string }; plan?: string; credits?: number } };
  };

  it.each([
    ['POST', '/admin/accounts', { email: 'typo@example.com', credit: 30 }, 'credit'],
    ['PATCH', '/admin/accounts/ACCOUNT', { plan: 'pro', credits: 5 }, 'credits'],
    ['POST', '/admin/accounts/ACCOUNT/credits', { amount: 5, reason: 'top-up' }, 'reason'],
    ['POST', '/admin/accounts/ACCOUNT/keys', { name: 'ci', expires_at: 0 }, 'expires_at'],
  ])('%s %s with an unknown field is a 400 naming it', async (method, path, body, field) => {
    const r = await admin(method, path.replace('ACCOUNT', accountId), body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'unknown_parameter', param: field });
    expect(r.body.error!.message).toMatch(new RegExp(`^Unknown parameter: '${field}'\\. `));
  });

  it('and nothing was done', async () => {
    const res = await fetch(`${svc.baseURL}/admin/accounts/${accountId}`, { headers: { authorization: `Bearer ${svc.adminKey}` } });
    const shown = (await res.json()) as { plan: string; credits: number };
    expect([shown.plan, shown.credits]).toEqual(['free', 1]);
    // The refused create made no account: the same email is free.
    expect((await admin('POST', '/admin/accounts', { email: 'typo@example.com', plan: 'pro' })).status).toBe(201);
  });

  it('POST /v1/account/keys too, through the SDK', async () => {
    const client = new OpenAI({ baseURL: svc.baseURL, apiKey, maxRetries: 0 });
    const err = await client.post('/account/keys', { body: { name: 'ci', scopes: ['read'] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('scopes');
    const ok = (await client.post('/account/keys', { body: { name: 'ci' } })) as { name: string };
    expect(ok.name).toBe('ci');
  });
});
