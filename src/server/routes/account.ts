import type { FastifyInstance } from 'fastify';
import type { ServerDeps } from '../deps.js';

/** The caller's own view of their account. */
export async function accountRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.get('/v1/account', async (request) => {
    const a = await deps.accounts.getAccount(request.auth!.account.id);
    return { id: a.id, object: 'account', email: a.email, plan: a.plan, credits: a.credits };
  });
}
