import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/agents/types.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startService, type TestService } from '../helpers/service.js';

const PLANS: Plan[] = ['free', 'plus', 'pro', 'enterprise'];

describe('rate limits rise with the plan', () => {
  it('the shipped limits are those the README gives, each plan above the one below it', () => {
    const { rateLimits } = loadConfig({ SVC_DATA_DIR: '/tmp/svc-plan-limits' });
    expect(PLANS.map((p) => rateLimits[p])).toEqual([60, 300, 1200, 6000]);
  });

  // SVC_RATE_LIMIT_PRO=10 was accepted in silence: an upgrade from Free (60) to Pro cut the limit to 10.
  it('settings where a higher plan allows fewer requests than a lower one are refused, naming both', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig({ SVC_DATA_DIR: '/tmp/svc-plan-limits', ...env });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return null;
    };
    expect(refusal({ SVC_RATE_LIMIT_PRO: '10' })).toBe(
      'invalid settings: SVC_RATE_LIMIT_PLUS (config/default.json) = 300 is more than SVC_RATE_LIMIT_PRO (environment) = 10; a higher plan allows at least as many requests per minute as a lower one, so an upgrade never lowers the limit: make SVC_RATE_LIMIT_PLUS at most 10, or raise SVC_RATE_LIMIT_PRO',
    );
    expect(refusal({ SVC_RATE_LIMIT_FREE: '5000' })).toMatch(/^invalid settings: SVC_RATE_LIMIT_FREE \(environment\) = 5000 is more than SVC_RATE_LIMIT_PLUS \(config\/default\.json\) = 300; /);
    expect(refusal({ SVC_RATE_LIMIT_ENTERPRISE: '1000' })).toMatch(/^invalid settings: SVC_RATE_LIMIT_PRO \(config\/default\.json\) = 1200 is more than SVC_RATE_LIMIT_ENTERPRISE \(environment\) = 1000; /);
    // Equal limits are a choice (every plan alike), not an inversion.
    expect(refusal({ SVC_RATE_LIMIT_FREE: '100', SVC_RATE_LIMIT_PLUS: '100', SVC_RATE_LIMIT_PRO: '100', SVC_RATE_LIMIT_ENTERPRISE: '100' })).toBeNull();
  });

  describe('on the wire', () => {
    let svc: TestService;
    const limits: Record<Plan, number> = { free: 2, plus: 3, pro: 5, enterprise: 7 };
    beforeAll(async () => {
      svc = await startService({ env: { SVC_RATE_LIMIT_FREE: '2', SVC_RATE_LIMIT_PLUS: '3', SVC_RATE_LIMIT_PRO: '5', SVC_RATE_LIMIT_ENTERPRISE: '7' } });
    });
    afterAll(() => svc.close());
    const models = (key: string) => fetch(`${svc.baseURL}/models`, { headers: { authorization: `Bearer ${key}` } });

    it('each plan admits exactly its own number of requests a minute, and says so in the headers', async () => {
      for (const plan of PLANS) {
        const { apiKey } = await svc.account({ plan });
        const replies: Response[] = [];
        for (let i = 0; i <= limits[plan]; i++) replies.push(await models(apiKey));
        expect(replies.map((r) => r.status), plan).toEqual([...Array(limits[plan]).fill(200), 429]);
        expect(replies[0]!.headers.get('x-ratelimit-limit-requests'), plan).toBe(String(limits[plan]));
        expect(((await replies.at(-1)!.json()) as { error: { message: string } }).error.message).toContain(`${limits[plan]} request${limits[plan] === 1 ? '' : 's'} per minute on the ${plan} plan`);
      }
    });

    it('an upgrade raises the limit of the key at once, within the same minute', async () => {
      const { id, apiKey } = await svc.account({ plan: 'free' });
      expect([(await models(apiKey)).status, (await models(apiKey)).status, (await models(apiKey)).status]).toEqual([200, 200, 429]);
      const patched = await fetch(`${svc.url}/v1/admin/accounts/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${svc.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'pro' }),
      });
      expect(patched.status).toBe(200);
      const after = await models(apiKey);
      expect(after.status).toBe(200);
      expect(after.headers.get('x-ratelimit-limit-requests')).toBe('5');
      expect(after.headers.get('x-ratelimit-remaining-requests')).toBe('2');
    });
  });
});
