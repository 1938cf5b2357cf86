import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { validateEmail, validateKeyName, validatePlan, type Account, type KeyInfo } from '../../accounts/service.js';
import { ACCOUNT_CREATION_KEYS, fingerprint, validateKey } from '../../billing/idempotency.js';
import { SvcError, invalidRequest, isSvcError } from '../../errors.js';
import type { Database } from '../../store/schema.js';
import { requireAdminKey } from '../auth.js';
import { idempotency, registerIdempotencyHooks, sendReplay, type ReplayOptions } from '../idempotency.js';
import type { ServerDeps } from '../deps.js';
import { Fields, bodyObject, intQuery, invalidValue, missing, onlyFields, stringQuery } from '../validate.js';
import { accountJson, entryJson, keyJson } from '../views.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** A replayed account creation: sealed (it holds the first key's secret), with that key's state now. */
const createdReplay: ReplayOptions = { sealed: true, issuedKey: (answer) => answer.key, check: (id) => `GET /v1/admin/accounts/${id}` };

export const MAX_CREDITS = 1_000_000_000;
/** The longest note a credit grant keeps (the ledger's reason). */
export const MAX_NOTE_LENGTH = 500;


/** /v1/admin: accounts and keys, authorised by the admin key. */
export async function adminRoutes(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  app.addHook('onRequest', requireAdminKey(deps.adminKey));
  registerIdempotencyHooks(app);
  // The admin API takes no query parameters: `POST /v1/admin/accounts?plan=pro` made a Free account
  // without a word. Its fields go in the JSON body.
  // Apart from the one a route names (`GET /v1/admin/accounts?email=`).
  app.addHook('onRequest', (request, _reply, done) => {
    const taken = (request.routeOptions.config as { query?: readonly string[] } | undefined)?.query ?? [];
    const name = Object.keys((request.query as Record<string, unknown> | undefined) ?? {}).find((n) => !taken.includes(n));
    if (name === undefined) return done();
    const takes = taken.length ? `This route takes only ${taken.map((n) => `'${n}'`).join(', ')} in its query.` : 'The admin API takes no query parameters; send its fields in the JSON body.';
    done(invalidRequest('unknown_parameter', `Unknown query parameter: '${name}'. ${takes}`, name));
  });

  // The account's ledger, newest first, paged as GET /v1/account/ledger is (`limit`, `after`): an
  // admin could grant credits but not see what the account was charged.
  app.get('/v1/admin/accounts/:id/ledger', { config: { query: ['limit', 'after'] } }, async (request) => {
    const account = await deps.accounts.getAccount((request.params as { id: string }).id);
    const q = request.query as Record<string, unknown>;
    const { entries, hasMore } = await deps.billing.ledger(account.id, { limit: intQuery(q.limit, 'limit', 20, 1, 100), after: stringQuery(q.after, 'after') });
    const data = entries.map(entryJson);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
  });

  // An account found by its email (an operator has a customer's address, not the id): a list of
  // the one account with it, or none. Emails are compared as stored (trimmed, NFC, lower case).
  app.get('/v1/admin/accounts', { config: { query: ['email'] } }, async (request) => {
    const given = stringQuery((request.query as Record<string, unknown>).email, 'email');
    if (given === undefined) throw missing('email', 'GET /v1/admin/accounts finds an account by its email: add ?email=… (GET /v1/admin/accounts/{id} reads one by id; svc accounts list, on the command line, lists them).');
    const email = validateEmail(given);
    const found = await deps.accounts.findByEmail(email).catch((err: unknown) => {
      if (isSvcError(err) && err.code === 'account_not_found') return null;
      throw err;
    });
    return { object: 'list', data: found ? [accountJson(found)] : [] };
  });

  // An account created under an Idempotency-Key (a timeout, a script run twice) is created once:
  // the retry gets the first answer, the API key's secret too, rather than 409 for its own email.
  // The record is written in the transaction that makes the account (it hangs off it), sealed as
  // a key issuance's is, and found again by the key alone: one key makes one account at most, and
  // of two identical requests at once one makes it and the other replays its answer.
  app.post('/v1/admin/accounts', async (request, reply) => {
    const given = validateKey(request.headers['idempotency-key']);
    const endpoint = 'POST /v1/admin/accounts';
    const key = given ? `${ACCOUNT_CREATION_KEYS}${given}` : null;
    const print = fingerprint(endpoint, request.body);
    const replayed = async () => {
      const found = key ? await deps.idempotency.findAccountCreation(key) : null;
      if (!found) return null;
      if (found.endpoint !== endpoint || found.fingerprint !== print) {
        throw new SvcError('unprocessable', {
          code: 'idempotency_key_reused',
          message: `The Idempotency-Key '${given}' was already used with a different request (${found.endpoint}, which made account ${found.accountId}). Use a new key for a new request.`,
          param: 'Idempotency-Key',
        });
      }
      if (!found.result) throw new SvcError('conflict', { code: 'idempotency_key_in_progress', message: `A request with the Idempotency-Key '${given}' is still running; retry once it has finished to get its result.`, param: 'Idempotency-Key', retryAfterSeconds: 1 });
      return sendReplay(deps, reply, { accountId: found.accountId, key: key!, given: given!, endpoint, result: found.result }, createdReplay);
    };
    const replay = await replayed();
    if (replay) return replay;

    const f = new Fields(bodyObject(request.body));
    // A misspelt field (`"credit": 30`) would otherwise make an account without what was meant.
    onlyFields(f, ['email', 'plan', 'credits'], 'An account is created from "email", "plan" and "credits".');
    const email = validateEmail(f.obj.email);
    const plan = f.has('plan') ? validatePlan(f.obj.plan) : 'free';
    const credits = f.number('credits', { integer: true, min: 0, max: MAX_CREDITS }) ?? 0;
    let body = '';
    const within = async (trx: Kysely<Database>, made: { account: Account; key: KeyInfo; secret: string }) => {
      body = JSON.stringify({ ...accountJson(made.account), api_key: made.secret, key: keyJson(made.key) });
      if (!key) return;
      const sealed = deps.idempotency.seal(made.account.id, key, body);
      await deps.idempotency.recordWithin(trx, { accountId: made.account.id, key, endpoint, fingerprint: print }, { statusCode: 201, headers: { 'content-type': JSON_TYPE }, body: sealed });
    };
    try {
      await deps.accounts.createAccount({ email, plan, credits, within });
    } catch (err) {
      // The email taken, or the key recorded, by the same request running at once: its answer.
      if (key && isSvcError(err) && err.code === 'account_exists') {
        const again = await replayed();
        if (again) return again;
      }
      throw err;
    }
    return reply.code(201).type(JSON_TYPE).send(body);
  });

  app.get('/v1/admin/accounts/:id', async (request) => accountJson(await deps.accounts.getAccount((request.params as { id: string }).id)));

  // The account's keys, revoked ones too, as GET /v1/account/keys lists them: an admin could issue
  // and revoke keys but not see which there were (to find the one to revoke).
  app.get('/v1/admin/accounts/:id/keys', async (request) => {
    const account = await deps.accounts.getAccount((request.params as { id: string }).id);
    return { object: 'list', data: (await deps.accounts.listKeys(account.id)).map((k) => keyJson(k)) };
  });

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
  const issuedReplay: ReplayOptions = { sealed: true, issuedKey: (answer) => answer, check: (id) => `GET /v1/admin/accounts/${id}/keys` };
  app.post('/v1/admin/accounts/:id/keys', { preHandler: idempotency(deps, 'POST /v1/admin/accounts/{id}/keys', issueKeys, issuedReplay) }, async (request, reply) => {
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
