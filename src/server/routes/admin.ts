import type { FastifyInstance } from 'fastify';
import type { KeyInfo } from '../../accounts/service.js';
import { validateEmail, validatePlan } from '../../accounts/service.js';
import { requireAdminKey } from '../auth.js';
import type { ServerDeps } from '../deps.js';
import { Fields, bodyObject } from '../validate.js';

export const MAX_CREDITS = 1_000_000_000;

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export function keyJson(k: KeyInfo, secret?: string) {
  return {
    id: k.id,
    object: 'api_key',
    account_id: k.accountId,
    prefix: k.prefix,
    last4: k.last4,
    created_at: seconds(k.createdAt),
    last_used_at: seconds(k.lastUsedAt),
    revoked_at: seconds(k.revokedAt),
    ...(secret ? { api_key: secret } : {}),
  };
}

/** /v1/admin: accounts and keys, authorised by the admin key. */
export async function adminRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.addHook('onRequest', requireAdminKey(deps.adminKey));

  app.post('/v1/admin/accounts', async (request, reply) => {
    const f = new Fields(bodyObject(request.body));
    const email = validateEmail(f.obj.email);
    const plan = f.has('plan') ? validatePlan(f.obj.plan) : 'free';
    const credits = f.number('credits', { integer: true, min: 0, max: MAX_CREDITS }) ?? 0;
    const { account, key, secret } = await deps.accounts.createAccount({ email, plan, credits });
    return reply.code(201).send({ id: account.id, object: 'account', email: account.email, plan: account.plan, credits: account.credits, api_key: secret, key: keyJson(key) });
  });

  app.get('/v1/admin/accounts/:id', async (request) => {
    const a = await deps.accounts.getAccount((request.params as { id: string }).id);
    return { id: a.id, object: 'account', email: a.email, plan: a.plan, credits: a.credits, created_at: seconds(a.createdAt) };
  });

  app.post('/v1/admin/accounts/:id/keys', async (request, reply) => {
    const { key, secret } = await deps.accounts.issueKey((request.params as { id: string }).id);
    return reply.code(201).send(keyJson(key, secret));
  });

  app.delete('/v1/admin/keys/:id', async (request) => {
    const key = await deps.accounts.revokeKey((request.params as { id: string }).id);
    return { ...keyJson(key), revoked: true };
  });
}
