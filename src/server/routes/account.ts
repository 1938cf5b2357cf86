import type { FastifyInstance } from 'fastify';
import { validateKeyName } from '../../accounts/service.js';
import { idempotency } from '../idempotency.js';
import type { ServerDeps } from '../deps.js';
import { Fields, bodyObject, intQuery, onlyFields, stringQuery } from '../validate.js';
import { entryJson, keyJson } from '../views.js';

/** `GET /v1/account`: the caller's plan and balance (the playground reads it too). */
export async function accountViewRoute(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.get('/v1/account', async (request) => {
    const a = await deps.accounts.getAccount(request.auth!.account.id);
    return { id: a.id, object: 'account', email: a.email, plan: a.plan, credits: a.credits };
  });
}

/** The caller's own account: balance, ledger, and API keys. */
export async function accountRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  await accountViewRoute(app, deps);

  app.get('/v1/account/ledger', async (request) => {
    const q = request.query as Record<string, unknown>;
    const limit = intQuery(q.limit, 'limit', 20, 1, 100);
    const after = stringQuery(q.after, 'after');
    const { entries, hasMore } = await deps.billing.ledger(request.auth!.account.id, { limit, after });
    const data = entries.map(entryJson);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
  });

  app.get('/v1/account/keys', async (request) => {
    const keys = await deps.accounts.listKeys(request.auth!.account.id);
    return { object: 'list', data: keys.map((k) => keyJson(k)) };
  });

  // A key created under an Idempotency-Key (a timeout, a script run twice) is created once: the
  // retry, from the same account within the key's TTL, gets the first answer, its secret too (stored
  // sealed meanwhile: the database never holds a key's secret in clear).
  app.post('/v1/account/keys', { preHandler: idempotency(deps, 'POST /v1/account/keys', undefined, { sealed: true, issuedKey: (answer) => answer }) }, async (request, reply) => {
    // The body is optional (a key needs no name), but when there is one it must be an object.
    const f = new Fields(request.body === undefined || request.body === null ? {} : bodyObject(request.body));
    onlyFields(f, ['name'], 'A key takes an optional "name".');
    const name = validateKeyName(f.obj.name);
    const { key, secret } = await deps.accounts.issueKey(request.auth!.account.id, { name });
    return reply.code(201).send(keyJson(key, secret));
  });

  app.delete('/v1/account/keys/:id', async (request) => {
    const key = await deps.accounts.revokeKey((request.params as { id: string }).id, { accountId: request.auth!.account.id });
    return { ...keyJson(key), revoked: true };
  });
}
