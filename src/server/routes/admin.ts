import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validateEmail, validateKeyName, validatePlan } from '../../accounts/service.js';
import { invalidRequest } from '../../errors.js';
import { requireAdminKey } from '../auth.js';
import { idempotency, registerIdempotencyHooks } from '../idempotency.js';
import type { ServerDeps } from '../deps.js';
import { Fields, bodyObject, invalidValue, missing, onlyFields } from '../validate.js';
import { accountJson, entryJson, keyJson } from '../views.js';

export const MAX_CREDITS = 1_000_000_000;
/** The longest note a credit grant keeps (the ledger's reason). */
export const MAX_NOTE_LENGTH = 500;


/** /v1/admin: accounts and keys, authorised by the admin key. */
export async function adminRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.addHook('onRequest', requireAdminKey(deps.adminKey));
  registerIdempotencyHooks(app);
  // The admin API takes no query parameters: `POST /v1/admin/accounts?plan=pro` made a Free account
  // without a word. Its fields go in the JSON body.
  app.addHook('onRequest', (request, _reply, done) => {
    const name = Object.keys((request.query as Record<string, unknown> | undefined) ?? {})[0];
    if (name === undefined) return done();
    done(invalidRequest('unknown_parameter', `Unknown query parameter: '${name}'. The admin API takes no query parameters; send its fields in the JSON body.`, name));
  });

  app.post('/v1/admin/accounts', async (request, reply) => {
    const f = new Fields(bodyObject(request.body));
    // A misspelt field (`"credit": 30`) would otherwise make an account without what was meant.
    onlyFields(f, ['email', 'plan', 'credits'], 'An account is created from "email", "plan" and "credits".');
    const email = validateEmail(f.obj.email);
    const plan = f.has('plan') ? validatePlan(f.obj.plan) : 'free';
    const credits = f.number('credits', { integer: true, min: 0, max: MAX_CREDITS }) ?? 0;
    const { account, key, secret } = await deps.accounts.createAccount({ email, plan, credits });
    return reply.code(201).send({ ...accountJson(account), api_key: secret, key: keyJson(key) });
  });

  app.get('/v1/admin/accounts/:id', async (request) => accountJson(await deps.accounts.getAccount((request.params as { id: string }).id)));

  app.patch('/v1/admin/accounts/:id', async (request) => {
    const f = new Fields(bodyObject(request.body));
    onlyFields(f, ['plan'], 'Only the "plan" of an account can be changed here.');
    if (!f.has('plan')) throw missing('plan', `Send {"plan": "free" | "plus" | "pro" | "enterprise"}.`);
    const { account, previousPlan } = await deps.accounts.changePlan((request.params as { id: string }).id, validatePlan(f.obj.plan));
    // The plan it replaced too, so a slip can be seen and undone.
    return { ...accountJson(account), previous_plan: previousPlan };
  });

  // A grant retried with its Idempotency-Key (a timeout, a script run twice) is granted once: the
  // retry gets the first answer. Keys are the target account's, apart from its own requests'.
  const grantKeys = {
    namespace: 'admin-grant:',
    // The account must exist before its key is claimed (a key belongs to an account).
    accountOf: async (request: FastifyRequest) => (await deps.accounts.getAccount((request.params as { id: string }).id)).id,
  };
  app.post('/v1/admin/accounts/:id/credits', { preHandler: idempotency(deps, 'POST /v1/admin/accounts/{id}/credits', grantKeys) }, async (request) => {
    const id = (request.params as { id: string }).id;
    const f = new Fields(bodyObject(request.body));
    onlyFields(f, ['amount', 'note'], 'A grant is an "amount" and an optional "note".');
    const amount = f.number('amount', { integer: true, min: -MAX_CREDITS, max: MAX_CREDITS });
    if (amount === undefined) throw missing('amount', 'Send a positive amount to grant credits or a negative one to correct a balance.');
    if (amount === 0) throw invalidValue('amount', 'must not be 0.');
    const note = f.string('note', { maxLength: MAX_NOTE_LENGTH }) ?? null;
    const { balance, entry } = await deps.billing.grant({ accountId: id, amount, note, requestId: request.id });
    // The balance this grant left, not a later read: another charge may land in between.
    return { account: { ...accountJson(await deps.accounts.getAccount(id)), credits: balance }, entry: entryJson(entry) };
  });

  // A key issued under an Idempotency-Key is issued once, as a grant is: the retry gets the first
  // answer, its secret too (stored sealed meanwhile, never in clear). Keys are the target account's.
  const issueKeys = { namespace: 'admin-key:', accountOf: grantKeys.accountOf };
  app.post('/v1/admin/accounts/:id/keys', { preHandler: idempotency(deps, 'POST /v1/admin/accounts/{id}/keys', issueKeys, { sealed: true }) }, async (request, reply) => {
    // The body is optional (`{"name"}`): a bare POST issues an unnamed key, as it always did.
    const f = new Fields(request.body === undefined || request.body === null || request.body === '' ? {} : bodyObject(request.body));
    onlyFields(f, ['name'], 'A key takes an optional "name".');
    const { key, secret } = await deps.accounts.issueKey((request.params as { id: string }).id, { name: validateKeyName(f.obj.name) });
    return reply.code(201).send(keyJson(key, secret));
  });

  app.delete('/v1/admin/keys/:id', async (request) => {
    const key = await deps.accounts.revokeKey((request.params as { id: string }).id);
    return { ...keyJson(key), revoked: true };
  });
}
