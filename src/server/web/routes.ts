import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { passwordProblem } from '../../accounts/passwords.js';
import { normalizeEmail, validateKeyName, type KeyInfo } from '../../accounts/service.js';
import { SvcError, isSvcError } from '../../errors.js';
import type { ServerDeps } from '../deps.js';
import { INTERNAL, toSvcError } from '../errors.js';
import { statusOf } from '../../wire/errors.js';
import { loadAssets } from './assets.js';
import { PAGE_HEADERS } from './headers.js';
import type { Html } from './html.js';
import type { FormErrors, PageContext } from './layout.js';
import { homePage, logInPage, logOutPage, messagePage, signUpPage } from './pages/auth.js';
import { playgroundPage } from './pages/playground.js';
import { accountSection, apiKeysSection, creditsSection, revokeConfirmSection } from './pages/settings.js';
import { WebAuth } from './session.js';

type Form = Record<string, string | undefined>;

/** A posted form's text fields (a JSON body's arrays, objects and numbers are left out, as if not sent). */
function formOf(body: unknown): Form {
  const form: Form = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form[k] = v;
  return form;
}

/** No account has a longer email (see validateEmail). */
const MAX_EMAIL_LENGTH = 254;

const FORM_LIMIT_BYTES = 16 * 1024;

/** Only a path on this site: never `//host` or a scheme, which would make the log-in page an open redirect. */
export const safeNext = (next: unknown): string | undefined =>
  typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) && next.length <= 512 ? next : undefined;

const clientAddress = (request: FastifyRequest) => request.ip || 'unknown';

/** The key whose creation redirected here, with its secret, from the flash that POST left. */
function justCreated(flash: string | null, keys: KeyInfo[]): { key: KeyInfo; secret: string } | undefined {
  const [id, secret] = flash?.split(' ') ?? [];
  const key = keys.find((k) => k.id === id && k.revokedAt === null);
  return key && secret ? { key, secret } : undefined;
}

/**
 * The web pages: sign-up, log-in, Settings (account, API keys, credits) and the playground.
 * Server-rendered HTML with two small scripts; forms work without JavaScript.
 */
/**
 * An API error's message as a form says it: "Invalid 'email': 'x' is not an email address." is
 * "“x” is not an email address: enter one like name@example.com."
 */
export function formMessage(err: SvcError): string {
  if (err.param === 'email' && err.code === 'invalid_value') {
    const typed = /: '(.*)' is not an email address/.exec(err.message)?.[1];
    return `${typed ? `“${typed}” is not an email address` : 'That is not an email address'}: enter one like name@example.com.`;
  }
  if (err.param === 'name' && err.code === 'invalid_value') return err.message.replace(/^Invalid 'name': at most (\d+) characters\./, 'Use a name of at most $1 characters.');
  const plain = err.message.replace(/^Invalid '[^']+': /, '');
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** The page a form of a path is on: forms posting to a path with no page of its own come from Settings. */
function pageOf(url: string): string {
  const path = url.split('?')[0]!;
  return path === '/logout' || path === '/settings/password' ? '/settings' : path;
}

export async function webRoutes(app: FastifyInstance, deps: ServerDeps, auth: WebAuth): Promise<void> {
  const assets = loadAssets();
  const asset = (name: string) => {
    const a = assets.get(name);
    return a ? `/assets/${name}?v=${a.version}` : `/assets/${name}`;
  };
  const apiBase = () => `${deps.publicUrl()}/v1`;
  const web = deps.config.web;

  // Forms post urlencoded bodies; only this scope accepts them (the API stays JSON-only).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_req, body, done) => {
    const form: Form = {};
    for (const [k, v] of new URLSearchParams(body as string)) if (!(k in form)) form[k] = v;
    done(null, form);
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(PAGE_HEADERS);
    // Stylesheets and scripts are the same for everyone: no session lookup for them.
    if (!/^\/(assets\/|favicon\.ico)/.test(request.url)) await auth.load(request, reply);
  });

  const ctx = (request: FastifyRequest, reply: FastifyReply): PageContext => ({
    session: request.webSession ?? null,
    csrf: auth.csrfToken(request, reply),
    path: request.url.split('?')[0]!,
    asset,
    apiBase: apiBase(),
  });
  const send = (reply: FastifyReply, body: Html, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body.value);
  const redirect = (reply: FastifyReply, to: string) => reply.code(303).header('location', to).send();

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const known = toSvcError(err, FORM_LIMIT_BYTES);
    if (!known) request.log.error({ err }, 'unhandled error');
    const e = known ?? INTERNAL();
    if (e.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(e.retryAfterSeconds))));
    return send(reply, messagePage(ctx(request, reply), { title: 'Something went wrong', message: e.message, link: { href: '/', label: 'Back to the start' } }), statusOf(e));
  });

  /** Every POST here is a form: it must carry this browser's CSRF token. */
  const csrfRefused = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const form = formOf(request.body);
    if (auth.csrfValid(request, form._csrf)) return false;
    void send(
      reply,
      messagePage(ctx(request, reply), {
        title: 'Form expired',
        message: 'This form has expired or did not come from this site, so nothing was changed. Reload the page and try again.',
        link: { href: pageOf(request.url), label: 'Reload the page' },
      }),
      403,
    );
    return true;
  };

  const signedIn = (request: FastifyRequest, reply: FastifyReply) => {
    const session = request.webSession;
    // A form sent after the session ended: back to its page once logged in, saying why.
    if (!session) void redirect(reply, request.method === 'GET' ? `/login?next=${encodeURIComponent(request.url)}` : `/login?next=${encodeURIComponent(pageOf(request.url))}&expired=1`);
    return session ?? null;
  };

  /** Counts an attempt against each bucket; a refusal is an error page with Retry-After. */
  const throttle = async (buckets: [string, number][], what: string) => {
    for (const [key, limit] of buckets) {
      const d = await deps.rateLimiter.take(key, limit);
      if (!d.allowed) {
        throw new SvcError('rate_limited', { code: 'too_many_attempts', message: `Too many ${what} attempts. Wait ${d.retryAfterSeconds} seconds, then try again.`, retryAfterSeconds: d.retryAfterSeconds });
      }
    }
  };

  /** A form's attempt counted; over the limit, the message the form shows again (with Retry-After), else null. */
  const throttleForm = async (reply: FastifyReply, buckets: [string, number][], what: string): Promise<string | null> => {
    try {
      await throttle(buckets, what);
      return null;
    } catch (err) {
      if (!isSvcError(err) || err.code !== 'too_many_attempts') throw err;
      if (err.retryAfterSeconds) reply.header('retry-after', String(err.retryAfterSeconds));
      return err.message;
    }
  };

  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const a = assets.get(name);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const versioned = (request.query as { v?: string }).v === a.version;
    // On the 304 too: it refreshes the cached copy's headers, and the pages' no-store would stop caching it.
    reply.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache').header('etag', `"${a.version}"`);
    if (request.headers['if-none-match'] === `"${a.version}"`) return reply.code(304).send();
    return reply.type(a.type).send(a.body);
  });

  // Browsers ask for it on their own; there is no icon, and saying so keeps their consoles free of 404s.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());

  app.get('/', async (request, reply) => send(reply, homePage(ctx(request, reply))));

  // Sign-up ----------------------------------------------------------------------------------
  const signupClosed = (request: FastifyRequest, reply: FastifyReply) =>
    send(reply, messagePage(ctx(request, reply), { title: 'Sign-up is closed', message: 'This service does not accept new sign-ups. Ask its operator for an account.', link: { href: '/login', label: 'Log in' } }), 403);

  app.get('/signup', async (request, reply) => {
    if (!web.signup) return signupClosed(request, reply);
    if (request.webSession) return redirect(reply, '/settings');
    return send(reply, signUpPage(ctx(request, reply)));
  });

  app.post('/signup', async (request, reply) => {
    // Signed in already (another tab): the account's settings, as the sign-up page itself does.
    if (request.webSession) return redirect(reply, '/settings');
    if (csrfRefused(request, reply)) return reply;
    if (!web.signup) return signupClosed(request, reply);
    const form = formOf(request.body);
    const email = (form.email ?? '').trim();
    const again = (status: number, errors: { summary: string; fields: Record<string, string> }) => send(reply, signUpPage(ctx(request, reply), { email, errors }), status);
    if (!email || !form.password) {
      const fields: Record<string, string> = {};
      if (!email) fields.email = 'Enter your email.';
      if (!form.password) fields.password = 'Choose a password.';
      return again(400, { summary: !email && !form.password ? 'Enter your email and choose a password.' : (fields.email ?? fields.password)!, fields });
    }
    try {
      // A form with a mistake costs no attempt: only sign-ups that could create an account are counted.
      deps.accounts.checkSignUp({ email, password: form.password });
      // Over the limit: said on the form, the email kept.
      const refused = await throttleForm(reply, [[`signup:ip:${clientAddress(request)}`, web.loginAttemptsPerMinute]], 'sign-up');
      if (refused) return again(429, { summary: refused, fields: {} });
      const account = await deps.accounts.signUp({ email, password: form.password });
      await auth.signIn(request, reply, account.id);
      request.log.info({ account: account.id }, 'web sign-up');
      return redirect(reply, '/settings/api-keys?welcome=1');
    } catch (err) {
      if (!isSvcError(err) || !err.param) throw err;
      const message = err.code === 'account_exists' ? `An account with ${email} already exists. Log in instead, or use another email.` : formMessage(err);
      return again(statusOf(err), { summary: message, fields: { [err.param]: message } });
    }
  });

  // Log-in and log-out ------------------------------------------------------------------------
  app.get('/login', async (request, reply) => {
    const next = safeNext((request.query as { next?: string }).next);
    if (request.webSession) return redirect(reply, next ?? '/playground');
    const query = request.query as { logged_out?: string; expired?: string };
    const notice = query.logged_out === '1' ? 'You are logged out.' : query.expired === '1' ? 'Your session ended, so what you sent was not saved. Log in again, then send it again.' : undefined;
    return send(reply, logInPage(ctx(request, reply), { next, notice }));
  });

  app.post('/login', async (request, reply) => {
    // Signed in already (from another tab, whose log-in replaced this form's token): on to where this one was going.
    if (request.webSession) return redirect(reply, safeNext(formOf(request.body).next) ?? '/playground');
    if (csrfRefused(request, reply)) return reply;
    const form = formOf(request.body);
    const email = normalizeEmail(form.email ?? '');
    const next = safeNext(form.next);
    if (!email || !form.password) {
      const fields: Record<string, string> = {};
      if (!email) fields.email = 'Enter your email.';
      if (!form.password) fields.password = 'Enter your password.';
      return send(reply, logInPage(ctx(request, reply), { email, next, errors: { summary: 'Enter your email and password.', fields } }), 400);
    }
    // Per address, then per email *and* address: guesses from elsewhere cannot lock the owner out.
    // Counted before the password is checked, so a client over its limit learns nothing even from
    // the right password. The address comes first, so a client over its limit adds no buckets; an
    // email longer than any account's has none (its key would be of any size), and matches nothing.
    const address = clientAddress(request);
    const possible = email.length <= MAX_EMAIL_LENGTH;
    const refused = await throttleForm(reply, [[`login:ip:${address}`, web.loginAttemptsPerMinute * 4], ...(possible ? [[`login:email:${email}:${address}`, web.loginAttemptsPerMinute] as [string, number]] : [])], 'log-in');
    // Over the limit: the form again, its email and destination kept.
    if (refused) return send(reply, logInPage(ctx(request, reply), { email, next, errors: { summary: refused } }), 429);
    const account = possible ? await deps.accounts.signIn(email, form.password) : null;
    if (!account) {
      request.log.info({ ip: address }, 'web log-in refused');
      return send(reply, logInPage(ctx(request, reply), { email, next, errors: { summary: 'That email and password do not match an account.' } }), 401);
    }
    await auth.signIn(request, reply, account.id);
    return redirect(reply, next ?? '/playground');
  });

  // An address typed or followed: logging out is a form (with its CSRF token), so this page offers it.
  app.get('/logout', async (request, reply) => {
    if (!request.webSession) return redirect(reply, '/login?logged_out=1');
    const c = ctx(request, reply);
    return send(reply, logOutPage(c));
  });

  app.post('/logout', async (request, reply) => {
    // Logged out already (in another tab, or the session ended): there is nothing to refuse.
    if (!request.webSession) return redirect(reply, '/login?logged_out=1');
    if (csrfRefused(request, reply)) return reply;
    await auth.signOut(request, reply);
    return redirect(reply, '/login?logged_out=1');
  });

  // Settings ----------------------------------------------------------------------------------
  const accountPage = (request: FastifyRequest, reply: FastifyReply, extra: { errors?: FormErrors; passwordChanged?: boolean } = {}) => {
    const account = request.webSession!.account;
    return accountSection(ctx(request, reply), { account, requestsPerMinute: deps.config.rateLimits[account.plan], reportCost: deps.config.billing.reportCostCredits, ...extra });
  };

  app.get('/settings', async (request, reply) => {
    if (!signedIn(request, reply)) return reply;
    return send(reply, accountPage(request, reply, { passwordChanged: (request.query as { changed?: string }).changed === 'password' }));
  });

  // The address a refused change leaves in the bar: going there again shows the form.
  app.get('/settings/password', async (_request, reply) => redirect(reply, '/settings#password'));

  app.post('/settings/password', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session || csrfRefused(request, reply)) return reply;
    const form = formOf(request.body);
    const [current, next] = [form.current_password ?? '', form.new_password ?? ''];
    const again = (status: number, errors: FormErrors) => send(reply, accountPage(request, reply, { errors }), status);
    // A form with a mistake costs no attempt: only a guess of the current password is counted.
    if (!current || !next) {
      const fields: Record<string, string> = {};
      if (!current) fields.current_password = 'Enter your current password.';
      if (!next) fields.new_password = 'Choose a new password.';
      return again(400, { summary: !current && !next ? 'Enter your current password and choose a new one.' : (fields.current_password ?? fields.new_password)!, fields });
    }
    const weak = current === next ? 'The new password is the same as the current one.' : passwordProblem(next, session.account.email);
    if (weak) return again(400, { summary: weak, fields: { new_password: weak } });
    // The current password is guessable from a stolen session: throttled like log-ins.
    const refused = await throttleForm(reply, [[`password:${session.account.id}`, web.loginAttemptsPerMinute]], 'password change');
    if (refused) return again(429, { summary: refused, fields: {} });
    try {
      await deps.accounts.changePassword(session.account.id, current, next, session.id);
    } catch (err) {
      if (!isSvcError(err) || !err.param) throw err;
      return send(reply, accountPage(request, reply, { errors: { summary: err.message, fields: { [err.param]: err.message } } }), statusOf(err));
    }
    request.log.info({ account: session.account.id }, 'web password changed');
    return redirect(reply, '/settings?changed=password#password');
  });

  app.get('/settings/api-keys', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const keys = await deps.accounts.listKeys(session.account.id);
    const revokedId = (request.query as { revoked?: string }).revoked;
    const revoked = revokedId ? keys.find((k) => k.id === revokedId && k.revokedAt !== null) : undefined;
    const welcome = (request.query as { welcome?: string }).welcome === '1';
    let created = justCreated(auth.takeFlash(request, reply), keys);
    // Shown once: a flash cookie sent again (another tab, a replay) shows nothing.
    if (created && !(await deps.accounts.markSecretShown(created.key.id, session.account.id))) created = undefined;
    return send(reply, apiKeysSection(ctx(request, reply), { keys, revoked, welcome, created }));
  });

  app.post('/settings/api-keys', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session || csrfRefused(request, reply)) return reply;
    const form = formOf(request.body);
    let name: string | null;
    try {
      name = validateKeyName(form.name ?? '');
    } catch (err) {
      if (!isSvcError(err)) throw err;
      const keys = await deps.accounts.listKeys(session.account.id);
      const message = formMessage(err);
      return send(reply, apiKeysSection(ctx(request, reply), { keys, name: form.name, errors: { summary: message, fields: { name: message } } }), 400);
    }
    let created: Awaited<ReturnType<typeof deps.accounts.issueKey>>;
    try {
      created = await deps.accounts.issueKey(session.account.id, { name });
    } catch (err) {
      if (!isSvcError(err) || err.code !== 'too_many_keys') throw err;
      const keys = await deps.accounts.listKeys(session.account.id);
      return send(reply, apiKeysSection(ctx(request, reply), { keys, name: form.name, errors: { summary: err.message, fields: { name: err.message } } }), 409);
    }
    request.log.info({ account: session.account.id, key: created.key.id }, 'web api key created');
    // Redirected, so that reloading the page creates no second key. The secret is stored nowhere:
    // it rides to the next page, once, in a cookie sealed to this session.
    auth.setFlash(request, reply, `${created.key.id} ${created.secret}`);
    return redirect(reply, '/settings/api-keys');
  });

  const ownKey = async (accountId: string, keyId: string) => (await deps.accounts.listKeys(accountId)).find((k) => k.id === keyId);
  const noSuchKey = (request: FastifyRequest, reply: FastifyReply) =>
    send(reply, messagePage(ctx(request, reply), { title: 'Key not found', message: 'There is no such API key on your account.', link: { href: '/settings/api-keys', label: 'Back to API keys' } }), 404);

  app.get('/settings/api-keys/:id/revoke', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const key = await ownKey(session.account.id, (request.params as { id: string }).id);
    if (!key) return noSuchKey(request, reply);
    if (key.revokedAt !== null) return redirect(reply, '/settings/api-keys');
    return send(reply, revokeConfirmSection(ctx(request, reply), key));
  });

  app.post('/settings/api-keys/:id/revoke', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session || csrfRefused(request, reply)) return reply;
    const keyId = (request.params as { id: string }).id;
    try {
      await deps.accounts.revokeKey(keyId, { accountId: session.account.id });
    } catch (err) {
      if (isSvcError(err) && err.kind === 'not_found') return noSuchKey(request, reply);
      throw err;
    }
    request.log.info({ account: session.account.id, key: keyId }, 'web api key revoked');
    return redirect(reply, `/settings/api-keys?revoked=${encodeURIComponent(keyId)}`);
  });

  app.get('/settings/credits', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    let after = (request.query as { after?: string }).after || undefined;
    // An address edited by hand or gone stale shows the newest entries, not an error page.
    const page = await deps.billing.ledger(session.account.id, { limit: 50, after }).catch((err: unknown) => {
      if (!isSvcError(err) || err.param !== 'after') throw err;
      after = undefined;
      return deps.billing.ledger(session.account.id, { limit: 50 });
    });
    const { entries, hasMore } = page;
    return send(reply, creditsSection(ctx(request, reply), { account: session.account, entries, hasMore, after }));
  });

  // Playground --------------------------------------------------------------------------------
  app.get('/playground', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    return send(reply, playgroundPage(ctx(request, reply), { models: deps.agents.models(), credits: session.account.credits, plan: session.account.plan }));
  });

  // The form posts here only when its script did not run: a post keeps the question out of the URL and history.
  app.post('/playground', async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session || csrfRefused(request, reply)) return reply;
    return send(
      reply,
      messagePage(ctx(request, reply), {
        title: 'The playground needs JavaScript',
        message: 'Answers stream into the page with a script, which did not run, so nothing was asked and no credits were charged. Turn JavaScript on for this site and try again, or call the API with a key.',
        link: { href: '/settings/api-keys', label: 'Get an API key' },
      }),
    );
  });
}
