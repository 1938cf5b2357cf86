import { PAGE_HEADERS } from '../../../src/server/web/headers.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends, dropTestSchemas } from '../../helpers/backends.js';
import { answer, scriptedAgent } from '../../helpers/scripted-agent.js';
import { startService, type TestService } from '../../helpers/service.js';
import { WebClient } from '../../helpers/web-client.js';
import { runCli } from '../../helpers/cli.js';
import { readSse } from '../../helpers/sse.js';

/** Set-Cookie of GET /login sent with another Host header (fetch does not allow setting one). */
function setCookiesFor(url: string, host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    http.get(`${url}/login`, { headers: { host } }, (res) => {
      res.resume();
      resolve(([] as string[]).concat(res.headers['set-cookie'] ?? []));
    }).on('error', reject);
  });
}

let n = 0;
const email = () => `web${++n}-${process.pid}@example.com`;
const agents = [scriptedAgent('svc-test', (req) => answer(`You asked: ${req.messages.at(-1)!.content} [1]`, [{ order: 1, name: 'Source one', url: 'https://example.com/one' }]))];

afterAll(() => dropTestSchemas());

describeBackends('web pages: sign-up, sessions, API keys', (backend) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ agents, env: await backend.env() });
  });
  afterAll(() => svc?.close());

  it('signs up into a session whose cookie is HttpOnly, Secure, SameSite=Lax and host-only', async () => {
    const web = new WebClient(svc.url);
    const form = await web.get('/signup');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(form.headers.get('x-frame-options')).toBe('DENY');
    const res = await web.post('/signup', { email: email(), password: 'plum orbit canyon lantern' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings/api-keys?welcome=1');
    const cookie = web.lastSetCookie.find((c) => c.startsWith('__Host-svc_session='))!;
    expect(cookie).toBeDefined();
    const attrs = cookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=lax', 'path=/']));
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    expect(attrs.find((a) => a.startsWith('max-age='))).toBe(`max-age=${168 * 3600}`);
    const settings = await web.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('<dd id="plan">Free</dd>');
    expect(settings.text).toContain('<dd id="credits">0</dd>');
  });

  it('stores the password as an scrypt hash and the session as a hash of its token', async () => {
    const address = email();
    const web = new WebClient(svc.url);
    await web.signUp(address, 'violet harbor quietly 42');
    const db = svc.service.deps.store.db;
    const row = await db.selectFrom('accounts').select(['password_hash', 'plan', 'credits']).where('email', '=', address).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(row.password_hash).not.toContain('violet');
    const token = web.cookies.get('__Host-svc_session')!;
    const sessions = await db.selectFrom('web_sessions').select('id').execute();
    expect(sessions.some((s) => s.id === token)).toBe(false);
    expect(sessions.length).toBeGreaterThan(0);
  });

  it('refuses a taken email (any case), a weak password and a malformed email, naming the field', async () => {
    const address = email();
    await new WebClient(svc.url).signUp(address);
    const web = new WebClient(svc.url);
    await web.get('/signup');
    const taken = await web.post('/signup', { email: address.toUpperCase(), password: 'plum orbit canyon lantern' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain(`An account with ${address.toUpperCase()} already exists`);
    expect(taken.text).toMatch(/id="f-email"[^>]*aria-invalid="true"/);
    expect(web.cookies.has('__Host-svc_session')).toBe(false);

    const short = await web.post('/signup', { email: email(), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('Use at least 12 characters (this one has 5).');
    expect(short.text).toMatch(/id="f-password"[^>]*aria-describedby="f-password-hint f-password-error"[^>]*aria-invalid="true"/);
    const common = await web.post('/signup', { email: email(), password: 'Password1234' });
    expect(common.status).toBe(400);
    expect(common.text).toContain('one of the most commonly used');
    const bad = await web.post('/signup', { email: 'not-an-email', password: 'plum orbit canyon lantern' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('“not-an-email” is not an email address: enter one like name@example.com.');
    expect(bad.text).not.toContain("Invalid 'email'");
    expect(bad.text).toContain('value="not-an-email"');
  });

  it('logs in with the right password only, with one message for a wrong password and an unknown email', async () => {
    const address = email();
    const first = new WebClient(svc.url);
    await first.signUp(address, 'granite meadow sixty four');
    const web = new WebClient(svc.url);
    await web.get('/login');
    const wrong = await web.post('/login', { email: address, password: 'granite meadow sixty five' });
    const unknown = await web.post('/login', { email: `nobody-${address}`, password: 'granite meadow sixty four' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.text).toContain('That email and password do not match an account.');
      // The email is kept: the focus goes to the password, what is left to type.
      expect(res.text).toMatch(/id="f-password"[^>]*autofocus/);
      expect(res.text).not.toMatch(/id="f-email"[^>]*autofocus/);
    }
    expect(web.cookies.has('__Host-svc_session')).toBe(false);
    const ok = await web.post('/login', { email: address.toUpperCase(), password: 'granite meadow sixty four', next: '/settings/credits' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/settings/credits');
    expect((await web.get('/settings/credits')).status).toBe(200);
    // GET /logout (an address typed) offers the log-out form; signed out, it says so.
    const offer = await web.get('/logout');
    expect(offer.status).toBe(200);
    expect(offer.text).toMatch(/<form method="post" action="\/logout"><input type="hidden" name="_csrf" value="[^"]+">/);
    expect(web.cookies.has('__Host-svc_session')).toBe(true);
    const out = await new WebClient(svc.url).get('/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/login?logged_out=1');
  });

  it('never redirects off-site after log-in', async () => {
    const address = email();
    await new WebClient(svc.url).signUp(address);
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const web = new WebClient(svc.url);
      await web.get(`/login?next=${encodeURIComponent(next)}`);
      const res = await web.post('/login', { email: address, password: 'plum orbit canyon lantern', next });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/playground');
    }
  });

  it('refuses every form post without this browser’s CSRF token and changes nothing', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const key = await web.createKey('ci');
    const other = new WebClient(svc.url);
    await other.signUp(email());

    for (const csrf of [null, '', 'x'.repeat(32), other.csrf]) {
      const create = await web.post('/settings/api-keys', { name: 'forged' }, { csrf });
      expect(create.status).toBe(403);
      expect(create.text).toContain('nothing was changed');
      const revoke = await web.post(`/settings/api-keys/${key.id}/revoke`, {}, { csrf });
      expect(revoke.status).toBe(403);
      const logout = await web.post('/logout', {}, { csrf });
      expect(logout.status).toBe(403);
    }
    const keys = await svc.service.deps.accounts.listKeys((await svc.service.deps.accounts.authenticate(key.secret))!.account.id);
    expect(keys.map((k) => [k.name, k.revokedAt])).toEqual([['ci', null]]);
    expect((await web.get('/settings')).status).toBe(200);

    // Before sign-in too: the token must match this browser's pre-session cookie.
    const anon = new WebClient(svc.url);
    await anon.get('/signup');
    const forged = await anon.post('/signup', { email: email(), password: 'plum orbit canyon lantern' }, { csrf: other.csrf });
    expect(forged.status).toBe(403);
    const noCookie = new WebClient(svc.url);
    const blind = await noCookie.post('/login', { email: 'a@example.com', password: 'whatever whatever' }, { csrf: 'y'.repeat(32) });
    expect(blind.status).toBe(403);
  });

  it('creates a named key shown once; the key works with the openai SDK until it is revoked', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const { id, secret } = await web.createKey('laptop');
    expect(secret).toMatch(/^sk-svc-[0-9A-Za-z]{40}$/);
    const page = await web.get('/settings/api-keys');
    expect(page.text).not.toContain(secret);
    expect(page.text).toContain(`${secret.slice(0, 11)}…${secret.slice(-4)}`);
    expect(page.text).toContain('laptop');
    const long = await web.post('/settings/api-keys', { name: 'x'.repeat(61) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('Use a name of at most 60 characters.');
    // The field says so too, and has the focus; the browser's own limit leaves room for 60 emoji (two UTF-16 units each).
    expect(long.text).toMatch(/<input id="f-name" name="name" type="text" autocomplete="off" maxlength="120" value="x{61}" aria-describedby="f-name-hint f-name-error" aria-invalid="true" autofocus>/);
    expect((await web.post('/settings/api-keys', { name: '🔑'.repeat(60) })).status).toBe(303);

    const client = new OpenAI({ apiKey: secret, baseURL: svc.baseURL, maxRetries: 0 });
    const r = await client.responses.create({ model: 'svc-test', input: 'hello', store: false });
    expect(r.output_text).toBe('You asked: hello [1]');

    const confirm = await web.get(`/settings/api-keys/${id}/revoke`);
    expect(confirm.text).toContain('This cannot be undone');
    const revoked = await web.post(`/settings/api-keys/${id}/revoke`, {});
    expect(revoked.status).toBe(303);
    const after = await web.get(revoked.headers.get('location')!);
    expect(after.text).toContain('was revoked');
    expect(after.text).toContain('id="revoked-keys"');
    await expect(client.responses.create({ model: 'svc-test', input: 'again', store: false })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('creates a key by post-redirect-get: the secret is shown on the next page only, never in a URL or readable cookie', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const post = await web.post('/settings/api-keys', { name: 'reloaded' });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/settings/api-keys');
    const flash = web.cookies.get('__Host-svc_flash')!;
    expect(web.lastSetCookie.find((c) => c.startsWith('__Host-svc_flash='))).toMatch(/; Max-Age=300; HttpOnly; Secure; SameSite=Lax$/);

    // Another signed-in browser given that cookie cannot read the secret out of it.
    const other = new WebClient(svc.url);
    await other.signUp(email());
    other.cookies.set('__Host-svc_flash', flash);
    expect((await other.get('/settings/api-keys')).text).not.toContain('id="new-key-secret"');

    const shown = await web.get('/settings/api-keys');
    const secret = /id="new-key-secret">([^<]+)</.exec(shown.text)?.[1];
    expect(secret).toMatch(/^sk-svc-[0-9A-Za-z]{40}$/);
    expect(flash).not.toContain(secret!.slice(7));
    expect(Buffer.from(flash, 'base64url').toString('latin1')).not.toContain(secret!.slice(7));
    expect(web.cookies.has('__Host-svc_flash')).toBe(false);
    // Reloading shows the key, not its secret, and creates nothing; nor does the flash cookie sent again.
    const reloaded = await web.get('/settings/api-keys');
    expect(reloaded.text).not.toContain(secret);
    web.cookies.set('__Host-svc_flash', flash);
    expect((await web.get('/settings/api-keys')).text).not.toContain(secret);
    expect(reloaded.text).toContain(`${secret!.slice(0, 11)}…${secret!.slice(-4)}`);
    const accountId = (await svc.service.deps.accounts.authenticate(secret!))!.account.id;
    expect((await svc.service.deps.accounts.listKeys(accountId)).map((k) => k.name)).toEqual(['reloaded']);
  });

  it('cannot see or revoke another account’s key', async () => {
    const owner = new WebClient(svc.url);
    await owner.signUp(email());
    const key = await owner.createKey('owner');
    const intruder = new WebClient(svc.url);
    await intruder.signUp(email());
    expect((await intruder.get(`/settings/api-keys/${key.id}/revoke`)).status).toBe(404);
    const res = await intruder.post(`/settings/api-keys/${key.id}/revoke`, {});
    expect(res.status).toBe(404);
    expect(res.text).toContain('There is no such API key on your account.');
    expect((await intruder.get('/settings/api-keys')).text).not.toContain(key.id);
    const me = await fetch(`${svc.url}/v1/account`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(me.status).toBe(200);
  });

  it('ends the session on log-out: the old cookie no longer signs anyone in', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const stolen = web.cookies.get('__Host-svc_session')!;
    const out = await web.post('/logout', {});
    // Redirected, so that reloading the page posts nothing again.
    expect(out.status).toBe(303);
    expect(web.lastSetCookie.some((c) => c.startsWith('__Host-svc_session=;') && /Max-Age=0/.test(c))).toBe(true);
    const login = await web.get(out.headers.get('location')!);
    expect(login.status).toBe(200);
    expect(login.text).toContain('You are logged out.');
    const replay = new WebClient(svc.url);
    replay.cookies.set('__Host-svc_session', stolen);
    const res = await replay.get('/settings');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fsettings');
    // Logging out again (a second tab, its form still there) just lands on the log-in page.
    const again = await web.post('/logout', {});
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/login?logged_out=1');
    // A form sent after the session ended: back to its page once logged in, told why.
    const late = await replay.post('/settings/password', { current_password: 'x', new_password: 'y' });
    expect(late.status).toBe(303);
    expect(late.headers.get('location')).toBe('/login?next=%2Fsettings&expired=1');
    const told = await replay.get(late.headers.get('location')!);
    expect(told.text).toContain('Your session ended, so what you sent was not saved.');
  });

  it('a refused form links back to a page that exists', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const refused = await web.post('/settings/password', { current_password: 'x', new_password: 'y' }, { csrf: 'x'.repeat(32) });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('href="/settings"');
    expect(refused.text).not.toContain('href="/settings/password"');
  });

  it('changes the password only with the current one; other browsers are signed out, this one stays', async () => {
    const address = email();
    const web = new WebClient(svc.url);
    await web.signUp(address, 'plum orbit canyon lantern');
    const other = new WebClient(svc.url);
    await other.get('/login');
    expect((await other.post('/login', { email: address, password: 'plum orbit canyon lantern' })).status).toBe(303);
    await web.get('/settings');

    const wrong = await web.post('/settings/password', { current_password: 'not my password at all', new_password: 'saffron tide ninety two' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/id="f-current_password"[^>]*aria-invalid="true"[^>]*autofocus/);
    expect(wrong.text).not.toMatch(/id="f-new_password"[^>]*autofocus/);
    // Reloading the address the refused form left in the bar (a GET) shows the form again.
    const reloaded = await web.get('/settings/password');
    expect([reloaded.status, reloaded.headers.get('location')]).toEqual([303, '/settings#password']);
    const weak = await web.post('/settings/password', { current_password: 'plum orbit canyon lantern', new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.text).toMatch(/id="f-new_password"[^>]*aria-invalid="true"[^>]*autofocus/);
    expect((await other.get('/settings')).status).toBe(200);

    const ok = await web.post('/settings/password', { current_password: 'plum orbit canyon lantern', new_password: 'saffron tide ninety two' });
    expect(ok.status).toBe(303);
    expect((await web.get(ok.headers.get('location')!)).text).toContain('Your password was changed.');
    expect((await other.get('/settings')).status).toBe(303);
    const again = new WebClient(svc.url);
    await again.get('/login');
    expect((await again.post('/login', { email: address, password: 'plum orbit canyon lantern' })).status).toBe(401);
    expect((await again.post('/login', { email: address, password: 'saffron tide ninety two' })).status).toBe(303);
  });

  it('sends the session cookie again when the session’s expiry has slid past it, capped at the absolute end', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const token = web.cookies.get('__Host-svc_session')!.split('.')[0]!;
    const db = svc.service.deps.store.db;
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    // The session row and the browser's cookie as they are `age` after sign-in, last used `idle` ago.
    const backdate = async (age: number, idle: number) => {
      const now = Date.now();
      await db
        .updateTable('web_sessions')
        .set({ created_at: now - age, last_seen_at: now - idle, expires_at: now - idle + 7 * DAY })
        .where('id', '=', createHash('sha256').update(token).digest('hex'))
        .execute();
      web.cookies.set('__Host-svc_session', `${token}.${Math.floor((now - age + 7 * DAY) / 1000)}`);
    };
    const sessionCookie = () => web.lastSetCookie.find((c) => c.startsWith('__Host-svc_session='));
    const maxAge = () => Number(/; Max-Age=(\d+);/.exec(sessionCookie() ?? '')?.[1]);

    // A cookie from before its value carried its expiry (the bare token) still works, and is brought up to date.
    web.cookies.set('__Host-svc_session', token);
    expect((await web.get('/settings')).status).toBe(200);
    expect(sessionCookie()).toMatch(new RegExp(`^__Host-svc_session=${token}\\.\\d+;`));

    // Six days in and used yesterday: the sign-in cookie has a day left, the session a week.
    await backdate(6 * DAY, DAY);
    expect((await web.get('/settings')).status).toBe(200);
    expect(sessionCookie()).toMatch(new RegExp(`^__Host-svc_session=${token}\\.\\d+; Path=/; Max-Age=\\d+; HttpOnly; Secure; SameSite=Lax$`));
    expect(maxAge()).toBeGreaterThan(7 * 24 * 3600 - 60);
    expect(maxAge()).toBeLessThanOrEqual(7 * 24 * 3600);
    // Not on every request: the cookie the browser now holds matches the session.
    expect((await web.get('/settings')).status).toBe(200);
    expect((await web.get('/playground')).status).toBe(200);
    expect(sessionCookie()).toBeUndefined();

    // 29.5 days in: the session ends at its 30-day maximum, in 12 hours, however active; the cookie too.
    await backdate(29.5 * DAY, DAY);
    expect((await web.get('/settings')).status).toBe(200);
    expect(maxAge()).toBeGreaterThan(12 * 3600 - 60);
    expect(maxAge()).toBeLessThanOrEqual(12 * 3600);
  });

  it('takes a playground form post (its script did not run) only with the CSRF token, and explains that JavaScript is needed', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    const page = await web.get('/playground');
    expect(page.text).toContain('<form id="playground" method="post" action="/playground"');
    expect(page.text).toMatch(/<noscript>.*needs JavaScript.*<\/noscript>/);
    // A Free account is told, beside the agent that always generates, that it cannot.
    expect(page.text).toMatch(/<span data-model-hint="svc-prediction-markets-agent:refresh" hidden>[^<]* It needs the Plus, Pro or Enterprise plan; this account is on Free, so use :cache for a stored report\.<\/span>/);
    expect((await web.post('/playground', { model: 'svc-test', question: 'hi' }, { csrf: null })).status).toBe(403);
    const res = await web.post('/playground', { model: 'svc-test', question: 'hi' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>The playground needs JavaScript</h1>');
  });

  it('shows plan, balance and the credit history from the ledger, and the account’s email in the password form', async () => {
    const web = new WebClient(svc.url);
    const address = email();
    await web.signUp(address);
    const accountId = (await svc.service.deps.store.db.selectFrom('accounts').select('id').where('email', '=', address).executeTakeFirstOrThrow()).id;
    await svc.service.deps.accounts.setPlan(accountId, 'pro');
    await svc.service.deps.billing.grant({ accountId, amount: 10, note: 'welcome credits' });
    const settings = await web.get('/settings');
    expect(settings.text).toContain('<dd id="plan">Pro</dd>');
    expect(settings.text).toContain('<dd id="credits">10</dd>');
    // The password form names its account for password managers.
    const passwordForm = /<form method="post" action="\/settings\/password"[\s\S]*?<\/form>/.exec(settings.text)![0];
    expect(passwordForm).toContain(`<input type="email" autocomplete="username" value="${address}" hidden>`);
    const credits = await web.get('/settings/credits');
    expect(credits.text).toContain('<strong id="balance">10</strong>');
    expect(credits.text).toMatch(/Granted<\/td><td data-label="Details">welcome credits<\/td><td class="num" data-label="Change">\+10<\/td><td class="num" data-label="Balance">10<\/td>/);
    // A cursor edited by hand or gone stale: the newest entries, not an error page.
    for (const after of ['bogus', 'x'.repeat(5000)]) {
      const stale = await web.get(`/settings/credits?after=${after}`);
      expect(stale.status).toBe(200);
      expect(stale.text).toContain('welcome credits');
      expect(stale.text).not.toContain('xxxxxxxxxx');
    }
  });
});

describe('web pages: playground API, throttling and settings', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ agents, env: { SVC_LOGIN_ATTEMPTS_PER_MINUTE: '3' } });
  });
  afterAll(() => svc?.close());

  it('runs /v1/responses for a signed-in browser that sends its CSRF header, and for nobody else', async () => {
    const anon = await fetch(`${svc.url}/playground/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'svc-test', input: 'hi' }) });
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as any).error.code).toBe('not_signed_in');

    const web = new WebClient(svc.url);
    await web.signUp(email());
    await web.get('/playground');
    const noToken = await web.request('POST', '/playground/v1/responses', { json: { model: 'svc-test', input: 'hi' } });
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.text).error).toMatchObject({ code: 'invalid_csrf_token', param: 'x-csrf-token' });

    const res = await fetch(`${svc.url}/playground/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': web.csrf, cookie: web.cookieHeader() },
      body: JSON.stringify({ model: 'svc-test', input: 'hi', stream: true }),
    });
    expect(res.status).toBe(200);
    // A stream, like every playground answer, is never stored by a cache.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await readSse(res)).frames.map((f) => JSON.parse(f.data));
    const completed = events.find((e) => e.type === 'response.completed');
    expect(completed.response.output_text ?? completed.response.output[0].content[0].text).toBe('You asked: hi [1]');
    expect(completed.response.output[0].content[0].annotations[0]).toMatchObject({ order: 1, url: 'https://example.com/one' });

    // Its balance, which the page reads after a stream whose headers could not say what it charged.
    const account = await fetch(`${svc.url}/playground/v1/account`, { headers: { cookie: web.cookieHeader() } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ object: 'account', credits: 0, plan: 'free' });
    expect((await fetch(`${svc.url}/playground/v1/account`)).status).toBe(401);
    // Only the balance: key management stays on the settings pages.
    expect((await fetch(`${svc.url}/playground/v1/account/keys`, { headers: { cookie: web.cookieHeader() } })).status).toBe(404);
  });

  it('settles an Idempotency-Key sent to the playground: the retry is the stored result replayed, not a key left locked', async () => {
    const web = new WebClient(svc.url);
    await web.signUp(email());
    await web.get('/playground');
    const send = () =>
      fetch(`${svc.url}/playground/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': web.csrf, cookie: web.cookieHeader(), 'idempotency-key': 'playground-1' },
        body: JSON.stringify({ model: 'svc-test', input: 'hi' }),
      });
    const first = await send();
    expect(first.status).toBe(200);
    const again = await send();
    // Before, the key stayed in progress (409) for as long as the process lived, its lock renewed by a timer.
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as any).id).toBe(((await first.json()) as any).id);
  });

  it('rate-limits log-in attempts per email from one client, with Retry-After, even when the password is right', async () => {
    const address = email();
    await new WebClient(svc.url).signUp(address);
    const web = new WebClient(svc.url);
    await web.get('/login');
    for (let i = 0; i < 3; i++) expect((await web.post('/login', { email: address, password: `wrong guess number ${i}` })).status).toBe(401);
    const limited = await web.post('/login', { email: address, password: 'plum orbit canyon lantern' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many log-in attempts');
    // The form again, not an error page: the email and where to go next kept.
    const next = await web.post('/login', { email: address, password: 'plum orbit canyon lantern', next: '/settings/credits' });
    expect(next.status).toBe(429);
    expect(next.text).toContain(`value="${address}"`);
    expect(next.text).toContain('name="next" value="/settings/credits"');
    expect(next.text).toContain('name="password"');
    expect(web.cookies.has('__Host-svc_session')).toBe(false);
  });

  it('the playground over its rate limit says so of the playground, not of an API key', async () => {
    const own = await startService({ agents, env: { SVC_RATE_LIMIT_FREE: '1' } });
    try {
      const web = new WebClient(own.url);
      await web.signUp(email());
      await web.get('/playground');
      const send = () => fetch(`${own.url}/playground/v1/account`, { headers: { cookie: web.cookieHeader() } });
      expect((await send()).status).toBe(200);
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as any).error.message).toMatch(/^Rate limit reached for the playground on this account: 1 request per minute on the free plan\. Retry in \d+s\.$/);
    } finally {
      await own.close();
    }
  });

  it('a log-in or sign-up form sent from a second tab after logging in from the first goes on, not to "Form expired"', async () => {
    // Its own service: the log-ins of the other tests here count against this client address.
    const own = await startService({ agents });
    try {
      const address = email();
      await new WebClient(own.url).signUp(address);
      const web = new WebClient(own.url);
      await web.get('/login');
      const staleToken = web.csrf;
      expect((await web.post('/login', { email: address, password: 'plum orbit canyon lantern' })).status).toBe(303);
      // The other tab's form still carries the token from before the log-in.
      const second = await web.post('/login', { email: address, password: 'plum orbit canyon lantern', next: '/settings/credits' }, { csrf: staleToken });
      expect([second.status, second.headers.get('location')]).toEqual([303, '/settings/credits']);
      const signup = await web.post('/signup', { email: email(), password: 'plum orbit canyon lantern' }, { csrf: staleToken });
      expect([signup.status, signup.headers.get('location')]).toEqual([303, '/settings']);
    } finally {
      await own.close();
    }
  });

  it('counts only guesses of the current password against the password-change limit; an empty form names its fields', async () => {
    const own = await startService({ agents, env: { SVC_LOGIN_ATTEMPTS_PER_MINUTE: '2' } });
    try {
      const web = new WebClient(own.url);
      await web.signUp(email(), 'plum orbit canyon lantern');
      await web.get('/settings');
      const empty = await web.post('/settings/password', { current_password: '', new_password: '' });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain('Enter your current password and choose a new one.');
      expect(empty.text).toMatch(/id="f-current_password"[^>]*aria-invalid="true"/);
      expect(empty.text).toMatch(/id="f-new_password"[^>]*aria-invalid="true"/);
      // Mistakes the form can see cost no attempt.
      for (const mistake of [{ current_password: 'plum orbit canyon lantern', new_password: 'short' }, { current_password: 'plum orbit canyon lantern', new_password: 'plum orbit canyon lantern' }, { current_password: '', new_password: 'saffron tide ninety two' }]) {
        expect((await web.post('/settings/password', mistake)).status).toBe(400);
      }
      expect((await web.post('/settings/password', { current_password: 'a wrong guess here', new_password: 'saffron tide ninety two' })).status).toBe(401);
      expect((await web.post('/settings/password', { current_password: 'another wrong guess', new_password: 'saffron tide ninety two' })).status).toBe(401);
      const limited = await web.post('/settings/password', { current_password: 'plum orbit canyon lantern', new_password: 'saffron tide ninety two' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toContain('Too many password change attempts');
      expect(limited.text).toContain('name="current_password"');
    } finally {
      await own.close();
    }
  });

  it('counts sign-ups that could create an account, not forms with a mistake; over the limit, the form says so and keeps the email', async () => {
    const own = await startService({ agents, env: { SVC_LOGIN_ATTEMPTS_PER_MINUTE: '2' } });
    try {
      const web = new WebClient(own.url);
      await web.get('/signup');
      const empty = await web.post('/signup', { email: '', password: '' });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain('Enter your email and choose a password.');
      for (const mistake of [{ email: 'not-an-email', password: 'plum orbit canyon lantern' }, { email: email(), password: 'short' }, { email: email(), password: 'Password1234' }, { email: email(), password: '' }]) {
        expect((await web.post('/signup', mistake)).status).toBe(400);
      }
      expect((await new WebClient(own.url).signUp(email())).status).toBeLessThan(400);
      expect((await new WebClient(own.url).signUp(email())).status).toBeLessThan(400);
      const third = new WebClient(own.url);
      await third.get('/signup');
      const address = email();
      const limited = await third.post('/signup', { email: address, password: 'plum orbit canyon lantern' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toContain('Too many sign-up attempts');
      expect(limited.text).toContain(`value="${address}"`);
      expect(limited.text).toContain('name="password"');
    } finally {
      await own.close();
    }
  });

  it('sends a signed-out browser to log in, then back to the page it wanted', async () => {
    const web = new WebClient(svc.url);
    for (const path of ['/settings', '/settings/api-keys', '/settings/credits', '/playground']) {
      const res = await web.get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it('answers an unknown page with an HTML 404 for browsers and the JSON error for API clients', async () => {
    const page = await fetch(`${svc.url}/setings`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Page not found</h1>');
    for (const [h, v] of Object.entries(PAGE_HEADERS)) expect(page.headers.get(h), h).toBe(v);
    for (const [path, accept] of [['/setings', 'application/json'], ['/v1/nope', 'text/html']]) {
      const api = await fetch(`${svc.url}${path}`, { headers: { accept } });
      expect(api.status).toBe(404);
      expect(((await api.json()) as any).error.code).toBe('unknown_url');
    }
  });

  it('serves versioned assets as immutable (on a 304 too), unknown ones as 404, and no favicon with 204', async () => {
    const page = await new WebClient(svc.url).get('/login');
    const href = /href="(\/assets\/style\.css\?v=[0-9a-f]{12})"/.exec(page.text)![1]!;
    const css = await fetch(`${svc.url}${href}`);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // A revalidation's 304 says the same as the 200, not the pages' no-store.
    const etag = css.headers.get('etag')!;
    for (const [url, cacheControl] of [[href, 'public, max-age=31536000, immutable'], ['/assets/style.css', 'no-cache']] as const) {
      const again = await fetch(`${svc.url}${url}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe(cacheControl);
      expect(again.headers.get('etag')).toBe(etag);
    }
    const icon = await fetch(`${svc.url}/favicon.ico`);
    expect(icon.status).toBe(204);
    expect((await fetch(`${svc.url}/assets/../package.json`)).status).toBe(404);
    expect((await fetch(`${svc.url}/assets/nope.js`)).status).toBe(404);
  });

  it('names a key through the API too, and refuses an over-long name', async () => {
    const { apiKey } = await svc.account();
    const post = (body: unknown) => fetch(`${svc.url}/v1/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await post({ name: '  research   bot ' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ name: 'research bot' });
    const long = await post({ name: 'x'.repeat(61) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as any).error).toMatchObject({ param: 'name', code: 'invalid_value' });
  });
});

describe('web pages: log-in attempts that are not well-formed', () => {
  it('an email longer than any account has makes no throttle bucket of its own (the address limit counts it), and fields that are not text are as if not sent', async () => {
    const svc = await startService({ agents, env: { SVC_LOGIN_ATTEMPTS_PER_MINUTE: '3' } });
    try {
      const keys: string[] = [];
      const limiter = svc.service.deps.rateLimiter;
      const take = limiter.take.bind(limiter);
      limiter.take = (key, limit, now) => (keys.push(key), take(key, limit, now));
      const web = new WebClient(svc.url);
      await web.get('/login');
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) statuses.push((await web.post('/login', { email: `${'x'.repeat(15_000)}${i}@example.com`, password: 'a guess' })).status);
      expect(statuses).toEqual([...Array(12).fill(401), 429, 429]); // 3 a minute per email, 12 per address
      expect(Math.max(...keys.map((k) => k.length))).toBeLessThan(100);
      expect(keys.filter((k) => k.startsWith('login:email:'))).toEqual([]);

      const other = new WebClient(svc.url);
      await other.get('/login');
      const json = await other.request('POST', '/login', { json: { _csrf: other.csrf, email: ['a@example.com'], password: { p: 1 } } });
      expect(json.status).toBe(400);
      expect(json.text).toContain('Enter your email and password.');
    } finally {
      await svc.close();
    }
  });
});

describe('web pages: operator-made accounts', () => {
  it('sign in only once the operator sets a password with the CLI, which also ends their sessions', async () => {
    const svc = await startService({ agents });
    try {
      const address = email();
      const { id } = await svc.account({ email: address, plan: 'pro', credits: 5 });
      const web = new WebClient(svc.url);
      await web.get('/login');
      expect((await web.post('/login', { email: address, password: 'plum orbit canyon lantern' })).status).toBe(401);

      const env = { SVC_DATA_DIR: svc.dataDir, SVC_LOG_LEVEL: 'silent' };
      const weak = await runCli(['accounts', 'set-password', '--account', id], env, 'short\n');
      expect(weak.code).not.toBe(0);
      expect(weak.stderr).toContain('Use at least 12 characters');
      const set = await runCli(['accounts', 'set-password', '--account', id], env, 'plum orbit canyon lantern\n');
      expect(set.code).toBe(0);
      expect(JSON.parse(set.stdout)).toEqual({ id, email: address, password_set: true });

      const ok = await web.post('/login', { email: address, password: 'plum orbit canyon lantern' });
      expect(ok.status).toBe(303);
      expect((await web.get('/settings')).text).toContain('<dd id="plan">Pro</dd>');

      // A new password ends every session of the account.
      expect((await runCli(['accounts', 'set-password', '--account', id], env, 'saffron tide ninety two\n')).code).toBe(0);
      expect((await web.get('/settings')).status).toBe(303);
    } finally {
      await svc.close();
    }
  });
});

describe('web pages: cookie, proxy and sign-up settings', () => {
  it('throttles log-ins per client address: the forwarded one behind a trusted proxy, else the socket’s', async () => {
    const tries = async (svc: TestService, forwardedFor: string, count: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        const web = new WebClient(svc.url, { 'x-forwarded-for': forwardedFor });
        await web.get('/login');
        statuses.push((await web.post('/login', { email: `nobody${i}-${forwardedFor}@example.com`, password: 'wrong wrong wrong' })).status);
      }
      return statuses;
    };
    const proxied = await startService({ agents, env: { SVC_TRUST_PROXY: 'true', SVC_LOGIN_ATTEMPTS_PER_MINUTE: '1' } });
    try {
      // 1 per email, 4 per address: the fifth address-wide attempt is refused, another address is not.
      expect(await tries(proxied, '203.0.113.7', 5)).toEqual([401, 401, 401, 401, 429]);
      expect(await tries(proxied, '198.51.100.9', 1)).toEqual([401]);
      // The proxy appends the address it saw; what the client wrote before it buys nothing (every
      // hop was trusted, so the left-most, forged address was taken as the client's).
      const forged: number[] = [];
      for (let i = 0; i < 5; i++) forged.push(...(await tries(proxied, `10.3.${i}.7, 192.0.2.44`, 1)));
      expect(forged).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await proxied.close();
    }
    const direct = await startService({ agents, env: { SVC_LOGIN_ATTEMPTS_PER_MINUTE: '1' } });
    try {
      // Not behind a proxy: a forged X-Forwarded-For does not buy a fresh budget.
      expect(await tries(direct, '203.0.113.7', 4)).toEqual([401, 401, 401, 401]);
      expect(await tries(direct, '198.51.100.9', 1)).toEqual([429]);
    } finally {
      await direct.close();
    }
  });

  it('guesses at an account’s password from one address do not lock its owner out at another', async () => {
    const svc = await startService({ agents, env: { SVC_TRUST_PROXY: 'true', SVC_LOGIN_ATTEMPTS_PER_MINUTE: '5' } });
    try {
      const address = email();
      await new WebClient(svc.url, { 'x-forwarded-for': '198.51.100.9' }).signUp(address);
      const attacker = new WebClient(svc.url, { 'x-forwarded-for': '203.0.113.7' });
      await attacker.get('/login');
      const guesses: number[] = [];
      for (let i = 0; i < 6; i++) guesses.push((await attacker.post('/login', { email: address, password: `wrong guess number ${i}` })).status);
      expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
      // Over its limit, that client is refused even the right password.
      expect((await attacker.post('/login', { email: address, password: 'plum orbit canyon lantern' })).status).toBe(429);

      const owner = new WebClient(svc.url, { 'x-forwarded-for': '198.51.100.9' });
      await owner.get('/login');
      const res = await owner.post('/login', { email: address, password: 'plum orbit canyon lantern' });
      expect(res.status).toBe(303);
      expect((await owner.get('/settings')).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('drops Secure (and the __Host- prefix) only for plain http to a non-loopback host, or when told', async () => {
    const svc = await startService({ agents, env: { SVC_WEB_SIGNUP: 'false' } });
    try {
      expect((await setCookiesFor(svc.url, 'svc.lan.example:8080'))[0]).toMatch(/^svc_csrf=[^;]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
      const local = new WebClient(svc.url);
      await local.get('/login');
      expect(local.lastSetCookie[0]).toMatch(/^__Host-svc_csrf=[^;]+; Path=\/; Max-Age=43200; HttpOnly; Secure; SameSite=Lax$/);
      const closed = await local.get('/signup');
      expect(closed.status).toBe(403);
      expect(closed.text).toContain('does not accept new sign-ups');
      expect((await local.post('/signup', { email: email(), password: 'plum orbit canyon lantern' })).status).toBe(403);
    } finally {
      await svc.close();
    }
    const behindTls = await startService({ agents, env: { SVC_PUBLIC_URL: 'https://svc.example.com', SVC_SECURE_COOKIES: 'auto' } });
    try {
      expect((await setCookiesFor(behindTls.url, 'svc.example.com'))[0]).toMatch(/^__Host-svc_csrf=.*; Secure; SameSite=Lax$/);
    } finally {
      await behindTls.close();
    }
  });
});

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('web pages: stylesheet', () => {
  const css = readFileSync(new URL('../../../src/server/web/assets/style.css', import.meta.url), 'utf8');
  const colour = (pattern: RegExp) => pattern.exec(css)?.[1] ?? '';

  it('draws the focus outline at 3:1 or more against every background it sits on (WCAG 1.4.11)', () => {
    expect(contrast('#f9a825', '#ffffff')).toBeLessThan(3); // the check itself: the old amber fails
    expect(css).toMatch(/:focus-visible \{ outline: 3px solid var\(--focus\); outline-offset: 2px; \}/);
    const focus = colour(/--focus: (#[0-9a-f]{6})/i);
    const backgrounds = {
      page: colour(/--bg: (#[0-9a-f]{6})/i),
      'header and answer': colour(/--panel: (#[0-9a-f]{6})/i),
      'error notice': colour(/\.notice\.error \{[^}]*background: (#[0-9a-f]{6})/i),
      'ok notice': colour(/\.notice\.ok \{[^}]*background: (#[0-9a-f]{6})/i),
    };
    for (const [where, bg] of Object.entries(backgrounds)) {
      expect(bg, where).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(focus, bg), `focus ${focus} on ${where} ${bg}`).toBeGreaterThanOrEqual(3);
    }
  });
});
