import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore, WebSession } from '../../accounts/sessions.js';
import { SvcError } from '../../errors.js';
import { randomToken } from '../../ids.js';
import { parseCookies, serializeCookie } from './cookies.js';
import { openFlash, sealFlash } from './flash.js';

declare module 'fastify' {
  interface FastifyRequest {
    webSession?: WebSession | null;
  }
}

export type SecureCookies = 'auto' | 'always' | 'never';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/** How far the session's expiry may move past the cookie's before the cookie is sent again. */
const COOKIE_RESEND_AFTER_MS = 3_600_000;
/** A flash is read by the page the redirect leads to, at once; this only bounds a lost one. */
const FLASH_MAX_AGE_SECONDS = 300;

/**
 * The session cookie's value: the token, then when this cookie expires (seconds since the epoch).
 * Browsers do not send a cookie's expiry back, so it rides along in the value, to tell when the
 * session's sliding expiry has left the cookie's behind. A client that edits it changes only when
 * it is sent the cookie again. A bare token (a cookie from before) counts as behind.
 */
const sessionCookie = (token: string, expiresAt: number) => `${token}.${Math.floor(expiresAt / 1000)}`;

function parseSessionCookie(value: string | undefined): { token: string; expiresAt: number | null } | null {
  if (!value) return null;
  const m = /^([^.]+)(?:\.(\d{1,12}))?$/.exec(value);
  if (!m) return { token: value, expiresAt: null };
  return { token: m[1]!, expiresAt: m[2] === undefined ? null : Number(m[2]) * 1000 };
}

const cookieBehind = (cookieExpiresAt: number | null, session: WebSession) =>
  cookieExpiresAt === null || Math.abs(session.expiresAt - cookieExpiresAt) > COOKIE_RESEND_AFTER_MS;

/**
 * Whether cookies get the Secure attribute. `auto`: yes over https (directly or as the public
 * URL says, behind a TLS proxy) and on loopback hosts, which browsers treat as secure contexts;
 * no only for plain http to another host, where a browser would drop a Secure cookie.
 */
export function cookiesSecure(mode: SecureCookies, request: FastifyRequest, publicUrl: string): boolean {
  if (mode !== 'auto') return mode === 'always';
  return request.protocol === 'https' || publicUrl.startsWith('https:') || LOOPBACK.test(request.headers.host ?? '');
}

/**
 * The browser side of sign-in: the session cookie, and the CSRF token every form and every
 * playground request must echo. A signed-in browser's token lives in its session row; before
 * sign-in (the sign-up and log-in forms) it is a random cookie echoed in the form, which a
 * page on another site can neither read nor set.
 */
export class WebAuth {
  constructor(
    private readonly sessions: SessionStore,
    private readonly options: { secureCookies: SecureCookies; publicUrl: () => string },
  ) {}

  #secure(request: FastifyRequest) {
    return cookiesSecure(this.options.secureCookies, request, this.options.publicUrl());
  }

  // The __Host- prefix pins a cookie to this host and path /, so no subdomain can plant one.
  #name(request: FastifyRequest, base: string) {
    return this.#secure(request) ? `__Host-${base}` : base;
  }

  #cookie(request: FastifyRequest, base: string): string | undefined {
    return parseCookies(request.headers.cookie).get(this.#name(request, base));
  }

  /**
   * Loads the signed-in session, if any, onto `request.webSession`. When the session's idle expiry
   * has slid well past the cookie's, the cookie is sent again to match, or the browser would drop
   * it while the session still runs.
   */
  async load(request: FastifyRequest, reply: FastifyReply): Promise<WebSession | null> {
    if (request.webSession !== undefined) return request.webSession;
    const cookie = parseSessionCookie(this.#cookie(request, 'svc_session'));
    const now = Date.now();
    const session = cookie ? await this.sessions.lookup(cookie.token, now) : null;
    if (cookie && session && cookieBehind(cookie.expiresAt, session)) this.#setSession(request, reply, cookie.token, session, now);
    request.webSession = session;
    return session;
  }

  async signIn(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<WebSession> {
    // A new token at every sign-in: a token planted before sign-in is never promoted.
    const old = parseSessionCookie(this.#cookie(request, 'svc_session'));
    if (old) await this.sessions.destroy(old.token);
    const now = Date.now();
    const { token, session } = await this.sessions.create(accountId, now);
    this.#setSession(request, reply, token, session, now);
    request.webSession = session;
    return session;
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const cookie = parseSessionCookie(this.#cookie(request, 'svc_session'));
    if (cookie) await this.sessions.destroy(cookie.token);
    this.#set(request, reply, 'svc_session', '', 0);
    request.webSession = null;
  }

  /** The token forms must carry: the session's, or before sign-in the pre-session cookie's (set if missing). */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string {
    if (request.webSession) return request.webSession.csrfToken;
    let token = this.#cookie(request, 'svc_csrf');
    if (!token || token.length < 32 || token.length > 64) {
      token = randomToken(32);
      this.#set(request, reply, 'svc_csrf', token, 12 * 3600);
    }
    return token;
  }

  /** Whether `sent` (the form field or x-csrf-token header) is this browser's token. */
  csrfValid(request: FastifyRequest, sent: unknown): boolean {
    const expected = request.webSession ? request.webSession.csrfToken : this.#cookie(request, 'svc_csrf');
    if (typeof sent !== 'string' || !expected || sent.length !== expected.length) return false;
    return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
  }

  /** Leaves `message` for the next page of this signed-in browser, sealed to its session. */
  setFlash(request: FastifyRequest, reply: FastifyReply, message: string): void {
    this.#set(request, reply, 'svc_flash', sealFlash(request.webSession!.csrfToken, message), FLASH_MAX_AGE_SECONDS);
  }

  /** The message the previous request left, once: the cookie is cleared as it is read. */
  takeFlash(request: FastifyRequest, reply: FastifyReply): string | null {
    const sealed = this.#cookie(request, 'svc_flash');
    if (!sealed) return null;
    this.#set(request, reply, 'svc_flash', '', 0);
    return request.webSession ? openFlash(request.webSession.csrfToken, sealed) : null;
  }

  /** The cookie lives exactly as long as the session row: its idle expiry, capped at the absolute one. */
  #setSession(request: FastifyRequest, reply: FastifyReply, token: string, session: WebSession, now: number) {
    this.#set(request, reply, 'svc_session', sessionCookie(token, session.expiresAt), (session.expiresAt - now) / 1000);
  }

  #set(request: FastifyRequest, reply: FastifyReply, base: string, value: string, maxAgeSeconds: number) {
    const cookie = serializeCookie(this.#name(request, base), value, { maxAgeSeconds, secure: this.#secure(request), sameSite: 'Lax' });
    reply.header('set-cookie', cookie); // fastify appends to earlier Set-Cookie headers
  }
}

/**
 * For the playground's API mount: the signed-in browser stands in for an API key. Requests
 * that change anything must echo the CSRF token in x-csrf-token, which no other site can read.
 */
export function requireWebSession(auth: WebAuth) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await auth.load(request, reply);
    if (!session) throw new SvcError('authentication', { code: 'not_signed_in', message: 'Sign in at /login to use the playground.' });
    if (request.method !== 'GET' && request.method !== 'HEAD' && !auth.csrfValid(request, request.headers['x-csrf-token'])) {
      throw new SvcError('permission', { code: 'invalid_csrf_token', message: "Missing or wrong 'x-csrf-token' header: reload the playground page and try again.", param: 'x-csrf-token' });
    }
    // Playground requests count against the account's own bucket, at its plan's rate.
    request.auth = { account: session.account, keyId: `web:${session.account.id}` };
  };
}
