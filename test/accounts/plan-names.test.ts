import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/accounts/service.js';
import { loadConfig } from '../../src/config.js';
import { runCli } from '../helpers/cli.js';
import { startService, type TestService } from '../helpers/service.js';

// "Pro" and " pro " were refused (plans compared case-sensitively) while emails were taken in any case.
describe('plan names in any case', () => {
  it('validatePlan takes a plan in any case, trimmed, and gives it in lower case; anything else is refused listing the plans', () => {
    for (const [given, plan] of [['Pro', 'pro'], [' pro ', 'pro'], ['PLUS', 'plus'], ['Enterprise\n', 'enterprise'], ['free', 'free']] as const) expect(validatePlan(given)).toBe(plan);
    for (const bad of ['', 'premium', 'pr o', 'pro!', 3, null, ['pro']]) {
      expect(() => validatePlan(bad), String(bad)).toThrow(`Invalid 'plan': ${JSON.stringify(bad)}. Expected one of free, plus, pro, enterprise.`);
    }
  });

  describe('admin API', () => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startService();
    });
    afterAll(() => svc.close());
    const admin = (method: string, url: string, body: unknown) =>
      fetch(`${svc.url}${url}`, { method, headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    it('creates and changes plans named in any case, storing them in lower case', async () => {
      const created = await admin('POST', '/v1/admin/accounts', { email: 'Plan-Case@example.com', plan: ' Pro ' });
      expect(created.status).toBe(201);
      const account = (await created.json()) as { id: string; plan: string; api_key: string };
      expect(account.plan).toBe('pro');
      const patched = await admin('PATCH', `/v1/admin/accounts/${account.id}`, { plan: 'ENTERPRISE' });
      expect(patched.status).toBe(200);
      expect(await patched.json()).toMatchObject({ plan: 'enterprise', previous_plan: 'pro' });
      const view = await fetch(`${svc.url}/v1/account`, { headers: { authorization: `Bearer ${account.api_key}` } });
      expect(((await view.json()) as { plan: string }).plan).toBe('enterprise');
    });

    it('a name that is no plan is still 400 naming the param and listing the plans', async () => {
      const res = await admin('POST', '/v1/admin/accounts', { email: 'plan-bad@example.com', plan: 'Premium' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { message: 'Invalid \'plan\': "Premium". Expected one of free, plus, pro, enterprise.', type: 'invalid_request_error', param: 'plan', code: 'invalid_value' },
      });
    });
  });

  it('the CLI takes them the same way', async () => {
    const env = { SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-plan-case-')) };
    const created = await runCli(['accounts', 'create', '--email', 'cli-plan@example.com', '--plan', 'Plus'], env);
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout) as { id: string; plan: string };
    expect(account.plan).toBe('plus');
    const changed = await runCli(['accounts', 'set-plan', '--account', account.id, '--plan', 'PRO'], env);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ plan: 'pro', previous_plan: 'plus' });
    const bad = await runCli(['accounts', 'set-plan', '--account', account.id, '--plan', 'gold'], env);
    expect([bad.code, bad.stderr.trim()]).toEqual([2, 'svc: Invalid \'--plan\': "gold". Expected one of free, plus, pro, enterprise.']);
  }, 60_000);

  it('settings with named values take them in any case too (SVC_LOG_LEVEL=INFO), and still refuse others listing them', () => {
    const config = loadConfig({ SVC_DATA_DIR: '/tmp/x', SVC_LOG_LEVEL: 'INFO', SVC_SECURE_COOKIES: ' Always ' });
    expect([config.server.logLevel, config.web.secureCookies]).toEqual(['info', 'always']);
    expect(() => loadConfig({ SVC_DATA_DIR: '/tmp/x', SVC_LOG_LEVEL: 'warning' })).toThrow(
      'invalid setting SVC_LOG_LEVEL (environment) = "warning": must be one of fatal, error, warn, info, debug, trace, silent',
    );
  });
});
