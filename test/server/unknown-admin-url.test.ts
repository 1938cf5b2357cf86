import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const call = async (method: string, path: string) => {
  const res = await fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${svc.adminKey}` } });
  return { status: res.status, error: ((await res.json()) as { error: { code: string; message: string } }).error };
};

// An operator guessing an admin URL (`GET /v1/admin/keys`) was told the API lives under /v1 and
// offers POST /v1/responses: nothing about the admin API's own routes.
describe('an unknown URL under /v1/admin', () => {
  it.each([
    ['GET', '/v1/admin'],
    ['GET', '/v1/admin/keys'],
    ['POST', '/v1/admin/keys'],
    ['GET', '/v1/admin/users/acct_1'],
  ])('%s %s is 404 unknown_url listing the admin routes', async (method, path) => {
    const { status, error } = await call(method, path);
    expect(status).toBe(404);
    expect(error.code).toBe('unknown_url');
    expect(error.message).toMatch(new RegExp(`^Unknown request URL: ${method} ${path.replace(/\//g, '\\/')}\\. The admin API has `));
    for (const route of ['POST /v1/admin/accounts', 'GET /v1/admin/accounts/{id}', 'PATCH /v1/admin/accounts/{id}', 'POST /v1/admin/accounts/{id}/keys', 'POST /v1/admin/accounts/{id}/credits', 'DELETE /v1/admin/keys/{id}']) {
      expect(error.message).toContain(route);
    }
    expect(error.message).not.toContain('HEAD ');
  });

  it('a near miss still names the URL meant, and other unknown URLs keep the general message', async () => {
    expect((await call('GET', '/V1/Admin/Accounts/acct_1')).error.message).toMatch(/Did you mean \/v1\/admin\/accounts\/acct_1\?/);
    expect((await call('GET', '/v1/nothing')).error.message).toMatch(/^Unknown request URL: GET \/v1\/nothing\. Check the method and path/);
  });
});
